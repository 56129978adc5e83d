package refserver

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// dcgRegister is register's realm_default_stream_groups for user, as JSON.
func dcgRegister(e *chatEnv, user int) string {
	e.t.Helper()
	body := e.chatOK(user, http.MethodPost, "/register", chatForm("fetch_event_types", `["default_stream_groups"]`))
	return chatJSON(body["realm_default_stream_groups"])
}

// dcgEvents lists the default_stream_groups events a user's queue got, each
// as the JSON of its groups.
func dcgEvents(next func() []map[string]any) []string {
	var out []string
	for _, ev := range next() {
		out = append(out, chatJSON(ev["default_stream_groups"]))
	}
	return out
}

const dcgSeeded = `[{"description":"Channels for engineers.","id":1,"name":"Engineering","streams":[3,7]}]`

// Register's realm_default_stream_groups is
// default_stream_groups_to_dicts_sorted (zerver/actions/default_streams.py):
// groups by name, channels by name (DefaultStreamGroup.to_dict), as ids from
// feature level 330 and as channel objects before; guests get none
// (zerver/lib/events.py fetch_initial_state_data).
func TestDefaultChannelGroups_register(t *testing.T) {
	e := chatNew(t)
	if got := dcgRegister(e, SeedMemberID); got != dcgSeeded {
		t.Errorf("member: %s", got)
	}
	if got := dcgRegister(e, SeedGuestID); got != "[]" {
		t.Errorf("guest: %s", got)
	}
	old := chatNew(t, chatLevel(defaultChannelIDsFL-1))
	body := old.chatOK(SeedMemberID, http.MethodPost, "/register", chatForm("fetch_event_types", `["default_stream_groups"]`))
	groups := body["realm_default_stream_groups"].([]any)
	streams := groups[0].(map[string]any)["streams"].([]any)
	if len(streams) != 2 || streams[0].(map[string]any)["name"] != "design" || streams[1].(map[string]any)["name"] != "random" {
		t.Errorf("before feature level 330: %v", groups)
	}
	// An archived channel is left out (Zulip removes it from its groups when it
	// is archived: do_deactivate_stream).
	e.srv.Do(func(r *Realm) { r.Channels[SeedChannelRandom].IsArchived = true })
	if got := dcgRegister(e, SeedMemberID); got != `[{"description":"Channels for engineers.","id":1,"name":"Engineering","streams":[3]}]` {
		t.Errorf("after archiving random: %s", got)
	}
}

