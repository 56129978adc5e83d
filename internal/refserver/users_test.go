package refserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
)

// usersGet fetches one user as the viewer.
func usersGet(t *testing.T, e *coreEnv, viewer int, target string, q url.Values) map[string]any {
	t.Helper()
	a := e.coreRequest(viewer, http.MethodGet, "/users/"+target, q)
	coreWantOK(t, a)
	return a.body["user"].(map[string]any)
}

// usersKeys lists an object's keys, sorted.
func usersKeys(m map[string]any) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}

func TestUserWireShape(t *testing.T) {
	e := coreStart(t, Options{})
	u := usersGet(t, e, SeedOwnerID, fmt.Sprint(SeedMemberID), nil)
	if got, want := usersKeys(u), "avatar_url avatar_version date_joined delivery_email email full_name is_active is_admin "+
		"is_bot is_guest is_imported_stub is_owner role timezone user_id"; got != want {
		t.Errorf("keys\n got %s\nwant %s", got, want)
	}
	want := map[string]any{
		"user_id": 5.0, "email": "user5@zulip.example.com", "delivery_email": "mark@zulip.example.com",
		"full_name": "Mark Member", "date_joined": "2024-01-20T09:00:00+00:00", "is_active": true,
		"is_owner": false, "is_admin": false, "is_guest": false, "is_bot": false, "role": 400.0,
		"timezone": "Europe/Berlin", "avatar_version": 1.0, "is_imported_stub": false,
	}
	for k, v := range want {
		if u[k] != v {
			t.Errorf("%s = %v, want %v", k, u[k], v)
		}
	}
	// Mark's address is not public, so his gravatar URL is sent even with client_gravatar.
	if s, _ := u["avatar_url"].(string); !strings.HasPrefix(s, "https://secure.gravatar.com/avatar/") || !strings.HasSuffix(s, "?d=identicon&version=1") {
		t.Errorf("avatar_url %v", u["avatar_url"])
	}

	t.Run("owner flags", func(t *testing.T) { checkUserWireRoles(t, e) })
	t.Run("client_gravatar", func(t *testing.T) { checkUserWireAvatars(t, e) })
	t.Run("bots", func(t *testing.T) { checkUserWireBots(t, e, u) })
	t.Run("profile_data", func(t *testing.T) { checkUserWireProfileData(t, e) })
	t.Run("feature level", func(t *testing.T) {
		old := coreStart(t, Options{FeatureLevel: 400})
		if _, ok := usersGet(t, old, SeedOwnerID, "5", nil)["is_imported_stub"]; ok {
			t.Error("is_imported_stub (FL433) at FL400")
		}
	})
}

// checkUserWireRoles checks the role flags of an owner and a guest.
func checkUserWireRoles(t *testing.T, e *coreEnv) {
	t.Helper()
	o := usersGet(t, e, SeedMemberID, "1", nil)
	if o["is_owner"] != true || o["is_admin"] != true || o["role"] != 100.0 || o["email"] != "olivia@zulip.example.com" {
		t.Errorf("%v", o)
	}
	g := usersGet(t, e, SeedMemberID, "7", nil)
	if g["is_guest"] != true || g["role"] != 600.0 {
		t.Errorf("%v", g)
	}
}

// checkUserWireAvatars checks avatar_url with and without client_gravatar, and an uploaded avatar.
func checkUserWireAvatars(t *testing.T, e *coreEnv) {
	t.Helper()
	o := usersGet(t, e, SeedMemberID, "1", nil)
	if o["avatar_url"] != nil {
		t.Errorf("gravatar user with a public address: avatar_url %v, want null", o["avatar_url"])
	}
	o = usersGet(t, e, SeedMemberID, "1", url.Values{"client_gravatar": {"false"}})
	if s, _ := o["avatar_url"].(string); !strings.HasPrefix(s, "https://secure.gravatar.com/avatar/") {
		t.Errorf("client_gravatar=false: avatar_url %v", o["avatar_url"])
	}
	m := usersGet(t, e, SeedMemberID, fmt.Sprint(SeedMember3ID), nil)
	if s, _ := m["avatar_url"].(string); !strings.HasPrefix(s, "/user_avatars/") || !strings.HasSuffix(s, "?version=2") {
		t.Errorf("uploaded avatar: %v", m["avatar_url"])
	}
}

// checkUserWireBots checks the bot keys of bots, and their absence on humans (u is a human).
func checkUserWireBots(t *testing.T, e *coreEnv, u map[string]any) {
	t.Helper()
	b := usersGet(t, e, SeedGuestID, fmt.Sprint(SeedBotID), url.Values{"include_custom_profile_fields": {"true"}})
	if b["is_bot"] != true || b["bot_type"] != 1.0 || b["bot_owner_id"] != float64(SeedMemberID) ||
		b["delivery_email"] != "build-bot@zulip.example.com" || b["email"] != "build-bot@zulip.example.com" {
		t.Errorf("bot %v", b)
	}
	if _, ok := b["profile_data"]; ok {
		t.Error("profile_data on a bot")
	}
	h := usersGet(t, e, SeedOwnerID, fmt.Sprint(SeedIncomingBotID), nil)
	if h["bot_type"] != 2.0 || h["bot_owner_id"] != float64(SeedAdminID) {
		t.Errorf("incoming webhook bot %v", h)
	}
	for _, k := range []string{"bot_type", "bot_owner_id"} {
		if _, ok := u[k]; ok {
			t.Errorf("human with %s", k)
		}
	}
}

