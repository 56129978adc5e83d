package refserver_test

import (
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func init() { confAreas["events"] = confCasesEvents }

// confCasesEvents are the conformance requests of register and the event queues.
func confCasesEvents(add func(confGroup)) {
	// Unknown endpoints and wrong methods are answered by Django, not by a
	// Zulip view: an HTML 404 page, and a 405 without a code. They are not
	// Zulip envelopes, so TestUnknownEndpoints (front_test.go) covers them.
	add(confGroup{op: "register-queue", steps: []confStep{
		confOK("everything", "register-queue", confOwner, confPOST, "/register", nil),
		confOK("every fetch type with capabilities", "register-queue", confOwner, confPOST, "/register", confP(
			"fetch_event_types", confAllFetchTypes,
			"client_capabilities", `{"linkifier_url_template":true,"include_deactivated_groups":true,"user_settings_object":true,"empty_topic_name":true}`)),
		confOK("every fetch type without capabilities", "register-queue", confMember, confPOST, "/register", confP("fetch_event_types", confAllFetchTypes)),
		confOK("guest", "register-queue", confGuest, confPOST, "/register", confP("fetch_event_types", confAllFetchTypes)),
		confOK("bot", "register-queue", confBot, confPOST, "/register", confP("event_types", `["realm","stream","unknown_type"]`)),
		confOK("realm only", "register-queue", confAdmin, confPOST, "/register", confP("fetch_event_types", `["realm"]`)),
		confOK("every documented parameter", "register-queue", confMember, confPOST, "/register", confP(
			"apply_markdown", "true", "client_gravatar", "false", "include_subscribers", "false", "slim_presence", "true",
			"presence_history_limit_days", "7", "event_types", `["realm","stream"]`, "all_public_streams", "false",
			"client_capabilities", `{"notification_settings_null":true}`, "fetch_event_types", `["realm","stream","realm_user"]`,
			"narrow", `[["channel","general"]]`, "idle_queue_timeout", "3600")),
		confBad("malformed JSON", "register-queue", confOwner, confPOST, "/register", confP("event_types", `["realm"`), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "get-events", steps: []confStep{
		confCapture(confOK("register", "register-queue", confMember, confPOST, "/register", confP("event_types", `["message"]`)), "queue_id", "queue_id"),
		confOK("poll without blocking", "get-events", confMember, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
		confBad("unknown queue", "get-events", confMember, confGET, "/events", confP("queue_id", "1375801870:2942", "last_event_id", "-1", "dont_block", "true"), 400, "BAD_EVENT_QUEUE_ID"),
		confBad("someone else's queue", "get-events", confOwner, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true"), 400, "BAD_EVENT_QUEUE_ID"),
		// fetch_events: a blocking call without a queue is a plain JsonableError.
		confBad("missing queue_id", "get-events", confMember, confGET, "/events", nil, 400, "BAD_REQUEST"),
		confOK("register through events", "get-events", confMember, confGET, "/events", confP("dont_block", "true")),
	}})
	// The events the server sends, validated against the description's event
	// schemas, at the description's own feature level (the events carry the
	// objects whole, newer fields included, which the allowances do not reach).
	add(confGroup{op: "register-queue", name: "get-events (events of each area)", opts: refserver.Options{FeatureLevel: 420}, steps: []confStep{
		confCapture(confOK("register for every type", "register-queue", confMember, confPOST, "/register", nil), "queue_id", "queue_id"),
		confOK("a linkifier", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", `EV-(?P<id>[0-9]+)`, "url_template", "https://ev.example.com/{id}")),
		confOK("a domain", "add-realm-domain", confOwner, confPOST, "/realm/domains", confP("domain", "events.example.org", "allow_subdomains", "false")),
		confOK("a snippet", "create-saved-snippet", confMember, confPOST, "/saved_snippets", confP("title", "T", "content", "C")),
		confOK("a flag", "update-message-flags", confMember, confPOST, "/messages/flags", confP("messages", "[2]", "op", "add", "flag", "starred")),
		confOK("unread", "update-message-flags", confMember, confPOST, "/messages/flags", confP("messages", "[1]", "op", "remove", "flag", "read")),
		confOK("a profile value", "update-profile-data", confMember, confPATCH, "/users/me/profile_data", confP("data", `[{"id":1,"value":"x"}]`)),
		confOK("a name", "update-user", confOwner, confPATCH, "/users/11", confP("full_name", "Mia Member")),
		confOK("a topic", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "topic", "events", "visibility_policy", "1")),
		confOK("a status", "update-status", confMember, confPOST, "/users/me/status", confP("status_text", "Lunch", "emoji_name", "car", "away", "true")),
		confOK("the events", "get-events", confMember, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
	}})
	// A message event, to a recipient (the owner is subscribed to the
	// moderation request channel a report posts to).
	add(confGroup{op: "register-queue", name: "get-events (a message)", opts: refserver.Options{FeatureLevel: 420}, steps: []confStep{
		confCapture(confOK("register for messages", "register-queue", confOwner, confPOST, "/register", confP("event_types", `["message"]`, "apply_markdown", "true")), "queue_id", "queue_id"),
		confOK("a report", "report-message", confMember, confPOST, "/messages/3/report", confP("report_type", "spam")),
		confOK("the message event", "get-events", confOwner, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
	}})
	add(confGroup{op: "delete-queue", steps: []confStep{
		confCapture(confOK("register", "register-queue", confMember, confPOST, "/register", nil), "queue_id", "queue_id"),
		confBad("someone else's queue", "delete-queue", confOwner, confDELETE, "/events", confP("queue_id", "${queue_id}"), 400, "BAD_EVENT_QUEUE_ID"),
		confOK("delete", "delete-queue", confMember, confDELETE, "/events", confP("queue_id", "${queue_id}")),
		confBad("deleted already", "delete-queue", confMember, confDELETE, "/events", confP("queue_id", "${queue_id}"), 400, "BAD_EVENT_QUEUE_ID"),
		confBad("missing queue_id", "delete-queue", confMember, confDELETE, "/events", nil, 400, "REQUEST_VARIABLE_MISSING"),
	}})
	// The message snapshots (zerver/lib/events.py fetch_initial_state_data):
	// max_message_id, starred_messages and unread_msgs, with unread
	// conversations of each kind.
	add(confGroup{op: "register-queue", name: "register-queue (message snapshots)", steps: []confStep{
		confOK("a star", "update-message-flags", confMember, confPOST, "/messages/flags", confP("messages", "[3]", "op", "add", "flag", "starred")),
		confOK("a direct message", "send-message", confMember3, confPOST, "/messages", confP("type", "direct", "to", "[5]", "content", "Hi")),
		confOK("a group direct message", "send-message", confMember3, confPOST, "/messages", confP("type", "direct", "to", "[5,6]", "content", "Hi all")),
		confOK("a muted topic", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "topic", "lunch", "visibility_policy", "1")),
		confOK("the snapshots", "register-queue", confMember, confPOST, "/register",
			confP("fetch_event_types", `["message","update_message_flags","starred_messages"]`)),
		confOK("the snapshots, empty topic names", "register-queue", confMember3, confPOST, "/register",
			confP("fetch_event_types", `["message","update_message_flags","starred_messages"]`, "client_capabilities", `{"empty_topic_name":true}`)),
		confOK("by event types", "register-queue", confGuest, confPOST, "/register", confP("event_types", `["message","update_message_flags"]`)),
	}})
}
