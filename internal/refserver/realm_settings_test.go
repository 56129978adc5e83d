package refserver

import (
	"net/http"
	"net/url"
	"testing"
)

// TestUpdateRealm: PATCH /realm changes settings of every kind, the register
// snapshot shows them in its own form, and a request with one bad value
// changes nothing.
func TestUpdateRealm(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.coreRequest(SeedOwnerID, http.MethodPatch, "/realm", url.Values{
		"name": {"Renamed"}, "message_content_edit_limit_seconds": {`"unlimited"`}, "message_retention_days": {`"unlimited"`},
		"jitsi_server_url": {`"server_default"`}, "org_type": {"20"}, "topics_policy": {`"disable_empty_topic"`},
		"can_create_groups": {`{"new": {"direct_members": [], "direct_subgroups": [2]}}`},
	})
	coreWantOK(t, a)
	snap := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"fetch_event_types": {`["realm"]`}})
	coreWantOK(t, snap)
	want := map[string]any{"realm_name": "Renamed", "realm_message_content_edit_limit_seconds": nil,
		"realm_message_retention_days": float64(-1), "realm_jitsi_server_url": nil, "realm_org_type": float64(20),
		"realm_topics_policy": "disable_empty_topic", "realm_can_create_groups": float64(GroupAdministrators)}
	for k, v := range want {
		if got := snap.body[k]; got != v {
			t.Errorf("%s = %#v, want %#v", k, got, v)
		}
	}
	// One bad value: nothing changes.
	bad := e.coreRequest(SeedOwnerID, http.MethodPatch, "/realm", url.Values{"name": {"Again"}, "default_language": {"xx"}})
	if bad.status != http.StatusBadRequest {
		t.Fatalf("bad language answered %d", bad.status)
	}
	snap = e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"fetch_event_types": {`["realm"]`}})
	if snap.body["realm_name"] != "Renamed" {
		t.Errorf("a refused request changed the name to %v", snap.body["realm_name"])
	}
}

// TestUpdateRealmAuthMethods: an owner changes the named methods only; an
// unknown method, disabling all of them, an administrator, and a method the
// plan lacks are refused with Zulip's words; limited plans refuse their
// settings.
func TestUpdateRealmAuthMethods(t *testing.T) {
	e := coreStart(t, Options{})
	patch := func(user int, kv ...string) coreAnswer {
		form := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			form.Set(kv[i], kv[i+1])
		}
		return e.coreRequest(user, http.MethodPatch, "/realm", form)
	}
	coreWantOK(t, patch(SeedOwnerID, "authentication_methods", `{"GitHub": true, "Dev": false}`))
	snap := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"fetch_event_types": {`["realm"]`}})
	methods, _ := snap.body["realm_authentication_methods"].(map[string]any)
	for name, want := range map[string]bool{"GitHub": true, "Dev": false, "Email": true} {
		if m, _ := methods[name].(map[string]any); m["enabled"] != want {
			t.Errorf("%s = %v, want enabled %v", name, methods[name], want)
		}
	}
	for _, tc := range []struct {
		user      int
		value     string
		code, msg string
	}{
		{SeedOwnerID, `{"Nope": true}`, "BAD_REQUEST", "Invalid authentication method: Nope. Valid methods are: ['Dev', 'Email', 'GitHub', 'Google', 'SAML']"},
		{SeedOwnerID, `{"Email": false, "GitHub": false}`, "BAD_REQUEST", "At least one authentication method must be enabled."},
		{SeedAdminID, `{"Email": true}`, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner"},
	} {
		a := patch(tc.user, "authentication_methods", tc.value)
		if a.status != http.StatusBadRequest || a.body["code"] != tc.code || a.body["msg"] != tc.msg {
			t.Errorf("%s: answered %d %v", tc.value, a.status, a.body)
		}
	}
	e.srv.Do(func(r *Realm) { r.PlanType = planLimited })
	for _, kv := range [][]string{{"authentication_methods", `{"SAML": true}`}, {"message_retention_days", "30"}, {"enable_spectator_access", "true"}} {
		a := patch(SeedOwnerID, kv...)
		if a.status != http.StatusBadRequest {
			t.Errorf("%s on a limited plan answered %d %v", kv[0], a.status, a.body)
		}
	}
	coreWantOK(t, patch(SeedOwnerID, "enable_spectator_access", "false"))
}
