package refserver

import (
	"slices"
	"sort"
	"strings"
)

// The user group write endpoints, after zerver/views/user_groups.py,
// zerver/lib/user_groups.py and zerver/actions/user_groups.py of newest Zulip.

// Feature levels of the group write endpoints.
const (
	groupDeactivateFL = 290 // POST /user_groups/{id}/deactivate
	groupCreateIDFL   = 317 // POST /user_groups/create answers group_id
	groupReactivateFL = 386 // PATCH deactivated=false
	groupSubgroupsFL  = 311 // subgroups on create; add_subgroups on members
	// groupEditDeactivatedFL: members and subgroups of a deactivated group
	// may be changed (access_user_group_for_update with allow_deactivated).
	groupEditDeactivatedFL = 391
)

// maxGroupNameLength is NamedUserGroup.MAX_NAME_LENGTH.
const maxGroupNameLength = 100

// groupNameReservedPrefixes is NamedUserGroup.INVALID_NAME_PREFIXES.
var groupNameReservedPrefixes = []string{"@", "role:", "user:", "stream:", "channel:"}

// routesGroupWrites registers the group write endpoints that exist at the
// advertised feature level.
func (s *Server) routesGroupWrites() {
	fl := s.opts.FeatureLevel
	write := func(h handlerFunc) handlerFunc { return s.withGroupEvents(s.groupTransaction(h)) }
	s.handle("POST /user_groups/create", authUser, write(s.createUserGroup))
	s.handle("PATCH /user_groups/{user_group_id}", authUser, write(s.updateUserGroup))
	s.handle("POST /user_groups/{user_group_id}/members", authUser, write(s.updateUserGroupMembers))
	s.handle("POST /user_groups/{user_group_id}/subgroups", authUser, write(s.updateUserGroupSubgroups))
	if fl >= groupDeactivateFL {
		s.handle("POST /user_groups/{user_group_id}/deactivate", authUser, write(s.deactivateUserGroup))
	}
}

// groupTransaction runs a group write as one transaction, as Zulip's views
// are (add_user_group, edit_user_group, deactivate_user_group,
// update_user_group_backend and update_subgroups_of_user_group are each
// @transaction.atomic(durable=True), and compose_views runs the parts of the
// last two inside it): the handler applies its changes in Zulip's order as it
// checks them, and a refusal at any point puts every group back as it was, so
// that a setting refused after a new name leaves the name unchanged too.
func (s *Server) groupTransaction(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		saved := cloneGroups(s.realm.Groups)
		payload, err := h(c)
		if err != nil {
			s.realm.Groups = saved
		}
		return payload, err
	}
}

// cloneGroups copies the groups deeply: members, subgroups and settings.
func cloneGroups(groups map[int]*UserGroup) map[int]*UserGroup {
	out := make(map[int]*UserGroup, len(groups))
	for id, g := range groups {
		cp := *g
		cp.Members = slices.Clone(g.Members)
		cp.DirectSubgroupIDs = slices.Clone(g.DirectSubgroupIDs)
		if g.Settings != nil {
			cp.Settings = make(map[string]GroupSetting, len(g.Settings))
			for name, v := range g.Settings {
				cp.Settings[name] = GroupSetting{GroupID: v.GroupID,
					DirectMembers: slices.Clone(v.DirectMembers), DirectSubgroups: slices.Clone(v.DirectSubgroups)}
			}
		}
		out[id] = &cp
	}
	return out
}

// checkGroupName is check_user_group_name.
func checkGroupName(name string) error {
	if strings.TrimSpace(name) == "" {
		return errBadRequest("User group name can't be empty!")
	}
	if len([]rune(name)) > maxGroupNameLength {
		return errBadRequest("User group name cannot exceed %d characters.", maxGroupNameLength)
	}
	for _, p := range groupNameReservedPrefixes {
		if strings.HasPrefix(name, p) {
			return errBadRequest("User group name cannot start with '%s'.", p)
		}
	}
	return nil
}

// groupNameTaken reports whether a group (deactivated ones included) has the
// name: names are unique per realm (unique_together realm, name), so the
// IntegrityError becomes "User group 'X' already exists.".
func (r *Realm) groupNameTaken(name string, except int) bool {
	for _, g := range r.Groups {
		if g.ID != except && g.Name == name {
			return true
		}
	}
	return false
}

// activeUsers is user_ids_to_users(allow_deactivated=False).
func (r *Realm) activeUsers(ids []int) error {
	for _, id := range ids {
		if u := r.user(id); u == nil || !u.IsActive {
			return errBadRequest("Invalid user ID: %d", id)
		}
	}
	return nil
}

