package refserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// chatChannel finds a channel in GET /streams?include_all=true&exclude_archived=false.
func (e *chatEnv) chatChannel(id int) map[string]any {
	e.t.Helper()
	for _, c := range e.chatOK(SeedOwnerID, http.MethodGet, "/streams", chatForm("include_all", "true", "exclude_archived", "false"))["streams"].([]any) {
		if m := c.(map[string]any); int(m["stream_id"].(float64)) == id {
			return m
		}
	}
	e.t.Fatalf("channel %d not listed", id)
	return nil
}

// TestChannelCreate: defaults (the creator administers the channel), the
// privacy rules, the creation permissions and the name rule (archived
// channels keep theirs, case-insensitively).
func TestChannelCreate(t *testing.T) {
	e := chatNew(t)
	id := int(e.chatOK(SeedMemberID, http.MethodPost, "/channels/create", chatForm("name", " lunch ", "subscribers", "[5, 11]", "description", "a\nb"))["id"].(float64))
	ch := e.chatChannel(id)
	for key, want := range map[string]string{
		"name": `"lunch"`, "description": `"a b"`, "invite_only": "false", "history_public_to_subscribers": "true",
		"creator_id": "5", "subscriber_count": "2", "can_administer_channel_group": `{"direct_members":[5],"direct_subgroups":[]}`,
		"can_send_message_group": "6", "can_remove_subscribers_group": "2", "message_retention_days": "null",
	} {
		if got := chatJSON(ch[key]); got != want {
			t.Errorf("%s = %s, want %s", key, got, want)
		}
	}
	form := func(kv ...string) map[string][]string {
		return chatForm(append([]string{"subscribers", "[]"}, kv...)...)
	}
	e.chatFail(SeedOwnerID, http.MethodPost, "/channels/create", form("name", "Old-Projects"), 409, "CHANNEL_ALREADY_EXISTS", "Channel 'Old-Projects' already exists")
	e.chatFail(SeedOwnerID, http.MethodPost, "/channels/create", form("name", "x", "is_web_public", "true", "invite_only", "true"), 400, "BAD_REQUEST", "Invalid parameters")
	e.chatFail(SeedOwnerID, http.MethodPost, "/channels/create", form("name", "x", "invite_only", "true", "is_default_stream", "true"), 400, "BAD_REQUEST", "A default channel cannot be private.")
	e.chatFail(SeedAdminID, http.MethodPost, "/channels/create", form("name", "x", "is_web_public", "true"), 400, "BAD_REQUEST", "Web-public channels are not enabled.")
	e.chatFail(SeedAdminID, http.MethodPost, "/channels/create", form("name", "x", "message_retention_days", "0"), 400, "BAD_REQUEST", "Bad value for 'message_retention_days': 0")
	e.chatFail(SeedGuestID, http.MethodPost, "/channels/create", form("name", "x"), 400, "BAD_REQUEST", "Not allowed for guest users")
	e.chatFail(SeedOwnerID, http.MethodPost, "/channels/create", form("name", "x", "can_subscribe_group", "6"), 400, "BAD_REQUEST",
		"'can_subscribe_group' setting cannot be set to 'role:everyone' group.")
	e.chatFail(SeedMemberID, http.MethodPost, "/channels/create", form("name", "x", "can_delete_any_message_group", "2"), 400, "BAD_REQUEST", "Insufficient permission")
	e.chatOK(SeedOwnerID, http.MethodPost, "/channels/create", form("name", "forever", "message_retention_days", `"unlimited"`))
}

