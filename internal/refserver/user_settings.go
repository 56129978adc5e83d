package refserver

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"time"
	_ "time/tzdata" // time zones as zoneinfo knows them, whatever the host has
)

// PATCH /settings: a user's own settings, and from feature level 444 an
// administrator's change of other users' settings (target_users), after
// newest Zulip's zerver/views/user_settings.py json_change_settings and
// zerver/actions/user_settings.py (do_change_user_setting,
// bulk_change_user_setting). The settings are UserProfile.property_types:
// the table of PATCH /realm/user_settings_defaults plus the four Zulip keeps
// out of it (userOnlySettings). Choices:
//   - a user's setting that was never changed has the table's default (Zulip
//     copies the organization's defaults when the account is created);
//   - "already edited" (skip_if_already_edited) is a change the user made
//     themselves through this endpoint, which is what Zulip's
//     RealmAuditLog query (acting_user = modified_user) finds;
//   - a new e-mail address is checked (validate_email_change_request) and
//     then left as it is: Zulip changes it only when the confirmation link it
//     mails is followed; the "email_change_by_user" rate limit is not
//     modelled;
//   - each change sends the user_settings update event to its user; the
//     legacy update_display_settings and update_global_notifications events,
//     and register's user_settings section, are not served;
//   - an unknown time zone is "Not a recognized time zone", the ValueError of
//     check_timezone (zerver/lib/typed_endpoint_validators.py).

func init() {
	registerArea("user_settings", area{routes: (*Server).routesUserSettings})
}

// Feature levels: the endpoint's merged form (80) and target_users (444).
const (
	userSettingsFL       = 80
	userSettingsTargetFL = 444
)

// userOnlySettings are the property_types PATCH /realm/user_settings_defaults
// does not take.
var userOnlySettings = []realmSetting{
	{Name: "allow_private_data_export", Kind: kindBool, FL: 293, Default: false},
	{Name: "enable_login_emails", Kind: kindBool, Default: true},
	{Name: "enable_marketing_emails", Kind: kindBool, Default: true},
}

// securitySensitiveSettings are UserBaseSettings.SECURITY_SENSITIVE_USER_SETTINGS
// (zerver/models/users.py): an administrator may not change them for others.
var securitySensitiveSettings = []string{"allow_private_data_export", "email_address_visibility",
	"enable_digest_emails", "enable_login_emails", "enable_marketing_emails", "presence_enabled",
	"send_private_typing_notifications", "send_read_receipts", "send_stream_typing_notifications"}

// UserSettings are one user's settings that differ from the defaults, and
// which of them the user changed themselves.
type UserSettings struct {
	Values     map[string]any  `json:"values,omitempty"`
	SelfEdited map[string]bool `json:"self_edited,omitempty"`
}

// routesUserSettings registers the endpoint.
func (s *Server) routesUserSettings() {
	if s.opts.FeatureLevel >= userSettingsFL {
		s.handle("PATCH /settings", authUser, s.withUserEvents(s.changeSettings))
	}
}

// userSetting is a user's value of a setting.
func (r *Realm) userSetting(uid int, sp realmSetting) any {
	if us := r.UserSettings[uid]; us != nil {
		if v, ok := us.Values[sp.Name]; ok {
			return v
		}
	}
	if sp.Name == "default_language" {
		return "en"
	}
	return sp.Default
}

// setUserSetting is do_change_user_setting: the value, the audit of who
// changed it, and the user_settings event to the user.
func (s *Server) setUserSetting(uid int, name string, v any, selfEdit bool) {
	r := s.realm
	if r.UserSettings == nil {
		r.UserSettings = map[int]*UserSettings{}
	}
	us := r.UserSettings[uid]
	if us == nil {
		us = &UserSettings{}
		r.UserSettings[uid] = us
	}
	if us.Values == nil {
		us.Values = map[string]any{}
	}
	us.Values[name] = v
	if selfEdit {
		if us.SelfEdited == nil {
			us.SelfEdited = map[string]bool{}
		}
		us.SelfEdited[name] = true
	}
	s.emitToUser(uid, obj{"type": "user_settings", "op": "update", "property": name, "value": v})
}

// userSettingSpecs are the settings the advertised level has.
func (s *Server) userSettingSpecs() []realmSetting {
	out := []realmSetting{}
	for _, sp := range append(append([]realmSetting{}, realmUserDefaults...), userOnlySettings...) {
		if sp.FL <= s.opts.FeatureLevel {
			out = append(out, sp)
		}
	}
	return out
}

