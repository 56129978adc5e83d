package refserver

import (
	"net/http"
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
	e.chatFail(SeedAdminID, http.MethodPost, "/channels/create", form("name", "x", "is_web_public", "true"), 400, "BAD_REQUEST", "Insufficient permission")
	e.chatFail(SeedAdminID, http.MethodPost, "/channels/create", form("name", "x", "message_retention_days", "0"), 400, "BAD_REQUEST", "Bad value for 'message_retention_days': 0")
	e.chatFail(SeedGuestID, http.MethodPost, "/channels/create", form("name", "x"), 400, "BAD_REQUEST", "Not allowed for guest users")
	e.chatFail(SeedOwnerID, http.MethodPost, "/channels/create", form("name", "x", "can_subscribe_group", "6"), 400, "BAD_REQUEST",
		"'can_subscribe_group' setting cannot be set to 'role:everyone' group.")
	e.chatFail(SeedMemberID, http.MethodPost, "/channels/create", form("name", "x", "can_delete_any_message_group", "2"), 400, "BAD_REQUEST", "Insufficient permission")
	e.chatOK(SeedOwnerID, http.MethodPost, "/channels/create", form("name", "web", "is_web_public", "true", "message_retention_days", `"unlimited"`))
}

// TestChannelUpdate: who may administer, {new, old}, renames, and the
// archive/unarchive cycle that keeps name and subscribers.
func TestChannelUpdate(t *testing.T) {
	e := chatNew(t)
	e.chatFail(SeedMemberID, http.MethodPatch, "/streams/7", chatForm("description", "x"), 400, "BAD_REQUEST", "Insufficient permission")
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
