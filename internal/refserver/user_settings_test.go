package refserver

import (
	"net/http"
	"testing"
)

// usersSetting is a user's value of a setting, as the server holds it.
func usersSetting(e *chatEnv, uid int, name string) any {
	var v any
	e.srv.Do(func(r *Realm) {
		for _, sp := range append(append([]realmSetting{}, realmUserDefaults...), userOnlySettings...) {
			if sp.Name == name {
				v = r.userSetting(uid, sp)
			}
		}
	})
	return chatJSON(v)
}

// A user's own settings (zerver/views/user_settings.py json_change_settings):
// human users only; the values typed as the view declares them; then
// check_settings_values (language, sound, batching period); the full name
// (left as it is, silently, when name changes are disabled and the user is
// no administrator); each changed setting with its user_settings event.
func TestChangeSettings_own(t *testing.T) {
	e := chatNew(t)
	events := msgEvents(e, SeedMemberID, `["user_settings"]`)
	fail := func(user int, msg string, kv ...string) {
		t.Helper()
		e.chatFail(user, http.MethodPatch, "/settings", chatForm(kv...), 400, "BAD_REQUEST", msg)
	}
	fail(SeedBotID, "This endpoint does not accept bot requests.", "color_scheme", "2")
	fail(SeedMemberID, "Invalid color_scheme", "color_scheme", "9")
	fail(SeedMemberID, "Invalid web_home_view", "web_home_view", "everything")
	fail(SeedMemberID, "Invalid default_language", "default_language", "xx")
	fail(SeedMemberID, "Invalid notification sound 'bell'", "notification_sound", "bell")
	fail(SeedMemberID, "Invalid email batching period: 0 seconds", "email_notifications_batching_period_seconds", "0")
	fail(SeedMemberID, "Not a recognized time zone", "timezone", "Mars/Olympus_Mons")
	fail(SeedMemberID, "Name too short!", "full_name", "x")
	if got := events(); len(got) != 0 {
		t.Fatalf("events after refusals: %v", got)
	}

	body := e.chatOK(SeedMemberID, http.MethodPatch, "/settings", chatForm("color_scheme", "2", "web_home_view", "all_messages",
		"enable_login_emails", "false", "default_language", "de", "timezone", "Asia/Tokyo", "full_name", "Mark Renamed"))
	if _, ok := body["ignored_parameters_unsupported"]; ok {
		t.Errorf("ignored: %v", body)
	}
	for name, want := range map[string]string{"color_scheme": "2", "web_home_view": `"all_messages"`, "enable_login_emails": "false"} {
		if got := usersSetting(e, SeedMemberID, name); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	var me User
	e.srv.Do(func(r *Realm) { me = *r.Users[SeedMemberID] })
	if me.FullName != "Mark Renamed" || me.Timezone != "Asia/Tokyo" {
		t.Errorf("name and time zone: %q %q", me.FullName, me.Timezone)
	}
	got := events()
	props := map[any]any{}
	for _, ev := range got {
		props[ev["property"]] = ev["value"]
	}
	if len(got) != 4 || props["color_scheme"] != 2.0 || props["web_home_view"] != "all_messages" ||
		props["enable_login_emails"] != false || props["default_language"] != "de" {
		t.Errorf("events: %v", got)
	}
	// A value equal to the current one changes nothing and sends nothing.
	e.chatOK(SeedMemberID, http.MethodPatch, "/settings", chatForm("color_scheme", "2"))
	if got := events(); len(got) != 4 {
		t.Errorf("an unchanged value sent an event: %v", got[4:])
	}
	// The password: the old one must match, the new one be strong enough.
	fail(SeedMemberID, "Wrong password!", "old_password", "guess", "new_password", "a-strong-passphrase")
	fail(SeedMemberID, "New password is too weak!", "old_password", "password-mark", "new_password", "12345")
	e.chatOK(SeedMemberID, http.MethodPatch, "/settings", chatForm("old_password", "password-mark", "new_password", "a-strong-passphrase"))
	e.srv.Do(func(r *Realm) { me = *r.Users[SeedMemberID] })
	if me.Password != "a-strong-passphrase" {
		t.Errorf("password not changed")
	}
	// A new address is checked (validate_email_change_request), then waits
	// for its confirmation: the address does not change.
	fail(SeedMemberID, "Invalid address.", "email", "not-an-address")
	owner, _ := e.srv.User(SeedOwnerID)
	fail(SeedMemberID, "Already has an account.", "email", owner.Email)
	e.chatOK(SeedMemberID, http.MethodPatch, "/settings", chatForm("email", "mark.new@example.org"))
	e.srv.Do(func(r *Realm) { me = *r.Users[SeedMemberID] })
	if me.Email == "mark.new@example.org" {
		t.Errorf("the address changed before its confirmation")
	}
	// Name changes disabled: a member's new name is dropped without an error.
	e.srv.Do(func(r *Realm) {
		if r.Settings.Values == nil {
			r.Settings.Values = map[string]any{}
		}
		r.Settings.Values["name_changes_disabled"] = true
		r.Settings.Values["email_changes_disabled"] = true
	})
	fail(SeedMemberID, "Email address changes are disabled in this organization.", "email", "mark.new@example.org")
	e.chatOK(SeedAdminID, http.MethodPatch, "/settings", chatForm("email", "ada.new@example.org"))
	e.chatOK(SeedMemberID, http.MethodPatch, "/settings", chatForm("full_name", "Someone Else"))
	e.srv.Do(func(r *Realm) { me = *r.Users[SeedMemberID] })
	if me.FullName != "Mark Renamed" {
		t.Errorf("name changed while disabled: %q", me.FullName)
	}
}

// Other users' settings (feature level 444, json_change_settings' target_users
// branch): an administrator (OrganizationAdministratorRequiredError); no
// e-mail, password or time zone and no SECURITY_SENSITIVE_USER_SETTINGS
// ("Cannot change this setting for other users."); TargetUsersData's
// validator; the users named and the groups' members, bots left out;
// skip_if_already_edited leaves the users who changed the setting themselves
// (RealmAuditLog USER_SETTING_CHANGED with acting_user = modified_user); and
// check_settings_values does not run on this branch.
func TestChangeSettings_others(t *testing.T) {
	e := chatNew(t)
	// The member chooses dark mode themselves; member 2 hears of changes.
	e.chatOK(SeedMemberID, http.MethodPatch, "/settings", chatForm("color_scheme", "2"))
	events := msgEvents(e, SeedMember2ID, `["user_settings"]`)
	memberEvents := msgEvents(e, SeedMemberID, `["user_settings"]`)
	fail := func(user int, status int, code, msg string, kv ...string) {
		t.Helper()
		e.chatFail(user, http.MethodPatch, "/settings", chatForm(kv...), status, code, msg)
	}
	group := `{"group_ids":[` + chatItoa(GroupMembers) + `],"skip_if_already_edited":true}`
	fail(SeedModeratorID, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator", "target_users", group, "color_scheme", "3")
	fail(SeedAdminID, 400, "BAD_REQUEST", "Cannot change this setting for other users.", "target_users", group, "email", "x@example.org")
	fail(SeedAdminID, 400, "BAD_REQUEST", "Cannot change this setting for other users.", "target_users", group, "timezone", "UTC")
	fail(SeedAdminID, 400, "BAD_REQUEST", "Cannot change this setting for other users.", "target_users", group, "send_read_receipts", "false")
	fail(SeedAdminID, 400, "BAD_REQUEST", "target_users.skip_if_already_edited field required", "target_users", `{"user_ids":[5]}`)
	fail(SeedAdminID, 400, "BAD_REQUEST", "target_users.user_ids[0] is not an integer", "target_users", `{"user_ids":["5"],"skip_if_already_edited":false}`)
	fail(SeedAdminID, 400, "BAD_REQUEST", "Either user_ids or group_ids must be provided.", "target_users", `{"user_ids":[],"skip_if_already_edited":false}`)
	fail(SeedAdminID, 400, "BAD_REQUEST", "Invalid user ID: 999", "target_users", `{"user_ids":[999],"skip_if_already_edited":false}`, "color_scheme", "3")
	fail(SeedAdminID, 400, "BAD_REQUEST", "Invalid user group ID: 999", "target_users", `{"group_ids":[999],"skip_if_already_edited":false}`, "color_scheme", "3")
	if got := events(); len(got) != 0 {
		t.Fatalf("events after refusals: %v", got)
	}

	e.chatOK(SeedAdminID, http.MethodPatch, "/settings", chatForm("target_users", group, "color_scheme", "3"))
	for uid, want := range map[int]string{SeedMemberID: "2", SeedMember2ID: "3", SeedModeratorID: "3", SeedOwnerID: "3",
		SeedDeactivatedID: "3", SeedBotID: "1", SeedGuestID: "1"} {
		if got := usersSetting(e, uid, "color_scheme"); got != want {
			t.Errorf("user %d: color_scheme %s, want %s", uid, got, want)
		}
	}
	if got := events(); len(got) != 1 || got[0]["property"] != "color_scheme" || got[0]["value"] != 3.0 {
		t.Errorf("member 2's events: %v", got)
	}
	// Without skip_if_already_edited the member's own choice is overridden;
	// the administrator's change does not count as the member's own.
	e.chatOK(SeedAdminID, http.MethodPatch, "/settings", chatForm("target_users", `{"user_ids":[5,8],"skip_if_already_edited":false}`, "color_scheme", "3"))
	if got := usersSetting(e, SeedMemberID, "color_scheme"); got != "3" {
		t.Errorf("member after an override: %s", got)
	}
	if got := usersSetting(e, SeedBotID, "color_scheme"); got != "1" {
		t.Errorf("a bot named in user_ids: %s", got)
	}
	if got := memberEvents(); len(got) != 1 {
		t.Errorf("member's events: %v", got)
	}
	e.chatOK(SeedAdminID, http.MethodPatch, "/settings", chatForm("target_users", `{"user_ids":[6],"skip_if_already_edited":true}`, "enable_sounds", "false"))
	e.chatOK(SeedAdminID, http.MethodPatch, "/settings", chatForm("target_users", `{"user_ids":[6],"skip_if_already_edited":true}`, "enable_sounds", "true"))
	if got := usersSetting(e, SeedMember2ID, "enable_sounds"); got != "true" {
		t.Errorf("an administrator's earlier change is not the user's own: %s", got)
	}
	// check_settings_values is not called on this branch.
	e.chatOK(SeedAdminID, http.MethodPatch, "/settings", chatForm("target_users", `{"user_ids":[6],"skip_if_already_edited":false}`, "notification_sound", "bell"))
	if got := usersSetting(e, SeedMember2ID, "notification_sound"); got != `"bell"` {
		t.Errorf("notification_sound: %s", got)
	}

	// Before feature level 444, target_users is unknown: the caller's own
	// settings change.
	old := chatNew(t, chatLevel(userSettingsTargetFL-1))
	body := old.chatOK(SeedAdminID, http.MethodPatch, "/settings", chatForm("target_users", group, "color_scheme", "3"))
	if chatJSON(body["ignored_parameters_unsupported"]) != `["target_users"]` {
		t.Errorf("ignored at %d: %v", userSettingsTargetFL-1, body)
	}
	if got := usersSetting(old, SeedAdminID, "color_scheme"); got != "3" {
		t.Errorf("the administrator's own at %d: %s", userSettingsTargetFL-1, got)
	}
}