// checkUserWireProfileData checks profile_data with include_custom_profile_fields: rendered values, users and dates.
func checkUserWireProfileData(t *testing.T, e *coreEnv) {
	t.Helper()
	m := usersGet(t, e, SeedOwnerID, fmt.Sprint(SeedMemberID), url.Values{"include_custom_profile_fields": {"true"}})
	pd := m["profile_data"].(map[string]any)
	if got := usersKeys(pd); got != "2 4 5 6 7" {
		t.Errorf("profile_data keys %s", got)
	}
	if fmt.Sprint(pd["2"]) != "map[rendered_value:<p>Backend engineer.</p> value:Backend engineer.]" {
		t.Errorf("long text %v", pd["2"])
	}
	if fmt.Sprint(pd["6"]) != "map[value:[2]]" || fmt.Sprint(pd["4"]) != "map[value:1990-04-01]" {
		t.Errorf("user/date %v %v", pd["6"], pd["4"])
	}
	o := usersGet(t, e, SeedMemberID, "1", url.Values{"include_custom_profile_fields": {"true"}})
	if fmt.Sprint(o["profile_data"].(map[string]any)["1"]) != "map[rendered_value:<p>+1-555-0100</p> value:+1-555-0100]" {
		t.Errorf("short text %v", o["profile_data"])
	}
}

func TestUserEmailVisibility(t *testing.T) {
	e := coreStart(t, Options{})
	// target id -> the viewers (by role name) who see the real address.
	targets := []struct {
		id   int
		sees string
	}{
		{SeedOwnerID, "owner administrator moderator member guest bot"}, // everyone
		{SeedAdmin2ID, "owner administrator moderator member bot"},      // members
		{SeedModeratorID, "owner administrator moderator"},              // moderators
		{SeedMemberID, "owner administrator member"},                    // administrators (member = self)
		{SeedMember2ID, ""}, // nobody
		{SeedBotID, "owner administrator moderator member guest bot"},         // bots: always
		{SeedGuestID, "owner administrator moderator member guest bot"},       // members, and self
		{SeedOwner2ID, "owner administrator"},                                 // administrators
		{SeedDeactivatedID, "owner administrator moderator member guest bot"}, // everyone
	}
	users := map[int]SeedUser{}
	for _, u := range e.srv.SeedUsers() {
		users[u.ID] = u
	}
	for _, tg := range targets {
		for _, v := range coreRoles {
			sees := strings.Contains(" "+tg.sees+" ", " "+v.name+" ")
			u := usersGet(t, e, v.id, fmt.Sprint(tg.id), nil)
			if sees && u["delivery_email"] != users[tg.id].Email {
				t.Errorf("%s viewing %d: delivery_email %v, want the real address", v.name, tg.id, u["delivery_email"])
			}
			if !sees && u["delivery_email"] != nil {
				t.Errorf("%s viewing %d: delivery_email %v, want null", v.name, tg.id, u["delivery_email"])
			}
			// email does not depend on the viewer.
			wantEmail := users[tg.id].Email
			if strings.Count(tg.sees, " ") != 5 {
				wantEmail = fmt.Sprintf("user%d@zulip.example.com", tg.id)
			}
			if tg.id == SeedGuestID {
				wantEmail = "user7@zulip.example.com"
			}
			if u["email"] != wantEmail {
				t.Errorf("%s viewing %d: email %v, want %s", v.name, tg.id, u["email"], wantEmail)
			}
		}
	}
}

func TestGetUsers(t *testing.T) {
	e := coreStart(t, Options{})
	for _, role := range coreRoles {
		t.Run(role.name, func(t *testing.T) {
			a := e.coreRequest(role.id, http.MethodGet, "/users", nil)
			coreWantOK(t, a)
			members := a.body["members"].([]any)
			if len(members) != 12 {
				t.Fatalf("%d members", len(members))
			}
			for i, m := range members {
				if m.(map[string]any)["user_id"] != float64(i+1) {
					t.Errorf("order: %v at %d", m.(map[string]any)["user_id"], i)
				}
			}
		})
	}
	a := e.coreRequest(SeedMemberID, http.MethodGet, "/users", url.Values{"user_ids": {"[11,2,2]"}, "include_custom_profile_fields": {"true"}})
	coreWantOK(t, a)
	members := a.body["members"].([]any)
	if len(members) != 2 || members[0].(map[string]any)["user_id"] != 2.0 {
		t.Errorf("user_ids filter: %v", members)
	}
	if _, ok := members[1].(map[string]any)["profile_data"]; !ok {
		t.Error("include_custom_profile_fields ignored")
	}
	a = e.coreRequest(SeedMemberID, http.MethodGet, "/users", url.Values{"user_ids": {"[2,999]"}})
	coreWantError(t, a, 400, "BAD_REQUEST", "Invalid user ID: 999")
}

func TestGetUserByIDAndEmail(t *testing.T) {
	e := coreStart(t, Options{})
	cases := []struct {
		name   string
		viewer int
		path   string
		wantID int // 0: "No such user"
	}{
		{"by id", SeedGuestID, "5", 5},
		{"deactivated by id", SeedGuestID, "10", 10},
		{"bot by id", SeedGuestID, "8", 8},
		{"unknown id", SeedOwnerID, "999", 0},
		{"huge id", SeedOwnerID, "99999999999999999999999", 0},
		{"public address", SeedGuestID, "olivia@zulip.example.com", 1},
		{"public address, other case", SeedGuestID, "Olivia@Zulip.Example.com", 1},
		{"address visible to admins, as admin", SeedAdminID, "mark@zulip.example.com", 5},
		{"address visible to admins, as member", SeedMember3ID, "mark@zulip.example.com", 0},
		{"dummy address, as member", SeedMember3ID, "user5@zulip.example.com", 5},
		{"hidden from everyone, real", SeedOwnerID, "maria@zulip.example.com", 0},
		{"hidden from everyone, dummy", SeedGuestID, "user6@zulip.example.com", 6},
		// access_user_by_email has no exception for the viewer's own address:
		// visibility "nobody" is accessible to no role.
		{"own hidden address", SeedMember2ID, "maria@zulip.example.com", 0},
		{"own hidden address, dummy", SeedMember2ID, "user6@zulip.example.com", 6},
		{"unknown address", SeedOwnerID, "ghost@zulip.example.com", 0},
		// A dummy-shaped address is a lookup by id (zerver/lib/users.py
		// access_user_by_email), even for a user whose address is public; the
		// match is case-sensitive (re.match) and needs the realm's host.
		{"dummy of a public address", SeedOwnerID, "user1@zulip.example.com", 1},
		{"dummy of a bot", SeedGuestID, "user8@zulip.example.com", 8},
		{"dummy in capitals", SeedOwnerID, "USER5@zulip.example.com", 0},
		{"dummy of another host", SeedOwnerID, "user5@example.org", 0},
		{"dummy of an unknown id", SeedOwnerID, "user999@zulip.example.com", 0},
		{"dummy of a huge id", SeedOwnerID, "user99999999999999999999999@zulip.example.com", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := e.coreRequest(tc.viewer, http.MethodGet, "/users/"+tc.path, nil)
			if tc.wantID == 0 {
				coreWantError(t, a, 400, "BAD_REQUEST", "No such user")
				return
			}
			coreWantOK(t, a)
			if got := a.body["user"].(map[string]any)["user_id"]; got != float64(tc.wantID) {
				t.Errorf("user %v, want %d", got, tc.wantID)
			}
		})
	}
	old := coreStart(t, Options{FeatureLevel: 30})
	a := old.coreRequest(SeedOwnerID, http.MethodGet, "/users/olivia@zulip.example.com", nil)
	coreWantError(t, a, 400, "BAD_REQUEST", "user_id is not an integer")
}

