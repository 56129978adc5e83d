package refserver

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// moveTopicOf is the topic of a message as its sender fetches it.
func moveTopicOf(e *chatEnv, id int) string {
	e.t.Helper()
	msg := e.chatOK(SeedAdminID, http.MethodGet, msgPath(id), chatForm("allow_empty_topic_name", "true"))
	return msg["message"].(map[string]any)["subject"].(string)
}

// moveLastMessage is the newest message of the realm (the server's own
// notices included).
func moveLastMessage(e *chatEnv) Message {
	var m Message
	e.srv.Do(func(r *Realm) { m = *r.Messages[len(r.Messages)-1] })
	return m
}

// moveGroupSetting sets an organization permission to a system group.
func moveGroupSetting(e *chatEnv, name, group string) {
	e.srv.Do(func(r *Realm) { r.Settings.GroupSettings[name] = GroupSetting{GroupID: r.systemGroupID(group)} })
}

// moveThree sends three messages to general > alpha as the member and
// returns their ids.
func moveThree(e *chatEnv) [3]int {
	var ids [3]int
	for i := range ids {
		ids[i] = msgSend(e, SeedMemberID, "general", "alpha", fmt.Sprintf("Message %d", i+1))
	}
	return ids
}

// Each propagate mode moves what update_messages_for_topic_edit selects:
// change_one the message, change_later it and the later ones, change_all the
// whole topic. The update_message event (do_update_message) carries the
// move's fields and no content fields; the moved messages carry
// last_moved_timestamp (feature level 365), not last_edit_timestamp.
func TestMoveTopic_propagateModes(t *testing.T) {
	cases := []struct {
		mode  string
		moved [3]bool
	}{
		{"change_one", [3]bool{false, true, false}},
		{"change_later", [3]bool{false, true, true}},
		{"change_all", [3]bool{true, true, true}},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			e := chatNew(t, newMsgClock().opt())
			ids := moveThree(e)
			next := msgEvents(e, SeedMember3ID, `["update_message"]`)
			e.chatOK(SeedMemberID, http.MethodPatch, msgPath(ids[1]), chatForm("topic", "beta", "propagate_mode", tc.mode,
				"send_notification_to_new_thread", "false"))
			var want []any
			for i, id := range ids {
				topic := moveTopicOf(e, id)
				if (topic == "beta") != tc.moved[i] {
					t.Errorf("message %d: topic %q", i+1, topic)
				}
				if tc.moved[i] {
					want = append(want, float64(id))
				}
			}
			evs := next()
			if len(evs) != 1 {
				t.Fatalf("events: %v", evs)
			}
			ev := evs[0]
			if ev["orig_subject"] != "alpha" || ev["subject"] != "beta" || ev["propagate_mode"] != tc.mode ||
				ev["message_id"].(float64) != float64(ids[1]) || !reflect.DeepEqual(ev["message_ids"], want) ||
				ev["stream_id"].(float64) != SeedChannelGeneral || ev["stream_name"] != "general" ||
				!reflect.DeepEqual(ev["topic_links"], []any{}) || ev["content"] != nil || ev["orig_content"] != nil {
				t.Errorf("update_message: %v", ev)
			}
			msg := e.chatOK(SeedMemberID, http.MethodGet, msgPath(ids[1]), nil)["message"].(map[string]any)
			if msg["last_moved_timestamp"] == nil || msg["last_edit_timestamp"] != nil {
				t.Errorf("moved message: %v", msg)
			}
		})
	}
}

