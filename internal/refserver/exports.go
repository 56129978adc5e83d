package refserver

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Organization data exports (POST and GET /export/realm, DELETE
// /export/realm/{export_id}, GET /export/realm/consents and the realm_export
// event), after Zulip's zerver/views/realm_export.py (export_realm,
// get_realm_exports, delete_realm_export, get_users_export_consents),
// zerver/actions/realm_export.py (notify_realm_export, do_delete_realm_export)
// and zerver/models/realms.py RealmExport (types 1 public, 2 full with
// consent, 3 full without consent; statuses requested, started, succeeded,
// failed, deleted). What the view does, in its order:
//   - @require_realm_admin: "Must be an organization administrator";
//   - export_type, a Json[int] in {1, 2} from feature level 304 (before, the
//     parameter is unknown and every export is public), the strings public,
//     full_with_consent and full_without_consent from feature level 449 (API
//     changelog, feature level 449); a value outside the list is pydantic's
//     value error, "Invalid export_type: Value error, Not in the list of
//     possible values";
//   - at most EXPORT_LIMIT = 5 exports requested in the last 7 days (every
//     RealmExport row counts, failed and deleted ones too): "Exceeded rate
//     limit.";
//   - a full export with consent needs an owner who consents ("Make sure at
//     least one Organization Owner is consenting to the export or contact
//     {email} for help."), a public one an owner whose e-mail administrators
//     may see ("Make sure at least one Organization Owner allows other
//     Administrators to see their email address or contact {email} for help",
//     without a final period, as Zulip writes it);
//   - the answer is {"id": ...} (feature level 182), and every administrator
//     gets a realm_export event with every export, when the export is
//     requested and again when it ends (notify_realm_export(realm)).
//
// delete_realm_export: "Invalid data export ID", "Export already deleted",
// "Export failed, nothing to delete", "Export still in progress", in that
// order. get_users_export_consents lists active humans, with
// email_address_visibility from feature level 430.
//
// Zulip's view of feature level 449 (string types, full_without_consent)
// was not in the sources available; the API documentation and changelog were.
// The decisions that fill the gaps:
//
// Choice: full_without_consent needs an organization owner ("Must be an
// organization owner") and the organization's owner_full_content_access flag,
// which Zulip sets only with a management command (here: Server.Do), refused
// as "Full exports without member consent are not enabled for this
// organization."; the owner check comes first, both before the rate limit.
//
// Choice: the size checks (250,000 messages, 20 GiB of uploads: "Please
// request a manual export from {email}.") are not modelled; the seeded
// organization is small. {email} (FromAddress.SUPPORT) is zulip-admin@ and the
// host without its first label, as in the OpenAPI example.
//
// Choice: check_public_export_is_usable is read as "an active owner whose
// email_address_visibility is not nobody", check_export_with_consent_is_usable
// as "an active owner with allow_private_data_export" (Exports.Consents; the
// seeded owner consents).
//
// Choice: an export stays pending for Options.ExportDuration (default 2 s, by
// Options.Clock; negative: it ends at once) and ends when exports are next
// looked at (any export request; register has no exports section), which is
// also when the ending's realm_export event is sent; Options.ExportFailure makes
// it fail instead (failed_timestamp, no URL).
//
// Choice: export_url is under the scheme and host the requesting client used
// (the server does not know the address it is served at), at Zulip's
// local-uploads path /user_avatars/exports/<realm id>/<key>/<file>, which
// serves a small .tar.gz, without authentication, until the export is deleted.

func init() {
	registerArea("exports", area{seed: seedExports, seedStep: 60, routes: (*Server).routesExports})
	for route, view := range map[string]string{
		"GET /export/realm":                "zerver/views/realm_export.py get_realm_exports",
		"DELETE /export/realm/{export_id}": "zerver/views/realm_export.py delete_realm_export",
		"GET /export/realm/consents":       "zerver/views/realm_export.py get_users_export_consents",
	} {
		untypedViews[route] = view
	}
}

// Export types, as RealmExport numbers them.
const (
	ExportPublic             = 1
	ExportFullWithConsent    = 2
	ExportFullWithoutConsent = 3
)

// Export statuses, as RealmExport numbers them.
const (
	exportRequested = 1
	exportSucceeded = 3
	exportFailed    = 4
	exportDeleted   = 5
)

// Feature levels of the exports API.
const (
	exportIDFL         = 182 // POST /export/realm answers the id
	exportConsentsFL   = 295 // GET /export/realm/consents
	exportTypeFL       = 304 // export_type, as an integer
	exportConsentEmail = 430 // email_address_visibility in the consents
	exportTypeStringFL = 449 // export_type as a string; full_without_consent
)

// exportLimit and exportLimitWindow are export_realm's EXPORT_LIMIT: at most
// five exports requested in seven days.
const (
	exportLimit       = 5
	exportLimitWindow = 7 * 24 * time.Hour
)

// defaultExportDuration is how long an export stays pending by default.
const defaultExportDuration = 2 * time.Second

// exportTypeNames are the FL449 names of the export types.
var exportTypeNames = map[int]string{
	ExportPublic: "public", ExportFullWithConsent: "full_with_consent", ExportFullWithoutConsent: "full_without_consent",
}

// Exports is the organization's export state.
type Exports struct {
	List []*RealmExport `json:"list,omitempty"`
	// Consents holds allow_private_data_export by user id (absent: false).
	Consents map[int]bool `json:"consents,omitempty"`
	// OwnerFullContentAccess is the realm's owner_full_content_access flag,
	// set with a management command on a real server.
	OwnerFullContentAccess bool `json:"owner_full_content_access,omitempty"`
}

// RealmExport is one data export.
type RealmExport struct {
	ID           int     `json:"id"`
	Type         int     `json:"type"`
	ActingUserID int     `json:"acting_user_id"`
	Status       int     `json:"status"`
	Requested    float64 `json:"requested"` // UNIX seconds
	Ends         float64 `json:"ends"`      // when a pending export ends
	Failed       float64 `json:"failed,omitempty"`
	Deleted      float64 `json:"deleted,omitempty"`
	// URL is export_url once the export succeeded.
	URL string `json:"url,omitempty"`
	// Base is the scheme and host the export's URL is under.
	Base string `json:"base"`
}

// seedExports consents the owner's private data and leaves no export.
func seedExports(r *Realm, _, _ int64) {
	r.Exports = &Exports{Consents: map[int]bool{SeedOwnerID: true}}
}

// routesExports registers the endpoints, and the tarballs' path outside the API.
func (s *Server) routesExports() {
	s.handle("POST /export/realm", authUser, s.exportRealm)
	s.handle("GET /export/realm", authUser, s.getRealmExports)
	s.handle("DELETE /export/realm/{export_id}", authUser, s.deleteRealmExport)
	if s.opts.FeatureLevel >= exportConsentsFL {
		s.handle("GET /export/realm/consents", authUser, s.getExportConsents)
	}
	s.mux.HandleFunc("GET /user_avatars/exports/{realm}/{key}/{file}", s.serveExportTarball)
}

// exports returns the realm's export state, made on first use (a state file
// older than this area has none).
func (r *Realm) exports() *Exports {
	if r.Exports == nil {
		r.Exports = &Exports{Consents: map[int]bool{}}
	}
	return r.Exports
}

// exportWire is one export as the API and the event show it.
func (s *Server) exportWire(e *RealmExport) obj {
	nullable := func(v float64) any {
		if v == 0 {
			return nil
		}
		return v
	}
	var url any
	if e.URL != "" && e.Status == exportSucceeded {
		url = e.URL
	}
	out := obj{"id": e.ID, "acting_user_id": e.ActingUserID, "export_time": e.Requested,
		"deleted_timestamp": nullable(e.Deleted), "failed_timestamp": nullable(e.Failed),
		"export_url": url, "pending": e.Status == exportRequested}
	switch fl := s.opts.FeatureLevel; {
	case fl >= exportTypeStringFL:
		out["export_type"] = exportTypeNames[e.Type]
	case fl >= exportTypeFL:
		out["export_type"] = e.Type
	}
	if exportPriorServerField(s.opts.FeatureLevel) {
		// Exports carried across a realm import; this server makes none.
		out["export_from_prior_server"] = false
	}
	return out
}

// exportPriorServerField says whether a level's exports carry
// export_from_prior_server: "New in Zulip 12.1 (feature levels 499-501, and
// 506+)" (the newest description's RealmExport).
func exportPriorServerField(fl int) bool {
	return fl >= 506 || fl >= 499 && fl <= 501
}

// exportsWire is every export, in id order (get_realm_exports_serialized).
func (s *Server) exportsWire() []obj {
	list := s.realm.exports().List
	out := make([]obj, 0, len(list))
	for _, e := range list {
		out = append(out, s.exportWire(e))
	}
	return out
}

// emitExports sends realm_export, with every export, to the administrators.
func (s *Server) emitExports() {
	s.emit(obj{"type": "realm_export", "exports": s.exportsWire()}, func(u *User) bool { return u.IsAdmin() })
}

// settleExports ends the pending exports whose time has come, and tells the
// administrators.
func (s *Server) settleExports() {
	now := unixSeconds(s.now())
	changed := false
	for _, e := range s.realm.exports().List {
		if e.Status != exportRequested || now < e.Ends {
			continue
		}
		changed = true
		if s.opts.ExportFailure {
			e.Status, e.Failed = exportFailed, now
			continue
		}
		e.Status = exportSucceeded
		key := sha256.Sum256([]byte("export:" + strconv.Itoa(e.ID)))
		e.URL = e.Base + "/user_avatars/exports/" + strconv.Itoa(realmID) + "/" +
			base64.RawURLEncoding.EncodeToString(key[:18]) + "/" + exportFileName(s.realm, e)
	}
	if changed {
		s.emitExports()
	}
}

// exportFileName is the tarball's name: zulip-export-<subdomain>-<date>.tar.gz.
func exportFileName(r *Realm, e *RealmExport) string {
	sub, _, _ := strings.Cut(r.Host, ".")
	when := time.Unix(int64(e.Requested), 0).UTC().Format("2006-01-02-15-04-05")
	return "zulip-export-" + sub + "-" + when + "-" + strconv.Itoa(e.ID) + ".tar.gz"
}

// unixSeconds is t as fractional UNIX seconds.
func unixSeconds(t time.Time) float64 { return float64(t.UnixMicro()) / 1e6 }

// exportTypeParam reads export_type as the server's feature level declares it.
func (c *call) exportTypeParam() (int, error) {
	fl := c.s.opts.FeatureLevel
	if fl < exportTypeFL {
		return ExportPublic, nil // the parameter is unknown: ignored_parameters_unsupported
	}
	notInList := errBadRequest("Invalid export_type: Value error, Not in the list of possible values")
	if fl >= exportTypeStringFL {
		v, ok := c.optString("export_type")
		if !ok {
			return ExportPublic, nil
		}
		for t, name := range exportTypeNames {
			if name == v {
				return t, nil
			}
		}
		return 0, notInList
	}
	var t int
	ok, err := c.optJSON("export_type", &t)
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return ExportPublic, nil
	case t != ExportPublic && t != ExportFullWithConsent:
		return 0, notInList
	}
	return t, nil
}

