package refserver

import (
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// msgClock is a settable server clock.
type msgClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *msgClock) get() time.Time        { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *msgClock) add(d time.Duration)   { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }
func (c *msgClock) opt() func(o *Options) { return func(o *Options) { o.Clock = c.get } }
func newMsgClock() *msgClock              { return &msgClock{now: time.Date(2025, 6, 2, 12, 0, 0, 0, time.UTC)} }
func msgPath(id int) string               { return "/messages/" + strconv.Itoa(id) }
func msgID(body map[string]any) int       { return int(body["id"].(float64)) }
func msgSetting(e *chatEnv, name string, v any) {
	e.srv.Do(func(r *Realm) { r.SetSetting(name, v) })
}

// msgSend posts a channel message as user and returns its id.
func msgSend(e *chatEnv, user int, channel, topic, content string) int {
	e.t.Helper()
	return msgID(e.chatOK(user, http.MethodPost, "/messages", chatForm("type", "stream", "to", channel, "topic", topic, "content", content)))
}

// msgEvents registers a queue for user with the event types and returns a
// function that fetches the events queued since.
func msgEvents(e *chatEnv, user int, types string) func() []map[string]any {
	e.t.Helper()
	q := e.chatOK(user, http.MethodPost, "/register", chatForm("event_types", types))["queue_id"].(string)
	return func() []map[string]any {
		body := e.chatOK(user, http.MethodGet, "/events", chatForm("queue_id", q, "last_event_id", "-1", "dont_block", "true"))
		var out []map[string]any
		for _, ev := range body["events"].([]any) {
			if m := ev.(map[string]any); m["type"] != "heartbeat" {
				out = append(out, m)
			}
		}
		return out
	}
}

// Sending to a channel follows access_stream_for_send_message
// (zerver/lib/streams.py): can_send_message_group first (a bot may post
// where its owner may), then "Not authorized to send to channel" for
// archived channels and private channels one cannot reach;
// check_for_can_create_topic_group_violation for a new topic; and the
// channel's topics policy (zerver/actions/message_send.py check_message).
func TestSendMessage_channelRules(t *testing.T) {
	e := chatNew(t)
	send := func(user int, to, topic string) (int, map[string]any) {
		return e.chatDo(user, http.MethodPost, "/messages", chatForm("type", "stream", "to", to, "topic", topic, "content", "x"))
	}
	fail := func(user int, to, topic, msg string) {
		t.Helper()
		e.chatFail(user, http.MethodPost, "/messages", chatForm("type", "stream", "to", to, "topic", topic, "content", "x"), 400, "BAD_REQUEST", msg)
	}
	fail(SeedMemberID, "announce", "t", "You do not have permission to post in this channel.")
	if status, body := send(SeedAdminID, "announce", "t"); status != 200 {
		t.Fatalf("administrator to announce: %v", body)
	}
	fail(SeedMember2ID, "design", "t", "Not authorized to send to channel 'design'")
	fail(SeedMemberID, "old-projects", "t", "Not authorized to send to channel 'old-projects'")
	// The member's bot posts where its owner is subscribed.
	if status, body := send(SeedBotID, "design", "bots"); status != 200 {
		t.Fatalf("bot to its owner's private channel: %v", body)
	}
	// A guest posts to a public channel only when subscribed.
	fail(SeedGuestID, "announce", "t", "You do not have permission to post in this channel.")
	e.srv.Do(func(r *Realm) {
		r.Channels[SeedChannelGeneral].GroupSettings["can_create_topic_group"] = GroupSetting{GroupID: GroupAdministrators}
	})
	fail(SeedMemberID, "general", "brand new", "You do not have permission to create new topics in this channel.")
	if status, body := send(SeedMemberID, "general", "Welcome"); status != 200 {
		t.Fatalf("an existing topic (case-insensitively): %v", body)
	}
	e.srv.Do(func(r *Realm) { r.Channels[SeedChannelRandom].TopicsPolicy = "empty_topic_only" })
	fail(SeedMemberID, "random", "cats", "Only the general chat topic is allowed in this channel.")
	if status, body := send(SeedMemberID, "random", "(no topic)"); status != 200 {
		t.Fatalf("the empty topic by its legacy name: %v", body)
	}
	// Inherited: the organization's topics_policy decides.
	msgSetting(e, "topics_policy", "disable_empty_topic")
	e.srv.Do(func(r *Realm) {
		r.Channels[SeedChannelGeneral].GroupSettings["can_create_topic_group"] = GroupSetting{GroupID: GroupEveryone}
	})
	fail(SeedMemberID, "general", "general chat", "Sending messages to the general chat topic is not allowed in this channel.")
	body := e.chatFail(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "stream", "to", "Nope<", "topic", "t", "content", "x"),
		400, "STREAM_DOES_NOT_EXIST", "Channel 'Nope&lt;' does not exist")
	if body["stream"] != "Nope&lt;" {
		t.Errorf("stream: %v", body["stream"])
	}
	e.chatFail(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "stream", "to", "general", "content", "x"), 400, "BAD_REQUEST", "Missing topic")
	e.chatFail(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "stream", "to", `["general","random"]`, "topic", "t", "content", "x"),
		400, "BAD_REQUEST", "Expected exactly one channel")
	e.chatFail(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "stream", "to", "general", "topic", "t", "content", "\n  "),
		400, "BAD_REQUEST", "Message must not be empty")
	e.chatFail(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "pigeon", "to", "general", "topic", "t", "content", "x"),
		400, "BAD_REQUEST", "Invalid type")
}

