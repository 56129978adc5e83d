package refserver

import (
	"crypto/md5"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

func init() {
	registerArea("users", area{seed: seedUsers, seedStep: 10, routes: (*Server).routesUsers, sections: map[string]registerSection{"realm_user": (*Server).registerRealmUser}})
}

// The users area (digest §4): GET /users, GET /users/{user_id|email},
// GET /users/me, POST /users, PATCH /users/{user_id|email},
// DELETE /users/{user_id}, POST /users/{user_id}/reactivate, DELETE /users/me.
//
// Rules follow Zulip's zerver/views/users.py and zerver/lib/users.py:
//   - reading users needs no role; guests see every user (Zulip's default
//     can_access_all_users_group is role:everyone);
//   - PATCH and DELETE go through access_user_by_id(for_admin=True): the
//     caller must be an administrator or the target bot's owner, else 400
//     "Insufficient permission"; changes involving the owner role need an owner.
//
// Choices where Zulip's documentation is silent are marked "Choice:".

// Name limits of Zulip's UserProfile.
const (
	maxNameLength = 100
	minNameLength = 2
)

// minPasswordLength is the weak-password rule. Choice: Zulip scores passwords
// with zxcvbn (PASSWORD_MIN_LENGTH 6, PASSWORD_MIN_GUESSES 10000); this server
// refuses passwords shorter than 6 characters and a short list of notorious ones.
const minPasswordLength = 6

// notoriousPasswords are refused whatever their length.
var notoriousPasswords = map[string]bool{
	"password": true, "12345678": true, "123456789": true, "qwerty": true, "qwertyuiop": true,
	"letmein": true, "iloveyou": true, "abc123": true, "111111": true, "123123": true,
	"password1": true, "welcome": true, "monkey": true, "dragon": true, "zulip": true, "123456": true,
}

// disposableDomains is a small stand-in for Zulip's list of disposable e-mail domains.
var disposableDomains = map[string]bool{
	"mailinator.com": true, "guerrillamail.com": true, "10minutemail.com": true, "yopmail.com": true,
	"trashmail.com": true, "tempmail.com": true, "temp-mail.org": true, "sharklasers.com": true,
	"dispostable.com": true, "throwawaymail.com": true, "maildrop.cc": true, "getnada.com": true,
}

// nameInvalidChars are UserProfile.NAME_INVALID_CHARS.
const nameInvalidChars = "*`\\>\"@"

// nameEndsWithMentionID matches names like "Alice|15", refused as "Invalid format!".
var nameEndsWithMentionID = regexp.MustCompile(`\|\d+$`)

// routesUsers registers the /users endpoints.
func (s *Server) routesUsers() {
	s.handle("GET /users", authUser, s.getUsers)
	s.handle("POST /users", authUser, s.withUserEvents(s.createUser))
	s.handle("GET /users/me", authUser, s.getOwnUser)
	s.handle("DELETE /users/me", authUser, s.withUserEvents(s.deactivateOwnUser))
	s.handle("GET /users/{user_id}", authUser, s.getUser)
	s.handle("PATCH /users/{user_id}", authUser, s.withUserEvents(s.updateUser))
	s.handle("DELETE /users/{user_id}", authUser, s.withUserEvents(s.deactivateUser))
	s.handle("POST /users/{user_id}/reactivate", authUser, s.withUserEvents(s.reactivateUser))
}

// ---------------------------------------------------------------------------
// Rendering (§4.3)

// canAccessDeliveryEmail is zerver/lib/users.py::can_access_delivery_email.
func canAccessDeliveryEmail(viewer, target *User) bool {
	if viewer == nil {
		return false
	}
	return viewer.ID == target.ID || roleMaySeeEmail(viewer, target)
}

// roleMaySeeEmail reports whether the viewer's role may see the target's real
// address under the target's email_address_visibility
// (ROLE_TO_ACCESSIBLE_EMAIL_ADDRESS_VISIBILITY_IDS), the viewer's own address
// being no exception.
func roleMaySeeEmail(viewer, target *User) bool {
	if target.IsBot {
		return true // bots always have visibility "everyone"
	}
	switch target.EmailVisibility {
	case EmailVisibleEveryone:
		return true
	case EmailVisibleAdmins:
		return viewer.IsAdmin()
	case EmailVisibleModerators:
		return viewer.IsModeratorOrAbove()
	case EmailVisibleMembers:
		return !viewer.IsGuest()
	default:
		return false
	}
}

// emailVisibleToEveryone reports whether the user's real address is public.
func emailVisibleToEveryone(u *User) bool {
	return u.IsBot || u.EmailVisibility == EmailVisibleEveryone || u.EmailVisibility == 0
}

// dummyEmail is the address Zulip uses in the API for a user whose real
// address is not public: user{id}@{realm host}.
func (r *Realm) dummyEmail(id int) string { return fmt.Sprintf("user%d@%s", id, r.Host) }

// apiEmail is the user's Zulip API e-mail (the `email` field). As in Zulip it
// does not depend on the viewer: it is the real address when that is visible to
// everyone, else the dummy address (the real one, when the viewer may see it,
// is in delivery_email).
func (r *Realm) apiEmail(u *User) string {
	if emailVisibleToEveryone(u) {
		return u.Email
	}
	return r.dummyEmail(u.ID)
}

// avatarURL renders avatar_url. Gravatar users get null when the client
// computes gravatars itself and the address is public (Zulip's
// client_gravatar rule); uploaded avatars are served by the server.
func avatarURL(u *User, clientGravatar bool) any {
	if u.AvatarSource == "U" {
		sum := sha1.Sum([]byte(fmt.Sprintf("refserver-avatar-%d", u.ID)))
		return fmt.Sprintf("/user_avatars/1/%s.png?version=%d", hex.EncodeToString(sum[:]), u.AvatarVersion)
	}
	if clientGravatar && emailVisibleToEveryone(u) {
		return nil
	}
	sum := md5.Sum([]byte(strings.ToLower(u.Email)))
	return fmt.Sprintf("https://secure.gravatar.com/avatar/%s?d=identicon&version=%d", hex.EncodeToString(sum[:]), u.AvatarVersion)
}

// isoTime renders a UNIX time as Python's datetime.isoformat() does for UTC.
func isoTime(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 != 0 {
		return t.Format("2006-01-02T15:04:05.000000+00:00")
	}
	return t.Format("2006-01-02T15:04:05+00:00")
}

// userWire renders target as viewer may see it (digest §4.3): the User object
// of GET /users, GET /users/{id} and register's realm_users.
func (s *Server) userWire(viewer, target *User, clientGravatar, includeProfile bool) obj {
	r := s.realm
	var delivery any
	if canAccessDeliveryEmail(viewer, target) {
		delivery = target.Email
	}
	u := obj{
		"user_id":        target.ID,
		"email":          r.apiEmail(target),
		"delivery_email": delivery,
		"full_name":      target.FullName,
		"date_joined":    isoTime(time.Unix(target.DateJoined, 0)),
		"is_active":      target.IsActive,
		"is_owner":       target.Role == RoleOwner,
		"is_admin":       target.IsAdmin(),
		"is_guest":       target.IsGuest(),
		"is_bot":         target.IsBot,
		"role":           target.Role,
		"timezone":       target.Timezone,
		"avatar_url":     avatarURL(target, clientGravatar),
		"avatar_version": target.AvatarVersion,
	}
	if s.opts.FeatureLevel >= 433 {
		u["is_imported_stub"] = target.IsImportedStub
	}
	if target.IsBot {
		u["bot_type"] = target.BotType
		if target.BotOwnerID != 0 {
			u["bot_owner_id"] = target.BotOwnerID
		} else {
			u["bot_owner_id"] = nil
		}
	} else if includeProfile {
		u["profile_data"] = s.profileDataWire(target)
	}
	return u
}

// profileDataWire renders a user's custom profile field values (§6.4): keyed
// by field id string, value always a string, rendered_value for the text types.
func (s *Server) profileDataWire(u *User) obj {
	out := obj{}
	for _, f := range s.realm.ProfileFields {
		// A stored empty value is a value (PATCH /users/me/profile_data keeps
		// ""), listed as Zulip's get_custom_profile_field_values lists every row.
		v, ok := u.ProfileData[f.ID]
		if !ok {
			continue
		}
		item := obj{"value": v}
		if f.Type == FieldShortText || f.Type == FieldLongText {
			item["rendered_value"] = renderParagraphs(v)
		}
		out[strconv.Itoa(f.ID)] = item
	}
	return out
}

// renderParagraphs is a minimal Markdown rendering of plain text: escaped,
// blank lines separating paragraphs, single newlines as <br>.
func renderParagraphs(src string) string {
	var paras []string
	for _, p := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n\n") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		paras = append(paras, "<p>"+strings.ReplaceAll(html.EscapeString(p), "\n", "<br>\n")+"</p>")
	}
	return strings.Join(paras, "\n")
}

