package refserver_test

import "github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"

func init() { confAreas["channels"] = confCasesChannels }

// confCasesChannels are the conformance requests of channels and topics.
func confCasesChannels(add func(confGroup)) {
	confCasesChannelReads(add)
	confCasesChannelCreation(add)
	confCasesChannelUpdates(add)
	confCasesSubscriptions(add)
}

// confCasesChannelReads are the requests that read channels, their ids and topics.
func confCasesChannelReads(add func(confGroup)) {
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
}

// confCasesChannelCreation are the requests that create channels.
func confCasesChannelCreation(add func(confGroup)) {
	add(confGroup{op: "create-channel", steps: []confStep{
		confOK("every parameter", "create-channel", confOwner, confPOST, "/channels/create", confP(
			"name", "ops", "description", "Operations", "subscribers", "[1, 5]", "announce", "false", "invite_only", "true",
			"is_web_public", "false", "is_default_stream", "false", "history_public_to_subscribers", "false",
			"message_retention_days", `"unlimited"`, "topics_policy", `"allow_empty_topic"`, "default_push_notifications", "false",
			"can_add_subscribers_group", "2", "can_create_topic_group", "6", "can_delete_any_message_group", "2",
			"can_delete_own_message_group", "6", "can_remove_subscribers_group", "2", "can_administer_channel_group", `{"direct_members": [5], "direct_subgroups": [2]}`,
			"can_move_messages_out_of_channel_group", "4", "can_move_messages_within_channel_group", "4", "can_send_message_group", "5",
			"can_subscribe_group", "8", "can_resolve_topics_group", "4", "folder_id", "null", "send_new_subscription_messages", "false")),
		confOK("a member's public channel", "create-channel", confMember, confPOST, "/channels/create", confP("name", "lunch", "subscribers", "[]")),
		confBad("name taken (an archived channel's)", "create-channel", confOwner, confPOST, "/channels/create", confP("name", "OLD-PROJECTS", "subscribers", "[]"), 409, "CHANNEL_ALREADY_EXISTS"),
		confBad("public without shared history", "create-channel", confOwner, confPOST, "/channels/create", confP(
			"name", "x", "subscribers", "[]", "history_public_to_subscribers", "false"), 400, "BAD_REQUEST"),
		confBad("retention by an administrator", "create-channel", confAdmin, confPOST, "/channels/create", confP(
			"name", "x", "subscribers", "[]", "message_retention_days", "30"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("missing subscribers", "create-channel", confOwner, confPOST, "/channels/create", confP("name", "x"), 400, "REQUEST_VARIABLE_MISSING"),
		confBad("guest", "create-channel", confGuest, confPOST, "/channels/create", confP("name", "x", "subscribers", "[]"), 400, "BAD_REQUEST"),
		// check_channel_creation_permissions (zerver/lib/streams.py).
		confBad("web-public, not enabled on the server", "create-channel", confOwner, confPOST, "/channels/create", confP(
			"name", "x", "subscribers", "[]", "is_web_public", "true"), 400, "BAD_REQUEST"),
		confBad("a member's default channel", "create-channel", confMember, confPOST, "/channels/create", confP(
			"name", "x", "subscribers", "[]", "is_default_stream", "true"), 400, "BAD_REQUEST"),
		confBad("an unknown subscriber", "create-channel", confAdmin, confPOST, "/channels/create", confP("name", "x", "subscribers", "[999]"), 400, "BAD_REQUEST"),
		// validate_can_create_topic_group_setting_for_protected_history_streams.
		confBad("protected history, topics by moderators", "create-channel", confOwner, confPOST, "/channels/create", confP(
			"name", "x", "subscribers", "[]", "invite_only", "true", "can_create_topic_group", "3"), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "create-channel", name: "create-channel (web-public channels enabled)", noAuth: true,
		opts: refserver.Options{WebPublicStreamsEnabled: true}, steps: []confStep{
			confSpectators(confOK("web-public, by an owner", "create-channel", confOwner, confPOST, "/channels/create", confP(
				"name", "web", "subscribers", "[1]", "is_web_public", "true"))),
			confBad("web-public, by an administrator", "create-channel", confAdmin, confPOST, "/channels/create", confP(
				"name", "web2", "subscribers", "[]", "is_web_public", "true"), 400, "BAD_REQUEST"),
			confOK("the server's settings", "get-server-settings", confNoAuth, confGET, "/server_settings", nil),
			confOK("register", "register-queue", confOwner, confPOST, "/register", confP("fetch_event_types", `["realm"]`)),
		}})
}

// confCasesChannelUpdates are the requests that update and archive channels, and their events.
func confCasesChannelUpdates(add func(confGroup)) {
	add(confGroup{op: "update-stream", steps: []confStep{
		confOK("rename and describe", "update-stream", confAdmin, confPATCH, "/streams/7", confP("new_name", "off-topic", "description", "Anything")),
		confOK("make private", "update-stream", confAdmin, confPATCH, "/streams/7", confP("is_private", "true", "history_public_to_subscribers", "true")),
		confOK("settings", "update-stream", confAdmin, confPATCH, "/streams/7", confP(
			"can_send_message_group", `{"new": 5, "old": 6}`, "can_add_subscribers_group", `{"new": 2}`,
			"can_administer_channel_group", `{"new": {"direct_members": [5], "direct_subgroups": []}}`,
			"can_move_messages_within_channel_group", `{"new": 4}`, "can_remove_subscribers_group", `{"new": 2}`,
			"can_subscribe_group", `{"new": 8}`, "topics_policy", "disable_empty_topic", "is_default_stream", "false",
			"is_web_public", "false", "folder_id", "null", "default_push_notifications", "true")),
		confOK("the other settings", "update-stream", confOwner, confPATCH, "/streams/7", confP(
			"can_create_topic_group", `{"new": 5}`, "can_delete_any_message_group", `{"new": 2}`, "can_delete_own_message_group", `{"new": 6}`,
			"can_move_messages_out_of_channel_group", `{"new": 4}`, "can_resolve_topics_group", `{"new": {"direct_members": [5], "direct_subgroups": [4]}}`)),
		confOK("retention", "update-stream", confOwner, confPATCH, "/streams/7", confP("message_retention_days", `"realm_default"`)),
		confBad("stale old", "update-stream", confAdmin, confPATCH, "/streams/7", confP("can_send_message_group", `{"new": 6, "old": 8}`), 400, "EXPECTATION_MISMATCH"),
		confBad("name taken", "update-stream", confAdmin, confPATCH, "/streams/7", confP("new_name", "General"), 409, "CHANNEL_ALREADY_EXISTS"),
		confBad("not an administrator", "update-stream", confMember, confPATCH, "/streams/1", confP("description", "x"), 400, "BAD_REQUEST"),
		confOK("unarchive", "update-stream", confOwner, confPATCH, "/streams/5", confP("is_archived", "false")),
		// do_unarchive_stream, validate_topics_policy, the access check and
		// the protected-history rule (zerver/actions/streams.py, zerver/lib/streams.py).
		confBad("unarchive an active channel", "update-stream", confOwner, confPATCH, "/streams/1", confP("is_archived", "false"), 400, "BAD_REQUEST"),
		confBad("empty topic only, with named topics", "update-stream", confOwner, confPATCH, "/streams/1", confP("topics_policy", "empty_topic_only"), 400, "BAD_REQUEST"),
		confBad("web-public, not enabled", "update-stream", confOwner, confPATCH, "/streams/1", confP("is_web_public", "true"), 400, "BAD_REQUEST"),
		confBad("no access", "update-stream", confMember2, confPATCH, "/streams/4", confP("description", "x"), 400, "BAD_REQUEST"),
		confBad("protected history, topics by moderators", "update-stream", confOwner, confPATCH, "/streams/3", confP(
			"can_create_topic_group", `{"new": 3}`), 400, "BAD_REQUEST"),
		confBad("the default flag, not administering the channel", "update-stream", confMember, confPATCH, "/streams/1", confP("is_default_stream", "true"), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "archive-stream", steps: []confStep{
		confOK("archive", "archive-stream", confAdmin, confDELETE, "/streams/7", nil),
		confBad("again", "archive-stream", confAdmin, confDELETE, "/streams/7", nil, 400, "BAD_REQUEST"),
		confBad("unknown", "archive-stream", confAdmin, confDELETE, "/streams/999", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "register-queue", name: "get-events (channels)", opts: refserver.Options{FeatureLevel: 420}, steps: []confStep{
		confCapture(confOK("register", "register-queue", confAdmin, confPOST, "/register", confP("event_types", `["stream"]`)), "queue_id", "queue_id"),
		confOK("create", "create-channel", confAdmin, confPOST, "/channels/create", confP("name", "ev", "subscribers", "[2]")),
		confOK("update", "update-stream", confAdmin, confPATCH, "/streams/7", confP("description", "d", "can_send_message_group", `{"new": 5}`, "is_private", "true")),
		confOK("archive", "archive-stream", confAdmin, confDELETE, "/streams/1", nil),
		confOK("the events", "get-events", confAdmin, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
	}})
}

// confCasesSubscriptions are the requests of subscriptions and default channels, and their events.
func confCasesSubscriptions(add func(confGroup)) {
	add(confGroup{op: "subscribe", steps: []confStep{
		confOK("others, to an existing and a new channel", "subscribe", confAdmin, confPOST, "/users/me/subscriptions", confP(
			"subscriptions", `[{"name": "random"}, {"name": "new-one", "description": "New"}]`, "principals", "[5, 6]",
			"authorization_errors_fatal", "false", "announce", "false", "invite_only", "false", "is_web_public", "false",
			"is_default_stream", "false", "history_public_to_subscribers", "true", "message_retention_days", `"realm_default"`,
			"default_push_notifications", "false", "topics_policy", `"inherit"`, "can_add_subscribers_group", "2",
			"can_remove_subscribers_group", "2", "can_administer_channel_group", "2", "can_delete_any_message_group", "2",
			"can_delete_own_message_group", "6", "can_move_messages_out_of_channel_group", "2", "can_move_messages_within_channel_group", "2",
			"can_send_message_group", "6", "can_subscribe_group", "8", "can_resolve_topics_group", "2", "can_create_topic_group", "6",
			"folder_id", "null", "send_new_subscription_messages", "false")),
		confOK("oneself, already subscribed", "subscribe", confMember, confPOST, "/users/me/subscriptions", confP("subscriptions", `[{"name": "general"}]`)),
		confOK("a private channel, not fatal", "subscribe", confMember2, confPOST, "/users/me/subscriptions", confP(
			"subscriptions", `[{"name": "leadership"}]`, "authorization_errors_fatal", "false")),
		confBad("a private channel", "subscribe", confMember2, confPOST, "/users/me/subscriptions", confP("subscriptions", `[{"name": "leadership"}]`), 400, "BAD_REQUEST"),
		confBad("guest", "subscribe", confGuest, confPOST, "/users/me/subscriptions", confP("subscriptions", `[{"name": "general"}]`), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "unsubscribe", steps: []confStep{
		confOK("others", "unsubscribe", confAdmin, confDELETE, "/users/me/subscriptions", confP("subscriptions", `["random"]`, "principals", "[5, 1]")),
		confOK("oneself", "unsubscribe", confMember, confDELETE, "/users/me/subscriptions", confP("subscriptions", `["general"]`)),
		confBad("unknown channel", "unsubscribe", confMember, confDELETE, "/users/me/subscriptions", confP("subscriptions", `["nope"]`), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "add-default-stream", steps: []confStep{
		confCapture(confOK("register", "register-queue", confMember, confPOST, "/register", confP("event_types", `["default_streams"]`)), "queue_id", "queue_id"),
		confOK("add", "add-default-stream", confAdmin, confPOST, "/default_streams", confP("stream_id", "7")),
		confBad("a private channel", "add-default-stream", confAdmin, confPOST, "/default_streams", confP("stream_id", "3"), 400, "BAD_REQUEST"),
		confBad("unknown", "add-default-stream", confAdmin, confPOST, "/default_streams", confP("stream_id", "999"), 400, "BAD_REQUEST"),
		confBad("a member", "add-default-stream", confMember, confPOST, "/default_streams", confP("stream_id", "7"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confOK("the events", "get-events", confMember, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
		confOK("the defaults", "register-queue", confMember, confPOST, "/register", confP("fetch_event_types", `["default_streams"]`)),
	}})
	add(confGroup{op: "remove-default-stream", steps: []confStep{
		confOK("remove", "remove-default-stream", confAdmin, confDELETE, "/default_streams", confP("stream_id", "1")),
		confOK("again", "remove-default-stream", confAdmin, confDELETE, "/default_streams", confP("stream_id", "1")),
		confBad("unknown", "remove-default-stream", confAdmin, confDELETE, "/default_streams", confP("stream_id", "999"), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "register-queue", name: "get-events (archived channels)", steps: []confStep{
		confCapture(confOK("register", "register-queue", confAdmin, confPOST, "/register", confP("event_types", `["stream"]`,
			"client_capabilities", `{"archived_channels": true}`)), "queue_id", "queue_id"),
		confOK("archive", "archive-stream", confAdmin, confDELETE, "/streams/7", nil),
		confOK("unarchive", "update-stream", confAdmin, confPATCH, "/streams/7", confP("is_archived", "false")),
		confOK("the events", "get-events", confAdmin, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
	}})
	add(confGroup{op: "register-queue", name: "get-events (subscriptions)", steps: []confStep{
		confCapture(confOK("register", "register-queue", confMember, confPOST, "/register", confP("event_types", `["subscription", "stream"]`)), "queue_id", "queue_id"),
		confOK("subscribed by an administrator", "subscribe", confAdmin, confPOST, "/users/me/subscriptions", confP(
			"subscriptions", `[{"name": "ev-subs"}]`, "principals", "[5, 2]")),
		confOK("unsubscribed", "unsubscribe", confAdmin, confDELETE, "/users/me/subscriptions", confP("subscriptions", `["ev-subs"]`, "principals", "[5]")),
		confOK("the events", "get-events", confMember, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
	}})
	add(confGroup{op: "register-queue", name: "register-queue (subscriptions)", steps: []confStep{
		confOK("with subscribers", "register-queue", confAdmin, confPOST, "/register", confP(
			"fetch_event_types", `["subscription"]`, "include_subscribers", "true", "client_capabilities", `{"archived_channels": true}`)),
		confOK("without", "register-queue", confGuest, confPOST, "/register", confP("fetch_event_types", `["subscription"]`)),
	}})
	add(confGroup{op: "get-subscribers", steps: []confStep{
		confOK("public", "get-subscribers", confMember, confGET, "/streams/1/members", nil),
		confBad("unknown", "get-subscribers", confMember, confGET, "/streams/999/members", nil, 400, "BAD_REQUEST"),
	}})
}

// confSpectators makes a step run after the organization enabled
// enable_spectator_access (out of band).
func confSpectators(step confStep) confStep {
	step.before = func(srv *refserver.Server) {
		srv.Do(func(r *refserver.Realm) { r.SetSetting("enable_spectator_access", true) })
	}
	return step
}
