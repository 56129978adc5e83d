package refserver

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestUpdateRealm: PATCH /realm changes settings of every kind, the register
// snapshot shows them in its own form, and a request refused by the view's
// checks beyond types changes nothing. The answer is update_realm's `data`
// (zerver/views/realm.py): what changed, a string as "updated", a limit made
// unlimited as null, an enumeration of strings as its stored code
// (RealmTopicsPolicyEnum.disable_empty_topic = 3) and a permission as its new
// value; org_type whenever sent; nothing for what was already so.
func TestUpdateRealm(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.coreRequest(SeedOwnerID, http.MethodPatch, "/realm", url.Values{
		"name": {"Renamed"}, "message_content_edit_limit_seconds": {`"unlimited"`}, "message_retention_days": {`"unlimited"`},
		"jitsi_server_url": {`"server_default"`}, "org_type": {"20"}, "topics_policy": {"disable_empty_topic"},
		"can_create_groups": {`{"new": {"direct_members": [], "direct_subgroups": [2]}}`}, "digest_weekday": {"1"},
	})
	coreWantOK(t, a)
	data := map[string]any{}
	for k, v := range a.body {
		if k != "result" && k != "msg" {
			data[k] = v
		}
	}
	if got, want := cfgJSON(data), `{"can_create_groups":2,"message_content_edit_limit_seconds":null,"name":"updated","org_type":20,"topics_policy":3}`; got != want {
		t.Errorf("answer %s, want %s", got, want)
	}
	// Sent again: only what the view always reports.
	a = e.coreRequest(SeedOwnerID, http.MethodPatch, "/realm", url.Values{"name": {"Renamed"}, "org_type": {"20"},
		"topics_policy": {"disable_empty_topic"}, "can_create_groups": {`{"new": 2}`}})
	coreWantOK(t, a)
	if got := cfgJSON(a.body); got != `{"msg":"","org_type":20,"result":"success","topics_policy":3}` {
		t.Errorf("the same again answered %s", got)
	}
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

// TestUpdateRealm_order: update_realm applies its changes one by one, each
// in its own transaction (zerver/views/realm.py: the limits through
// parse_and_set_setting_value_if_required, then Realm.property_types, then
// each permission under transaction.atomic(durable=True), the authentication
// methods, the channels): a refusal in that phase leaves the earlier changes
// applied, and their events sent. A refusal by the checks made before
// (language, owner, plan) changes nothing.
func TestUpdateRealm_order(t *testing.T) {
	e := coreStart(t, Options{})
	queue := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"event_types": {`["realm"]`}})
	coreWantOK(t, queue)
	setting := func(name string) any {
		var v any
		e.srv.Do(func(r *Realm) {
			if sp, _ := realmSettingByName(name); sp.Kind == kindPermission {
				v = r.settingForAPI(r.Settings.GroupSettings[name]).Wire()
			} else {
				v = r.Setting(name)
			}
		})
		return v
	}
	for _, tc := range []struct {
		name      string
		form      url.Values
		msg       string
		applied   map[string]any // settings the refused request changed anyway
		untouched []string       // settings it left as they were
	}{
		{"a limit made unlimited, then a bad limit",
			url.Values{"message_content_delete_limit_seconds": {`"unlimited"`}, "message_content_edit_limit_seconds": {"0"}},
			"Bad value for 'message_content_edit_limit_seconds': 0",
			map[string]any{"message_content_delete_limit_seconds": nil}, []string{"message_content_edit_limit_seconds"}},
		{"a number waits for the property loop, so a bad limit after it keeps it",
			url.Values{"message_content_delete_limit_seconds": {"3600"}, "move_messages_within_stream_limit_seconds": {`"forever"`}},
			"Bad value for 'move_messages_within_stream_limit_seconds': forever",
			nil, []string{"message_content_delete_limit_seconds"}},
		{"a property, then a group that does not exist",
			url.Values{"name": {"Kept"}, "can_create_groups": {`{"new": 999}`}}, "Invalid user group",
			map[string]any{"name": "Kept"}, []string{"can_create_groups"}},
		{"a property, then a stale permission",
			url.Values{"description": {"Kept too"}, "can_create_groups": {`{"new": 2, "old": 999}`}},
			"'old' value does not match the expected value.",
			map[string]any{"description": "Kept too"}, []string{"can_create_groups"}},
		{"two permissions, the second refused", url.Values{"create_multiuse_invite_group": {`{"new": 3}`},
			"can_access_all_users_group": {`{"new": 3}`}}, "'can_access_all_users_group' setting cannot be set to 'role:moderators' group.",
			map[string]any{"create_multiuse_invite_group": float64(3)}, []string{"can_access_all_users_group"}},
		{"a permission, then a public moderation channel",
			url.Values{"can_create_groups": {`{"new": 3}`}, "moderation_request_channel_id": {"1"}},
			"Moderation request channel must be private.",
			map[string]any{"can_create_groups": float64(3)}, []string{"moderation_request_channel_id"}},
		{"a bad language: checked before anything is applied",
			url.Values{"name": {"Not kept"}, "default_language": {"xx"}}, "Invalid language 'xx'",
			nil, []string{"name"}},
	} {
		before := map[string]any{}
		for _, name := range tc.untouched {
			before[name] = setting(name)
		}
		a := e.coreRequest(SeedOwnerID, http.MethodPatch, "/realm", tc.form)
		if a.status != http.StatusBadRequest || a.body["msg"] != tc.msg {
			t.Errorf("%s: answered %d %v, want %q", tc.name, a.status, a.body, tc.msg)
			continue
		}
		for name, want := range tc.applied {
			if got := setting(name); cfgJSON(got) != cfgJSON(want) {
				t.Errorf("%s: %s = %v, want %v (applied before the refusal)", tc.name, name, got, want)
			}
		}
		for name, was := range before {
			if got := setting(name); cfgJSON(got) != cfgJSON(was) {
				t.Errorf("%s: %s changed from %v to %v", tc.name, name, was, got)
			}
		}
	}
	// The refused requests' applied changes were announced.
	events := e.coreRequest(SeedMemberID, http.MethodGet, "/events", url.Values{"queue_id": {queue.body["queue_id"].(string)},
		"last_event_id": {"-1"}, "dont_block": {"true"}})
	coreWantOK(t, events)
	got := cfgJSON(events.body["events"])
	for _, want := range []string{`"property":"name","type":"realm","value":"Kept"`, `"value":"Kept too"`, `"create_multiuse_invite_group":3`,
		`"can_create_groups":3`, `"message_content_delete_limit_seconds":null`} {
		if !strings.Contains(got, want) {
			t.Errorf("no event with %s in %s", want, got)
		}
	}
	if strings.Contains(got, "Not kept") {
		t.Errorf("an event for a request refused before applying: %s", got)
	}
}
