package refserver

import (
	"net/http"
	"net/url"
	"testing"
)

// TestGroupCreate: a member creates a group; unset settings take Zulip's
// defaults (the creator manages it and adds members); settings are stored
// canonically; names are unique among all groups, deactivated ones included.
func TestGroupCreate(t *testing.T) {
	e := chatNew(t)
	body := e.chatOK(SeedMemberID, http.MethodPost, "/user_groups/create", chatForm(
		"name", "designers", "description", "Design", "members", "[5, 11, 5]", "subgroups", "[10]",
		"can_mention_group", `{"direct_members": [], "direct_subgroups": [2]}`,
		"can_join_group", `{"direct_members": [], "direct_subgroups": []}`))
	id := int(body["group_id"].(float64))
	g := chatGroups(e.chatOK(SeedMemberID, http.MethodGet, "/user_groups", nil))[id]
	for key, want := range map[string]string{
		"members": "[5,11]", "direct_subgroup_ids": "[10]", "creator_id": "5",
		// One subgroup and no members is that group; an empty group is role:nobody.
		"can_mention_group": "2", "can_join_group": "8",
		// group_creator defaults.
		"can_manage_group": `{"direct_members":[5],"direct_subgroups":[]}`, "can_add_members_group": `{"direct_members":[5],"direct_subgroups":[]}`,
		"can_leave_group": "6", "can_remove_members_group": "8",
	} {
		if got := chatJSON(g[key]); got != want {
			t.Errorf("%s = %s, want %s", key, got, want)
		}
	}
	form := func(name string) url.Values {
		return chatForm("name", name, "description", "", "members", "[]")
	}
	e.chatFail(SeedMemberID, http.MethodPost, "/user_groups/create", form("designers"), 400, "BAD_REQUEST", "User group 'designers' already exists.")
	e.chatFail(SeedMemberID, http.MethodPost, "/user_groups/create", form("retired-team"), 400, "BAD_REQUEST", "User group 'retired-team' already exists.")
	e.chatFail(SeedMemberID, http.MethodPost, "/user_groups/create", form("role:x"), 400, "BAD_REQUEST", "User group name cannot start with 'role:'.")
	e.chatFail(SeedMemberID, http.MethodPost, "/user_groups/create", form(" "), 400, "BAD_REQUEST", "User group name can't be empty!")
	// require_user_group_create_permission refuses a guest before it asks
	// can_create_groups; a member outside can_create_groups is refused by it.
	e.chatFail(SeedGuestID, http.MethodPost, "/user_groups/create", form("g"), 400, "BAD_REQUEST", "Not allowed for guest users")
	e.chatOK(SeedOwnerID, http.MethodPatch, "/realm", chatForm("can_create_groups", `{"new": 3}`))
	e.chatFail(SeedMemberID, http.MethodPost, "/user_groups/create", form("g"), 400, "BAD_REQUEST", "Insufficient permission")
	e.chatOK(SeedOwnerID, http.MethodPatch, "/realm", chatForm("can_create_groups", `{"new": 5}`))
	bad := func(setting, value, msg string) {
		t.Helper()
		f := form("x")
		f.Set(setting, value)
		e.chatFail(SeedMemberID, http.MethodPost, "/user_groups/create", f, 400, "BAD_REQUEST", msg)
	}
	bad("can_manage_group", "6", "'can_manage_group' setting cannot be set to 'role:everyone' group.")
	bad("can_mention_group", "7", "'can_mention_group' setting cannot be set to 'role:internet' group.")
	bad("can_mention_group", "999", "Invalid user group")
	bad("can_mention_group", "11", "User group is deactivated.")
	bad("can_mention_group", `{"direct_members": [10], "direct_subgroups": []}`, "Invalid user ID: 10")
	bad("can_mention_group", `{"direct_members": [], "direct_subgroups": [999, 1]}`, "Invalid user group ID: 999")
	bad("can_mention_group", `{"direct_members": []}`, "can_mention_group.direct_subgroups field required")
	bad("subgroups", "[999]", "Invalid user group ID: 999")
}

