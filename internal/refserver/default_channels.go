package refserver

import "sort"

// Default channels: the channels new users are subscribed to (POST and
// DELETE /default_streams, register's realm_default_streams, the
// default_streams event), after Zulip's add_default_stream and
// remove_default_stream views and do_add_default_stream. The channels keep
// the flag (Channel.IsDefault), which PATCH /streams is_default_stream also
// sets; this area reads and writes the same flag.

func init() {
	registerArea("default_channels", area{routes: (*Server).routesDefaultChannels,
		sections: map[string]registerSection{"default_streams": (*Server).registerDefaultChannels}})
}

// defaultChannelIDsFL is the level from which realm_default_streams and the
// event carry ids (objects before).
const defaultChannelIDsFL = 330

// routesDefaultChannels registers the endpoints.
func (s *Server) routesDefaultChannels() {
	s.handle("POST /default_streams", authUser, s.withDefaultChannelEvents(s.addDefaultChannel))
	s.handle("DELETE /default_streams", authUser, s.withDefaultChannelEvents(s.removeDefaultChannel))
}

// defaultChannelIDs lists the default channels' ids, sorted.
func (r *Realm) defaultChannelIDs() []int {
	ids := []int{}
	for id, ch := range r.Channels {
		if ch.IsDefault && !ch.IsArchived {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	return ids
}

// defaultChannelsWire is realm_default_streams at a level: ids, or the
// channels themselves before defaultChannelIDsFL.
func (s *Server) defaultChannelsWire(fl int) any {
	ids := s.realm.defaultChannelIDs()
	if fl >= defaultChannelIDsFL {
		return ids
	}
	out := []obj{}
	for _, id := range ids {
		out = append(out, s.channelWire(s.realm.Channels[id], false))
	}
	return out
}

// registerDefaultChannels is register's default_streams section.
func (s *Server) registerDefaultChannels(rr *registerRequest, out obj) {
	out["realm_default_streams"] = s.defaultChannelsWire(rr.fl)
}

// defaultChannelParam reads stream_id and finds the channel an administrator
// may make default or not. The views are wrapped in
// check_if_user_can_manage_default_streams (zerver/decorator.py), which
// refuses anyone but an administrator with OrganizationAdministratorRequiredError
// before the parameters are read. The channel is found by access_stream_by_id:
// active, and with content access (needContent, add_default_stream) or,
// for remove_default_stream (require_content_access=False), metadata access.
func (c *call) defaultChannelParam(needContent bool) (*Channel, error) {
	if !c.user.IsAdmin() {
		return nil, errPrincipal("administrator")
	}
	var id int
	if err := c.reqJSON("stream_id", &id); err != nil {
		return nil, err
	}
	ch := c.realm().Channels[id]
	if ch == nil || ch.IsArchived {
		return nil, errBadRequest("Invalid channel ID")
	}
	access := c.s.canAccessChannelMetadata(c.user, ch)
	if needContent {
		access = c.s.canAccessChannelContent(c.user, ch)
	}
	if !access {
		return nil, errBadRequest("Invalid channel ID")
	}
	return ch, nil
}

// addDefaultChannel is add_default_stream: a private channel cannot be made
// default.
func (s *Server) addDefaultChannel(c *call) (obj, error) {
	ch, err := c.defaultChannelParam(true)
	if err != nil {
		return nil, err
	}
	if ch.InviteOnly {
		return nil, errBadRequest("Private channels cannot be made default.")
	}
	ch.IsDefault = true
	return obj{}, nil
}

// removeDefaultChannel is remove_default_stream; a channel that is not
// default is left as it is.
func (s *Server) removeDefaultChannel(c *call) (obj, error) {
	ch, err := c.defaultChannelParam(false)
	if err != nil {
		return nil, err
	}
	ch.IsDefault = false
	return obj{}, nil
}

// withDefaultChannelEvents sends the default_streams event when the set
// changed.
func (s *Server) withDefaultChannelEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		before := s.realm.defaultChannelIDs()
		payload, err := h(c)
		if err == nil && !sameIntSet(before, s.realm.defaultChannelIDs()) {
			s.emit(obj{"type": "default_streams", "default_streams": s.defaultChannelsWire(s.opts.FeatureLevel)}, nil)
		}
		return payload, err
	}
}
