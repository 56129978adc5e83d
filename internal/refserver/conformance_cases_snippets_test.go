package refserver_test

func init() { confAreas["snippets"] = confCasesSnippets }

// confCasesSnippets are the conformance requests of saved snippets.
func confCasesSnippets(add func(confGroup)) {
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
}