// ownUserWire renders GET /users/me: the user as they see themselves, with
// gravatar URLs computed (client_gravatar false), profile data, and
// max_message_id; the schema has no bot_* keys.
func (s *Server) ownUserWire(u *User) obj {
	out := s.userWire(u, u, false, true)
	delete(out, "bot_type")
	delete(out, "bot_owner_id")
	if u.IsBot {
		delete(out, "profile_data")
	}
	out["max_message_id"] = s.maxMessageID(u)
	return out
}

// maxMessageID is the newest message the user received, or -1.
func (s *Server) maxMessageID(u *User) int {
	msgs := s.realm.Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if _, ok := msgs[i].Flags[u.ID]; ok {
			return msgs[i].ID
		}
	}
	return -1
}

// ---------------------------------------------------------------------------
// Lookup and permission helpers

// errNoSuchUser is Zulip's answer for unknown or inaccessible users.
func errNoSuchUser() *apiError { return errBadRequest("No such user") }

// errInsufficientPermission is access_user_common's answer to a non-admin.
func errInsufficientPermission() *apiError { return errBadRequest("Insufficient permission") }

// userByAPIEmail finds a user by e-mail as zerver/lib/users.py
// access_user_by_email does (GET /users/{email}, PATCH /users/{email}/...):
//  1. an address of the dummy form user{id}@{realm host} (matched
//     case-sensitively, as re.match does) is a lookup by id, whatever the
//     user's email_address_visibility;
//  2. any other address is the real (delivery) address, case-insensitively and
//     stripped, of a user whose email_address_visibility the viewer's role may
//     see (ROLE_TO_ACCESSIBLE_EMAIL_ADDRESS_VISIBILITY_IDS; there is no
//     exception for the viewer's own address here, unlike
//     can_access_delivery_email).
func (s *Server) userByAPIEmail(viewer *User, email string) *User {
	r := s.realm
	if id, ok := r.dummyEmailID(email); ok {
		return r.Users[id]
	}
	email = strings.TrimSpace(email)
	for _, id := range r.userIDs() {
		u := r.Users[id]
		if equalFoldASCII(u.Email, email) && roleMaySeeEmail(viewer, u) {
			return u
		}
	}
	return nil
}

