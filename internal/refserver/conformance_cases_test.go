package refserver_test

import (
	"net/http"
	"strings"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// The steps of the conformance test, one group (subtest) per operation. Each
// group runs against a freshly seeded server (seed.go); the test adds to every
// authenticated group a 401 (wrong API key) and a 429 (rate limit) step.

// Short names for the seeded users.
const (
	confOwner   = refserver.SeedOwnerID
	confAdmin   = refserver.SeedAdminID  // can_create_users
	confAdmin2  = refserver.SeedAdmin2ID // no special permissions
	confMod     = refserver.SeedModeratorID
	confMember  = refserver.SeedMemberID
	confMember2 = refserver.SeedMember2ID
	confGuest   = refserver.SeedGuestID
	confBot     = refserver.SeedBotID
	confOwner2  = refserver.SeedOwner2ID
	confDead    = refserver.SeedDeactivatedID
	confMember3 = refserver.SeedMember3ID
)

const (
	confGET    = http.MethodGet
	confPOST   = http.MethodPost
	confPATCH  = http.MethodPatch
	confDELETE = http.MethodDelete
)

// cp builds a parameter map from key, value pairs.
func confP(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// ok is a step expecting 200; bad one expecting an error status and code.
func confOK(name, op string, user int, method, path string, params map[string]string) confStep {
	return confStep{name: name, op: op, user: user, method: method, path: path, params: params, status: 200}
}

func confBad(name, op string, user int, method, path string, params map[string]string, status int, code string) confStep {
	return confStep{name: name, op: op, user: user, method: method, path: path, params: params, status: status, code: code}
}

// capture returns st with a capture of field into variable v.
func confCapture(st confStep, v, field string) confStep {
	if st.capture == nil {
		st.capture = map[string]string{}
	}
	st.capture[v] = field
	return st
}

// confFL returns st restricted to servers advertising feature levels in [minFL, maxFL].
func confFL(st confStep, minFL, maxFL int) confStep {
	st.minFL, st.maxFL = minFL, maxFL
	return st
}

// before returns st with an out-of-band change applied first.
func confBefore(st confStep, fn func(*refserver.Server)) confStep {
	st.before = fn
	return st
}

const (
	confHost      = "zulip.example.com"
	confAPNsToken = "ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12" // seeded for the owner
	confFCMToken  = "fcm-token-mark-0001"                                              // seeded for the member
)

func confEmail(local string) string { return local + "@" + confHost }

// confAllFetchTypes is every register fetch type the server serves.
const confAllFetchTypes = `["realm","realm_domains","realm_linkifiers","realm_filters","user_topic",` +
	`"custom_profile_fields","realm_user_groups","user_status","saved_snippets","stream","realm_user"]`

func confGroups() []confGroup {
	var groups []confGroup
	add := func(g confGroup) { groups = append(groups, g) }

	// --- server and authentication ---
	add(confGroup{op: "get-server-settings", noAuth: true, steps: []confStep{
		confOK("anonymous", "get-server-settings", confNoAuth, confGET, "/server_settings", nil),
		confOK("with credentials", "get-server-settings", confMember, confGET, "/server_settings", nil),
		confOK("unknown parameter", "get-server-settings", confNoAuth, confGET, "/server_settings", confP("bogus", "1")),
	}})
	add(confGroup{op: "dev-fetch-api-key", noAuth: true, steps: []confStep{
		confOK("owner", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", confP("username", confEmail("olivia"))),
		confOK("bot", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", confP("username", confEmail("build-bot"))),
		confBad("unknown user", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", confP("username", confEmail("nobody")), 401, "AUTHENTICATION_FAILED"),
		confBad("deactivated user", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", confP("username", confEmail("dan")), 401, "USER_DEACTIVATED"),
		confBad("missing username", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", nil, 400, "REQUEST_VARIABLE_MISSING"),
	}})
	// On a production server /dev_fetch_api_key is not routed (an HTML 404, not
	// an API answer: server_settings_test.go pins it).
	add(confGroup{op: "get-server-settings", name: "get-server-settings (production)", noAuth: true, opts: refserver.Options{Production: true}, steps: []confStep{
		confOK("production server settings", "get-server-settings", confNoAuth, confGET, "/server_settings", nil),
	}})
	// Faults apply to unauthenticated endpoints too: a forced 429 (the injected
	// 503 is an HTML page, like a proxy's, and not a Zulip answer).
	add(confGroup{op: "get-server-settings", name: "get-server-settings (forced 429)", noAuth: true,
		opts: refserver.Options{Faults: refserver.Faults{RateLimitRate: 1, RetryAfterSecs: 1.5}}, steps: []confStep{
			confBad("rate limited", "get-server-settings", confNoAuth, confGET, "/server_settings", nil, 429, "RATE_LIMIT_HIT"),
			confBad("rate limited", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", confP("username", confEmail("olivia")), 429, "RATE_LIMIT_HIT"),
		}})
	add(confGroup{op: "fetch-api-key", noAuth: true, steps: []confStep{
		confOK("password", "fetch-api-key", confNoAuth, confPOST, "/fetch_api_key", confP("username", confEmail("mark"), "password", "password-mark")),
		confBad("wrong password", "fetch-api-key", confNoAuth, confPOST, "/fetch_api_key", confP("username", confEmail("mark"), "password", "nope"), 401, "AUTHENTICATION_FAILED"),
		confBad("missing password", "fetch-api-key", confNoAuth, confPOST, "/fetch_api_key", confP("username", confEmail("mark")), 400, "REQUEST_VARIABLE_MISSING"),
	}})

	// Unknown endpoints and wrong methods are answered by Django, not by a
	// Zulip view: an HTML 404 page, and a 405 without a code. They are not
	// Zulip envelopes, so TestUnknownEndpoints (front_test.go) covers them.

	// --- register and events ---
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
		confOK("the events", "get-events", confMember, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
	}})
	add(confGroup{op: "delete-queue", steps: []confStep{
		confCapture(confOK("register", "register-queue", confMember, confPOST, "/register", nil), "queue_id", "queue_id"),
		confBad("someone else's queue", "delete-queue", confOwner, confDELETE, "/events", confP("queue_id", "${queue_id}"), 400, "BAD_EVENT_QUEUE_ID"),
		confOK("delete", "delete-queue", confMember, confDELETE, "/events", confP("queue_id", "${queue_id}")),
		confBad("deleted already", "delete-queue", confMember, confDELETE, "/events", confP("queue_id", "${queue_id}"), 400, "BAD_EVENT_QUEUE_ID"),
		confBad("missing queue_id", "delete-queue", confMember, confDELETE, "/events", nil, 400, "REQUEST_VARIABLE_MISSING"),
	}})

	// --- users ---
	add(confGroup{op: "get-users", steps: []confStep{
		confOK("member", "get-users", confMember, confGET, "/users", nil),
		confOK("unknown parameter", "get-users", confMember, confGET, "/users", confP("sort", "name")),
		confOK("some users (user_ids, FL384)", "get-users", confMember, confGET, "/users", confP("user_ids", "[1,5,8]")),
		confOK("admin with profile data and avatars", "get-users", confAdmin, confGET, "/users", confP("client_gravatar", "false", "include_custom_profile_fields", "true")),
		confOK("guest", "get-users", confGuest, confGET, "/users", confP("include_custom_profile_fields", "true")),
		confOK("bot", "get-users", confBot, confGET, "/users", nil),
		confBad("malformed JSON", "get-users", confMember, confGET, "/users", confP("client_gravatar", "yes"), 400, ""),
	}})
	add(confGroup{op: "get-user", steps: []confStep{
		confOK("member by id", "get-user", confOwner, confGET, "/users/5", confP("include_custom_profile_fields", "true")),
		confOK("bot by id", "get-user", confMember, confGET, "/users/8", nil),
		confOK("deactivated user", "get-user", confAdmin, confGET, "/users/10", confP("client_gravatar", "false")),
		confOK("hidden e-mail", "get-user", confMember, confGET, "/users/6", nil),
		confBad("unknown id", "get-user", confMember, confGET, "/users/999", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "get-user-by-email", steps: []confStep{
		confOK("visible address", "get-user-by-email", confMember, confGET, "/users/"+confEmail("olivia"), confP("client_gravatar", "false")),
		confOK("dummy address", "get-user-by-email", confMember, confGET, "/users/user6@"+confHost, confP("include_custom_profile_fields", "true")),
		confOK("address visible to admins", "get-user-by-email", confAdmin, confGET, "/users/"+confEmail("mark"), nil),
		confBad("hidden address", "get-user-by-email", confMember, confGET, "/users/"+confEmail("maria"), nil, 400, "BAD_REQUEST"),
		confBad("unknown address", "get-user-by-email", confMember, confGET, "/users/"+confEmail("nobody"), nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "get-own-user", steps: []confStep{
		confOK("owner", "get-own-user", confOwner, confGET, "/users/me", nil),
		confOK("guest", "get-own-user", confGuest, confGET, "/users/me", nil),
		confOK("bot", "get-own-user", confBot, confGET, "/users/me", nil),
		confBad("no credentials", "get-own-user", confNoAuth, confGET, "/users/me", nil, 401, "UNAUTHORIZED"),
		confBad("deactivated user", "get-own-user", confDead, confGET, "/users/me", nil, 401, "UNAUTHORIZED"),
		confBefore(confBad("deactivated realm", "get-own-user", confMember, confGET, "/users/me", nil, 401, "UNAUTHORIZED"),
			func(s *refserver.Server) { s.Do(func(r *refserver.Realm) { r.Deactivated = true }) }),
	}})
	add(confGroup{op: "create-user", steps: []confStep{
		confOK("admin with can_create_users", "create-user", confAdmin, confPOST, "/users",
			confP("email", "newbie@"+confHost, "password", "s3cret-pass-phrase", "full_name", "New Bie")),
		confBad("member", "create-user", confMember, confPOST, "/users",
			confP("email", "newbie2@"+confHost, "password", "s3cret-pass-phrase", "full_name", "New Bie"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("admin without can_create_users", "create-user", confAdmin2, confPOST, "/users",
			confP("email", "newbie3@"+confHost, "password", "s3cret-pass-phrase", "full_name", "New Bie"), 400, "BAD_REQUEST"),
		confBad("duplicate", "create-user", confAdmin, confPOST, "/users",
			confP("email", "newbie@"+confHost, "password", "s3cret-pass-phrase", "full_name", "New Bie"), 400, "BAD_REQUEST"),
		confBad("invalid e-mail", "create-user", confAdmin, confPOST, "/users",
			confP("email", "not-an-address", "password", "s3cret-pass-phrase", "full_name", "New Bie"), 400, "BAD_REQUEST"),
		confBad("missing full_name", "create-user", confAdmin, confPOST, "/users",
			confP("email", "newbie4@"+confHost, "password", "s3cret-pass-phrase"), 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "update-user", steps: []confStep{
		confOK("full name", "update-user", confAdmin, confPATCH, "/users/5", confP("full_name", "Mark M. Member")),
		confOK("role", "update-user", confAdmin, confPATCH, "/users/5", confP("role", "300")),
		confOK("profile data", "update-user", confAdmin, confPATCH, "/users/5", confP("profile_data", `[{"id":1,"value":"+49 30 1234"},{"id":2,"value":null}]`)),
		confOK("new e-mail by an owner with can_change_user_emails", "update-user", confOwner, confPATCH, "/users/11", confP("new_email", "mei.new@"+confHost)),
		confBad("new e-mail by an administrator without can_change_user_emails", "update-user", confAdmin, confPATCH, "/users/11", confP("new_email", "mei.newer@"+confHost), 400, ""),
		confBad("invalid profile data", "update-user", confAdmin, confPATCH, "/users/5", confP("profile_data", `[{"id":4,"value":"yesterday"}]`), 400, "BAD_REQUEST"),
		confBad("member (Zulip: \"Insufficient permission\")", "update-user", confMember, confPATCH, "/users/6", confP("full_name", "X"), 400, "BAD_REQUEST"),
		confBad("unknown user", "update-user", confAdmin, confPATCH, "/users/999", confP("full_name", "X"), 400, "BAD_REQUEST"),
		confBad("invalid role", "update-user", confAdmin, confPATCH, "/users/5", confP("role", "250"), 400, ""),
		confBad("admin demotes an owner", "update-user", confAdmin, confPATCH, "/users/9", confP("role", "400"), 400, "UNAUTHORIZED_PRINCIPAL"),
	}})
	add(confGroup{op: "update-user-by-email", steps: []confStep{
		confOK("real address", "update-user-by-email", confAdmin, confPATCH, "/users/"+confEmail("mark"), confP("full_name", "Mark by mail")),
		confOK("dummy address", "update-user-by-email", confAdmin, confPATCH, "/users/user6@"+confHost, confP("role", "300")),
		confOK("profile data", "update-user-by-email", confAdmin, confPATCH, "/users/"+confEmail("mei"), confP("profile_data", `[{"id":8,"value":"they/them"}]`)),
		confOK("new e-mail", "update-user-by-email", confOwner, confPATCH, "/users/"+confEmail("mei"), confP("new_email", "mei2@"+confHost)),
		confBad("member (Zulip: \"Insufficient permission\")", "update-user-by-email", confMember, confPATCH, "/users/"+confEmail("mei"), confP("full_name", "X"), 400, "BAD_REQUEST"),
		confBad("unknown address", "update-user-by-email", confAdmin, confPATCH, "/users/"+confEmail("nobody"), confP("full_name", "X"), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "deactivate-user", steps: []confStep{
		confOK("admin deactivates a member", "deactivate-user", confAdmin, confDELETE, "/users/6", confP("deactivation_notification_comment", "Bye!")),
		confOK("owner deactivates an owner", "deactivate-user", confOwner, confDELETE, "/users/9", nil),
		// actions (FL459) is a JSON query parameter the FL420 description lacks.
		confFL(confOK("with actions", "deactivate-user", confAdmin, confDELETE, "/users/11", confP("?actions", `{"delete_profile":true}`)), 459, 0),
		confBad("member (Zulip: \"Insufficient permission\")", "deactivate-user", confMember, confDELETE, "/users/11", nil, 400, "BAD_REQUEST"),
		confBad("admin deactivates an owner", "deactivate-user", confAdmin, confDELETE, "/users/1", nil, 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("the only owner", "deactivate-user", confOwner, confDELETE, "/users/1", nil, 400, "BAD_REQUEST"),
		confBad("unknown user", "deactivate-user", confAdmin, confDELETE, "/users/999", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "reactivate-user", steps: []confStep{
		confOK("admin reactivates", "reactivate-user", confAdmin, confPOST, "/users/10/reactivate", nil),
		confOK("already active (Zulip: no error)", "reactivate-user", confAdmin, confPOST, "/users/10/reactivate", nil),
		confBad("member (Zulip: \"Insufficient permission\")", "reactivate-user", confMember, confPOST, "/users/10/reactivate", nil, 400, "BAD_REQUEST"),
		confBad("unknown user", "reactivate-user", confAdmin, confPOST, "/users/999/reactivate", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "deactivate-own-user", steps: []confStep{
		confOK("member", "deactivate-own-user", confMember3, confDELETE, "/users/me", nil),
		confOK("owner deactivates the other owner", "deactivate-user", confOwner, confDELETE, "/users/9", nil),
		confBad("the only owner", "deactivate-own-user", confOwner, confDELETE, "/users/me", nil, 400, "CANNOT_DEACTIVATE_LAST_USER"),
	}})

	// --- configuration: linkifiers, snippets, domains, user topics, profile fields ---
	add(confGroup{op: "get-linkifiers", steps: []confStep{
		confOK("member", "get-linkifiers", confMember, confGET, "/realm/linkifiers", nil),
		confOK("add one with reverse fields", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP(
			"pattern", "PR(?P<id>[0-9]+)", "url_template", "https://example.org/pr/{id}",
			"example_input", "PR123", "reverse_template", "PR{id}",
			"alternative_url_templates", `["https://example.org/pull/{id}"]`)),
		confOK("guest sees both", "get-linkifiers", confGuest, confGET, "/realm/linkifiers", nil),
		confBad("no credentials", "get-linkifiers", confNoAuth, confGET, "/realm/linkifiers", nil, 401, "UNAUTHORIZED"),
	}})
	add(confGroup{op: "add-linkifier", steps: []confStep{
		confOK("admin", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "JIRA-(?P<key>[0-9]+)", "url_template", "https://jira.example.org/browse/JIRA-{key}")),
		confBad("member", "add-linkifier", confMember, confPOST, "/realm/filters", confP("pattern", "X(?P<id>[0-9]+)", "url_template", "https://x/{id}"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("look-ahead", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "(?=x)(?P<id>[0-9]+)", "url_template", "https://x/{id}"), 400, "BAD_REQUEST"),
		confBad("group not in template", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "Y(?P<id>[0-9]+)", "url_template", "https://x/"), 400, "BAD_REQUEST"),
		confBad("duplicate pattern", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "JIRA-(?P<key>[0-9]+)", "url_template", "https://jira.example.org/{key}"), 400, "BAD_REQUEST"),
		confBad("missing url_template", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "Z(?P<id>[0-9]+)"), 400, "REQUEST_VARIABLE_MISSING"),
		confFL(confBad("reverse template not reproducing the example", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP(
			"pattern", "R(?P<id>[0-9]+)", "url_template", "https://r/{id}", "example_input", "R12", "reverse_template", "X{id}"), 400, "BAD_REQUEST"), 471, 0),
	}})
	add(confGroup{op: "update-linkifier", steps: []confStep{
		confOK("admin", "update-linkifier", confAdmin, confPATCH, "/realm/filters/1", confP("pattern", "#(?P<id>[0-9]+)", "url_template", "https://github.com/zulip/zulip/pull/{id}")),
		confOK("admin, reverse linkification", "update-linkifier", confAdmin, confPATCH, "/realm/filters/1", confP("pattern", "#(?P<id>[0-9]+)",
			"url_template", "https://github.com/zulip/zulip/pull/{id}", "example_input", "#123", "reverse_template", "#{id}",
			"alternative_url_templates", `["https://github.com/zulip/zulip/issues/{id}"]`)),
		confBad("member", "update-linkifier", confMember, confPATCH, "/realm/filters/1", confP("pattern", "#(?P<id>[0-9]+)", "url_template", "https://x/{id}"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("unknown id", "update-linkifier", confAdmin, confPATCH, "/realm/filters/999", confP("pattern", "#(?P<id>[0-9]+)", "url_template", "https://x/{id}"), 400, "BAD_REQUEST"),
		confBad("missing pattern", "update-linkifier", confAdmin, confPATCH, "/realm/filters/1", confP("url_template", "https://x/{id}"), 400, "REQUEST_VARIABLE_MISSING"),
		confBad("invalid template", "update-linkifier", confAdmin, confPATCH, "/realm/filters/1", confP("pattern", "#(?P<id>[0-9]+)", "url_template", "https://x/{id"), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "remove-linkifier", steps: []confStep{
		confOK("admin", "remove-linkifier", confAdmin, confDELETE, "/realm/filters/1", nil),
		confBad("removed already", "remove-linkifier", confAdmin, confDELETE, "/realm/filters/1", nil, 400, "BAD_REQUEST"),
		confBad("member", "remove-linkifier", confMember, confDELETE, "/realm/filters/1", nil, 400, "UNAUTHORIZED_PRINCIPAL"),
	}})
	add(confGroup{op: "reorder-linkifiers", steps: []confStep{
		confCapture(confOK("add a second", "add-linkifier", confAdmin, confPOST, "/realm/filters", confP("pattern", "T(?P<n>[0-9]+)", "url_template", "https://t/{n}")), "id", "id"),
		confOK("reverse the order", "reorder-linkifiers", confAdmin, confPATCH, "/realm/linkifiers", confP("ordered_linkifier_ids", "[${id},1]")),
		confBad("not all listed", "reorder-linkifiers", confAdmin, confPATCH, "/realm/linkifiers", confP("ordered_linkifier_ids", "[1]"), 400, "BAD_REQUEST"),
		confBad("duplicates", "reorder-linkifiers", confAdmin, confPATCH, "/realm/linkifiers", confP("ordered_linkifier_ids", "[1,1,${id}]"), 400, "BAD_REQUEST"),
		confBad("member", "reorder-linkifiers", confMember, confPATCH, "/realm/linkifiers", confP("ordered_linkifier_ids", "[1,${id}]"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("missing list", "reorder-linkifiers", confAdmin, confPATCH, "/realm/linkifiers", nil, 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "get-saved-snippets", steps: []confStep{
		confOK("owner", "get-saved-snippets", confOwner, confGET, "/saved_snippets", nil),
		confOK("user without snippets", "get-saved-snippets", confGuest, confGET, "/saved_snippets", nil),
		confBad("no credentials", "get-saved-snippets", confNoAuth, confGET, "/saved_snippets", nil, 401, "UNAUTHORIZED"),
	}})
	add(confGroup{op: "create-saved-snippet", steps: []confStep{
		confOK("create", "create-saved-snippet", confMember, confPOST, "/saved_snippets", confP("title", "Retro", "content", "What went well?")),
		confOK("unknown parameter", "create-saved-snippet", confMember, confPOST, "/saved_snippets", confP("title", "Retro 2", "content", "x", "colour", "red")),
		confBad("empty title", "create-saved-snippet", confMember, confPOST, "/saved_snippets", confP("title", "  ", "content", "x"), 400, "BAD_REQUEST"),
		confBad("empty content", "create-saved-snippet", confMember, confPOST, "/saved_snippets", confP("title", "x", "content", ""), 400, "BAD_REQUEST"),
		confBad("missing content", "create-saved-snippet", confMember, confPOST, "/saved_snippets", confP("title", "x"), 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "edit-saved-snippet", steps: []confStep{
		confOK("title", "edit-saved-snippet", confOwner, confPATCH, "/saved_snippets/1", confP("title", "Welcome!")),
		confOK("content", "edit-saved-snippet", confOwner, confPATCH, "/saved_snippets/1", confP("content", "Hello.")),
		confBad("someone else's", "edit-saved-snippet", confOwner, confPATCH, "/saved_snippets/2", confP("title", "x"), 404, "BAD_REQUEST"),
		confBad("unknown id", "edit-saved-snippet", confOwner, confPATCH, "/saved_snippets/999", confP("title", "x"), 404, "BAD_REQUEST"),
		// Neither title nor content: Zulip's view returns success early, without
		// an event (zerver/views/saved_snippets.py).
		confOK("nothing to change", "edit-saved-snippet", confOwner, confPATCH, "/saved_snippets/1", nil),
	}})
	add(confGroup{op: "delete-saved-snippet", steps: []confStep{
		confOK("delete", "delete-saved-snippet", confOwner, confDELETE, "/saved_snippets/1", nil),
		confBad("deleted already", "delete-saved-snippet", confOwner, confDELETE, "/saved_snippets/1", nil, 404, "BAD_REQUEST"),
		confBad("someone else's", "delete-saved-snippet", confOwner, confDELETE, "/saved_snippets/2", nil, 404, "BAD_REQUEST"),
	}})
	// Realm domains are not in the FL420 description (digest §3): envelope only.
	add(confGroup{op: "add-realm-domain", name: "realm-domains", steps: []confStep{
		confOK("list", "get-realm-domains", confMember, confGET, "/realm/domains", nil),
		confOK("add", "add-realm-domain", confOwner, confPOST, "/realm/domains", confP("domain", " Example.ORG ", "allow_subdomains", "true")),
		confOK("change", "patch-realm-domain", confOwner, confPATCH, "/realm/domains/example.org", confP("allow_subdomains", "false")),
		confBad("add as admin", "add-realm-domain", confAdmin, confPOST, "/realm/domains", confP("domain", "example.net", "allow_subdomains", "false"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("add a duplicate", "add-realm-domain", confOwner, confPOST, "/realm/domains", confP("domain", "example.org", "allow_subdomains", "false"), 400, "BAD_REQUEST"),
		confBad("add an invalid domain", "add-realm-domain", confOwner, confPOST, "/realm/domains", confP("domain", "nodot", "allow_subdomains", "false"), 400, "BAD_REQUEST"),
		confBad("change an unknown domain", "patch-realm-domain", confOwner, confPATCH, "/realm/domains/unknown.org", confP("allow_subdomains", "true"), 400, "BAD_REQUEST"),
		confOK("delete", "delete-realm-domain", confOwner, confDELETE, "/realm/domains/example.org", nil),
		confBad("delete again", "delete-realm-domain", confOwner, confDELETE, "/realm/domains/example.org", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "update-user-topic", steps: []confStep{
		confOK("follow", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "topic", "lunch", "visibility_policy", "3")),
		confOK("topic without messages", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "7", "topic", "nothing yet", "visibility_policy", "1")),
		confOK("reset", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "topic", "lunch", "visibility_policy", "0")),
		confBad("invalid policy", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "topic", "lunch", "visibility_policy", "7"), 400, ""),
		confBad("unknown channel", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "999", "topic", "lunch", "visibility_policy", "1"), 400, "BAD_REQUEST"),
		confBad("private channel of others", "update-user-topic", confGuest, confPOST, "/user_topics", confP("stream_id", "3", "topic", "logo", "visibility_policy", "1"), 400, "BAD_REQUEST"),
		confBad("topic too long", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "topic", strings.Repeat("t", 61), "visibility_policy", "1"), 400, "BAD_REQUEST"),
		confBad("missing topic", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "visibility_policy", "1"), 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "get-custom-profile-fields", steps: []confStep{
		confOK("member", "get-custom-profile-fields", confMember, confGET, "/realm/profile_fields", nil),
		confOK("guest", "get-custom-profile-fields", confGuest, confGET, "/realm/profile_fields", nil),
		confBad("no credentials", "get-custom-profile-fields", confNoAuth, confGET, "/realm/profile_fields", nil, 401, "UNAUTHORIZED"),
	}})
	add(confGroup{op: "create-custom-profile-field", steps: []confStep{
		confOK("short text", "create-custom-profile-field", confAdmin, confPOST, "/realm/profile_fields", confP("name", "Office", "hint", "Where you sit", "field_type", "1",
			"display_in_profile_summary", "false", "required", "true", "editable_by_user", "false")),
		confOK("used for user matching", "create-custom-profile-field", confAdmin, confPOST, "/realm/profile_fields", confP("name", "Chat handle",
			"field_type", "1", "use_for_user_matching", "true")),
		confOK("select", "create-custom-profile-field", confAdmin, confPOST, "/realm/profile_fields", confP("name", "Shirt size", "field_type", "3",
			"field_data", `{"s":{"text":"S","order":"1"},"m":{"text":"M","order":"2"}}`)),
		confBad("member", "create-custom-profile-field", confMember, confPOST, "/realm/profile_fields", confP("name", "X", "field_type", "1"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("duplicate name", "create-custom-profile-field", confAdmin, confPOST, "/realm/profile_fields", confP("name", "Biography", "field_type", "2"), 400, "BAD_REQUEST"),
		confBad("invalid type", "create-custom-profile-field", confAdmin, confPOST, "/realm/profile_fields", confP("name", "X", "field_type", "99"), 400, "BAD_REQUEST"),
		confBad("missing type", "create-custom-profile-field", confAdmin, confPOST, "/realm/profile_fields", confP("name", "X"), 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "reorder-custom-profile-fields", steps: []confStep{
		confOK("reverse", "reorder-custom-profile-fields", confAdmin, confPATCH, "/realm/profile_fields", confP("order", "[9,8,7,6,5,4,3,2,1]")),
		confBad("member", "reorder-custom-profile-fields", confMember, confPATCH, "/realm/profile_fields", confP("order", "[1,2,3,4,5,6,7,8,9]"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("incomplete", "reorder-custom-profile-fields", confAdmin, confPATCH, "/realm/profile_fields", confP("order", "[1,2]"), 400, "BAD_REQUEST"),
		confBad("missing order", "reorder-custom-profile-fields", confAdmin, confPATCH, "/realm/profile_fields", nil, 400, "REQUEST_VARIABLE_MISSING"),
	}})
	// Updating and deleting a field, and the profile data endpoints, are not in the
	// FL420 description (digest §6.3, §6.4): envelope only.
	add(confGroup{op: "update-custom-profile-field", name: "profile-field-admin", steps: []confStep{
		confOK("update a field", "update-custom-profile-field", confAdmin, confPATCH, "/realm/profile_fields/1", confP("hint", "With the country code")),
		confOK("update every property", "update-custom-profile-field", confAdmin, confPATCH, "/realm/profile_fields/9", confP("name", "Employee number",
			"hint", "Set by HR", "field_data", "{}", "display_in_profile_summary", "true",
			"required", "true", "editable_by_user", "false", "use_for_user_matching", "true")),
		confBad("update an unknown field", "update-custom-profile-field", confAdmin, confPATCH, "/realm/profile_fields/999", confP("hint", "x"), 400, "BAD_REQUEST"),
		confBad("update as member", "update-custom-profile-field", confMember, confPATCH, "/realm/profile_fields/1", confP("hint", "x"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confOK("delete a field", "delete-custom-profile-field", confAdmin, confDELETE, "/realm/profile_fields/2", nil),
		confBad("delete it again", "delete-custom-profile-field", confAdmin, confDELETE, "/realm/profile_fields/2", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "update-profile-data", steps: []confStep{
		confOK("set values", "update-profile-data", confMember, confPATCH, "/users/me/profile_data", confP("data",
			`[{"id":1,"value":"+49 30 1234"},{"id":3,"value":"2"},{"id":4,"value":"1991-02-03"},{"id":6,"value":[1,2]}]`)),
		confOK("empty a value", "update-profile-data", confMember, confPATCH, "/users/me/profile_data", confP("data", `[{"id":1,"value":""}]`)),
		confBad("unknown field", "update-profile-data", confMember, confPATCH, "/users/me/profile_data", confP("data", `[{"id":999,"value":"x"}]`), 400, "BAD_REQUEST"),
		confBad("field not editable by users", "update-profile-data", confMember, confPATCH, "/users/me/profile_data", confP("data", `[{"id":9,"value":"E-1"}]`), 400, "BAD_REQUEST"),
		confBad("bad date", "update-profile-data", confMember, confPATCH, "/users/me/profile_data", confP("data", `[{"id":4,"value":"03/02/1991"}]`), 400, "BAD_REQUEST"),
		confBad("bot", "update-profile-data", confBot, confPATCH, "/users/me/profile_data", confP("data", `[{"id":1,"value":"x"}]`), 400, "BAD_REQUEST"),
		confBad("missing data", "update-profile-data", confMember, confPATCH, "/users/me/profile_data", nil, 400, "REQUEST_VARIABLE_MISSING"),
		confOK("delete values", "remove-profile-data", confMember, confDELETE, "/users/me/profile_data", confP("data", "[3,4]")),
	}})

	// --- chat: channels, topics, groups, status, messages, push ---
	add(confGroup{op: "get-streams", steps: []confStep{
		confOK("member, defaults", "get-streams", confMember, confGET, "/streams", nil),
		confOK("admin, include_all", "get-streams", confAdmin, confGET, "/streams", confP("include_all", "true", "exclude_archived", "false")),
		confOK("web-public and default flags", "get-streams", confMember, confGET, "/streams", confP("include_web_public", "true", "include_default", "true", "include_can_access_content", "true")),
		confOK("only subscribed", "get-streams", confMember2, confGET, "/streams", confP("include_public", "false")),
		confOK("only public, not subscribed ones", "get-streams", confMember2, confGET, "/streams", confP("include_subscribed", "false")),
		confOK("archived too", "get-streams", confMember, confGET, "/streams", confP("exclude_archived", "false")),
		confOK("guest", "get-streams", confGuest, confGET, "/streams", nil),
		confOK("bot with its owner's channels", "get-streams", confBot, confGET, "/streams", confP("include_owner_subscribed", "true")),
		confOK("admin, include_all_active", "get-streams", confAdmin, confGET, "/streams", confP("include_all_active", "true")),
		// An alias of include_all for every role since FL356 (zerver/views/streams.py).
		confOK("member, include_all_active", "get-streams", confMember, confGET, "/streams", confP("include_all_active", "true")),
		confOK("guest, include_all: web-public channels too", "get-streams", confGuest, confGET, "/streams", confP("include_all", "true")),
	}})
	add(confGroup{op: "get-stream-by-id", steps: []confStep{
		confOK("public", "get-stream-by-id", confMember, confGET, "/streams/1", nil),
		confOK("private, subscribed", "get-stream-by-id", confMember, confGET, "/streams/3", nil),
		confOK("archived", "get-stream-by-id", confOwner, confGET, "/streams/5", nil),
		confBad("private, not subscribed", "get-stream-by-id", confGuest, confGET, "/streams/4", nil, 400, "BAD_REQUEST"),
		confBad("unknown", "get-stream-by-id", confMember, confGET, "/streams/999", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "get-stream-id", steps: []confStep{
		confOK("by name", "get-stream-id", confMember, confGET, "/get_stream_id", confP("stream", "general")),
		confBad("unknown name", "get-stream-id", confMember, confGET, "/get_stream_id", confP("stream", "nope"), 400, ""),
		confBad("missing name", "get-stream-id", confMember, confGET, "/get_stream_id", nil, 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "get-stream-topics", steps: []confStep{
		confOK("public", "get-stream-topics", confMember, confGET, "/users/me/1/topics", nil),
		confOK("empty topic name allowed", "get-stream-topics", confMember, confGET, "/users/me/7/topics", confP("allow_empty_topic_name", "true")),
		confOK("protected history", "get-stream-topics", confMember, confGET, "/users/me/3/topics", nil),
		confBad("private, not subscribed", "get-stream-topics", confGuest, confGET, "/users/me/3/topics", nil, 400, "BAD_REQUEST"),
		confBad("unknown", "get-stream-topics", confMember, confGET, "/users/me/999/topics", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "get-user-groups", steps: []confStep{
		confOK("member", "get-user-groups", confMember, confGET, "/user_groups", nil),
		confOK("with deactivated", "get-user-groups", confAdmin, confGET, "/user_groups", confP("include_deactivated_groups", "true")),
		confBad("guest", "get-user-groups", confGuest, confGET, "/user_groups", nil, 400, ""),
		confBad("bot", "get-user-groups", confBot, confGET, "/user_groups", nil, 400, ""),
	}})
	add(confGroup{op: "get-user-group-members", steps: []confStep{
		confOK("members", "get-user-group-members", confMember, confGET, "/user_groups/12/members", nil),
		confOK("direct members only", "get-user-group-members", confMember, confGET, "/user_groups/12/members", confP("direct_member_only", "true")),
		confBad("unknown group", "get-user-group-members", confMember, confGET, "/user_groups/999/members", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "get-user-group-subgroups", steps: []confStep{
		confOK("subgroups", "get-user-group-subgroups", confMember, confGET, "/user_groups/6/subgroups", nil),
		confOK("direct only", "get-user-group-subgroups", confMember, confGET, "/user_groups/6/subgroups", confP("direct_subgroup_only", "true")),
		confBad("unknown group", "get-user-group-subgroups", confMember, confGET, "/user_groups/999/subgroups", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "get-is-user-group-member", steps: []confStep{
		confOK("indirect member", "get-is-user-group-member", confMember, confGET, "/user_groups/12/members/5", nil),
		confOK("not a member", "get-is-user-group-member", confMember, confGET, "/user_groups/12/members/7", nil),
		confOK("direct members only", "get-is-user-group-member", confMember, confGET, "/user_groups/12/members/5", confP("direct_member_only", "true")),
		confBad("unknown group", "get-is-user-group-member", confMember, confGET, "/user_groups/999/members/5", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "get-user-status", steps: []confStep{
		confOK("with a status", "get-user-status", confOwner, confGET, "/users/5/status", nil),
		confOK("away", "get-user-status", confOwner, confGET, "/users/11/status", nil),
		confOK("without a status", "get-user-status", confOwner, confGET, "/users/2/status", nil),
		confBad("unknown user", "get-user-status", confOwner, confGET, "/users/999/status", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "update-status", steps: []confStep{
		confOK("text and emoji", "update-status", confMember2, confPOST, "/users/me/status", confP("status_text", "On vacation", "emoji_name", "palm_tree", "emoji_code", "1f334", "reaction_type", "unicode_emoji")),
		confOK("away", "update-status", confMember2, confPOST, "/users/me/status", confP("away", "true")),
		confBad("nothing", "update-status", confMember2, confPOST, "/users/me/status", nil, 400, "BAD_REQUEST"),
		confBad("too long", "update-status", confMember2, confPOST, "/users/me/status", confP("status_text", strings.Repeat("s", 61)), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "update-status-for-user", steps: []confStep{
		confOK("admin sets a member's status", "update-status-for-user", confAdmin, confPOST, "/users/6/status", confP("status_text", "Out sick", "emoji_name", "sick", "emoji_code", "1f912", "reaction_type", "unicode_emoji")),
		confBad("member", "update-status-for-user", confMember, confPOST, "/users/6/status", confP("status_text", "x"), 400, "BAD_REQUEST"),
		confBad("admin, owner's status", "update-status-for-user", confAdmin, confPOST, "/users/1/status", confP("status_text", "x"), 400, "BAD_REQUEST"),
		confBad("unknown user", "update-status-for-user", confAdmin, confPOST, "/users/999/status", confP("status_text", "x"), 400, "BAD_REQUEST"),
		confBad("nothing", "update-status-for-user", confAdmin, confPOST, "/users/6/status", nil, 400, "BAD_REQUEST"),
	}})
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
	add(confGroup{op: "add-apns-token", steps: []confStep{
		confOK("add", "add-apns-token", confMember, confPOST, "/users/me/apns_device_token", confP("token", strings.Repeat("c0ffee", 10)+"c0ff", "appid", "org.zulip.Zulip")),
		confOK("the spec's example token", "add-apns-token", confMember, confPOST, "/users/me/apns_device_token", confP("token", "c0ffee", "appid", "org.zulip.Zulip")),
		confBad("empty token", "add-apns-token", confMember, confPOST, "/users/me/apns_device_token", confP("token", "", "appid", "org.zulip.Zulip"), 400, "BAD_REQUEST"),
		confBad("not hexadecimal", "add-apns-token", confMember, confPOST, "/users/me/apns_device_token", confP("token", "wP/uEg==", "appid", "org.zulip.Zulip"), 400, "BAD_REQUEST"),
		confBad("missing appid", "add-apns-token", confMember, confPOST, "/users/me/apns_device_token", confP("token", strings.Repeat("ab", 32)), 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "remove-apns-token", steps: []confStep{
		confOK("remove", "remove-apns-token", confOwner, confDELETE, "/users/me/apns_device_token", confP("token", confAPNsToken)),
		confBad("removed already", "remove-apns-token", confOwner, confDELETE, "/users/me/apns_device_token", confP("token", confAPNsToken), 400, "BAD_REQUEST"),
		confBad("missing token", "remove-apns-token", confOwner, confDELETE, "/users/me/apns_device_token", nil, 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "add-fcm-token", steps: []confStep{
		confOK("add", "add-fcm-token", confMember2, confPOST, "/users/me/android_gcm_reg_id", confP("token", "fcm-token-maria-0002")),
		confBad("empty token", "add-fcm-token", confMember2, confPOST, "/users/me/android_gcm_reg_id", confP("token", ""), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "remove-fcm-token", steps: []confStep{
		confOK("remove", "remove-fcm-token", confMember, confDELETE, "/users/me/android_gcm_reg_id", confP("token", confFCMToken)),
		confBad("removed already", "remove-fcm-token", confMember, confDELETE, "/users/me/android_gcm_reg_id", confP("token", confFCMToken), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "test-notify", steps: []confStep{
		confOK("every device", "test-notify", confOwner, confPOST, "/mobile_push/test_notification", nil),
		confOK("one device", "test-notify", confOwner, confPOST, "/mobile_push/test_notification", confP("token", confAPNsToken)),
		confBad("unknown token", "test-notify", confOwner, confPOST, "/mobile_push/test_notification", confP("token", "unknown-token"), 400, "INVALID_PUSH_DEVICE_TOKEN"),
		// Zulip sends to no device at all and succeeds (the view does not check).
		confOK("no device", "test-notify", confAdmin2, confPOST, "/mobile_push/test_notification", nil),
	}})
	add(confGroup{op: "e2ee-test-notify", steps: []confStep{
		confOK("e2ee device", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", nil),
		confBad("no e2ee device", "e2ee-test-notify", confMember, confPOST, "/mobile_push/e2ee/test_notification", nil, 400, "NO_ACTIVE_PUSH_DEVICE"),
		// The owner's seeded e2ee device has id 2; the parameter naming it is
		// device_id since FL468, push_account_id before (digest §9.5).
		confFL(confOK("by device_id", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", confP("device_id", "2")), 468, 0),
		confFL(confBad("unknown device_id", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", confP("device_id", "99"), 400, "NO_ACTIVE_PUSH_DEVICE"), 468, 0),
		confFL(confOK("by push_account_id", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", confP("push_account_id", "2")), 420, 467),
		confFL(confBad("unknown push_account_id", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", confP("push_account_id", "99"), 400, "NO_ACTIVE_PUSH_DEVICE"), 420, 467),
	}})
	for _, e := range []struct {
		code   string
		status int
	}{
		{"ADMIN_ACTION_REQUIRED", 403},
		{"FAILED_TO_CONNECT_BOUNCER", 502},
		{"INTERNAL_SERVER_ERROR_ON_BOUNCER", 502},
	} {
		add(confGroup{op: "e2ee-test-notify", name: "e2ee-test-notify (" + e.code + ")", noAuth: true, opts: refserver.Options{PushBouncerError: e.code}, steps: []confStep{
			confBad("bouncer error", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", nil, e.status, e.code),
		}})
	}
	return groups
}
