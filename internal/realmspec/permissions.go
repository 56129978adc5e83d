package realmspec

// The group-setting permissions, once: the organization's 24 (the Settings
// of kind Permission), a channel's 11 and a user group's 6, with the feature
// level that added each and who may hold it (Zulip's GroupPermissionSetting:
// Realm.REALM_PERMISSION_GROUP_SETTINGS, Stream.stream_permission_group_settings
// and NamedUserGroup.GROUP_PERMISSION_SETTINGS, newest Zulip). The provider's
// per-setting code for channels and groups is generated from these tables
// (internal/cmd/gen-realm), and a test checks them against Zulip's raw
// OpenAPI description (internal/refserver, permissions_table_test.go).

// Scope is the object a permission belongs to, as
// server_supported_permission_settings keys it.
type Scope string

// The scopes.
const (
	ScopeRealm   Scope = "realm"
	ScopeChannel Scope = "stream"
	ScopeGroup   Scope = "group"
)

// Holders is who may hold a permission: the values Zulip accepts for it
// (check_setting_configuration_for_system_groups).
type Holders struct {
	// SystemOnly: the value must be one system group (require_system_group),
	// one of Systems when that is set (allowed_system_groups).
	SystemOnly bool
	Systems    []string
	// Internet, Everyone and Nobody: role:internet, role:everyone and
	// role:nobody are accepted (allow_internet_group, allow_everyone_group,
	// allow_nobody_group).
	Internet, Everyone, Nobody bool
}

// Refuses are the system groups among role:internet, role:everyone and
// role:nobody that the permission refuses as its value.
func (h Holders) Refuses() []string {
	var out []string
	for _, g := range []struct {
		name    string
		allowed bool
	}{{"role:internet", h.Internet}, {"role:everyone", h.Everyone}, {"role:nobody", h.Nobody}} {
		if !g.allowed {
			out = append(out, g.name)
		}
	}
	return out
}

// GroupPermission is one group-setting permission.
type GroupPermission struct {
	// Name is the API's and Terraform's name.
	Name  string
	Scope Scope
	// FL is the feature level that added it; AnyValueFL, when later, the one
	// from which it takes any group-setting value (before, only a group id).
	FL, AnyValueFL int
	// What completes "Who may ...".
	What    string
	Holders Holders
	// Owner: only an organization owner may change it (the organization's).
	Owner bool
}

// Common holder rules.
var (
	nobodyOrAnyone = Holders{Everyone: true, Nobody: true}
	nobodyNotAll   = Holders{Nobody: true}
)

// ChannelPermissions are a channel's permissions, in the API's order.
var ChannelPermissions = []GroupPermission{
	{Name: "can_add_subscribers_group", FL: 342, What: "subscribe other users to the channel", Holders: nobodyNotAll},
	{Name: "can_administer_channel_group", FL: 325, What: "administer the channel (its name, description, privacy and permissions)", Holders: nobodyNotAll},
	{Name: "can_create_topic_group", FL: 441, What: "start new topics in the channel", Holders: nobodyOrAnyone},
	{Name: "can_delete_any_message_group", FL: 407, What: "delete any message in the channel (changing it needs the organization's can_set_delete_message_policy_group)", Holders: nobodyOrAnyone},
	{Name: "can_delete_own_message_group", FL: 407, What: "delete their own messages in the channel (changing it needs the organization's can_set_delete_message_policy_group)", Holders: nobodyOrAnyone},
	{Name: "can_move_messages_out_of_channel_group", FL: 396, What: "move messages out of the channel", Holders: nobodyOrAnyone},
	{Name: "can_move_messages_within_channel_group", FL: 396, What: "move messages between the channel's topics", Holders: nobodyOrAnyone},
	{Name: "can_remove_subscribers_group", FL: 142, What: "unsubscribe other users from the channel", Holders: nobodyOrAnyone},
	{Name: "can_resolve_topics_group", FL: 402, What: "mark the channel's topics resolved", Holders: nobodyOrAnyone},
	{Name: "can_send_message_group", FL: 333, What: "post in the channel", Holders: nobodyOrAnyone},
	{Name: "can_subscribe_group", FL: 357, What: "subscribe themselves to the channel", Holders: nobodyNotAll},
}

// GroupPermissions are a user group's permissions, in the API's order.
var GroupPermissions = []GroupPermission{
	{Name: "can_add_members_group", FL: 305, What: "add members to the group", Holders: nobodyNotAll},
	{Name: "can_join_group", FL: 301, What: "join the group", Holders: nobodyNotAll},
	{Name: "can_leave_group", FL: 308, What: "leave the group", Holders: nobodyOrAnyone},
	{Name: "can_manage_group", FL: 283, What: "manage the group (its name, description, settings and members)", Holders: nobodyNotAll},
	{Name: "can_mention_group", FL: 191, AnyValueFL: 258, What: "mention the group (notifying its members)", Holders: nobodyOrAnyone},
	{Name: "can_remove_members_group", FL: 324, What: "remove members from the group", Holders: nobodyNotAll},
}

// Permissions are all the group-setting permissions: the organization's,
// then a channel's, then a group's.
func Permissions() []GroupPermission {
	var out []GroupPermission
	for _, s := range Settings {
		if s.Kind == Permission {
			out = append(out, s.GroupPermission())
		}
	}
	for _, p := range ChannelPermissions {
		p.Scope = ScopeChannel
		out = append(out, p)
	}
	for _, p := range GroupPermissions {
		p.Scope = ScopeGroup
		out = append(out, p)
	}
	return out
}

// GroupPermission is an organization setting of kind Permission as a GroupPermission.
func (s Setting) GroupPermission() GroupPermission {
	what := s.Description
	if len(what) > len("Who can ") && what[:len("Who can ")] == "Who can " {
		what = what[len("Who can "):]
	}
	if n := len(what); n > 0 && what[n-1] == '.' {
		what = what[:n-1]
	}
	return GroupPermission{Name: s.Name, Scope: ScopeRealm, FL: s.FL, What: what, Holders: s.Holders, Owner: s.Owner}
}