// TestGroupUpdate: who may edit, {new, old} with old checked against the
// current value in either of its forms, and reactivation.
func TestGroupUpdate(t *testing.T) {
	e := chatNew(t)
	path := "/user_groups/12" // leads: managed by the owner and administrators
	e.chatOK(SeedAdminID, http.MethodPatch, path, chatForm("description", "Leads"))
	e.chatFail(SeedMemberID, http.MethodPatch, path, chatForm("description", "x"), 400, "BAD_REQUEST", "Insufficient permission")
	e.chatFail(SeedOwnerID, http.MethodPatch, "/user_groups/5", chatForm("description", "x"), 400, "BAD_REQUEST", "Insufficient permission")
	e.chatFail(SeedOwnerID, http.MethodPatch, path, nil, 400, "BAD_REQUEST", "No new data supplied")
	e.chatFail(SeedOwnerID, http.MethodPatch, path, chatForm("name", "backend"), 400, "BAD_REQUEST", "User group 'backend' already exists.")
	// The current value is {[1], [2]}; an old value must match it as a set.
	e.chatFail(SeedOwnerID, http.MethodPatch, path, chatForm("can_manage_group", `{"new": 2, "old": 2}`),
		400, "EXPECTATION_MISMATCH", "'old' value does not match the expected value.")
	e.chatOK(SeedOwnerID, http.MethodPatch, path, chatForm("can_manage_group",
		`{"new": {"direct_members": [], "direct_subgroups": [2]}, "old": {"direct_members": [1], "direct_subgroups": [2]}}`))
	g := chatGroups(e.chatOK(SeedOwnerID, http.MethodGet, "/user_groups", nil))[GroupLeads]
	if chatJSON(g["can_manage_group"]) != "2" || g["description"] != "Leads" {
		t.Errorf("leads after the updates: %v", g)
	}
	// A named group as old matches the canonical current value.
	e.chatOK(SeedOwnerID, http.MethodPatch, path, chatForm("can_manage_group", `{"new": 1, "old": {"direct_members": [], "direct_subgroups": [2]}}`))
	// Reactivation.
	e.chatOK(SeedOwnerID, http.MethodPatch, "/user_groups/11", chatForm("deactivated", "false"))
	if _, ok := chatGroups(e.chatOK(SeedOwnerID, http.MethodGet, "/user_groups", nil))[GroupRetired]; !ok {
		t.Error("the reactivated group is not listed")
	}
}

// TestGroupDeactivate: refused with each use named, as Zulip's objections do.
func TestGroupDeactivate(t *testing.T) {
	e := chatNew(t)
	// backend (9) is a subgroup of leads (12), and may subscribe to channel 8.
	body := e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/9/deactivate", nil, 400, "CANNOT_DEACTIVATE_GROUP_IN_USE", "Cannot deactivate user group in use.")
	if got := chatJSON(body["objections"]); got != `[{"supergroup_ids":[12],"type":"subgroup"},{"channel_id":8,"settings":["can_subscribe_group"],"type":"channel"}]` {
		t.Errorf("objections = %s", got)
	}
	e.chatOK(SeedOwnerID, http.MethodPost, "/user_groups/12/members", chatForm("delete_subgroups", "[9]"))
	e.srv.Do(func(r *Realm) {
		r.Channels[8].GroupSettings["can_subscribe_group"] = GroupSetting{GroupID: GroupNobody}
	})
	e.chatOK(SeedOwnerID, http.MethodPatch, "/user_groups/10", chatForm("can_mention_group", `{"new": {"direct_members": [1], "direct_subgroups": [9]}}`))
	body = e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/9/deactivate", nil, 400, "CANNOT_DEACTIVATE_GROUP_IN_USE", "Cannot deactivate user group in use.")
	if got := chatJSON(body["objections"]); got != `[{"group_id":10,"settings":["can_mention_group"],"type":"user_group"}]` {
		t.Errorf("objections = %s", got)
	}
	e.chatOK(SeedOwnerID, http.MethodPatch, "/user_groups/10", chatForm("can_mention_group", `{"new": 6}`))
	e.chatOK(SeedOwnerID, http.MethodPost, "/user_groups/9/deactivate", nil)
	e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/9/deactivate", nil, 400, "BAD_REQUEST", "User group is deactivated.")
}

