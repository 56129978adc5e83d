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