// createUserGroup is add_user_group. Its decorator,
// require_user_group_create_permission, checks the caller as the other group
// views do (requireGroupCaller), then can_create_groups, all before the
// parameters are parsed.
func (s *Server) createUserGroup(c *call) (obj, error) {
	if err := c.requireGroupCaller(); err != nil {
		return nil, err
	}
	r := c.realm()
	if !r.hasRealmPermission("can_create_groups", c.user) {
		return nil, errInsufficientPermission()
	}
	var members []int
	if err := c.reqJSON("members", &members); err != nil {
		return nil, err
	}
	description, err := c.reqString("description")
	if err != nil {
		return nil, err
	}
	name, err := c.reqString("name")
	if err != nil {
		return nil, err
	}
	var subgroups []int
	if _, err := c.optJSON("subgroups", &subgroups); err != nil {
		return nil, err
	}
	if err := r.activeUsers(members); err != nil {
		return nil, err
	}
	if err := checkGroupName(name); err != nil {
		return nil, err
	}
	settings := map[string]GroupSetting{}
	for _, setting := range sortedGroupSettingNames() {
		v, err := c.optSettingValue(setting)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		canon := r.canonicalSetting(*v)
		if err := c.checkSettingValue(setting, groupPermissionConfigs[setting], canon); err != nil {
			return nil, err
		}
		settings[setting] = r.storedSetting(canon)
	}
	if r.groupNameTaken(name, 0) {
		return nil, errBadRequest("User group '%s' already exists.", name)
	}
	// lock_subgroups_with_respect_to_supergroup with creating_group: no
	// permission is needed to give a new group its subgroups.
	if err := c.checkPotentialSubgroups(subgroups); err != nil {
		return nil, err
	}
	for setting, cfg := range groupPermissionConfigs {
		if _, ok := settings[setting]; !ok {
			settings[setting] = r.defaultSetting(cfg, c.user.ID)
		}
	}
	g := &UserGroup{
		ID: r.newID("group"), Name: name, Description: description,
		Members: uniqueSorted(members), DirectSubgroupIDs: uniqueSorted(subgroups),
		DateCreated: s.now().Unix(), CreatorID: c.user.ID, Settings: settings,
	}
	r.Groups[g.ID] = g
	if c.s.opts.FeatureLevel < groupCreateIDFL {
		return obj{}, nil
	}
	return obj{"group_id": g.ID}, nil
}

