package refserver

import "sort"

func init() {
	registerArea("groups", area{seed: seedGroups, seedStep: 20, routes: (*Server).routesGroups, sections: map[string]registerSection{"realm_user_groups": (*Server).registerUserGroups}})
}

// userGroupSettings are the group settings of a user group with the feature
// level that added each and the default for a group that lacks one.
var userGroupSettings = []struct {
	name string
	fl   int
	def  int
}{
	{"can_add_members_group", 305, GroupNobody},
	{"can_join_group", 301, GroupNobody},
	{"can_leave_group", 308, GroupEveryone},
	{"can_manage_group", 283, GroupNobody},
	{"can_mention_group", 191, GroupEveryone},
	{"can_remove_members_group", 324, GroupNobody},
}

// routesGroups registers the user group endpoints.
func (s *Server) routesGroups() {
	s.handle("GET /user_groups", authUser, s.getUserGroups)
	s.handle("GET /user_groups/{user_group_id}/members", authUser, s.getUserGroupMembers)
	s.handle("GET /user_groups/{user_group_id}/members/{user_id}", authUser, s.getIsUserGroupMember)
	s.handle("GET /user_groups/{user_group_id}/subgroups", authUser, s.getUserGroupSubgroups)
	s.routesGroupWrites()
}

// requireMemberOrAdmin is Zulip's require_member_or_admin decorator: guests and
// bots are refused, each with its own message (both 400 BAD_REQUEST).
func (c *call) requireMemberOrAdmin() error {
	if c.user.IsGuest() {
		return errBadRequest("Not allowed for guest users")
	}
	if c.user.IsBot {
		return errBadRequest("This endpoint does not accept bot requests.")
	}
	return nil
}

// groupBotsFL is the feature level from which bots may call the user group
// endpoints (Zulip 12.0, feature level 496; zulip/zulip#39116): the seven
// views of zerver/views/user_groups.py decorated with require_member_or_admin
// (renamed require_human_non_guest_user) and the inner decorator of
// require_user_group_create_permission became require_non_guest_user.
const groupBotsFL = 496

// groupReadBotTargetFL is the feature level from which GET
// /user_groups/{id}/members/{user_id} answers for a bot (before it,
// access_user_by_id without allow_bots: "No such user").
const groupReadBotTargetFL = 458

// requireGroupCaller is the decorator of the user group views at the
// advertised feature level, after authentication has refused an incoming
// webhook bot (validate_api_key, at every level, for every route but sending
// messages: middleware.go): below feature level 496 require_member_or_admin
// refuses guests, then bots of the other types (generic, outgoing webhook,
// embedded); from 496 require_non_guest_user refuses guests only. A bot whose
// role is guest is refused as a guest at both levels. POST
// /user_groups/{id}/deactivate has no decorator in Zulip.
func (c *call) requireGroupCaller() error {
	if c.s.opts.FeatureLevel >= groupBotsFL {
		if c.user.IsGuest() {
			return errBadRequest("Not allowed for guest users")
		}
		return nil
	}
	return c.requireMemberOrAdmin()
}

// getUserGroups serves GET /user_groups (digest §7.3).
func (s *Server) getUserGroups(c *call) (obj, error) {
	if err := c.requireGroupCaller(); err != nil {
		return nil, err
	}
	fl := c.s.opts.FeatureLevel
	includeDeactivated := false
	var err error
	switch {
	case fl >= 294:
		includeDeactivated, err = c.optBool("include_deactivated_groups", false)
	case fl >= 290:
		includeDeactivated, err = c.optBool("allow_deactivated", false)
	}
	if err != nil {
		return nil, err
	}
	return obj{"user_groups": s.groupsWire(includeDeactivated)}, nil
}

// readGroup is access_user_group_to_read_membership: the group by id.
func (c *call) readGroup(id int) (*UserGroup, error) {
	g := c.realm().Groups[id]
	if g == nil {
		return nil, errBadRequest("Invalid user group")
	}
	return g, nil
}

// groupReadStart is what the three membership reads do before their body:
// Django resolves the path (an id that is not digits matches no route), the
// decorator checks the caller, and typed_endpoint parses the flag.
func (c *call) groupReadStart(flag string) (id int, direct bool, err error) {
	if id, err = c.pathInt("user_group_id"); err != nil {
		return 0, false, err
	}
	if err = c.requireGroupCaller(); err != nil {
		return 0, false, err
	}
	direct, err = c.optBool(flag, false)
	return id, direct, err
}