// TestChannelUpdate: who may administer, {new, old}, renames, and the
// archive/unarchive cycle that keeps name and subscribers.
func TestChannelUpdate(t *testing.T) {
	e := chatNew(t)
	e.chatFail(SeedMemberID, http.MethodPatch, "/streams/7", chatForm("description", "x"), 400, "BAD_REQUEST", "You do not have permission to administer this channel.")
	e.chatOK(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("new_name", "Off-topic", "description", "Anything"))
	e.chatFail(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("new_name", "Off-topic"), 400, "BAD_REQUEST", "Channel already has that name.")
	e.chatOK(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("new_name", "off-topic")) // only the case
	e.chatFail(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("new_name", "GENERAL"), 409, "CHANNEL_ALREADY_EXISTS", "Channel 'GENERAL' already exists")
	e.chatFail(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("can_send_message_group", `{"new": 5, "old": 2}`),
		400, "EXPECTATION_MISMATCH", "'old' value does not match the expected value.")
	e.chatOK(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("can_send_message_group", `{"new": {"direct_members": [], "direct_subgroups": [5]}, "old": 6}`))
	e.chatOK(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("is_private", "true"))
	ch := e.chatChannel(7)
	if ch["name"] != "off-topic" || chatJSON(ch["can_send_message_group"]) != "5" || ch["invite_only"] != true || ch["history_public_to_subscribers"] != false {
		t.Errorf("after the updates: %v", ch)
	}
	subscribers := ch["subscriber_count"]
	e.chatOK(SeedAdminID, http.MethodDelete, "/streams/7", nil)
	e.chatFail(SeedAdminID, http.MethodPost, "/channels/create", chatForm("name", "OFF-TOPIC", "subscribers", "[]"), 409, "CHANNEL_ALREADY_EXISTS", "Channel 'OFF-TOPIC' already exists")
	e.chatOK(SeedOwnerID, http.MethodPatch, "/streams/7", chatForm("is_archived", "false"))
	if ch := e.chatChannel(7); ch["is_archived"] != false || ch["subscriber_count"] != subscribers {
		t.Errorf("after archiving and unarchiving: %v", ch)
	}
}

// TestChannelEvents: a created channel, each changed property, an archive.
func TestChannelEvents(t *testing.T) {
	e := chatNew(t)
	q := e.chatOK(SeedAdminID, http.MethodPost, "/register", chatForm("event_types", `["stream"]`))["queue_id"].(string)
	e.chatOK(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("description", "d", "can_send_message_group", `{"new": 5}`))
	e.chatOK(SeedAdminID, http.MethodDelete, "/streams/7", nil)
	events := e.chatOK(SeedAdminID, http.MethodGet, "/events", chatForm("queue_id", q, "last_event_id", "-1", "dont_block", "true"))["events"]
	want := `[{"id":0,"name":"random","op":"update","property":"can_send_message_group","stream_id":7,"type":"stream","value":5},` +
		`{"id":1,"name":"random","op":"update","property":"description","rendered_description":"<p>d</p>","stream_id":7,"type":"stream","value":"d"},` +
		`{"id":2,"op":"delete","stream_ids":[7],"streams":[{"stream_id":7}],"type":"stream"}]`
	if got := chatJSON(events); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
}

// TestChannelArchiveEvents: a queue with the archived_channels capability
// hears of archiving and unarchiving as an is_archived update; others as the
// channel's delete and create.
func TestChannelArchiveEvents(t *testing.T) {
	e := chatNew(t)
	capable := e.chatOK(SeedAdminID, http.MethodPost, "/register", chatForm("event_types", `["stream"]`,
		"client_capabilities", `{"archived_channels": true}`))["queue_id"].(string)
	plain := e.chatOK(SeedAdminID, http.MethodPost, "/register", chatForm("event_types", `["stream"]`))["queue_id"].(string)
	e.chatOK(SeedAdminID, http.MethodDelete, "/streams/7", nil)
	e.chatOK(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("is_archived", "false"))
	events := func(q string) []any {
		return e.chatOK(SeedAdminID, http.MethodGet, "/events", chatForm("queue_id", q, "last_event_id", "-1", "dont_block", "true"))["events"].([]any)
	}
	want := `[{"id":0,"name":"random","op":"update","property":"is_archived","stream_id":7,"type":"stream","value":true},` +
		`{"id":1,"name":"random","op":"update","property":"is_archived","stream_id":7,"type":"stream","value":false}]`
	if got := chatJSON(events(capable)); got != want {
		t.Errorf("capable queue\n got %s\nwant %s", got, want)
	}
	var ops []string
	for _, ev := range events(plain) {
		ops = append(ops, ev.(map[string]any)["op"].(string))
	}
	if chatJSON(ops) != `["delete","create"]` {
		t.Errorf("plain queue: %v", ops)
	}
}

