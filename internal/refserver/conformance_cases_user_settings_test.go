package refserver_test

func init() { confAreas["user_settings"] = confCasesUserSettings }

// confCasesUserSettings are the conformance requests of PATCH /settings: a
// user's own settings, and other users' (target_users, feature level 444).
func confCasesUserSettings(add func(confGroup)) {
	const members = `{"group_ids":[5],"skip_if_already_edited":true}`
	add(confGroup{op: "update-settings", steps: []confStep{
		confOK("one's own", "update-settings", confMember, confPATCH, "/settings",
			confP("color_scheme", "2", "web_home_view", "inbox", "enable_sounds", "false", "timezone", "Europe/Berlin", "full_name", "Mei M")),
		confOK("every parameter, the settings as they are", "update-settings", confMember, confPATCH, "/settings", confP(append(everyUserDefault(),
			"allow_private_data_export", "false", "enable_login_emails", "true", "enable_marketing_emails", "true", "default_language", "en",
			"email", confEmail("mark"), "old_password", "password-mark", "new_password", "another-passphrase")...)),
		confBad("a bot", "update-settings", confBot, confPATCH, "/settings", confP("color_scheme", "2"), 400, "BAD_REQUEST"),
		confBad("an invalid value", "update-settings", confMember, confPATCH, "/settings", confP("color_scheme", "9"), 400, "BAD_REQUEST"),
		confBad("an unknown sound", "update-settings", confMember, confPATCH, "/settings", confP("notification_sound", "bell"), 400, "BAD_REQUEST"),
		confFL(confOK("an administrator, for the members", "update-settings", confAdmin, confPATCH, "/settings",
			confP("target_users", members, "color_scheme", "3")), 444, 0),
		confFL(confBad("a member, for others", "update-settings", confMember, confPATCH, "/settings",
			confP("target_users", members, "color_scheme", "3"), 400, "UNAUTHORIZED_PRINCIPAL"), 444, 0),
		confFL(confBad("a security-sensitive setting for others", "update-settings", confAdmin, confPATCH, "/settings",
			confP("target_users", members, "presence_enabled", "false"), 400, "BAD_REQUEST"), 444, 0),
		confFL(confBad("no users", "update-settings", confAdmin, confPATCH, "/settings",
			confP("target_users", `{"skip_if_already_edited":true}`, "color_scheme", "3"), 400, "BAD_REQUEST"), 444, 0),
	}})
}