// A sent message reaches every active subscriber and the sender (unread but
// for the sender with read_by_sender, whose default depends on the client:
// Client.default_read_by_sender), mentions set the mentioned flag, and the
// answer has message_url and message_link from feature level 508
// (send_message_backend, zerver/lib/url_encoding.py).
func TestSendMessage_deliveryAndAnswer(t *testing.T) {
	e := chatNew(t)
	next := msgEvents(e, SeedMember3ID, `["message"]`)
	body := e.chatOK(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "stream", "to", "1", "topic", "hi there",
		"content", "Hello @**Mei Member**  \n"))
	id := msgID(body)
	if got := chatFlags(e, id, SeedMember3ID); !reflect.DeepEqual(got, []string{"mentioned"}) {
		t.Errorf("mentioned recipient's flags: %v", got)
	}
	if got := chatFlags(e, id, SeedMemberID); len(got) != 0 {
		t.Errorf("an API client's own message is unread: %v", got)
	}
	if got := chatFlags(e, id, SeedDeactivatedID); got != nil {
		t.Errorf("a deactivated user received it: %v", got)
	}
	e.srv.Do(func(r *Realm) {
		if c := r.message(id).Content; c != "Hello @**Mei Member**" {
			t.Errorf("content not normalized: %q", c)
		}
	})
	if _, ok := body["message_url"]; DefaultFeatureLevel < messageURLFL && ok {
		t.Errorf("message_url below feature level %d", messageURLFL)
	}
	evs := next()
	if len(evs) != 1 || evs[0]["message"].(map[string]any)["id"].(float64) != float64(id) ||
		!reflect.DeepEqual(evs[0]["flags"], []any{"mentioned"}) {
		t.Errorf("message event: %v", evs)
	}
	read := msgID(e.chatOK(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "stream", "to", "general", "topic", "t",
		"content", "x", "read_by_sender", "true")))
	if got := chatFlags(e, read, SeedMemberID); !reflect.DeepEqual(got, []string{"read"}) {
		t.Errorf("read_by_sender: %v", got)
	}

	e508 := chatNew(t, chatLevel(messageURLFL))
	body = e508.chatOK(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "stream", "to", "general", "topic", "a.b c", "content", "x"))
	id = msgID(body)
	wantURL := e508.ts.URL + "/#narrow/channel/1-general/topic/a.2Eb.20c/near/" + strconv.Itoa(id)
	if body["message_url"] != wantURL || body["message_link"] != "[#general > a.b c @ 💬]("+wantURL+")" {
		t.Errorf("url %v, link %v", body["message_url"], body["message_link"])
	}
	body = e508.chatOK(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "direct", "to", "[11]", "content", "x"))
	wantURL = e508.ts.URL + "/#narrow/dm/11-Mei-Member/near/" + strconv.Itoa(msgID(body))
	if body["message_url"] != wantURL || body["message_link"] != wantURL {
		t.Errorf("direct: url %v, link %v", body["message_url"], body["message_link"])
	}
}

