package zulip

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"sync"
)

// TargetUsers are the users an administrator's change of settings applies to
// (PATCH /settings's target_users, Zulip's TargetUsersData): the users named
// and the members of the groups named, their subgroups' included.
type TargetUsers struct {
	UserIDs  []int64 `json:"user_ids"`
	GroupIDs []int64 `json:"group_ids"`
	// SkipIfAlreadyEdited leaves out, for each setting, the users who changed
	// it themselves (Zulip finds them in its audit log).
	SkipIfAlreadyEdited bool `json:"skip_if_already_edited"`
}

// ChangeUserSettingsOf changes personal settings of other users (PATCH
// /settings with target_users, FL444; human organization administrators
// only). The settings are those of the organization's defaults for new
// users, encoded as PATCH /realm/user_settings_defaults takes them; Zulip
// refuses its security-sensitive ones for other users. Zulip changes each
// setting only for the users whose value differs, leaves bots out and
// includes deactivated users. Idempotent.
func (c *Client) ChangeUserSettingsOf(ctx context.Context, s *RealmUserDefaults, target TargetUsers) error {
	p, _ := s.params()
	if target.UserIDs == nil {
		target.UserIDs = []int64{}
	}
	if target.GroupIDs == nil {
		target.GroupIDs = []int64{}
	}
	p.json("target_users", target)
	return c.do(ctx, request{method: http.MethodPatch, path: "settings", params: p, idempotent: true}, nil)
}

// userDefaultFields maps each setting's API name to its field of
// RealmUserDefaults, as params names it.
var userDefaultFields = sync.OnceValue(func() map[string]int {
	out := map[string]int{}
	for i := range reflect.TypeFor[RealmUserDefaults]().NumField() {
		var s RealmUserDefaults
		f := reflect.ValueOf(&s).Elem().Field(i)
		f.Set(reflect.New(f.Type().Elem()))
		p, _ := s.params()
		for name := range p.values {
			out[name] = i
		}
	}
	return out
})

// Set sets the setting of an API name (bool, int64 or string, as the field
// has it).
func (s *RealmUserDefaults) Set(name string, value any) error {
	i, ok := userDefaultFields()[name]
	if !ok {
		return fmt.Errorf("zulip: %q is not a default setting for new users", name)
	}
	f := reflect.ValueOf(s).Elem().Field(i)
	v := reflect.ValueOf(value)
	if !v.IsValid() || !v.Type().AssignableTo(f.Type().Elem()) {
		return fmt.Errorf("zulip: setting %q takes a %s, not %T", name, f.Type().Elem(), value)
	}
	p := reflect.New(f.Type().Elem())
	p.Elem().Set(v)
	f.Set(p)
	return nil
}
