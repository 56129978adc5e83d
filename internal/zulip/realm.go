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
	return nil
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
// owners). values maps a setting of internal/realmspec to its new value: a bool, string,
// int64, "unlimited", "server_default" or *GroupSettingUpdate, as the setting's kind takes
// it; each is encoded as the server's view declares it (plain text for names and
// languages, JSON otherwise). Idempotent unless a permission carries an Old value (a
// repeat answers EXPECTATION_MISMATCH once the first has applied).
func (c *Client) UpdateRealm(ctx context.Context, values map[string]any) error {
	p := newParams()
	idempotent := true
	for _, sp := range realmspec.Settings {
		v, ok := values[sp.Name]
		if !ok {
			continue
		}
		switch sp.Kind {
		case realmspec.Text, realmspec.Language:
			s, isString := v.(string)
			if !isString {
				return fmt.Errorf("realm setting %s: want a string, got %T", sp.Name, v)
			}
			p.str(sp.Name, s)
		case realmspec.Permission:
			u, isUpdate := v.(*GroupSettingUpdate)
			if !isUpdate {
				return fmt.Errorf("realm setting %s: want a *GroupSettingUpdate, got %T", sp.Name, v)
			}
			idempotent = idempotent && u.Old == nil
			p.json(sp.Name, u)
		default:
			p.json(sp.Name, v)
		}
	}
	return c.do(ctx, request{method: http.MethodPatch, path: "realm", params: p, idempotent: idempotent}, nil)
}
