package refserver_test

func init() { confAreas["profile_fields"] = confCasesProfileFields }

// confCasesProfileFields are the conformance requests of custom profile fields and profile data.
func confCasesProfileFields(add func(confGroup)) {
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
		confBad("custom external account without a URL pattern", "create-custom-profile-field", confAdmin, confPOST, "/realm/profile_fields", confP("name", "Forge",
			"field_type", "7", "field_data", `{"subtype":"custom"}`), 400, "BAD_REQUEST"),
		confOK("second field in the profile summary", "create-custom-profile-field", confAdmin, confPOST, "/realm/profile_fields", confP("name", "Desk",
			"field_type", "1", "display_in_profile_summary", "true")),
		confBad("third field in the profile summary", "create-custom-profile-field", confAdmin, confPOST, "/realm/profile_fields", confP("name", "Room",
			"field_type", "1", "display_in_profile_summary", "true"), 400, "BAD_REQUEST"),
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
}
