package refserver_test

import (
	"strings"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func init() { confAreas["messages"] = confCasesMessages }

// confCasesMessages are the conformance requests of messages and their flags.
func confCasesMessages(add func(confGroup)) {
	add(confGroup{op: "update-message-flags", steps: []confStep{
		confOK("star, a duplicate included", "update-message-flags", confMember, confPOST, "/messages/flags", confP("messages", "[1,2,3,3]", "op", "add", "flag", "starred")),
		confOK("mark unread in an unsubscribed channel", "update-message-flags", confOwner, confPOST, "/messages/flags", confP("messages", "[10,11]", "op", "remove", "flag", "read")),
		confOK("read", "update-message-flags", confMember, confPOST, "/messages/flags", confP("messages", "[1,2,3,4]", "op", "add", "flag", "read")),
		confBad("read-only flag", "update-message-flags", confMember, confPOST, "/messages/flags", confP("messages", "[1]", "op", "add", "flag", "mentioned"), 400, "BAD_REQUEST"),
		confBad("unknown flag", "update-message-flags", confMember, confPOST, "/messages/flags", confP("messages", "[1]", "op", "add", "flag", "shiny"), 400, "BAD_REQUEST"),
		confBad("missing op", "update-message-flags", confMember, confPOST, "/messages/flags", confP("messages", "[1]", "flag", "read"), 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "get-messages", steps: []confStep{
		confOK("newest in a channel", "get-messages", confMember, confGET, "/messages", confP("anchor", "newest", "num_before", "3", "num_after", "0",
			"narrow", `[{"operator":"channel","operand":"general"}]`)),
		confOK("oldest, raw Markdown", "get-messages", confMember, confGET, "/messages", confP("anchor", "oldest", "num_before", "0", "num_after", "5",
			"apply_markdown", "false", "client_gravatar", "false")),
		confOK("first unread", "get-messages", confMember, confGET, "/messages", confP("anchor", "first_unread", "num_before", "1", "num_after", "1")),
		confOK("around an id, search", "get-messages", confMember, confGET, "/messages", confP("anchor", "4", "num_before", "1", "num_after", "1",
			"narrow", `[{"operator":"search","operand":"release"}]`)),
		confOK("anchor excluded, with", "get-messages", confMember, confGET, "/messages", confP("anchor", "3", "include_anchor", "false", "num_before", "0",
			"num_after", "2", "narrow", `[{"operator":"with","operand":4}]`)),
		confOK("guest, web-public history", "get-messages", confGuest, confGET, "/messages", confP("anchor", "newest", "num_before", "5",
			"narrow", `[["channel","announce"]]`, "allow_empty_topic_name", "true")),
		confOK("legacy use_first_unread_anchor", "get-messages", confMember, confGET, "/messages", confP("use_first_unread_anchor", "true", "num_after", "2")),
		confOK("by id", "get-messages", confMember, confGET, "/messages", confP("message_ids", "[1,4,6,999]")),
		confBad("ids and a range", "get-messages", confMember, confGET, "/messages", confP("message_ids", "[1]", "num_before", "2"), 400, "BAD_REQUEST"),
		confBad("missing anchor", "get-messages", confMember, confGET, "/messages", confP("num_before", "1"), 400, "BAD_REQUEST"),
		confBad("invalid anchor", "get-messages", confMember, confGET, "/messages", confP("anchor", "soon"), 400, "BAD_REQUEST"),
		confBad("too many", "get-messages", confMember, confGET, "/messages", confP("anchor", "newest", "num_before", "5001"), 400, "BAD_REQUEST"),
		confBad("unknown channel", "get-messages", confMember, confGET, "/messages", confP("anchor", "newest", "narrow", `[["channel","nope"]]`), 400, "BAD_NARROW"),
	}})
	add(confGroup{op: "check-messages-match-narrow", steps: []confStep{
		confOK("search", "check-messages-match-narrow", confMember, confGET, "/messages/matches_narrow", confP("msg_ids", "[1,2,3,4,13]", "narrow", `[{"operator":"search","operand":"release"}]`)),
		confOK("channel and topic", "check-messages-match-narrow", confMember, confGET, "/messages/matches_narrow", confP("msg_ids", "[1,2,3]", "narrow", `[{"operator":"channel","operand":"general"},{"operator":"topic","operand":"welcome"}]`)),
		confOK("is:starred and sender by e-mail", "check-messages-match-narrow", confMember, confGET, "/messages/matches_narrow", confP("msg_ids", "[1,2,3]", "narrow", `[{"operator":"is","operand":"starred"},{"operator":"sender","operand":"`+confEmail("olivia")+`"}]`)),
		confOK("legacy form, negated", "check-messages-match-narrow", confMember, confGET, "/messages/matches_narrow", confP("msg_ids", "[1,2,3]", "narrow", `[["stream","general"],{"operator":"sender","operand":5,"negated":true}]`)),
		confOK("is:followed, with", "check-messages-match-narrow", confMember, confGET, "/messages/matches_narrow", confP("msg_ids", "[1,4,13]", "narrow", `[{"operator":"is","operand":"followed"},{"operator":"with","operand":13}]`)),
		confBad("unknown operator", "check-messages-match-narrow", confMember, confGET, "/messages/matches_narrow", confP("msg_ids", "[1]", "narrow", `[{"operator":"colour","operand":"red"}]`), 400, "BAD_NARROW"),
		confBad("missing msg_ids", "check-messages-match-narrow", confMember, confGET, "/messages/matches_narrow", confP("narrow", `[]`), 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "update-message-flags-for-narrow", steps: []confStep{
		confOK("read a channel", "update-message-flags-for-narrow", confMember, confPOST, "/messages/flags/narrow", confP(
			"anchor", "newest", "num_before", "100", "num_after", "0", "narrow", `[{"operator":"channel","operand":"general"}]`, "op", "add", "flag", "read")),
		confOK("anchor id, unstar", "update-message-flags-for-narrow", confMember, confPOST, "/messages/flags/narrow", confP(
			"anchor", "1", "include_anchor", "true", "num_before", "0", "num_after", "10", "narrow", `[]`, "op", "remove", "flag", "starred")),
		confBad("missing anchor", "update-message-flags-for-narrow", confMember, confPOST, "/messages/flags/narrow", confP(
			"num_before", "0", "num_after", "10", "narrow", `[]`, "op", "add", "flag", "read"), 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "report-message", steps: []confStep{
		confOK("spam", "report-message", confMember, confPOST, "/messages/3/report", confP("report_type", "spam")),
		confOK("other with a description", "report-message", confMember, confPOST, "/messages/3/report", confP("report_type", "other", "description", "Off-topic flood.")),
		confBad("other without a description", "report-message", confMember, confPOST, "/messages/3/report", confP("report_type", "other"), 400, "BAD_REQUEST"),
		confBad("unknown type", "report-message", confMember, confPOST, "/messages/3/report", confP("report_type", "rude"), 400, ""),
		confBad("inaccessible message", "report-message", confGuest, confPOST, "/messages/8/report", confP("report_type", "spam"), 400, "BAD_REQUEST"),
		confBad("unknown message", "report-message", confMember, confPOST, "/messages/999/report", confP("report_type", "spam"), 400, "BAD_REQUEST"),
		confBad("description too long", "report-message", confMember, confPOST, "/messages/3/report", confP("report_type", "other", "description", strings.Repeat("d", 1001)), 400, "BAD_REQUEST"),
		confBefore(confBad("moderation disabled", "report-message", confMember, confPOST, "/messages/3/report", confP("report_type", "spam"), 400, "BAD_REQUEST"),
			func(s *refserver.Server) { s.Do(func(r *refserver.Realm) { r.ModerationRequestChannelID = -1 }) }),
	}})
}