// serverSettings is GET /server_settings, unauthenticated.
func serverSettings(e *chatEnv) map[string]any {
	e.t.Helper()
	resp, err := http.Get(e.ts.URL + "/api/v1/server_settings") //nolint:noctx // a test against a local server
	if err != nil {
		e.t.Fatalf("GET /server_settings: %v", err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		e.t.Fatalf("GET /server_settings: %v", err)
	}
	return out
}

// webPublicOn turns web-public channels on: the WEB_PUBLIC_STREAMS_ENABLED
// server setting and, when spectators, the organization's
// enable_spectator_access.
func webPublicOn(e *chatEnv, spectators bool) {
	e.srv.opts.WebPublicStreamsEnabled = true
	e.srv.Do(func(r *Realm) { r.SetSetting("enable_spectator_access", spectators) })
}

// TestChannelWebPublic_enabled pins check_channel_creation_permissions and
// update_stream_backend (zerver/lib/streams.py, zerver/views/streams.py) with
// Realm.web_public_streams_enabled (zerver/models/realms.py): without the
// WEB_PUBLIC_STREAMS_ENABLED server setting (off by default), the
// organization's enable_spectator_access, or on the limited plan, creating or
// making a channel web-public is "Web-public channels are not enabled.",
// checked after the public/private creation permission and before
// can_create_web_public_channel_group, so a member is told that rather than
// "Insufficient permission".
func TestChannelWebPublic_enabled(t *testing.T) {
	e := chatNew(t)
	create := func(user int, name string) (int, map[string]any) {
		return e.chatDo(user, http.MethodPost, "/channels/create", chatForm("name", name, "subscribers", "[]", "is_web_public", "true"))
	}
	notEnabled := func(when string) {
		t.Helper()
		for _, user := range []int{SeedOwnerID, SeedMemberID} {
			if status, body := create(user, "web"); status != 400 || body["msg"] != "Web-public channels are not enabled." {
				t.Errorf("%s: create as %d: %d %v", when, user, status, body)
			}
		}
		e.chatFail(SeedOwnerID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "web"}]`, "is_web_public", "true"),
			400, "BAD_REQUEST", "Web-public channels are not enabled.")
		e.chatFail(SeedOwnerID, http.MethodPatch, "/streams/7", chatForm("is_web_public", "true"), 400, "BAD_REQUEST", "Web-public channels are not enabled.")
		if settings := serverSettings(e); settings["realm_web_public_access_enabled"] != false {
			t.Errorf("%s: realm_web_public_access_enabled = %v", when, settings["realm_web_public_access_enabled"])
		}
	}
	notEnabled("default server")
	realm := e.chatOK(SeedOwnerID, http.MethodPost, "/register", chatForm("fetch_event_types", `["realm"]`))
	if realm["server_web_public_streams_enabled"] != false {
		t.Errorf("server_web_public_streams_enabled = %v, want false", realm["server_web_public_streams_enabled"])
	}
	webPublicOn(e, false)
	notEnabled("server setting without spectator access")
	webPublicOn(e, true)
	e.srv.Do(func(r *Realm) { r.PlanType = planLimited })
	notEnabled("limited plan")
	e.srv.Do(func(r *Realm) { r.PlanType = 0 })

	// Enabled: the organization's permission decides (owners by default).
	realm = e.chatOK(SeedOwnerID, http.MethodPost, "/register", chatForm("fetch_event_types", `["realm"]`))
	if realm["server_web_public_streams_enabled"] != true {
		t.Errorf("server_web_public_streams_enabled = %v, want true", realm["server_web_public_streams_enabled"])
	}
	if settings := serverSettings(e); settings["realm_web_public_access_enabled"] != true {
		t.Errorf("realm_web_public_access_enabled = %v, want true (announce is web-public)", settings["realm_web_public_access_enabled"])
	}
	if status, body := create(SeedMemberID, "web"); status != 400 || body["msg"] != "Insufficient permission" {
		t.Errorf("member: %d %v", status, body)
	}
	e.chatFail(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("is_web_public", "true"), 400, "BAD_REQUEST", "Insufficient permission")
	if status, body := create(SeedOwnerID, "web"); status != 200 {
		t.Errorf("owner: %d %v", status, body)
	}
	e.chatOK(SeedOwnerID, http.MethodPatch, "/streams/7", chatForm("is_web_public", "true"))
	if ch := e.chatChannel(7); ch["is_web_public"] != true {
		t.Errorf("random after PATCH: %v", ch)
	}
}

// TestChannelCreate_defaultChannel pins check_channel_creation_permissions
// (zerver/lib/streams.py): a default channel is created by an administrator
// only ("Insufficient permission"), checked before "A default channel cannot
// be private.", on both creation endpoints.
func TestChannelCreate_defaultChannel(t *testing.T) {
	e := chatNew(t)
	e.chatFail(SeedMemberID, http.MethodPost, "/channels/create", chatForm("name", "x", "subscribers", "[]", "is_default_stream", "true"),
		400, "BAD_REQUEST", "Insufficient permission")
	e.chatFail(SeedMemberID, http.MethodPost, "/channels/create", chatForm("name", "x", "subscribers", "[]", "is_default_stream", "true", "invite_only", "true"),
		400, "BAD_REQUEST", "Insufficient permission")
	e.chatFail(SeedMemberID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "x"}]`, "is_default_stream", "true"),
		400, "BAD_REQUEST", "Insufficient permission")
	e.chatFail(SeedAdminID, http.MethodPost, "/channels/create", chatForm("name", "x", "subscribers", "[]", "is_default_stream", "true", "invite_only", "true"),
		400, "BAD_REQUEST", "A default channel cannot be private.")
	id := int(e.chatOK(SeedAdminID, http.MethodPost, "/channels/create", chatForm("name", "x", "subscribers", "[]", "is_default_stream", "true"))["id"].(float64))
	defaults := e.chatOK(SeedAdminID, http.MethodPost, "/register", chatForm("fetch_event_types", `["default_streams"]`))["realm_default_streams"]
	if chatJSON(defaults) != chatJSON([]int{1, 2, id}) {
		t.Errorf("realm_default_streams = %s", chatJSON(defaults))
	}
}

