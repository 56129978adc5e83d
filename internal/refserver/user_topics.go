package refserver

import (
	"strings"
	"unicode/utf8"
)

func init() {
	registerArea("user_topics", area{seed: seedUserTopics, seedStep: 60, routes: (*Server).routesUserTopics, sections: map[string]registerSection{"user_topic": (*Server).registerUserTopics}})
}

// Topic visibility policies (UserTopic.VisibilityPolicy).
const (
	PolicyInherit  = 0 // "none": the row is removed
	PolicyMuted    = 1
	PolicyUnmuted  = 2
	PolicyFollowed = 3
)

// routesUserTopics registers POST /user_topics (FL170).
func (s *Server) routesUserTopics() {
	if s.opts.FeatureLevel >= 170 {
		s.handle("POST /user_topics", authUser, withEvents(s.updateUserTopic, s.emitUserTopic))
	}
}

// userTopicsWire renders the user topics of a user, as register's user_topics:
// rows with a policy, excluding archived channels (Zulip's get_user_topics
// leaves deactivated channels out).
func (s *Server) userTopicsWire(userID int) []obj {
	out := []obj{}
	for _, t := range s.realm.UserTopics {
		if t.UserID != userID || t.VisibilityPolicy == PolicyInherit {
			continue
		}
		if ch := s.realm.Channels[t.StreamID]; ch == nil || ch.IsArchived {
			continue
		}
		out = append(out, obj{"stream_id": t.StreamID, "topic_name": t.TopicName,
			"last_updated": t.LastUpdated, "visibility_policy": t.VisibilityPolicy})
	}
	return out
}

// updateUserTopic serves POST /user_topics (update_user_topic). Policy 0 removes
// the row and needs only an existing channel (access_stream_to_remove_visibility_policy_by_id);
// other policies need content access to an active channel (access_stream_by_id).
// Topic names match case-insensitively, as Zulip's topic_name__iexact does.
func (s *Server) updateUserTopic(c *call) (obj, error) {
	streamID, err := c.reqInt("stream_id")
	if err != nil {
		return nil, err
	}
	topic, err := c.reqString("topic")
	if err != nil {
		return nil, err
	}
	r := c.realm()
	if limit := r.Settings.MaxTopicLength; utf8.RuneCountInString(topic) > limit {
		return nil, errBadRequest("topic is too long (limit: %d characters)", limit)
	}
	policy, err := c.reqInt("visibility_policy")
	if err != nil {
		return nil, err
	}
	if policy < PolicyInherit || policy > PolicyFollowed || (policy == PolicyFollowed && s.opts.FeatureLevel < 219) {
		return nil, errBadRequest("Invalid visibility_policy")
	}
	ch := r.Channels[streamID]
	if ch == nil || (policy != PolicyInherit && (ch.IsArchived || !userTopicContentAccess(r, c.user, ch))) {
		return nil, errBadRequest("Invalid channel ID")
	}
	if topic == r.Settings.EmptyTopicDisplayName {
		topic = ""
	}
	userTopicSet(r, c.user.ID, streamID, topic, policy, s.now().Unix())
	return nil, nil
}

// userTopicSet upserts (or, for policy 0, deletes) a user's row for a topic.
// Setting the policy a row already has changes nothing, as in Zulip; otherwise
// the row takes the new policy, the time and the latest spelling of the topic.
func userTopicSet(r *Realm, userID, streamID int, topic string, policy int, now int64) {
	for i, t := range r.UserTopics {
		if t.UserID != userID || t.StreamID != streamID || !strings.EqualFold(t.TopicName, topic) {
			continue
		}
		switch {
		case policy == PolicyInherit:
			r.UserTopics = append(r.UserTopics[:i:i], r.UserTopics[i+1:]...)
		case t.VisibilityPolicy != policy:
			t.VisibilityPolicy, t.LastUpdated, t.TopicName = policy, now, topic
		}
		return
	}
	if policy != PolicyInherit {
		r.UserTopics = append(r.UserTopics, &UserTopic{UserID: userID, StreamID: streamID, TopicName: topic,
			LastUpdated: now, VisibilityPolicy: policy})
	}
}

// userTopicContentAccess is Zulip's user_has_content_access: web-public channels,
// subscribed channels, public channels for non-guests, and private channels for
// members of their can_add_subscribers_group or can_subscribe_group.
func userTopicContentAccess(r *Realm, u *User, ch *Channel) bool {
	if ch.IsWebPublic {
		return true
	}
	if _, ok := ch.Subscribers[u.ID]; ok {
		return true
	}
	if u.IsGuest() {
		return false
	}
	if !ch.InviteOnly {
		return true
	}
	for _, setting := range []string{"can_add_subscribers_group", "can_subscribe_group"} {
		if gs, ok := ch.GroupSettings[setting]; ok && userTopicInSetting(r, u.ID, gs) {
			return true
		}
	}
	return false
}

// userTopicInSetting reports whether a user belongs to a group-setting value.
func userTopicInSetting(r *Realm, userID int, gs GroupSetting) bool {
	if gs.GroupID != 0 {
		return userTopicInGroup(r, userID, gs.GroupID, map[int]bool{})
	}
	for _, m := range gs.DirectMembers {
		if m == userID {
			return true
		}
	}
	for _, g := range gs.DirectSubgroups {
		if userTopicInGroup(r, userID, g, map[int]bool{}) {
			return true
		}
	}
	return false
}

// userTopicInGroup reports whether a user is a direct or indirect (through
// subgroups) member of a group.
func userTopicInGroup(r *Realm, userID, groupID int, seen map[int]bool) bool {
	g := r.Groups[groupID]
	if g == nil || seen[groupID] {
		return false
	}
	seen[groupID] = true
	for _, m := range g.Members {
		if m == userID {
			return true
		}
	}
	for _, sub := range g.DirectSubgroupIDs {
		if userTopicInGroup(r, userID, sub, seen) {
			return true
		}
	}
	return false
}

// registerUserTopics is register's user_topic section.
func (s *Server) registerUserTopics(rr *registerRequest, out obj) {
	if rr.fl < 134 {
		return
	}
	out["user_topics"] = nonNilObjs(s.userTopicsWire(rr.c.user.ID))
}

// seedUserTopics adds a followed and a muted topic.
func seedUserTopics(r *Realm, base, day int64) {
	r.UserTopics = []*UserTopic{
		{UserID: SeedOwnerID, StreamID: SeedChannelGeneral, TopicName: "lunch", LastUpdated: base + 10*day, VisibilityPolicy: 1},
		{UserID: SeedMemberID, StreamID: SeedChannelGeneral, TopicName: "releases", LastUpdated: base + 11*day, VisibilityPolicy: 3},
	}
}

// UserTopic is a non-default visibility policy of one user for one topic.
type UserTopic struct {
	UserID           int    `json:"user_id"`
	StreamID         int    `json:"stream_id"`
	TopicName        string `json:"topic_name"`
	LastUpdated      int64  `json:"last_updated"`
	VisibilityPolicy int    `json:"visibility_policy"`
}
