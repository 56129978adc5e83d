package refserver

import (
	"math"
	"sort"
	"strings"
	"time"
)

func init() {
	registerArea("channels", area{seed: seedChannelsArea, seedStep: 30, routes: (*Server).routesChannels, sections: map[string]registerSection{"stream": (*Server).registerStreams, "subscription": (*Server).registerSubscriptions, "realm": (*Server).registerChannelServerSettings}})
}

// Channels added to the seed by the chat area, so that every GET /streams filter
// changes the answer for some seeded user.
const (
	// SeedChannelBackendOnly is private; role:nobody may add subscribers, but the
	// "backend" group may subscribe itself, which grants its members (Mark, Mei)
	// metadata and content access without a subscription. Only Mei is subscribed.
	SeedChannelBackendOnly = 8
	// SeedChannelFrontendOps is private and administered by the "frontend" group
	// (Maria): administering grants metadata access only, not content access.
	// Only Oscar (second owner) is subscribed; it has no messages.
	SeedChannelFrontendOps = 9
)

// Channel group settings in the order Zulip documents them, with the feature
// level that introduced each and the default used when a channel lacks it.
var channelGroupSettings = []struct {
	name string
	fl   int
	def  int
}{
	{"can_add_subscribers_group", 342, GroupNobody},
	{"can_administer_channel_group", 325, GroupNobody},
	{"can_create_topic_group", 441, GroupEveryone},
	{"can_delete_any_message_group", 407, GroupNobody},
	{"can_delete_own_message_group", 407, GroupNobody},
	{"can_move_messages_out_of_channel_group", 396, GroupNobody},
	{"can_move_messages_within_channel_group", 396, GroupNobody},
	{"can_remove_subscribers_group", 142, GroupAdministrators},
	{"can_resolve_topics_group", 402, GroupNobody},
	{"can_send_message_group", 333, GroupEveryone},
	{"can_subscribe_group", 357, GroupNobody},
}

// channelFieldLevels gates BasicChannel fields by the feature level that added them.
var channelFieldLevels = map[string]int{
	"date_created":               30,
	"message_retention_days":     17,
	"stream_weekly_traffic":      199,
	"creator_id":                 254,
	"is_archived":                315,
	"is_recently_active":         323,
	"folder_id":                  389,
	"topics_policy":              392,
	"subscriber_count":           394,
	"default_push_notifications": 507,
}

// recentlyActiveDays is Zulip's Stream.LAST_ACTIVITY_DAYS_BEFORE_FOR_ACTIVE.
const recentlyActiveDays = 180

// seedChatArea adds the chat area's extra seed data: two private channels whose
// access comes from group settings rather than subscriptions.
func seedChatArea(r *Realm, base, day int64) {
	settings := func() map[string]GroupSetting {
		return map[string]GroupSetting{
			"can_add_subscribers_group":    {GroupID: GroupNobody},
			"can_remove_subscribers_group": {GroupID: GroupAdministrators},
			"can_administer_channel_group": {GroupID: GroupNobody},
			"can_send_message_group":       {GroupID: GroupEveryone},
			"can_subscribe_group":          {GroupID: GroupNobody},
			"can_create_topic_group":       {GroupID: GroupEveryone},
		}
	}
	backend := &Channel{
		ID: SeedChannelBackendOnly, Name: "backend-internal", Description: "Backend team only; the **backend** group may join.",
		DateCreated: base + SeedChannelBackendOnly*day, CreatorID: SeedAdminID, InviteOnly: true,
		HistoryPublicToSubscribers: true, StreamPostPolicy: 1, TopicsPolicy: "inherit",
		GroupSettings: settings(), Subscribers: map[int]int{SeedMember3ID: 0},
	}
	backend.GroupSettings["can_subscribe_group"] = GroupSetting{GroupID: GroupBackend}
	ops := &Channel{
		ID: SeedChannelFrontendOps, Name: "frontend-ops", Description: "Administered by <frontend>.",
		DateCreated: base + SeedChannelFrontendOps*day, InviteOnly: true,
		HistoryPublicToSubscribers: false, StreamPostPolicy: 1, TopicsPolicy: "disable_empty_topic",
		GroupSettings: settings(), Subscribers: map[int]int{SeedOwner2ID: 0},
	}
	ops.GroupSettings["can_administer_channel_group"] = GroupSetting{GroupID: GroupFrontend}
	r.Channels[backend.ID] = backend
	r.Channels[ops.ID] = ops
	if r.NextID["channel"] < SeedChannelFrontendOps {
		r.NextID["channel"] = SeedChannelFrontendOps
	}
}

