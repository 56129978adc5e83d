package refserver_test

import (
	"strings"
)

func init() { confAreas["status"] = confCasesStatus }

// confCasesStatus are the conformance requests of user status.
func confCasesStatus(add func(confGroup)) {
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
}
