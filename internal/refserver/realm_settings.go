package refserver

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
)

// The organization's settings: PATCH /realm (newest Zulip's
// zerver/views/realm.py update_realm) and the register snapshot's realm_*
// keys, both driven by internal/realmspec's table. The permissions among them
// are the group settings of realm_permissions.go.

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
func (r *Realm) eventValue(sp realmspec.Setting, fl int) any {
	switch sp.Kind {
	case realmspec.Permission:
		return r.settingForAPI(r.Settings.GroupSettings[sp.Name]).Wire()
	case realmspec.AuthMethods:
		return r.authMethodsWire(fl)
	}
	return r.realmValue(sp)
}

// realmValue is a setting's value in the register snapshot's form.
func (r *Realm) realmValue(sp realmspec.Setting) any {
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
func (r *Realm) setRealmValue(sp realmspec.Setting, v any) {
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

// SetSetting changes an organization setting of internal/realmspec behind the
// API's back (for tests of drift), in the register snapshot's form; it
// reports whether the setting exists.
func (r *Realm) SetSetting(name string, value any) bool {
	sp, ok := realmspec.ByName(name)
	if ok {
		r.setRealmValue(sp, value)
	}
	return ok
}

// Setting returns an organization setting in the register snapshot's form.
func (r *Realm) Setting(name string) any {
	sp, _ := realmspec.ByName(name)
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
	for _, sp := range realmspec.Settings {
		switch {
		case sp.Kind == realmspec.AuthMethods:
			out[sp.Register()] = s.realm.authMethodsWire(fl)
		case sp.Kind != realmspec.Permission && fl >= sp.FL:
			out[sp.Register()] = s.realm.realmValue(sp)
		}
	}
}

// realmChange is one parsed parameter of PATCH /realm.
type realmChange struct {
	sp      realmspec.Setting
	value   any           // register form (not for permissions)
	setting settingChange // permissions
}

// updateRealm is update_realm: an administrator's change to the
// organization's settings. Every parameter is read and checked before any is
// applied, in the view's order, so that a refused request changes nothing.
func (s *Server) updateRealm(c *call) (obj, error) {
	if !c.user.IsAdmin() {
		return nil, errPrincipal("administrator")
	}
	r := c.realm()
	changes, err := c.settingParams(realmspec.Settings)
	if err != nil {
		return nil, err
	}
	for _, ch := range changes {
		if ch.sp.Owner && !c.user.IsOwner() {
			return nil, errPrincipal("owner")
		}
	}
	if err := c.checkPlanLimits(changes); err != nil {
		return nil, err
	}
	// The permissions: each checked against its expected old value and rules.
	for _, ch := range changes {
		if ch.sp.Kind != realmspec.Permission {
			continue
		}
		if _, err := r.changedSetting(r.Settings.GroupSettings[ch.sp.Name], ch.setting); err != nil {
			return nil, err
		}
		if err := c.checkSettingValue(ch.sp.Name, realmPermissionConfigs[ch.sp.Name], r.canonicalSetting(ch.setting.New)); err != nil {
			return nil, err
		}
	}
	for _, ch := range changes {
		switch ch.sp.Kind {
		case realmspec.Permission:
			r.Settings.GroupSettings[ch.sp.Name] = r.storedSetting(r.canonicalSetting(ch.setting.New))
			continue
		case realmspec.AuthMethods:
			var methods map[string]bool
			text, _ := ch.value.(string)
			_ = json.Unmarshal([]byte(text), &methods) // checked by checkAuthMethods
			if r.Settings.AuthMethods == nil {
				r.Settings.AuthMethods = map[string]bool{}
			}
			for name, on := range methods {
				r.Settings.AuthMethods[name] = on
			}
			continue
		}
		r.setRealmValue(ch.sp, registerForm(ch.sp, ch.value))
	}
	return obj{}, nil
}

// settingParams reads and checks the parameters of a table's settings that
// the server's level knows (the others land in ignored_parameters_unsupported,
// as on an older server).
func (c *call) settingParams(specs []realmspec.Setting) ([]realmChange, error) {
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
		if err := c.checkRealmChange(ch); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

// realmParam reads one setting's parameter, typed as the view declares it.
func (c *call) realmParam(sp realmspec.Setting) (realmChange, bool, error) {
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
	case realmspec.Bool:
		var b bool
		if err := decode(&b); err != nil {
			return ch, true, errInvalid(sp.Name + " is not a boolean")
		}
		ch.value = b
	case realmspec.AuthMethods:
		ch.value = text
	case realmspec.Text, realmspec.Language:
		if sp.MaxLength > 0 && len([]rune(text)) > sp.MaxLength {
			return ch, true, errInvalid(sp.Name + " is too long (limit: " + strconv.Itoa(sp.MaxLength) + " characters)")
		}
		ch.value = text
	case realmspec.IntEnum, realmspec.Count, realmspec.Channel:
		var n int
		if err := decode(&n); err != nil {
			return ch, true, errInvalid(sp.Name + " is not an integer")
		}
		ch.value = n
	case realmspec.StringEnum, realmspec.JitsiURL:
		if sp.Plain {
			ch.value = text
			break
		}
		var v string
		if err := decode(&v); err != nil {
			return ch, true, errInvalid(sp.Name + " is not a string")
		}
		ch.value = v
	case realmspec.Limit, realmspec.Retention:
		var v any
		if err := decode(&v); err != nil {
			return ch, true, err
		}
		ch.value = v
	case realmspec.Permission:
		change, err := c.optSettingChange(sp.Name)
		if err != nil {
			return ch, true, err
		}
		ch.setting = *change
	}
	return ch, true, nil
}

// checkRealmChange checks a value against its setting and turns it into the
// register snapshot's form.
func (c *call) checkRealmChange(ch realmChange) error {
	sp := ch.sp
	r := c.realm()
	// realmParam stored the value with the kind's Go type.
	n, _ := ch.value.(int)
	text, _ := ch.value.(string)
	switch sp.Kind {
	case realmspec.AuthMethods:
		_, err := c.checkAuthMethods(text)
		return err
	case realmspec.Language:
		if !slices.Contains(realmLanguages, text) {
			return errBadRequest("Invalid language '%s'", ch.value)
		}
	case realmspec.IntEnum:
		if !slices.ContainsFunc(sp.Values, func(v realmspec.Value) bool { return v.Code == n }) {
			if sp.Name == "video_chat_provider" {
				return errBadRequest("Invalid video_chat_provider %d", n)
			}
			return errInvalid("Invalid " + sp.Name)
		}
	case realmspec.StringEnum:
		if !slices.ContainsFunc(sp.Values, func(x realmspec.Value) bool { return x.WireString() == text }) {
			return errInvalid("Invalid " + sp.Name)
		}
	case realmspec.Count:
		if n < 0 {
			return errInvalid(sp.Name + " is too small")
		}
	case realmspec.Limit:
		if _, err := limitValue(sp.Name, ch.value); err != nil {
			return err
		}
	case realmspec.Retention:
		if !c.user.IsOwner() {
			return errPrincipal("owner")
		}
		if _, err := limitValue(sp.Name, ch.value); err != nil {
			return err
		}
	case realmspec.Channel:
		if n == -1 {
			return nil
		}
		channel := r.Channels[n]
		if channel == nil || channel.IsArchived || !c.s.canAccessChannelMetadata(c.user, channel) {
			return errBadRequest("Invalid channel ID")
		}
		if sp.Private && !channel.InviteOnly {
			return errBadRequest("Moderation request channel must be private.")
		}
	case realmspec.JitsiURL:
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
func registerForm(sp realmspec.Setting, v any) any {
	switch sp.Kind {
	case realmspec.Limit:
		n, _ := limitValue(sp.Name, v)
		if n < 0 {
			return nil
		}
		return n
	case realmspec.Retention:
		n, _ := limitValue(sp.Name, v)
		return n
	case realmspec.JitsiURL:
		if v == "server_default" {
			return nil
		}
	}
	return v
}

// withRealmEvents sends the realm events of a settings change, from the
// values before and after the handler: realm update for a plain value, and
// update_dict (property "default") for the limits, the Jitsi server and the
// permissions, as do_set_realm_property and
// do_change_realm_permission_group_setting do.
func (s *Server) withRealmEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		r := s.realm
		before := map[string]any{}
		for _, sp := range realmspec.Settings {
			before[sp.Name] = r.eventValue(sp, s.opts.FeatureLevel)
		}
		payload, err := h(c)
		if err != nil {
			return payload, err
		}
		for _, sp := range realmspec.Settings {
			now := r.eventValue(sp, s.opts.FeatureLevel)
			if sameRealmValue(before[sp.Name], now) {
				continue
			}
			switch sp.Kind {
			case realmspec.Limit, realmspec.JitsiURL, realmspec.Permission, realmspec.AuthMethods:
				s.emit(obj{"type": "realm", "op": "update_dict", "property": "default", "data": obj{sp.Name: now}}, nil)
			default:
				s.emit(obj{"type": "realm", "op": "update", "property": sp.Name, "value": now}, nil)
			}
		}
		return payload, nil
	}
}