// exportSupport is FromAddress.SUPPORT in the view's messages (a Choice: see
// the file's comment).
func (r *Realm) exportSupport() string {
	host := r.Host
	if _, rest, ok := strings.Cut(host, "."); ok {
		host = rest
	}
	return "zulip-admin@" + host
}

// exportRealm is export_realm, its checks in their order.
func (s *Server) exportRealm(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	t, err := c.exportTypeParam()
	if err != nil {
		return nil, err
	}
	r := c.realm()
	if t == ExportFullWithoutConsent {
		if err := c.requireOwner(); err != nil {
			return nil, err
		}
		if !r.exports().OwnerFullContentAccess {
			return nil, errBadRequest("Full exports without member consent are not enabled for this organization.")
		}
	}
	s.settleExports()
	now := s.now()
	since := unixSeconds(now.Add(-exportLimitWindow))
	recent := 0
	for _, e := range r.exports().List {
		if e.Requested >= since {
			recent++
		}
	}
	if recent >= exportLimit {
		return nil, errBadRequest("Exceeded rate limit.")
	}
	switch t {
	case ExportFullWithConsent:
		if !r.ownerMatches(func(u *User) bool { return r.exports().Consents[u.ID] }) {
			return nil, errBadRequest("Make sure at least one Organization Owner is consenting to the export "+
				"or contact %s for help.", r.exportSupport())
		}
	case ExportPublic:
		if !r.ownerMatches(func(u *User) bool { return u.EmailVisibility != EmailVisibleNobody }) {
			return nil, errBadRequest("Make sure at least one Organization Owner allows other "+
				"Administrators to see their email address or contact %s for help", r.exportSupport())
		}
	}
	d := s.opts.ExportDuration
	if d == 0 {
		d = defaultExportDuration
	}
	if d < 0 {
		d = 0
	}
	scheme := "http"
	if c.r.TLS != nil {
		scheme = "https"
	}
	e := &RealmExport{ID: r.newID("realm_export"), Type: t, ActingUserID: c.user.ID, Status: exportRequested,
		Requested: unixSeconds(now), Ends: unixSeconds(now.Add(d)), Base: scheme + "://" + c.r.Host}
	r.exports().List = append(r.exports().List, e)
	s.emitExports()
	if s.opts.FeatureLevel < exportIDFL {
		return obj{}, nil
	}
	return obj{"id": e.ID}, nil
}