// targetUsers is TargetUsersData.
type targetUsers struct {
	userIDs, groupIDs []int
	skip              bool
}

// targetUsersParam reads target_users, Json[TargetUsersData]: lists of ints
// that default to empty, a required skip_if_already_edited, and the model's
// validator "Either user_ids or group_ids must be provided.".
func (c *call) targetUsersParam() (*targetUsers, error) {
	const name = "target_users"
	var raw map[string]json.RawMessage
	ok, err := c.optJSON(name, &raw)
	if err != nil || !ok {
		return nil, err
	}
	t := &targetUsers{}
	field := func(key string, dst any) error {
		v, ok := raw[key]
		if !ok {
			return nil
		}
		if json.Unmarshal(v, dst) != nil {
			return errInvalid(typeErrorMessage(name+"."+key, string(v), dst))
		}
		return nil
	}
	if err := field("user_ids", &t.userIDs); err != nil {
		return nil, err
	}
	if err := field("group_ids", &t.groupIDs); err != nil {
		return nil, err
	}
	if _, ok := raw["skip_if_already_edited"]; !ok {
		return nil, errInvalid(name + ".skip_if_already_edited field required")
	}
	if err := field("skip_if_already_edited", &t.skip); err != nil {
		return nil, err
	}
	if len(t.userIDs) == 0 && len(t.groupIDs) == 0 {
		return nil, errBadRequest("Either user_ids or group_ids must be provided.")
	}
	return t, nil
}

// changeSettings is json_change_settings (human_users_only).
func (s *Server) changeSettings(c *call) (obj, error) {
	if err := c.requireHuman(); err != nil {
		return nil, err
	}
	r := c.realm()
	var target *targetUsers
	if s.opts.FeatureLevel >= userSettingsTargetFL {
		var err error
		if target, err = c.targetUsersParam(); err != nil {
			return nil, err
		}
	}
	changes, err := c.settingParams(s.userSettingSpecs())
	if err != nil {
		return nil, err
	}
	language, hasLanguage := c.optString("default_language")
	timezone, hasTimezone := c.optString("timezone")
	if hasTimezone && !knownTimezone(timezone) {
		return nil, errInvalid("Not a recognized time zone")
	}
	fullName, hasFullName := c.optString("full_name")
	if hasLanguage {
		changes = append(changes, realmChange{sp: realmSetting{Name: "default_language"}, value: language})
	}
	if target != nil {
		return s.changeOthersSettings(c, target, changes)
	}
	if err := checkSettingsValues(changes); err != nil {
		return nil, err
	}
	me := c.user
	if err := c.changeOwnPasswordAndEmail(); err != nil {
		return nil, err
	}
	if hasFullName && me.FullName != fullName {
		disabled, _ := r.Settings.Values["name_changes_disabled"].(bool)
		if !disabled || me.IsAdmin() {
			name, err := checkFullName(fullName)
			if err != nil {
				return nil, err
			}
			me.FullName = name
		}
	}
	for _, ch := range changes {
		if !sameRealmValue(r.userSetting(me.ID, ch.sp), ch.value) {
			s.setUserSetting(me.ID, ch.sp.Name, ch.value, true)
		}
	}
	if hasTimezone && me.Timezone != timezone {
		me.Timezone = timezone
	}
	return obj{}, nil
}

// settingsValueChecks is check_settings_values: the language, the sound
// and the batching period, checked in this order.
var settingsValueChecks = []struct {
	name  string
	check func(v any) error
}{
	{"default_language", func(v any) error {
		if text, _ := v.(string); !slices.Contains(realmLanguages, text) {
			return errBadRequest("Invalid default_language")
		}
		return nil
	}},
	{"notification_sound", func(v any) error {
		if text, _ := v.(string); !slices.Contains(notificationSounds, text) {
			return errBadRequest("Invalid notification sound '%s'", text)
		}
		return nil
	}},
	{"email_notifications_batching_period_seconds", func(v any) error {
		if n, _ := v.(int); n <= 0 || n > maxEmailBatchingSeconds {
			return errBadRequest("Invalid email batching period: %d seconds", n)
		}
		return nil
	}},
}

// checkSettingsValues runs settingsValueChecks on the changes that have one.
func checkSettingsValues(changes []realmChange) error {
	for _, vc := range settingsValueChecks {
		for _, ch := range changes {
			if ch.sp.Name != vc.name {
				continue
			}
			if err := vc.check(ch.value); err != nil {
				return err
			}
		}
	}
	return nil
}