// dummyEmailID returns the id in an address of the form user{id}@{realm host}
// (get_dummy_email_address_for_display_regex).
func (r *Realm) dummyEmailID(email string) (int, bool) {
	local, ok := strings.CutSuffix(email, "@"+r.Host)
	if !ok {
		return 0, false
	}
	digits, ok := strings.CutPrefix(local, "user")
	if !ok || !isAllDigits(digits) {
		return 0, false
	}
	id, err := strconv.Atoi(digits)
	if err != nil {
		return -1, true // digits beyond any id: the lookup by id finds no one
	}
	return id, true
}

// isAllDigits reports whether s is a non-empty run of ASCII digits.
func isAllDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// pathUser resolves the {user_id} path segment, which is a user id or, where
// the route allows it (byEmail), an e-mail address.
func (s *Server) pathUser(c *call, byEmail bool) (*User, error) {
	v := c.r.PathValue("user_id")
	if isAllDigits(v) {
		id, err := strconv.Atoi(v)
		if err != nil {
			return nil, errNoSuchUser()
		}
		u := c.realm().user(id)
		if u == nil {
			return nil, errNoSuchUser()
		}
		return u, nil
	}
	if !byEmail {
		return nil, errInvalid("user_id is not an integer")
	}
	u := s.userByAPIEmail(c.user, v)
	if u == nil {
		return nil, errNoSuchUser()
	}
	return u, nil
}

// canAdminUser is UserProfile.can_admin_user: administrators administer every
// user, and a user administers the bots they own.
func canAdminUser(actor, target *User) bool {
	return actor.IsAdmin() || (target.IsBot && target.BotOwnerID == actor.ID)
}

// activeHumanOwners counts the active human owners.
func (r *Realm) activeHumanOwners() int {
	n := 0
	for _, u := range r.Users {
		if u.IsActive && !u.IsBot && u.Role == RoleOwner {
			n++
		}
	}
	return n
}

// isLastOwner is views/users.py::check_last_owner (for an active user: a
// deactivated owner is never "the only owner").
func (r *Realm) isLastOwner(u *User) bool {
	return u.Role == RoleOwner && !u.IsBot && u.IsActive && r.activeHumanOwners() == 1
}

// roleGroupID is the system group a user of the role is a direct member of.
func roleGroupID(role int) int {
	switch role {
	case RoleOwner:
		return GroupOwners
	case RoleAdministrator:
		return GroupAdministrators
	case RoleModerator:
		return GroupModerators
	case RoleMember:
		// Zulip's default waiting period is 0 days: members are full members at once.
		return GroupFullMembers
	default:
		return GroupEveryone
	}
}

// setRoleGroup makes the user a direct member of exactly the system group of
// their role, as Zulip's do_change_user_role does.
func (r *Realm) setRoleGroup(u *User) {
	want := roleGroupID(u.Role)
	for _, gid := range []int{GroupOwners, GroupAdministrators, GroupModerators, GroupFullMembers, GroupMembers, GroupEveryone} {
		g := r.Groups[gid]
		if g == nil || !g.IsSystemGroup {
			continue
		}
		members := g.Members[:0:0]
		for _, m := range g.Members {
			if m != u.ID {
				members = append(members, m)
			}
		}
		if gid == want {
			members = append(members, u.ID)
			sort.Ints(members)
		}
		g.Members = members
	}
}

// deactivateLocked deactivates a user and, as Zulip's do_deactivate_user does,
// the active bots they own, and drops their event queues. Group memberships are
// kept (Zulip keeps them; the API lists active members only).
func (s *Server) deactivateLocked(u *User) {
	r := s.realm
	u.IsActive = false
	s.dropQueuesOf(u.ID)
	for _, id := range r.userIDs() {
		b := r.Users[id]
		if b.IsBot && b.IsActive && b.BotOwnerID == u.ID {
			b.IsActive = false
			s.dropQueuesOf(b.ID)
		}
	}
}

// ---------------------------------------------------------------------------
// Validation helpers

