package refserver

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
)

// The organization's settings: PATCH /realm (newest Zulip's
// zerver/views/realm.py update_realm) and the register snapshot's realm_*
// keys, both driven by the server's table (realm_settings_table.go). The
// permissions among them are the group settings of realm_permissions.go.

func init() {
	registerArea("realm_settings", area{routes: (*Server).routesRealmSettings})
}

// routesRealmSettings registers PATCH /realm.
func (s *Server) routesRealmSettings() {
	s.handle("PATCH /realm", authUser, s.withRealmEvents(s.updateRealm))
}

// realmLanguages are the language codes this server knows
// (get_available_language_codes: Zulip's translations).
var realmLanguages = []string{"ar", "be", "bg", "bn", "ca", "cs", "cy", "da", "de", "el", "en", "en_GB", "eo", "es",
	"fa", "fi", "fr", "gl", "gu", "hi", "hu", "id", "it", "ja", "ko", "lt", "lzh", "ml", "mn", "nl", "no", "pl", "pt",
	"pt_BR", "pt_PT", "ro", "ru", "si", "sr", "sv", "ta", "tl", "tr", "uk", "ur", "vi", "zh_Hans", "zh_Hant"}

// maxJitsiURLLength is JITSI_SERVER_URL_MAX_LENGTH.
const maxJitsiURLLength = 200

// eventValue is a setting's value as events and the register snapshot carry
// it, permissions and authentication methods included.
func (r *Realm) eventValue(sp realmSetting, fl int) any {
	switch sp.Kind {
	case kindPermission:
		return r.settingForAPI(r.Settings.GroupSettings[sp.Name]).Wire()
	case kindAuthMethods:
		return r.authMethodsWire(fl)
	}
	return r.realmValue(sp)
}

// realmValue is a setting's value in the register snapshot's form.
func (r *Realm) realmValue(sp realmSetting) any {
	switch sp.Name {
	case "name":
		return r.Name
	case "emails_restricted_to_domains":
		return r.Settings.EmailsRestrictedToDomains
	case "disallow_disposable_email_addresses":
		return r.Settings.DisallowDisposableEmail
	case "moderation_request_channel_id":
		return r.ModerationRequestChannelID
	}
	if v, ok := r.Settings.Values[sp.Name]; ok {
		return v
	}
	return sp.Default
}

// setRealmValue stores a setting's value, in the register snapshot's form.
func (r *Realm) setRealmValue(sp realmSetting, v any) {
	s, isString := v.(string)
	b, isBool := v.(bool)
	n, isInt := v.(int)
	switch {
	case sp.Name == "name" && isString:
		r.Name = s
	case sp.Name == "emails_restricted_to_domains" && isBool:
		r.Settings.EmailsRestrictedToDomains = b
	case sp.Name == "disallow_disposable_email_addresses" && isBool:
		r.Settings.DisallowDisposableEmail = b
	case sp.Name == "moderation_request_channel_id" && isInt:
		r.ModerationRequestChannelID = n
	default:
		if r.Settings.Values == nil {
			r.Settings.Values = map[string]any{}
		}
		r.Settings.Values[sp.Name] = v
	}
}

// SetSetting changes an organization setting of the server's table behind the
// API's back (for tests of drift), in the register snapshot's form; it
// reports whether the setting exists.
func (r *Realm) SetSetting(name string, value any) bool {
	sp, ok := realmSettingByName(name)
	if ok {
		r.setRealmValue(sp, value)
	}
	return ok
}

// Setting returns an organization setting in the register snapshot's form.
func (r *Realm) Setting(name string) any {
	sp, _ := realmSettingByName(name)
	return r.realmValue(sp)
}