// TestGroupMembers: self-join needs can_join_group, others need
// can_add_members_group; subgroups refuse cycles; nothing changes on a refusal.
func TestGroupMembers(t *testing.T) {
	e := chatNew(t)
	e.chatFail(SeedMember2ID, http.MethodPost, "/user_groups/9/members", chatForm("add", "[6]"), 400, "BAD_REQUEST", "Insufficient permission")
	e.chatOK(SeedOwnerID, http.MethodPatch, "/user_groups/9", chatForm("can_join_group", `{"new": 5}`))
	e.chatOK(SeedMember2ID, http.MethodPost, "/user_groups/9/members", chatForm("add", "[6]"))
	e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/9/members", chatForm("add", "[6]"), 400, "BAD_REQUEST", "User 6 is already a member of this group")
	e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/9/members", chatForm("delete", "[1]"), 400, "BAD_REQUEST", "There is no member '1' in this user group")
	e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/9/members", chatForm("add_subgroups", "[12]"), 400, "BAD_REQUEST",
		"User group 9 is already a subgroup of one of the passed subgroups.")
	// A refused part leaves the others undone.
	e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/9/members", chatForm("add", "[7]", "delete", "[1]"), 400, "BAD_REQUEST",
		"There is no member '1' in this user group")
	g := chatGroups(e.chatOK(SeedOwnerID, http.MethodGet, "/user_groups", nil))[GroupBackend]
	if got := chatJSON(g["members"]); got != "[5,6,11]" {
		t.Errorf("members = %s", got)
	}
}

// TestGroupEvents: each change reaches a queue as Zulip's user_group event.
func TestGroupEvents(t *testing.T) {
	e := chatNew(t)
	q := e.chatOK(SeedMemberID, http.MethodPost, "/register", chatForm("event_types", `["user_group"]`))["queue_id"].(string)
	e.chatOK(SeedOwnerID, http.MethodPatch, "/user_groups/9", chatForm("name", "b2", "can_mention_group", `{"new": 5}`))
	e.chatOK(SeedOwnerID, http.MethodPost, "/user_groups/9/members", chatForm("add", "[6]", "add_subgroups", "[10]"))
	e.chatOK(SeedOwnerID, http.MethodPost, "/user_groups/12/deactivate", nil)
	events := e.chatOK(SeedMemberID, http.MethodGet, "/events", chatForm("queue_id", q, "last_event_id", "-1", "dont_block", "true"))["events"]
	want := `[{"data":{"can_mention_group":5,"name":"b2"},"group_id":9,"id":0,"op":"update","type":"user_group"},` +
		`{"group_id":9,"id":1,"op":"add_members","type":"user_group","user_ids":[6]},` +
		`{"direct_subgroup_ids":[10],"group_id":9,"id":2,"op":"add_subgroups","type":"user_group"},` +
		`{"group_id":12,"id":3,"op":"remove","type":"user_group"}]`
	if got := chatJSON(events); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
}

// TestGroupUpdateIsOneTransaction: edit_user_group (zerver/views/user_groups.py)
// is @transaction.atomic(durable=True) and applies the name, the description,
// the reactivation and then each setting in turn; a setting refused after
// them rolls back what came before, events included.
func TestGroupUpdateIsOneTransaction(t *testing.T) {
	e := chatNew(t)
	q := e.chatOK(SeedMemberID, http.MethodPost, "/register", chatForm("event_types", `["user_group"]`))["queue_id"].(string)
	path := "/user_groups/9" // backend, managed by the administrators
	before := chatJSON(chatGroups(e.chatOK(SeedOwnerID, http.MethodGet, "/user_groups", chatForm("include_deactivated_groups", "true")))[GroupBackend])
	refused := []struct {
		name       string
		form       url.Values
		code, msg  string
		reactivate bool
	}{
		{"a name, then a setting Zulip refuses", chatForm("name", "backend-team", "description", "New",
			"can_manage_group", `{"new": 6}`), "BAD_REQUEST", "'can_manage_group' setting cannot be set to 'role:everyone' group.", false},
		{"a first setting, then a stale old value", chatForm("can_add_members_group", `{"new": 5}`,
			"can_join_group", `{"new": 5, "old": 2}`), "EXPECTATION_MISMATCH", "'old' value does not match the expected value.", false},
		{"a name, then a setting naming a deactivated user", chatForm("name", "b2",
			"can_remove_members_group", `{"new": {"direct_members": [1, 10], "direct_subgroups": []}}`), "BAD_REQUEST", "Invalid user ID: 10", false},
	}
	for _, tc := range refused {
		e.chatFail(SeedOwnerID, http.MethodPatch, path, tc.form, 400, tc.code, tc.msg)
		after := chatJSON(chatGroups(e.chatOK(SeedOwnerID, http.MethodGet, "/user_groups", chatForm("include_deactivated_groups", "true")))[GroupBackend])
		if after != before {
			t.Errorf("%s: the refused request changed the group\n got %s\nwant %s", tc.name, after, before)
		}
	}
	// A reactivation followed by a refused setting leaves the group deactivated.
	e.chatFail(SeedOwnerID, http.MethodPatch, "/user_groups/11", chatForm("deactivated", "false", "can_mention_group", `{"new": 7}`),
		400, "BAD_REQUEST", "'can_mention_group' setting cannot be set to 'role:internet' group.")
	if g := chatGroups(e.chatOK(SeedOwnerID, http.MethodGet, "/user_groups", chatForm("include_deactivated_groups", "true")))[GroupRetired]; g["deactivated"] != true {
		t.Errorf("retired-team reactivated by a refused request: %v", g)
	}
	events := e.chatOK(SeedMemberID, http.MethodGet, "/events", chatForm("queue_id", q, "last_event_id", "-1", "dont_block", "true"))["events"]
	if got := chatJSON(events); got != "[]" {
		t.Errorf("refused requests sent events: %s", got)
	}
	// The same request without the refused part succeeds.
	e.chatOK(SeedOwnerID, http.MethodPatch, path, chatForm("name", "backend-team", "description", "New", "can_manage_group", `{"new": 5}`))
	if g := chatGroups(e.chatOK(SeedOwnerID, http.MethodGet, "/user_groups", nil))[GroupBackend]; g["name"] != "backend-team" || chatJSON(g["can_manage_group"]) != "5" {
		t.Errorf("backend after the update: %v", g)
	}
}