// isPrintable is zerver/lib/string_validation.py::check_string_is_printable
// for one character: only categories Cc and Cs and the 66 Unicode
// non-characters are refused. Format characters (Cf: zero-width joiners in
// emoji sequences, bidi marks) and private-use characters (Co) are accepted.
func isPrintable(ch rune) bool {
	if unicode.Is(unicode.Cc, ch) || unicode.Is(unicode.Cs, ch) {
		return false
	}
	// Non-characters: U+FDD0..U+FDEF and the last two code points of every plane.
	return (ch < 0xFDD0 || ch > 0xFDEF) && ch&0xFFFE != 0xFFFE
}

// checkFullName is zerver/lib/users.py::check_full_name.
func checkFullName(raw string) (string, error) {
	name := strings.TrimSpace(raw)
	n := utf8.RuneCountInString(name)
	if n > maxNameLength {
		return "", errBadRequest("Name too long!")
	}
	if n < minNameLength {
		return "", errBadRequest("Name too short!")
	}
	if !utf8.ValidString(name) {
		return "", errBadRequest("Invalid characters in name!")
	}
	for _, ch := range name {
		if !isPrintable(ch) || strings.ContainsRune(nameInvalidChars, ch) {
			return "", errBadRequest("Invalid characters in name!")
		}
	}
	if nameEndsWithMentionID.MatchString(raw) {
		return "", errBadRequest("Invalid format!")
	}
	return name, nil
}

// validEmail is a Django-EmailValidator-like check: local@domain, where the
// domain has letters, digits and hyphens in dot-separated labels, with a dot.
func validEmail(email string) bool {
	at := strings.LastIndexByte(email, '@')
	if at <= 0 || at == len(email)-1 || len(email) > 254 {
		return false
	}
	return validEmailLocal(email[:at]) && validEmailDomain(email[at+1:])
}

// validEmailLocal checks an address's local part: at most 64 printable
// ASCII characters other than ()<>[]:;@\," without a dot at either end or
// two dots in a row.
func validEmailLocal(local string) bool {
	if len(local) > 64 || strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
		return false
	}
	for _, ch := range local {
		if ch <= ' ' || ch >= 0x7f || strings.ContainsRune("()<>[]:;@\\,\"", ch) {
			return false
		}
	}
	return true
}

// validEmailDomain checks an address's domain: at least two labels of 1 to
// 63 ASCII letters, digits and hyphens, no label starting or ending with a
// hyphen.
func validEmailDomain(domain string) bool {
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			if ch := l[i]; !isASCIILetterOrDigit(ch) && ch != '-' {
				return false
			}
		}
	}
	return true
}

// emailAllowedForRealm is zerver/lib/email_validation.py::email_allowed_for_realm.
func (r *Realm) emailAllowedForRealm(email string) error {
	at := strings.LastIndexByte(email, '@')
	local, domain := email[:at], strings.ToLower(email[at+1:])
	if !r.Settings.EmailsRestrictedToDomains {
		if r.Settings.DisallowDisposableEmail && disposableDomains[domain] {
			return errBadRequest("Disposable email addresses are not allowed in this organization")
		}
		if r.Settings.DisallowPlusInEmail && strings.Contains(local, "+") {
			return errBadRequest("Email addresses containing + are not allowed.")
		}
		return nil
	}
	if strings.Contains(local, "+") {
		return errBadRequest("Email addresses containing + are not allowed.")
	}
	for _, d := range r.Domains {
		if domain == d.Domain || (d.AllowSubdomains && strings.HasSuffix(domain, "."+d.Domain)) {
			return nil
		}
	}
	return errBadRequest("Email '%s' not allowed in this organization", email)
}

// weakPassword is the weak-password rule (see minPasswordLength).
func weakPassword(p string) bool {
	return utf8.RuneCountInString(p) < minPasswordLength || notoriousPasswords[strings.ToLower(p)]
}

// ---------------------------------------------------------------------------
// Handlers

// getUsers is GET /users.
func (s *Server) getUsers(c *call) (obj, error) {
	clientGravatar, err := c.optBool("client_gravatar", true)
	if err != nil {
		return nil, err
	}
	includeProfile, err := c.optBool("include_custom_profile_fields", false)
	if err != nil {
		return nil, err
	}
	r := c.realm()
	ids := r.userIDs()
	if s.opts.FeatureLevel >= 384 {
		var want []int
		ok, err := c.optJSON("user_ids", &want)
		if err != nil {
			return nil, err
		}
		if ok {
			for _, id := range want {
				if r.user(id) == nil {
					return nil, errBadRequest("Invalid user ID: %d", id)
				}
			}
			ids = uniqueSorted(want)
		}
	}
	members := make([]obj, 0, len(ids))
	for _, id := range ids {
		members = append(members, s.userWire(c.user, r.Users[id], clientGravatar, includeProfile))
	}
	return obj{"members": members}, nil
}

// uniqueSorted returns the distinct ids in ascending order.
func uniqueSorted(ids []int) []int {
	out := append([]int(nil), ids...)
	sort.Ints(out)
	j := 0
	for i, id := range out {
		if i == 0 || id != out[j-1] {
			out[j] = id
			j++
		}
	}
	return out[:j]
}