// Direct messages follow check_can_send_direct_message
// (zerver/actions/message_send.py): someone in the conversation must be in
// direct_message_permission_group, the sender in
// direct_message_initiator_group unless the conversation exists; bots are
// exempt. Deactivated recipients are refused
// (validate_recipient_user_profiles); the message is fetched by its
// recipients only (has_message_access).
func TestSendMessage_direct(t *testing.T) {
	e := chatNew(t)
	dm := func(user int, to string) (int, map[string]any) {
		return e.chatDo(user, http.MethodPost, "/messages", chatForm("type", "direct", "to", to, "content", "Hi"))
	}
	status, body := dm(SeedMemberID, "[11, 5]")
	if status != 200 {
		t.Fatalf("direct: %v", body)
	}
	id := msgID(body)
	got := e.chatOK(SeedMember3ID, http.MethodGet, msgPath(id), nil)["message"].(map[string]any)
	if got["type"] != "private" || len(got["display_recipient"].([]any)) != 2 || got["subject"] != "" {
		t.Errorf("direct message: %v", got)
	}
	e.chatFail(SeedOwnerID, http.MethodGet, msgPath(id), nil, 400, "BAD_REQUEST", "Invalid message(s)")
	e.chatFail(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "direct", "to", "[10]", "content", "Hi"),
		400, "BAD_REQUEST", "'dan@zulip.example.com' is no longer using Zulip.")
	e.chatFail(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "direct", "to", "[]", "content", "Hi"),
		400, "BAD_REQUEST", "Message must have recipients")
	e.chatFail(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "direct", "to", `["nobody@example.com"]`, "content", "Hi"),
		400, "BAD_REQUEST", "Invalid email 'nobody@example.com'")

	e.srv.Do(func(r *Realm) {
		r.Settings.GroupSettings["direct_message_permission_group"] = GroupSetting{GroupID: GroupAdministrators}
	})
	e.chatFail(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "direct", "to", "[6]", "content", "Hi"),
		400, "BAD_REQUEST", "This conversation does not include any users who can authorize it.")
	if status, body := dm(SeedMemberID, "[2]"); status != 200 {
		t.Fatalf("to an administrator: %v", body)
	}
	if status, body := dm(SeedMemberID, "[8]"); status != 200 {
		t.Fatalf("to a bot: %v", body)
	}
	e.srv.Do(func(r *Realm) {
		r.Settings.GroupSettings["direct_message_permission_group"] = GroupSetting{GroupID: GroupNobody}
	})
	e.chatFail(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "direct", "to", "[6]", "content", "Hi"),
		400, "BAD_REQUEST", "Direct messages are disabled in this organization.")
	e.srv.Do(func(r *Realm) {
		r.Settings.GroupSettings["direct_message_permission_group"] = GroupSetting{GroupID: GroupEveryone}
		r.Settings.GroupSettings["direct_message_initiator_group"] = GroupSetting{GroupID: GroupAdministrators}
	})
	e.chatFail(SeedMember2ID, http.MethodPost, "/messages", chatForm("type", "direct", "to", "[11]", "content", "Hi"),
		400, "BAD_REQUEST", "You do not have permission to initiate direct message conversations.")
	if status, body := dm(SeedMember3ID, "[5]"); status != 200 {
		t.Fatalf("an existing conversation: %v", body)
	}
}

