package refserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
)

// Group-setting parameters, as zerver/lib/user_groups.py handles them: a
// value is a group id or an anonymous group {direct_members,
// direct_subgroups}; an update is {new, old?}. One implementation serves the
// realm, channel and group settings; each setting's permitted values come
// from its permissionConfig (Zulip's GroupPermissionSetting).

// permissionConfig is Zulip's GroupPermissionSetting: which groups a setting
// may name, and its default.
type permissionConfig struct {
	requireSystemGroup  bool
	allowInternetGroup  bool
	allowNobodyGroup    bool
	allowEveryoneGroup  bool
	allowedSystemGroups []string
	// defaultGroup is the system group a new object gets, or
	// "group_creator" (an anonymous group of the creator).
	defaultGroup string
}

// System group names.
const (
	sysNobody         = "role:nobody"
	sysOwners         = "role:owners"
	sysAdministrators = "role:administrators"
	sysModerators     = "role:moderators"
	sysFullMembers    = "role:fullmembers"
	sysMembers        = "role:members"
	sysEveryone       = "role:everyone"
	sysInternet       = "role:internet"
	groupCreator      = "group_creator"
)

// groupPermissionConfigs is NamedUserGroup.GROUP_PERMISSION_SETTINGS
// (zerver/models/groups.py).
var groupPermissionConfigs = map[string]permissionConfig{
	"can_add_members_group":    {allowNobodyGroup: true, defaultGroup: groupCreator},
	"can_join_group":           {allowNobodyGroup: true, defaultGroup: sysNobody},
	"can_leave_group":          {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysEveryone},
	"can_manage_group":         {allowNobodyGroup: true, defaultGroup: groupCreator},
	"can_mention_group":        {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysEveryone},
	"can_remove_members_group": {allowNobodyGroup: true, defaultGroup: sysNobody},
}

// settingChange is GroupSettingChangeRequest: the new value and, optionally,
// the value the client expects the setting to have now.
type settingChange struct {
	New GroupSetting
	Old *GroupSetting
}

// decodeSettingValue reads a group-setting value: an integer, or a dict with
// both direct_members and direct_subgroups lists of integers (pydantic's
// int | UserGroupMembersData). at names the value in errors.
func decodeSettingValue(at string, raw json.RawMessage) (GroupSetting, error) {
	raw = bytes.TrimSpace(raw)
	var id int
	if err := json.Unmarshal(raw, &id); err == nil && !bytes.ContainsAny(raw, ".eE") {
		return GroupSetting{GroupID: id}, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return GroupSetting{}, errInvalid(at + " is not a valid group setting value")
	}
	var v GroupSetting
	for _, part := range []struct {
		key string
		dst *[]int
	}{{"direct_members", &v.DirectMembers}, {"direct_subgroups", &v.DirectSubgroups}} {
		text, ok := m[part.key]
		if !ok {
			return GroupSetting{}, errInvalid(fmt.Sprintf("%s.%s field required", at, part.key))
		}
		if err := json.Unmarshal(text, part.dst); err != nil {
			return GroupSetting{}, errInvalid(typeErrorMessage(at+"."+part.key, string(text), part.dst))
		}
	}
	if v.DirectMembers == nil {
		v.DirectMembers = []int{}
	}
	if v.DirectSubgroups == nil {
		v.DirectSubgroups = []int{}
	}
	return v, nil
}