// getUser is GET /users/{user_id} and GET /users/{email}.
func (s *Server) getUser(c *call) (obj, error) {
	clientGravatar, err := c.optBool("client_gravatar", true)
	if err != nil {
		return nil, err
	}
	includeProfile, err := c.optBool("include_custom_profile_fields", false)
	if err != nil {
		return nil, err
	}
	target, err := s.pathUser(c, s.opts.FeatureLevel >= 39)
	if err != nil {
		return nil, err
	}
	return obj{"user": s.userWire(c.user, target, clientGravatar, includeProfile)}, nil
}

// getOwnUser is GET /users/me.
func (s *Server) getOwnUser(c *call) (obj, error) {
	return s.ownUserWire(c.user), nil
}

// createUser is POST /users (the §4.4 checks, in Zulip's order).
func (s *Server) createUser(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	email, err := c.reqString("email")
	if err != nil {
		return nil, err
	}
	password, err := c.reqString("password")
	if err != nil {
		return nil, err
	}
	rawName, err := c.reqString("full_name")
	if err != nil {
		return nil, err
	}
	if !c.user.CanCreateUsers {
		if s.opts.FeatureLevel < 36 {
			return nil, errBadRequest("User not authorized for this query")
		}
		return nil, errBadRequest("User not authorized to create users")
	}
	name, err := checkFullName(rawName)
	if err != nil {
		return nil, err
	}
	if !validEmail(email) {
		return nil, errBadRequest("Bad name or username")
	}
	r := c.realm()
	if err := r.emailAllowedForRealm(email); err != nil {
		return nil, err
	}
	if r.userByEmail(email) != nil {
		return nil, errBadRequest("Email '%s' already in use", email)
	}
	if weakPassword(password) {
		return nil, errBadRequest("The password is too weak.")
	}
	u := &User{
		ID: r.newID("user"), Email: email, FullName: name, Password: password,
		Role: RoleMember, IsActive: true, Timezone: "", DateJoined: s.now().Unix(),
		AvatarVersion: 1, EmailVisibility: EmailVisibleEveryone, ProfileData: map[int]string{},
	}
	u.APIKey = s.derivedKey("api-key", u.ID)
	r.Users[u.ID] = u
	r.setRoleGroup(u)
	// New users are subscribed to the default channels.
	newest := 0
	if n := len(r.Messages); n > 0 {
		newest = r.Messages[n-1].ID
	}
	for _, id := range r.channelIDs() {
		ch := r.Channels[id]
		if ch.IsDefault && !ch.IsArchived {
			if ch.Subscribers == nil {
				ch.Subscribers = map[int]int{}
			}
			ch.Subscribers[u.ID] = newest
		}
	}
	if s.opts.FeatureLevel < 30 {
		return nil, nil
	}
	return obj{"user_id": u.ID}, nil
}

// profileUpdate is one validated item of a profile_data parameter.
type profileUpdate struct {
	field  *ProfileField
	stored string // "" removes the value
}

// parseProfileData validates PATCH /users/{id}'s profile_data: a JSON list of
// {"id": int, "value": string | int[] | null} (check_dict_only: no other keys),
// each value validated per field type; null, "" or [] removes the value.
func (s *Server) parseProfileData(items []any) ([]profileUpdate, error) {
	r := s.realm
	var out []profileUpdate
	for i, raw := range items {
		name := fmt.Sprintf("profile_data[%d]", i)
		m, ok := raw.(map[string]any)
		if !ok {
			return nil, errBadRequest("%s is not a dict", name)
		}
		for _, k := range []string{"id", "value"} {
			if _, ok := m[k]; !ok {
				return nil, errBadRequest("%s key is missing: %s", name, k)
			}
		}
		var extra []string
		for k := range m {
			if k != "id" && k != "value" {
				extra = append(extra, k)
			}
		}
		if len(extra) > 0 {
			sort.Strings(extra)
			return nil, errBadRequest("Unexpected arguments: %s", strings.Join(extra, ", "))
		}
		idf, ok := m["id"].(float64)
		if !ok || idf != float64(int(idf)) {
			return nil, errBadRequest(`%s["id"] is not an integer`, name)
		}
		value := m["value"]
		switch v := value.(type) {
		case nil, string:
		case []any:
			for _, x := range v {
				if f, ok := x.(float64); !ok || f != float64(int(f)) {
					return nil, errBadRequest(`%s["value"] is not an allowed_type`, name)
				}
			}
		default:
			return nil, errBadRequest(`%s["value"] is not an allowed_type`, name)
		}
		field := r.profileFieldByID(int(idf))
		if field == nil {
			return nil, errBadRequest("Field id %d not found.", int(idf))
		}
		stored, err := validateProfileValue(r, field, value)
		if err != nil {
			return nil, err
		}
		out = append(out, profileUpdate{field: field, stored: stored})
	}
	return out, nil
}

// userUpdate is a PATCH /users/{user_id} request as read: the role (nil:
// not sent), the name, the profile data and (FL285) the new address.
type userUpdate struct {
	role       *int
	fullName   string
	hasName    bool
	rawProfile []any
	hasProfile bool
	newEmail   string
	hasEmail   bool
}