// create_default_stream_group (zerver/views/streams.py): administrators only
// (check_if_user_can_manage_default_streams), the parameters, each channel
// by access_stream_by_name (content access, active), then
// do_create_default_stream_group (zerver/actions/default_streams.py): no
// default channel, then check_default_stream_group_name, then the unique
// name; notify_default_stream_groups sends the list to everyone but guests.
func TestDefaultChannelGroups_create(t *testing.T) {
	e := chatNew(t)
	memberEvents := msgEvents(e, SeedMemberID, `["default_stream_groups"]`)
	guestEvents := msgEvents(e, SeedGuestID, `["default_stream_groups"]`)
	type request struct {
		user int
		form url.Values
	}
	create := func(user int, name, description, names string) request {
		return request{user, chatForm("group_name", name, "description", description, "stream_names", names)}
	}
	fail := func(c request, status int, code, msg string) {
		t.Helper()
		e.chatFail(c.user, http.MethodPost, "/default_stream_groups/create", c.form, status, code, msg)
	}
	fail(create(SeedModeratorID, "x", "", `[]`), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	e.chatFail(SeedAdminID, http.MethodPost, "/default_stream_groups/create", chatForm("description", "", "stream_names", "[]"),
		400, "REQUEST_VARIABLE_MISSING", "Missing 'group_name' argument")
	fail(create(SeedAdminID, "x", "", `"random"`), 400, "BAD_REQUEST", "stream_names is not a list")
	fail(create(SeedAdminID, "x", "", `["nope"]`), 400, "BAD_REQUEST", "Invalid channel name 'nope'")
	// Content access: an administrator needs a subscription or a group setting
	// that grants it (can_add_subscribers_group is administrators' here).
	e.srv.Do(func(r *Realm) {
		r.Channels[SeedChannelDesign].GroupSettings["can_add_subscribers_group"] = GroupSetting{GroupID: GroupNobody}
	})
	fail(create(SeedAdmin2ID, "x", "", `["design"]`), 400, "BAD_REQUEST", "Invalid channel name 'design'")
	fail(create(SeedAdminID, "x", "", `["old-projects"]`), 400, "BAD_REQUEST", "Invalid channel name 'old-projects'")
	// The channels are checked before the name.
	fail(create(SeedAdminID, " ", "", `["random","general"]`), 400, "BAD_REQUEST", "'general' is a default channel and cannot be added to ' '")
	fail(create(SeedAdminID, " ", "", `[]`), 400, "BAD_REQUEST", "Invalid default channel group name ' '")
	fail(create(SeedAdminID, strings.Repeat("é", 61), "", `[]`), 400, "BAD_REQUEST", "Default channel group name too long (limit: 60 characters)")
	fail(create(SeedAdminID, "a\x00b", "", `[]`), 400, "BAD_REQUEST", "Default channel group name 'a\x00b' contains NULL (0x00) characters.")
	fail(create(SeedAdminID, "Engineering", "Channels for engineers.", `[]`), 400, "BAD_REQUEST", "Default channel group 'Engineering' already exists")
	// get_or_create(name, realm, description) with another description meets
	// the unique (realm, name) key: Zulip's unhandled IntegrityError.
	fail(create(SeedAdminID, "Engineering", "Other", `[]`), 500, "INTERNAL_SERVER_ERROR", "Internal server error")
	fail(create(SeedAdminID, "Long", strings.Repeat("d", 1025), `[]`), 500, "INTERNAL_SERVER_ERROR", "Internal server error")
	if got := memberEvents(); len(got) != 0 {
		t.Fatalf("events after refusals: %v", got)
	}
	if got := dcgRegister(e, SeedMemberID); got != dcgSeeded {
		t.Fatalf("after refusals: %s", got)
	}

	// Names are found case-insensitively; a name repeated is one channel.
	e.chatOK(SeedAdminID, http.MethodPost, "/default_stream_groups/create",
		chatForm("group_name", "Design team", "description", "For designers.", "stream_names", `["RANDOM","design","random"]`))
	want := `[{"description":"For designers.","id":2,"name":"Design team","streams":[3,7]},` + dcgSeeded[1:]
	if got := dcgRegister(e, SeedMemberID); got != want {
		t.Errorf("after creating: %s", got)
	}
	if got := dcgEvents(memberEvents); len(got) != 1 || got[0] != want {
		t.Errorf("member's events: %v", got)
	}
	if got := guestEvents(); len(got) != 0 {
		t.Errorf("guest's events: %v", got)
	}
	// A bot administrator may (the decorator asks for the role alone).
	bot := e.chatAddBot(BotGeneric, RoleAdministrator)
	e.chatOK(bot, http.MethodPost, "/default_stream_groups/create", chatForm("group_name", "Bots", "description", "", "stream_names", `[]`))
}

// update_default_stream_group_info: an empty name and description are both
// "absent" for its first check; then access_default_stream_group_by_id; then
// do_change_default_stream_group_name (same name, taken name; no
// check_default_stream_group_name, so the database's 60 characters are the
// limit) and do_change_default_stream_group_description, each with its own
// event and no transaction around the two.
func TestDefaultChannelGroups_updateInfo(t *testing.T) {
	e := chatNew(t)
	e.chatOK(SeedAdminID, http.MethodPost, "/default_stream_groups/create", chatForm("group_name", "Ops", "description", "", "stream_names", `[]`))
	adminEvents := msgEvents(e, SeedAdmin2ID, `["default_stream_groups"]`)
	path := "/default_stream_groups/1"
	fail := func(user int, p string, form url.Values, status int, code, msg string) {
		t.Helper()
		e.chatFail(user, http.MethodPatch, p, form, status, code, msg)
	}
	fail(SeedMemberID, path, chatForm("new_description", "x"), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	fail(SeedAdminID, path, nil, 400, "BAD_REQUEST", `You must pass "new_description" or "new_group_name".`)
	fail(SeedAdminID, path, chatForm("new_group_name", "", "new_description", ""), 400, "BAD_REQUEST", `You must pass "new_description" or "new_group_name".`)
	fail(SeedAdminID, "/default_stream_groups/99", chatForm("new_description", "x"), 400, "BAD_REQUEST", "Default channel group with id '99' does not exist.")
	fail(SeedAdminID, path, chatForm("new_group_name", "Engineering"), 400, "BAD_REQUEST", "This default channel group is already named 'Engineering'")
	fail(SeedAdminID, path, chatForm("new_group_name", "Ops"), 400, "BAD_REQUEST", "Default channel group 'Ops' already exists")
	fail(SeedAdminID, path, chatForm("new_group_name", strings.Repeat("n", 61)), 500, "INTERNAL_SERVER_ERROR", "Internal server error")
	if got := adminEvents(); len(got) != 0 {
		t.Fatalf("events after refusals: %v", got)
	}

	e.chatOK(SeedAdminID, http.MethodPatch, path, chatForm("new_group_name", "Eng", "new_description", "Renamed."))
	if got := dcgEvents(adminEvents); len(got) != 2 ||
		got[0] != `[{"description":"Channels for engineers.","id":1,"name":"Eng","streams":[3,7]},{"description":"","id":2,"name":"Ops","streams":[]}]` ||
		got[1] != `[{"description":"Renamed.","id":1,"name":"Eng","streams":[3,7]},{"description":"","id":2,"name":"Ops","streams":[]}]` {
		t.Errorf("events of a rename and a new description: %v", got)
	}
	// The rename stays when the description then fails.
	fail(SeedAdminID, path, chatForm("new_group_name", "Engineering", "new_description", strings.Repeat("d", 1025)), 500, "INTERNAL_SERVER_ERROR", "Internal server error")
	if got := dcgRegister(e, SeedAdminID); !strings.Contains(got, `"description":"Renamed.","id":1,"name":"Engineering"`) {
		t.Errorf("after a half-failed change: %s", got)
	}
	// With a description, an empty name is a name.
	e.chatOK(SeedAdminID, http.MethodPatch, path, chatForm("new_group_name", "", "new_description", "Unnamed."))
	if got := dcgRegister(e, SeedAdminID); !strings.HasPrefix(got, `[{"description":"Unnamed.","id":1,"name":"","streams":[3,7]}`) {
		t.Errorf("an empty name: %s", got)
	}
	// An id that is not digits matches no route (<int:group_id>).
	admin, _ := e.srv.User(SeedAdminID)
	req, _ := http.NewRequest(http.MethodPatch, e.ts.URL+"/api/v1/default_stream_groups/x", strings.NewReader("new_description=x"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(admin.Email, admin.APIKey)
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("non-numeric id: %d", resp.StatusCode)
	}
}

// update_default_stream_group_streams: the parameters, the group, the
// channels, then op. Adding refuses a default channel or one present,
// channel by channel, keeping those added before (group.streams.add, no
// event); removing checks every channel before removing any.
func TestDefaultChannelGroups_channels(t *testing.T) {
	e := chatNew(t)
	events := msgEvents(e, SeedMemberID, `["default_stream_groups"]`)
	path := "/default_stream_groups/1/streams"
	patch := func(op, names string) url.Values { return chatForm("op", op, "stream_names", names) }
	fail := func(user int, p string, form url.Values, status int, code, msg string) {
		t.Helper()
		e.chatFail(user, http.MethodPatch, p, form, status, code, msg)
	}
	fail(SeedMemberID, path, patch("add", `[]`), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	fail(SeedAdminID, path, chatForm("stream_names", `[]`), 400, "REQUEST_VARIABLE_MISSING", "Missing 'op' argument")
	fail(SeedAdminID, "/default_stream_groups/9/streams", patch("swap", `["nope"]`), 400, "BAD_REQUEST", "Default channel group with id '9' does not exist.")
	fail(SeedAdminID, path, patch("swap", `["nope"]`), 400, "BAD_REQUEST", "Invalid channel name 'nope'")
	fail(SeedAdminID, path, patch("swap", `["random"]`), 400, "BAD_REQUEST", `Invalid value for "op". Specify one of "add" or "remove".`)
	fail(SeedAdminID, path, patch("add", `["announce"]`), 400, "BAD_REQUEST", "'announce' is a default channel and cannot be added to 'Engineering'")
	fail(SeedAdminID, path, patch("add", `["leadership","Random"]`), 400, "BAD_REQUEST",
		"Channel 'random' is already present in default channel group 'Engineering'")
	if got := events(); len(got) != 0 {
		t.Fatalf("events after refusals: %v", got)
	}
	want := `[{"description":"Channels for engineers.","id":1,"name":"Engineering","streams":[3,4,7]}]`
	if got := dcgRegister(e, SeedMemberID); got != want {
		t.Errorf("leadership, added before the refusal, stays: %s", got)
	}
	fail(SeedAdminID, path, patch("remove", `["design","general"]`), 400, "BAD_REQUEST",
		"Channel 'general' is not present in default channel group 'Engineering'")
	if got := dcgRegister(e, SeedMemberID); got != want {
		t.Errorf("a refused removal removes nothing: %s", got)
	}
	e.chatOK(SeedAdminID, http.MethodPatch, path, patch("remove", `["design","leadership"]`))
	e.chatOK(SeedAdminID, http.MethodPatch, path, patch("add", `["moderation-requests"]`))
	if got := dcgEvents(events); len(got) != 2 || got[1] != `[{"description":"Channels for engineers.","id":1,"name":"Engineering","streams":[6,7]}]` {
		t.Errorf("events: %v", got)
	}
}

// Archiving a channel takes it out of every default channel group, with the
// event (do_deactivate_stream, zerver/actions/streams.py).
func TestDefaultChannelGroups_archivedChannelLeaves(t *testing.T) {
	e := chatNew(t)
	events := msgEvents(e, SeedMemberID, `["default_stream_groups"]`)
	e.chatOK(SeedAdminID, http.MethodDelete, "/streams/7", nil)
	want := `[{"description":"Channels for engineers.","id":1,"name":"Engineering","streams":[3]}]`
	if got := dcgRegister(e, SeedMemberID); got != want {
		t.Errorf("after archiving random the groups are %s, want %s", got, want)
	}
	if got := dcgEvents(events); len(got) != 1 || got[0] != want {
		t.Errorf("events: %v", got)
	}
	e.srv.Do(func(r *Realm) {
		if ids := r.DefaultChannelGroups[0].ChannelIDs; slices.Contains(ids, 7) {
			t.Errorf("the group still holds the archived channel: %v", ids)
		}
	})
}

// remove_default_stream_group: administrators, the group, then
// do_remove_default_stream_group and its event.
func TestDefaultChannelGroups_remove(t *testing.T) {
	e := chatNew(t)
	events := msgEvents(e, SeedOwnerID, `["default_stream_groups"]`)
	e.chatFail(SeedMemberID, http.MethodDelete, "/default_stream_groups/1", nil, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	e.chatOK(SeedAdminID, http.MethodDelete, "/default_stream_groups/1", nil)
	e.chatFail(SeedAdminID, http.MethodDelete, "/default_stream_groups/1", nil, 400, "BAD_REQUEST", "Default channel group with id '1' does not exist.")
	if got := dcgEvents(events); len(got) != 1 || got[0] != "[]" {
		t.Errorf("events: %v", got)
	}
	if got := dcgRegister(e, SeedOwnerID); got != "[]" {
		t.Errorf("after removing: %s", got)
	}
}