// routesChannels registers the channel and topic endpoints.
func (s *Server) routesChannels() {
	s.handle("GET /streams", authUser, s.getStreams)
	s.handle("GET /streams/{stream_id}", authUser, s.getStreamByID)
	s.handle("GET /get_stream_id", authUser, s.getStreamID)
	s.handle("GET /users/me/{stream_id}/topics", authUser, s.getStreamTopics)
	s.routesChannelWrites()
	s.routesSubscriptions()
}

// streamsQuery is a GET /streams request: the sources whose union is
// answered, and whether archived channels are left out.
type streamsQuery struct {
	includePublic, includeWebPublic, includeSubscribed bool
	excludeArchived, includeAllActive                  bool
	includeAll, includeContent                         bool
	includeDefault, includeOwnerSubscribed             bool
}

// getStreams serves GET /streams (digest §7.1), following Zulip's
// get_streams_for_user: the answer is the union of the requested sources.
func (s *Server) getStreams(c *call) (obj, error) {
	q, err := readStreamsQuery(c)
	if err != nil {
		return nil, err
	}
	r := c.realm()
	u := c.user
	q.includePublic = q.includePublic && !u.IsGuest()
	var owner *User
	if q.includeOwnerSubscribed && u.IsBot {
		owner = r.user(u.BotOwnerID)
	}
	var picked []*Channel
	for _, id := range r.channelIDs() {
		ch := r.Channels[id]
		if q.excludeArchived && ch.IsArchived {
			continue
		}
		if s.streamsQueryPicks(q, u, owner, ch) {
			picked = append(picked, ch)
		}
	}
	sort.SliceStable(picked, func(i, j int) bool { return picked[i].Name < picked[j].Name })
	out := make([]obj, 0, len(picked))
	for _, ch := range picked {
		out = append(out, s.channelWire(ch, q.includeDefault))
	}
	return obj{"streams": out}, nil
}

// readStreamsQuery reads GET /streams's parameters in Zulip's order, each
// from the feature level that has it, and resolves include_all_active.
func readStreamsQuery(c *call) (*streamsQuery, error) {
	fl := c.s.opts.FeatureLevel
	q := &streamsQuery{excludeArchived: true}
	var err error
	if q.includePublic, err = c.optBool("include_public", true); err != nil {
		return nil, err
	}
	if q.includeWebPublic, err = c.optBool("include_web_public", false); err != nil {
		return nil, err
	}
	if q.includeSubscribed, err = c.optBool("include_subscribed", true); err != nil {
		return nil, err
	}
	if fl >= 315 {
		if q.excludeArchived, err = c.optBool("exclude_archived", true); err != nil {
			return nil, err
		}
	}
	if q.includeAllActive, err = c.optBool("include_all_active", false); err != nil {
		return nil, err
	}
	if fl >= 356 {
		if q.includeAll, err = c.optBool("include_all", false); err != nil {
			return nil, err
		}
		if q.includeContent, err = c.optBool("include_can_access_content", false); err != nil {
			return nil, err
		}
	}
	if q.includeDefault, err = c.optBool("include_default", false); err != nil {
		return nil, err
	}
	if q.includeOwnerSubscribed, err = c.optBool("include_owner_subscribed", false); err != nil {
		return nil, err
	}
	if q.includeAllActive {
		// Since FL356 the deprecated parameter is a plain alias of include_all
		// (get_streams_backend in zerver/views/streams.py: "if include_all_active
		// is True: include_all = True"), open to every user: channels the caller
		// has metadata access to. Before, do_get_streams refused it to
		// non-administrators.
		if fl < 356 && !c.user.IsAdmin() {
			return nil, errBadRequest("User not authorized for this query")
		}
		q.includeAll = true
	}
	return q, nil
}