// updateUser is PATCH /users/{user_id} and (FL313) PATCH /users/{email}.
// Every check runs before anything changes, so a refused request changes nothing.
func (s *Server) updateUser(c *call) (obj, error) {
	if c.r.PathValue("user_id") == "me" {
		return nil, errMethodNotAllowed(http.MethodDelete, http.MethodGet)
	}
	fl := s.opts.FeatureLevel
	// Parameters are parsed (and their JSON checked) before the target is
	// looked up, as Zulip's REQ/typed_endpoint layer does.
	u, err := readUserUpdate(c, fl)
	if err != nil {
		return nil, err
	}
	target, err := s.pathUser(c, fl >= 313)
	if err != nil {
		return nil, err
	}
	if !canAdminUser(c.user, target) {
		return nil, errInsufficientPermission()
	}
	changeRole := u.role != nil && *u.role != target.Role
	if changeRole {
		if err := c.checkUserRoleChange(target, *u.role); err != nil {
			return nil, err
		}
	}
	newName := ""
	if u.hasName && u.fullName != target.FullName && strings.TrimSpace(u.fullName) != "" {
		if newName, err = checkFullName(u.fullName); err != nil {
			return nil, err
		}
	}
	changeEmail := u.hasEmail && u.newEmail != target.Email
	if changeEmail {
		if err := c.checkUserEmailChange(target, u.newEmail); err != nil {
			return nil, err
		}
	}
	var updates []profileUpdate
	if u.hasProfile {
		if updates, err = s.parseProfileData(u.rawProfile); err != nil {
			return nil, err
		}
	}
	if changeRole {
		target.Role = *u.role
		c.realm().setRoleGroup(target)
	}
	if newName != "" {
		target.FullName = newName
	}
	if changeEmail {
		target.Email = u.newEmail
	}
	target.applyProfileUpdates(updates)
	return nil, nil
}

// readUserUpdate reads PATCH /users/{user_id}'s parameters, refusing
// malformed JSON and a role that is none of Zulip's.
func readUserUpdate(c *call, fl int) (*userUpdate, error) {
	u := &userUpdate{}
	var roleVal int
	if ok, err := c.optJSON("role", &roleVal); err != nil {
		return nil, err
	} else if ok {
		switch roleVal {
		case RoleOwner, RoleAdministrator, RoleModerator, RoleMember, RoleGuest:
		default:
			return nil, errInvalid("Invalid role")
		}
		u.role = &roleVal
	}
	u.fullName, u.hasName = c.optString("full_name")
	var err error
	if u.hasProfile, err = c.optJSON("profile_data", &u.rawProfile); err != nil {
		return nil, err
	}
	if fl >= 285 {
		u.newEmail, u.hasEmail = c.optString("new_email")
	}
	return u, nil
}

// checkUserRoleChange checks that the caller may give target the role:
// an owner for a change to or from owner, an administrator otherwise, and
// never removing the last owner. Any role may be given in one step, a
// guest's included: Zulip's update_user_backend (zerver/views/users.py)
// checks only the owner and administrator permissions and the last owner;
// the spec's "Guests cannot be organization administrators" is a leftover
// of a 2019 API.
func (c *call) checkUserRoleChange(target *User, role int) error {
	if (role == RoleOwner || target.Role == RoleOwner) && c.user.Role != RoleOwner {
		return errPrincipal("owner")
	} else if !c.user.IsAdmin() {
		return errPrincipal("administrator")
	}
	if target.Role == RoleOwner && c.realm().isLastOwner(target) {
		return errBadRequest("The owner permission cannot be removed from the only organization owner.")
	}
	return nil
}

// checkUserEmailChange checks a change of target's address. Zulip
// (zerver/views/users.py update_user_backend, FL285): an organization
// administrator (an owner is one too, but not required) holding the
// can_change_user_emails special permission; the target is reached with
// access_user_by_id(for_admin=True), so anyone else was refused before
// with "Insufficient permission". The API description's "organization
// owner" is wrong (the FL313 changelog and Zulip's own API test, run by
// the administrator iago, say administrator). The address must be valid
// and not another user's.
func (c *call) checkUserEmailChange(target *User, newEmail string) error {
	if !c.user.IsAdmin() {
		return errPrincipal("administrator")
	}
	if !c.user.CanChangeUserEmails {
		return errBadRequest("User not authorized for this query")
	}
	if !validEmail(newEmail) {
		return errBadRequest("Invalid address.")
	}
	if other := c.realm().userByEmail(newEmail); other != nil && other.ID != target.ID {
		return errBadRequest("Email '%s' already in use", newEmail)
	}
	return nil
}

// applyProfileUpdates writes checked profile data: an empty value removes
// the field's value.
func (u *User) applyProfileUpdates(updates []profileUpdate) {
	for _, up := range updates {
		if up.stored == "" {
			delete(u.ProfileData, up.field.ID)
			continue
		}
		if u.ProfileData == nil {
			u.ProfileData = map[int]string{}
		}
		u.ProfileData[up.field.ID] = up.stored
	}
}

