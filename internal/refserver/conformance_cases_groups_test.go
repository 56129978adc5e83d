package refserver_test

import "github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"

func init() { confAreas["groups"] = confCasesGroups }

// confHook is the seeded incoming webhook bot.
const confHook = refserver.SeedIncomingBotID

// confCasesGroups are the conformance requests of user groups.
func confCasesGroups(add func(confGroup)) {
	confCasesGroupReads(add)
	confCasesGroupWrites(add)
}

// confCasesGroupReads are the requests that read user groups and their members, and
// the group endpoints called by bots.
func confCasesGroupReads(add func(confGroup)) {
	add(confGroup{op: "get-user-groups", steps: []confStep{
		confOK("member", "get-user-groups", confMember, confGET, "/user_groups", nil),
		confOK("with deactivated", "get-user-groups", confAdmin, confGET, "/user_groups", confP("include_deactivated_groups", "true")),
		confBad("guest", "get-user-groups", confGuest, confGET, "/user_groups", nil, 400, ""),
		// From feature level 496 bots may call the group endpoints; an
		// incoming webhook bot never (validate_api_key).
		confFL(confOK("bot", "get-user-groups", confBot, confGET, "/user_groups", nil), 496, 0),
		confBad("incoming webhook bot", "get-user-groups", confHook, confGET, "/user_groups", nil, 401, "UNAUTHORIZED"),
	}})
	// Below feature level 496, require_member_or_admin refuses bots on the
	// eight decorated endpoints; the deactivation has no decorator.
	add(confGroup{op: "get-user-groups", name: "user group endpoints (bots before feature level 496)", noAuth: true,
		opts: refserver.Options{FeatureLevel: 495}, steps: []confStep{
			confBad("list", "get-user-groups", confBot, confGET, "/user_groups", nil, 400, "BAD_REQUEST"),
			confBad("members", "get-user-group-members", confBot, confGET, "/user_groups/12/members", nil, 400, "BAD_REQUEST"),
			confBad("subgroups", "get-user-group-subgroups", confBot, confGET, "/user_groups/12/subgroups", nil, 400, "BAD_REQUEST"),
			confBad("membership", "get-is-user-group-member", confBot, confGET, "/user_groups/12/members/5", nil, 400, "BAD_REQUEST"),
			confBad("create", "create-user-group", confBot, confPOST, "/user_groups/create", confP(
				"name", "x", "description", "", "members", "[]"), 400, "BAD_REQUEST"),
			confBad("update", "update-user-group", confBot, confPATCH, "/user_groups/9", confP("description", "x"), 400, "BAD_REQUEST"),
			confBad("update members", "update-user-group-members", confBot, confPOST, "/user_groups/9/members", confP("add", "[6]"), 400, "BAD_REQUEST"),
			confBad("update subgroups", "update-user-group-subgroups", confBot, confPOST, "/user_groups/9/subgroups", confP("add", "[10]"), 400, "BAD_REQUEST"),
			confOK("let the bot manage a group", "update-user-group", confOwner, confPATCH, "/user_groups/10", confP(
				"can_manage_group", `{"new": {"direct_members": [8], "direct_subgroups": []}}`)),
			confBad("deactivate: reaches the access check", "deactivate-user-group", confBot, confPOST, "/user_groups/10/deactivate", nil,
				400, "CANNOT_DEACTIVATE_GROUP_IN_USE"),
		}})
	// From feature level 496, a bot manages the group it created.
	add(confGroup{op: "create-user-group", name: "user group endpoints (a bot)", noAuth: true, steps: []confStep{
		confFL(confCapture(confOK("create", "create-user-group", confBot, confPOST, "/user_groups/create", confP(
			"name", "bot-made", "description", "", "members", "[5]")), "group_id", "group_id"), 496, 0),
		confFL(confOK("update", "update-user-group", confBot, confPATCH, "/user_groups/${group_id}", confP("description", "By a bot")), 496, 0),
		confFL(confOK("members", "update-user-group-members", confBot, confPOST, "/user_groups/${group_id}/members", confP("add", "[6]", "add_subgroups", "[9]")), 496, 0),
		confFL(confOK("subgroups", "update-user-group-subgroups", confBot, confPOST, "/user_groups/${group_id}/subgroups", confP("add", "[10]")), 496, 0),
		confFL(confOK("get members", "get-user-group-members", confBot, confGET, "/user_groups/${group_id}/members", nil), 496, 0),
		confFL(confOK("membership", "get-is-user-group-member", confBot, confGET, "/user_groups/${group_id}/members/6", nil), 496, 0),
		confFL(confOK("get subgroups", "get-user-group-subgroups", confBot, confGET, "/user_groups/${group_id}/subgroups", nil), 496, 0),
		confFL(confOK("remove subgroups", "update-user-group-subgroups", confBot, confPOST, "/user_groups/${group_id}/subgroups", confP("delete", "[9, 10]")), 496, 0),
		confFL(confOK("deactivate", "deactivate-user-group", confBot, confPOST, "/user_groups/${group_id}/deactivate", nil), 496, 0),
		confFL(confBad("a group it does not manage", "update-user-group", confBot, confPATCH, "/user_groups/9", confP("description", "x"), 400, "BAD_REQUEST"), 496, 0),
		confBad("incoming webhook bot", "create-user-group", confHook, confPOST, "/user_groups/create", confP(
			"name", "x", "description", "", "members", "[]"), 401, "UNAUTHORIZED"),
		confBad("incoming webhook bot deactivating", "deactivate-user-group", confHook, confPOST, "/user_groups/9/deactivate", nil, 401, "UNAUTHORIZED"),
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

// confCasesGroupWrites are the requests that create, update and deactivate user groups and change their members, and their events.
func confCasesGroupWrites(add func(confGroup)) {
	add(confGroup{op: "create-user-group", steps: []confStep{
		confCapture(confOK("create", "create-user-group", confMember, confPOST, "/user_groups/create", confP(
			"name", "designers", "description", "Design", "members", "[5, 11]", "subgroups", "[10]",
			"can_mention_group", `{"direct_members": [5], "direct_subgroups": [2]}`, "can_join_group", "5",
			"can_add_members_group", "2", "can_leave_group", "6", "can_manage_group", `{"direct_members": [5], "direct_subgroups": []}`,
			"can_remove_members_group", "8")), "group_id", "group_id"),
		confBad("name taken", "create-user-group", confMember, confPOST, "/user_groups/create", confP(
			"name", "designers", "description", "", "members", "[]"), 400, "BAD_REQUEST"),
		confBad("reserved prefix", "create-user-group", confMember, confPOST, "/user_groups/create", confP(
			"name", "role:designers", "description", "", "members", "[]"), 400, "BAD_REQUEST"),
		confBad("deactivated member", "create-user-group", confMember, confPOST, "/user_groups/create", confP(
			"name", "x", "description", "", "members", "[10]"), 400, "BAD_REQUEST"),
		confBad("role:internet", "create-user-group", confMember, confPOST, "/user_groups/create", confP(
			"name", "x", "description", "", "members", "[]", "can_mention_group", "7"), 400, "BAD_REQUEST"),
		confBad("missing members", "create-user-group", confMember, confPOST, "/user_groups/create", confP(
			"name", "x", "description", ""), 400, "REQUEST_VARIABLE_MISSING"),
		confBad("guest", "create-user-group", confGuest, confPOST, "/user_groups/create", confP(
			"name", "x", "description", "", "members", "[]"), 400, "BAD_REQUEST"),
		confOK("the new group", "get-user-groups", confMember, confGET, "/user_groups", nil),
	}})
	add(confGroup{op: "update-user-group", steps: []confStep{
		confOK("rename", "update-user-group", confOwner, confPATCH, "/user_groups/9", confP("name", "backend-team", "description", "Backend")),
		confOK("a setting with old", "update-user-group", confOwner, confPATCH, "/user_groups/9", confP(
			"can_join_group", `{"new": {"direct_members": [5], "direct_subgroups": [4]}, "old": 8}`)),
		confBad("a stale old", "update-user-group", confOwner, confPATCH, "/user_groups/9", confP(
			"can_join_group", `{"new": 5, "old": 8}`), 400, "EXPECTATION_MISMATCH"),
		confBad("nothing", "update-user-group", confOwner, confPATCH, "/user_groups/9", nil, 400, "BAD_REQUEST"),
		confBad("a system group", "update-user-group", confOwner, confPATCH, "/user_groups/5", confP("description", "x"), 400, "BAD_REQUEST"),
		confBad("not a manager", "update-user-group", confAdmin, confPATCH, "/user_groups/9", confP("description", "x"), 400, "BAD_REQUEST"),
		confOK("every setting", "update-user-group", confOwner, confPATCH, "/user_groups/9", confP(
			"can_add_members_group", `{"new": 2}`, "can_leave_group", `{"new": 6, "old": 6}`, "can_manage_group", `{"new": {"direct_members": [1], "direct_subgroups": []}}`,
			"can_remove_members_group", `{"new": 8, "old": null}`)),
		confOK("reactivate", "update-user-group", confOwner, confPATCH, "/user_groups/11", confP("deactivated", "false")),
	}})
	add(confGroup{op: "deactivate-user-group", steps: []confStep{
		confBad("in use", "deactivate-user-group", confOwner, confPOST, "/user_groups/9/deactivate", nil, 400, "CANNOT_DEACTIVATE_GROUP_IN_USE"),
		confOK("unused", "deactivate-user-group", confOwner, confPOST, "/user_groups/12/deactivate", nil),
		confBad("again", "deactivate-user-group", confOwner, confPOST, "/user_groups/12/deactivate", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "update-user-group-members", steps: []confStep{
		confOK("add and remove", "update-user-group-members", confOwner, confPOST, "/user_groups/9/members", confP("add", "[6]", "delete", "[5]")),
		confOK("subgroups", "update-user-group-members", confOwner, confPOST, "/user_groups/9/members", confP("add_subgroups", "[10]")),
		confBad("already a member", "update-user-group-members", confOwner, confPOST, "/user_groups/9/members", confP("add", "[6]"), 400, "BAD_REQUEST"),
		confBad("a cycle", "update-user-group-members", confOwner, confPOST, "/user_groups/9/members", confP("add_subgroups", "[12]"), 400, "BAD_REQUEST"),
		confBad("nothing", "update-user-group-members", confOwner, confPOST, "/user_groups/9/members", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "update-user-group-subgroups", steps: []confStep{
		confOK("add", "update-user-group-subgroups", confOwner, confPOST, "/user_groups/10/subgroups", confP("add", "[9]")),
		// Adding subgroups needs can_add_members_group, removing them can_manage_group.
		confOK("let a member add", "update-user-group", confOwner, confPATCH, "/user_groups/10", confP(
			"can_add_members_group", `{"new": {"direct_members": [5], "direct_subgroups": []}}`)),
		confOK("add with can_add_members_group", "update-user-group-subgroups", confMember, confPOST, "/user_groups/10/subgroups", confP("add", "[3]")),
		confBad("remove without can_manage_group", "update-user-group-subgroups", confMember, confPOST, "/user_groups/10/subgroups", confP("delete", "[3]"), 400, "BAD_REQUEST"),
		confBad("not a subgroup", "update-user-group-subgroups", confOwner, confPOST, "/user_groups/10/subgroups", confP("delete", "[12]"), 400, "BAD_REQUEST"),
		confOK("remove", "update-user-group-subgroups", confOwner, confPOST, "/user_groups/10/subgroups", confP("delete", "[9]")),
		confOK("remove through members", "update-user-group-members", confOwner, confPOST, "/user_groups/12/members", confP("delete_subgroups", "[9]")),
	}})
	// The events of group changes, validated against the description's schemas.
	add(confGroup{op: "register-queue", name: "get-events (user groups)", opts: refserver.Options{FeatureLevel: 420}, steps: []confStep{
		confCapture(confOK("register", "register-queue", confMember, confPOST, "/register", confP("event_types", `["user_group"]`)), "queue_id", "queue_id"),
		confOK("create", "create-user-group", confMember, confPOST, "/user_groups/create", confP("name", "ev", "description", "", "members", "[5]")),
		confOK("update", "update-user-group", confOwner, confPATCH, "/user_groups/9", confP("name", "b2", "can_mention_group", `{"new": 5}`)),
		confOK("members", "update-user-group-members", confOwner, confPOST, "/user_groups/9/members", confP("add", "[6]", "add_subgroups", "[10]")),
		confOK("deactivate", "deactivate-user-group", confOwner, confPOST, "/user_groups/13/deactivate", nil),
		confOK("the events", "get-events", confMember, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
	}})
}