// changeOwnPasswordAndEmail changes the caller's password when a new one
// is sent (the old one must match, the new one not be weak), then starts
// the change of the caller's address when one is sent.
func (c *call) changeOwnPasswordAndEmail() error {
	me := c.user
	if newPassword, ok := c.optString("new_password"); ok {
		oldPassword, _ := c.optString("old_password")
		if me.Password == "" || oldPassword != me.Password {
			return errBadRequest("Wrong password!")
		}
		if weakPassword(newPassword) {
			return errBadRequest("New password is too weak!")
		}
		me.Password = newPassword
	} else {
		c.optString("old_password")
	}
	if email, ok := c.optString("email"); ok {
		if err := c.realm().checkEmailChange(me, strings.TrimSpace(email)); err != nil {
			return err
		}
	}
	return nil
}

// changeOthersSettings is json_change_settings' target_users branch: an
// administrator; no e-mail, password, time zone or security-sensitive
// setting; the users named and the members of the groups named (recursively,
// deactivated users included, bots left out); for each setting, the users
// whose value differs, less those who changed it themselves when
// skip_if_already_edited. check_settings_values does not run on this branch.
func (s *Server) changeOthersSettings(c *call, target *targetUsers, changes []realmChange) (obj, error) {
	if !c.user.IsAdmin() {
		return nil, errPrincipal("administrator")
	}
	for _, name := range []string{"email", "new_password", "timezone"} {
		if _, ok := c.raw(name); ok {
			return nil, errBadRequest("Cannot change this setting for other users.")
		}
	}
	for _, ch := range changes {
		if slices.Contains(securitySensitiveSettings, ch.sp.Name) {
			return nil, errBadRequest("Cannot change this setting for other users.")
		}
	}
	r := c.realm()
	ids := map[int]bool{}
	for _, gid := range target.groupIDs {
		g := r.Groups[gid]
		if g == nil {
			return nil, errBadRequest("Invalid user group ID: %d", gid)
		}
		for _, m := range r.allGroupMembers(g) {
			ids[m] = true
		}
	}
	for _, uid := range target.userIDs {
		if r.user(uid) == nil {
			return nil, errBadRequest("Invalid user ID: %d", uid)
		}
		ids[uid] = true
	}
	var users []int
	for uid := range ids {
		if u := r.user(uid); u != nil && !u.IsBot {
			users = append(users, uid)
		}
	}
	sort.Ints(users)
	for _, ch := range changes {
		for _, uid := range users {
			if us := r.UserSettings[uid]; target.skip && us != nil && us.SelfEdited[ch.sp.Name] {
				continue
			}
			if !sameRealmValue(r.userSetting(uid, ch.sp), ch.value) {
				s.setUserSetting(uid, ch.sp.Name, ch.value, false)
			}
		}
	}
	return obj{}, nil
}

// allGroupMembers is get_recursive_group_members_union_for_groups for one
// group: its members and its subgroups', deactivated users included.
func (r *Realm) allGroupMembers(g *UserGroup) []int {
	var out []int
	seen := map[int]bool{}
	var walk func(*UserGroup)
	walk = func(grp *UserGroup) {
		if grp == nil || seen[grp.ID] {
			return
		}
		seen[grp.ID] = true
		out = append(out, grp.Members...)
		for _, sg := range grp.DirectSubgroupIDs {
			walk(r.Groups[sg])
		}
	}
	walk(g)
	return out
}

// checkEmailChange is validate_email_change_request for an address that
// differs from the user's: the organization's email_changes_disabled (not
// for administrators), validate_email_is_valid with the realm's validator,
// then validate_email_not_already_in_realm(verbose=False).
func (r *Realm) checkEmailChange(u *User, email string) error {
	if u.Email == email {
		return nil
	}
	if disabled, _ := r.Settings.Values["email_changes_disabled"].(bool); disabled && !u.IsAdmin() {
		return errBadRequest("Email address changes are disabled in this organization.")
	}
	if msg := r.inviteEmailError(email); msg != "" {
		return errBadRequest("%s", msg)
	}
	if other := r.userByEmail(email); other != nil {
		if !other.IsActive {
			return errBadRequest("Account has been deactivated.")
		}
		return errBadRequest("Already has an account.")
	}
	return nil
}

// knownTimezone is check_timezone: a zone zoneinfo finds.
func knownTimezone(name string) bool {
	if name == "" || name == "Local" {
		return false
	}
	_, err := time.LoadLocation(name)
	return err == nil
}