// sameRealmValue compares two values as their JSON (a state file turns
// integers into floats).
func sameRealmValue(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// registerRealmSettings adds every table setting the level has to the
// register snapshot's realm section (the permissions are
// registerRealmPermissions').
func (s *Server) registerRealmSettings(fl int, out obj) {
	for _, sp := range realmSettings {
		switch {
		case sp.Kind == kindAuthMethods:
			out["realm_"+sp.Name] = s.realm.authMethodsWire(fl)
		case sp.Kind != kindPermission && fl >= sp.FL:
			out["realm_"+sp.Name] = s.realm.realmValue(sp)
		}
	}
}

// realmChange is one parsed parameter of PATCH /realm.
type realmChange struct {
	sp      realmSetting
	value   any           // the parameter, typed as the view declares it (not for permissions)
	setting settingChange // permissions
}

// The settings update_realm handles apart from Realm.property_types, in the
// order it handles them.
var (
	// realmLimitSettings go through parse_and_set_setting_value_if_required
	// before any property is set: each is parsed (and refused) in turn, and
	// set at once when it becomes unlimited.
	realmLimitSettings = []string{"message_content_delete_limit_seconds", "message_content_edit_limit_seconds",
		"move_messages_within_stream_limit_seconds", "move_messages_between_streams_limit_seconds"}
	// realmChannelSettings are set after the permissions, each checked
	// (access_stream_by_id) as it comes.
	realmChannelSettings = []string{"moderation_request_channel_id", "new_stream_announcements_stream_id",
		"signup_announcements_stream_id", "zulip_update_announcements_stream_id"}
	// realmOwnerSettings need an owner, checked in this order after the
	// retention days' own check (which also needs an owner).
	realmOwnerSettings = []string{"invite_required", "create_multiuse_invite_group", "can_create_groups",
		"can_invite_users_group", "can_manage_all_groups", "can_manage_billing_group",
		"emails_restricted_to_domains", "disallow_disposable_email_addresses", "waiting_period_threshold"}
)

// updateRealm is update_realm (zerver/views/realm.py): an administrator's
// change to the organization's settings, in the view's order.
//
//  1. The parameters are parsed and typed (typed_endpoint, in the order of
//     the signature: realmSettings'); nothing is applied if one is refused.
//  2. The checks "beyond types", which the view makes "so the entire request
//     can succeed or fail atomically": the language, the authentication
//     methods, the video call provider, the GIF rating, the retention days,
//     the owner-only settings, the plan's limits. A refusal here changes
//     nothing either.
//  3. Then each change is applied as it comes, each in its own transaction
//     (do_set_realm_property and the like commit one by one: the view is not
//     atomic): the limits (parsed here, so a bad one is refused after the
//     earlier ones were set), the Jitsi server's reset, the plain properties,
//     each permission (checked against its expected old value, then its
//     group, in REALM_PERMISSION_GROUP_SETTINGS' order), the authentication
//     methods, the channels (access_stream_by_id), the organization type. A
//     refusal in this phase leaves what came before applied, and its events
//     sent (withRealmEvents).
//
// The answer lists what changed: a string property as "updated", other
// properties and the limits with their new value (null for unlimited), an
// enumeration of strings with its stored code, each permission with its new
// value, the authentication methods and channels as sent, and org_type
// whenever it is sent.
func (s *Server) updateRealm(c *call) (obj, error) {
	if !c.user.IsAdmin() {
		return nil, errPrincipal("administrator")
	}
	r := c.realm()
	changes, err := c.settingParams(realmSettings)
	if err != nil {
		return nil, err
	}
	sent := map[string]realmChange{}
	for _, ch := range changes {
		sent[ch.sp.Name] = ch
	}
	if err := c.checkRealmRequest(sent); err != nil {
		return nil, err
	}
	data := obj{}
	if err := r.clearRealmLimits(sent, data); err != nil {
		return nil, err
	}
	r.setRealmProperties(sent, data)
	if err := c.setRealmPermissions(sent, data); err != nil {
		return nil, err
	}
	if ch, ok := sent["authentication_methods"]; ok {
		c.setRealmAuthMethods(ch, data)
	}
	for _, name := range realmChannelSettings {
		ch, ok := sent[name]
		if !ok {
			continue
		}
		if err := c.setRealmChannel(ch, data); err != nil {
			return nil, err
		}
	}
	if ch, ok := sent["org_type"]; ok {
		r.setRealmValue(ch.sp, ch.value)
		data["org_type"] = ch.value
	}
	return data, nil
}

// clearRealmLimits is parse_and_set_setting_value_if_required: a limit
// that becomes unlimited is set at once (a number waits for
// setRealmProperties), refusing a bad limit; then jitsi_server_url's reset
// to the server's default.
func (r *Realm) clearRealmLimits(sent map[string]realmChange, data obj) error {
	for _, name := range realmLimitSettings {
		ch, ok := sent[name]
		if !ok {
			continue
		}
		n, err := limitValue(name, ch.value)
		if err != nil {
			return err
		}
		if n < 0 && r.realmValue(ch.sp) != nil {
			r.setRealmValue(ch.sp, nil)
			data[name] = nil
		}
	}
	if ch, ok := sent["jitsi_server_url"]; ok && ch.value == "server_default" && r.realmValue(ch.sp) != nil {
		r.setRealmValue(ch.sp, nil)
		data["jitsi_server_url"] = nil
	}
	return nil
}

// setRealmProperties is Realm.property_types' loop: each plain property
// sent is set when it differs; an enumeration of strings (an Enum, never
// equal to the stored integer) is answered whenever sent.
func (r *Realm) setRealmProperties(sent map[string]realmChange, data obj) {
	for _, sp := range realmSettings {
		ch, ok := sent[sp.Name]
		if !ok || sp.Name == "org_type" || sp.Kind == kindPermission || sp.Kind == kindChannel || sp.Kind == kindAuthMethods {
			continue
		}
		v := registerForm(sp, ch.value)
		if v == nil {
			continue // unlimited, the server's Jitsi: handled by clearRealmLimits
		}
		changed := !sameRealmValue(r.realmValue(sp), v)
		if changed {
			r.setRealmValue(sp, v)
		}
		text, isText := v.(string)
		switch {
		case sp.Kind == kindStringEnum:
			data[sp.Name], _ = sp.code(text)
		case !changed:
		case isText:
			data[sp.Name] = "updated"
		default:
			data[sp.Name] = v
		}
	}
}

// setRealmPermissions sets each permission sent, in
// REALM_PERMISSION_GROUP_SETTINGS' order: checked against its expected old
// value, then its new value against what the setting allows.
func (c *call) setRealmPermissions(sent map[string]realmChange, data obj) error {
	r := c.realm()
	for _, name := range realmPermissionOrder {
		ch, ok := sent[name]
		if !ok {
			continue
		}
		changed, err := r.changedSetting(r.Settings.GroupSettings[name], ch.setting)
		if err != nil {
			return err
		}
		if !changed {
			continue
		}
		value := r.canonicalSetting(ch.setting.New)
		if err := c.checkSettingValue(name, realmPermissionConfigs[name], value); err != nil {
			return err
		}
		r.Settings.GroupSettings[name] = r.storedSetting(value)
		data[name] = value.Wire()
	}
	return nil
}

// setRealmAuthMethods sets the authentication methods sent (checked by
// checkRealmRequest) when they differ from the realm's.
func (c *call) setRealmAuthMethods(ch realmChange, data obj) {
	r := c.realm()
	text, _ := ch.value.(string)
	methods, _ := c.checkAuthMethods(text) // checked in checkRealmRequest
	if r.sameAuthMethods(methods) {
		return
	}
	if r.Settings.AuthMethods == nil {
		r.Settings.AuthMethods = map[string]bool{}
	}
	for name, on := range methods {
		r.Settings.AuthMethods[name] = on
	}
	data["authentication_methods"] = methods
}

// checkRealmRequest is update_realm's checks beyond types, in its order;
// they run before anything is applied.
func (c *call) checkRealmRequest(sent map[string]realmChange) error {
	if err := c.checkRealmValues(sent); err != nil {
		return err
	}
	return c.checkRealmPrivileges(sent)
}

// checkRealmValues is update_realm's first checks: the language, the
// authentication methods, the video chat provider and the GIF rating
// policy must be ones the server offers.
func (c *call) checkRealmValues(sent map[string]realmChange) error {
	if ch, ok := sent["default_language"]; ok && !slices.Contains(realmLanguages, fmt.Sprint(ch.value)) {
		return errBadRequest("Invalid language '%s'", ch.value)
	}
	if ch, ok := sent["authentication_methods"]; ok {
		if _, err := c.checkAuthMethods(fmt.Sprint(ch.value)); err != nil {
			return err
		}
	}
	// Realm.get_enabled_video_chat_providers, and GIF_RATING_POLICY_OPTIONS
	// (checked the same way since giphy_rating's rename at feature level 453).
	for _, name := range []string{"video_chat_provider", "gif_rating_policy"} {
		if ch, ok := sent[name]; ok {
			if n, _ := ch.value.(int); !slices.ContainsFunc(ch.sp.Values, func(v settingValue) bool { return v.Code == n }) {
				return errBadRequest("Invalid %s %d", name, n)
			}
		}
	}
	return nil
}

// checkRealmPrivileges is update_realm's checks of the caller's role and
// the organization's plan, after checkRealmValues: message retention (an
// owner, a plan that has it, a valid limit), group creation, the owners'
// settings, spectator access, and restricted access for guests.
func (c *call) checkRealmPrivileges(sent map[string]realmChange) error {
	r := c.realm()
	if ch, ok := sent["message_retention_days"]; ok {
		if !c.user.IsOwner() {
			return errPrincipal("owner")
		}
		if r.planType() == planLimited {
			return errPlanLimited()
		}
		if _, err := limitValue(ch.sp.Name, ch.value); err != nil {
			return err
		}
	}
	if _, ok := sent["can_create_groups"]; ok && r.planType() == planLimited {
		return errPlanLimited()
	}
	for _, name := range realmOwnerSettings {
		if _, ok := sent[name]; ok && !c.user.IsOwner() {
			return errPrincipal("owner")
		}
	}
	if ch, ok := sent["enable_spectator_access"]; ok && ch.value == true && r.planType() == planLimited {
		return errPlanLimited()
	}
	// can_enable_restricted_user_access_for_guests
	if _, ok := sent["can_access_all_users_group"]; ok && r.planType() != planPlus && r.planType() != planSelfHosted {
		return errBadRequest("Available on Zulip Cloud Plus. Upgrade to access.")
	}
	return nil
}

// sameAuthMethods is update_realm's `realm.authentication_methods_dict() !=
// authentication_methods`: equal only when every method of the server is
// named, with its current state.
func (r *Realm) sameAuthMethods(methods map[string]bool) bool {
	if len(methods) != len(authBackends) {
		return false
	}
	for _, b := range authBackends {
		on, ok := methods[b.name]
		if !ok || on != r.authMethodEnabled(b.name) {
			return false
		}
	}
	return true
}

// setRealmChannel is one of update_realm's channel settings: applied when the
// setting is off or names another channel (so turning off what is off is a
// change), after access_stream_by_id (without content access) and, for the
// moderation requests, do_set_realm_moderation_request_channel's check.
func (c *call) setRealmChannel(ch realmChange, data obj) error {
	r := c.realm()
	n, _ := ch.value.(int)
	current, _ := profileInt(r.realmValue(ch.sp)) // a state file turns integers into floats
	if current >= 0 && current == n {
		return nil
	}
	stored := -1
	if n >= 0 {
		channel := r.Channels[n]
		if channel == nil || channel.IsArchived || !c.s.canAccessChannelMetadata(c.user, channel) {
			return errBadRequest("Invalid channel ID")
		}
		if ch.sp.Private && !channel.InviteOnly {
			return errBadRequest("Moderation request channel must be private.")
		}
		stored = n
	}
	r.setRealmValue(ch.sp, stored)
	data[ch.sp.Name] = n
	return nil
}

// settingParams reads the parameters of a table's settings that the server's
// level knows (the others land in ignored_parameters_unsupported, as on an
// older server), typed and checked as the view's signature does (pydantic and
// the validators it runs), in the table's order.
func (c *call) settingParams(specs []realmSetting) ([]realmChange, error) {
	var changes []realmChange
	for _, sp := range specs {
		if sp.FL > c.s.opts.FeatureLevel {
			continue
		}
		ch, ok, err := c.realmParam(sp)
		if err != nil {
			return nil, err
		}
		if ok {
			changes = append(changes, ch)
		}
	}
	for _, ch := range changes {
		if err := checkParsedSetting(ch); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

// realmParam reads one setting's parameter, typed as the view declares it.
func (c *call) realmParam(sp realmSetting) (realmChange, bool, error) {
	ch := realmChange{sp: sp}
	text, ok := c.raw(sp.Name)
	if !ok {
		return ch, false, nil
	}
	decode := func(dst any) error {
		if !json.Valid([]byte(text)) {
			return errInvalidJSON(sp.Name)
		}
		if json.Unmarshal([]byte(text), dst) != nil {
			return errInvalid(sp.Name + " is not valid")
		}
		return nil
	}
	switch sp.Kind {
	case kindBool:
		var b bool
		if err := decode(&b); err != nil {
			return ch, true, errInvalid(sp.Name + " is not a boolean")
		}
		ch.value = b
	case kindAuthMethods:
		ch.value = text
	case kindText, kindLanguage:
		if sp.MaxLength > 0 && len([]rune(text)) > sp.MaxLength {
			return ch, true, errInvalid(sp.Name + " is too long (limit: " + strconv.Itoa(sp.MaxLength) + " characters)")
		}
		ch.value = text
	case kindIntEnum, kindCount, kindChannel:
		var n int
		if err := decode(&n); err != nil {
			return ch, true, errInvalid(sp.Name + " is not an integer")
		}
		ch.value = n
	case kindStringEnum, kindJitsiURL:
		if sp.Plain {
			ch.value = text
			break
		}
		var v string
		if err := decode(&v); err != nil {
			return ch, true, errInvalid(sp.Name + " is not a string")
		}
		ch.value = v
	case kindLimit, kindRetention:
		var v any
		if err := decode(&v); err != nil {
			return ch, true, err
		}
		ch.value = v
	case kindPermission:
		change, err := c.optSettingChange(sp.Name)
		if err != nil {
			return ch, true, err
		}
		ch.setting = *change
	}
	return ch, true, nil
}

// checkParsedSetting is a value's check that the view's signature makes
// (pydantic's enumerations and bounds, the validators it runs): an unknown
// value of an enumeration is "Invalid <name>" (check_int_in_validator,
// parse_enum_from_string_value). The video call provider and the GIF rating
// are Json[int] in the signature and checked by the view (checkRealmRequest).
func checkParsedSetting(ch realmChange) error {
	sp := ch.sp
	n, _ := ch.value.(int)
	text, _ := ch.value.(string)
	switch sp.Kind {
	case kindIntEnum:
		if sp.Name == "video_chat_provider" || sp.Name == "gif_rating_policy" {
			return nil
		}
		if !slices.ContainsFunc(sp.Values, func(v settingValue) bool { return v.Code == n }) {
			return errInvalid("Invalid " + sp.Name)
		}
	case kindStringEnum:
		if _, ok := sp.code(text); !ok {
			return errInvalid("Invalid " + sp.Name)
		}
	case kindCount:
		if n < 0 {
			return errInvalid(sp.Name + " is too small")
		}
	case kindJitsiURL:
		// check_jitsi_url
		if text == "server_default" {
			return nil
		}
		if u, err := url.Parse(text); err != nil || len(text) > maxJitsiURLLength || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return errInvalid("jitsi_server_url is not an allowed_type")
		}
	}
	return nil
}

// limitValue reads a limit in seconds or days: a positive integer, or
// "unlimited" (returned as -1); anything else is refused as
// parse_and_set_setting_value_if_required and parse_message_retention_days do.
func limitValue(name string, v any) (int, error) {
	switch x := v.(type) {
	case string:
		if x == "unlimited" {
			return -1, nil
		}
		return 0, errBadRequest("Bad value for '%s': %s", name, x)
	case float64:
		if x == float64(int(x)) && x > 0 {
			return int(x), nil
		}
		return 0, errBadRequest("Bad value for '%s': %s", name, strconv.FormatFloat(x, 'f', -1, 64))
	}
	return 0, errInvalid(name + " is not valid")
}

// registerForm turns a parsed value into the register snapshot's form.
func registerForm(sp realmSetting, v any) any {
	switch sp.Kind {
	case kindLimit:
		n, _ := limitValue(sp.Name, v)
		if n < 0 {
			return nil
		}
		return n
	case kindRetention:
		n, _ := limitValue(sp.Name, v)
		return n
	case kindJitsiURL:
		if v == "server_default" {
			return nil
		}
	}
	return v
}

// withRealmEvents sends the realm events of a settings change, from the
// values before and after the handler, whether it succeeded or not: realm update for a plain value, and
// update_dict (property "default") for the limits, the Jitsi server and the
// permissions, as do_set_realm_property and
// do_change_realm_permission_group_setting do.
func (s *Server) withRealmEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		r := s.realm
		before := map[string]any{}
		for _, sp := range realmSettings {
			before[sp.Name] = r.eventValue(sp, s.opts.FeatureLevel)
		}
		// A refused request may have applied its first changes (updateRealm):
		// their events are sent, as Zulip's send_event_on_commit does for
		// each committed change.
		payload, err := h(c)
		for _, sp := range realmSettings {
			now := r.eventValue(sp, s.opts.FeatureLevel)
			if sameRealmValue(before[sp.Name], now) {
				continue
			}
			switch sp.Kind {
			case kindLimit, kindJitsiURL, kindPermission, kindAuthMethods:
				s.emit(obj{"type": "realm", "op": "update_dict", "property": "default", "data": obj{sp.Name: now}}, nil)
			default:
				s.emit(obj{"type": "realm", "op": "update", "property": sp.Name, "value": now}, nil)
			}
		}
		return payload, err
	}
}