func TestGetOwnUser(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
	coreWantOK(t, a)
	b := a.body
	if got, want := usersKeys(b), "avatar_url avatar_version date_joined delivery_email email full_name is_active is_admin "+
		"is_bot is_guest is_imported_stub is_owner max_message_id msg profile_data result role timezone user_id"; got != want {
		t.Errorf("keys\n got %s\nwant %s", got, want)
	}
	wantMax := -1
	e.srv.Do(func(r *Realm) {
		for _, m := range r.Messages {
			if _, ok := m.Flags[SeedMemberID]; ok && m.ID > wantMax {
				wantMax = m.ID
			}
		}
	})
	if b["delivery_email"] != "mark@zulip.example.com" || b["email"] != "user5@zulip.example.com" || b["max_message_id"] != float64(wantMax) || wantMax < 1 {
		t.Errorf("%v", b)
	}
	if _, ok := b["avatar_url"].(string); !ok {
		t.Errorf("avatar_url %v: /users/me computes gravatars", b["avatar_url"])
	}
	a = e.coreRequest(SeedBotID, http.MethodGet, "/users/me", nil)
	coreWantOK(t, a)
	for _, k := range []string{"bot_type", "bot_owner_id", "profile_data"} {
		if _, ok := a.body[k]; ok {
			t.Errorf("bot's /users/me has %s", k)
		}
	}
	if a.body["is_bot"] != true {
		t.Errorf("%v", a.body)
	}
	a = e.coreRequest(SeedMemberID, http.MethodPatch, "/users/me", url.Values{"full_name": {"X"}})
	coreWant405(t, a, `["DELETE","GET","HEAD"]`)
}

// userCreationRefusals are user creations Zulip refuses, with its error, each from a valid request with one value changed or left out (and the realm prepared by before); none creates a user.
var userCreationRefusals = []struct {
	name   string
	form   url.Values
	code   string
	msg    string
	before func(*Realm)
}{
	{"missing email", newUserForm("email", "<absent>"), "REQUEST_VARIABLE_MISSING", "Missing 'email' argument", nil},
	{"missing password", newUserForm("password", "<absent>"), "REQUEST_VARIABLE_MISSING", "Missing 'password' argument", nil},
	{"missing full_name", newUserForm("full_name", "<absent>"), "REQUEST_VARIABLE_MISSING", "Missing 'full_name' argument", nil},
	{"name too long", newUserForm("full_name", strings.Repeat("n", 101)), "BAD_REQUEST", "Name too long!", nil},
	{"name too short", newUserForm("full_name", " x "), "BAD_REQUEST", "Name too short!", nil},
	{"name with @", newUserForm("full_name", "Al@ice"), "BAD_REQUEST", "Invalid characters in name!", nil},
	{"name with a control character", newUserForm("full_name", "Al\x01ice"), "BAD_REQUEST", "Invalid characters in name!", nil},
	// zerver/lib/users.py check_full_name refuses only what
	// zerver/lib/string_validation.py check_string_is_printable does:
	// categories Cc and Cs and the non-characters.
	{"name with a non-character", newUserForm("full_name", "Al\ufdd0ice"), "BAD_REQUEST", "Invalid characters in name!", nil},
	{"name with a plane-end non-character", newUserForm("full_name", "Al\U0001fffeice"), "BAD_REQUEST", "Invalid characters in name!", nil},
	{"name like a mention", newUserForm("full_name", "Alice|15"), "BAD_REQUEST", "Invalid format!", nil},
	{"bad email", newUserForm("email", "not-an-address"), "BAD_REQUEST", "Bad name or username", nil},
	{"bad email domain", newUserForm("email", "a@nodot"), "BAD_REQUEST", "Bad name or username", nil},
	{"domain not allowed", newUserForm("email", "x@elsewhere.org"), "BAD_REQUEST", "Email 'x@elsewhere.org' not allowed in this organization",
		func(r *Realm) { r.Settings.EmailsRestrictedToDomains = true }},
	{"plus with restricted domains", newUserForm("email", "x+tag@zulip.example.com"), "BAD_REQUEST", "Email addresses containing + are not allowed.",
		func(r *Realm) { r.Settings.EmailsRestrictedToDomains = true }},
	{"disposable", newUserForm("email", "x@mailinator.com"), "BAD_REQUEST", "Disposable email addresses are not allowed in this organization", nil},
	{"duplicate", newUserForm("email", "Mark@zulip.example.com"), "BAD_REQUEST", "Email 'Mark@zulip.example.com' already in use", nil},
	{"duplicate of a deactivated user", newUserForm("email", "dan@zulip.example.com"), "BAD_REQUEST", "Email 'dan@zulip.example.com' already in use", nil},
	{"weak password", newUserForm("password", "abc"), "BAD_REQUEST", "The password is too weak.", nil},
	{"notorious password", newUserForm("password", "password"), "BAD_REQUEST", "The password is too weak.", nil},
}