// The Notification Bot's notices follow do_update_message and
// send_message_moved_breadcrumbs: the new topic hears where the messages came
// from (by default), the old topic where they went (when asked); the text
// depends on whether the whole topic moved and on how many messages did.
func TestMoveTopic_notifications(t *testing.T) {
	const by = "@_**Mark Member|5**"
	cases := []struct {
		name       string
		form       []string
		first      bool // move the first message (else the second)
		newNote    string
		oldNote    string
		notesCount int
	}{
		{"whole topic, both notices", []string{"propagate_mode", "change_all", "send_notification_to_old_thread", "true"}, true,
			"This topic was moved here from #**general>alpha** by " + by + ".",
			"This topic was moved to #**general>beta** by " + by + ".", 2},
		{"one message, both notices", []string{"send_notification_to_old_thread", "true"}, false,
			"[A message](${base}/#narrow/channel/1-general/topic/beta/near/${id}) was moved here from #**general>alpha** by " + by + ".",
			"A message was moved from this topic to #**general>beta** by " + by + ".", 2},
		{"later messages, new topic only", []string{"propagate_mode", "change_later"}, false,
			"2 messages were moved here from #**general>alpha** by " + by + ".", "", 1},
		{"later messages from the first, old topic only", []string{"propagate_mode", "change_later", "send_notification_to_old_thread", "true",
			"send_notification_to_new_thread", "false"}, true, "", "This topic was moved to #**general>beta** by " + by + ".", 1},
		{"no notices", []string{"send_notification_to_new_thread", "false"}, false, "", "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := chatNew(t, newMsgClock().opt())
			ids := moveThree(e)
			target := ids[1]
			if tc.first {
				target = ids[0]
			}
			var before int
			e.srv.Do(func(r *Realm) { before = len(r.Messages) })
			e.chatOK(SeedMemberID, http.MethodPatch, msgPath(target), chatForm(append([]string{"topic", "beta"}, tc.form...)...))
			var notes []Message
			e.srv.Do(func(r *Realm) {
				for _, m := range r.Messages[before:] {
					notes = append(notes, *m)
				}
			})
			if len(notes) != tc.notesCount {
				t.Fatalf("notices: %+v", notes)
			}
			for _, n := range notes {
				if n.SenderID != notificationBotID || !n.HasFlag(SeedMemberID, "read") || n.HasFlag(SeedMember3ID, "read") {
					t.Errorf("notice flags or sender: %+v", n)
				}
			}
			if tc.newNote != "" {
				want := strings.NewReplacer("${id}", fmt.Sprint(target), "${base}", e.ts.URL).Replace(tc.newNote)
				if notes[0].Topic != "beta" || notes[0].Content != want {
					t.Errorf("new topic notice: %+v, want %q", notes[0], want)
				}
			}
			if tc.oldNote != "" {
				last := notes[len(notes)-1]
				if last.Topic != "alpha" || last.Content != tc.oldNote {
					t.Errorf("old topic notice: %+v, want %q", last, tc.oldNote)
				}
			}
		})
	}
}

// Who may move follows check_update_message: can_edit_topic (the
// organization's can_move_messages_between_topics_group or the channel's
// can_move_messages_within_channel_group, administrators included), then
// move_messages_within_stream_limit_seconds plus 20 seconds for everyone
// but moderators (is_moderator is the moderator role exactly, so
// administrators are held to it too).
func TestMoveTopic_permissions(t *testing.T) {
	clock := newMsgClock()
	e := chatNew(t, clock.opt())
	id := msgSend(e, SeedMemberID, "general", "alpha", "Hello")
	moveGroupSetting(e, "can_move_messages_between_topics_group", sysNobody)
	e.chatFail(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "beta"), 400, "BAD_REQUEST",
		"You don't have permission to edit this message")
	e.srv.Do(func(r *Realm) {
		r.Channels[SeedChannelGeneral].GroupSettings["can_move_messages_within_channel_group"] =
			GroupSetting{DirectMembers: []int{SeedMemberID}, DirectSubgroups: []int{}}
	})
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "beta"))
	e.chatOK(SeedAdminID, http.MethodPatch, msgPath(id), chatForm("topic", "gamma"))
	moveGroupSetting(e, "can_move_messages_between_topics_group", sysEveryone)
	msgSetting(e, "move_messages_within_stream_limit_seconds", 600)
	clock.add(620 * time.Second)
	e.chatOK(SeedMember3ID, http.MethodPatch, msgPath(id), chatForm("topic", "delta"))
	clock.add(time.Second)
	for _, user := range []int{SeedMember3ID, SeedAdminID} {
		e.chatFail(user, http.MethodPatch, msgPath(id), chatForm("topic", "epsilon"), 400, "BAD_REQUEST",
			"The time limit for editing this message's topic has passed.")
	}
	e.chatOK(SeedModeratorID, http.MethodPatch, msgPath(id), chatForm("topic", "epsilon"))
	if got := moveTopicOf(e, id); got != "epsilon" {
		t.Errorf("topic: %q", got)
	}
}

