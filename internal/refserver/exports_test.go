package refserver

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// exportClock is a settable clock for export tests.
type exportClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *exportClock) get() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *exportClock) add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// exportWant checks an error answer's status and message.
func exportWant(t *testing.T, status int, body map[string]any, wantStatus int, code, msg string) {
	t.Helper()
	if status != wantStatus || body["code"] != code || body["msg"] != msg {
		t.Fatalf("got %d %v, want %d %s %q", status, body, wantStatus, code, msg)
	}
}

// exportList is GET /export/realm's exports, as the owner.
func (e *chatEnv) exportList() []map[string]any {
	e.t.Helper()
	status, body := e.chatDo(SeedOwnerID, http.MethodGet, "/export/realm", nil)
	if status != 200 {
		e.t.Fatalf("GET /export/realm: %d %v", status, body)
	}
	var out []map[string]any
	for _, x := range body["exports"].([]any) {
		out = append(out, x.(map[string]any))
	}
	return out
}

// TestExports_lifecycle: pending for the configured time, then succeeded with
// a URL under the client's own address that serves a tarball; deletion and
// its refusals in delete_realm_export's order.
func TestExports_lifecycle(t *testing.T) {
	clock := &exportClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	e := chatNew(t, func(o *Options) { o.Clock = clock.get; o.ExportDuration = 10 * time.Second })
	status, body := e.chatDo(SeedAdminID, http.MethodPost, "/export/realm", url.Values{"export_type": {"public"}})
	if status != 200 || body["id"] != float64(1) {
		t.Fatalf("POST /export/realm: %d %v", status, body)
	}
	got := e.exportList()
	if len(got) != 1 || got[0]["pending"] != true || got[0]["export_url"] != nil || got[0]["export_type"] != "public" ||
		got[0]["acting_user_id"] != float64(SeedAdminID) || got[0]["failed_timestamp"] != nil {
		t.Fatalf("pending export: %v", got)
	}
	status, body = e.chatDo(SeedAdminID, http.MethodDelete, "/export/realm/1", nil)
	exportWant(t, status, body, 400, "BAD_REQUEST", "Export still in progress")
	clock.add(10 * time.Second)
	got = e.exportList()
	u, _ := got[0]["export_url"].(string)
	if got[0]["pending"] != false || !strings.HasPrefix(u, e.ts.URL+"/user_avatars/exports/2/") || !strings.HasSuffix(u, ".tar.gz") {
		t.Fatalf("finished export: %v", got)
	}
	resp, err := http.Get(u) //nolint:noctx // a test's one request
	if err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatalf("tarball: %v", err)
	}
	hdr, err := tar.NewReader(gz).Next()
	_ = resp.Body.Close()
	if err != nil || !strings.HasSuffix(hdr.Name, "/realm.json") {
		t.Fatalf("tarball entry: %v %v", hdr, err)
	}
	status, body = e.chatDo(SeedAdminID, http.MethodDelete, "/export/realm/7", nil)
	exportWant(t, status, body, 400, "BAD_REQUEST", "Invalid data export ID")
	if status, body = e.chatDo(SeedAdminID, http.MethodDelete, "/export/realm/1", nil); status != 200 {
		t.Fatalf("delete: %d %v", status, body)
	}
	status, body = e.chatDo(SeedAdminID, http.MethodDelete, "/export/realm/1", nil)
	exportWant(t, status, body, 400, "BAD_REQUEST", "Export already deleted")
	if got = e.exportList(); got[0]["deleted_timestamp"] == nil {
		t.Fatalf("deleted export: %v", got)
	}
	resp, err = http.Get(u) //nolint:noctx // a test's one request
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Fatalf("a deleted export's tarball: %d", resp.StatusCode)
	}
}