func TestCreateUser(t *testing.T) {
	t.Run("permissions", testCreateUserPermissions)
	for _, tc := range userCreationRefusals {
		t.Run(tc.name, func(t *testing.T) {
			e := coreStart(t, Options{})
			if tc.before != nil {
				e.srv.Do(tc.before)
			}
			a := e.coreRequest(SeedAdminID, http.MethodPost, "/users", tc.form)
			coreWantError(t, a, 400, tc.code, tc.msg)
			if n := len(e.srv.SeedUsers()); n != 12 {
				t.Errorf("%d users", n)
			}
		})
	}
	t.Run("allowed domains and subdomains", func(t *testing.T) {
		e := coreStart(t, Options{})
		e.srv.Do(func(r *Realm) {
			r.Settings.EmailsRestrictedToDomains = true
			r.Domains = append(r.Domains, &RealmDomain{ID: 2, Domain: "corp.example", AllowSubdomains: true})
		})
		for _, email := range []string{"a@zulip.example.com", "b@corp.example", "c@eu.corp.example"} {
			coreWantOK(t, e.coreRequest(SeedAdminID, http.MethodPost, "/users", newUserForm("email", email)))
		}
		coreWantError(t, e.coreRequest(SeedAdminID, http.MethodPost, "/users", newUserForm("email", "d@sub.zulip.example.com")),
			400, "BAD_REQUEST", "Email 'd@sub.zulip.example.com' not allowed in this organization")
	})
	t.Run("success", func(t *testing.T) {
		e := coreStart(t, Options{})
		a := e.coreRequest(SeedAdminID, http.MethodPost, "/users", newUserForm("full_name", "  New Person  "))
		coreWantOK(t, a)
		id := int(a.body["user_id"].(float64))
		if id != 13 {
			t.Errorf("user_id %d", id)
		}
		u := usersGet(t, e, SeedOwnerID, fmt.Sprint(id), nil)
		if u["full_name"] != "New Person" || u["role"] != 400.0 || u["is_active"] != true || u["delivery_email"] != "new.person@zulip.example.com" {
			t.Errorf("%v", u)
		}
		cred, _ := e.srv.User(id)
		if len(cred.APIKey) != 32 || cred.Password != "correct horse battery" {
			t.Errorf("credentials %+v", cred)
		}
		coreWantOK(t, e.coreRequest(id, http.MethodGet, "/users/me", nil))
		e.srv.Do(func(r *Realm) {
			if !containsInt(r.Groups[GroupFullMembers].Members, id) {
				t.Error("not in role:fullmembers")
			}
			if _, ok := r.Channels[SeedChannelGeneral].Subscribers[id]; !ok {
				t.Error("not subscribed to the default channel")
			}
			if _, ok := r.Channels[SeedChannelRandom].Subscribers[id]; ok {
				t.Error("subscribed to a non-default channel")
			}
		})
	})
	t.Run("old feature level", func(t *testing.T) {
		e := coreStart(t, Options{FeatureLevel: 20})
		a := e.coreRequest(SeedAdminID, http.MethodPost, "/users", newUserForm())
		coreWantOK(t, a)
		if _, ok := a.body["user_id"]; ok {
			t.Error("user_id (FL30) at FL20")
		}
		a = e.coreRequest(SeedOwnerID, http.MethodPost, "/users", newUserForm("email", "z@zulip.example.com"))
		coreWantError(t, a, 400, "BAD_REQUEST", "User not authorized for this query")
	})
}

// newUserForm is a valid request to create a user, with each key, value pair of kv set,
// or removed where the value is "<absent>".
func newUserForm(kv ...string) url.Values {
	f := url.Values{"email": {"new.person@zulip.example.com"}, "password": {"correct horse battery"}, "full_name": {"New Person"}}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "<absent>" {
			f.Del(kv[i])
		} else {
			f.Set(kv[i], kv[i+1])
		}
	}
	return f
}

// testCreateUserPermissions: only an administrator holding can_create_users creates users.
func testCreateUserPermissions(t *testing.T) {
	e := coreStart(t, Options{})
	for _, role := range coreRoles {
		a := e.coreRequest(role.id, http.MethodPost, "/users", newUserForm())
		switch role.id {
		case SeedAdminID: // the administrator holding can_create_users
			coreWantOK(t, a)
		case SeedOwnerID:
			coreWantError(t, a, 400, "BAD_REQUEST", "User not authorized to create users")
		default:
			coreWantError(t, a, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
		}
	}
}

// usersRole reads a user's role through the realm.
func usersRole(e *coreEnv, id int) (role int) {
	e.srv.Do(func(r *Realm) { role = r.Users[id].Role })
	return role
}

func TestUpdateUserPermissions(t *testing.T) {
	// Who may change a member's name, and a member's role to moderator.
	for _, role := range coreRoles {
		t.Run(role.name, func(t *testing.T) {
			e := coreStart(t, Options{})
			a := e.coreRequest(role.id, http.MethodPatch, fmt.Sprintf("/users/%d", SeedMember3ID), url.Values{"full_name": {"Mei Renamed"}})
			b := e.coreRequest(role.id, http.MethodPatch, fmt.Sprintf("/users/%d", SeedMember3ID), url.Values{"role": {"300"}})
			if role.id == SeedOwnerID || role.id == SeedAdminID {
				coreWantOK(t, a)
				coreWantOK(t, b)
				return
			}
			coreWantError(t, a, 400, "BAD_REQUEST", "Insufficient permission")
			coreWantError(t, b, 400, "BAD_REQUEST", "Insufficient permission")
			if usersRole(e, SeedMember3ID) != RoleMember {
				t.Error("role changed")
			}
		})
	}
	t.Run("bot owner renames own bot but cannot change its role", func(t *testing.T) {
		e := coreStart(t, Options{})
		coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodPatch, fmt.Sprintf("/users/%d", SeedBotID), url.Values{"full_name": {"Deploy Bot"}}))
		a := e.coreRequest(SeedMemberID, http.MethodPatch, fmt.Sprintf("/users/%d", SeedBotID), url.Values{"role": {"300"}})
		coreWantError(t, a, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
		a = e.coreRequest(SeedMember3ID, http.MethodPatch, fmt.Sprintf("/users/%d", SeedBotID), url.Values{"full_name": {"Mine Now"}})
		coreWantError(t, a, 400, "BAD_REQUEST", "Insufficient permission")
	})
}

