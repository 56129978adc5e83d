package zulip

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
)

// UnmarshalJSON decodes a register answer and keeps, beside the fields the
// struct names, every realm_* key as it came (RealmRaw): the organization's
// settings are read through internal/realmspec's table rather than a field
// each.
func (r *RegisterResponse) UnmarshalJSON(data []byte) error {
	type plain RegisterResponse
	if err := json.Unmarshal(data, (*plain)(r)); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	r.RealmRaw = map[string]json.RawMessage{}
	for _, sp := range realmspec.Settings {
		if v, ok := all[sp.Register()]; ok {
			r.RealmRaw[sp.Register()] = v
		}
	}
	r.UserDefaultsRaw = nil
	if raw, ok := all["realm_user_settings_defaults"]; ok {
		if err := json.Unmarshal(raw, &r.UserDefaultsRaw); err != nil {
			return fmt.Errorf("realm_user_settings_defaults: %w", err)
		}
	}
	return nil
}

// UserDefault returns a default setting for new users as the register
// snapshot gave it (fetch type realm_user_settings_defaults); false when the
// server did not send it.
func (r *RegisterResponse) UserDefault(name string) (json.RawMessage, bool) {
	v, ok := r.UserDefaultsRaw[name]
	return v, ok
}

// RealmSetting returns a setting's value as the register snapshot gave it;
// false when the server did not send it (it predates the setting).
func (r *RegisterResponse) RealmSetting(name string) (json.RawMessage, bool) {
	sp, ok := realmspec.ByName(name)
	if !ok {
		return nil, false
	}
	v, ok := r.RealmRaw[sp.Register()]
	return v, ok
}

// UpdateRealm changes organization settings (PATCH /realm; administrators, some settings
// owners). values maps a setting of internal/realmspec.Settings to its new value: a bool,
// string, int64, "unlimited", "server_default" or *GroupSettingUpdate, as the setting's kind
// takes it; each is encoded as the server's view declares it (plain text for names and
// languages, JSON otherwise). Idempotent unless a permission carries an Old value (a repeat
// answers EXPECTATION_MISMATCH once the first has applied).
func (c *Client) UpdateRealm(ctx context.Context, values map[string]any) error {
	p, idempotent, err := settingParams(realmspec.Settings, values)
	if err != nil {
		return err
	}
	return c.do(ctx, request{method: http.MethodPatch, path: "realm", params: p, idempotent: idempotent}, nil)
}

// UpdateRealmUserDefaults changes the settings new users get (PATCH
// /realm/user_settings_defaults, FL95; administrators). values maps a setting of
// internal/realmspec.UserDefaults to its new value, as UpdateRealm's. Idempotent.
func (c *Client) UpdateRealmUserDefaults(ctx context.Context, values map[string]any) error {
	p, _, err := settingParams(realmspec.UserDefaults, values)
	if err != nil {
		return err
	}
	return c.do(ctx, request{method: http.MethodPatch, path: "realm/user_settings_defaults", params: p, idempotent: true}, nil)
}

// settingParams encodes the values of a table's settings; idempotent is false
// when a permission carries an expected old value.
func settingParams(table []realmspec.Setting, values map[string]any) (*params, bool, error) {
	p := newParams()
	idempotent := true
	for _, sp := range table {
		v, ok := values[sp.Name]
		if !ok {
			continue
		}
		switch {
		case sp.Kind == realmspec.Text || sp.Kind == realmspec.Language || sp.Plain:
			s, isString := v.(string)
			if !isString {
				return nil, false, fmt.Errorf("setting %s: want a string, got %T", sp.Name, v)
			}
			p.str(sp.Name, s)
		case sp.Kind == realmspec.Permission:
			u, isUpdate := v.(*GroupSettingUpdate)
			if !isUpdate {
				return nil, false, fmt.Errorf("setting %s: want a *GroupSettingUpdate, got %T", sp.Name, v)
			}
			idempotent = idempotent && u.Old == nil
			p.json(sp.Name, u)
		default:
			p.json(sp.Name, v)
		}
	}
	return p, idempotent, nil
}