// sortedGroupSettingNames lists the group settings in name order.
func sortedGroupSettingNames() []string {
	names := make([]string, 0, len(groupPermissionConfigs))
	for n := range groupPermissionConfigs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// checkPotentialSubgroups is lock_subgroups_with_respect_to_supergroup's
// checks of the groups to become (or stop being) subgroups: every id names a
// group ("Invalid user group ID" for the first that does not), then none is
// deactivated (has_user_group_access_for_subgroup).
func (c *call) checkPotentialSubgroups(ids []int) error {
	r := c.realm()
	for _, id := range ids {
		if r.Groups[id] == nil {
			return errBadRequest("Invalid user group ID: %d", id)
		}
	}
	for _, id := range ids {
		if r.Groups[id].Deactivated {
			return errBadRequest("User group is deactivated.")
		}
	}
	return nil
}

// isRecursiveSubgroup reports whether want is group id's subgroup, directly
// or through other subgroups.
func (r *Realm) isRecursiveSubgroup(id, want int, seen map[int]bool) bool {
	g := r.Groups[id]
	if g == nil || seen[id] {
		return false
	}
	seen[id] = true
	for _, sg := range g.DirectSubgroupIDs {
		if sg == want || r.isRecursiveSubgroup(sg, want, seen) {
			return true
		}
	}
	return false
}

// accessGroupForUpdate is access_user_group_for_update: the group exists,
// is active unless allowDeactivated, is not a system group, and the caller
// may manage all groups, manage this one, or has the given setting of it.
func (c *call) accessGroupForUpdate(setting string, allowDeactivated bool) (*UserGroup, error) {
	id, err := c.pathInt("user_group_id")
	if err != nil {
		return nil, err
	}
	r := c.realm()
	g := r.Groups[id]
	if g == nil {
		return nil, errBadRequest("Invalid user group")
	}
	if g.Deactivated && !allowDeactivated {
		return nil, errBadRequest("User group is deactivated.")
	}
	if g.IsSystemGroup {
		return nil, errInsufficientPermission()
	}
	if r.hasRealmPermission("can_manage_all_groups", c.user) {
		return g, nil
	}
	if r.userHasPermission(g.setting("can_manage_group"), groupPermissionConfigs["can_manage_group"], c.user) {
		return g, nil
	}
	if setting != "can_manage_group" && r.userHasPermission(g.setting(setting), groupPermissionConfigs[setting], c.user) {
		return g, nil
	}
	return nil, errInsufficientPermission()
}

// setting is the group's value of a setting (its default when unset).
func (g *UserGroup) setting(name string) GroupSetting {
	if v, ok := g.Settings[name]; ok {
		return v
	}
	for _, s := range userGroupSettings {
		if s.name == name {
			return GroupSetting{GroupID: s.def}
		}
	}
	return GroupSetting{}
}

// groupUpdate is a PATCH /user_groups/{user_group_id} request as read: the
// settings changed, deactivated (nil: not sent), the description and the
// name.
type groupUpdate struct {
	changes        map[string]*settingChange
	deactivated    *bool
	description    string
	hasDescription bool
	name           string
	hasName        bool
}

// updateUserGroup is edit_user_group: after the access check it renames,
// describes, reactivates and changes each setting in turn, as the view does;
// groupTransaction undoes the earlier steps when a later one is refused.
func (s *Server) updateUserGroup(c *call) (obj, error) {
	if err := c.requireGroupCaller(); err != nil {
		return nil, err
	}
	u, err := readGroupUpdate(c)
	if err != nil {
		return nil, err
	}
	g, err := c.accessGroupForUpdate("can_manage_group", true)
	if err != nil {
		return nil, err
	}
	r := c.realm()
	if u.hasName && u.name != g.Name {
		if err := checkGroupName(u.name); err != nil {
			return nil, err
		}
		if r.groupNameTaken(u.name, g.ID) {
			return nil, errBadRequest("User group '%s' already exists.", u.name)
		}
		g.Name = u.name
	}
	if u.hasDescription && u.description != g.Description {
		g.Description = u.description
	}
	if u.deactivated != nil && !*u.deactivated && g.Deactivated && c.s.opts.FeatureLevel >= groupReactivateFL {
		g.Deactivated = false
	}
	if err := c.changeGroupSettings(g, u.changes); err != nil {
		return nil, err
	}
	return obj{}, nil
}

// readGroupUpdate reads PATCH /user_groups/{user_group_id}'s parameters,
// refusing a malformed one and a request that changes nothing.
func readGroupUpdate(c *call) (*groupUpdate, error) {
	u := &groupUpdate{changes: map[string]*settingChange{}}
	for _, setting := range sortedGroupSettingNames() {
		ch, err := c.optSettingChange(setting)
		if err != nil {
			return nil, err
		}
		if ch != nil {
			u.changes[setting] = ch
		}
	}
	if c.params.Has("deactivated") {
		var b bool
		if err := c.reqJSON("deactivated", &b); err != nil {
			return nil, err
		}
		u.deactivated = &b
	}
	u.description, u.hasDescription = c.optString("description")
	u.name, u.hasName = c.optString("name")
	if !u.hasName && !u.hasDescription && len(u.changes) == 0 && u.deactivated == nil {
		return nil, errBadRequest("No new data supplied")
	}
	return u, nil
}

// changeGroupSettings applies each changed setting of a group in name
// order, refusing a value the setting does not allow.
func (c *call) changeGroupSettings(g *UserGroup, changes map[string]*settingChange) error {
	r := c.realm()
	for _, setting := range sortedGroupSettingNames() {
		ch := changes[setting]
		if ch == nil {
			continue
		}
		changed, err := r.changedSetting(g.setting(setting), *ch)
		if err != nil {
			return err
		}
		if !changed {
			continue
		}
		canon := r.canonicalSetting(ch.New)
		if err := c.checkSettingValue(setting, groupPermissionConfigs[setting], canon); err != nil {
			return err
		}
		g.Settings[setting] = r.storedSetting(canon)
	}
	return nil
}

// deactivateUserGroup is deactivate_user_group with
// access_user_group_for_deactivation: refused while the group is used.
//
// The view has no decorator of its own: guests and bots of every type but
// incoming webhooks (refused by authentication) reach the access check, at
// every feature level.
func (s *Server) deactivateUserGroup(c *call) (obj, error) {
	g, err := c.accessGroupForUpdate("can_manage_group", false)
	if err != nil {
		return nil, err
	}
	if objections := c.realm().groupObjections(g.ID); len(objections) > 0 {
		return nil, errCode(400, "CANNOT_DEACTIVATE_GROUP_IN_USE", "Cannot deactivate user group in use.",
			obj{"objections": objections})
	}
	g.Deactivated = true
	return obj{}, nil
}

// groupObjections lists where group id is in use: as a subgroup of an active
// named group, and as the value (or a subgroup of the anonymous value) of a
// setting of an active channel, an active group or the organization.
func (r *Realm) groupObjections(id int) []obj {
	uses := func(v GroupSetting) bool { return v.GroupID == id || slices.Contains(v.DirectSubgroups, id) }
	var out []obj
	var supergroups []int
	for _, gid := range r.groupIDs() {
		if g := r.Groups[gid]; !g.Deactivated && slices.Contains(g.DirectSubgroupIDs, id) {
			supergroups = append(supergroups, gid)
		}
	}
	if len(supergroups) > 0 {
		out = append(out, obj{"type": "subgroup", "supergroup_ids": supergroups})
	}
	for _, cid := range r.channelIDs() {
		ch := r.Channels[cid]
		if ch.IsArchived {
			continue
		}
		var settings []string
		for _, name := range sortedKeys(ch.GroupSettings) {
			if uses(ch.GroupSettings[name]) {
				settings = append(settings, name)
			}
		}
		if len(settings) > 0 {
			out = append(out, obj{"type": "channel", "channel_id": cid, "settings": settings})
		}
	}
	for _, gid := range r.groupIDs() {
		g := r.Groups[gid]
		if g.Deactivated {
			continue
		}
		var settings []string
		for _, name := range sortedGroupSettingNames() {
			if uses(g.setting(name)) {
				settings = append(settings, name)
			}
		}
		if len(settings) > 0 {
			out = append(out, obj{"type": "user_group", "group_id": gid, "settings": settings})
		}
	}
	var settings []string
	for _, name := range sortedKeys(r.Settings.GroupSettings) {
		if uses(r.Settings.GroupSettings[name]) {
			settings = append(settings, name)
		}
	}
	if len(settings) > 0 {
		out = append(out, obj{"type": "realm", "settings": settings})
	}
	return out
}

// sortedKeys lists a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// updateUserGroupMembers is update_user_group_backend: members and, since
// FL311, subgroups, added and removed.
func (s *Server) updateUserGroupMembers(c *call) (obj, error) {
	if err := c.requireGroupCaller(); err != nil {
		return nil, err
	}
	var add, del, addSub, delSub []int
	for _, p := range []struct {
		name string
		dst  *[]int
	}{{"add", &add}, {"add_subgroups", &addSub}, {"delete", &del}, {"delete_subgroups", &delSub}} {
		if _, err := c.optJSON(p.name, p.dst); err != nil {
			return nil, err
		}
	}
	if c.s.opts.FeatureLevel < groupSubgroupsFL {
		if len(add) == 0 && len(del) == 0 {
			return nil, errBadRequest(`Nothing to do. Specify at least one of "add" or "delete".`)
		}
		addSub, delSub = nil, nil
	}
	if len(add) == 0 && len(del) == 0 && len(addSub) == 0 && len(delSub) == 0 {
		return nil, errBadRequest(`Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".`)
	}
	return c.changeGroupMembership(add, del, addSub, delSub)
}

// updateUserGroupSubgroups is update_subgroups_of_user_group.
func (s *Server) updateUserGroupSubgroups(c *call) (obj, error) {
	if err := c.requireGroupCaller(); err != nil {
		return nil, err
	}
	var add, del []int
	if _, err := c.optJSON("add", &add); err != nil {
		return nil, err
	}
	if _, err := c.optJSON("delete", &del); err != nil {
		return nil, err
	}
	if len(add) == 0 && len(del) == 0 {
		return nil, errBadRequest(`Nothing to do. Specify at least one of "add" or "delete".`)
	}
	return c.changeGroupMembership(nil, nil, add, del)
}

// changeGroupMembership runs the parts of a membership change as
// compose_views runs the views' thunks: adding members, removing members,
// adding subgroups, removing subgroups, each with its own access check and
// applied before the next part is checked (so a request may add a member
// and remove it again). groupTransaction undoes the earlier parts when a
// later one is refused.
func (c *call) changeGroupMembership(add, del, addSub, delSub []int) (obj, error) {
	for _, part := range []struct {
		ids []int
		run func([]int) error
	}{{add, c.addGroupMembers}, {del, c.removeGroupMembers}, {addSub, c.addGroupSubgroups}, {delSub, c.removeGroupSubgroups}} {
		if len(part.ids) == 0 {
			continue
		}
		if err := part.run(part.ids); err != nil {
			return nil, err
		}
	}
	return obj{}, nil
}

// accessGroupForMembership is access_user_group_for_update as the member
// views call it: a user adding or removing only themselves may do so with
// selfSetting (can_join_group, can_leave_group), and otherwise, as anyone
// else, with setting (can_add_members_group, can_remove_members_group).
// Deactivated groups are open to changes from FL391.
func (c *call) accessGroupForMembership(ids []int, selfSetting, setting string) (*UserGroup, error) {
	allowDeactivated := c.s.opts.FeatureLevel >= groupEditDeactivatedFL
	if len(ids) == 1 && ids[0] == c.user.ID {
		if g, err := c.accessGroupForUpdate(selfSetting, allowDeactivated); err == nil {
			return g, nil
		}
	}
	return c.accessGroupForUpdate(setting, allowDeactivated)
}

// addGroupMembers is add_members_to_group_backend.
func (c *call) addGroupMembers(ids []int) error {
	g, err := c.accessGroupForMembership(ids, "can_join_group", "can_add_members_group")
	if err != nil {
		return err
	}
	if err := c.realm().activeUsers(ids); err != nil {
		return err
	}
	for _, id := range ids {
		if slices.Contains(g.Members, id) {
			return errBadRequest("User %d is already a member of this group", id)
		}
	}
	g.Members = uniqueSorted(append(slices.Clone(g.Members), ids...))
	return nil
}

// removeGroupMembers is remove_members_from_group_backend: the users are
// looked up before the group.
func (c *call) removeGroupMembers(ids []int) error {
	r := c.realm()
	if err := r.activeUsers(ids); err != nil {
		return err
	}
	g, err := c.accessGroupForMembership(ids, "can_leave_group", "can_remove_members_group")
	if err != nil {
		return err
	}
	direct := r.groupMembers(g, true)
	for _, id := range ids {
		if !slices.Contains(direct, id) {
			return errBadRequest("There is no member '%d' in this user group", id)
		}
	}
	g.Members = slices.DeleteFunc(slices.Clone(g.Members), func(id int) bool { return slices.Contains(ids, id) })
	return nil
}

// lockSubgroups is lock_subgroups_with_respect_to_supergroup for a change of
// the path's group: the caller needs setting on it (the group may be
// deactivated from FL391), then the subgroups are checked.
func (c *call) lockSubgroups(ids []int, setting string) (*UserGroup, error) {
	g, err := c.accessGroupForUpdate(setting, c.s.opts.FeatureLevel >= groupEditDeactivatedFL)
	if err != nil {
		return nil, err
	}
	if err := c.checkPotentialSubgroups(ids); err != nil {
		return nil, err
	}
	return g, nil
}

// addGroupSubgroups is add_subgroups_to_group_backend: adding subgroups
// needs can_add_members_group, like adding members (or managing the group);
// a group already a direct subgroup is refused before a cycle is looked for.
func (c *call) addGroupSubgroups(ids []int) error {
	g, err := c.lockSubgroups(ids, "can_add_members_group")
	if err != nil {
		return err
	}
	for _, id := range ids {
		if slices.Contains(g.DirectSubgroupIDs, id) {
			return errBadRequest("User group %d is already a subgroup of this group.", id)
		}
	}
	r := c.realm()
	for _, id := range ids {
		if id == g.ID || r.isRecursiveSubgroup(id, g.ID, map[int]bool{}) {
			return errBadRequest("User group %d is already a subgroup of one of the passed subgroups.", g.ID)
		}
	}
	g.DirectSubgroupIDs = uniqueSorted(append(slices.Clone(g.DirectSubgroupIDs), ids...))
	return nil
}

// removeGroupSubgroups is remove_subgroups_from_group_backend: removing
// subgroups needs can_manage_group (or can_manage_all_groups).
func (c *call) removeGroupSubgroups(ids []int) error {
	g, err := c.lockSubgroups(ids, "can_manage_group")
	if err != nil {
		return err
	}
	for _, id := range ids {
		if !slices.Contains(g.DirectSubgroupIDs, id) {
			return errBadRequest("User group %d is not a subgroup of this group.", id)
		}
	}
	g.DirectSubgroupIDs = slices.DeleteFunc(slices.Clone(g.DirectSubgroupIDs), func(id int) bool { return slices.Contains(ids, id) })
	return nil
}