func TestUpdateUserRoles(t *testing.T) {
	cases := []struct {
		name     string
		actor    int
		target   int
		role     string
		prep     func(*Realm)
		code     string // "" = success
		msg      string
		wantRole int
	}{
		{"admin promotes member to administrator", SeedAdminID, SeedMember3ID, "200", nil, "", "", RoleAdministrator},
		{"admin demotes moderator to guest", SeedAdminID, SeedModeratorID, "600", nil, "", "", RoleGuest},
		{"same role is a no-op, even for an owner target", SeedAdminID, SeedOwner2ID, "100", nil, "", "", RoleOwner},
		{"admin cannot grant owner", SeedAdminID, SeedMember3ID, "100", nil, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner", RoleMember},
		{"admin cannot demote an owner", SeedAdminID, SeedOwner2ID, "200", nil, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner", RoleOwner},
		{"owner grants owner", SeedOwnerID, SeedMember3ID, "100", nil, "", "", RoleOwner},
		{"owner demotes another owner", SeedOwnerID, SeedOwner2ID, "400", nil, "", "", RoleMember},
		{"last owner", SeedOwnerID, SeedOwnerID, "200", func(r *Realm) { r.Users[SeedOwner2ID].IsActive = false },
			"BAD_REQUEST", "The owner permission cannot be removed from the only organization owner.", RoleOwner},
		{"owner demotes self when another owner exists", SeedOwnerID, SeedOwnerID, "200", nil, "", "", RoleAdministrator},
		// zerver/views/users.py update_user_backend has no rule for guests:
		// a guest becomes an administrator or owner in one step.
		{"guest to administrator", SeedAdminID, SeedGuestID, "200", nil, "", "", RoleAdministrator},
		{"guest to owner", SeedOwnerID, SeedGuestID, "100", nil, "", "", RoleOwner},
		{"guest to moderator", SeedAdminID, SeedGuestID, "300", nil, "", "", RoleModerator},
		{"invalid role", SeedOwnerID, SeedMember3ID, "500", nil, "BAD_REQUEST", "Invalid role", RoleMember},
		{"role not JSON", SeedOwnerID, SeedMember3ID, "member", nil, "BAD_REQUEST", "role is not valid JSON", RoleMember},
		{"role a string", SeedOwnerID, SeedMember3ID, `"400"`, nil, "BAD_REQUEST", "role is not an integer", RoleMember},
		{"deactivated target", SeedAdminID, SeedDeactivatedID, "300", nil, "", "", RoleModerator},
		{"unknown target", SeedAdminID, 999, "300", nil, "BAD_REQUEST", "No such user", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := coreStart(t, Options{})
			if tc.prep != nil {
				e.srv.Do(tc.prep)
			}
			a := e.coreRequest(tc.actor, http.MethodPatch, fmt.Sprintf("/users/%d", tc.target), url.Values{"role": {tc.role}})
			if tc.code == "" {
				coreWantOK(t, a)
			} else {
				coreWantError(t, a, 400, tc.code, tc.msg)
			}
			if tc.wantRole != 0 {
				if got := usersRole(e, tc.target); got != tc.wantRole {
					t.Errorf("role %d, want %d", got, tc.wantRole)
				}
				// Exactly one system role group holds the user.
				e.srv.Do(func(r *Realm) {
					var in []string
					for _, gid := range []int{GroupOwners, GroupAdministrators, GroupModerators, GroupFullMembers, GroupMembers, GroupEveryone} {
						if containsInt(r.Groups[gid].Members, tc.target) {
							in = append(in, r.Groups[gid].Name)
						}
					}
					if len(in) != 1 || in[0] != r.Groups[roleGroupID(tc.wantRole)].Name {
						t.Errorf("role groups %v", in)
					}
				})
			}
		})
	}
}

// userUpdateCases are changes of a user's name, e-mail and profile data, accepted or refused with Zulip's error, and what the user then holds.
var userUpdateCases = []struct {
	name   string
	actor  int
	target string
	form   url.Values
	code   string
	msg    string
	check  func(t *testing.T, u *User)
}{
	{"rename", SeedAdminID, "11", url.Values{"full_name": {"  Mei M.  "}}, "", "", wantFullName("Mei M.")},
	{"blank name is ignored", SeedAdminID, "11", url.Values{"full_name": {"   "}}, "", "", wantFullName("Mei Member")},
	{"name too long", SeedAdminID, "11", url.Values{"full_name": {strings.Repeat("é", 101)}}, "BAD_REQUEST", "Name too long!", nil},
	{"name of 100 characters", SeedAdminID, "11", url.Values{"full_name": {strings.Repeat("é", 100)}}, "", "", nil},
	{"name with invalid characters", SeedAdminID, "11", url.Values{"full_name": {"Mei *Star*"}}, "BAD_REQUEST", "Invalid characters in name!", nil},
	// zerver/lib/users.py check_full_name accepts format and private-use
	// characters (zerver/lib/string_validation.py check_string_is_printable
	// refuses only Cc, Cs and non-characters).
	{"name with an emoji ZWJ sequence", SeedAdminID, "11", url.Values{"full_name": {"Mei \U0001F469\u200D\U0001F4BB"}}, "", "", wantFullName("Mei \U0001F469\u200D\U0001F4BB")},
	{"name with a bidi mark", SeedAdminID, "11", url.Values{"full_name": {"\u200fMei \u05de"}}, "", "", nil},
	{"name with a private-use character", SeedAdminID, "11", url.Values{"full_name": {"Mei \ue000"}}, "", "", nil},
	{"name with a C1 control", SeedAdminID, "11", url.Values{"full_name": {"Mei\u0085Member"}}, "BAD_REQUEST", "Invalid characters in name!", nil},
	{"name with a non-character", SeedAdminID, "11", url.Values{"full_name": {"Mei \uffff"}}, "BAD_REQUEST", "Invalid characters in name!", nil},
	{"by e-mail", SeedAdminID, "mei@zulip.example.com", url.Values{"full_name": {"Mei By Email"}}, "", "", wantFullName("Mei By Email")},
	{"by dummy e-mail", SeedAdminID, "user6@zulip.example.com", url.Values{"full_name": {"Maria B"}}, "", "", nil},
	{"by hidden e-mail", SeedAdminID, "maria@zulip.example.com", url.Values{"full_name": {"Maria B"}}, "BAD_REQUEST", "No such user", nil},
	{"profile data", SeedAdminID, "11", url.Values{"profile_data": {
		`[{"id":1,"value":"+81 3 1234"},{"id":6,"value":[1,5]},{"id":3,"value":""},{"id":4,"value":null},{"id":9,"value":"E-0011"}]`}}, "", "",
		func(t *testing.T, u *User) {
			want := map[int]string{FieldIDPhone: "+81 3 1234", FieldIDMentor: "[1,5]", FieldIDEmployeeID: "E-0011"}
			if fmt.Sprint(u.ProfileData) != fmt.Sprint(want) {
				t.Errorf("profile data %v", u.ProfileData)
			}
		}},
	{"profile data: unknown field", SeedAdminID, "11", url.Values{"profile_data": {`[{"id":99,"value":"x"}]`}},
		"BAD_REQUEST", "Field id 99 not found.", nil},
	{"profile data: bad date", SeedAdminID, "11", url.Values{"profile_data": {`[{"id":4,"value":"1990-13-01"}]`}},
		"BAD_REQUEST", "Birthday is not a date", nil},
	{"profile data: bad choice", SeedAdminID, "11", url.Values{"profile_data": {`[{"id":3,"value":"7"}]`}},
		"BAD_REQUEST", "'7' is not a valid choice for 'Team'.", nil},
	{"profile data: extra key", SeedAdminID, "11", url.Values{"profile_data": {`[{"id":1,"value":"x","extra":1}]`}},
		"BAD_REQUEST", "Unexpected arguments: extra", nil},
	{"profile data: missing value", SeedAdminID, "11", url.Values{"profile_data": {`[{"id":1}]`}},
		"BAD_REQUEST", "profile_data[0] key is missing: value", nil},
	{"profile data: number value", SeedAdminID, "11", url.Values{"profile_data": {`[{"id":1,"value":5}]`}},
		"BAD_REQUEST", `profile_data[0]["value"] is not an allowed_type`, nil},
	{"profile data: not a list", SeedAdminID, "11", url.Values{"profile_data": {`{"id":1}`}},
		"BAD_REQUEST", "profile_data is not a list", nil},
	{"new_email by the owner with the permission", SeedOwnerID, "11", url.Values{"new_email": {"mei.new@zulip.example.com"}}, "", "",
		func(t *testing.T, u *User) {
			if u.Email != "mei.new@zulip.example.com" {
				t.Errorf("email %q", u.Email)
			}
		}},
	// zerver/views/users.py update_user_backend: an administrator needs
	// the can_change_user_emails special permission; being an owner is
	// neither needed nor enough.
	{"new_email by an administrator without the permission", SeedAdminID, "11", url.Values{"new_email": {"x@zulip.example.com"}},
		"BAD_REQUEST", "User not authorized for this query", nil},
	{"new_email by a member", SeedMemberID, "11", url.Values{"new_email": {"x@zulip.example.com"}},
		"BAD_REQUEST", "Insufficient permission", nil},
	{"new_email by an owner without the permission", SeedOwner2ID, "11", url.Values{"new_email": {"x@zulip.example.com"}},
		"BAD_REQUEST", "User not authorized for this query", nil},
	{"new_email invalid", SeedOwnerID, "11", url.Values{"new_email": {"nope"}}, "BAD_REQUEST", "Invalid address.", nil},
	{"new_email taken", SeedOwnerID, "11", url.Values{"new_email": {"mark@zulip.example.com"}},
		"BAD_REQUEST", "Email 'mark@zulip.example.com' already in use", nil},
	{"refused request changes nothing", SeedAdminID, "11", url.Values{"full_name": {"Changed"}, "profile_data": {`[{"id":99,"value":"x"}]`}},
		"BAD_REQUEST", "Field id 99 not found.", func(t *testing.T, u *User) {
			if u.FullName != "Mei Member" {
				t.Errorf("name changed to %q", u.FullName)
			}
		}},
}

// wantFullName checks that the user's name is now name.
func wantFullName(name string) func(t *testing.T, u *User) {
	return func(t *testing.T, u *User) {
		t.Helper()
		if u.FullName != name {
			t.Errorf("name %q", u.FullName)
		}
	}
}

func TestUpdateUserNameEmailProfile(t *testing.T) {
	for _, tc := range userUpdateCases {
		t.Run(tc.name, func(t *testing.T) {
			e := coreStart(t, Options{})
			a := e.coreRequest(tc.actor, http.MethodPatch, "/users/"+tc.target, tc.form)
			if tc.code == "" {
				coreWantOK(t, a)
				if _, ok := a.body["ignored_parameters_unsupported"]; ok {
					t.Errorf("ignored: %v", a.body)
				}
			} else {
				coreWantError(t, a, 400, tc.code, tc.msg)
			}
			if tc.check != nil {
				e.srv.Do(func(r *Realm) { tc.check(t, r.Users[SeedMember3ID]) })
			}
		})
	}
	t.Run("new_email by an administrator with the permission", func(t *testing.T) {
		// zerver/views/users.py update_user_backend: an administrator (not
		// only an owner) holding can_change_user_emails changes the address.
		e := coreStart(t, Options{})
		e.srv.Do(func(r *Realm) { r.Users[SeedAdmin2ID].CanChangeUserEmails = true })
		coreWantOK(t, e.coreRequest(SeedAdmin2ID, http.MethodPatch, "/users/11", url.Values{"new_email": {"mei.admin@zulip.example.com"}}))
		e.srv.Do(func(r *Realm) {
			if got := r.Users[SeedMember3ID].Email; got != "mei.admin@zulip.example.com" {
				t.Errorf("email %q", got)
			}
		})
	})
	t.Run("feature level gates", func(t *testing.T) {
		e := coreStart(t, Options{FeatureLevel: 280})
		a := e.coreRequest(SeedOwnerID, http.MethodPatch, "/users/11", url.Values{"new_email": {"x@zulip.example.com"}})
		coreWantOK(t, a)
		if fmt.Sprint(a.body["ignored_parameters_unsupported"]) != "[new_email]" {
			t.Errorf("new_email (FL285) at FL280: %v", a.body)
		}
		a = e.coreRequest(SeedOwnerID, http.MethodPatch, "/users/mei@zulip.example.com", url.Values{"full_name": {"X Y"}})
		coreWantError(t, a, 400, "BAD_REQUEST", "user_id is not an integer")
	})
}

// userDeactivationCases are deactivations Zulip accepts or refuses, with its answer.
var userDeactivationCases = []struct {
	name   string
	actor  int
	target string
	form   url.Values
	prep   func(*Realm)
	status int
	code   string
	msg    string
}{
	{"owner target needs an owner", SeedAdminID, "9", nil, nil, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
	{"owner deactivates another owner", SeedOwnerID, "9", nil, nil, 200, "", ""},
	{"the only owner", SeedOwnerID, "1", nil, func(r *Realm) { r.Users[SeedOwner2ID].Role = RoleMember },
		400, "BAD_REQUEST", "Cannot deactivate the only organization owner"},
	{"already deactivated", SeedAdminID, "10", nil, nil, 400, "BAD_REQUEST", "User is deactivated"},
	{"a bot", SeedAdminID, "8", nil, nil, 400, "BAD_REQUEST", "No such user"},
	{"unknown", SeedAdminID, "999", nil, nil, 400, "BAD_REQUEST", "No such user"},
	{"by e-mail is not a route", SeedAdminID, "mei@zulip.example.com", nil, nil, 405, "BAD_REQUEST", "Method Not Allowed"},
	{"comment", SeedAdminID, "11", url.Values{"deactivation_notification_comment": {"Bye"}}, nil, 200, "", ""},
	{"comment too long", SeedAdminID, "11", url.Values{"deactivation_notification_comment": {strings.Repeat("x", 2001)}}, nil,
		400, "BAD_REQUEST", "deactivation_notification_comment is too long (limit: 2000 characters)"},
	{"actions", SeedAdminID, "11", url.Values{"actions": {`{"delete_profile":true,"delete_public_channel_messages":true}`}}, nil, 200, "", ""},
	{"unknown action", SeedAdminID, "11", url.Values{"actions": {`{"delete_everything":true}`}}, nil,
		400, "BAD_REQUEST", "Unexpected arguments: delete_everything"},
	{"non-boolean action", SeedAdminID, "11", url.Values{"actions": {`{"delete_profile":1}`}}, nil,
		400, "BAD_REQUEST", `actions["delete_profile"] is not a boolean`},
}

func TestDeactivateUser(t *testing.T) {
	t.Run("permissions", testDeactivateUserPermissions)
	for _, tc := range userDeactivationCases {
		t.Run(tc.name, func(t *testing.T) {
			e := coreStart(t, Options{})
			if tc.prep != nil {
				e.srv.Do(tc.prep)
			}
			form := tc.form
			if form == nil {
				form = url.Values{}
			}
			a := e.coreRequest(tc.actor, http.MethodDelete, "/users/"+tc.target, form)
			switch tc.status {
			case 200:
				coreWantOK(t, a)
			case 405:
				coreWant405(t, a, `["GET","PATCH","HEAD"]`)
			default:
				coreWantError(t, a, tc.status, tc.code, tc.msg)
			}
		})
	}
	t.Run("effects", func(t *testing.T) {
		e := coreStart(t, Options{})
		coreWantOK(t, e.coreRequest(SeedAdminID, http.MethodDelete, fmt.Sprintf("/users/%d", SeedMember3ID),
			url.Values{"actions": {`{"delete_profile":true,"delete_public_channel_messages":true}`}}))
		// The owned bot goes too; the user can no longer log in.
		coreWantOK(t, e.coreRequest(SeedOwnerID, http.MethodDelete, fmt.Sprintf("/users/%d", SeedMemberID), url.Values{}))
		if b, _ := e.srv.User(SeedBotID); b.Active {
			t.Error("the owned bot is still active")
		}
		a := e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
		coreWantError(t, a, 401, "UNAUTHORIZED", "Account is deactivated")
		u := usersGet(t, e, SeedOwnerID, "11", url.Values{"include_custom_profile_fields": {"true"}})
		if u["is_active"] != false || len(u["profile_data"].(map[string]any)) != 0 {
			t.Errorf("%v", u)
		}
		e.srv.Do(func(r *Realm) {
			for _, m := range r.Messages {
				if m.SenderID == SeedMember3ID && !r.Channels[m.ChannelID].InviteOnly {
					t.Errorf("public message %d kept", m.ID)
				}
			}
			// Memberships are kept, as in Zulip (the API shows active members only).
			if !containsInt(r.Groups[GroupFullMembers].Members, SeedMember3ID) {
				t.Error("group membership dropped")
			}
		})
	})
}

// testDeactivateUserPermissions: only owners and administrators deactivate users.
func testDeactivateUserPermissions(t *testing.T) {
	for _, role := range coreRoles {
		e := coreStart(t, Options{})
		a := e.coreRequest(role.id, http.MethodDelete, fmt.Sprintf("/users/%d", SeedMember3ID), url.Values{})
		if role.id == SeedOwnerID || role.id == SeedAdminID {
			coreWantOK(t, a)
		} else {
			coreWantError(t, a, 400, "BAD_REQUEST", "Insufficient permission")
		}
	}
}

func TestReactivateUser(t *testing.T) {
	for _, role := range coreRoles {
		t.Run(role.name, func(t *testing.T) {
			e := coreStart(t, Options{})
			a := e.coreRequest(role.id, http.MethodPost, fmt.Sprintf("/users/%d/reactivate", SeedDeactivatedID), url.Values{})
			if role.id == SeedOwnerID || role.id == SeedAdminID {
				coreWantOK(t, a)
				coreWantOK(t, e.coreRequest(SeedDeactivatedID, http.MethodGet, "/users/me", nil))
			} else {
				coreWantError(t, a, 400, "BAD_REQUEST", "Insufficient permission")
			}
		})
	}
	e := coreStart(t, Options{})
	// zerver/views/users.py reactivate_user_backend and
	// zerver/actions/create_user.py do_reactivate_user: reactivating an active
	// user succeeds and changes nothing.
	coreWantOK(t, e.coreRequest(SeedAdminID, http.MethodPost, "/users/11/reactivate", url.Values{}))
	if u, _ := e.srv.User(SeedMember3ID); !u.Active {
		t.Errorf("user 11 inactive after reactivating it while active")
	}
	// An active bot meets check_bot_name_available(is_activation=True): its
	// own name is taken by an active user, itself.
	coreWantError(t, e.coreRequest(SeedAdminID, http.MethodPost, fmt.Sprintf("/users/%d/reactivate", SeedIncomingBotID), url.Values{}), 400, "BAD_REQUEST",
		`There is already an active bot named "Alerts Hook" in this organization. `+
			`To reactivate this bot, you must rename or deactivate the other one first.`)
	coreWantError(t, e.coreRequest(SeedAdminID, http.MethodPost, "/users/999/reactivate", url.Values{}), 400, "BAD_REQUEST", "No such user")
	// A bot owner reactivates their bot, unless an active user has its name.
	coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodDelete, "/users/me", url.Values{}))
	coreWantOK(t, e.coreRequest(SeedAdminID, http.MethodPost, fmt.Sprintf("/users/%d/reactivate", SeedMemberID), url.Values{}))
	coreWantOK(t, e.coreRequest(SeedAdminID, http.MethodPatch, "/users/11", url.Values{"full_name": {"Build Bot"}}))
	a := e.coreRequest(SeedMemberID, http.MethodPost, fmt.Sprintf("/users/%d/reactivate", SeedBotID), url.Values{})
	coreWantError(t, a, 400, "BAD_REQUEST", `There is already an active bot named "Build Bot" in this organization. `+
		`To reactivate this bot, you must rename or deactivate the other one first.`)
	coreWantOK(t, e.coreRequest(SeedAdminID, http.MethodPatch, "/users/11", url.Values{"full_name": {"Mei Member"}}))
	coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodPost, fmt.Sprintf("/users/%d/reactivate", SeedBotID), url.Values{}))
}