// TestChannelCreate_noSuchUser pins the subscribers of POST /channels/create
// (bulk_access_users_by_id, zerver/lib/users.py, as
// test_create_stream_using_add_channel expects): an unknown or deactivated
// user is "No such user".
func TestChannelCreate_noSuchUser(t *testing.T) {
	e := chatNew(t)
	for _, subs := range []string{"[5, 1000]", "[10]"} {
		e.chatFail(SeedAdminID, http.MethodPost, "/channels/create", chatForm("name", "x", "subscribers", subs), 400, "BAD_REQUEST", "No such user")
	}
	e.chatOK(SeedAdminID, http.MethodPost, "/channels/create", chatForm("name", "x", "subscribers", "[5, 8]")) // bots may be subscribed
}

// TestChannelCreateTopicGroup_protectedHistory pins
// validate_can_create_topic_group_setting_for_protected_history_streams
// (zerver/lib/streams.py) as test_can_create_topic_group_for_protected_history_streams
// and test_updating_protected_history_and_can_create_topic_group_for_streams
// exercise it: a channel with protected history lets everyone start topics,
// so can_create_topic_group must be role:everyone itself, on create and on
// every change that would break it.
func TestChannelCreateTopicGroup_protectedHistory(t *testing.T) {
	e := chatNew(t)
	const msg = "Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group"
	fail := func(method, path string, form map[string][]string) {
		t.Helper()
		body := e.chatFail(SeedOwnerID, method, path, form, 400, "BAD_REQUEST", msg)
		if body["parameters"] != "history_public_to_subscribers, can_create_topic_group" {
			t.Errorf("parameters = %v", body["parameters"])
		}
	}
	create := func(kv ...string) map[string][]string {
		return chatForm(append([]string{"name", "p", "subscribers", "[1]"}, kv...)...)
	}
	fail(http.MethodPost, "/channels/create", create("invite_only", "true", "can_create_topic_group", "3"))
	fail(http.MethodPost, "/channels/create", create("invite_only", "true", "can_create_topic_group", `{"direct_members": [1], "direct_subgroups": [6]}`))
	fail(http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "p"}]`, "invite_only", "true",
		"history_public_to_subscribers", "false", "can_create_topic_group", "9"))
	e.chatOK(SeedOwnerID, http.MethodPost, "/channels/create", create("name", "p1", "invite_only", "true", "can_create_topic_group", `{"direct_members": [], "direct_subgroups": [6]}`))
	e.chatOK(SeedOwnerID, http.MethodPost, "/channels/create", create("name", "p2", "invite_only", "true", "history_public_to_subscribers", "true", "can_create_topic_group", "3"))
	e.chatOK(SeedOwnerID, http.MethodPost, "/channels/create", create("name", "p3", "can_create_topic_group", "3"))

	design, leaders := "/streams/3", "/streams/4" // protected history; shared history
	fail(http.MethodPatch, design, chatForm("can_create_topic_group", `{"new": 3}`))
	e.chatOK(SeedOwnerID, http.MethodPatch, leaders, chatForm("can_create_topic_group", `{"new": 3}`))
	fail(http.MethodPatch, leaders, chatForm("history_public_to_subscribers", "false"))
	fail(http.MethodPatch, leaders, chatForm("history_public_to_subscribers", "false", "can_create_topic_group", `{"new": 9}`))
	e.chatOK(SeedOwnerID, http.MethodPatch, leaders, chatForm("history_public_to_subscribers", "false", "can_create_topic_group", `{"new": 6}`))
	if ch := e.chatChannel(4); ch["history_public_to_subscribers"] != false || chatJSON(ch["can_create_topic_group"]) != "6" {
		t.Errorf("leadership: %v", ch)
	}
}

// TestChannelTopicsPolicy pins validate_topics_policy (zerver/lib/streams.py):
// a policy other than inherit needs can_set_topics_policy_group, and
// empty_topic_only is refused while the channel has a message in a named
// topic (channel_has_named_topics).
func TestChannelTopicsPolicy(t *testing.T) {
	e := chatNew(t)
	e.chatFail(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("topics_policy", "empty_topic_only"), 400, "BAD_REQUEST",
		`To enable this configuration, all messages in this channel must be in the "general chat" topic. Consider renaming or deleting other topics.`)
	id := int(e.chatOK(SeedMemberID, http.MethodPost, "/channels/create", chatForm("name", "quiet", "subscribers", "[5]"))["id"].(float64))
	path := "/streams/" + chatJSON(id)
	e.srv.Do(func(r *Realm) { e.srv.postChannelMessage(r.Channels[id], "", SeedMemberID, "only general chat") })
	e.chatOK(SeedMemberID, http.MethodPatch, path, chatForm("topics_policy", "empty_topic_only"))
	e.srv.Do(func(r *Realm) {
		r.Settings.GroupSettings["can_set_topics_policy_group"] = GroupSetting{GroupID: GroupAdministrators}
	})
	e.chatFail(SeedMemberID, http.MethodPatch, path, chatForm("topics_policy", "allow_empty_topic"), 400, "BAD_REQUEST", "Insufficient permission")
	e.chatOK(SeedMemberID, http.MethodPatch, path, chatForm("topics_policy", "inherit"))
	e.chatFail(SeedMemberID, http.MethodPost, "/channels/create", chatForm("name", "y", "subscribers", "[]", "topics_policy", `"disable_empty_topic"`),
		400, "BAD_REQUEST", "Insufficient permission")
}

// TestChannelUnarchive pins do_unarchive_stream (zerver/actions/streams.py):
// is_archived=false on an active channel is "Channel is not currently
// deactivated", and a private channel without subscribers cannot come back.
func TestChannelUnarchive(t *testing.T) {
	e := chatNew(t)
	e.chatFail(SeedOwnerID, http.MethodPatch, "/streams/7", chatForm("is_archived", "false"), 400, "BAD_REQUEST", "Channel is not currently deactivated")
	id := int(e.chatOK(SeedOwnerID, http.MethodPost, "/channels/create", chatForm("name", "empty", "subscribers", "[]", "invite_only", "true"))["id"].(float64))
	path := "/streams/" + chatJSON(id)
	e.chatOK(SeedOwnerID, http.MethodDelete, path, nil)
	e.chatFail(SeedOwnerID, http.MethodPatch, path, chatForm("is_archived", "false"), 400, "BAD_REQUEST", "Channel is private and have no subscribers")
	e.srv.Do(func(r *Realm) { r.Channels[id].Subscribers[SeedDeactivatedID] = 0 }) // deactivated subscribers count
	e.chatOK(SeedOwnerID, http.MethodPatch, path, chatForm("is_archived", "false"))
}

// TestChannelAdminister pins check_stream_access_for_delete_or_update_requiring_metadata_access
// (zerver/lib/streams.py): administrators and members of
// can_administer_channel_group may change or archive a channel; anyone else
// with content access is told "You do not have permission to administer this
// channel." (CannotAdministerChannelError), the others "Invalid channel ID".
func TestChannelAdminister(t *testing.T) {
	e := chatNew(t)
	for _, tc := range []struct {
		user, channel int
		msg           string
	}{
		{SeedMemberID, SeedChannelRandom, "You do not have permission to administer this channel."},      // public
		{SeedMemberID, SeedChannelBackendOnly, "You do not have permission to administer this channel."}, // can_subscribe_group grants content access
		{SeedMemberID, SeedChannelLeaders, "Invalid channel ID"},                                         // private, no access
		{SeedGuestID, SeedChannelRandom, "You do not have permission to administer this channel."},       // subscribed guest
		{SeedGuestID, SeedChannelGeneral + 100, "Invalid channel ID"},
	} {
		path := "/streams/" + chatJSON(tc.channel)
		e.chatFail(tc.user, http.MethodPatch, path, chatForm("description", "x"), 400, "BAD_REQUEST", tc.msg)
		e.chatFail(tc.user, http.MethodDelete, path, nil, 400, "BAD_REQUEST", tc.msg)
	}
	// Maria administers frontend-ops through the frontend group, without content access.
	e.chatOK(SeedMember2ID, http.MethodPatch, "/streams/9", chatForm("description", "ops"))
}

// TestDefaultChannelPermissions pins the default-channel endpoints:
// check_if_user_can_manage_default_streams (zerver/decorator.py) refuses a
// non-administrator with OrganizationAdministratorRequiredError before the
// parameters are read; add_default_stream finds the channel with
// access_stream_by_id (content access), remove_default_stream with
// require_content_access=False (test_api_calls of test_default_channels.py);
// PATCH is_default_stream by a channel administrator who is not an
// organization administrator is CannotManageDefaultChannelError.
func TestDefaultChannelPermissions(t *testing.T) {
	e := chatNew(t)
	e.chatFail(SeedMemberID, http.MethodPost, "/default_streams", nil, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	e.chatFail(SeedMemberID, http.MethodDelete, "/default_streams", chatForm("stream_id", "1"), 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
	e.chatFail(SeedAdmin2ID, http.MethodPost, "/default_streams", chatForm("stream_id", "9"), 400, "BAD_REQUEST", "Invalid channel ID")
	e.chatFail(SeedOwner2ID, http.MethodPost, "/default_streams", chatForm("stream_id", "9"), 400, "BAD_REQUEST", "Private channels cannot be made default.")
	e.chatOK(SeedAdmin2ID, http.MethodDelete, "/default_streams", chatForm("stream_id", "9"))
	id := int(e.chatOK(SeedMemberID, http.MethodPost, "/channels/create", chatForm("name", "mine", "subscribers", "[5]"))["id"].(float64))
	e.chatFail(SeedMemberID, http.MethodPatch, "/streams/"+chatJSON(id), chatForm("is_default_stream", "true"), 400, "BAD_REQUEST",
		"You do not have permission to change default channels.")
}

// TestChannelUpdate_partial pins update_stream_backend's order
// (zerver/views/streams.py): it applies the privacy, the default flag, the
// retention, unarchiving, the topics policy, the description, the name and
// the folder one after the other, then each group setting in its own
// transaction, so a refused request keeps what came before the refusal, and
// its events are sent.
func TestChannelUpdate_partial(t *testing.T) {
	e := chatNew(t)
	q := e.chatOK(SeedAdminID, http.MethodPost, "/register", chatForm("event_types", `["stream"]`))["queue_id"].(string)
	// The description is applied; the name is then refused.
	e.chatFail(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("description", "kept", "new_name", "general"), 409, "CHANNEL_ALREADY_EXISTS", "Channel 'general' already exists")
	// The privacy is applied; the retention then needs an owner, so the
	// description after it is not applied.
	e.chatFail(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("is_private", "true", "message_retention_days", "5", "description", "lost"),
		400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
	// The first group setting is applied; the second's old value does not match.
	e.chatFail(SeedAdminID, http.MethodPatch, "/streams/7", chatForm("can_add_subscribers_group", `{"new": 3}`, "can_send_message_group", `{"new": 5, "old": 2}`),
		400, "EXPECTATION_MISMATCH", "'old' value does not match the expected value.")
	ch := e.chatChannel(7)
	if ch["description"] != "kept" || ch["name"] != "random" || ch["invite_only"] != true || chatJSON(ch["can_add_subscribers_group"]) != "3" ||
		chatJSON(ch["can_send_message_group"]) != "6" || ch["message_retention_days"] != nil {
		t.Errorf("after the refused requests: %v", ch)
	}
	var props []string
	for _, ev := range e.chatOK(SeedAdminID, http.MethodGet, "/events", chatForm("queue_id", q, "last_event_id", "-1", "dont_block", "true"))["events"].([]any) {
		props = append(props, ev.(map[string]any)["property"].(string))
	}
	if chatJSON(props) != `["description","invite_only","can_add_subscribers_group"]` {
		t.Errorf("events for %v", props)
	}
	// Checks on the proposed privacy come before anything is applied.
	e.chatFail(SeedAdminID, http.MethodPatch, "/streams/1", chatForm("description", "never", "is_private", "true"), 400, "BAD_REQUEST", "A default channel cannot be private.")
	if ch := e.chatChannel(1); ch["description"] == "never" {
		t.Errorf("general changed: %v", ch)
	}
}

// channelMessages lists the messages of a channel, oldest first.
func channelMessages(e *chatEnv, id int) []*Message {
	var out []*Message
	e.srv.Do(func(r *Realm) {
		for _, m := range r.Messages {
			if m.ChannelID == id {
				out = append(out, m)
			}
		}
	})
	return out
}

// TestChannelNotices pins Notification Bot's channel notices: the creation
// message of send_messages_for_new_subscribers (zerver/views/streams.py, with
// the wording test_create_stream_using_add_channel and
// test_channel_create_message_exists_for_all_policy_types expect), read for
// the creator, and with announce the message in the new-channel announcements
// channel; the archive notice of do_deactivate_stream
// (zerver/actions/streams.py), read for everyone; all only when the
// organization's send_channel_events_messages is on (feature level 434, off
// by default; before that level they were sent unconditionally).
func TestChannelNotices(t *testing.T) {
	e := chatNew(t)
	id := int(e.chatOK(SeedMemberID, http.MethodPost, "/channels/create", chatForm("name", "quiet", "subscribers", "[5]"))["id"].(float64))
	e.chatOK(SeedOwnerID, http.MethodDelete, "/streams/"+chatJSON(id), nil)
	if got := channelMessages(e, id); len(got) != 0 {
		t.Fatalf("notices with send_channel_events_messages off: %v", got)
	}
	e.srv.Do(func(r *Realm) { r.SetSetting("send_channel_events_messages", true) })
	id = int(e.chatOK(SeedMemberID, http.MethodPost, "/channels/create", chatForm("name", "loud", "subscribers", "[5, 11]", "description", "test channel",
		"announce", "true"))["id"].(float64))
	msgs := channelMessages(e, id)
	want := "**Public** channel created by @_**Mark Member|5**. **Description:**\n```` quote\ntest channel\n````"
	if len(msgs) != 1 || msgs[0].Content != want || msgs[0].Topic != "channel events" || msgs[0].SenderID != notificationBotID ||
		chatJSON(msgs[0].Flags) != `{"11":[],"5":["read"]}` {
		t.Fatalf("creation notice: %s", chatJSON(msgs))
	}
	general := channelMessages(e, SeedChannelGeneral)
	if last := general[len(general)-1]; last.Topic != "new channels" || last.Content != "@_**Mark Member|5** created a new channel #**loud**." {
		t.Errorf("announcement: %s", chatJSON(last))
	}
	e.chatOK(SeedOwnerID, http.MethodPost, "/users/me/subscriptions", chatForm("subscriptions", `[{"name": "secret"}]`, "invite_only", "true"))
	e.srv.Do(func(r *Realm) {
		last := r.Messages[len(r.Messages)-1]
		if !strings.HasPrefix(last.Content, "**Private, protected history** channel created by @_**") || !strings.Contains(last.Content, "*No description.*") {
			t.Errorf("private creation notice: %s", last.Content)
		}
	})
	e.chatOK(SeedOwnerID, http.MethodDelete, "/streams/"+chatJSON(id), nil)
	msgs = channelMessages(e, id)
	if last := msgs[len(msgs)-1]; last.Content != "Channel #**loud** has been archived." || chatJSON(last.Flags) != `{"11":["read"],"5":["read"]}` {
		t.Errorf("archive notice: %s", chatJSON(last))
	}
	e.chatOK(SeedOwnerID, http.MethodPatch, "/streams/"+chatJSON(id), chatForm("is_archived", "false"))
	msgs = channelMessages(e, id)
	if last := msgs[len(msgs)-1]; last.Content != "Channel #**loud** has been unarchived." {
		t.Errorf("unarchive notice: %s", chatJSON(last))
	}

	// Before feature level 434 the notices were unconditional.
	old := chatNew(t, chatLevel(433))
	id = int(old.chatOK(SeedMemberID, http.MethodPost, "/channels/create", chatForm("name", "older", "subscribers", "[]"))["id"].(float64))
	if got := channelMessages(old, id); len(got) != 1 {
		t.Errorf("notices at 433: %v", got)
	}
}