// Editing content follows validate_user_can_edit_message
// (zerver/actions/message_edit.py): editing on, one's own message, within
// message_content_edit_limit_seconds plus 20 seconds (null: no limit);
// prev_content_sha256 must match (validate_message_edit_payload); the
// recipients get update_message with their flags (do_update_message).
func TestUpdateMessage_content(t *testing.T) {
	clock := newMsgClock()
	e := chatNew(t, clock.opt())
	id := msgSend(e, SeedMemberID, "general", "edits", "First")
	clock.add(620 * time.Second) // the default 600 seconds, and Zulip's 20 of grace
	next := msgEvents(e, SeedMember3ID, `["update_message"]`)
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("content", "Second @**Mei Member**"))
	evs := next()
	if len(evs) != 1 || evs[0]["orig_content"] != "First" || evs[0]["content"] != "Second @**Mei Member**" ||
		evs[0]["stream_id"].(float64) != SeedChannelGeneral || !reflect.DeepEqual(evs[0]["flags"], []any{"mentioned"}) {
		t.Errorf("update_message: %v", evs)
	}
	msg := e.chatOK(SeedMemberID, http.MethodGet, msgPath(id), chatForm("apply_markdown", "false"))
	if msg["raw_content"] != "Second @**Mei Member**" || msg["message"].(map[string]any)["last_edit_timestamp"] == nil {
		t.Errorf("after the edit: %v", msg)
	}
	clock.add(time.Second)
	e.chatFail(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("content", "Third"), 400, "BAD_REQUEST",
		"The time limit for editing this message has passed")
	msgSetting(e, "message_content_edit_limit_seconds", nil)
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("content", "  "))
	if got := e.chatOK(SeedMemberID, http.MethodGet, msgPath(id), nil)["raw_content"]; got != "(deleted)" {
		t.Errorf("emptied content: %v", got)
	}
	e.chatFail(SeedAdminID, http.MethodPatch, msgPath(id), chatForm("content", "x"), 400, "BAD_REQUEST",
		"You don't have permission to edit this message")
	e.chatFail(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("content", "x", "prev_content_sha256", "00"), 400,
		"EXPECTATION_MISMATCH", "'prev_content_sha256' value does not match the expected value.")
	e.chatFail(SeedMemberID, http.MethodPatch, msgPath(id), url.Values{}, 400, "BAD_REQUEST", "Nothing to change")
	msgSetting(e, "allow_message_editing", false)
	e.chatFail(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("content", "x"), 400, "BAD_REQUEST",
		"Your organization has turned off message editing")
	// Messages in archived channels cannot be modified (has_message_access, is_modifying_message).
	e.chatFail(SeedMemberID, http.MethodPatch, msgPath(9), chatForm("content", "x"), 400, "BAD_REQUEST", "Invalid message(s)")
}

