package refserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"
)

// botDoAs sends a request with explicit credentials (a bot's own key).
func botDoAs(t *testing.T, ts *httptest.Server, email, key, method, path string, form url.Values) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+"/api/v1"+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(email, key)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s %s: %v: %s", method, path, err, raw)
	}
	return resp.StatusCode, out
}

// botSetPermission sets an organization permission to a system group.
func botSetPermission(srv *Server, name string, group int) {
	srv.Do(func(r *Realm) { r.Settings.GroupSettings[name] = GroupSetting{GroupID: group} })
}

func TestBotCreate(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedMemberID, "POST", "/bots", cfgForm("full_name", "  Deploy Bot ", "short_name", " deploy ",
		"default_sending_stream", "general", "default_all_public_streams", "true"))
	cfgWantOK(t, status, body)
	keys := make([]string, 0, len(body))
	for k := range body {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if got := strings.Join(keys, ","); got != "api_key,avatar_url,default_all_public_streams,default_events_register_stream,default_sending_stream,msg,result,user_id" {
		t.Fatalf("keys = %s", got)
	}
	if body["user_id"] != float64(13) || body["default_sending_stream"] != "general" || body["default_events_register_stream"] != nil ||
		body["default_all_public_streams"] != true {
		t.Fatalf("answer = %v", body)
	}
	u, _ := srv.User(13)
	if u.Email != "deploy-bot@"+srv.realm.Host || u.FullName != "Deploy Bot" || !u.IsBot || u.APIKey != body["api_key"] {
		t.Fatalf("bot = %+v", u)
	}
	srv.Do(func(r *Realm) {
		b := r.Users[13]
		if b.BotType != BotGeneric || b.BotOwnerID != SeedMemberID || b.Role != RoleMember {
			t.Errorf("bot = %+v", b)
		}
	})
	status, body = botDoAs(t, ts, u.Email, u.APIKey, "GET", "/users/me", nil)
	cfgWantOK(t, status, body)
	if body["user_id"] != float64(13) {
		t.Fatalf("the new key authenticates someone else: %v", body)
	}
}

func TestBotCreateOutgoingService(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedAdminID, "POST", "/bots", cfgForm("full_name", "Hook Out", "short_name", "out",
		"bot_type", "3", "payload_url", `"https://hooks.example.com/z"`, "interface_type", "2"))
	cfgWantOK(t, status, body)
	srv.Do(func(r *Realm) {
		svc := r.Bots[13].Service
		if svc == nil || svc.Name != "out" || svc.BaseURL != "https://hooks.example.com/z" || svc.Interface != 2 || len(svc.Token) != 32 {
			t.Errorf("service = %+v", svc)
		}
	})
	status, body = cfgDo(t, srv, ts, SeedAdminID, "POST", "/register", cfgForm("fetch_event_types", `["realm_bot"]`))
	cfgWantOK(t, status, body)
	var bots []map[string]any
	for _, b := range body["realm_bots"].([]any) {
		bots = append(bots, b.(map[string]any))
	}
	last := bots[len(bots)-1]
	if got := cfgJSON(last); !strings.HasPrefix(got, `{"default_all_public_streams":false,"default_events_register_stream":null,"default_sending_stream":null,"services":[{"base_url":"https://hooks.example.com/z","interface":2,"token":"`) ||
		!strings.HasSuffix(got, `"}],"user_id":13}`) {
		t.Fatalf("realm_bot = %s", got)
	}
}

