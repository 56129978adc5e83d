package kit

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Plan-time permission checks from what the server says about itself: the
// rules of each group-setting permission (server_supported_permission_settings)
// and the organization's own permissions (realm_can_*_group), both read once
// per run with the rest of the register snapshot's realm section
// (RealmSettings). Where the server does not say (an older server, or the
// read failed) the plan says nothing and the server decides at apply.

// permissionKind is the object a permission setting belongs to, as
// server_supported_permission_settings keys them.
type permissionKind string

const (
	PermissionOfRealm   permissionKind = "realm"
	PermissionOfChannel permissionKind = "stream"
	PermissionOfGroup   permissionKind = "group"
)

// permissionRule returns the server's rule for a setting.
func permissionRule(ctx context.Context, d *ProviderData, kind permissionKind, setting string) (zulip.GroupPermissionSetting, bool) {
	realm, err := d.RealmSettings(ctx)
	if err != nil {
		tflog.Warn(ctx, "could not read the organization's settings; permission values are left to the server to check", map[string]any{"error": err.Error()})
		return zulip.GroupPermissionSetting{}, false
	}
	rules, ok := realm.PermissionRules()
	if !ok {
		return zulip.GroupPermissionSetting{}, false
	}
	var byName map[string]zulip.GroupPermissionSetting
	switch kind {
	case PermissionOfRealm:
		byName = rules.Realm
	case PermissionOfChannel:
		byName = rules.Stream
	case PermissionOfGroup:
		byName = rules.Group
	}
	rule, ok := byName[setting]
	return rule, ok
}

// checkPermissionRule fails a plan whose value the setting does not accept,
// with the words Zulip's own refusal uses (check_setting_configuration_for_system_groups).
// A value of one group and no users is that group (Zulip's canonical form);
// anything else is an anonymous group.
func checkPermissionRule(at path.Path, setting string, rule zulip.GroupPermissionSetting, groups []string, users []int64, dir GroupDirectory, diags *diag.Diagnostics) {
	isSystem := func(name string) bool {
		if g, ok := dir.ByName[name]; ok {
			return g.IsSystemGroup
		}
		return strings.HasPrefix(name, "role:")
	}
	var problem string
	switch {
	case len(groups) == 1 && len(users) == 0:
		g := groups[0]
		switch {
		case rule.RequireSystemGroup && !isSystem(g):
			problem = fmt.Sprintf("'%s' must be a system user group.", setting)
		case g == "role:internet" && !rule.AllowInternetGroup,
			g == "role:nobody" && !rule.AllowNobodyGroup,
			g == "role:everyone" && !rule.AllowEveryoneGroup,
			isSystem(g) && len(rule.AllowedSystemGroups) > 0 && !slices.Contains(rule.AllowedSystemGroups, g):
			problem = fmt.Sprintf("'%s' setting cannot be set to '%s' group.", setting, g)
		}
	case rule.RequireSystemGroup:
		problem = fmt.Sprintf("'%s' must be a system user group.", setting)
	}
	if problem == "" {
		return
	}
	detail := "Zulip refuses this value: " + problem
	if rule.RequireSystemGroup {
		allowed := rule.AllowedSystemGroups
		if len(allowed) == 0 {
			allowed = []string{"a role: group"}
		}
		detail += " Give exactly one of " + strings.Join(allowed, ", ") + " in groups, and no users."
	}
	diags.AddAttributeError(at, "Permission Value Not Allowed", detail)
}

// callerHolds reports whether the provider's account holds a permission
// value; known is false when the plan cannot tell (no credentials, a read
// failed, or the server predates the permission: v is nil).
func callerHolds(ctx context.Context, d *ProviderData, kind permissionKind, setting string, v *zulip.GroupSettingValue) (holds, known bool) {
	if v == nil || !d.CanAsk() {
		return false, false
	}
	me, err := d.Caller(ctx)
	if err != nil {
		return false, false
	}
	dir, err := d.Groups(ctx)
	if err != nil {
		return false, false
	}
	// A guest never holds a permission that role:everyone may not have.
	if me.Role == zulip.RoleGuest {
		if rule, ok := permissionRule(ctx, d, kind, setting); !ok || !rule.AllowEveryoneGroup {
			return false, true
		}
	}
	return dir.holds(v, me.UserID), true
}

