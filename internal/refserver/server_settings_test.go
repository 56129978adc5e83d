package refserver

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
)

func TestServerSettings(t *testing.T) {
	e := coreStart(t, Options{FeatureLevel: 400, Version: "11.0-test"})
	a := e.coreRequest(0, http.MethodGet, "/server_settings", nil)
	coreWantOK(t, a)
	var keys []string
	for k := range a.body {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	want := "authentication_methods email_auth_enabled external_authentication_methods is_incompatible msg " +
		"push_notifications_enabled realm_description realm_icon realm_name realm_uri realm_url " +
		"realm_web_public_access_enabled require_email_format_usernames result zulip_feature_level " +
		"zulip_merge_base zulip_version"
	if got := strings.Join(keys, " "); got != want {
		t.Errorf("keys\n got %s\nwant %s", got, want)
	}
	if a.body["zulip_feature_level"] != 400.0 || a.body["zulip_version"] != "11.0-test" {
		t.Errorf("version: %v %v", a.body["zulip_feature_level"], a.body["zulip_version"])
	}
	if a.body["realm_url"] != e.ts.URL || a.body["realm_uri"] != e.ts.URL {
		t.Errorf("realm_url %v, want %s", a.body["realm_url"], e.ts.URL)
	}
	methods := a.body["authentication_methods"].(map[string]any)
	if methods["dev"] != true || methods["password"] != true || len(methods) != 12 {
		t.Errorf("authentication_methods %v", methods)
	}
	if a.body["realm_name"] != "Zulip Reference Realm" || a.body["push_notifications_enabled"] != true {
		t.Errorf("body %v", a.body)
	}
	// Credentials, even wrong ones, do not matter.
	req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/api/v1/server_settings", nil)
	req.SetBasicAuth("x@y.z", "wrong")
	coreWantOK(t, e.coreSend(req))

	p := coreStart(t, Options{Production: true, FeatureLevel: 200})
	a = p.coreRequest(0, http.MethodGet, "/server_settings", nil)
	if a.body["authentication_methods"].(map[string]any)["dev"] != false {
		t.Error("dev login advertised in production")
	}
	if _, ok := a.body["realm_url"]; ok {
		t.Error("realm_url (FL257) sent at FL200")
	}
}

func TestDevFetchAPIKey(t *testing.T) {
	e := coreStart(t, Options{})
	mark, _ := e.srv.User(SeedMemberID)
	cases := []struct {
		name          string
		form          url.Values
		status        int
		code, msg     string
		wantUser, bot bool
	}{
		{"member", url.Values{"username": {mark.Email}}, 200, "", "", true, false},
		{"case-insensitive", url.Values{"username": {strings.ToUpper(mark.Email)}}, 200, "", "", true, false},
		{"missing", url.Values{}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'username' argument", false, false},
		{"not an e-mail", url.Values{"username": {"mark"}}, 400, "BAD_REQUEST", "Enter a valid email address.", false, false},
		{"unknown", url.Values{"username": {"ghost@zulip.example.com"}}, 401, "AUTHENTICATION_FAILED",
			"Your username or password is incorrect", false, false},
		{"deactivated", url.Values{"username": {"dan@zulip.example.com"}}, 401, "USER_DEACTIVATED", "Account is deactivated", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := e.coreRequest(0, http.MethodPost, "/dev_fetch_api_key", tc.form)
			if tc.status != 200 {
				coreWantError(t, a, tc.status, tc.code, tc.msg)
				return
			}
			coreWantOK(t, a)
			if a.body["api_key"] != mark.APIKey || a.body["email"] != mark.Email || a.body["user_id"] != float64(mark.ID) {
				t.Errorf("answer %v", a.body)
			}
		})
	}
	t.Run("key works", func(t *testing.T) {
		a := e.coreRequest(0, http.MethodPost, "/dev_fetch_api_key", url.Values{"username": {mark.Email}})
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/api/v1/users/me", nil)
		req.SetBasicAuth(a.body["email"].(string), a.body["api_key"].(string))
		coreWantOK(t, e.coreSend(req))
	})
	t.Run("production", func(t *testing.T) {
		p := coreStart(t, Options{Production: true})
		// Not routed at all (zproject/dev_urls.py is included only in
		// development): Django's HTML 404 page, as for any unknown path.
		a := p.coreRequest(0, http.MethodPost, "/dev_fetch_api_key", url.Values{"username": {mark.Email}})
		if a.status != 404 || !strings.Contains(a.header.Get("Content-Type"), "text/html") {
			t.Errorf("production POST /dev_fetch_api_key: %d %q %s, want the HTML 404 page", a.status, a.header.Get("Content-Type"), a.raw)
		}
	})
	t.Run("deactivated realm", func(t *testing.T) {
		p := coreStart(t, Options{})
		p.srv.Do(func(r *Realm) { r.Deactivated = true })
		a := p.coreRequest(0, http.MethodPost, "/dev_fetch_api_key", url.Values{"username": {mark.Email}})
		coreWantError(t, a, 401, "REALM_DEACTIVATED", "This organization has been deactivated")
	})
	t.Run("GET is not allowed", func(t *testing.T) {
		// Django's bare 405 for a view that allows only POST (require_post):
		// an Allow header and an empty body.
		a := e.coreRequest(0, http.MethodGet, "/dev_fetch_api_key", url.Values{"username": {mark.Email}})
		if a.status != 405 || a.header.Get("Allow") != "POST" || a.raw != "" {
			t.Errorf("GET /dev_fetch_api_key: %d Allow %q body %q, want 405 Allow POST and no body", a.status, a.header.Get("Allow"), a.raw)
		}
	})
}

func TestFetchAPIKey(t *testing.T) {
	e := coreStart(t, Options{Production: true})
	owner, _ := e.srv.User(SeedOwnerID)
	bot, _ := e.srv.User(SeedBotID)
	a := e.coreRequest(0, http.MethodPost, "/fetch_api_key", url.Values{"username": {owner.Email}, "password": {owner.Password}})
	coreWantOK(t, a)
	if a.body["api_key"] != owner.APIKey || a.body["user_id"] != float64(owner.ID) {
		t.Errorf("answer %v", a.body)
	}
	for name, form := range map[string]url.Values{
		"wrong password": {"username": {owner.Email}, "password": {"nope"}},
		"unknown":        {"username": {"ghost@zulip.example.com"}, "password": {"x"}},
		"bot":            {"username": {bot.Email}, "password": {""}},
	} {
		a := e.coreRequest(0, http.MethodPost, "/fetch_api_key", form)
		if a.status != 401 || a.body["code"] != "AUTHENTICATION_FAILED" {
			t.Errorf("%s: %d %s", name, a.status, a.raw)
		}
	}
	a = e.coreRequest(0, http.MethodPost, "/fetch_api_key", url.Values{"username": {"dan@zulip.example.com"}, "password": {"whatever"}})
	coreWantError(t, a, 401, "USER_DEACTIVATED", "Account is deactivated")
	a = e.coreRequest(0, http.MethodPost, "/fetch_api_key", url.Values{"username": {owner.Email}})
	coreWantError(t, a, 400, "REQUEST_VARIABLE_MISSING", "Missing 'password' argument")
}