// streamsQueryPicks reports whether GET /streams answers ch to u: with
// include_all every channel u has metadata access to; otherwise the
// channels of the requested sources, or those a bot's owner (owner, when
// asked for) is subscribed to.
func (s *Server) streamsQueryPicks(q *streamsQuery, u, owner *User, ch *Channel) bool {
	if q.includeAll {
		return s.canAccessChannelMetadata(u, ch)
	}
	var ok bool
	if q.includeContent {
		ok = s.canAccessChannelContent(u, ch)
	} else {
		ok = (q.includeSubscribed && isSubscribed(ch, u)) ||
			(q.includePublic && !ch.InviteOnly) ||
			(q.includeWebPublic && isWebPublicChannel(ch))
	}
	if !ok && owner != nil {
		ok = isSubscribed(ch, owner)
	}
	return ok
}

// getStreamByID serves GET /streams/{stream_id} (FL132): any channel the caller
// has metadata access to, archived ones included.
func (s *Server) getStreamByID(c *call) (obj, error) {
	id, err := c.pathInt("stream_id")
	if err != nil {
		return nil, err
	}
	ch := c.realm().Channels[id]
	if ch == nil || !s.canAccessChannelMetadata(c.user, ch) {
		return nil, errBadRequest("Invalid channel ID")
	}
	return obj{"stream": s.channelWire(ch, false)}, nil
}

// getStreamID serves GET /get_stream_id: the name is matched case-insensitively,
// and only channels whose content the caller can access are found.
func (s *Server) getStreamID(c *call) (obj, error) {
	name, err := c.reqString("stream")
	if err != nil {
		return nil, err
	}
	ch := c.realm().channelByName(name)
	if ch == nil || ch.IsArchived || !s.canAccessChannelContent(c.user, ch) {
		return nil, errBadRequest("Invalid channel name '%s'", name)
	}
	return obj{"stream_id": ch.ID}, nil
}

// getStreamTopics serves GET /users/me/{stream_id}/topics (digest §7.2).
func (s *Server) getStreamTopics(c *call) (obj, error) {
	id, err := c.pathInt("stream_id")
	if err != nil {
		return nil, err
	}
	allowEmpty := false
	if c.s.opts.FeatureLevel >= 334 {
		if allowEmpty, err = c.optBool("allow_empty_topic_name", false); err != nil {
			return nil, err
		}
	}
	r := c.realm()
	ch := r.Channels[id]
	if ch == nil || ch.IsArchived || !s.canAccessChannelContent(c.user, ch) {
		return nil, errBadRequest("Invalid channel ID")
	}
	type topic struct {
		name  string
		maxID int
	}
	byKey := map[string]*topic{}
	for _, m := range r.Messages { // ascending: the newest message names the topic
		if m.ChannelID != ch.ID || !canSeeInTopicHistory(ch, c.user, m) {
			continue
		}
		key := strings.ToLower(m.Topic)
		t := byKey[key]
		if t == nil {
			t = &topic{}
			byKey[key] = t
		}
		t.name, t.maxID = m.Topic, m.ID
	}
	list := make([]*topic, 0, len(byKey))
	for _, t := range byKey {
		list = append(list, t)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].maxID > list[j].maxID })
	out := make([]obj, 0, len(list))
	for _, t := range list {
		name := t.name
		if name == "" && !allowEmpty {
			name = r.Settings.EmptyTopicDisplayName
		}
		out = append(out, obj{"max_id": t.maxID, "name": name})
	}
	return obj{"topics": out}, nil
}

// canSeeInTopicHistory reports whether m counts for u's topic history: every
// message of a channel with shared history, otherwise only what u received.
func canSeeInTopicHistory(ch *Channel, u *User, m *Message) bool {
	if ch.HistoryPublicToSubscribers {
		return true
	}
	if _, ok := m.Flags[u.ID]; ok {
		return true
	}
	after, sub := ch.Subscribers[u.ID]
	return sub && m.ID > after
}

