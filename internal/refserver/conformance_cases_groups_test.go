package refserver_test

func init() { confAreas["groups"] = confCasesGroups }

// confCasesGroups are the conformance requests of user groups.
func confCasesGroups(add func(confGroup)) {
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
}