// Deleting follows validate_can_delete_message (zerver/views/message_edit.py):
// the organization's or the channel's can_delete_any_message_group; else
// one's own message or one's bot's, with the organization's or the channel's
// can_delete_own_message_group, within message_content_delete_limit_seconds
// (no grace). Recipients get delete_message (do_delete_messages).
func TestDeleteMessage_permissions(t *testing.T) {
	clock := newMsgClock()
	e := chatNew(t, clock.opt())
	fail := func(user, id int, msg string) {
		t.Helper()
		e.chatFail(user, http.MethodDelete, msgPath(id), nil, 400, "BAD_REQUEST", msg)
	}
	own := msgSend(e, SeedMemberID, "general", "t", "mine")
	fail(SeedMember2ID, own, "You don't have permission to delete this message")
	fail(SeedModeratorID, own, "You don't have permission to delete this message")
	bots := msgSend(e, SeedBotID, "general", "t", "the bot's")
	next := msgEvents(e, SeedMember3ID, `["delete_message"]`)
	e.chatOK(SeedMemberID, http.MethodDelete, msgPath(bots), nil)
	if evs := next(); len(evs) != 1 || !reflect.DeepEqual(evs[0]["message_ids"], []any{float64(bots)}) ||
		evs[0]["message_type"] != "stream" || evs[0]["topic"] != "t" {
		t.Errorf("delete_message: %v", evs)
	}
	fail(SeedMemberID, bots, "Invalid message(s)")

	// Only the channel grants deleting one's own messages.
	e.srv.Do(func(r *Realm) {
		r.Settings.GroupSettings["can_delete_own_message_group"] = GroupSetting{GroupID: GroupNobody}
	})
	fail(SeedMemberID, own, "You don't have permission to delete this message")
	e.srv.Do(func(r *Realm) {
		r.Channels[SeedChannelGeneral].GroupSettings["can_delete_own_message_group"] = GroupSetting{GroupID: GroupMembers}
	})
	clock.add(601 * time.Second)
	fail(SeedMemberID, own, "The time limit for deleting this message has passed")
	msgSetting(e, "message_content_delete_limit_seconds", nil)
	e.chatOK(SeedMemberID, http.MethodDelete, msgPath(own), nil)

	// The channel's can_delete_any_message_group.
	other := msgSend(e, SeedMember3ID, "general", "t", "theirs")
	e.srv.Do(func(r *Realm) {
		r.Channels[SeedChannelGeneral].GroupSettings["can_delete_any_message_group"] = GroupSetting{DirectMembers: []int{SeedModeratorID}}
	})
	e.chatOK(SeedModeratorID, http.MethodDelete, msgPath(other), nil)
	// Administrators delete any message, however old, but not in archived channels.
	e.chatOK(SeedAdminID, http.MethodDelete, msgPath(3), nil)
	fail(SeedAdminID, 9, "Invalid message(s)")
}

// has_message_access (zerver/lib/message.py): a public channel's messages
// for every non-guest, protected history only for subscribers who received
// the message, shared history for subscribers.
func TestGetMessage_access(t *testing.T) {
	e := chatNew(t)
	e.chatOK(SeedMember2ID, http.MethodGet, msgPath(1), nil)                                            // public, not received
	e.chatFail(SeedGuestID, http.MethodGet, msgPath(5), nil, 400, "BAD_REQUEST", "Invalid message(s)")  // web-public, guest not subscribed
	e.chatFail(SeedMemberID, http.MethodGet, msgPath(6), nil, 400, "BAD_REQUEST", "Invalid message(s)") // protected history, joined later
	e.chatOK(SeedMemberID, http.MethodGet, msgPath(12), nil)
	e.chatOK(SeedOwner2ID, http.MethodGet, msgPath(8), nil) // shared history
	got := e.chatOK(SeedMember3ID, http.MethodGet, msgPath(14), nil)["message"].(map[string]any)
	if got["subject"] != "general chat" || !reflect.DeepEqual(got["flags"], []any{"read"}) {
		t.Errorf("empty topic: %v", got)
	}
}

// TestMaxMessageLength: a server whose MAX_MESSAGE_LENGTH was lowered says so
// in register's max_message_length and cuts longer messages to it, ending
// them with Zulip's note (normalize_body).
func TestMaxMessageLength(t *testing.T) {
	e := chatNew(t)
	e.srv.Do(func(r *Realm) { r.Settings.MaxMessageLength = 40 })
	if got := e.chatOK(SeedMemberID, http.MethodPost, "/register", chatForm("fetch_event_types", `["realm"]`))["max_message_length"]; got != 40.0 {
		t.Errorf("max_message_length = %v, want 40", got)
	}
	id := msgSend(e, SeedMemberID, "general", "t", strings.Repeat("x", 50))
	var got string
	e.srv.Do(func(r *Realm) {
		for _, m := range r.Messages {
			if m.ID == id {
				got = m.Content
			}
		}
	})
	if want := strings.Repeat("x", 40-len(messageTruncatedNote)) + messageTruncatedNote; got != want {
		t.Errorf("content %q, want %q", got, want)
	}
}
