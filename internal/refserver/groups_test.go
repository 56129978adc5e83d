package refserver

import (
	"fmt"
	"net/http"
	"net/url"
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
	}
}

// chatAddBot adds an active bot of the given type and role, owned by the
// member, as if created before the test (embedded bots cannot be created
// through POST /bots here, as on a production server, but may exist).
func (e *chatEnv) chatAddBot(botType, role int) int {
	e.t.Helper()
	var id int
	e.srv.Do(func(r *Realm) {
		id = r.newID("user")
		u := &User{ID: id, Email: fmt.Sprintf("bot%d-bot@example.com", id), FullName: fmt.Sprintf("Bot %d", id),
			Role: role, IsActive: true, IsBot: true, BotType: botType, BotOwnerID: SeedMemberID,
			APIKey: fmt.Sprintf("%032d", id), ProfileData: map[int]string{}}
		r.Users[id] = u
		r.setRoleGroup(u)
		if r.Bots == nil {
			r.Bots = map[int]*BotSettings{}
		}
		r.Bots[id] = &BotSettings{}
	})
	return id
}

// groupEndpointCall is one request to each of the user group endpoints, on
// group gid (the group a step creates is ${g}: the created id).
type groupEndpointCall struct {
	name, method, path string
	form               url.Values
}

// groupEndpointCalls are requests to the eight endpoints that Zulip's
// decorators guard (require_member_or_admin, later require_non_guest_user)
// and to the deactivation, which has no decorator, in an order that lets a
// bot allowed everywhere create a group, use every endpoint on it and
// deactivate it.
func groupEndpointCalls(gid int) []groupEndpointCall {
	g := fmt.Sprintf("/user_groups/%d", gid)
	return []groupEndpointCall{
		{"list", http.MethodGet, "/user_groups", nil},
		{"create", http.MethodPost, "/user_groups/create", chatForm("name", fmt.Sprintf("made-%d", gid), "description", "", "members", "[]")},
		{"update", http.MethodPatch, g, chatForm("description", "Changed")},
		{"members", http.MethodPost, g + "/members", chatForm("add", "[5]", "add_subgroups", "[9]")},
		{"subgroups", http.MethodPost, g + "/subgroups", chatForm("add", "[10]")},
		{"get members", http.MethodGet, g + "/members", nil},
		{"get membership", http.MethodGet, g + "/members/5", nil},
		{"get subgroups", http.MethodGet, g + "/subgroups", nil},
		{"remove subgroups", http.MethodPost, g + "/subgroups", chatForm("delete", "[9, 10]")},
		{"deactivate", http.MethodPost, g + "/deactivate", nil},
	}
}

