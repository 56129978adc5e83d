package refserver

import (
	"net/http"
	"net/url"
	"testing"
)

// TestRegisterRealmPermissions: the realm section carries the organization's
// permissions as group-setting values and, from 326, the rules of every
// permission setting, spelled as the level asks.
func TestRegisterRealmPermissions(t *testing.T) {
	for _, tc := range []struct {
		fl             int
		creatorDefault string
	}{{420, "stream_creator_or_nobody"}, {0, "channel_creator"}} {
		e := coreStart(t, Options{FeatureLevel: tc.fl})
		a := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"fetch_event_types": {`["realm"]`}})
		coreWantOK(t, a)
		if got := a.body["realm_can_manage_all_groups"]; got != float64(GroupOwners) {
			t.Errorf("FL %d: realm_can_manage_all_groups = %v, want role:owners (%d)", tc.fl, got, GroupOwners)
		}
		if got := a.body["realm_can_create_groups"]; got != float64(GroupMembers) {
			t.Errorf("FL %d: realm_can_create_groups = %v, want role:members (%d)", tc.fl, got, GroupMembers)
		}
		supported, _ := a.body["server_supported_permission_settings"].(map[string]any)
		realm, _ := supported["realm"].(map[string]any)
		web, _ := realm["can_create_web_public_channel_group"].(map[string]any)
		if web["require_system_group"] != true || len(web["allowed_system_groups"].([]any)) != 4 {
			t.Errorf("FL %d: can_create_web_public_channel_group = %v", tc.fl, web)
		}
		stream, _ := supported["stream"].(map[string]any)
		admin, _ := stream["can_administer_channel_group"].(map[string]any)
		if admin["default_group_name"] != tc.creatorDefault || admin["allow_everyone_group"] != false {
			t.Errorf("FL %d: can_administer_channel_group = %v", tc.fl, admin)
		}
		group, _ := supported["group"].(map[string]any)
		mention, _ := group["can_mention_group"].(map[string]any)
		if mention["default_for_system_groups"] != sysNobody || mention["allow_everyone_group"] != true {
			t.Errorf("FL %d: can_mention_group = %v", tc.fl, mention)
		}
	}
	old := coreStart(t, Options{FeatureLevel: 300})
	a := old.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"fetch_event_types": {`["realm"]`}})
	coreWantOK(t, a)
	if _, ok := a.body["server_supported_permission_settings"]; ok {
		t.Error("FL 300 got the stable server_supported_permission_settings")
	}
	if _, ok := a.body["realm_can_add_subscribers_group"]; ok {
		t.Error("FL 300 got realm_can_add_subscribers_group (341)")
	}
}