// getUserGroupMembers serves GET /user_groups/{id}/members (FL127):
// get_user_group_members, whose decorator runs first and whose parameters
// are parsed before the group is looked up.
func (s *Server) getUserGroupMembers(c *call) (obj, error) {
	id, direct, err := c.groupReadStart("direct_member_only")
	if err != nil {
		return nil, err
	}
	g, err := c.readGroup(id)
	if err != nil {
		return nil, err
	}
	return obj{"members": c.realm().groupMembers(g, direct)}, nil
}

// getIsUserGroupMember serves GET /user_groups/{id}/members/{user_id}
// (FL127): get_is_user_group_member.
func (s *Server) getIsUserGroupMember(c *call) (obj, error) {
	uid, err := c.pathInt("user_id")
	if err != nil {
		return nil, err
	}
	id, direct, err := c.groupReadStart("direct_member_only")
	if err != nil {
		return nil, err
	}
	g, err := c.readGroup(id)
	if err != nil {
		return nil, err
	}
	target := c.realm().user(uid)
	if target == nil || target.IsBot && c.s.opts.FeatureLevel < groupReadBotTargetFL {
		return nil, errBadRequest("No such user")
	}
	member := false
	for _, m := range c.realm().groupMembers(g, direct) {
		member = member || m == uid
	}
	return obj{"is_user_group_member": member}, nil
}

// getUserGroupSubgroups serves GET /user_groups/{id}/subgroups (FL127):
// get_subgroups_of_user_group.
func (s *Server) getUserGroupSubgroups(c *call) (obj, error) {
	id, direct, err := c.groupReadStart("direct_subgroup_only")
	if err != nil {
		return nil, err
	}
	g, err := c.readGroup(id)
	if err != nil {
		return nil, err
	}
	r := c.realm()
	seen := map[int]bool{g.ID: true}
	var out []int
	var walk func(*UserGroup)
	walk = func(grp *UserGroup) {
		for _, id := range grp.DirectSubgroupIDs {
			if seen[id] || r.Groups[id] == nil {
				continue
			}
			seen[id] = true
			out = append(out, id)
			if !direct {
				walk(r.Groups[id])
			}
		}
	}
	walk(g)
	sort.Ints(out)
	if out == nil {
		out = []int{}
	}
	return obj{"subgroups": out}, nil
}

