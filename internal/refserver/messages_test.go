package refserver

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// chatFlags returns a user's flags on a message (nil without a UserMessage row).
func chatFlags(e *chatEnv, msgID, user int) []string {
	var out []string
	e.srv.Do(func(r *Realm) {
		if m := r.message(msgID); m != nil {
			if f, ok := m.Flags[user]; ok {
				out = append([]string{}, f...)
			}
		}
	})
	return out
}

// POST /messages/flags answers with the request's `messages` list unchanged
// (update_message_flags in zerver/views/message_flags.py: "Useless, but
// included for backwards compatibility") and, since FL355,
// ignored_because_not_subscribed_channels on every call. The flags
// themselves change as do_update_message_flags changes them.
func TestChatMessageFlags(t *testing.T) {
	e := chatNew(t)
	const path = "/messages/flags"
	flags := func(user int, op, flag, ids string) map[string]any {
		return e.chatOK(user, http.MethodPost, path, chatForm("messages", ids, "op", op, "flag", flag))
	}
	// Starring, idempotently: a repeat answers the same, duplicates included.
	wantFlagsAnswer(t, e, SeedMemberID, "add", "starred", "[2,3]", "[2,3] []", "star")
	wantFlagsAnswer(t, e, SeedMemberID, "add", "starred", "[3,2,3]", "[3,2,3] []", "star again")
	if got := chatFlags(e, 3, SeedMemberID); !reflect.DeepEqual(got, []string{"starred"}) {
		t.Errorf("flags on 3: %v", got)
	}
	wantFlagsAnswer(t, e, SeedMemberID, "remove", "starred", "[3]", "[3] []", "unstar")
	if got := chatFlags(e, 3, SeedMemberID); len(got) != 0 {
		t.Errorf("flags on 3 after unstar: %v", got)
	}
	// Marking read; messages never received count as read already, even unknown ones.
	wantFlagsAnswer(t, e, SeedMemberID, "add", "read", "[1,3,4,999,6]", "[1,3,4,999,6] []", "read")
	if got := chatFlags(e, 4, SeedMemberID); !reflect.DeepEqual(got, []string{"read", "mentioned"}) {
		t.Errorf("flags on 4: %v", got)
	}
	if got := chatFlags(e, 6, SeedMemberID); got != nil {
		t.Errorf("a row was created for 6: %v", got)
	}
	// Collapsing works on any message with a row.
	wantFlagsAnswer(t, e, SeedBotID, "add", "collapsed", "[1]", "[1] []", "collapse")
	// Starring a public message never received creates a historical row.
	wantFlagsAnswer(t, e, SeedMember2ID, "add", "starred", "[5]", "[5] []", "historical star")
	if got := chatFlags(e, 5, SeedMember2ID); !reflect.DeepEqual(got, []string{"read", "starred", "historical"}) {
		t.Errorf("historical row: %v", got)
	}
	// Marking unread skips channels the user is not subscribed to, and says so.
	wantFlagsAnswer(t, e, SeedOwnerID, "remove", "read", "[1,10,11,5]", "[1,10,11,5] [7]", "unread")
	if got := chatFlags(e, 10, SeedOwnerID); got != nil {
		t.Errorf("unsubscribed message got a row: %v", got)
	}
	wantFlagsAnswer(t, e, SeedMember2ID, "remove", "read", "[5]", "[5] [2]", "unread unsubscribed")
	wantFlagsAnswer(t, e, SeedMemberID, "remove", "read", "[13]", "[13] []", "already unread")
	// An empty list is a valid request.
	wantFlagsAnswer(t, e, SeedMemberID, "add", "starred", "[]", "[] []", "empty")

	checkMessageFlagsRefused(t, e)
	// Every role, bots included, manages its own flags.
	for _, user := range []int{SeedOwnerID, SeedAdminID, SeedModeratorID, SeedMemberID, SeedGuestID, SeedBotID} {
		flags(user, "add", "starred", "[13]")
		if !slices.Contains(chatFlags(e, 13, user), "starred") {
			t.Errorf("user %d star: %v", user, chatFlags(e, 13, user))
		}
	}
	// A guest may star a message of a web-public channel it never received:
	// web-public content is open to every role (user_has_content_access).
	flags(SeedGuestID, "add", "starred", "[5]")
	if got := chatFlags(e, 5, SeedGuestID); !reflect.DeepEqual(got, []string{"read", "starred", "historical"}) {
		t.Errorf("guest, web-public: %v", got)
	}
}

// wantFlagsAnswer changes a flag and checks the answer: the request's messages list and
// the channels skipped as not subscribed, as JSON.
func wantFlagsAnswer(t *testing.T, e *chatEnv, user int, op, flag, ids, want, what string) {
	t.Helper()
	body := e.chatOK(user, http.MethodPost, "/messages/flags", chatForm("messages", ids, "op", op, "flag", flag))
	if got := chatJSON(body["messages"]) + " " + chatJSON(body["ignored_because_not_subscribed_channels"]); got != want {
		t.Errorf("%s: %s", what, got)
	}
}

