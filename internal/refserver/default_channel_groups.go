package refserver

import (
	"net/http"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Default channel groups: named sets of channels offered to new users at
// sign-up (POST /default_stream_groups/create, PATCH and DELETE
// /default_stream_groups/{group_id}, PATCH
// /default_stream_groups/{group_id}/streams, register's
// realm_default_stream_groups, the default_stream_groups event), after newest
// Zulip's zerver/views/streams.py (create_default_stream_group,
// update_default_stream_group_info, update_default_stream_group_streams,
// remove_default_stream_group), zerver/actions/default_streams.py (the do_*
// functions, check_default_stream_group_name,
// notify_default_stream_groups), zerver/lib/streams.py
// (access_default_stream_group_by_id, access_stream_by_name) and the model
// DefaultStreamGroup (zerver/models/streams.py). The endpoints are not in
// Zulip's API description (an experimental feature); their words come from
// the code. Choices:
//   - Zulip's views are not transactions: a rename that succeeds stays when the
//     description then fails, and channels added before one that is refused
//     stay added (group.streams.add runs per channel), without an event;
//   - what the database refuses in Zulip (a name over 60 characters on a
//     rename, which check_default_stream_group_name does not guard; a
//     description over 1024 characters; creating a name that exists with
//     another description, which get_or_create(name, realm, description) turns
//     into an IntegrityError) is answered as Zulip's unhandled exceptions are:
//     500 "Internal server error";
//   - archiving a channel removes it from every group in Zulip
//     (do_deactivate_stream); here the group keeps the id and archived channels
//     are left out wherever groups are served;
//   - the channels of a group are ordered by name as Python orders strings,
//     where Zulip's order_by("name") follows the database's collation.

func init() {
	registerArea("default_channel_groups", area{seed: seedDefaultChannelGroups, seedStep: 60,
		routes:   (*Server).routesDefaultChannelGroups,
		sections: map[string]registerSection{"default_stream_groups": (*Server).registerDefaultChannelGroups}})
}

// DefaultChannelGroup is a DefaultStreamGroup.
type DefaultChannelGroup struct {
	ID          int    `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	ChannelIDs  []int  `json:"channel_ids"`
}

// Limits of DefaultStreamGroup's columns.
const (
	maxDefaultChannelGroupName        = 60
	maxDefaultChannelGroupDescription = 1024
)

// seedDefaultChannelGroups gives the organization one group: a private and a
// public channel, neither of them a default channel.
func seedDefaultChannelGroups(r *Realm, _, _ int64) {
	r.DefaultChannelGroups = []*DefaultChannelGroup{
		{ID: 1, Name: "Engineering", Description: "Channels for engineers.", ChannelIDs: []int{SeedChannelRandom, SeedChannelDesign}},
	}
	r.NextID["default_channel_group"] = 1
}

// routesDefaultChannelGroups registers the endpoints.
func (s *Server) routesDefaultChannelGroups() {
	s.handle("POST /default_stream_groups/create", authUser, s.createDefaultChannelGroup)
	s.handle("PATCH /default_stream_groups/{group_id}", authUser, s.updateDefaultChannelGroupInfo)
	s.handle("DELETE /default_stream_groups/{group_id}", authUser, s.removeDefaultChannelGroup)
	s.handle("PATCH /default_stream_groups/{group_id}/streams", authUser, s.updateDefaultChannelGroupChannels)
}

// defaultChannelGroupsWire is default_stream_groups_to_dicts_sorted at a
// feature level: the groups by name, each with its channels by name, as ids
// from feature level 330 (defaultChannelIDsFL) and as channel objects before.
func (s *Server) defaultChannelGroupsWire(fl int) []obj {
	r := s.realm
	groups := append([]*DefaultChannelGroup(nil), r.DefaultChannelGroups...)
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
	out := []obj{}
	for _, g := range groups {
		var chans []*Channel
		for _, id := range g.ChannelIDs {
			if ch := r.Channels[id]; ch != nil && !ch.IsArchived {
				chans = append(chans, ch)
			}
		}
		sort.SliceStable(chans, func(i, j int) bool { return chans[i].Name < chans[j].Name })
		var streams any
		if fl >= defaultChannelIDsFL {
			ids := []int{}
			for _, ch := range chans {
				ids = append(ids, ch.ID)
			}
			streams = ids
		} else {
			dicts := []obj{}
			for _, ch := range chans {
				dicts = append(dicts, s.channelWire(ch, false))
			}
			streams = dicts
		}
		out = append(out, obj{"name": g.Name, "id": g.ID, "description": g.Description, "streams": streams})
	}
	return out
}

// registerDefaultChannelGroups is register's default_stream_groups section:
// none for guests (fetch_initial_state_data).
func (s *Server) registerDefaultChannelGroups(rr *registerRequest, out obj) {
	if rr.c.user.IsGuest() {
		out["realm_default_stream_groups"] = []obj{}
		return
	}
	out["realm_default_stream_groups"] = s.defaultChannelGroupsWire(rr.fl)
}

// notifyDefaultChannelGroups is notify_default_stream_groups: the whole list,
// to the active users who are not guests.
func (s *Server) notifyDefaultChannelGroups() {
	s.emit(obj{"type": "default_stream_groups", "default_stream_groups": s.defaultChannelGroupsWire(s.opts.FeatureLevel)},
		func(u *User) bool { return !u.IsGuest() })
}

// dropFromDefaultChannelGroups takes an archived channel out of every default
// channel group, and tells the users when one changed, as do_deactivate_stream
// does (zerver/actions/streams.py).
func (s *Server) dropFromDefaultChannelGroups(channelID int) {
	changed := false
	for _, g := range s.realm.DefaultChannelGroups {
		if i := slices.Index(g.ChannelIDs, channelID); i >= 0 {
			g.ChannelIDs = slices.Delete(g.ChannelIDs, i, i+1)
			changed = true
		}
	}
	if changed {
		s.notifyDefaultChannelGroups()
	}
}

// errDatabase is what Zulip answers when the database refuses a write its
// code did not check (an unhandled IntegrityError or DataError).
func errDatabase() *apiError {
	return errCode(http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "Internal server error", nil)
}

// requireDefaultChannelManager is check_if_user_can_manage_default_streams
// (zerver/decorator.py): UserProfile.can_manage_default_streams is
// is_realm_admin, and the refusal OrganizationAdministratorRequiredError.
func (c *call) requireDefaultChannelManager() error {
	if !c.user.IsAdmin() {
		return errPrincipal("administrator")
	}
	return nil
}

// accessDefaultChannelGroup is access_default_stream_group_by_id.
func (c *call) accessDefaultChannelGroup() (*DefaultChannelGroup, error) {
	id, err := c.pathInt("group_id")
	if err != nil {
		return nil, err
	}
	for _, g := range c.realm().DefaultChannelGroups {
		if g.ID == id {
			return g, nil
		}
	}
	return nil, errBadRequest("Default channel group with id '%d' does not exist.", id)
}

// channelsByName is the views' loop of access_stream_by_name over
// stream_names.
func (c *call) channelsByName(names []string) ([]*Channel, error) {
	var out []*Channel
	for _, name := range names {
		ch, err := c.s.botChannelByName(c, name)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	return out, nil
}

// defaultChannelGroupByName finds a group by its exact name (the unique
// (realm, name) key).
func (r *Realm) defaultChannelGroupByName(name string) *DefaultChannelGroup {
	for _, g := range r.DefaultChannelGroups {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// checkDefaultChannelGroupName is check_default_stream_group_name.
func checkDefaultChannelGroupName(name string) error {
	if strings.TrimSpace(name) == "" {
		return errBadRequest("Invalid default channel group name '%s'", name)
	}
	if utf8.RuneCountInString(name) > maxDefaultChannelGroupName {
		return errBadRequest("Default channel group name too long (limit: %d characters)", maxDefaultChannelGroupName)
	}
	if strings.ContainsRune(name, 0) {
		return errBadRequest("Default channel group name '%s' contains NULL (0x00) characters.", name)
	}
	return nil
}

// errDefaultChannelInGroup is the refusal of a default channel in a group.
func errDefaultChannelInGroup(ch *Channel, group string) error {
	return errBadRequest("'%s' is a default channel and cannot be added to '%s'", ch.Name, group)
}

// createDefaultChannelGroup is create_default_stream_group and
// do_create_default_stream_group: the channels are checked (not default)
// before the name.
func (s *Server) createDefaultChannelGroup(c *call) (obj, error) {
	if err := c.requireDefaultChannelManager(); err != nil {
		return nil, err
	}
	name, err := c.reqString("group_name")
	if err != nil {
		return nil, err
	}
	description, err := c.reqString("description")
	if err != nil {
		return nil, err
	}
	var names []string
	if err := c.reqJSON("stream_names", &names); err != nil {
		return nil, err
	}
	chans, err := c.channelsByName(names)
	if err != nil {
		return nil, err
	}
	for _, ch := range chans {
		if ch.IsDefault {
			return nil, errDefaultChannelInGroup(ch, name)
		}
	}
	if err := checkDefaultChannelGroupName(name); err != nil {
		return nil, err
	}
	r := c.realm()
	if existing := r.defaultChannelGroupByName(name); existing != nil {
		if existing.Description != description {
			return nil, errDatabase()
		}
		return nil, errBadRequest("Default channel group '%s' already exists", name)
	}
	if utf8.RuneCountInString(description) > maxDefaultChannelGroupDescription {
		return nil, errDatabase()
	}
	g := &DefaultChannelGroup{ID: r.newID("default_channel_group"), Name: name, Description: description, ChannelIDs: []int{}}
	for _, ch := range chans {
		if !slices.Contains(g.ChannelIDs, ch.ID) {
			g.ChannelIDs = append(g.ChannelIDs, ch.ID)
		}
	}
	r.DefaultChannelGroups = append(r.DefaultChannelGroups, g)
	s.notifyDefaultChannelGroups()
	return obj{}, nil
}

// updateDefaultChannelGroupInfo is update_default_stream_group_info: an
// empty value counts as absent for the first check, then each given value
// is applied in turn (do_change_default_stream_group_name, which does not
// check the name as creation does, then
// do_change_default_stream_group_description), each with its event.
func (s *Server) updateDefaultChannelGroupInfo(c *call) (obj, error) {
	if err := c.requireDefaultChannelManager(); err != nil {
		return nil, err
	}
	newName, hasName := c.optString("new_group_name")
	newDescription, hasDescription := c.optString("new_description")
	if newName == "" && newDescription == "" {
		return nil, errBadRequest(`You must pass "new_description" or "new_group_name".`)
	}
	g, err := c.accessDefaultChannelGroup()
	if err != nil {
		return nil, err
	}
	if hasName {
		if g.Name == newName {
			return nil, errBadRequest("This default channel group is already named '%s'", newName)
		}
		if c.realm().defaultChannelGroupByName(newName) != nil {
			return nil, errBadRequest("Default channel group '%s' already exists", newName)
		}
		if utf8.RuneCountInString(newName) > maxDefaultChannelGroupName {
			return nil, errDatabase()
		}
		g.Name = newName
		s.notifyDefaultChannelGroups()
	}
	if hasDescription {
		if utf8.RuneCountInString(newDescription) > maxDefaultChannelGroupDescription {
			return nil, errDatabase()
		}
		g.Description = newDescription
		s.notifyDefaultChannelGroups()
	}
	return obj{}, nil
}

// updateDefaultChannelGroupChannels is update_default_stream_group_streams:
// the group, then the channels, then op. Adding checks and adds channel by
// channel (do_add_streams_to_default_stream_group); removing checks them
// all first (do_remove_streams_from_default_stream_group).
func (s *Server) updateDefaultChannelGroupChannels(c *call) (obj, error) {
	if err := c.requireDefaultChannelManager(); err != nil {
		return nil, err
	}
	op, err := c.reqString("op")
	if err != nil {
		return nil, err
	}
	var names []string
	if err := c.reqJSON("stream_names", &names); err != nil {
		return nil, err
	}
	g, err := c.accessDefaultChannelGroup()
	if err != nil {
		return nil, err
	}
	chans, err := c.channelsByName(names)
	if err != nil {
		return nil, err
	}
	switch op {
	case "add":
		for _, ch := range chans {
			if ch.IsDefault {
				return nil, errDefaultChannelInGroup(ch, g.Name)
			}
			if slices.Contains(g.ChannelIDs, ch.ID) {
				return nil, errBadRequest("Channel '%s' is already present in default channel group '%s'", ch.Name, g.Name)
			}
			g.ChannelIDs = append(g.ChannelIDs, ch.ID)
		}
	case "remove":
		for _, ch := range chans {
			if !slices.Contains(g.ChannelIDs, ch.ID) {
				return nil, errBadRequest("Channel '%s' is not present in default channel group '%s'", ch.Name, g.Name)
			}
		}
		kept := []int{}
		for _, id := range g.ChannelIDs {
			drop := false
			for _, ch := range chans {
				drop = drop || ch.ID == id
			}
			if !drop {
				kept = append(kept, id)
			}
		}
		g.ChannelIDs = kept
	default:
		return nil, errBadRequest(`Invalid value for "op". Specify one of "add" or "remove".`)
	}
	s.notifyDefaultChannelGroups()
	return obj{}, nil
}

// removeDefaultChannelGroup is remove_default_stream_group.
func (s *Server) removeDefaultChannelGroup(c *call) (obj, error) {
	if err := c.requireDefaultChannelManager(); err != nil {
		return nil, err
	}
	g, err := c.accessDefaultChannelGroup()
	if err != nil {
		return nil, err
	}
	r := c.realm()
	kept := r.DefaultChannelGroups[:0]
	for _, other := range r.DefaultChannelGroups {
		if other != g {
			kept = append(kept, other)
		}
	}
	r.DefaultChannelGroups = kept
	s.notifyDefaultChannelGroups()
	return obj{}, nil
}