func TestBotCreateErrors(t *testing.T) {
	cases := []struct {
		name string
		user int
		form url.Values
		msg  string
	}{
		{"guest", SeedGuestID, cfgForm("full_name", "G Bot", "short_name", "g"), "Not allowed for guest users"},
		{"bot", SeedBotID, cfgForm("full_name", "B Bot", "short_name", "b"), "This endpoint does not accept bot requests."},
		{"blank short name", SeedMemberID, cfgForm("full_name", "X Bot", "short_name", "  "), "Bad name or username"},
		{"short name with a space", SeedMemberID, cfgForm("full_name", "X Bot", "short_name", "a b"), "Bad name or username"},
		{"short name taken", SeedMemberID, cfgForm("full_name", "X Bot", "short_name", "build"), "Username already in use"},
		{"short name of a deactivated bot", SeedAdminID, cfgForm("full_name", "X Bot", "short_name", "alerts"), "Username already in use"},
		{"name of an active user", SeedMemberID, cfgForm("full_name", "Mark Member", "short_name", "x"), "Name is already in use!"},
		{"name too short", SeedMemberID, cfgForm("full_name", "X", "short_name", "x"), "Name too short!"},
		{"embedded", SeedAdminID, cfgForm("full_name", "X Bot", "short_name", "x", "bot_type", "4"), "Embedded bots are not enabled."},
		{"unknown type", SeedAdminID, cfgForm("full_name", "X Bot", "short_name", "x", "bot_type", "7"), "Invalid bot type"},
		{"unknown interface", SeedAdminID, cfgForm("full_name", "X Bot", "short_name", "x", "bot_type", "3", "interface_type", "3"), "Invalid interface type"},
		{"unknown channel", SeedMemberID, cfgForm("full_name", "X Bot", "short_name", "x", "default_sending_stream", "nope"), "Invalid channel name 'nope'"},
		{"private channel", SeedMemberID, cfgForm("full_name", "X Bot", "short_name", "x", "default_events_register_stream", "leaders"), "Invalid channel name 'leaders'"},
		{"not a URL", SeedMemberID, cfgForm("full_name", "X Bot", "short_name", "x", "bot_type", "3", "payload_url", `"ftp:x"`), "payload_url is not a URL"},
		{"integration", SeedMemberID, cfgForm("full_name", "X Bot", "short_name", "x", "bot_type", "2", "service_name", "github"), "Invalid integration 'github'."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, ts := cfgServer(t, 0)
			srv.Do(func(r *Realm) { r.Users[SeedIncomingBotID].IsActive = false })
			status, body := cfgDo(t, srv, ts, tc.user, "POST", "/bots", tc.form)
			cfgWantError(t, status, body, 400, "BAD_REQUEST", tc.msg)
		})
	}
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedMemberID, "POST", "/bots", cfgForm("full_name", "X Bot"))
	cfgWantError(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'short_name' argument")
}

