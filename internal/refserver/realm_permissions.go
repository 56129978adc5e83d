package refserver

// The organization's group-setting permissions (Realm.REALM_PERMISSION_GROUP_SETTINGS,
// zerver/models/realms.py). Only those that the served endpoints consult are
// modelled so far; the rest of the realm settings come with PATCH /realm.

// realmPermissionConfigs are the organization's permissions and their rules
// (Realm.REALM_PERMISSION_GROUP_SETTINGS); the server's table
// (realmSettings) has their feature levels and who may change them.
var realmPermissionConfigs = map[string]permissionConfig{
	"can_access_all_users_group": {requireSystemGroup: true, allowEveryoneGroup: true, defaultGroup: sysEveryone,
		allowedSystemGroups: []string{sysEveryone, sysMembers}},
	"can_add_custom_emoji_group":       {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_add_subscribers_group":        {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_create_bots_group":            {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_create_groups":                {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_create_private_channel_group": {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_create_public_channel_group":  {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_create_web_public_channel_group": {requireSystemGroup: true, allowNobodyGroup: true, defaultGroup: sysOwners,
		allowedSystemGroups: []string{sysModerators, sysAdministrators, sysOwners, sysNobody}},
	"can_create_write_only_bots_group":         {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_delete_any_message_group":             {allowNobodyGroup: true, defaultGroup: sysAdministrators},
	"can_delete_own_message_group":             {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysEveryone},
	"can_invite_users_group":                   {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_manage_all_groups":                    {defaultGroup: sysOwners},
	"can_manage_billing_group":                 {defaultGroup: sysAdministrators},
	"can_mention_many_users_group":             {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysAdministrators},
	"can_move_messages_between_channels_group": {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_move_messages_between_topics_group":   {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysEveryone},
	"can_resolve_topics_group":                 {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysEveryone},
	"can_set_delete_message_policy_group":      {allowNobodyGroup: true, defaultGroup: sysModerators},
	"can_set_topics_policy_group":              {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysMembers},
	"can_summarize_topics_group":               {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysEveryone},
	"create_multiuse_invite_group":             {allowNobodyGroup: true, defaultGroup: sysAdministrators},
	"direct_message_initiator_group":           {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysEveryone},
	"direct_message_permission_group":          {allowNobodyGroup: true, allowEveryoneGroup: true, defaultGroup: sysEveryone},
}

// realmPermissionOrder is REALM_PERMISSION_GROUP_SETTINGS' order
// (zerver/models/realms.py), in which update_realm applies the permissions.
var realmPermissionOrder = []string{"create_multiuse_invite_group", "can_access_all_users_group",
	"can_add_subscribers_group", "can_add_custom_emoji_group", "can_create_bots_group", "can_create_groups",
	"can_create_public_channel_group", "can_create_private_channel_group", "can_create_web_public_channel_group",
	"can_create_write_only_bots_group", "can_delete_any_message_group", "can_delete_own_message_group",
	"can_invite_users_group", "can_manage_all_groups", "can_manage_billing_group", "can_mention_many_users_group",
	"can_move_messages_between_channels_group", "can_move_messages_between_topics_group", "can_resolve_topics_group",
	"can_set_delete_message_policy_group", "can_set_topics_policy_group", "can_summarize_topics_group",
	"direct_message_initiator_group", "direct_message_permission_group"}

// seedRealmPermissions gives the organization its default permissions.
func seedRealmPermissions(r *Realm) {
	if r.Settings.GroupSettings == nil {
		r.Settings.GroupSettings = map[string]GroupSetting{}
	}
	for name, cfg := range realmPermissionConfigs {
		if _, ok := r.Settings.GroupSettings[name]; !ok {
			r.Settings.GroupSettings[name] = GroupSetting{GroupID: r.systemGroupID(cfg.defaultGroup)}
		}
	}
}

// hasRealmPermission is UserProfile.has_permission for a realm permission.
func (r *Realm) hasRealmPermission(name string, u *User) bool {
	return r.userHasPermission(r.Settings.GroupSettings[name], realmPermissionConfigs[name], u)
}

// realmPermissionLevel is the feature level that added a realm permission
// to the register snapshot (realm_<name>).
func realmPermissionLevel(name string) int {
	sp, _ := realmSettingByName(name)
	return sp.FL
}

// supportedPermissionSettingsFL is the level from which
// server_supported_permission_settings has its stable format (it appeared at
// 221, documented as unstable until 326; the server serves only the stable one).
const supportedPermissionSettingsFL = 326

// channelCreatorFL renamed the channel settings' creator default from
// "stream_creator_or_nobody" to "channel_creator".
const channelCreatorFL = 427

// registerRealmPermissions adds the modelled realm permissions (realm_<name>,
// each a group-setting value) and server_supported_permission_settings to the
// register snapshot's realm section.
func (s *Server) registerRealmPermissions(fl int, out obj) {
	r := s.realm
	for name := range realmPermissionConfigs {
		if fl >= realmPermissionLevel(name) {
			out["realm_"+name] = r.settingForAPI(r.Settings.GroupSettings[name]).Wire()
		}
	}
	if fl < supportedPermissionSettingsFL {
		return
	}
	realm := obj{}
	for name, cfg := range realmPermissionConfigs {
		if fl >= realmPermissionLevel(name) {
			realm[name] = cfg.wire(cfg.defaultGroup, nil)
		}
	}
	stream := obj{}
	for _, gs := range channelGroupSettings {
		if fl < gs.fl {
			continue
		}
		cfg := channelPermissionConfigs[gs.name]
		def := cfg.defaultGroup
		if def == groupCreator {
			def = "stream_creator_or_nobody"
			if fl >= channelCreatorFL {
				def = "channel_creator"
			}
		}
		stream[gs.name] = cfg.wire(def, nil)
	}
	group := obj{}
	for _, gs := range userGroupSettings {
		if fl >= gs.fl {
			nobody := sysNobody
			group[gs.name] = groupPermissionConfigs[gs.name].wire(groupPermissionConfigs[gs.name].defaultGroup, &nobody)
		}
	}
	out["server_supported_permission_settings"] = obj{"realm": realm, "stream": stream, "group": group}
}

// wire is the setting's GroupPermissionSetting in the register snapshot.
func (cfg permissionConfig) wire(defaultName string, forSystemGroups *string) obj {
	allowed := cfg.allowedSystemGroups
	if allowed == nil {
		allowed = []string{}
	}
	return obj{
		"require_system_group": cfg.requireSystemGroup, "allow_internet_group": cfg.allowInternetGroup,
		"allow_nobody_group": cfg.allowNobodyGroup, "allow_everyone_group": cfg.allowEveryoneGroup,
		"default_group_name": defaultName, "default_for_system_groups": forSystemGroups,
		"allowed_system_groups": allowed,
	}
}
