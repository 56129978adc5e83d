package refserver

import "sort"

// GET /users/{user_id}/channels (feature level 440, zulip/zulip#36915): the
// channels a user is subscribed to, limited to those whose metadata the
// caller can access, so all of them for an administrator. Zulip's view is
// newer than the sources this server was checked against; it follows the
// newest API description. Choices, each as Zulip's neighbouring views do:
//   - the target is found like access_user_by_id(for_admin=False): an
//     unknown id is "No such user", a deactivated user "User is deactivated",
//     and a bot "No such user" below feature level 458 ("Prior to Zulip 12.0
//     (feature level 458), target users that were bots resulted in a
//     permissions error"), as GET /user_groups/{id}/members/{user_id};
//   - archived channels the user is still subscribed to are listed (their
//     subscriptions stay, and their metadata stays visible).

func init() {
	registerArea("user_channels", area{routes: (*Server).routesUserChannels})
}

// userChannelsFL is the level of the endpoint; userChannelsBotTargetFL the
// level from which a bot may be the target.
const (
	userChannelsFL          = 440
	userChannelsBotTargetFL = 458
)

// routesUserChannels registers the endpoint.
func (s *Server) routesUserChannels() {
	if s.opts.FeatureLevel >= userChannelsFL {
		s.handle("GET /users/{user_id}/channels", authUser, s.getUserChannels)
	}
}

// getUserChannels serves GET /users/{user_id}/channels.
func (s *Server) getUserChannels(c *call) (obj, error) {
	id, err := c.pathInt("user_id")
	if err != nil {
		return nil, err
	}
	r := c.realm()
	target := r.user(id)
	if target == nil || target.IsBot && s.opts.FeatureLevel < userChannelsBotTargetFL {
		return nil, errBadRequest("No such user")
	}
	if !target.IsActive {
		return nil, errBadRequest("User is deactivated")
	}
	ids := []int{}
	for chID, ch := range r.Channels {
		if isSubscribed(ch, target) && s.canAccessChannelMetadata(c.user, ch) {
			ids = append(ids, chID)
		}
	}
	sort.Ints(ids)
	return obj{"subscribed_channel_ids": ids}, nil
}
