package refserver

import (
	"net/http"
	"reflect"
	"sort"
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

func TestChatMessageFlags(t *testing.T) {
	e := chatNew(t)
	const path = "/messages/flags"
	flags := func(user int, op, flag, ids string) map[string]any {
		return e.chatOK(user, http.MethodPost, path, chatForm("messages", ids, "op", op, "flag", flag))
	}
	// Starring, idempotently.
	if got := chatJSON(flags(SeedMemberID, "add", "starred", "[2,3]")["messages"]); got != "[2,3]" {
		t.Errorf("star: %s", got)
	}
	if got := chatJSON(flags(SeedMemberID, "add", "starred", "[2,3,3]")["messages"]); got != "[]" {
		t.Errorf("star again: %s", got)
	}
	if got := chatFlags(e, 3, SeedMemberID); !reflect.DeepEqual(got, []string{"starred"}) {
		t.Errorf("flags on 3: %v", got)
	}
	if got := chatJSON(flags(SeedMemberID, "remove", "starred", "[3]")["messages"]); got != "[3]" {
		t.Errorf("unstar: %s", got)
	}
	// Marking read; messages never received count as read already, even unknown ones.
	body := flags(SeedMemberID, "add", "read", "[1,3,4,999,6]")
	if got := chatJSON(body["messages"]); got != "[3,4]" {
		t.Errorf("read: %s", got)
	}
	if _, ok := body["ignored_because_not_subscribed_channels"]; ok {
		t.Errorf("ignored list outside read/remove: %v", body)
	}
	if got := chatFlags(e, 4, SeedMemberID); !reflect.DeepEqual(got, []string{"read", "mentioned"}) {
		t.Errorf("flags on 4: %v", got)
	}
	// Collapsing works on any message with a row.
	if got := chatJSON(flags(SeedBotID, "add", "collapsed", "[1]")["messages"]); got != "[1]" {
		t.Errorf("collapse: %s", got)
	}
	// Starring a public message never received creates a historical row.
	if got := chatJSON(flags(SeedMember2ID, "add", "starred", "[5]")["messages"]); got != "[5]" {
		t.Errorf("historical star: %s", got)
	}
	if got := chatFlags(e, 5, SeedMember2ID); !reflect.DeepEqual(got, []string{"read", "starred", "historical"}) {
		t.Errorf("historical row: %v", got)
	}
	// Marking unread skips channels the user is not subscribed to.
	body = flags(SeedOwnerID, "remove", "read", "[1,10,11,5]")
	if chatJSON(body["messages"]) != "[1,5]" || chatJSON(body["ignored_because_not_subscribed_channels"]) != "[7]" {
		t.Errorf("unread: %v", body)
	}
	body = flags(SeedMember2ID, "remove", "read", "[5]")
	if chatJSON(body["messages"]) != "[]" || chatJSON(body["ignored_because_not_subscribed_channels"]) != "[2]" {
		t.Errorf("unread unsubscribed: %v", body)
	}
	body = flags(SeedMemberID, "remove", "read", "[13]")
	if chatJSON(body["messages"]) != "[]" || chatJSON(body["ignored_because_not_subscribed_channels"]) != "[]" {
		t.Errorf("already unread: %v", body)
	}

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
		{SeedGuestID, []string{"messages", "[5]", "op", "add", "flag", "starred"}, 400, "BAD_REQUEST", "Invalid message(s)", ""},
		{SeedMemberID, []string{"messages", "[999]", "op", "remove", "flag", "read"}, 400, "BAD_REQUEST", "Invalid message(s)", ""},
		{SeedMemberID, []string{"op", "add", "flag", "read"}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'messages' argument", "messages"},
		{SeedMemberID, []string{"messages", "[1]", "flag", "read"}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'op' argument", "op"},
		{SeedMemberID, []string{"messages", "[1]", "op", "add"}, 400, "REQUEST_VARIABLE_MISSING", "Missing 'flag' argument", "flag"},
		{SeedMemberID, []string{"messages", "[1,", "op", "add", "flag", "read"}, 400, "INVALID_JSON", `Argument "messages" is not valid JSON.`, "messages"},
		{SeedMemberID, []string{"messages", "5", "op", "add", "flag", "read"}, 400, "REQUEST_VARIABLE_INVALID", "messages is not a list", "messages"},
	} {
		body := e.chatFail(tc.user, http.MethodPost, path, chatForm(tc.form...), tc.status, tc.code, tc.msg)
		if tc.varName != "" && body["var_name"] != tc.varName {
			t.Errorf("%v: var_name %v", tc.form, body["var_name"])
		}
	}
	// Every role, bots included, manages its own flags.
	for _, user := range []int{SeedOwnerID, SeedAdminID, SeedModeratorID, SeedMemberID, SeedGuestID, SeedBotID} {
		if got := chatJSON(flags(user, "add", "starred", "[13]")["messages"]); got != "[13]" {
			t.Errorf("user %d star: %s", user, got)
		}
	}
}

func TestChatMessageFlagsFeatureLevel(t *testing.T) {
	e := chatNew(t, chatLevel(354))
	body := e.chatOK(SeedOwnerID, http.MethodPost, "/messages/flags", chatForm("messages", "[1,10]", "op", "remove", "flag", "read"))
	if _, ok := body["ignored_because_not_subscribed_channels"]; ok || chatJSON(body["messages"]) != "[1]" {
		t.Errorf("FL354: %v", body)
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
	want := map[string]any{"processed_count": 5.0, "updated_count": 3.0, "first_processed_id": 1.0, "last_processed_id": 13.0,
		"found_oldest": true, "found_newest": true}
	for k, v := range want {
		if body[k] != v {
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			if got := keys(match(tc.user, tc.ids, tc.narrow)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	e.t = t
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
		{`[{"operator":"topic","operand":5}]`, "BAD_REQUEST", "operand is not a string", ""},
		{`[{"operator":"sender","operand":[5]}]`, "BAD_REQUEST", "operand is not a string or an integer", ""},
		{`[{"operator":"search","operand":"  "}]`, "BAD_REQUEST", "operand cannot be blank.", ""},
		{`[{"operator":"topic","operand":"x","negated":"no"}]`, "BAD_REQUEST", "negated is not a boolean", ""},
		{`{"operator":"topic"}`, "BAD_REQUEST", "narrow is not a list", ""},
		{`[`, "INVALID_JSON", `Argument "narrow" is not valid JSON.`, ""},
	} {
		body := e.chatFail(SeedMemberID, http.MethodGet, path, chatForm("msg_ids", "[1]", "narrow", tc.narrow), 400, tc.code, tc.msg)
		if tc.desc != "" && body["desc"] != tc.desc {
			t.Errorf("%s: desc %v", tc.narrow, body["desc"])
		}
	}
	e.chatFail(SeedMemberID, http.MethodGet, path, chatForm("narrow", "[]"), 400, "REQUEST_VARIABLE_MISSING", "Missing 'msg_ids' argument")
	e.chatFail(SeedMemberID, http.MethodGet, path, chatForm("msg_ids", "[1]"), 400, "REQUEST_VARIABLE_MISSING", "Missing 'narrow' argument")
	e.chatFail(SeedMemberID, http.MethodGet, path, chatForm("msg_ids", `["a"]`, "narrow", "[]"), 400, "REQUEST_VARIABLE_INVALID", "msg_ids is not a list")
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
		{SeedGuestID, 5, []string{"report_type", "spam"}, "BAD_REQUEST", bad},
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
