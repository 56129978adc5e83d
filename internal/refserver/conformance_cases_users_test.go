package refserver_test

import (
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func init() { confAreas["users"] = confCasesUsers }

// confCasesUsers are the conformance requests of users.
func confCasesUsers(add func(confGroup)) {
	confCasesUserReads(add)
	confCasesUserWrites(add)
}

// confCasesUserReads are the requests that read users.
func confCasesUserReads(add func(confGroup)) {
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
}

// confCasesUserWrites are the requests that create, update, deactivate and reactivate users.
func confCasesUserWrites(add func(confGroup)) {
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
}