// errMethodNotAllowed is Zulip's json_method_not_allowed, with a code added.
func errMethodNotAllowed(allowed ...string) *apiError {
	sort.Strings(allowed)
	return errCode(http.StatusMethodNotAllowed, "BAD_REQUEST", "Method Not Allowed", obj{"allowed_methods": allowed})
}

// deactivateActions are the keys of DELETE /users/{id}'s actions (FL459).
var deactivateActions = []string{"delete_profile", "delete_public_channel_messages",
	"delete_private_channel_messages", "delete_direct_messages"}

// deactivateUser is DELETE /users/{user_id}.
func (s *Server) deactivateUser(c *call) (obj, error) {
	if !isAllDigits(c.r.PathValue("user_id")) {
		// DELETE /users/{email} does not exist; the path does for GET and PATCH.
		return nil, errMethodNotAllowed(http.MethodGet, http.MethodPatch)
	}
	if comment, ok := c.optString("deactivation_notification_comment"); ok && utf8.RuneCountInString(comment) > 2000 {
		return nil, errBadRequest("deactivation_notification_comment is too long (limit: 2000 characters)")
	}
	actions := map[string]bool{}
	if s.opts.FeatureLevel >= 459 {
		var err error
		if actions, err = c.deactivateActionsParam(); err != nil {
			return nil, err
		}
	}
	target, err := s.pathUser(c, false)
	if err != nil {
		return nil, err
	}
	if err := c.checkDeactivation(target); err != nil {
		return nil, err
	}
	s.deactivateLocked(target)
	if actions["delete_profile"] {
		target.ProfileData = map[int]string{}
		target.Status = nil
	}
	if actions["delete_public_channel_messages"] || actions["delete_private_channel_messages"] {
		c.realm().deleteChannelMessagesOf(target, actions["delete_public_channel_messages"], actions["delete_private_channel_messages"])
	}
	return nil, nil
}

// deactivateActionsParam reads DELETE /users/{id}'s actions (FL459): a
// dict of booleans keyed by deactivateActions, refusing another value and,
// sorted, the keys it does not know.
func (c *call) deactivateActionsParam() (map[string]bool, error) {
	actions := map[string]bool{}
	var raw map[string]any
	ok, err := c.optJSON("actions", &raw)
	if err != nil || !ok {
		return actions, err
	}
	var unknown []string
	for k, v := range raw {
		if !slices.Contains(deactivateActions, k) {
			unknown = append(unknown, k)
			continue
		}
		b, isBool := v.(bool)
		if !isBool {
			return nil, errBadRequest(`actions["%s"] is not a boolean`, k)
		}
		actions[k] = b
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, errBadRequest("Unexpected arguments: %s", strings.Join(unknown, ", "))
	}
	return actions, nil
}

// checkDeactivation checks in Zulip's order that the caller may deactivate
// target: an active human the caller administers, an owner only by an
// owner, and never the last owner.
func (c *call) checkDeactivation(target *User) error {
	if target.IsBot {
		return errNoSuchUser() // bots are deactivated through /bots/{bot_id}
	}
	if !target.IsActive {
		return errBadRequest("User is deactivated")
	}
	if !canAdminUser(c.user, target) {
		return errInsufficientPermission()
	}
	if target.Role == RoleOwner && c.user.Role != RoleOwner {
		return errPrincipal("owner")
	}
	if c.realm().isLastOwner(target) {
		return errBadRequest("Cannot deactivate the only organization owner")
	}
	return nil
}

// deleteChannelMessagesOf deletes the messages target sent to public
// channels (public) and to private ones (private).
func (r *Realm) deleteChannelMessagesOf(target *User, public, private bool) {
	kept := r.Messages[:0:0]
	for _, m := range r.Messages {
		if m.SenderID == target.ID {
			if ch := r.Channels[m.ChannelID]; ch != nil {
				if (ch.InviteOnly && private) || (!ch.InviteOnly && public) {
					continue
				}
			}
		}
		kept = append(kept, m)
	}
	r.Messages = kept
}

// reactivateUser is POST /users/{user_id}/reactivate.
func (s *Server) reactivateUser(c *call) (obj, error) {
	target, err := s.pathUser(c, false)
	if err != nil {
		return nil, err
	}
	if !canAdminUser(c.user, target) {
		return nil, errInsufficientPermission()
	}
	// Reactivating an active user succeeds: zerver/views/users.py
	// reactivate_user_backend reaches the target with allow_deactivated=True
	// and zerver/actions/create_user.py do_reactivate_user only refuses
	// placeholder (mirror dummy) accounts. An active bot is refused by
	// check_bot_name_available(is_activation=True), since the bot itself is an
	// active user with its name: the loop below does not skip the target.
	r := c.realm()
	if target.IsBot && !s.canCreateBot(c.user, target.BotType) {
		// reactivate_user_backend checks the bot creation permission first
		// (check_can_create_bot, bots.go).
		return nil, errInsufficientPermission()
	}
	if target.IsBot {
		for _, u := range r.Users {
			if u.IsActive && u.FullName == strings.TrimSpace(target.FullName) {
				return nil, errBadRequest("There is already an active bot named \"%s\" in this organization. "+
					"To reactivate this bot, you must rename or deactivate the other one first.", target.FullName)
			}
		}
	}
	target.IsActive = true
	return nil, nil
}