func TestBotCreatePermissions(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	botSetPermission(srv, "can_create_bots_group", GroupAdministrators)
	status, body := cfgDo(t, srv, ts, SeedMemberID, "POST", "/bots", cfgForm("full_name", "Gen Bot", "short_name", "gen"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Insufficient permission")
	status, body = cfgDo(t, srv, ts, SeedMemberID, "POST", "/bots", cfgForm("full_name", "Out Bot", "short_name", "out", "bot_type", "3"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Insufficient permission")
	// Incoming webhooks only need can_create_write_only_bots_group (FL344).
	status, body = cfgDo(t, srv, ts, SeedMemberID, "POST", "/bots", cfgForm("full_name", "In Bot", "short_name", "in", "bot_type", "2"))
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedAdmin2ID, "POST", "/bots", cfgForm("full_name", "Gen Bot", "short_name", "gen"))
	cfgWantOK(t, status, body)
	botSetPermission(srv, "can_create_write_only_bots_group", GroupNobody)
	status, body = cfgDo(t, srv, ts, SeedMemberID, "POST", "/bots", cfgForm("full_name", "In2 Bot", "short_name", "in2", "bot_type", "2"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Insufficient permission")
	// Below FL344 the write-only group is not consulted.
	old, ots := cfgServer(t, 340)
	botSetPermission(old, "can_create_bots_group", GroupAdministrators)
	status, body = cfgDo(t, old, ots, SeedMemberID, "POST", "/bots", cfgForm("full_name", "In Bot", "short_name", "in", "bot_type", "2"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Insufficient permission")
}

func TestBotUpdate(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/bots/8", cfgForm("full_name", "Builder", "default_sending_stream", "general",
		"default_all_public_streams", "true"))
	cfgWantOK(t, status, body)
	if body["full_name"] != "Builder" || body["default_sending_stream"] != "general" || body["default_all_public_streams"] != true ||
		body["bot_owner"] != "mark@"+srv.realm.Host || body["service_interface"] != float64(1) {
		t.Fatalf("answer = %v", body)
	}
	status, body = cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/bots/8", cfgForm("default_sending_stream", ""))
	cfgWantOK(t, status, body)
	if body["default_sending_stream"] != nil {
		t.Fatalf("not cleared: %v", body)
	}
	// short_name (FL447) changes the address; the old one is free again.
	status, body = cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/bots/8", cfgForm("short_name", "ci"))
	cfgWantOK(t, status, body)
	if u, _ := srv.User(8); u.Email != "ci-bot@"+srv.realm.Host {
		t.Fatalf("email = %s", u.Email)
	}
	status, body = cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/bots/8", cfgForm("short_name", "ci"))
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/bots/12", cfgForm("short_name", "ci"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Username already in use")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/bots/12", cfgForm("bot_owner_id", "5"))
	cfgWantOK(t, status, body)
	if u := srv.realm.Users[12]; u.BotOwnerID != SeedMemberID {
		t.Fatalf("owner = %d", u.BotOwnerID)
	}
	// Below FL447 short_name is not a parameter (ignored).
	old, ots := cfgServer(t, 446)
	status, body = cfgDo(t, old, ots, SeedMemberID, "PATCH", "/bots/8", cfgForm("short_name", "ci"))
	cfgWantOK(t, status, body)
	if u, _ := old.User(8); u.Email == "ci-bot@"+old.realm.Host {
		t.Fatal("short_name applied below FL447")
	}
}

func TestBotUpdateErrors(t *testing.T) {
	cases := []struct {
		name string
		user int
		path string
		form url.Values
		code string
		msg  string
	}{
		{"someone else's bot", SeedMember2ID, "/bots/8", cfgForm("full_name", "X Bot"), "BAD_REQUEST", "Insufficient permission"},
		{"a human", SeedAdminID, "/bots/5", cfgForm("full_name", "X Bot"), "BAD_REQUEST", "No such bot"},
		{"unknown id", SeedAdminID, "/bots/999", cfgForm("full_name", "X Bot"), "BAD_REQUEST", "No such bot"},
		{"guest", SeedGuestID, "/bots/8", cfgForm("full_name", "X Bot"), "BAD_REQUEST", "Not allowed for guest users"},
		{"name in use", SeedMemberID, "/bots/8", cfgForm("full_name", "Mark Member"), "BAD_REQUEST", "Name is already in use!"},
		{"role by the owner", SeedMemberID, "/bots/8", cfgForm("role", "300"), "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator"},
		{"owner role by an admin", SeedAdminID, "/bots/8", cfgForm("role", "100"), "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
		{"unknown role", SeedAdminID, "/bots/8", cfgForm("role", "150"), "BAD_REQUEST", "Invalid role"},
		{"no such owner", SeedAdminID, "/bots/8", cfgForm("bot_owner_id", "999"), "BAD_REQUEST", "Failed to change owner, no such user"},
		{"deactivated owner", SeedAdminID, "/bots/8", cfgForm("bot_owner_id", "10"), "BAD_REQUEST", "Failed to change owner, user is deactivated"},
		{"bot owner", SeedAdminID, "/bots/8", cfgForm("bot_owner_id", "12"), "BAD_REQUEST", "Failed to change owner, bots can't own other bots"},
		{"unknown channel", SeedMemberID, "/bots/8", cfgForm("default_events_register_stream", "nope"), "BAD_REQUEST", "Invalid channel name 'nope'"},
		{"bad interface", SeedMemberID, "/bots/8", cfgForm("service_payload_url", `"https://x.example.com"`, "service_interface", "9"), "BAD_REQUEST", "Invalid interface type"},
		{"blank short name", SeedMemberID, "/bots/8", cfgForm("short_name", " "), "BAD_REQUEST", "Bad name or username"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, ts := cfgServer(t, 0)
			status, body := cfgDo(t, srv, ts, tc.user, "PATCH", tc.path, tc.form)
			cfgWantError(t, status, body, 400, tc.code, tc.msg)
			if u, _ := srv.User(8); u.FullName != "Build Bot" {
				t.Fatalf("a refused request changed the bot: %+v", u)
			}
		})
	}
	// A bot holding can_create_users is an owner's business.
	srv, ts := cfgServer(t, 0)
	srv.Do(func(r *Realm) { r.Users[SeedBotID].CanCreateUsers = true })
	status, body := cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/bots/8", cfgForm("full_name", "X Bot"))
	cfgWantError(t, status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
}

func TestBotDeactivate(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	bot, _ := srv.User(SeedBotID)
	status, body := cfgDo(t, srv, ts, SeedMember2ID, "DELETE", "/bots/8", nil)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Insufficient permission")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "DELETE", "/bots/5", nil)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "No such bot")
	status, body = cfgDo(t, srv, ts, SeedMemberID, "DELETE", "/bots/8", nil)
	cfgWantOK(t, status, body)
	status, body = botDoAs(t, ts, bot.Email, bot.APIKey, "GET", "/users/me", nil)
	cfgWantError(t, status, body, 401, "UNAUTHORIZED", "Account is deactivated")
	status, body = cfgDo(t, srv, ts, SeedMemberID, "DELETE", "/bots/8", nil)
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedMemberID, "POST", "/users/8/reactivate", nil)
	cfgWantOK(t, status, body)
	status, body = botDoAs(t, ts, bot.Email, bot.APIKey, "GET", "/users/me", nil)
	cfgWantOK(t, status, body)
}

func TestBotAPIKey(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	bot, _ := srv.User(SeedBotID)
	status, body := cfgDo(t, srv, ts, SeedMemberID, "GET", "/bots/8/api_key", nil)
	cfgWantOK(t, status, body)
	if body["api_key"] != bot.APIKey {
		t.Fatalf("api_key = %v, want %s", body["api_key"], bot.APIKey)
	}
	status, body = cfgDo(t, srv, ts, SeedMember2ID, "GET", "/bots/8/api_key", nil)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Insufficient permission")
	status, body = cfgDo(t, srv, ts, SeedAdmin2ID, "POST", "/bots/8/api_key/regenerate", nil)
	cfgWantOK(t, status, body)
	newKey, _ := body["api_key"].(string)
	if len(newKey) != 32 || newKey == bot.APIKey {
		t.Fatalf("new key = %q", newKey)
	}
	status, body = botDoAs(t, ts, bot.Email, bot.APIKey, "GET", "/users/me", nil)
	cfgWantError(t, status, body, 401, "UNAUTHORIZED", "Invalid API key")
	status, body = botDoAs(t, ts, bot.Email, newKey, "GET", "/users/me", nil)
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedMemberID, "GET", "/bots/8/api_key", nil)
	cfgWantOK(t, status, body)
	if body["api_key"] != newKey {
		t.Fatalf("api_key = %v after regeneration", body["api_key"])
	}
	status, body = cfgDo(t, srv, ts, SeedMemberID, "POST", "/bots/5/api_key/regenerate", nil)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "No such bot")
	// GET /bots/{bot_id}/api_key is new at FL463.
	old, ots := cfgServer(t, 462)
	status, _, _ = cfgDoRaw(t, old, ots, SeedMemberID, "GET", "/bots/8/api_key", nil)
	if status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
		t.Fatalf("FL462: status %d", status)
	}
}

func TestBotRealmBotWire(t *testing.T) {
	for _, tc := range []struct {
		fl   int
		keys string
	}{
		{0, "default_all_public_streams,default_events_register_stream,default_sending_stream,services,user_id"},
		{473, "api_key,avatar_url,bot_type,default_all_public_streams,default_events_register_stream,default_sending_stream,email,full_name,is_active,owner_id,services,user_id"},
	} {
		srv, ts := cfgServer(t, tc.fl)
		status, body := cfgDo(t, srv, ts, SeedMemberID, "POST", "/register", cfgForm("fetch_event_types", `["realm_bot"]`))
		cfgWantOK(t, status, body)
		bots := body["realm_bots"].([]any)
		if len(bots) != 1 {
			t.Fatalf("FL%d: a member sees %d bots, want their own", tc.fl, len(bots))
		}
		var keys []string
		for k := range bots[0].(map[string]any) {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if got := strings.Join(keys, ","); got != tc.keys {
			t.Fatalf("FL%d: keys = %s", tc.fl, got)
		}
		_, body = cfgDo(t, srv, ts, SeedAdminID, "POST", "/register", cfgForm("fetch_event_types", `["realm_bot"]`))
		if n := len(body["realm_bots"].([]any)); n != 2 {
			t.Fatalf("FL%d: an administrator sees %d bots", tc.fl, n)
		}
	}
}

func TestBotReactivateNeedsCreatePermission(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedMemberID, "DELETE", "/bots/8", nil)
	cfgWantOK(t, status, body)
	botSetPermission(srv, "can_create_bots_group", GroupAdministrators)
	status, body = cfgDo(t, srv, ts, SeedMemberID, "POST", "/users/8/reactivate", nil)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Insufficient permission")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "POST", "/users/8/reactivate", nil)
	cfgWantOK(t, status, body)
}
