package refserver

import (
	"slices"
)

// The settings new users get: PATCH /realm/user_settings_defaults (newest
// Zulip's update_realm_user_settings_defaults, with check_settings_values)
// and register's realm_user_settings_defaults, driven by
// the server's table (realmUserDefaults).

func init() {
	registerArea("realm_user_defaults", area{routes: (*Server).routesRealmUserDefaults,
		sections: map[string]registerSection{"realm_user_settings_defaults": (*Server).registerRealmUserDefaults}})
}

// userDefaultsFL is the level of the endpoint and the register section.
const userDefaultsFL = 95

// Limits of check_settings_values.
const (
	minEmailBatchingSeconds = 120
	maxEmailBatchingSeconds = 7 * 24 * 60 * 60
)

// availableSounds are the server's sounds (get_available_notification_sounds),
// served as register's available_notification_sounds.
var availableSounds = []string{"chime-saber", "ding", "zulip"}

// notificationSounds are the values notification_sound takes: a sound, or "none".
var notificationSounds = append([]string{"none"}, availableSounds...)

// routesRealmUserDefaults registers the endpoint.
func (s *Server) routesRealmUserDefaults() {
	if s.opts.FeatureLevel >= userDefaultsFL {
		s.handle("PATCH /realm/user_settings_defaults", authUser, s.withUserDefaultsEvents(s.updateRealmUserDefaults))
	}
}

// userDefault is a default's value in the register snapshot's form.
func (r *Realm) userDefault(sp realmSetting) any {
	if v, ok := r.Settings.UserDefaults[sp.Name]; ok {
		return v
	}
	return sp.Default
}

// registerRealmUserDefaults is register's realm_user_settings_defaults.
func (s *Server) registerRealmUserDefaults(rr *registerRequest, out obj) {
	if rr.fl < userDefaultsFL {
		return
	}
	defaults := obj{}
	for _, sp := range realmUserDefaults {
		if rr.fl >= sp.FL {
			defaults[sp.Name] = s.realm.userDefault(sp)
		}
	}
	defaults["available_notification_sounds"] = availableSounds
	out["realm_user_settings_defaults"] = defaults
}

// updateRealmUserDefaults is update_realm_user_settings_defaults: an
// administrator's change; every value is checked before any is applied.
func (s *Server) updateRealmUserDefaults(c *call) (obj, error) {
	if !c.user.IsAdmin() {
		return nil, errPrincipal("administrator")
	}
	r := c.realm()
	changes, err := c.settingParams(realmUserDefaults)
	if err != nil {
		return nil, err
	}
	for _, ch := range changes {
		n, _ := ch.value.(int)
		text, _ := ch.value.(string)
		switch ch.sp.Name {
		case "notification_sound":
			if !slices.Contains(notificationSounds, text) {
				return nil, errBadRequest("Invalid notification sound '%s'", text)
			}
		case "email_notifications_batching_period_seconds":
			if n < minEmailBatchingSeconds || n > maxEmailBatchingSeconds {
				return nil, errBadRequest("Invalid email batching period: %d seconds", n)
			}
		}
	}
	if r.Settings.UserDefaults == nil {
		r.Settings.UserDefaults = map[string]any{}
	}
	for _, ch := range changes {
		r.Settings.UserDefaults[ch.sp.Name] = ch.value
	}
	return obj{}, nil
}

// withUserDefaultsEvents sends realm_user_settings_defaults update events for
// the defaults a request changed (do_set_realm_user_default_setting).
func (s *Server) withUserDefaultsEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		before := map[string]any{}
		for _, sp := range realmUserDefaults {
			before[sp.Name] = s.realm.userDefault(sp)
		}
		payload, err := h(c)
		if err != nil {
			return payload, err
		}
		for _, sp := range realmUserDefaults {
			if now := s.realm.userDefault(sp); !sameRealmValue(before[sp.Name], now) {
				s.emit(obj{"type": "realm_user_settings_defaults", "op": "update", "property": sp.Name, "value": now}, nil)
			}
		}
		return payload, nil
	}
}