// propagate_mode change_all checks every message of the topic against the
// limit (check_time_limit_for_change_all_propagate_mode): a topic with older
// messages is refused with MOVE_MESSAGES_TIME_LIMIT_EXCEEDED and the share
// one may move; moderators are exempt.
func TestMoveTopic_changeAllTimeLimit(t *testing.T) {
	clock := newMsgClock()
	e := chatNew(t, clock.opt())
	msgSetting(e, "move_messages_within_stream_limit_seconds", 600)
	old := msgSend(e, SeedMemberID, "general", "alpha", "Old")
	clock.add(time.Hour)
	recent := msgSend(e, SeedMemberID, "general", "alpha", "Recent")
	newest := msgSend(e, SeedMemberID, "general", "alpha", "Newest")
	body := e.chatFail(SeedMemberID, http.MethodPatch, msgPath(newest), chatForm("topic", "beta", "propagate_mode", "change_all"), 400,
		"MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", "You only have permission to move the 2/3 most recent messages in this topic.")
	if body["first_message_id_allowed_to_move"].(float64) != float64(recent) || body["total_messages_in_topic"].(float64) != 3 ||
		body["total_messages_allowed_to_move"].(float64) != 2 {
		t.Errorf("error details: %v", body)
	}
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(recent), chatForm("topic", "beta", "propagate_mode", "change_later"))
	e.chatOK(SeedModeratorID, http.MethodPatch, msgPath(newest), chatForm("topic", "gamma", "propagate_mode", "change_all"))
	for _, id := range []int{old, recent, newest} {
		if got := moveTopicOf(e, id); got != map[int]string{old: "alpha", recent: "gamma", newest: "gamma"}[id] {
			t.Errorf("message %d: topic %q", id, got)
		}
	}
}

// validate_message_edit_payload and build_message_edit_request refuse
// malformed moves in their order.
func TestMoveTopic_payload(t *testing.T) {
	e := chatNew(t, newMsgClock().opt())
	id := msgSend(e, SeedMemberID, "general", "alpha", "Hello")
	dm := msgID(e.chatOK(SeedMemberID, http.MethodPost, "/messages", chatForm("type", "direct", "to", "[11]", "content", "Psst")))
	cases := []struct {
		name string
		id   int
		form []string
		msg  string
	}{
		{"the same topic", id, []string{"topic", "alpha"}, "Nothing to change"},
		{"the same topic, change_all", id, []string{"subject", " alpha ", "content", "x", "propagate_mode", "change_all"},
			"Invalid propagate_mode without topic edit"},
		{"a direct message", dm, []string{"topic", "beta"}, "Direct messages cannot have topics."},
		{"resolving general chat", id, []string{"topic", "✔ general chat"}, "General chat cannot be marked as resolved"},
		{"resolving general chat, bare", id, []string{"topic", "✔"}, "General chat cannot be marked as resolved"},
		{"a control character", id, []string{"topic", "a\tb"}, "Invalid character in topic, at position 2!"},
		{"an unassigned character", id, []string{"topic", "ab\ufffe"}, "Invalid character in topic, at position 3!"},
	}
	for _, tc := range cases {
		e.chatFail(SeedMemberID, http.MethodPatch, msgPath(tc.id), chatForm(tc.form...), 400, "BAD_REQUEST", tc.msg)
	}
	e.srv.Do(func(r *Realm) { r.Channels[SeedChannelGeneral].TopicsPolicy = "disable_empty_topic" })
	e.chatFail(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", ""), 400, "BAD_REQUEST",
		"Sending messages to the general chat topic is not allowed in this channel.")
	e.srv.Do(func(r *Realm) { r.Channels[SeedChannelGeneral].TopicsPolicy = "empty_topic_only" })
	e.chatFail(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("content", "Edited"), 400, "BAD_REQUEST",
		"Only the general chat topic is allowed in this channel.")
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "general chat", "content", "Edited"))
	if got := moveTopicOf(e, id); got != "" {
		t.Errorf("the display name is the empty topic: %q", got)
	}
	long := strings.Repeat("x", 70)
	e.srv.Do(func(r *Realm) { r.Channels[SeedChannelGeneral].TopicsPolicy = "inherit" })
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", long))
	if got := moveTopicOf(e, id); got != strings.Repeat("x", 59)+"…" {
		t.Errorf("truncated topic: %q", got)
	}
}