// checkMessageFlagsRefused checks the flag changes Zulip refuses, and that only a missing
// parameter is named in var_name.
func checkMessageFlagsRefused(t *testing.T, e *chatEnv) {
	t.Helper()
	const path = "/messages/flags"
	for _, tc := range []struct {
		user               int
		form               []string
		status             int
		code, msg, varName string
	}{
		{SeedMemberID, []string{"messages", "[1]", "op", "add", "flag", "mentioned"}, 400, "BAD_REQUEST", "Flag not editable: 'mentioned'", ""},
		{SeedMemberID, []string{"messages", "[1]", "op", "add", "flag", "historical"}, 400, "BAD_REQUEST", "Flag not editable: 'historical'", ""},
		{SeedMemberID, []string{"messages", "[1]", "op", "remove", "flag", "has_alert_word"}, 400, "BAD_REQUEST", "Flag not editable: 'has_alert_word'", ""},
		{SeedMemberID, []string{"messages", "[1]", "op", "add", "flag", "wildcard_mentioned"}, 400, "BAD_REQUEST", "Invalid flag: 'wildcard_mentioned'", ""},
		{SeedMemberID, []string{"messages", "[1]", "op", "add", "flag", "is_private"}, 400, "BAD_REQUEST", "Invalid flag: 'is_private'", ""},
		{SeedMemberID, []string{"messages", "[1]", "op", "toggle", "flag", "read"}, 400, "BAD_REQUEST", "Invalid message flag operation: 'toggle'", ""},
		{SeedMemberID, []string{"messages", "[999]", "op", "add", "flag", "starred"}, 400, "BAD_REQUEST", "Invalid message(s)", ""},
		{SeedMemberID, []string{"messages", "[6]", "op", "add", "flag", "starred"}, 400, "BAD_REQUEST", "Invalid message(s)", ""},
		{SeedMemberID, []string{"messages", "[8]", "op", "add", "flag", "starred"}, 400, "BAD_REQUEST", "Invalid message(s)", ""},
		{SeedGuestID, []string{"messages", "[9]", "op", "add", "flag", "starred"}, 400, "BAD_REQUEST", "Invalid message(s)", ""},
		{SeedMemberID, []string{"messages", "[999]", "op", "remove", "flag", "read"}, 400, "BAD_REQUEST", "Invalid message(s)", ""},
		{SeedMemberID, []string{"op", "add", "flag", "read"}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'messages' argument", "messages"},
		{SeedMemberID, []string{"messages", "[1]", "flag", "read"}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'op' argument", "op"},
		{SeedMemberID, []string{"messages", "[1]", "op", "add"}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'flag' argument", "flag"},
		{SeedMemberID, []string{"messages", "[1,", "op", "add", "flag", "read"}, 400, "BAD_REQUEST", "messages is not valid JSON", ""},
		{SeedMemberID, []string{"messages", "5", "op", "add", "flag", "read"}, 400, "BAD_REQUEST", "messages is not a list", ""},
		{SeedMemberID, []string{"messages", `[1,"2"]`, "op", "add", "flag", "read"}, 400, "BAD_REQUEST", "messages[1] is not an integer", ""},
	} {
		body := e.chatFail(tc.user, http.MethodPost, path, chatForm(tc.form...), tc.status, tc.code, tc.msg)
		// Only a missing parameter names it in var_name; typed_endpoint's
		// validation errors (ApiParamValidationError) carry none.
		var want any
		if tc.varName != "" {
			want = tc.varName
		}
		if body["var_name"] != want {
			t.Errorf("%v: var_name %v", tc.form, body["var_name"])
		}
	}
}

// Before FL355 neither flag endpoint has ignored_because_not_subscribed_channels.
func TestChatMessageFlagsFeatureLevel(t *testing.T) {
	e := chatNew(t, chatLevel(354))
	body := e.chatOK(SeedOwnerID, http.MethodPost, "/messages/flags", chatForm("messages", "[1,10]", "op", "remove", "flag", "read"))
	if _, ok := body["ignored_because_not_subscribed_channels"]; ok || chatJSON(body["messages"]) != "[1,10]" {
		t.Errorf("FL354: %v", body)
	}
	body = e.chatOK(SeedOwnerID, http.MethodPost, "/messages/flags/narrow", chatForm("anchor", "oldest", "num_before", "0", "num_after", "5",
		"narrow", "[]", "op", "remove", "flag", "read"))
	if _, ok := body["ignored_because_not_subscribed_channels"]; ok {
		t.Errorf("FL354 narrow: %v", body)
	}
}

func TestChatMessageFlagsForNarrow(t *testing.T) {
	e := chatNew(t)
	const path = "/messages/flags/narrow"
	run := func(user int, kv ...string) map[string]any {
		return e.chatOK(user, http.MethodPost, path, chatForm(kv...))
	}
	body := run(SeedMemberID, "anchor", "newest", "num_before", "10", "num_after", "0",
		"narrow", `[{"operator":"channel","operand":"general"}]`, "op", "add", "flag", "read")
	// ignored_because_not_subscribed_channels is in every answer since FL355
	// (update_message_flags_for_narrow in zerver/views/message_flags.py).
	want := map[string]any{"processed_count": 5.0, "updated_count": 3.0, "first_processed_id": 1.0, "last_processed_id": 13.0,
		"found_oldest": true, "found_newest": true, "ignored_because_not_subscribed_channels": []any{}}
	for k, v := range want {
		if !reflect.DeepEqual(body[k], v) {
			t.Errorf("%s = %v, want %v (%v)", k, body[k], v, body)
		}
	}
	// A range around an anchor: one before, the anchor, one after.
	body = run(SeedOwnerID, "anchor", "3", "num_before", "1", "num_after", "1", "narrow", `[["channel","general"]]`, "op", "add", "flag", "starred")
	if body["first_processed_id"] != 2.0 || body["last_processed_id"] != 4.0 || body["processed_count"] != 3.0 ||
		body["found_oldest"] != false || body["found_newest"] != false {
		t.Errorf("range: %v", body)
	}
	// first_unread anchors on the first unread message of the narrow.
	body = run(SeedMember2ID, "anchor", "first_unread", "num_before", "0", "num_after", "2", "narrow", `[]`, "op", "add", "flag", "read")
	if body["first_processed_id"] != 1.0 || body["last_processed_id"] != 3.0 || body["updated_count"] != 3.0 {
		t.Errorf("first_unread: %v", body)
	}
	// Marking unread reports the unsubscribed channels skipped.
	body = run(SeedOwnerID, "anchor", "oldest", "num_before", "0", "num_after", "100",
		"narrow", `[{"operator":"channel","operand":"random"}]`, "op", "remove", "flag", "read")
	if body["updated_count"] != 0.0 || chatJSON(body["ignored_because_not_subscribed_channels"]) != "[7]" || body["processed_count"] != 3.0 {
		t.Errorf("unread: %v", body)
	}
	base := []string{"num_before", "1", "num_after", "1", "narrow", "[]", "op", "add", "flag", "read"}
	e.chatFail(SeedMemberID, http.MethodPost, path, chatForm(append([]string{"anchor", "soon"}, base...)...), 400, "BAD_REQUEST", "Invalid anchor")
	e.chatFail(SeedMemberID, http.MethodPost, path, chatForm(append([]string{"anchor", "1", "include_anchor", "false"}, base...)...),
		400, "BAD_REQUEST", "The anchor can only be excluded at an end of the range")
	e.chatFail(SeedMemberID, http.MethodPost, path, chatForm(base...), 400, "REQUEST_VARIABLE_MISSING", "Missing 'anchor' argument")
	e.chatFail(SeedMemberID, http.MethodPost, path, chatForm("anchor", "newest", "num_before", "-1", "num_after", "0", "narrow", "[]", "op", "add", "flag", "read"),
		400, "BAD_REQUEST", "num_before is too small")
	e.chatFail(SeedMemberID, http.MethodPost, path, chatForm("anchor", "newest", "num_before", "1", "num_after", "0", "narrow", `[["foo","bar"]]`, "op", "add", "flag", "read"),
		400, "BAD_NARROW", "Invalid narrow operator: unknown operator foo")
	e.chatFail(SeedMemberID, http.MethodPost, path, chatForm("anchor", "newest", "num_before", "1", "num_after", "0", "narrow", "[]", "op", "add", "flag", "mentioned"),
		400, "BAD_REQUEST", "Flag not editable: 'mentioned'")
}

func TestChatMatchesNarrow(t *testing.T) {
	e := chatNew(t)
	const path = "/messages/matches_narrow"
	match := func(user int, ids, narrow string) map[string]any {
		t.Helper()
		return e.chatOK(user, http.MethodGet, path, chatForm("msg_ids", ids, "narrow", narrow))["messages"].(map[string]any)
	}
	keys := func(m map[string]any) string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return strings.Join(ks, ",")
	}
	const general = "[1,2,3,4,13]"
	for _, tc := range []struct {
		name, ids, narrow, want string
		user                    int
	}{
		{"topic", general, `[{"operator":"topic","operand":"RELEASES"}]`, "13,4", SeedMemberID},
		{"legacy pairs", general, `[["channel","general"],["sender","aaron@zulip.example.com"]]`, "4", SeedMemberID},
		{"channel and sender by id", "[1,3,10,13,14]", `[{"operator":"channel","operand":1},{"operator":"sender","operand":11}]`, "13,3", SeedMemberID},
		{"stream alias", "[1,5,10]", `[{"operator":"stream","operand":"announce"}]`, "5", SeedMemberID},
		{"negated", general, `[{"operator":"topic","operand":"welcome","negated":true}]`, "13,3,4", SeedMemberID},
		{"is:starred", general, `[{"operator":"is","operand":"starred"}]`, "1", SeedMemberID},
		{"is:unread", general, `[{"operator":"is","operand":"unread"}]`, "13,3,4", SeedMemberID},
		{"is:mentioned", general, `[{"operator":"is","operand":"mentioned"}]`, "4", SeedMemberID},
		{"is:mentioned for another user", "[10,11]", `[{"operator":"is","operand":"mentioned"}]`, "11", SeedMember2ID},
		{"channels:public", "[1,5,6,8,10]", `[{"operator":"channels","operand":"public"}]`, "1,5", SeedOwnerID},
		{"channels:web-public", "[1,5]", `[{"operator":"channels","operand":"web-public"}]`, "5", SeedOwnerID},
		{"search with stemming", general, `[{"operator":"search","operand":"release"}]`, "13,4", SeedMemberID},
		{"search, all words", general, `[{"operator":"search","operand":"release deploy"}]`, "4", SeedMemberID},
		{"search phrase", general, `[{"operator":"search","operand":"\"notes are\""}]`, "13", SeedMemberID},
		{"search stop words only", general, `[{"operator":"search","operand":"the"}]`, "", SeedMemberID},
		{"has:link", general, `[{"operator":"has","operand":"link"}]`, "", SeedMemberID},
		{"id", general, `[{"operator":"id","operand":3}]`, "3", SeedMemberID},
		{"near is ignored", general, `[{"operator":"near","operand":"3"},{"operator":"topic","operand":"lunch"}]`, "3", SeedMemberID},
		{"in:home", "[1,2]", `[{"operator":"in","operand":"home"}]`, "1,2", SeedMemberID},
		{"empty narrow", "[1,2]", `[]`, "1,2", SeedMemberID},
		{"only received messages", "[5,6,7,8,12]", `[]`, "12,5", SeedMemberID},
		{"guest", "[1,5,10]", `[]`, "1,10", SeedGuestID},
		{"bot", "[1,5]", `[]`, "1", SeedBotID},
		{"empty topic", "[11,14]", `[{"operator":"topic","operand":""}]`, "14", SeedMember2ID},
		{"dm narrow matches no channel message", general, `[{"operator":"is","operand":"dm"}]`, "", SeedMemberID},
		// is:followed (NarrowBuilder.by_is, get_followed_topic_condition_sa):
		// Mark follows general > releases.
		{"is:followed", general, `[{"operator":"is","operand":"followed"}]`, "13,4", SeedMemberID},
		{"is:followed, negated", general, `[{"operator":"is","operand":"followed","negated":true}]`, "1,2,3", SeedMemberID},
		{"is:followed, nothing followed", general, `[{"operator":"is","operand":"followed"}]`, "", SeedOwnerID},
		// with (update_narrow_terms_containing_with_operator): the narrow
		// becomes the message's conversation, other terms kept.
		{"with", general, `[{"operator":"with","operand":4}]`, "13,4", SeedMemberID},
		{"with as a string", general, `[{"operator":"with","operand":"3"}]`, "3", SeedMemberID},
		{"with replaces channel and topic", general, `[["channel","random"],["topic","cats"],{"operator":"with","operand":3}]`, "3", SeedMemberID},
		{"with keeps other terms", general, `[{"operator":"with","operand":13},{"operator":"sender","operand":11}]`, "13", SeedMemberID},
		{"with an inaccessible message, conversation given", general, `[["channel","general"],["topic","lunch"],{"operator":"with","operand":8}]`, "3", SeedMemberID},
		{"with an unknown message, conversation given", general, `[["channel","general"],["topic","welcome"],{"operator":"with","operand":999}]`, "1,2", SeedMemberID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			if got := keys(match(tc.user, tc.ids, tc.narrow)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	e.t = t
	checkMatchFields(t, e, match)
	checkMatchNarrowRefused(t, e)
}

// checkMatchFields checks the fields of a match: the highlighted search terms, the plain
// content and subject, and a subject escaped as HTML.
func checkMatchFields(t *testing.T, e *chatEnv, match func(user int, ids, narrow string) map[string]any) {
	t.Helper()
	const general = "[1,2,3,4,13]"
	got := match(SeedMemberID, general, `[{"operator":"search","operand":"release"}]`)
	m4 := got["4"].(map[string]any)
	if m4["match_content"] != `<p><span class="highlight">Release</span> 1.0 is out. <span class="user-mention" data-user-id="5">@Mark Member</span> please check the deploy.</p>` ||
		m4["match_subject"] != `<span class="highlight">releases</span>` {
		t.Errorf("search fields: %v", m4)
	}
	got = match(SeedMemberID, general, `[["topic","lunch"]]`)
	if chatJSON(got) != `{"3":{"match_content":"<p>Pizza on Friday?</p>","match_subject":"lunch"}}` {
		t.Errorf("plain fields: %s", chatJSON(got))
	}
	e.srv.Do(func(r *Realm) {
		m := e.srv.postChannelMessage(r.Channels[SeedChannelGeneral], "<b>tags</b> & more", SeedOwnerID, "See https://zulip.com")
		m.Flags[SeedMemberID] = []string{}
	})
	got = match(SeedMemberID, "[15]", `[["has","link"]]`)
	if chatJSON(got) != `{"15":{"match_content":"<p>See <a href=\"https://zulip.com\">https://zulip.com</a></p>","match_subject":"&lt;b&gt;tags&lt;/b&gt; &amp; more"}}` {
		t.Errorf("escaped subject: %s", chatJSON(got))
	}

}

// checkMatchNarrowRefused checks the narrows and parameters Zulip refuses, with the
// description of a bad narrow.
func checkMatchNarrowRefused(t *testing.T, e *chatEnv) {
	t.Helper()
	const path = "/messages/matches_narrow"
	for _, tc := range []struct {
		narrow, code, msg, desc string
	}{
		{`[{"operator":"foo","operand":"x"}]`, "BAD_NARROW", "Invalid narrow operator: unknown operator foo", "unknown operator foo"},
		{`[["channel","nope"]]`, "BAD_NARROW", "Invalid narrow operator: unknown channel nope", "unknown channel nope"},
		{`[{"operator":"channel","operand":99}]`, "BAD_NARROW", "Invalid narrow operator: unknown channel 99", "unknown channel 99"},
		{`[["sender","nobody@example.com"]]`, "BAD_NARROW", "Invalid narrow operator: unknown user nobody@example.com", "unknown user nobody@example.com"},
		{`[["is","sleepy"]]`, "BAD_NARROW", "Invalid narrow operator: unknown 'is' operand sleepy", "unknown 'is' operand sleepy"},
		{`[["has","cake"]]`, "BAD_NARROW", "Invalid narrow operator: unknown 'has' operand cake", "unknown 'has' operand cake"},
		{`[["in","space"]]`, "BAD_NARROW", "Invalid narrow operator: unknown 'in' operand space", "unknown 'in' operand space"},
		{`[["channels","all"]]`, "BAD_NARROW", "Invalid narrow operator: unknown channels operand all", "unknown channels operand all"},
		{`[["id","abc"]]`, "BAD_NARROW", "Invalid narrow operator: Invalid message ID", "Invalid message ID"},
		{`[{"operator":"dm","operand":[999]}]`, "BAD_NARROW", "Invalid narrow operator: unknown user in [999]", "unknown user in [999]"},
		{`[["channel","general"],["is","dm"]]`, "BAD_NARROW", "Invalid narrow operator: No message can be both a channel message and direct message",
			"No message can be both a channel message and direct message"},
		{`[[1,2]]`, "BAD_REQUEST", "Invalid narrow[0]: Value error, element is not a string pair", ""},
		{`[["a","b","c"]]`, "BAD_REQUEST", "Invalid narrow[0]: Value error, element is not a string pair", ""},
		{`[{"operator":"topic"}]`, "BAD_REQUEST", "Invalid narrow[0]: Value error, operand is missing", ""},
		{`[["topic","x"],{"operand":"x"}]`, "BAD_REQUEST", "Invalid narrow[1]: Value error, operator is missing", ""},
		{`["topic"]`, "BAD_REQUEST", "Invalid narrow[0]: Value error, dict or list required", ""},
		{`[{"operator":"with","operand":8}]`, "BAD_NARROW", "Invalid narrow operator: Invalid 'with' operator", "Invalid 'with' operator"},
		{`[["channel","general"],{"operator":"with","operand":999}]`, "BAD_NARROW", "Invalid narrow operator: Invalid 'with' operator", "Invalid 'with' operator"},
		{`[{"operator":"with","operand":"abc"}]`, "BAD_NARROW", "Invalid narrow operator: Invalid 'with' operator", "Invalid 'with' operator"},
		{`[{"operator":"with","operand":1},{"operator":"with","operand":2}]`, "BAD_NARROW",
			"Invalid narrow operator combination: Duplicate 'with' operators.", "Duplicate 'with' operators."},
		{`[{"operator":"with","operand":[1]}]`, "BAD_REQUEST", "operand is not a string or an integer", ""},
		{`[["is","followed"],["is","sleepy"]]`, "BAD_NARROW", "Invalid narrow operator: unknown 'is' operand sleepy", "unknown 'is' operand sleepy"},
		{`[{"operator":"topic","operand":5}]`, "BAD_REQUEST", "operand is not a string", ""},
		{`[{"operator":"sender","operand":[5]}]`, "BAD_REQUEST", "operand is not a string or an integer", ""},
		{`[{"operator":"search","operand":"  "}]`, "BAD_REQUEST", "operand cannot be blank.", ""},
		{`[{"operator":"topic","operand":"x","negated":"no"}]`, "BAD_REQUEST", "negated is not a boolean", ""},
		{`{"operator":"topic"}`, "BAD_REQUEST", "narrow is not a list", ""},
		{`[`, "BAD_REQUEST", "narrow is not valid JSON", ""},
	} {
		body := e.chatFail(SeedMemberID, http.MethodGet, path, chatForm("msg_ids", "[1]", "narrow", tc.narrow), 400, tc.code, tc.msg)
		if tc.desc != "" && body["desc"] != tc.desc {
			t.Errorf("%s: desc %v", tc.narrow, body["desc"])
		}
	}
	e.chatFail(SeedMemberID, http.MethodGet, path, chatForm("narrow", "[]"), 400, "REQUEST_VARIABLE_MISSING", "Missing 'msg_ids' argument")
	e.chatFail(SeedMemberID, http.MethodGet, path, chatForm("msg_ids", "[1]"), 400, "REQUEST_VARIABLE_MISSING", "Missing 'narrow' argument")
	e.chatFail(SeedMemberID, http.MethodGet, path, chatForm("msg_ids", `["a"]`, "narrow", "[]"), 400, "BAD_REQUEST", "msg_ids[0] is not an integer")
}

func TestChatReportMessage(t *testing.T) {
	e := chatNew(t)
	report := func(user, msg int, kv ...string) map[string]any {
		return e.chatOK(user, http.MethodPost, "/messages/"+chatItoa(msg)+"/report", chatForm(kv...))
	}
	report(SeedMemberID, 10, "report_type", "spam")
	var posted *Message
	e.srv.Do(func(r *Realm) { posted = r.Messages[len(r.Messages)-1] })
	if posted.ID != 15 || posted.ChannelID != SeedChannelModReqs || posted.Topic != "Maria Member's moderation requests" || posted.SenderID != notificationBotID {
		t.Fatalf("posted: %+v", posted)
	}
	wantContent := "@_**Mark Member|5** reported #**random>cats@10** sent by @_**Maria Member|6**.\n" +
		"- Reason: **spam**\n- Notes:\n```quote\n\n```\n" +
		"``` spoiler **Message sent by @_**Maria Member|6****\nLook at this cat picture.\n```\n"
	if posted.Content != wantContent {
		t.Errorf("content:\n%s\nwant:\n%s", posted.Content, wantContent)
	}
	var subs []int
	for uid, f := range posted.Flags {
		subs = append(subs, uid)
		if len(f) != 0 {
			t.Errorf("flags for %d: %v", uid, f)
		}
	}
	sort.Ints(subs)
	if !reflect.DeepEqual(subs, []int{SeedOwnerID, SeedAdminID, SeedModeratorID}) {
		t.Errorf("delivered to %v", subs)
	}
	// The moderators can read the report's topic.
	body := e.chatOK(SeedModeratorID, http.MethodGet, "/users/me/6/topics", nil)
	if chatJSON(body["topics"]) != `[{"max_id":15,"name":"Maria Member's moderation requests"}]` {
		t.Errorf("topics: %v", body["topics"])
	}

	// Other report types; a description of exactly 1000 code points; guests and bots.
	report(SeedGuestID, 11, "report_type", "other", "description", strings.Repeat("ü", 1000))
	report(SeedBotID, 1, "report_type", "harassment", "description", "Rude.")
	report(SeedOwnerID, 8, "report_type", "norms")
	report(SeedMember2ID, 5, "report_type", "inappropriate") // public history, never received
	e.srv.Do(func(r *Realm) {
		if n := len(r.Messages); n != 19 {
			t.Errorf("%d messages after five reports", n)
		}
		if m := r.Messages[16]; m.Topic != "Olivia Owner's moderation requests" || !strings.Contains(m.Content, "- Reason: **harassment**\n- Notes:\n```quote\nRude.\n```") {
			t.Errorf("bot report: %+v", m)
		}
	})

	const bad = "Invalid message(s)"
	for _, tc := range []struct {
		user, msg     int
		form          []string
		code, wantMsg string
	}{
		{SeedMemberID, 10, []string{"report_type", "other"}, "BAD_REQUEST", "An explanation is required."},
		{SeedMemberID, 10, []string{"report_type", "other", "description", ""}, "BAD_REQUEST", "An explanation is required."},
		{SeedMemberID, 10, []string{"report_type", "rude"}, "BAD_REQUEST", "Invalid report_type: Value error, Not in the list of possible values"},
		{SeedMemberID, 10, []string{"report_type", "spam", "description", strings.Repeat("x", 1001)}, "BAD_REQUEST", "description is too long (limit: 1000 characters)"},
		{SeedMemberID, 10, nil, "REQUEST_VARIABLE_MISSING", "Missing 'report_type' argument"},
		{SeedMemberID, 8, []string{"report_type", "spam"}, "BAD_REQUEST", bad},
		{SeedMemberID, 6, []string{"report_type", "spam"}, "BAD_REQUEST", bad},
		{SeedMemberID, 999, []string{"report_type", "spam"}, "BAD_REQUEST", bad},
		{SeedGuestID, 9, []string{"report_type", "spam"}, "BAD_REQUEST", bad}, // public, not web-public
		{SeedAdmin2ID, 6, []string{"report_type", "spam"}, "BAD_REQUEST", bad},
	} {
		e.chatFail(tc.user, http.MethodPost, "/messages/"+chatItoa(tc.msg)+"/report", chatForm(tc.form...), 400, tc.code, tc.wantMsg)
	}
	e.srv.Do(func(r *Realm) { r.ModerationRequestChannelID = -1 })
	e.chatFail(SeedMemberID, http.MethodPost, "/messages/10/report", chatForm("report_type", "spam"), 400, "BAD_REQUEST",
		"Message reporting is not enabled in this organization.")
	// The explanation is checked first, as in Zulip.
	e.chatFail(SeedMemberID, http.MethodPost, "/messages/10/report", chatForm("report_type", "other"), 400, "BAD_REQUEST", "An explanation is required.")
}

func TestChatReportFence(t *testing.T) {
	e := chatNew(t)
	e.srv.Do(func(r *Realm) {
		e.srv.postChannelMessage(r.Channels[SeedChannelGeneral], "code", SeedMemberID, "```\nx\n```")
	})
	e.chatOK(SeedOwnerID, http.MethodPost, "/messages/15/report", chatForm("report_type", "spam"))
	e.srv.Do(func(r *Realm) {
		if c := r.Messages[len(r.Messages)-1].Content; !strings.HasSuffix(c, "```` spoiler **Message sent by @_**Mark Member|5****\n```\nx\n```\n````\n") {
			t.Errorf("fence: %q", c)
		}
	})
}

// chatMessageIDs lists the ids of GET /messages' messages.
func chatMessageIDs(body map[string]any) string {
	var ids []string
	for _, m := range body["messages"].([]any) {
		ids = append(ids, chatJSON(m.(map[string]any)["id"]))
	}
	return strings.Join(ids, ",")
}

// GET /messages follows get_messages_backend (zerver/views/message_fetch.py)
// and fetch_messages, limit_query_to_range and post_process_limited_query
// (zerver/lib/narrow.py).
func TestChatGetMessages(t *testing.T) {
	e := chatNew(t)
	get := func(user int, kv ...string) map[string]any {
		t.Helper()
		return e.chatOK(user, http.MethodGet, "/messages", chatForm(kv...))
	}
	const general = `[{"operator":"channel","operand":"general"}]`
	for _, tc := range []struct {
		name   string
		user   int
		form   []string
		ids    string
		anchor float64
		found  string // found_anchor, found_oldest, found_newest
	}{
		{"newest", SeedMemberID, []string{"anchor", "newest", "num_before", "3", "narrow", general}, "3,4,13", largerThanMaxMessageID, "false false true"},
		{"newest, everything", SeedMemberID, []string{"anchor", "newest", "num_before", "100", "narrow", general}, "1,2,3,4,13", largerThanMaxMessageID, "false true true"},
		{"oldest", SeedMemberID, []string{"anchor", "oldest", "num_after", "2", "narrow", general}, "1,2", 0, "false true false"},
		{"around an id", SeedMemberID, []string{"anchor", "3", "num_before", "1", "num_after", "1", "narrow", general}, "2,3,4", 3, "true false false"},
		{"anchor excluded at the end", SeedMemberID, []string{"anchor", "3", "include_anchor", "false", "num_after", "2", "narrow", general}, "4,13", 3, "false false false"},
		{"anchor excluded at the start", SeedMemberID, []string{"anchor", "4", "include_anchor", "false", "num_before", "5", "narrow", general}, "1,2,3", 4, "false true false"},
		{"anchor not in the narrow", SeedMemberID, []string{"anchor", "5", "num_before", "1", "num_after", "1", "narrow", general}, "4,13", 5, "false false false"},
		{"just the anchor", SeedMemberID, []string{"anchor", "13", "narrow", general}, "13", 13, "true false false"},
		{"first unread", SeedMemberID, []string{"anchor", "first_unread", "num_after", "1", "narrow", general}, "3,4", 3, "true false false"},
		{"legacy use_first_unread_anchor", SeedMemberID, []string{"use_first_unread_anchor", "true", "narrow", general}, "3", 3, "true false false"},
		// The owner muted general > lunch: the first unread skips it.
		{"first unread skips muted topics", SeedOwnerID, []string{"anchor", "first_unread", "narrow", general}, "4", 4, "true false false"},
		{"nothing unread", SeedOwnerID, []string{"anchor", "first_unread", "num_before", "1", "narrow", `[["channel","announce"]]`}, "5", largerThanMaxMessageID, "false false true"},
		{"negative anchor is the oldest", SeedMemberID, []string{"anchor", "-5", "num_after", "1", "narrow", general}, "1", 0, "false true false"},
		{"huge anchor is the newest", SeedMemberID, []string{"anchor", "99999999999999999999", "num_before", "1", "narrow", general}, "13", largerThanMaxMessageID, "false false true"},
		// Without a narrow: only messages the user received.
		{"no narrow", SeedGuestID, []string{"anchor", "newest", "num_before", "100"}, "1,2,3,4,10,11,13,14", largerThanMaxMessageID, "false true true"},
		// A web-public channel's history is open to guests.
		{"guest, web-public channel", SeedGuestID, []string{"anchor", "newest", "num_before", "10", "narrow", `[["channel","announce"]]`}, "5", largerThanMaxMessageID, "false true true"},
		{"guest, public channel", SeedGuestID, []string{"anchor", "newest", "num_before", "10", "narrow", `[["channel","old-projects"]]`}, "", largerThanMaxMessageID, "false true true"},
		// Protected history: only what Mark received.
		{"protected history", SeedMemberID, []string{"anchor", "oldest", "num_after", "10", "narrow", `[["channel","design"]]`}, "12", 0, "false true true"},
		{"with", SeedMemberID, []string{"anchor", "newest", "num_before", "10", "narrow", `[{"operator":"with","operand":4}]`}, "4,13", largerThanMaxMessageID, "false true true"},
		{"is:followed", SeedMemberID, []string{"anchor", "newest", "num_before", "10", "narrow", `[["is","followed"]]`}, "4,13", largerThanMaxMessageID, "false true true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			body := get(tc.user, tc.form...)
			if got := chatMessageIDs(body); got != tc.ids {
				t.Errorf("ids %s, want %s", got, tc.ids)
			}
			if body["anchor"] != tc.anchor {
				t.Errorf("anchor %v, want %v", body["anchor"], tc.anchor)
			}
			if got := chatJSON(body["found_anchor"]) + " " + chatJSON(body["found_oldest"]) + " " + chatJSON(body["found_newest"]); got != tc.found {
				t.Errorf("found %s, want %s", got, tc.found)
			}
			if body["history_limited"] != false {
				t.Errorf("history_limited %v", body["history_limited"])
			}
		})
	}
	e.t = t

	checkGetMessageObjects(t, e, get)
	checkGetMessagesByID(t, e, get)
	// Before FL300 message_ids is unknown: an anchor is required.
	old := chatNew(t, chatLevel(299))
	old.chatFail(SeedMemberID, http.MethodGet, "/messages", chatForm("message_ids", "[1]"), 400, "BAD_REQUEST", "Missing 'anchor' argument.")

	for _, tc := range []struct {
		form      []string
		code, msg string
	}{
		{[]string{"num_before", "1"}, "BAD_REQUEST", "Missing 'anchor' argument."},
		{[]string{"anchor", "soon"}, "BAD_REQUEST", "Invalid anchor"},
		{[]string{"anchor", "newest", "num_before", "-1"}, "BAD_REQUEST", "num_before is too small"},
		{[]string{"anchor", "newest", "num_before", "4000", "num_after", "1001"}, "BAD_REQUEST", "Too many messages requested (maximum 5000)."},
		{[]string{"anchor", "3", "num_before", "1", "num_after", "1", "include_anchor", "false"}, "BAD_REQUEST", "The anchor can only be excluded at an end of the range"},
		{[]string{"anchor", "newest", "narrow", `[["channel","nope"]]`}, "BAD_NARROW", "Invalid narrow operator: unknown channel nope"},
		{[]string{"anchor", "newest", "narrow", `[`}, "BAD_REQUEST", "narrow is not valid JSON"},
		{[]string{"anchor", "newest", "num_after", "x"}, "BAD_REQUEST", "num_after is not valid JSON"},
	} {
		e.chatFail(SeedMemberID, http.MethodGet, "/messages", chatForm(tc.form...), 400, tc.code, tc.msg)
	}
}

// checkGetMessageObjects checks the message objects GET /messages returns: every key,
// the avatar, raw Markdown, historical flags, the empty topic, search highlights,
// topic links and the parameters not modelled.
func checkGetMessageObjects(t *testing.T, e *chatEnv, get func(user int, kv ...string) map[string]any) {
	t.Helper()
	// The message objects.
	body := get(SeedMemberID, "anchor", "4", "narrow", `[{"operator":"channel","operand":"general"}]`)
	m := body["messages"].([]any)[0].(map[string]any)
	want := `{"avatar_url":null,` +
		`"client":"website","content":"<p>Release 1.0 is out. <span class=\"user-mention\" data-user-id=\"5\">@Mark Member</span> please check the deploy.</p>",` +
		`"content_type":"text/html","display_recipient":"general","flags":["mentioned"],"id":4,"is_me_message":false,"reactions":[],` +
		`"recipient_id":100001,"sender_email":"aaron@zulip.example.com","sender_full_name":"Aaron Admin","sender_id":2,"sender_realm_str":"zulip",` +
		`"stream_id":1,"subject":"releases","submessages":[],"timestamp":` + chatJSON(m["timestamp"]) + `,"topic_links":[],"type":"stream"}`
	if got := chatJSON(m); got != want {
		t.Errorf("message:\n got %s\nwant %s", got, want)
	}
	// client_gravatar=false: the server computes the Gravatar URL.
	m = get(SeedMemberID, "anchor", "4", "client_gravatar", "false")["messages"].([]any)[0].(map[string]any)
	if m["avatar_url"] != "https://secure.gravatar.com/avatar/"+chatGravatar("aaron@zulip.example.com")+"?d=identicon&version=1" {
		t.Errorf("avatar_url: %v", m["avatar_url"])
	}
	// Raw Markdown; a message never received; the empty topic.
	m = get(SeedMember2ID, "anchor", "5", "apply_markdown", "false", "narrow", `[["channel","announce"]]`)["messages"].([]any)[0].(map[string]any)
	if m["content"] != "Our new office opens in March." || m["content_type"] != "text/x-markdown" || chatJSON(m["flags"]) != `["read","historical"]` {
		t.Errorf("raw, historical: %v", m)
	}
	m = get(SeedGuestID, "anchor", "14")["messages"].([]any)[0].(map[string]any)
	if m["subject"] != "general chat" {
		t.Errorf("empty topic: %v", m["subject"])
	}
	m = get(SeedGuestID, "anchor", "14", "allow_empty_topic_name", "true")["messages"].([]any)[0].(map[string]any)
	if m["subject"] != "" {
		t.Errorf("empty topic allowed: %v", m["subject"])
	}
	// Search adds the highlighted fields.
	m = get(SeedMemberID, "anchor", "newest", "num_before", "1", "narrow", `[["search","release"]]`)["messages"].([]any)[0].(map[string]any)
	if m["id"] != 13.0 || m["match_subject"] != `<span class="highlight">releases</span>` ||
		m["match_content"] != `<p><span class="highlight">Release</span> notes are in the wiki.</p>` {
		t.Errorf("search: %v", m)
	}
	// Topic links come from the realm's linkifiers.
	e.srv.Do(func(r *Realm) {
		e.srv.postChannelMessage(r.Channels[SeedChannelGeneral], "#12 and #7", SeedOwnerID, "Bugs.")
	})
	m = get(SeedMemberID, "anchor", "newest", "num_before", "1")["messages"].([]any)[0].(map[string]any)
	if got := chatJSON(m["topic_links"]); got != `[{"text":"#12","url":"https://github.com/zulip/zulip/issues/12"},{"text":"#7","url":"https://github.com/zulip/zulip/issues/7"}]` {
		t.Errorf("topic_links: %s", got)
	}
	// Parameters this server does not model are reported.
	body = get(SeedMemberID, "anchor", "newest", "anchor_date", "2025-01-01", "client_gravatar", "false")
	if chatJSON(body["ignored_parameters_unsupported"]) != `["anchor_date"]` {
		t.Errorf("ignored: %v", body["ignored_parameters_unsupported"])
	}
}

// checkGetMessagesByID checks fetching by message_ids: the accessible ones among them,
// no anchor, and no anchor parameters beside them.
func checkGetMessagesByID(t *testing.T, e *chatEnv, get func(user int, kv ...string) map[string]any) {
	t.Helper()
	// message_ids (FL300): the accessible ones among them, no anchor.
	body := get(SeedMemberID, "message_ids", "[13,6,1,999,5]")
	if chatMessageIDs(body) != "1,5,13" || body["found_anchor"] != false || body["found_oldest"] != false || body["found_newest"] != false {
		t.Errorf("message_ids: %v", body)
	}
	if _, ok := body["anchor"]; ok {
		t.Errorf("anchor with message_ids: %v", body["anchor"])
	}
	body = get(SeedMemberID, "message_ids", "[1,4,13]", "narrow", `[["is","followed"]]`)
	if chatMessageIDs(body) != "4,13" {
		t.Errorf("message_ids with a narrow: %v", chatMessageIDs(body))
	}
	body = e.chatFail(SeedMemberID, http.MethodGet, "/messages", chatForm("message_ids", "[1]", "anchor", "newest"), 400, "BAD_REQUEST",
		"Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor")
	if body["parameters"] != "num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor" {
		t.Errorf("parameters: %v", body["parameters"])
	}
}

// chatGravatar is the MD5 of an address, as in Gravatar URLs.
func chatGravatar(email string) string {
	sum := md5.Sum([]byte(email))
	return hex.EncodeToString(sum[:])
}

// limitMessageRange follows limit_query_to_range and
// post_process_limited_query (zerver/lib/narrow.py) on the edge cases.
func TestLimitMessageRange(t *testing.T) {
	ids := []int{2, 4, 6, 8, 10}
	for _, tc := range []struct {
		anchor              int
		include             bool
		before, after       int
		want                string
		anchorF, old, newer bool
	}{
		{6, true, 1, 1, "[4,6,8]", true, false, false},
		{6, true, 0, 0, "[6]", true, false, false},
		{6, false, 0, 0, "[6]", true, false, false}, // an id search ignores include_anchor
		{5, true, 1, 1, "[4,6]", false, false, false},
		{5, true, 2, 0, "[2,4]", false, false, false},
		{6, false, 2, 0, "[2,4]", false, false, false},
		{6, true, 2, 0, "[2,4,6]", true, false, false},
		{6, false, 0, 5, "[8,10]", false, false, true},
		{0, true, 3, 2, "[2,4]", false, true, false},
		{largerThanMaxMessageID, true, 2, 3, "[8,10]", false, false, true},
		{largerThanMaxMessageID, true, 9, 0, "[2,4,6,8,10]", false, true, true},
		{11, true, 0, 3, "[]", false, false, true},
		{1, true, 3, 0, "[]", false, true, false},
	} {
		r := limitMessageRange(ids, tc.anchor, tc.include, tc.before, tc.after)
		got := chatJSON(r.rows)
		if r.rows == nil {
			got = "[]"
		}
		if got != tc.want || r.foundAnchor != tc.anchorF || r.foundOldest != tc.old || r.foundNewest != tc.newer {
			t.Errorf("%+v: got %s %v %v %v", tc, got, r.foundAnchor, r.foundOldest, r.foundNewest)
		}
	}
}

// regUnread registers as user with the form and returns the answer's
// unread_msgs, re-encoded as JSON for comparison.
func regUnread(e *chatEnv, user int, form ...string) (map[string]any, bool) {
	e.t.Helper()
	body := e.chatOK(user, http.MethodPost, "/register", chatForm(form...))
	u, ok := body["unread_msgs"].(map[string]any)
	return u, ok
}

// The starred_messages snapshot is get_starred_message_ids: the user's
// starred messages, ascending.
func TestRegister_starredMessages(t *testing.T) {
	e := chatNew(t)
	e.chatOK(SeedMemberID, http.MethodPost, "/messages/flags", chatForm("messages", "[4,3]", "op", "add", "flag", "starred"))
	body := e.chatOK(SeedMemberID, http.MethodPost, "/register", chatForm("fetch_event_types", `["starred_messages"]`))
	if got := body["starred_messages"]; !reflect.DeepEqual(got, []any{1.0, 3.0, 4.0}) {
		t.Errorf("starred_messages: %v", got)
	}
	if _, ok := body["unread_msgs"]; ok {
		t.Errorf("unread_msgs without message: %v", body)
	}
	body = e.chatOK(SeedMember3ID, http.MethodPost, "/register", chatForm("fetch_event_types", `["starred_messages","message"]`))
	if got := body["starred_messages"]; !reflect.DeepEqual(got, []any{}) || body["max_message_id"] == nil {
		t.Errorf("none starred: %v", body)
	}
}

// unread_msgs is in register's answer when both update_message_flags and
// message are wanted (fetch_initial_state_data), whichever parameter names
// them.
func TestRegister_unreadCondition(t *testing.T) {
	e := chatNew(t)
	for _, tc := range []struct {
		form []string
		want bool
	}{
		{[]string{"fetch_event_types", `["update_message_flags"]`}, false},
		{[]string{"fetch_event_types", `["message"]`}, false},
		{[]string{"fetch_event_types", `["message","update_message_flags"]`}, true},
		{[]string{"event_types", `["update_message_flags","message"]`}, true},
		{[]string{"event_types", `["update_message_flags"]`, "fetch_event_types", `["update_message_flags"]`}, false},
		{nil, true},
	} {
		if _, got := regUnread(e, SeedMemberID, tc.form...); got != tc.want {
			t.Errorf("%v: unread_msgs present %v", tc.form, got)
		}
	}
}

// unread_msgs follows get_raw_unread_data, extract_unread_data_from_um_rows
// and aggregate_unread_data: one-on-one conversations (oneself included) by
// other_user_id, channel topics (muted ones included but not counted), group
// conversations by user_ids_string, direct mentions; channels the user left
// are left out. Older levels: sender_id only before 119, sender_ids in
// streams before 90.
func TestRegister_unreadMessages(t *testing.T) {
	for _, tc := range []struct {
		name string
		fl   int
		caps string
		want string
	}{
		{"newest", 0, `{"empty_topic_name":true}`, `{"count":6,"huddles":[{"unread_message_ids":[${g}],"user_ids_string":"5,6,11"}],` +
			`"mentions":[${b}],"old_unreads_missing":false,"pms":[{"other_user_id":5,"sender_id":5,"unread_message_ids":[${self}]},` +
			`{"other_user_id":11,"sender_id":11,"unread_message_ids":[${dm}]}],"streams":[{"stream_id":1,"topic":"","unread_message_ids":[${empty}]},` +
			`{"stream_id":1,"topic":"alpha","unread_message_ids":[${a},${b}]},{"stream_id":1,"topic":"muted","unread_message_ids":[${muted}]}]}`},
		{"without empty_topic_name", 420, `{}`, `"stream_id":1,"topic":"general chat","unread_message_ids":[${empty}]`},
		{"level 100", 100, `{}`, `"pms":[{"sender_id":5,"unread_message_ids":[${self}]},{"sender_id":11,"unread_message_ids":[${dm}]}]`},
		{"level 80", 80, `{}`, `{"sender_ids":[2,11],"stream_id":1,"topic":"alpha","unread_message_ids":[${a},${b}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []func(*Options)
			if tc.fl != 0 {
				opts = append(opts, chatLevel(tc.fl))
			}
			e := chatNew(t, opts...)
			ids := regUnreadScenario(e)
			u, ok := regUnread(e, SeedMemberID, "fetch_event_types", `["message","update_message_flags"]`, "client_capabilities", tc.caps)
			if !ok {
				t.Fatal("no unread_msgs")
			}
			raw, _ := json.Marshal(u)
			want := tc.want
			for k, v := range ids {
				want = strings.ReplaceAll(want, "${"+k+"}", strconv.Itoa(v))
			}
			if !strings.Contains(string(raw), want) {
				t.Errorf("unread_msgs:\n%s\nwant (within):\n%s", raw, want)
			}
		})
	}
}

// regUnreadScenario leaves the member with a known set of unread messages
// and returns their ids by name.
func regUnreadScenario(e *chatEnv) map[string]int {
	e.t.Helper()
	e.srv.Do(func(r *Realm) {
		for _, m := range r.Messages {
			if _, ok := m.Flags[SeedMemberID]; ok {
				m.Flags[SeedMemberID] = setMessageFlag(m.Flags[SeedMemberID], "read", true)
			}
		}
	})
	send := func(user int, form ...string) int {
		return msgID(e.chatOK(user, http.MethodPost, "/messages", chatForm(form...)))
	}
	ids := map[string]int{
		"a":     send(SeedMember3ID, "type", "stream", "to", "general", "topic", "alpha", "content", "Hi"),
		"b":     send(SeedAdminID, "type", "stream", "to", "general", "topic", "alpha", "content", "@**Mark Member** look"),
		"muted": send(SeedMember3ID, "type", "stream", "to", "general", "topic", "muted", "content", "Shh"),
		"empty": send(SeedMember3ID, "type", "stream", "to", "general", "topic", "", "content", "No topic"),
		"dm":    send(SeedMember3ID, "type", "private", "to", "[5]", "content", "Psst"),
		"g":     send(SeedMember2ID, "type", "private", "to", "[5,11]", "content", "Group"),
		"self":  send(SeedMemberID, "type", "private", "to", "[5]", "content", "Note to self", "read_by_sender", "false"),
		"read":  send(SeedMember3ID, "type", "stream", "to", "general", "topic", "alpha", "content", "Read already"),
	}
	e.chatOK(SeedMemberID, http.MethodPost, "/messages/flags", chatForm("messages", "["+strconv.Itoa(ids["read"])+"]", "op", "add", "flag", "read"))
	e.srv.Do(func(r *Realm) {
		userTopicSet(r, SeedMemberID, SeedChannelGeneral, "MUTED", PolicyMuted, 1)
		left := e.srv.postChannelMessage(r.Channels[SeedChannelBackendOnly], "left", SeedMember3ID, "Gone")
		left.Flags[SeedMemberID] = []string{} // received while subscribed, then left
	})
	return ids
}