// ownerMatches reports whether an active human owner satisfies ok.
func (r *Realm) ownerMatches(ok func(u *User) bool) bool {
	for _, u := range r.Users {
		if u.IsActive && !u.IsBot && u.IsOwner() && ok(u) {
			return true
		}
	}
	return false
}

// getRealmExports is get_realm_exports.
func (s *Server) getRealmExports(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	s.settleExports()
	return obj{"exports": s.exportsWire()}, nil
}

// deleteRealmExport is delete_realm_export.
func (s *Server) deleteRealmExport(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	id, err := c.pathInt("export_id")
	if err != nil {
		return nil, err
	}
	s.settleExports()
	var e *RealmExport
	for _, x := range c.realm().exports().List {
		if x.ID == id {
			e = x
		}
	}
	switch {
	case e == nil:
		return nil, errBadRequest("Invalid data export ID")
	case e.Status == exportDeleted:
		return nil, errBadRequest("Export already deleted")
	case e.Status == exportFailed:
		return nil, errBadRequest("Export failed, nothing to delete")
	case e.Status == exportRequested:
		return nil, errBadRequest("Export still in progress")
	}
	e.Status, e.Deleted = exportDeleted, unixSeconds(s.now())
	s.emitExports()
	return obj{}, nil
}

// getExportConsents is get_users_export_consents: active humans, by id.
func (s *Server) getExportConsents(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	r := c.realm()
	ids := make([]int, 0, len(r.Users))
	for id, u := range r.Users {
		if u.IsActive && !u.IsBot {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	out := make([]obj, 0, len(ids))
	for _, id := range ids {
		o := obj{"user_id": id, "consented": r.exports().Consents[id]}
		if s.opts.FeatureLevel >= exportConsentEmail {
			o["email_address_visibility"] = r.Users[id].EmailVisibility
		}
		out = append(out, o)
	}
	return obj{"export_consents": out}, nil
}

// serveExportTarball serves a succeeded, undeleted export's tarball (nginx
// serves these files on a real server, without authentication: the key in
// the path is the secret).
func (s *Server) serveExportTarball(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	var found *RealmExport
	for _, e := range s.realm.exports().List {
		if e.Status == exportSucceeded && e.URL != "" && strings.HasSuffix(e.URL, r.URL.Path) {
			found = e
		}
	}
	var name string
	if found != nil {
		name = exportFileName(s.realm, found)
	}
	s.mu.Unlock()
	if found == nil {
		http.NotFound(w, r)
		return
	}
	body := exportTarball(strings.TrimSuffix(name, ".tar.gz"), found)
	w.Header().Set("Content-Type", "application/gzip")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}

// exportTarball is a small gzipped tar holding the export's realm.json stand-in.
func exportTarball(dir string, e *RealmExport) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	content := []byte(`{"export_type":"` + exportTypeNames[e.Type] + `","id":` + strconv.Itoa(e.ID) + "}\n")
	_ = tw.WriteHeader(&tar.Header{Name: dir + "/realm.json", Mode: 0o644, Size: int64(len(content)),
		ModTime: time.Unix(int64(e.Requested), 0)})
	_, _ = tw.Write(content)
	_ = tw.Close()
	_ = gz.Close()
	return buf.Bytes()
}
