package refserver

import (
	"net/http"
	"reflect"
	"sort"
	"testing"
)

// chatGroups indexes a GET /user_groups answer by group id.
func chatGroups(body map[string]any) map[int]map[string]any {
	out := map[int]map[string]any{}
	for _, g := range body["user_groups"].([]any) {
		m := g.(map[string]any)
		out[int(m["id"].(float64))] = m
	}
	return out
}

func TestChatUserGroupsRoles(t *testing.T) {
	e := chatNew(t)
	for _, user := range []int{SeedOwnerID, SeedAdminID, SeedModeratorID, SeedMemberID} {
		body := e.chatOK(user, http.MethodGet, "/user_groups", nil)
		if n := len(body["user_groups"].([]any)); n != 11 {
			t.Errorf("user %d: %d groups, want 11 (all but the deactivated one)", user, n)
		}
	}
	for _, path := range []string{"/user_groups", "/user_groups/1/members", "/user_groups/1/members/1", "/user_groups/6/subgroups"} {
		e.chatFail(SeedGuestID, http.MethodGet, path, nil, 400, "BAD_REQUEST", "Not allowed for guest users")
		e.chatFail(SeedBotID, http.MethodGet, path, nil, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
	}
}

func TestChatUserGroupsWire(t *testing.T) {
	e := chatNew(t)
	groups := chatGroups(e.chatOK(SeedMemberID, http.MethodGet, "/user_groups", nil))
	if _, ok := groups[GroupRetired]; ok {
		t.Errorf("deactivated group listed by default")
	}
	owners := groups[GroupOwners]
	want := map[string]any{
		"id": 1.0, "name": "role:owners", "description": "Owners of this organization", "members": []any{1.0, 9.0},
		"direct_subgroup_ids": []any{}, "is_system_group": true, "date_created": nil, "creator_id": nil,
		"deactivated": false, "can_add_members_group": 2.0, "can_join_group": 8.0, "can_leave_group": 6.0,
		"can_manage_group": 8.0, "can_mention_group": 6.0, "can_remove_members_group": 2.0,
	}
	if !reflect.DeepEqual(owners, want) {
		t.Errorf("role:owners\n got %v\nwant %v", owners, want)
	}
	leads := groups[GroupLeads]
	if chatJSON(leads["can_manage_group"]) != `{"direct_members":[1],"direct_subgroups":[2]}` ||
		leads["creator_id"] != 1.0 || leads["date_created"] != float64(seedBase.Unix()+12*3600) ||
		chatJSON(leads["direct_subgroup_ids"]) != "[9]" || leads["is_system_group"] != false {
		t.Errorf("leads: %v", leads)
	}
	if chatJSON(groups[GroupAdministrators]["direct_subgroup_ids"]) != "[1]" {
		t.Errorf("administrators: %v", groups[GroupAdministrators])
	}

	all := chatGroups(e.chatOK(SeedMemberID, http.MethodGet, "/user_groups", chatForm("include_deactivated_groups", "true")))
	retired := all[GroupRetired]
	// Its only member is deactivated, and members lists active users only.
	if retired == nil || retired["deactivated"] != true || chatJSON(retired["members"]) != "[]" {
		t.Errorf("retired-team: %v", retired)
	}
	e.chatFail(SeedMemberID, http.MethodGet, "/user_groups", chatForm("include_deactivated_groups", "maybe"), 400, "BAD_REQUEST",
		"include_deactivated_groups is not valid JSON")
}

func TestChatUserGroupsFeatureLevels(t *testing.T) {
	e := chatNew(t, chatLevel(290))
	body := e.chatOK(SeedMemberID, http.MethodGet, "/user_groups", chatForm("allow_deactivated", "true", "include_deactivated_groups", "true"))
	if chatJSON(body["ignored_parameters_unsupported"]) != `["include_deactivated_groups"]` {
		t.Errorf("ignored: %v", body["ignored_parameters_unsupported"])
	}
	g := chatGroups(body)[GroupRetired]
	if g == nil {
		t.Fatalf("allow_deactivated ignored at FL290")
	}
	for _, k := range []string{"date_created", "creator_id", "can_join_group", "can_add_members_group", "can_leave_group", "can_remove_members_group"} {
		if _, ok := g[k]; ok {
			t.Errorf("%s served at FL290", k)
		}
	}
	for _, k := range []string{"deactivated", "can_manage_group", "can_mention_group"} {
		if _, ok := g[k]; !ok {
			t.Errorf("%s missing at FL290", k)
		}
	}
}

func TestChatUserGroupMembership(t *testing.T) {
	e := chatNew(t)
	members := func(path string, kv ...string) string {
		return chatJSON(e.chatOK(SeedAdminID, http.MethodGet, path, chatForm(kv...))["members"])
	}
	if got := members("/user_groups/12/members"); got != "[1,5,11]" {
		t.Errorf("leads members: %s", got)
	}
	if got := members("/user_groups/12/members", "direct_member_only", "true"); got != "[1]" {
		t.Errorf("leads direct members: %s", got)
	}
	if got := members("/user_groups/5/members"); got != "[1,2,3,4,5,6,8,9,11,12]" {
		t.Errorf("role:members: %s", got)
	}
	if got := members("/user_groups/6/members", "direct_member_only", "true"); got != "[7]" {
		t.Errorf("role:everyone direct: %s", got)
	}
	is := func(path string, kv ...string) any {
		return e.chatOK(SeedMemberID, http.MethodGet, path, chatForm(kv...))["is_user_group_member"]
	}
	if is("/user_groups/12/members/5") != true || is("/user_groups/12/members/5", "direct_member_only", "true") != false ||
		is("/user_groups/12/members/10") != false {
		t.Errorf("is_user_group_member wrong")
	}
	subgroups := func(path string, kv ...string) string {
		return chatJSON(e.chatOK(SeedMemberID, http.MethodGet, path, chatForm(kv...))["subgroups"])
	}
	if got := subgroups("/user_groups/6/subgroups"); got != "[1,2,3,4,5]" {
		t.Errorf("role:everyone subgroups: %s", got)
	}
	if got := subgroups("/user_groups/6/subgroups", "direct_subgroup_only", "true"); got != "[5]" {
		t.Errorf("role:everyone direct subgroups: %s", got)
	}
	if got := subgroups("/user_groups/8/subgroups"); got != "[]" {
		t.Errorf("role:nobody subgroups: %s", got)
	}
	for _, path := range []string{"/user_groups/999/members", "/user_groups/999/members/1", "/user_groups/999/subgroups"} {
		e.chatFail(SeedMemberID, http.MethodGet, path, nil, 400, "BAD_REQUEST", "Invalid user group")
	}
	e.chatFail(SeedMemberID, http.MethodGet, "/user_groups/12/members/999", nil, 400, "BAD_REQUEST", "No such user")
}

func TestChatGroupsWireAfterChanges(t *testing.T) {
	e := chatNew(t)
	// A member deactivated out of band disappears from the member lists.
	e.srv.Do(func(r *Realm) { r.Users[SeedMember3ID].IsActive = false })
	groups := chatGroups(e.chatOK(SeedOwnerID, http.MethodGet, "/user_groups", nil))
	if got := chatJSON(groups[GroupBackend]["members"]); got != "[5]" {
		t.Errorf("backend members: %s", got)
	}
	var ids []int
	for id := range groups {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	if len(ids) != 11 {
		t.Errorf("groups: %v", ids)
	}
}
