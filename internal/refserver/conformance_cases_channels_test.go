package refserver_test

func init() { confAreas["channels"] = confCasesChannels }

// confCasesChannels are the conformance requests of channels and topics.
func confCasesChannels(add func(confGroup)) {
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