func TestDeactivateOwnUser(t *testing.T) {
	t.Run("everyone but the last owner may leave", func(t *testing.T) {
		for _, role := range coreRoles {
			e := coreStart(t, Options{})
			coreWantOK(t, e.coreRequest(role.id, http.MethodDelete, "/users/me", url.Values{}))
			if u, _ := e.srv.User(role.id); u.Active {
				t.Errorf("%s still active", role.name)
			}
		}
	})
	t.Run("last owner", func(t *testing.T) {
		e := coreStart(t, Options{})
		coreWantOK(t, e.coreRequest(SeedOwner2ID, http.MethodDelete, "/users/me", url.Values{}))
		a := e.coreRequest(SeedOwnerID, http.MethodDelete, "/users/me", url.Values{})
		coreWantError(t, a, 400, "CANNOT_DEACTIVATE_LAST_USER", "Cannot deactivate the only organization owner.")
		if a.body["entity"] != "organization owner" || a.body["is_last_owner"] != true {
			t.Errorf("%v", a.body)
		}
	})
	t.Run("last user", func(t *testing.T) {
		e := coreStart(t, Options{})
		e.srv.Do(func(r *Realm) {
			for id, u := range r.Users {
				u.IsActive = id == SeedMemberID
			}
		})
		a := e.coreRequest(SeedMemberID, http.MethodDelete, "/users/me", url.Values{})
		coreWantError(t, a, 400, "CANNOT_DEACTIVATE_LAST_USER", "Cannot deactivate the only user.")
		if a.body["entity"] != "user" || a.body["is_last_owner"] != false {
			t.Errorf("%v", a.body)
		}
	})
	t.Run("owned bots follow", func(t *testing.T) {
		e := coreStart(t, Options{})
		coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodDelete, "/users/me", url.Values{}))
		if b, _ := e.srv.User(SeedBotID); b.Active {
			t.Error("owned bot still active")
		}
	})
}

// coreWant405 fails unless the answer is Zulip's json_method_not_allowed
// (zerver/lib/response.py): 405, "Method Not Allowed" without a code, and the
// allowed methods.
func coreWant405(t *testing.T, a coreAnswer, allowed string) {
	t.Helper()
	// Django's default Content-Type (text/html) is kept, so decode the body here.
	var body map[string]any
	err := json.Unmarshal([]byte(a.raw), &body)
	got, _ := json.Marshal(body["allowed_methods"])
	if err != nil || a.status != 405 || body["msg"] != "Method Not Allowed" || body["code"] != nil || string(got) != allowed {
		t.Errorf("got %d %s, want 405 Method Not Allowed without a code, allowing %s", a.status, a.raw, allowed)
	}
}
