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
	r.realmBotIndex = nil
	if len(r.RealmBots) > 0 {
		r.realmBotIndex = make(map[int64]int, len(r.RealmBots))
	}
	for i, b := range r.RealmBots {
		r.realmBotIndex[b.UserID] = i
	}
	r.starred, r.unread = r.flagSets()
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

// UpdateRealm changes organization settings (PATCH /realm; administrators, some
// settings owners). Each non-nil field of s is sent, encoded as the server's view
// declares it (plain text for names and languages, JSON otherwise). Idempotent
// unless a permission carries an Old value (a repeat answers EXPECTATION_MISMATCH
// once the first has applied).
func (c *Client) UpdateRealm(ctx context.Context, s *RealmSettings) error {
	p, idempotent := s.params()
	return c.do(ctx, request{method: http.MethodPatch, path: "realm", params: p, idempotent: idempotent}, nil)
}

// UpdateRealmUserDefaults changes the settings new users get (PATCH
// /realm/user_settings_defaults, FL95; administrators). Each non-nil field of s is
// sent. Idempotent.
func (c *Client) UpdateRealmUserDefaults(ctx context.Context, s *RealmUserDefaults) error {
	p, _ := s.params()
	return c.do(ctx, request{method: http.MethodPatch, path: "realm/user_settings_defaults", params: p, idempotent: true}, nil)
}

// Limit is a setting that is a number (of seconds or days) or unlimited; it is
// sent as the number, or as the JSON string "unlimited".
type Limit struct {
	Unlimited bool
	Value     int64
}

// MarshalJSON encodes the limit as update_realm reads it.
func (l Limit) MarshalJSON() ([]byte, error) {
	if l.Unlimited {
		return []byte(`"unlimited"`), nil
	}
	return json.Marshal(l.Value)
}