// TestGroupEndpointsBotsByFeatureLevel pins which callers Zulip lets through
// the user group endpoints, per bot type and feature level:
//   - an incoming webhook bot is refused by authentication on every one, at
//     every level (zerver/decorator.py validate_api_key: 401 "This API is not
//     available to incoming webhook bots.");
//   - below feature level 496, require_member_or_admin (zerver/decorator.py;
//     on get_user_groups, edit_user_group, update_user_group_backend,
//     update_subgroups_of_user_group, get_is_user_group_member,
//     get_user_group_members, get_subgroups_of_user_group, and inside
//     require_user_group_create_permission for add_user_group) refuses
//     generic, outgoing webhook and embedded bots with "This endpoint does not
//     accept bot requests.";
//   - from feature level 496 (zulip/zulip#39116, "Prior to Zulip 12.0
//     (feature level 496), bot users were not permitted to call this
//     endpoint.") require_non_guest_user lets them through, and a bot manages
//     the group it created like any member;
//   - deactivate_user_group has no decorator: a bot that manages the group
//     deactivates it at every level;
//   - guests are refused on the eight at both levels ("Not allowed for guest
//     users"), and reach the access check of the deactivation.
func TestGroupEndpointsBotsByFeatureLevel(t *testing.T) {
	botTypes := []struct {
		name string
		typ  int
	}{{"generic", BotGeneric}, {"outgoing webhook", BotOutgoing}, {"embedded", BotEmbedded}}
	for _, fl := range []int{groupBotsFL - 1, groupBotsFL} {
		for _, bt := range botTypes {
			t.Run(fmt.Sprintf("%s bot at %d", bt.name, fl), func(t *testing.T) {
				e := chatNew(t, chatLevel(fl))
				bot := e.chatAddBot(bt.typ, RoleMember)
				if fl < groupBotsFL {
					// A group the bot manages, made by an owner.
					managed := int(e.chatOK(SeedOwnerID, http.MethodPost, "/user_groups/create", chatForm("name", "bot-managed",
						"description", "", "members", "[]", "can_manage_group", fmt.Sprintf(`{"direct_members": [%d], "direct_subgroups": []}`, bot)))["group_id"].(float64))
					for _, call := range groupEndpointCalls(managed) {
						if call.name == "deactivate" {
							e.chatOK(bot, call.method, call.path, call.form)
							continue
						}
						e.chatFail(bot, call.method, call.path, call.form, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
					}
					return
				}
				created := int(e.chatOK(bot, http.MethodPost, "/user_groups/create", chatForm("name", "bots-own", "description", "", "members", "[]"))["group_id"].(float64))
				for _, call := range groupEndpointCalls(created) {
					e.chatOK(bot, call.method, call.path, call.form)
				}
				g := chatGroups(e.chatOK(bot, http.MethodGet, "/user_groups", chatForm("include_deactivated_groups", "true")))[created]
				if g["description"] != "Changed" || chatJSON(g["members"]) != "[5]" || chatJSON(g["direct_subgroup_ids"]) != "[]" || g["deactivated"] != true {
					t.Errorf("the bot's group after its calls: %v", g)
				}
				// Let through is not permitted: a group the bot does not manage.
				e.chatFail(bot, http.MethodPatch, "/user_groups/9", chatForm("description", "x"), 400, "BAD_REQUEST", "Insufficient permission")
			})
		}
		t.Run(fmt.Sprintf("incoming webhook bot at %d", fl), func(t *testing.T) {
			e := chatNew(t, chatLevel(fl))
			for _, call := range groupEndpointCalls(GroupBackend) {
				e.chatFail(SeedIncomingBotID, call.method, call.path, call.form, 401, "UNAUTHORIZED", "This API is not available to incoming webhook bots.")
			}
		})
		t.Run(fmt.Sprintf("guest at %d", fl), func(t *testing.T) {
			e := chatNew(t, chatLevel(fl))
			guestBot := e.chatAddBot(BotGeneric, RoleGuest)
			for _, caller := range []int{SeedGuestID, guestBot} {
				for _, call := range groupEndpointCalls(GroupBackend) {
					if call.name == "deactivate" {
						e.chatFail(caller, call.method, call.path, call.form, 400, "BAD_REQUEST", "Insufficient permission")
						continue
					}
					e.chatFail(caller, call.method, call.path, call.form, 400, "BAD_REQUEST", "Not allowed for guest users")
				}
			}
		})
	}
}

// TestGroupMembershipOfBots: GET /user_groups/{id}/members/{user_id} answers
// for a bot from feature level 458; before it, access_user_by_id without
// allow_bots says "No such user" (zerver/views/user_groups.py
// get_is_user_group_member, zerver/lib/users.py access_user_common).
func TestGroupMembershipOfBots(t *testing.T) {
	for _, fl := range []int{groupReadBotTargetFL - 1, groupReadBotTargetFL} {
		e := chatNew(t, chatLevel(fl))
		path := fmt.Sprintf("/user_groups/%d/members/%d", GroupFullMembers, SeedBotID)
		if fl < groupReadBotTargetFL {
			e.chatFail(SeedMemberID, http.MethodGet, path, nil, 400, "BAD_REQUEST", "No such user")
			continue
		}
		if got := e.chatOK(SeedMemberID, http.MethodGet, path, nil)["is_user_group_member"]; got != true {
			t.Errorf("FL%d: the bot's membership of role:fullmembers = %v", fl, got)
		}
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
