package refserver

// The organization's group-setting permissions (Realm.REALM_PERMISSION_GROUP_SETTINGS,
// zerver/models/realms.py). Only those that the served endpoints consult are
// modelled so far; the rest of the realm settings come with PATCH /realm.

// realmPermissionConfigs are the modelled realm permissions and their rules.
var realmPermissionConfigs = map[string]permissionConfig{
	"can_add_subscribers_group":        {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_create_groups":                {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_create_private_channel_group": {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_create_public_channel_group":  {allowNobodyGroup: true, defaultGroup: sysMembers},
	"can_create_web_public_channel_group": {requireSystemGroup: true, allowNobodyGroup: true, defaultGroup: sysOwners,
		allowedSystemGroups: []string{sysModerators, sysAdministrators, sysOwners, sysNobody}},
	"can_manage_all_groups":               {defaultGroup: sysOwners},
	"can_set_delete_message_policy_group": {defaultGroup: sysModerators},
}

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