// Resolving is a move to "✔ <topic>" (build_message_edit_request) checked
// by can_resolve_topics, without the time limit; the Notification Bot says
// so in the topic (maybe_send_resolve_topic_notifications), and undoing it
// within the grace period deletes that notice instead of posting another
// (maybe_delete_previous_resolve_topic_notification). Resolving moves no
// message in last_moved_timestamp's sense.
func TestMoveTopic_resolve(t *testing.T) {
	clock := newMsgClock()
	e := chatNew(t, clock.opt())
	id := msgSend(e, SeedMemberID, "general", "alpha", "Hello")
	moveGroupSetting(e, "can_resolve_topics_group", sysNobody)
	e.chatFail(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "✔ alpha", "propagate_mode", "change_all"), 400, "BAD_REQUEST",
		"You don't have permission to resolve topics in this channel.")
	moveGroupSetting(e, "can_resolve_topics_group", sysEveryone)
	moveGroupSetting(e, "can_move_messages_between_topics_group", sysNobody)
	clock.add(30 * 24 * time.Hour)
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "✔ alpha", "propagate_mode", "change_all"))
	notice := moveLastMessage(e)
	if notice.Topic != "✔ alpha" || notice.Content != "@_**Mark Member|5** has marked this topic as resolved." ||
		notice.Kind != messageKindResolveTopic || !notice.HasFlag(SeedMember3ID, "read") {
		t.Errorf("resolve notice: %+v", notice)
	}
	msg := e.chatOK(SeedMemberID, http.MethodGet, msgPath(id), nil)["message"].(map[string]any)
	if msg["last_moved_timestamp"] != nil {
		t.Errorf("resolved message: %v", msg)
	}
	clock.add(30 * time.Second)
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "alpha", "propagate_mode", "change_all"))
	if got := moveLastMessage(e); got.ID != id || e.srv.realm.message(notice.ID) != nil {
		t.Errorf("the undo deletes the notice: last %+v", got)
	}
	clock.add(2 * time.Minute)
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "✔ alpha", "propagate_mode", "change_all"))
	clock.add(2 * time.Minute)
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "alpha", "propagate_mode", "change_all"))
	if got := moveLastMessage(e); got.Content != "@_**Mark Member|5** has marked this topic as unresolved." || got.Topic != "alpha" {
		t.Errorf("unresolve notice: %+v", got)
	}
}