// channelWire renders a channel (BasicChannel); isDefault is added when includeDefault.
func (s *Server) channelWire(ch *Channel, includeDefault bool) obj {
	r := s.realm
	fl := s.opts.FeatureLevel
	out := obj{
		"stream_id":                     ch.ID,
		"name":                          ch.Name,
		"description":                   ch.Description,
		"rendered_description":          renderChatMarkdown(r, ch.Description),
		"invite_only":                   ch.InviteOnly,
		"is_web_public":                 ch.IsWebPublic,
		"history_public_to_subscribers": ch.HistoryPublicToSubscribers,
		"stream_post_policy":            ch.StreamPostPolicy,
		"is_announcement_only":          ch.StreamPostPolicy == 2,
		"date_created":                  ch.DateCreated,
		"creator_id":                    nil,
		"message_retention_days":        nil,
		"first_message_id":              nil,
		"stream_weekly_traffic":         nil,
		"is_archived":                   ch.IsArchived,
		"is_recently_active":            false,
		"folder_id":                     nil,
		"subscriber_count":              r.activeSubscriberCount(ch),
		"topics_policy":                 ch.TopicsPolicy,
		"default_push_notifications":    ch.DefaultPushNotifications,
	}
	if ch.CreatorID != 0 {
		out["creator_id"] = ch.CreatorID
	}
	if ch.MessageRetentionDays != nil {
		out["message_retention_days"] = *ch.MessageRetentionDays
	}
	if ch.FolderID != nil {
		out["folder_id"] = *ch.FolderID
	}
	if out["topics_policy"] == "" {
		out["topics_policy"] = "inherit"
	}
	s.addChannelTraffic(out, ch)
	for _, gs := range channelGroupSettings {
		if fl < gs.fl {
			continue
		}
		v, ok := ch.GroupSettings[gs.name]
		if !ok {
			v = GroupSetting{GroupID: gs.def}
		}
		out[gs.name] = v.Wire()
	}
	for field, level := range channelFieldLevels {
		if fl < level {
			delete(out, field)
		}
	}
	if includeDefault {
		out["is_default"] = ch.IsDefault
	}
	return out
}

// addChannelTraffic sets a rendered channel's fields that its messages
// decide: first_message_id, is_recently_active and stream_weekly_traffic.
func (s *Server) addChannelTraffic(out obj, ch *Channel) {
	now := s.now()
	var first, recent int
	for _, m := range s.realm.Messages {
		if m.ChannelID != ch.ID {
			continue
		}
		if first == 0 {
			first = m.ID
			out["first_message_id"] = m.ID
		}
		age := now.Sub(time.Unix(m.Timestamp, 0))
		if age <= recentlyActiveDays*24*time.Hour {
			out["is_recently_active"] = true
		}
		if age >= 0 && age <= 28*24*time.Hour {
			recent++
		}
	}
	// Zulip gives no estimate for channels younger than a week; otherwise the
	// average over (at most) the last four weeks.
	if ageDays := now.Sub(time.Unix(ch.DateCreated, 0)).Hours() / 24; ageDays >= 7 {
		out["stream_weekly_traffic"] = int(math.Round(float64(recent) * 7 / math.Min(ageDays, 28)))
	}
}

// activeSubscriberCount is a channel's subscriber_count: its active subscribers.
func (r *Realm) activeSubscriberCount(ch *Channel) int {
	subs := 0
	for uid := range ch.Subscribers {
		if u := r.user(uid); u != nil && u.IsActive {
			subs++
		}
	}
	return subs
}

// channelByName finds a channel by name, case-insensitively as Zulip does.
func (r *Realm) channelByName(name string) *Channel {
	for _, id := range r.channelIDs() {
		if strings.EqualFold(r.Channels[id].Name, name) {
			return r.Channels[id]
		}
	}
	return nil
}

// isSubscribed reports whether u is subscribed to ch.
func isSubscribed(ch *Channel, u *User) bool {
	_, ok := ch.Subscribers[u.ID]
	return ok
}

// isWebPublicChannel matches Zulip's get_web_public_streams_queryset.
func isWebPublicChannel(ch *Channel) bool {
	return ch.IsWebPublic && !ch.InviteOnly && ch.HistoryPublicToSubscribers && !ch.IsArchived
}

// inGroupSetting reports whether user id is in the group a setting names,
// following subgroups recursively; deactivated users are in no group.
func (r *Realm) inGroupSetting(gs GroupSetting, uid int) bool {
	if u := r.user(uid); u == nil || !u.IsActive {
		return false
	}
	if gs.GroupID != 0 {
		return r.groupHasMember(gs.GroupID, uid, map[int]bool{})
	}
	for _, m := range gs.DirectMembers {
		if m == uid {
			return true
		}
	}
	for _, g := range gs.DirectSubgroups {
		if r.groupHasMember(g, uid, map[int]bool{}) {
			return true
		}
	}
	return false
}

