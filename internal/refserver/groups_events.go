package refserver

import "slices"

// The user_group events of zerver/actions/user_groups.py. A route that
// changes groups is wrapped with withGroupEvents, which compares the groups
// before and after the handler and sends one event per change, so that the
// handlers stay free of event code and a refused request sends nothing.

// groupFacts is what the events report of one group.
type groupFacts struct {
	name, description string
	deactivated       bool
	members           []int
	subgroups         []int
	settings          map[string]GroupSetting
}

// snapshotGroups records every group's facts.
func (s *Server) snapshotGroups() map[int]groupFacts {
	out := make(map[int]groupFacts, len(s.realm.Groups))
	for id, g := range s.realm.Groups {
		settings := make(map[string]GroupSetting, len(userGroupSettings))
		for _, gs := range userGroupSettings {
			settings[gs.name] = s.realm.settingForAPI(g.setting(gs.name))
		}
		out[id] = groupFacts{name: g.Name, description: g.Description, deactivated: g.Deactivated,
			members: s.realm.groupMembers(g, true), subgroups: slices.Clone(g.DirectSubgroupIDs), settings: settings}
	}
	return out
}

// withGroupEvents wraps a handler that changes user groups.
func (s *Server) withGroupEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		before := s.snapshotGroups()
		payload, err := h(c)
		if err == nil {
			s.emitGroupChanges(before, s.snapshotGroups())
		}
		return payload, err
	}
}

// emitGroupChanges sends the events that take a client from before to after.
func (s *Server) emitGroupChanges(before, after map[int]groupFacts) {
	fl := s.opts.FeatureLevel
	for _, id := range s.realm.groupIDs() {
		now, was, existed := after[id], before[id], false
		_, existed = before[id]
		if !existed {
			for _, g := range s.groupsWire(true) {
				if g["id"] == id {
					s.emit(obj{"type": "user_group", "op": "add", "group": g}, nil)
				}
			}
			continue
		}
		data := obj{}
		if now.name != was.name {
			data["name"] = now.name
		}
		if now.description != was.description {
			data["description"] = now.description
		}
		for _, gs := range userGroupSettings {
			if fl >= gs.fl && !sameSetting(now.settings[gs.name], was.settings[gs.name]) {
				data[gs.name] = now.settings[gs.name].Wire()
			}
		}
		if now.deactivated != was.deactivated {
			s.emitGroupActivation(id, now.deactivated)
		}
		if len(data) > 0 {
			s.emit(obj{"type": "user_group", "op": "update", "group_id": id, "data": data}, nil)
		}
		s.emitGroupDiff(id, "members", "user_ids", was.members, now.members)
		s.emitGroupDiff(id, "subgroups", "direct_subgroup_ids", was.subgroups, now.subgroups)
	}
}

// emitGroupActivation is do_deactivate_user_group's and
// do_reactivate_user_group's event: an update of deactivated to queues that
// list deactivated groups; to the others the group is removed or added.
func (s *Server) emitGroupActivation(id int, deactivated bool) {
	var added obj
	for _, g := range s.groupsWire(true) {
		if g["id"] == id {
			added = g
		}
	}
	s.emitEach("user_group", func(q *Queue, _ *User) obj {
		switch {
		case q.IncludeDeactivatedGroups:
			return obj{"type": "user_group", "op": "update", "group_id": id, "data": obj{"deactivated": deactivated}}
		case deactivated:
			return obj{"type": "user_group", "op": "remove", "group_id": id}
		default:
			return obj{"type": "user_group", "op": "add", "group": added}
		}
	})
}

// emitGroupDiff sends add_<what> and remove_<what> for the ids that came and went.
func (s *Server) emitGroupDiff(id int, what, key string, was, now []int) {
	var added, removed []int
	for _, v := range now {
		if !slices.Contains(was, v) {
			added = append(added, v)
		}
	}
	for _, v := range was {
		if !slices.Contains(now, v) {
			removed = append(removed, v)
		}
	}
	if len(added) > 0 {
		s.emit(obj{"type": "user_group", "op": "add_" + what, "group_id": id, key: added}, nil)
	}
	if len(removed) > 0 {
		s.emit(obj{"type": "user_group", "op": "remove_" + what, "group_id": id, key: removed}, nil)
	}
}