// TestExports_failure: Options.ExportFailure makes the export fail.
func TestExports_failure(t *testing.T) {
	e := chatNew(t, func(o *Options) { o.ExportDuration = -1; o.ExportFailure = true })
	if status, body := e.chatDo(SeedOwnerID, http.MethodPost, "/export/realm", nil); status != 200 {
		t.Fatalf("POST: %d %v", status, body)
	}
	got := e.exportList()
	if got[0]["pending"] != false || got[0]["failed_timestamp"] == nil || got[0]["export_url"] != nil {
		t.Fatalf("failed export: %v", got)
	}
	status, body := e.chatDo(SeedAdminID, http.MethodDelete, "/export/realm/1", nil)
	exportWant(t, status, body, 400, "BAD_REQUEST", "Export failed, nothing to delete")
}

// TestExports_checks: export_realm's refusals, in its order, with its words.
func TestExports_checks(t *testing.T) {
	e := chatNew(t, func(o *Options) { o.ExportDuration = -1 })
	for _, c := range []struct {
		user    int
		typ     string
		code    string
		message string
	}{
		{SeedModeratorID, "public", "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator"},
		{SeedModeratorID, "bogus", "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator"},
		{SeedAdminID, "bogus", "BAD_REQUEST", "Invalid export_type: Value error, Not in the list of possible values"},
		{SeedAdminID, "1", "BAD_REQUEST", "Invalid export_type: Value error, Not in the list of possible values"},
		{SeedAdminID, "full_without_consent", "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
		{SeedOwnerID, "full_without_consent", "BAD_REQUEST", "Full exports without member consent are not enabled for this organization."},
	} {
		status, body := e.chatDo(c.user, http.MethodPost, "/export/realm", url.Values{"export_type": {c.typ}})
		exportWant(t, status, body, 400, c.code, c.message)
	}
	e.srv.Do(func(r *Realm) {
		r.Exports.OwnerFullContentAccess = true
		r.Exports.Consents = map[int]bool{}
		for _, u := range r.Users {
			if u.IsOwner() {
				u.EmailVisibility = EmailVisibleNobody
			}
		}
	})
	status, body := e.chatDo(SeedAdminID, http.MethodPost, "/export/realm", url.Values{"export_type": {"full_with_consent"}})
	exportWant(t, status, body, 400, "BAD_REQUEST",
		"Make sure at least one Organization Owner is consenting to the export or contact zulip-admin@example.com for help.")
	status, body = e.chatDo(SeedAdminID, http.MethodPost, "/export/realm", nil)
	exportWant(t, status, body, 400, "BAD_REQUEST",
		"Make sure at least one Organization Owner allows other Administrators to see their email address or contact zulip-admin@example.com for help")
	// A full export without consent needs neither.
	for i := range 5 {
		if status, body := e.chatDo(SeedOwnerID, http.MethodPost, "/export/realm", url.Values{"export_type": {"full_without_consent"}}); status != 200 {
			t.Fatalf("export %d: %d %v", i, status, body)
		}
	}
	status, body = e.chatDo(SeedOwnerID, http.MethodPost, "/export/realm", url.Values{"export_type": {"full_without_consent"}})
	exportWant(t, status, body, 400, "BAD_REQUEST", "Exceeded rate limit.")
}

// TestExports_rateLimitWindow: the limit counts the last seven days only, and
// every export, deleted ones included.
func TestExports_rateLimitWindow(t *testing.T) {
	clock := &exportClock{now: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}
	e := chatNew(t, func(o *Options) { o.Clock = clock.get; o.ExportDuration = -1 })
	for i := range 5 {
		if status, body := e.chatDo(SeedAdminID, http.MethodPost, "/export/realm", nil); status != 200 {
			t.Fatalf("export %d: %d %v", i, status, body)
		}
		if i == 0 {
			if status, body := e.chatDo(SeedAdminID, http.MethodDelete, "/export/realm/1", nil); status != 200 {
				t.Fatalf("delete: %d %v", status, body)
			}
		}
		clock.add(time.Hour)
	}
	status, body := e.chatDo(SeedAdminID, http.MethodPost, "/export/realm", nil)
	exportWant(t, status, body, 400, "BAD_REQUEST", "Exceeded rate limit.")
	clock.add(7*24*time.Hour - 4*time.Hour) // the first is now more than seven days old
	if status, body := e.chatDo(SeedAdminID, http.MethodPost, "/export/realm", nil); status != 200 {
		t.Fatalf("after the window: %d %v", status, body)
	}
}

// TestExports_featureLevels: integers before feature level 449, strings from
// it; no export_type before 304; the consents' e-mail visibility from 430.
func TestExports_featureLevels(t *testing.T) {
	for _, c := range []struct {
		fl       int
		param    string
		wantType any
	}{
		{300, "2", nil}, {420, "2", float64(2)}, {449, "full_with_consent", "full_with_consent"},
	} {
		e := chatNew(t, chatLevel(c.fl), func(o *Options) { o.ExportDuration = -1 })
		status, body := e.chatDo(SeedOwnerID, http.MethodPost, "/export/realm", url.Values{"export_type": {c.param}})
		if status != 200 {
			t.Fatalf("FL%d: %d %v", c.fl, status, body)
		}
		got := e.exportList()
		if got[0]["export_type"] != c.wantType {
			t.Errorf("FL%d: export_type %v, want %v", c.fl, got[0]["export_type"], c.wantType)
		}
		if c.fl < exportTypeFL {
			if ignored, _ := body["ignored_parameters_unsupported"].([]any); len(ignored) != 1 {
				t.Errorf("FL%d: export_type not reported ignored: %v", c.fl, body)
			}
		}
		_, consents := e.chatDo(SeedAdminID, http.MethodGet, "/export/realm/consents", nil)
		first := consents["export_consents"].([]any)[0].(map[string]any)
		if _, has := first["email_address_visibility"]; has != (c.fl >= exportConsentEmail) || first["consented"] != true {
			t.Errorf("FL%d: consents %v", c.fl, first)
		}
	}
	e := chatNew(t, chatLevel(420))
	status, body := e.chatDo(SeedAdminID, http.MethodPost, "/export/realm", url.Values{"export_type": {"public"}})
	exportWant(t, status, body, 400, "BAD_REQUEST", "export_type is not valid JSON")
}

// TestExports_events: every administrator hears of the request and of its end.
func TestExports_events(t *testing.T) {
	e := chatNew(t, func(o *Options) { o.ExportDuration = -1 })
	var queues []string
	for _, u := range []int{SeedAdminID, SeedMemberID} {
		_, body := e.chatDo(u, http.MethodPost, "/register", url.Values{"event_types": {`["realm_export"]`}})
		queues = append(queues, body["queue_id"].(string))
	}
	e.chatDo(SeedOwnerID, http.MethodPost, "/export/realm", nil)
	e.exportList()
	_, body := e.chatDo(SeedAdminID, http.MethodGet, "/events", url.Values{"queue_id": {queues[0]}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	events := body["events"].([]any)
	if len(events) != 2 {
		t.Fatalf("administrator's events: %v", events)
	}
	last := events[1].(map[string]any)["exports"].([]any)[0].(map[string]any)
	if last["pending"] != false || last["export_url"] == nil {
		t.Fatalf("the ending's event: %v", last)
	}
	_, body = e.chatDo(SeedMemberID, http.MethodGet, "/events", url.Values{"queue_id": {queues[1]}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	if events := body["events"].([]any); len(events) != 0 {
		t.Fatalf("a member's events: %v", events)
	}
}

// TestExports_priorServerField: export_from_prior_server exists at feature
// levels 499-501 and from 506 (the newest description: "New in Zulip 12.1
// (feature levels 499-501, and 506+)"), false for every export this server
// makes.
func TestExports_priorServerField(t *testing.T) {
	for fl, want := range map[int]bool{497: false, 499: true, 501: true, 502: false, 505: false, 506: true, 511: true} {
		if got := exportPriorServerField(fl); got != want {
			t.Errorf("level %d: %v, want %v", fl, got, want)
		}
	}
	srv, err := New(Options{ExportDuration: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv.Do(func(r *Realm) {
		r.exports().List = append(r.exports().List, &RealmExport{ID: 1, Status: exportSucceeded})
	})
	if got, ok := srv.exportWire(srv.realm.exports().List[0])["export_from_prior_server"]; !ok || got != false {
		t.Errorf("export_from_prior_server = %v, %v", got, ok)
	}
}