// groupHasMember reports whether uid is a direct or indirect member of group id.
func (r *Realm) groupHasMember(id, uid int, seen map[int]bool) bool {
	g := r.Groups[id]
	if g == nil || seen[id] {
		return false
	}
	seen[id] = true
	for _, m := range g.Members {
		if m == uid {
			return true
		}
	}
	for _, sg := range g.DirectSubgroupIDs {
		if r.groupHasMember(sg, uid, seen) {
			return true
		}
	}
	return false
}

// channelSettingHas reports whether u is in the channel's named group setting.
func (s *Server) channelSettingHas(ch *Channel, setting string, u *User) bool {
	gs, ok := ch.GroupSettings[setting]
	if !ok {
		for _, d := range channelGroupSettings {
			if d.name == setting {
				gs = GroupSetting{GroupID: d.def}
			}
		}
	}
	return s.realm.inGroupSetting(gs, u.ID)
}

// canAccessChannelMetadata is Zulip's user_has_metadata_access (FL349,
// zerver/lib/streams.py): web-public channels for every role, guests
// included; subscriptions; then, for everyone but guests, public channels,
// every channel for administrators, and channels whose administer /
// add-subscribers / subscribe groups include the user (those settings do not
// allow the everyone group, so they never grant a guest anything).
func (s *Server) canAccessChannelMetadata(u *User, ch *Channel) bool {
	if ch.IsWebPublic || isSubscribed(ch, u) {
		return true
	}
	if u.IsGuest() {
		return false
	}
	if !ch.InviteOnly || u.IsAdmin() {
		return true
	}
	return s.channelSettingHas(ch, "can_administer_channel_group", u) ||
		s.channelSettingHas(ch, "can_add_subscribers_group", u) ||
		s.channelSettingHas(ch, "can_subscribe_group", u)
}

// canAccessChannelContent is Zulip's user_has_content_access (FL354,
// zerver/lib/streams.py): web-public channels for every role, guests
// included; subscriptions; then, for everyone but guests, public channels and
// membership in a group setting that grants content access (add subscribers,
// subscribe). Administering a channel does not.
func (s *Server) canAccessChannelContent(u *User, ch *Channel) bool {
	if ch.IsWebPublic || isSubscribed(ch, u) {
		return true
	}
	if u.IsGuest() {
		return false
	}
	if !ch.InviteOnly {
		return true
	}
	return s.channelSettingHas(ch, "can_add_subscribers_group", u) ||
		s.channelSettingHas(ch, "can_subscribe_group", u)
}

// canAccessMessage is Zulip's has_message_access for channel messages: a
// received message (a UserMessage row) always; otherwise only with shared
// history and content access to the channel.
func (s *Server) canAccessMessage(u *User, m *Message) bool {
	if _, ok := m.Flags[u.ID]; ok {
		return true
	}
	ch := s.realm.Channels[m.ChannelID]
	if ch == nil || !ch.HistoryPublicToSubscribers {
		return false
	}
	return s.canAccessChannelContent(u, ch)
}

// registerChannelServerSettings is the channels' part of register's realm
// section: server_web_public_streams_enabled (feature level 110), the
// WEB_PUBLIC_STREAMS_ENABLED server setting (zerver/lib/events.py).
func (s *Server) registerChannelServerSettings(rr *registerRequest, out obj) {
	if rr.fl >= 110 {
		out["server_web_public_streams_enabled"] = s.opts.WebPublicStreamsEnabled
	}
}

// registerStreams is register's stream section.
func (s *Server) registerStreams(rr *registerRequest, out obj) {
	r := s.realm
	fl := rr.fl
	var streams []obj
	for _, id := range r.channelIDs() {
		ch := r.Channels[id]
		if ch.IsArchived && (fl < 315 || !rr.capability("archived_channels")) {
			continue
		}
		if registerCanSeeChannel(rr.c.user, ch) {
			streams = append(streams, s.channelWire(ch, false))
		}
	}
	out["streams"] = nonNilObjs(streams)
}