// TestGroupSubgroupPermissions: add_subgroups_to_group_backend locks the
// supergroup with permission_setting="can_add_members_group" and
// remove_subgroups_from_group_backend with "can_manage_group"
// (zerver/views/user_groups.py; lock_subgroups_with_respect_to_supergroup
// and access_user_group_for_update in zerver/lib/user_groups.py), on both
// POST /user_groups/{id}/subgroups and the *_subgroups of POST
// /user_groups/{id}/members.
func TestGroupSubgroupPermissions(t *testing.T) {
	e := chatNew(t)
	// The member may add members to backend, and manages nothing.
	e.chatOK(SeedOwnerID, http.MethodPatch, "/user_groups/9", chatForm("can_add_members_group", `{"new": {"direct_members": [6], "direct_subgroups": []}}`))
	e.chatOK(SeedMember2ID, http.MethodPost, "/user_groups/9/subgroups", chatForm("add", "[10]"))
	e.chatOK(SeedMember2ID, http.MethodPost, "/user_groups/9/members", chatForm("add_subgroups", "[3]"))
	e.chatFail(SeedMember2ID, http.MethodPost, "/user_groups/9/subgroups", chatForm("delete", "[10]"), 400, "BAD_REQUEST", "Insufficient permission")
	e.chatFail(SeedMember2ID, http.MethodPost, "/user_groups/9/members", chatForm("delete_subgroups", "[3]"), 400, "BAD_REQUEST", "Insufficient permission")
	// Adding and removing in one request: the removal is refused, so the
	// addition is undone too (compose_views inside the view's transaction).
	e.chatFail(SeedMember2ID, http.MethodPost, "/user_groups/9/subgroups", chatForm("add", "[4]", "delete", "[10]"), 400, "BAD_REQUEST", "Insufficient permission")
	if got := chatJSON(chatGroups(e.chatOK(SeedOwnerID, http.MethodGet, "/user_groups", nil))[GroupBackend]["direct_subgroup_ids"]); got != "[3,10]" {
		t.Errorf("backend's subgroups = %s, want [3,10]", got)
	}
	// can_manage_group removes; can_manage_all_groups (owners by default) too.
	e.chatOK(SeedOwnerID, http.MethodPatch, "/user_groups/9", chatForm("can_manage_group", `{"new": {"direct_members": [6], "direct_subgroups": []}}`))
	e.chatOK(SeedMember2ID, http.MethodPost, "/user_groups/9/subgroups", chatForm("delete", "[10]"))
	e.chatOK(SeedOwner2ID, http.MethodPost, "/user_groups/9/members", chatForm("delete_subgroups", "[3]"))
	// A user in neither setting adds nothing.
	e.chatFail(SeedMember3ID, http.MethodPost, "/user_groups/9/subgroups", chatForm("add", "[10]"), 400, "BAD_REQUEST", "Insufficient permission")
}