// deactivateOwnUser is DELETE /users/me.
func (s *Server) deactivateOwnUser(c *call) (obj, error) {
	r := c.realm()
	active := 0
	for _, u := range r.Users {
		if u.IsActive {
			active++
		}
	}
	if active == 1 {
		return nil, errCode(http.StatusBadRequest, "CANNOT_DEACTIVATE_LAST_USER",
			"Cannot deactivate the only user.", obj{"entity": "user", "is_last_owner": false})
	}
	if r.isLastOwner(c.user) {
		return nil, errCode(http.StatusBadRequest, "CANNOT_DEACTIVATE_LAST_USER",
			"Cannot deactivate the only organization owner.", obj{"entity": "organization owner", "is_last_owner": true})
	}
	s.deactivateLocked(c.user)
	return nil, nil
}

// registerRealmUser is register's realm_user section.
func (s *Server) registerRealmUser(rr *registerRequest, out obj) {
	r := s.realm
	clientGravatar := rr.clientGravatar
	var active, inactive []obj
	for _, id := range r.userIDs() {
		u := r.Users[id]
		w := s.userWire(rr.c.user, u, clientGravatar, true)
		if u.IsActive {
			active = append(active, w)
		} else {
			inactive = append(inactive, w)
		}
	}
	out["realm_users"] = nonNilObjs(active)
	out["realm_non_active_users"] = nonNilObjs(inactive)
	out["cross_realm_bots"] = []obj{}
	me := rr.c.user
	out["user_id"] = me.ID
	out["email"] = r.apiEmail(me)
	out["delivery_email"] = me.Email
	out["full_name"] = me.FullName
	out["is_owner"] = me.Role == RoleOwner
	out["is_admin"] = me.IsAdmin()
	out["is_moderator"] = me.Role == RoleModerator
	out["is_guest"] = me.IsGuest()
	out["avatar_source"] = avatarSource(me)
	out["avatar_url"] = avatarURL(me, false)
	out["avatar_url_medium"] = avatarURL(me, false)
}

// seedUsers adds the seeded accounts (SeedOwnerID ...).
func seedUsers(r *Realm, base, day int64) {
	host := r.Host
	addUser := func(id int, name, local string, role, visibility int) *User {
		u := &User{
			ID: id, Email: local + "@" + host, FullName: name, APIKey: seedAPIKey(local),
			Password: "password-" + local, Role: role, IsActive: true, Timezone: "Europe/Berlin",
			DateJoined: base + int64(id)*day, AvatarVersion: 1, EmailVisibility: visibility,
			ProfileData: map[int]string{},
		}
		r.Users[id] = u
		return u
	}
	addUser(SeedOwnerID, "Olivia Owner", "olivia", RoleOwner, EmailVisibleEveryone).CanChangeUserEmails = true
	addUser(SeedAdminID, "Aaron Admin", "aaron", RoleAdministrator, EmailVisibleEveryone).CanCreateUsers = true
	addUser(SeedAdmin2ID, "Alice Admin", "alice", RoleAdministrator, EmailVisibleMembers)
	addUser(SeedModeratorID, "Mona Moderator", "mona", RoleModerator, EmailVisibleModerators)
	addUser(SeedMemberID, "Mark Member", "mark", RoleMember, EmailVisibleAdmins)
	addUser(SeedMember2ID, "Maria Member", "maria", RoleMember, EmailVisibleNobody).Timezone = ""
	addUser(SeedGuestID, "Gus Guest", "gus", RoleGuest, EmailVisibleMembers)
	bot := addUser(SeedBotID, "Build Bot", "build-bot", RoleMember, EmailVisibleEveryone)
	bot.IsBot, bot.BotType, bot.BotOwnerID, bot.Timezone = true, 1, SeedMemberID, ""
	addUser(SeedOwner2ID, "Oscar Owner", "oscar", RoleOwner, EmailVisibleAdmins)
	addUser(SeedDeactivatedID, "Dan Departed", "dan", RoleMember, EmailVisibleEveryone).IsActive = false
	addUser(SeedMember3ID, "Mei Member", "mei", RoleMember, EmailVisibleEveryone).Timezone = "Asia/Tokyo"
	hook := addUser(SeedIncomingBotID, "Alerts Hook", "alerts-bot", RoleMember, EmailVisibleEveryone)
	hook.IsBot, hook.BotType, hook.BotOwnerID, hook.Timezone = true, 2, SeedAdminID, ""
	r.NextID["user"] = SeedIncomingBotID

	// What the core area's rules need: Zulip's default refusal of disposable
	// addresses, and one user with an uploaded avatar (so client_gravatar has
	// something to leave alone).
	r.Settings.DisallowDisposableEmail = true
	r.Users[SeedMember3ID].AvatarSource = "U"
	r.Users[SeedMember3ID].AvatarVersion = 2
}