// seedChannels creates channels of every kind with their subscribers.
func seedChannels(r *Realm, base, day int64) {
	add := func(id int, name, desc string, private, webPublic, historyPublic bool, subs ...int) *Channel {
		ch := &Channel{
			ID: id, Name: name, Description: desc, DateCreated: base + int64(id)*day, CreatorID: SeedOwnerID,
			InviteOnly: private, IsWebPublic: webPublic, HistoryPublicToSubscribers: historyPublic,
			StreamPostPolicy: 1, TopicsPolicy: "inherit", Subscribers: map[int]int{},
			GroupSettings: map[string]GroupSetting{
				"can_add_subscribers_group":    {GroupID: GroupAdministrators},
				"can_remove_subscribers_group": {GroupID: GroupAdministrators},
				"can_administer_channel_group": {DirectMembers: []int{SeedOwnerID}, DirectSubgroups: []int{}},
				"can_send_message_group":       {GroupID: GroupEveryone},
				"can_subscribe_group":          {GroupID: GroupNobody},
				"can_create_topic_group":       {GroupID: GroupEveryone},
			},
		}
		for _, u := range subs {
			ch.Subscribers[u] = 0
		}
		r.Channels[id] = ch
		return ch
	}
	everyone := []int{SeedOwnerID, SeedAdminID, SeedAdmin2ID, SeedModeratorID, SeedMemberID, SeedMember2ID, SeedGuestID, SeedBotID, SeedOwner2ID, SeedMember3ID}
	add(SeedChannelGeneral, "general", "Everyone is here.", false, false, true, everyone...).IsDefault = true
	ann := add(SeedChannelAnnounce, "announce", "Announcements, **readable on the web**.", false, true, true, SeedOwnerID, SeedAdminID, SeedMemberID, SeedMember3ID)
	ann.GroupSettings["can_send_message_group"] = GroupSetting{GroupID: GroupAdministrators}
	ann.StreamPostPolicy = 2
	ann.IsDefault = true
	add(SeedChannelDesign, "design", "Design reviews (private, protected history).", true, false, false, SeedOwnerID, SeedAdminID, SeedMemberID)
	add(SeedChannelLeaders, "leadership", "Leads only; history shared with new subscribers.", true, false, true, SeedOwnerID, SeedOwner2ID, SeedAdminID)
	arch := add(SeedChannelArchived, "old-projects", "Archived.", false, false, true, SeedOwnerID, SeedMemberID)
	arch.IsArchived = true
	forever := -1
	arch.MessageRetentionDays = &forever
	add(SeedChannelModReqs, "moderation-requests", "Reports of messages, for moderators.", true, false, true, SeedOwnerID, SeedAdminID, SeedModeratorID)
	add(SeedChannelRandom, "random", "Anything goes.", false, false, true, SeedMemberID, SeedMember2ID, SeedMember3ID, SeedGuestID)
	r.NextID["channel"] = SeedChannelRandom
}

// seedChannelsArea seeds the channels, then the chat area's extra ones.
func seedChannelsArea(r *Realm, base, day int64) {
	seedChannels(r, base, day)
	seedChatArea(r, base, day)
}

// Channel is a stream.
type Channel struct {
	ID                         int    `json:"id"`
	Name                       string `json:"name"`
	Description                string `json:"description"`
	DateCreated                int64  `json:"date_created"`
	CreatorID                  int    `json:"creator_id,omitempty"` // 0 = null
	InviteOnly                 bool   `json:"invite_only"`
	IsWebPublic                bool   `json:"is_web_public"`
	HistoryPublicToSubscribers bool   `json:"history_public_to_subscribers"`
	IsArchived                 bool   `json:"is_archived"`
	IsDefault                  bool   `json:"is_default"`
	// DefaultPushNotifications is the channel's default for new subscribers'
	// push notifications (feature level 507).
	DefaultPushNotifications bool `json:"default_push_notifications"`
	// MessageRetentionDays: nil = inherit the realm's policy, -1 = forever.
	MessageRetentionDays *int   `json:"message_retention_days,omitempty"`
	StreamPostPolicy     int    `json:"stream_post_policy"`
	TopicsPolicy         string `json:"topics_policy"`
	// Group settings, keyed by the wire name (can_add_subscribers_group, ...).
	GroupSettings map[string]GroupSetting `json:"group_settings"`
	// FolderID is the channel folder the channel is in; nil for none.
	FolderID *int `json:"folder_id,omitempty"`
	// Subscribers maps a subscribed user id to the id of the newest message that
	// existed when they subscribed (0 = subscribed from the start). With protected
	// history, a subscriber sees only messages with a greater id.
	Subscribers map[int]int `json:"subscribers"`
}