// TestGroupMembershipParts: update_user_group_backend composes its parts
// (add, delete, add_subgroups, delete_subgroups) in that order, each applied
// before the next is checked, in one transaction; lock_subgroups_with_respect_to_supergroup
// checks the caller's access before the subgroups, every id before any
// deactivation, and add_subgroups_to_group_backend a direct subgroup before a
// cycle (zerver/views/user_groups.py, zerver/lib/user_groups.py).
func TestGroupMembershipParts(t *testing.T) {
	e := chatNew(t)
	path := "/user_groups/9/members"
	// Added by the first part, removed by the second: Zulip accepts it.
	e.chatOK(SeedOwnerID, http.MethodPost, path, chatForm("add", "[6]", "delete", "[6]"))
	e.chatOK(SeedOwnerID, http.MethodPost, path, chatForm("add_subgroups", "[10]", "delete_subgroups", "[10]"))
	g := chatGroups(e.chatOK(SeedOwnerID, http.MethodGet, "/user_groups", nil))[GroupBackend]
	if chatJSON(g["members"]) != "[5,11]" || chatJSON(g["direct_subgroup_ids"]) != "[]" {
		t.Errorf("backend after add-then-remove: %v", g)
	}
	// A refused later part undoes the earlier ones.
	e.chatFail(SeedOwnerID, http.MethodPost, path, chatForm("add", "[6]", "add_subgroups", "[999]"), 400, "BAD_REQUEST", "Invalid user group ID: 999")
	if got := chatJSON(chatGroups(e.chatOK(SeedOwnerID, http.MethodGet, "/user_groups", nil))[GroupBackend]["members"]); got != "[5,11]" {
		t.Errorf("backend's members after a refused request = %s", got)
	}
	// Every id is looked up before any deactivation is reported.
	e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/10/subgroups", chatForm("add", "[11, 999]"), 400, "BAD_REQUEST", "Invalid user group ID: 999")
	e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/10/subgroups", chatForm("add", "[11]"), 400, "BAD_REQUEST", "User group is deactivated.")
	// The caller's access comes before the subgroups.
	e.chatFail(SeedMemberID, http.MethodPost, "/user_groups/10/subgroups", chatForm("add", "[999]"), 400, "BAD_REQUEST", "Insufficient permission")
	// A direct subgroup already there is reported before a cycle.
	e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/12/subgroups", chatForm("add", "[9]"), 400, "BAD_REQUEST", "User group 9 is already a subgroup of this group.")
	e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/9/subgroups", chatForm("add", "[12]"), 400, "BAD_REQUEST", "User group 9 is already a subgroup of one of the passed subgroups.")
	e.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/9/subgroups", chatForm("add", "[9]"), 400, "BAD_REQUEST", "User group 9 is already a subgroup of one of the passed subgroups.")
}

// TestGroupMembershipFeatureLevels: before feature level 391 the members and
// subgroups of a deactivated group cannot change (access_user_group_for_update
// without allow_deactivated); before 311 POST /user_groups/{id}/members knows
// only add and delete, and says so when given neither.
func TestGroupMembershipFeatureLevels(t *testing.T) {
	old := chatNew(t, chatLevel(groupEditDeactivatedFL-1))
	old.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/11/members", chatForm("add", "[5]"), 400, "BAD_REQUEST", "User group is deactivated.")
	old.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/11/subgroups", chatForm("add", "[10]"), 400, "BAD_REQUEST", "User group is deactivated.")
	now := chatNew(t, chatLevel(groupEditDeactivatedFL))
	now.chatOK(SeedOwnerID, http.MethodPost, "/user_groups/11/members", chatForm("add", "[5]"))
	now.chatOK(SeedOwnerID, http.MethodPost, "/user_groups/11/subgroups", chatForm("add", "[10]"))
	older := chatNew(t, chatLevel(groupSubgroupsFL-1))
	older.chatFail(SeedOwnerID, http.MethodPost, "/user_groups/9/members", chatForm("add_subgroups", "[10]"), 400, "BAD_REQUEST",
		`Nothing to do. Specify at least one of "add" or "delete".`)
}