// Holds reports whether the provider's account holds the permission p;
// known is false when the plan cannot tell (then the server decides).
func Holds(ctx context.Context, d *ProviderData, p HeldBy) (holds, known bool) {
	return callerHolds(ctx, d, p.Kind, p.Setting, p.Value)
}

// HeldBy is one permission that allows a change: what names it for a
// message ("the organization's can_create_groups"), value is its value now
// (nil: the server predates it, or it could not be read).
type HeldBy struct {
	What    string
	Kind    permissionKind
	Setting string
	Value   *zulip.GroupSettingValue
}

// RealmPermission is one of the organization's permissions, for RequirePermission.
// Its value is nil on a server older than the setting.
func RealmPermission(ctx context.Context, d *ProviderData, setting string) HeldBy {
	p := HeldBy{What: "the organization's " + setting, Kind: PermissionOfRealm, Setting: setting}
	realm, err := d.RealmSettings(ctx)
	if err == nil {
		if raw, ok := realm.RealmSetting(setting); ok {
			err = json.Unmarshal(raw, &p.Value)
		}
	}
	if err != nil {
		tflog.Warn(ctx, "could not read the organization's settings; the permission check is left to the server", map[string]any{"error": err.Error()})
	}
	return p
}

// RequirePermission fails a plan whose change needs a permission that the
// provider's account does not hold (any one of options allows it), naming
// each and who holds it, instead of letting the apply fail with Zulip's bare
// "Insufficient permission". When the plan cannot tell for any of them, the
// server decides at apply.
func RequirePermission(ctx context.Context, d *ProviderData, action string, attr path.Path, diags *diag.Diagnostics, options ...HeldBy) {
	if !d.CanAsk() {
		return
	}
	for _, o := range options {
		holds, known := callerHolds(ctx, d, o.Kind, o.Setting, o.Value)
		if !known || holds {
			return
		}
	}
	me, err := d.Caller(ctx)
	if err != nil {
		return
	}
	dir, err := d.Groups(ctx)
	if err != nil {
		return
	}
	held := make([]string, len(options))
	for i, o := range options {
		held[i] = fmt.Sprintf("%s permission (given to %s)", o.What, dir.describe(o.Value))
	}
	detail := fmt.Sprintf("%s needs %s, which the provider's account (%s) does not hold. An administrator can "+
		"change who holds it in Zulip, or configure the provider with an account that holds it.",
		action, strings.Join(held, " or "), me.Email)
	if attr.Equal(path.Empty()) {
		diags.AddError("Insufficient Permission", detail)
		return
	}
	diags.AddAttributeError(attr, "Insufficient Permission", detail)
}

// CheckPermissionSetting is checkPermission for the value of a permission
// setting, with the setting's own rule: a value Zulip would refuse for it
// (role:everyone where guests may not hold it, an anonymous group where it
// needs a system group, ...) fails the plan. A value with unknown parts is
// checked once they are known.
func CheckPermissionSetting(ctx context.Context, d *ProviderData, at path.Path, kind permissionKind, setting string, o types.Object, diags *diag.Diagnostics) {
	d.checkPermission(ctx, at, o, diags)
	if o.IsNull() || o.IsUnknown() || !d.CanAsk() || diags.HasError() {
		return
	}
	var m permissionModel
	if diags.Append(o.As(ctx, &m, basetypes.ObjectAsOptions{})...); diags.HasError() {
		return
	}
	if !fullyKnown(m.Groups) || !fullyKnown(m.Users) {
		return
	}
	rule, ok := permissionRule(ctx, d, kind, setting)
	if !ok {
		return
	}
	dir, err := d.Groups(ctx)
	if err != nil {
		return
	}
	checkPermissionRule(at, setting, rule, KnownStrings(m.Groups), KnownInt64s(m.Users), dir, diags)
}