// optSettingValue reads a setting value parameter (create endpoints).
func (c *call) optSettingValue(name string) (*GroupSetting, error) {
	text, ok := c.raw(name)
	if !ok {
		return nil, nil
	}
	if !json.Valid([]byte(text)) {
		return nil, errInvalidJSON(name)
	}
	v, err := decodeSettingValue(name, json.RawMessage(text))
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// optSettingChange reads a {new, old?} parameter (update endpoints).
func (c *call) optSettingChange(name string) (*settingChange, error) {
	text, ok := c.raw(name)
	if !ok {
		return nil, nil
	}
	if !json.Valid([]byte(text)) {
		return nil, errInvalidJSON(name)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return nil, errInvalid(name + " is not a dict")
	}
	newText, ok := m["new"]
	if !ok {
		return nil, errInvalid(name + ".new field required")
	}
	var ch settingChange
	var err error
	if ch.New, err = decodeSettingValue(name+".new", newText); err != nil {
		return nil, err
	}
	if oldText, ok := m["old"]; ok && !bytes.Equal(bytes.TrimSpace(oldText), []byte("null")) {
		old, err := decodeSettingValue(name+".old", oldText)
		if err != nil {
			return nil, err
		}
		ch.Old = &old
	}
	return &ch, nil
}

// canonicalSetting is parse_group_setting_value: an anonymous group of no
// members and exactly one subgroup is that subgroup, and an empty one is the
// role:nobody group.
func (r *Realm) canonicalSetting(v GroupSetting) GroupSetting {
	if v.GroupID != 0 {
		return v
	}
	if len(v.DirectMembers) == 0 && len(v.DirectSubgroups) == 1 {
		return GroupSetting{GroupID: v.DirectSubgroups[0]}
	}
	if len(v.DirectMembers) == 0 && len(v.DirectSubgroups) == 0 {
		return GroupSetting{GroupID: r.systemGroupID(sysNobody)}
	}
	return v
}

// sameSetting is are_both_group_setting_values_equal: two ids, or two
// anonymous groups with the same members and subgroups; never one of each.
func sameSetting(a, b GroupSetting) bool {
	if (a.GroupID != 0) != (b.GroupID != 0) {
		return false
	}
	if a.GroupID != 0 {
		return a.GroupID == b.GroupID
	}
	return sameIntSet(a.DirectMembers, b.DirectMembers) && sameIntSet(a.DirectSubgroups, b.DirectSubgroups)
}

// sameIntSet compares two lists as sets.
func sameIntSet(a, b []int) bool {
	sa, sb := slices.Compact(slices.Sorted(slices.Values(a))), slices.Compact(slices.Sorted(slices.Values(b)))
	return slices.Equal(sa, sb)
}

// settingForAPI is get_group_setting_value_for_api of a stored value: an
// anonymous group lists its active members only, sorted.
func (r *Realm) settingForAPI(v GroupSetting) GroupSetting {
	if v.GroupID != 0 {
		return v
	}
	members := []int{}
	for _, id := range v.DirectMembers {
		if u := r.user(id); u != nil && u.IsActive {
			members = append(members, id)
		}
	}
	sort.Ints(members)
	subgroups := slices.Sorted(slices.Values(v.DirectSubgroups))
	return GroupSetting{DirectMembers: members, DirectSubgroups: append([]int{}, subgroups...)}
}

// errSettingMismatch is PreviousSettingValueMismatchedError.
func errSettingMismatch() *apiError {
	return errCode(400, "EXPECTATION_MISMATCH", "'old' value does not match the expected value.", nil)
}

// changedSetting is validate_group_setting_value_change: it refuses a change
// whose expected old value is not the current one, and reports whether the
// new value differs from the current one.
func (r *Realm) changedSetting(current GroupSetting, ch settingChange) (bool, error) {
	cur := r.settingForAPI(current)
	if ch.Old != nil && !sameSetting(r.canonicalSetting(*ch.Old), cur) {
		return false, errSettingMismatch()
	}
	return !sameSetting(cur, r.canonicalSetting(ch.New)), nil
}

// checkSettingValue is access_user_group_api_value_for_setting with
// check_setting_configuration_for_system_groups: a named group must exist,
// be active and be permitted for the setting; an anonymous group must be
// permitted, name active users and active groups.
func (c *call) checkSettingValue(name string, cfg permissionConfig, v GroupSetting) error {
	r := c.realm()
	if v.GroupID != 0 {
		g := r.Groups[v.GroupID]
		if g == nil {
			return errBadRequest("Invalid user group")
		}
		if g.Deactivated {
			return errBadRequest("User group is deactivated.")
		}
		return checkSystemGroupConfig(name, cfg, g)
	}
	if cfg.requireSystemGroup {
		return errSystemGroupRequired(name)
	}
	for _, id := range v.DirectMembers {
		if u := r.user(id); u == nil || !u.IsActive {
			return errBadRequest("Invalid user ID: %d", id)
		}
	}
	for _, id := range v.DirectSubgroups {
		g := r.Groups[id]
		if g == nil {
			return errBadRequest("Invalid user group ID: %d", id)
		}
		if g.Deactivated {
			return errBadRequest("User group is deactivated.")
		}
	}
	return nil
}

// errSystemGroupRequired is SystemGroupRequiredError.
func errSystemGroupRequired(name string) *apiError {
	return errBadRequest("'%s' must be a system user group.", name)
}

// checkSystemGroupConfig is check_setting_configuration_for_system_groups.
func checkSystemGroupConfig(name string, cfg permissionConfig, g *UserGroup) error {
	switch {
	case cfg.requireSystemGroup && !g.IsSystemGroup:
		return errSystemGroupRequired(name)
	case !cfg.allowInternetGroup && g.Name == sysInternet:
		return errBadRequest("'%s' setting cannot be set to 'role:internet' group.", name)
	case !cfg.allowNobodyGroup && g.Name == sysNobody:
		return errBadRequest("'%s' setting cannot be set to 'role:nobody' group.", name)
	case !cfg.allowEveryoneGroup && g.Name == sysEveryone:
		return errBadRequest("'%s' setting cannot be set to 'role:everyone' group.", name)
	case len(cfg.allowedSystemGroups) > 0 && !slices.Contains(cfg.allowedSystemGroups, g.Name):
		return errBadRequest("'%s' setting cannot be set to '%s' group.", name, g.Name)
	}
	return nil
}

// storedSetting is the value a setting takes when set to v: canonical, with
// an anonymous group's lists sorted.
func (r *Realm) storedSetting(v GroupSetting) GroupSetting {
	v = r.canonicalSetting(v)
	if v.GroupID != 0 {
		return GroupSetting{GroupID: v.GroupID}
	}
	return GroupSetting{
		DirectMembers:   slices.Compact(slices.Sorted(slices.Values(v.DirectMembers))),
		DirectSubgroups: slices.Compact(slices.Sorted(slices.Values(v.DirectSubgroups))),
	}
}

// defaultSetting is a new object's value of a setting: its configured system
// group, or an anonymous group of the creator.
func (r *Realm) defaultSetting(cfg permissionConfig, creator int) GroupSetting {
	if cfg.defaultGroup == groupCreator {
		return GroupSetting{DirectMembers: []int{creator}, DirectSubgroups: []int{}}
	}
	return GroupSetting{GroupID: r.systemGroupID(cfg.defaultGroup)}
}

// systemGroupID is the id of a system group by name (0: none).
func (r *Realm) systemGroupID(name string) int {
	for _, id := range r.groupIDs() {
		if g := r.Groups[id]; g.IsSystemGroup && g.Name == name {
			return id
		}
	}
	return 0
}

// userHasPermission is user_has_permission_for_group_setting: a guest never
// has a permission whose setting does not allow role:everyone.
func (r *Realm) userHasPermission(v GroupSetting, cfg permissionConfig, u *User) bool {
	if u.IsGuest() && !cfg.allowEveryoneGroup {
		return false
	}
	return r.inGroupSetting(v, u.ID)
}