// Moving a whole topic takes its visibility policies along (do_update_message,
// get_visibility_policy_after_merge when the target topic has messages).
func TestMoveTopic_visibilityPolicies(t *testing.T) {
	e := chatNew(t, newMsgClock().opt())
	id := msgSend(e, SeedMemberID, "general", "alpha", "Hello")
	msgSend(e, SeedMemberID, "general", "beta", "Already here")
	e.srv.Do(func(r *Realm) {
		userTopicSet(r, SeedMember3ID, SeedChannelGeneral, "alpha", PolicyMuted, 1)
		userTopicSet(r, SeedMember3ID, SeedChannelGeneral, "beta", PolicyUnmuted, 1)
		userTopicSet(r, SeedAdminID, SeedChannelGeneral, "alpha", PolicyFollowed, 1)
	})
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "beta", "propagate_mode", "change_all"))
	got := map[int]int{}
	e.srv.Do(func(r *Realm) {
		for _, ut := range r.UserTopics {
			if ut.StreamID == SeedChannelGeneral && (ut.TopicName == "alpha" || ut.TopicName == "beta") {
				got[ut.UserID*10+map[string]int{"alpha": 1, "beta": 2}[ut.TopicName]] = ut.VisibilityPolicy
			}
		}
	})
	want := map[int]int{SeedMember3ID*10 + 2: PolicyUnmuted, SeedAdminID*10 + 2: PolicyFollowed}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("policies: %v, want %v", got, want)
	}
}

// do_update_message sends update_message to the users who received the
// message, with their flags, and, in a channel whose history is shared, to
// its other subscribers with the flag read; not to others.
func TestMoveTopic_eventRecipients(t *testing.T) {
	e := chatNew(t, newMsgClock().opt())
	id := msgSend(e, SeedMemberID, "general", "alpha", "Hello @**Maria Member**")
	e.srv.Do(func(r *Realm) { delete(r.message(id).Flags, SeedMember3ID) })
	received := msgEvents(e, SeedMember2ID, `["update_message"]`)
	joined := msgEvents(e, SeedMember3ID, `["update_message"]`)
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "beta"))
	if evs := received(); len(evs) != 1 || !reflect.DeepEqual(evs[0]["flags"], []any{"mentioned"}) {
		t.Errorf("a recipient: %v", evs)
	}
	if evs := joined(); len(evs) != 1 || !reflect.DeepEqual(evs[0]["flags"], []any{"read"}) {
		t.Errorf("a later subscriber: %v", evs)
	}
	e.srv.Do(func(r *Realm) {
		ch := r.Channels[SeedChannelGeneral]
		ch.HistoryPublicToSubscribers = false
		ch.InviteOnly = true
	})
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "gamma"))
	if evs := joined(); len(evs) != 1 { // the first move's event only
		t.Errorf("protected history, no row: %v", evs)
	}
}

// Before feature level 152 the notices were sent for channel moves only, so
// a topic move posts none.
func TestMoveTopic_noNoticesBefore152(t *testing.T) {
	e := chatNew(t, newMsgClock().opt(), chatLevel(151))
	ids := moveThree(e)
	e.chatOK(SeedMemberID, http.MethodPatch, msgPath(ids[0]), chatForm("topic", "beta", "propagate_mode", "change_all",
		"send_notification_to_old_thread", "true", "send_notification_to_new_thread", "true"))
	if last := moveLastMessage(e); last.ID != ids[2] || last.Topic != "beta" {
		t.Errorf("newest message: %+v", last)
	}
}

// The channel's can_move_messages_within_channel_group grants moves only from
// feature level 396, which added it.
func TestMoveTopic_channelPermissionLevel(t *testing.T) {
	for _, tc := range []struct {
		fl      int
		allowed bool
	}{{395, false}, {396, true}} {
		e := chatNew(t, newMsgClock().opt(), chatLevel(tc.fl))
		id := msgSend(e, SeedMemberID, "general", "alpha", "Hello")
		moveGroupSetting(e, "can_move_messages_between_topics_group", sysNobody)
		e.srv.Do(func(r *Realm) {
			r.Channels[SeedChannelGeneral].GroupSettings["can_move_messages_within_channel_group"] =
				GroupSetting{DirectMembers: []int{SeedMemberID}, DirectSubgroups: []int{}}
		})
		if tc.allowed {
			e.chatOK(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "beta"))
			continue
		}
		e.chatFail(SeedMemberID, http.MethodPatch, msgPath(id), chatForm("topic", "beta"), 400, "BAD_REQUEST",
			"You don't have permission to edit this message")
	}
}