// fullyKnown reports a set that is known with every element known (null
// counts as known: empty).
func fullyKnown(s types.Set) bool {
	if s.IsUnknown() {
		return false
	}
	for _, e := range s.Elements() {
		if e.IsUnknown() {
			return false
		}
	}
	return true
}

// RequireSubscriberChange fails the plan of subscribing or unsubscribing other
// users where the provider's account may not (add_subscriptions_backend and
// remove_subscriptions_backend): an administrator may; otherwise adding needs
// the organization's or the channel's can_add_subscribers_group, and removing
// the channel's can_remove_subscribers_group. A channel this run has not seen
// (created by the same apply) is left to the server.
func RequireSubscriberChange(ctx context.Context, d *ProviderData, channelID int64, add, remove []int64, at path.Path, diags *diag.Diagnostics) {
	if !d.CanAsk() {
		return
	}
	me, err := d.Caller(ctx)
	if err != nil || me.Role <= zulip.RoleAdministrator {
		return
	}
	others := func(ids []int64) bool {
		return slices.ContainsFunc(ids, func(id int64) bool { return id != me.UserID })
	}
	if !others(add) && !others(remove) {
		return
	}
	all, err := ChannelCollection(d).LastSeen(ctx)
	if err != nil {
		return
	}
	i := slices.IndexFunc(all, func(c zulip.Channel) bool { return c.StreamID == channelID })
	if i < 0 {
		return
	}
	ch := all[i]
	if others(add) {
		RequirePermission(ctx, d, fmt.Sprintf("Subscribing other users to the channel %q", ch.Name), at, diags, RealmPermission(ctx, d, "can_add_subscribers_group"), HeldBy{What: "the channel's can_add_subscribers_group", Kind: PermissionOfChannel, Setting: "can_add_subscribers_group", Value: ch.CanAddSubscribersGroup})
	}
	if others(remove) {
		RequirePermission(ctx, d, fmt.Sprintf("Unsubscribing other users from the channel %q", ch.Name), at, diags, HeldBy{What: "the channel's can_remove_subscribers_group", Kind: PermissionOfChannel, Setting: "can_remove_subscribers_group", Value: ch.CanRemoveSubscribersGroup})
	}
}

// RequireMemberChange fails the plan of adding users to the group g, or
// removing users from it, where the provider's account may not
// (changeGroupMembership's rules): either needs the organization's
// can_manage_all_groups or the group's can_manage_group, or the group's
// can_add_members_group (adding) or can_remove_members_group (removing); an
// account that adds or removes only itself may also use can_join_group or
// can_leave_group.
func RequireMemberChange(ctx context.Context, d *ProviderData, g zulip.UserGroup, add, remove []int64, diags *diag.Diagnostics) {
	if len(add) == 0 && len(remove) == 0 || !d.CanAsk() {
		return
	}
	me, err := d.Caller(ctx)
	if err != nil {
		return
	}
	options := func(others string, otherValue *zulip.GroupSettingValue, self string, selfValue *zulip.GroupSettingValue, ids []int64) []HeldBy {
		out := []HeldBy{
			RealmPermission(ctx, d, "can_manage_all_groups"),
			{What: "the group's can_manage_group", Kind: PermissionOfGroup, Setting: "can_manage_group", Value: g.CanManageGroup},
			{What: "the group's " + others, Kind: PermissionOfGroup, Setting: others, Value: otherValue},
		}
		if len(ids) == 1 && ids[0] == me.UserID {
			out = append(out, HeldBy{What: "the group's " + self, Kind: PermissionOfGroup, Setting: self, Value: selfValue})
		}
		return out
	}
	if len(add) > 0 {
		RequirePermission(ctx, d, fmt.Sprintf("Adding members to the user group %q", g.Name), path.Root("group_id"), diags, options("can_add_members_group", g.CanAddMembersGroup, "can_join_group", g.CanJoinGroup, add)...)
	}
	if len(remove) > 0 {
		RequirePermission(ctx, d, fmt.Sprintf("Removing members from the user group %q", g.Name), path.Root("group_id"), diags, options("can_remove_members_group", g.CanRemoveMembersGroup, "can_leave_group", g.CanLeaveGroup, remove)...)
	}
}