// groupMembers lists the active members of a group, directly or through
// subgroups (recursively), in ascending id order.
func (r *Realm) groupMembers(g *UserGroup, directOnly bool) []int {
	set := map[int]bool{}
	seen := map[int]bool{}
	var walk func(*UserGroup)
	walk = func(grp *UserGroup) {
		if grp == nil || seen[grp.ID] {
			return
		}
		seen[grp.ID] = true
		for _, m := range grp.Members {
			if u := r.user(m); u != nil && u.IsActive {
				set[m] = true
			}
		}
		if !directOnly {
			for _, sg := range grp.DirectSubgroupIDs {
				walk(r.Groups[sg])
			}
		}
	}
	walk(g)
	out := make([]int, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Ints(out)
	return out
}

// groupsWire renders the user groups.
func (s *Server) groupsWire(includeDeactivated bool) []obj {
	r := s.realm
	fl := s.opts.FeatureLevel
	out := []obj{}
	for _, id := range r.groupIDs() {
		g := r.Groups[id]
		if g.Deactivated && !includeDeactivated {
			continue
		}
		subgroups := append([]int{}, g.DirectSubgroupIDs...)
		o := obj{
			"id":                  g.ID,
			"name":                g.Name,
			"description":         g.Description,
			"members":             r.groupMembers(g, true),
			"direct_subgroup_ids": subgroups,
			"is_system_group":     g.IsSystemGroup,
			"date_created":        nil,
			"creator_id":          nil,
			"deactivated":         g.Deactivated,
		}
		if g.DateCreated != 0 {
			o["date_created"] = g.DateCreated
		}
		if g.CreatorID != 0 {
			o["creator_id"] = g.CreatorID
		}
		if fl < 292 {
			delete(o, "date_created")
			delete(o, "creator_id")
		}
		if fl < 290 {
			delete(o, "deactivated")
		}
		for _, gs := range userGroupSettings {
			if fl < gs.fl {
				continue
			}
			v, ok := g.Settings[gs.name]
			if !ok {
				v = GroupSetting{GroupID: gs.def}
			}
			o[gs.name] = v.Wire()
		}
		out = append(out, o)
	}
	return out
}

// registerUserGroups is register's realm_user_groups section.
func (s *Server) registerUserGroups(rr *registerRequest, out obj) {
	fl := rr.fl
	out["realm_user_groups"] = nonNilObjs(s.groupsWire(fl >= 294 && rr.capability("include_deactivated_groups")))
}

// seedGroups creates the system groups and a few custom ones.
func seedGroups(r *Realm, base, _ int64) {
	sys := func(id int, name, desc string, subgroups ...int) {
		g := &UserGroup{ID: id, Name: name, Description: desc, Members: []int{}, DirectSubgroupIDs: subgroups,
			IsSystemGroup: true, Settings: map[string]GroupSetting{}}
		if g.DirectSubgroupIDs == nil {
			g.DirectSubgroupIDs = []int{}
		}
		r.Groups[id] = g
	}
	sys(GroupOwners, "role:owners", "Owners of this organization")
	sys(GroupAdministrators, "role:administrators", "Administrators of this organization, including owners", GroupOwners)
	sys(GroupModerators, "role:moderators", "Moderators of this organization, including administrators", GroupAdministrators)
	sys(GroupFullMembers, "role:fullmembers", "Members of this organization, not including new accounts and guests", GroupModerators)
	sys(GroupMembers, "role:members", "Members of this organization, not including guests", GroupFullMembers)
	sys(GroupEveryone, "role:everyone", "Everyone in this organization, including guests", GroupMembers)
	sys(GroupInternet, "role:internet", "Everyone on the internet", GroupEveryone)
	sys(GroupNobody, "role:nobody", "Nobody")
	// Each user is a direct member only of the system group for their role.
	for _, id := range r.userIDs() {
		u := r.Users[id]
		var gid int
		switch u.Role {
		case RoleOwner:
			gid = GroupOwners
		case RoleAdministrator:
			gid = GroupAdministrators
		case RoleModerator:
			gid = GroupModerators
		case RoleMember:
			gid = GroupFullMembers
		case RoleGuest:
			gid = GroupEveryone
		}
		r.Groups[gid].Members = append(r.Groups[gid].Members, id)
	}
	for _, g := range r.Groups {
		g.Settings = defaultGroupSettings(GroupAdministrators)
	}
	custom := func(id int, name, desc string, creator int, members, subgroups []int) *UserGroup {
		g := &UserGroup{ID: id, Name: name, Description: desc, Members: members, DirectSubgroupIDs: subgroups,
			DateCreated: base + int64(id)*3600, CreatorID: creator, Settings: defaultGroupSettings(GroupAdministrators)}
		r.Groups[id] = g
		return g
	}
	custom(GroupBackend, "backend", "Backend engineers", SeedAdminID, []int{SeedMemberID, SeedMember3ID}, []int{})
	custom(GroupFrontend, "frontend", "Frontend engineers", SeedAdminID, []int{SeedMember2ID}, []int{})
	custom(GroupRetired, "retired-team", "A team that no longer exists", SeedOwnerID, []int{SeedDeactivatedID}, []int{}).Deactivated = true
	leads := custom(GroupLeads, "leads", "Team leads, and all of backend", SeedOwnerID, []int{SeedOwnerID}, []int{GroupBackend})
	leads.Settings["can_manage_group"] = GroupSetting{DirectMembers: []int{SeedOwnerID}, DirectSubgroups: []int{GroupAdministrators}}
	r.NextID["group"] = seedGroupsNextID
	seedRealmPermissions(r)
}

// UserGroup is a system or custom user group.
type UserGroup struct {
	ID                int                     `json:"id"`
	Name              string                  `json:"name"`
	Description       string                  `json:"description"`
	Members           []int                   `json:"members"` // direct members
	DirectSubgroupIDs []int                   `json:"direct_subgroup_ids"`
	IsSystemGroup     bool                    `json:"is_system_group"`
	DateCreated       int64                   `json:"date_created,omitempty"` // 0 = null
	CreatorID         int                     `json:"creator_id,omitempty"`   // 0 = null
	Deactivated       bool                    `json:"deactivated"`
	Settings          map[string]GroupSetting `json:"settings"` // can_manage_group, ...
}
