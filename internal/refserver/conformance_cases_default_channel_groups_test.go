package refserver_test

func init() { confAreas["default_channel_groups"] = confCasesDefaultChannelGroups }

// confCasesDefaultChannelGroups are the conformance requests of default
// channel groups. Zulip's description leaves the endpoints out (an
// experimental feature), so their answers are checked for the envelope; the
// register section and the event are described.
func confCasesDefaultChannelGroups(add func(confGroup)) {
	add(confGroup{op: "create-default-stream-group", steps: []confStep{
		confCapture(confOK("register", "register-queue", confMember, confPOST, "/register", confP("event_types", `["default_stream_groups"]`)), "queue_id", "queue_id"),
		confOK("an administrator", "create-default-stream-group", confAdmin, confPOST, "/default_stream_groups/create",
			confP("group_name", "Design team", "description", "For designers.", "stream_names", `["design","random"]`)),
		confOK("the event", "get-events", confMember, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
		confOK("the groups in register", "register-queue", confMember, confPOST, "/register", confP("fetch_event_types", `["default_stream_groups"]`)),
		confOK("none for a guest", "register-queue", confGuest, confPOST, "/register", confP("fetch_event_types", `["default_stream_groups"]`)),
		confBad("a member", "create-default-stream-group", confMember, confPOST, "/default_stream_groups/create",
			confP("group_name", "x", "description", "", "stream_names", `[]`), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("a default channel", "create-default-stream-group", confAdmin, confPOST, "/default_stream_groups/create",
			confP("group_name", "x", "description", "", "stream_names", `["general"]`), 400, "BAD_REQUEST"),
		confBad("a name taken", "create-default-stream-group", confAdmin, confPOST, "/default_stream_groups/create",
			confP("group_name", "Engineering", "description", "Channels for engineers.", "stream_names", `[]`), 400, "BAD_REQUEST"),
		confBad("an unknown channel", "create-default-stream-group", confAdmin, confPOST, "/default_stream_groups/create",
			confP("group_name", "x", "description", "", "stream_names", `["nope"]`), 400, "BAD_REQUEST"),
		confBad("no name", "create-default-stream-group", confAdmin, confPOST, "/default_stream_groups/create",
			confP("description", "", "stream_names", `[]`), 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "update-default-stream-group-info", steps: []confStep{
		confOK("rename and describe", "update-default-stream-group-info", confAdmin, confPATCH, "/default_stream_groups/1",
			confP("new_group_name", "Eng", "new_description", "Renamed.")),
		confBad("neither", "update-default-stream-group-info", confAdmin, confPATCH, "/default_stream_groups/1", nil, 400, "BAD_REQUEST"),
		confBad("unknown group", "update-default-stream-group-info", confAdmin, confPATCH, "/default_stream_groups/99",
			confP("new_description", "x"), 400, "BAD_REQUEST"),
		confBad("a member", "update-default-stream-group-info", confMember, confPATCH, "/default_stream_groups/1",
			confP("new_description", "x"), 400, "UNAUTHORIZED_PRINCIPAL"),
	}})
	add(confGroup{op: "update-default-stream-group-streams", steps: []confStep{
		confOK("add", "update-default-stream-group-streams", confAdmin, confPATCH, "/default_stream_groups/1/streams",
			confP("op", "add", "stream_names", `["leadership"]`)),
		confOK("remove", "update-default-stream-group-streams", confAdmin, confPATCH, "/default_stream_groups/1/streams",
			confP("op", "remove", "stream_names", `["design","leadership"]`)),
		confBad("already present", "update-default-stream-group-streams", confAdmin, confPATCH, "/default_stream_groups/1/streams",
			confP("op", "add", "stream_names", `["random"]`), 400, "BAD_REQUEST"),
		confBad("a bad op", "update-default-stream-group-streams", confAdmin, confPATCH, "/default_stream_groups/1/streams",
			confP("op", "swap", "stream_names", `[]`), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "remove-default-stream-group", steps: []confStep{
		confBad("a member", "remove-default-stream-group", confMember, confDELETE, "/default_stream_groups/1", nil, 400, "UNAUTHORIZED_PRINCIPAL"),
		confOK("an administrator", "remove-default-stream-group", confAdmin, confDELETE, "/default_stream_groups/1", nil),
		confBad("gone", "remove-default-stream-group", confAdmin, confDELETE, "/default_stream_groups/1", nil, 400, "BAD_REQUEST"),
	}})
}
