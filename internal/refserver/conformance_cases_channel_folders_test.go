package refserver_test

func init() { confAreas["channel_folders"] = confCasesChannelFolders }

// confCasesChannelFolders are the conformance requests of channel folders.
func confCasesChannelFolders(add func(confGroup)) {
	add(confGroup{op: "create-channel-folder", steps: []confStep{
		confCapture(confOK("create", "create-channel-folder", confAdmin, confPOST, "/channel_folders/create",
			confP("name", "Frontend", "description", "UI work")), "folder", "channel_folder_id"),
		confBad("name taken", "create-channel-folder", confAdmin, confPOST, "/channel_folders/create", confP("name", "FRONTEND", "description", ""), 400, "BAD_REQUEST"),
		confBad("a member", "create-channel-folder", confMember, confPOST, "/channel_folders/create", confP("name", "x", "description", ""), 400, "UNAUTHORIZED_PRINCIPAL"),
	}})
	add(confGroup{op: "get-channel-folders", steps: []confStep{
		confOK("create", "create-channel-folder", confAdmin, confPOST, "/channel_folders/create", confP("name", "A", "description", "")),
		confOK("list", "get-channel-folders", confMember, confGET, "/channel_folders", nil),
		confOK("with archived", "get-channel-folders", confMember, confGET, "/channel_folders", confP("include_archived", "true")),
	}})
	add(confGroup{op: "update-channel-folder", steps: []confStep{
		confOK("create", "create-channel-folder", confAdmin, confPOST, "/channel_folders/create", confP("name", "A", "description", "")),
		confOK("put a channel in it", "update-stream", confAdmin, confPATCH, "/streams/7", confP("folder_id", "1")),
		confBad("archive while in use", "update-channel-folder", confAdmin, confPATCH, "/channel_folders/1", confP("is_archived", "true"), 400, "BAD_REQUEST"),
		confOK("take it out", "update-stream", confAdmin, confPATCH, "/streams/7", confP("folder_id", "null")),
		confOK("rename and archive", "update-channel-folder", confAdmin, confPATCH, "/channel_folders/1", confP("name", "B", "description", "d", "is_archived", "true")),
		confBad("unknown", "update-channel-folder", confAdmin, confPATCH, "/channel_folders/99", confP("name", "C"), 400, "BAD_REQUEST"),
		confOK("register", "register-queue", confAdmin, confPOST, "/register", confP("fetch_event_types", `["channel_folders"]`)),
	}})
	add(confGroup{op: "patch-channel-folders", steps: []confStep{
		confOK("create", "create-channel-folder", confAdmin, confPOST, "/channel_folders/create", confP("name", "A", "description", "")),
		confOK("create another", "create-channel-folder", confAdmin, confPOST, "/channel_folders/create", confP("name", "B", "description", "")),
		confOK("reorder", "patch-channel-folders", confAdmin, confPATCH, "/channel_folders", confP("order", "[2, 1]")),
		confBad("partial", "patch-channel-folders", confAdmin, confPATCH, "/channel_folders", confP("order", "[2]"), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "register-queue", name: "get-events (channel folders)", steps: []confStep{
		confCapture(confOK("register", "register-queue", confMember, confPOST, "/register", confP("event_types", `["channel_folder"]`)), "queue_id", "queue_id"),
		confOK("create", "create-channel-folder", confAdmin, confPOST, "/channel_folders/create", confP("name", "A", "description", "")),
		confOK("create another", "create-channel-folder", confAdmin, confPOST, "/channel_folders/create", confP("name", "B", "description", "")),
		confOK("rename, redescribe, archive", "update-channel-folder", confAdmin, confPATCH, "/channel_folders/1", confP("name", "C", "description", "*d*", "is_archived", "true")),
		confOK("reorder", "patch-channel-folders", confAdmin, confPATCH, "/channel_folders", confP("order", "[2, 1]")),
		confOK("the events", "get-events", confMember, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
	}})
}
