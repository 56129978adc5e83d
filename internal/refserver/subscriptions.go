package refserver

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// The subscription endpoints (POST and DELETE /users/me/subscriptions, GET
// /streams/{id}/members), after newest Zulip's add_subscriptions_backend,
// remove_subscriptions_backend and list_to_streams. They address channels by
// name, and subscribing to a name no channel has creates the channel.

// routesSubscriptions registers the subscription endpoints.
func (s *Server) routesSubscriptions() {
	s.handle("POST /users/me/subscriptions", authUser, s.withChannelCreationNotices(s.withSubscriberEvents(s.subscribe)))
	s.handle("DELETE /users/me/subscriptions", authUser, s.withSubscriberEvents(s.unsubscribe))
	s.handle("GET /streams/{stream_id}/members", authUser, s.getSubscribers)
}

// subscriptionRequest is one entry of subscriptions: a channel by name, with
// the description a channel created for it gets.
type subscriptionRequest struct {
	Name        string  `json:"name"`
	Description *string `json:"description"`
	Color       *string `json:"color"`
}

// principalsParam reads principals: user ids, or e-mail addresses (the
// older form); empty means the caller.
func (c *call) principalsParam() ([]*User, error) {
	text, ok := c.raw("principals")
	if !ok {
		return []*User{c.user}, nil
	}
	var raw []any
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, errInvalid("principals is not a list")
	}
	if len(raw) == 0 {
		return []*User{c.user}, nil
	}
	r := c.realm()
	var out []*User
	for _, p := range raw {
		var u *User
		switch v := p.(type) {
		case float64:
			u = r.user(int(v))
		case string:
			u = r.userByEmail(v)
		}
		if u == nil || !u.IsActive {
			return nil, errBadRequest("No such user")
		}
		out = append(out, u)
	}
	return out, nil
}

// subscriptionAdd is a POST /users/me/subscriptions request as read: the
// channels and users, and the properties of the channels it creates.
type subscriptionAdd struct {
	wanted             []subscriptionRequest
	principals         []*User
	fatal              bool
	flags              map[string]bool
	isDefault, private bool
	webPublic, history bool
	requestedHistory   *bool
	retention, folder  *int
	policy             string
	settings           map[string]GroupSetting
}

// subscribe is add_subscriptions_backend.
func (s *Server) subscribe(c *call) (obj, error) {
	if c.user.IsGuest() {
		return nil, errBadRequest("Not allowed for guest users")
	}
	a, err := readSubscriptionAdd(c)
	if err != nil {
		return nil, err
	}
	if err := c.checkTopicsPolicyPermission(a.policy); err != nil {
		return nil, err
	}
	if a.settings, err = c.channelSettingValues(a.private, a.requestedHistory); err != nil {
		return nil, err
	}
	existing, create, unauthorized, err := s.listToStreams(c, a)
	if err != nil {
		return nil, err
	}
	created, err := s.createSubscribedChannels(c, a, create)
	if err != nil {
		return nil, err
	}
	subscribed, already := c.subscribePrincipals(a.principals, append(existing, created...))
	out := obj{"subscribed": subscribed, "already_subscribed": already}
	if len(unauthorized) > 0 {
		out["unauthorized"] = unauthorized
	}
	return out, nil
}

// readSubscriptionAdd reads POST /users/me/subscriptions's parameters in
// Zulip's order, refusing a missing or malformed one. The history of new
// channels is the requested one, or shared exactly when they are public.
func readSubscriptionAdd(c *call) (*subscriptionAdd, error) {
	a := &subscriptionAdd{flags: map[string]bool{}}
	var err error
	if err := c.reqJSON("subscriptions", &a.wanted); err != nil {
		return nil, err
	}
	if a.principals, err = c.principalsParam(); err != nil {
		return nil, err
	}
	if a.fatal, err = c.optBool("authorization_errors_fatal", true); err != nil {
		return nil, err
	}
	for _, f := range []string{"announce", "send_new_subscription_messages", "default_push_notifications"} {
		if a.flags[f], err = c.optBool(f, false); err != nil {
			return nil, err
		}
	}
	if a.isDefault, err = c.optBool("is_default_stream", false); err != nil {
		return nil, err
	}
	if a.private, err = c.optBool("invite_only", false); err != nil {
		return nil, err
	}
	if a.webPublic, err = c.optBool("is_web_public", false); err != nil {
		return nil, err
	}
	if c.params.Has("history_public_to_subscribers") {
		h, err := c.optBool("history_public_to_subscribers", false)
		if err != nil {
			return nil, err
		}
		a.requestedHistory = &h
	}
	a.history = !a.private
	if a.requestedHistory != nil {
		a.history = *a.requestedHistory
	}
	if a.retention, err = c.retentionParam(); err != nil {
		return nil, err
	}
	if a.policy, err = c.topicsPolicyParam(true); err != nil {
		return nil, err
	}
	if a.folder, err = c.folderParam(); err != nil {
		return nil, err
	}
	return a, nil
}

// listToStreams is list_to_streams: the existing channels by name
// (archived ones included) the caller may subscribe the principals to, the
// names to create, and (when authorization errors are not fatal) the
// channels refused.
func (s *Server) listToStreams(c *call, a *subscriptionAdd) (existing []*Channel, create []subscriptionRequest, unauthorized []string, err error) {
	r := c.realm()
	others := false
	for _, u := range a.principals {
		others = others || u.ID != c.user.ID
	}
	for _, w := range a.wanted {
		name := strings.TrimSpace(w.Name)
		if name == "" {
			return nil, nil, nil, errBadRequest("Channel name can't be empty.")
		}
		ch := r.channelByName(name)
		switch {
		case ch == nil:
			create = append(create, subscriptionRequest{Name: name, Description: w.Description})
		// filter_stream_authorization: an archived channel is one the caller
		// cannot access.
		case ch.IsArchived || !s.canSubscribeTo(c.user, ch, others):
			if a.fatal {
				return nil, nil, nil, errBadRequest("Unable to access channel (%s).", ch.Name)
			}
			unauthorized = append(unauthorized, ch.Name)
		default:
			existing = append(existing, ch)
		}
	}
	return existing, create, unauthorized, nil
}

// createSubscribedChannels creates the channels to create, after
// list_to_streams' autocreate checks (check_channel_creation_permissions,
// the privacy) and each name's, with the request's properties.
func (s *Server) createSubscribedChannels(c *call, a *subscriptionAdd, create []subscriptionRequest) ([]*Channel, error) {
	r := c.realm()
	if len(create) > 0 {
		if err := c.checkChannelCreationPermissions(a.private, a.webPublic, a.isDefault, a.retention != nil); err != nil {
			return nil, err
		}
		if err := checkChannelPrivacy(a.private, a.webPublic, a.history, false); err != nil {
			return nil, err
		}
	}
	var created []*Channel
	for _, w := range create {
		if err := r.checkChannelName(w.Name, 0); err != nil {
			return nil, err
		}
		description := ""
		if w.Description != nil {
			description = strings.ReplaceAll(*w.Description, "\n", " ")
		}
		chSettings := map[string]GroupSetting{}
		for setting, cfg := range channelPermissionConfigs {
			chSettings[setting] = r.defaultSetting(cfg, c.user.ID)
		}
		for k, v := range a.settings {
			chSettings[k] = v
		}
		ch := &Channel{ID: r.newID("channel"), Name: w.Name, Description: description, DateCreated: s.now().Unix(),
			CreatorID: c.user.ID, InviteOnly: a.private, IsWebPublic: a.webPublic, HistoryPublicToSubscribers: a.history,
			MessageRetentionDays: a.retention, StreamPostPolicy: 1, TopicsPolicy: a.policy, GroupSettings: chSettings,
			Subscribers: map[int]int{}, FolderID: a.folder, IsDefault: a.isDefault,
			DefaultPushNotifications: a.flags["default_push_notifications"]}
		if ch.TopicsPolicy == "" {
			ch.TopicsPolicy = "inherit"
		}
		r.Channels[ch.ID] = ch
		created = append(created, ch)
	}
	return created, nil
}

// subscribePrincipals subscribes each principal to each channel and
// returns, keyed by user id (FL289) or address, the channels subscribed to
// and those the user was subscribed to already.
func (c *call) subscribePrincipals(principals []*User, channels []*Channel) (subscribed, already map[string][]string) {
	r := c.realm()
	subscribed, already = map[string][]string{}, map[string][]string{}
	key := func(u *User) string {
		if c.s.opts.FeatureLevel >= 289 {
			return strconv.Itoa(u.ID)
		}
		return u.Email
	}
	for _, u := range principals {
		for _, ch := range channels {
			if _, ok := ch.Subscribers[u.ID]; ok {
				already[key(u)] = append(already[key(u)], ch.Name)
				continue
			}
			ch.Subscribers[u.ID] = r.newestMessageID()
			subscribed[key(u)] = append(subscribed[key(u)], ch.Name)
		}
	}
	return subscribed, already
}

// canSubscribeTo is the access rule of list_to_streams for existing
// channels: a public channel for every member; a private one for
// administrators and those with content access (subscribed, or in a group
// setting granting it); subscribing others also needs permission to add
// subscribers (the realm's can_add_subscribers_group or the channel's).
func (s *Server) canSubscribeTo(u *User, ch *Channel, others bool) bool {
	if ch.InviteOnly && !u.IsAdmin() && !s.canAccessChannelContent(u, ch) {
		return false
	}
	if !others || u.IsAdmin() {
		return true
	}
	return s.realm.hasRealmPermission("can_add_subscribers_group", u) || s.channelSettingHas(ch, "can_add_subscribers_group", u)
}

// unsubscribe is remove_subscriptions_backend: removing others needs an
// administrator or the channel's can_remove_subscribers_group.
func (s *Server) unsubscribe(c *call) (obj, error) {
	r := c.realm()
	var names []string
	if err := c.reqJSON("subscriptions", &names); err != nil {
		return nil, err
	}
	principals, err := c.principalsParam()
	if err != nil {
		return nil, err
	}
	others := false
	for _, u := range principals {
		others = others || u.ID != c.user.ID
	}
	var channels []*Channel
	var missing []string
	for _, n := range names {
		ch := r.channelByName(strings.TrimSpace(n))
		if ch == nil || !s.canAccessChannelMetadata(c.user, ch) {
			missing = append(missing, strings.TrimSpace(n))
			continue
		}
		if others && !c.user.IsAdmin() && !s.channelSettingHas(ch, "can_remove_subscribers_group", c.user) {
			return nil, errInsufficientPermission()
		}
		channels = append(channels, ch)
	}
	if len(missing) > 0 {
		return nil, errBadRequest("Channel(s) (%s) do not exist", strings.Join(missing, ", "))
	}
	removed, notRemoved := []string{}, []string{}
	for _, u := range principals {
		for _, ch := range channels {
			if _, ok := ch.Subscribers[u.ID]; ok {
				delete(ch.Subscribers, u.ID)
				removed = append(removed, ch.Name)
			} else {
				notRemoved = append(notRemoved, ch.Name)
			}
		}
	}
	return obj{"removed": removed, "not_removed": notRemoved}, nil
}

// getSubscribers is get_subscribers_backend: the active subscribers of a
// channel the caller has content access to (administrators: any).
func (s *Server) getSubscribers(c *call) (obj, error) {
	id, err := c.pathInt("stream_id")
	if err != nil {
		return nil, err
	}
	ch := c.realm().Channels[id]
	if ch == nil || (!c.user.IsAdmin() && !s.canAccessChannelMetadata(c.user, ch)) {
		return nil, errBadRequest("Invalid channel ID")
	}
	out := []int{}
	for uid := range ch.Subscribers {
		if u := c.realm().user(uid); u != nil && u.IsActive {
			out = append(out, uid)
		}
	}
	sort.Ints(out)
	return obj{"subscribers": out}, nil
}

// withSubscriberEvents wraps a handler that changes subscriptions: a created
// channel is announced (stream create), and other users hear of the
// subscribers that came and went (peer_add, peer_remove), as
// bulk_add_subscriptions and bulk_remove_subscriptions send. The subscriber's
// own subscription add and remove events, which carry the whole subscription
// object, are not modelled yet.
func (s *Server) withSubscriberEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		before := map[int]map[int]bool{}
		for id, ch := range s.realm.Channels {
			subs := map[int]bool{}
			for uid := range ch.Subscribers {
				subs[uid] = true
			}
			before[id] = subs
		}
		payload, err := h(c)
		if err != nil {
			return payload, err
		}
		for _, id := range s.realm.channelIDs() {
			ch := s.realm.Channels[id]
			was, existed := before[id]
			if !existed {
				s.emitChannelCreated(c, obj{"id": id})
			}
			var added, removed []int
			for uid := range ch.Subscribers {
				if !was[uid] {
					added = append(added, uid)
				}
			}
			for uid := range was {
				if _, ok := ch.Subscribers[uid]; !ok {
					removed = append(removed, uid)
				}
			}
			// The users themselves learn of their own subscriptions (op add,
			// with the subscription, and op remove); the others who can see the
			// channel get the peer events.
			sort.Ints(added)
			sort.Ints(removed)
			for _, uid := range added {
				sub := s.subscriptionWire(ch, true)
				s.emit(obj{"type": "subscription", "op": "add", "subscriptions": []obj{sub}}, func(u *User) bool { return u.ID == uid })
			}
			for _, uid := range removed {
				s.emit(obj{"type": "subscription", "op": "remove", "subscriptions": []obj{{"name": ch.Name, "stream_id": id}}},
					func(u *User) bool { return u.ID == uid })
			}
			visible := func(u *User) bool { return s.canAccessChannelMetadata(u, ch) }
			for op, ids := range map[string][]int{"peer_add": added, "peer_remove": removed} {
				if len(ids) > 0 {
					sort.Ints(ids)
					s.emit(obj{"type": "subscription", "op": op, "stream_ids": []int{id}, "user_ids": ids}, visible)
				}
			}
		}
		return payload, nil
	}
}

// subscriptionWire is a subscription as Zulip sends it: the channel with the
// subscriber's personal properties (this server keeps Zulip's defaults), and
// its active subscribers when asked.
func (s *Server) subscriptionWire(ch *Channel, withSubscribers bool) obj {
	w := s.channelWire(ch, false)
	props := obj{"color": "#c2c2c2", "is_muted": false, "in_home_view": true, "pin_to_top": false,
		"desktop_notifications": nil, "audible_notifications": nil, "push_notifications": nil,
		"email_notifications": nil, "wildcard_mentions_notify": nil}
	for k, v := range props {
		w[k] = v
	}
	if withSubscribers {
		w["subscribers"] = s.realm.activeSubscribers(ch)
	}
	return w
}

// activeSubscribers are a channel's active subscribers, sorted.
func (r *Realm) activeSubscribers(ch *Channel) []int {
	ids := []int{}
	for uid := range ch.Subscribers {
		if u := r.user(uid); u != nil && u.IsActive {
			ids = append(ids, uid)
		}
	}
	sort.Ints(ids)
	return ids
}

// registerSubscriptions is register's subscription section (fetch type
// "subscription"): the caller's subscriptions, the channels it left
// (unsubscribed: not recorded by this server, so always empty) and the
// channels it can see without being subscribed (never_subscribed), each with
// its subscribers when include_subscribers is true ("partial" lists none:
// this server's realm is small). Archived channels come only with the
// archived_channels capability.
func (s *Server) registerSubscriptions(rr *registerRequest, out obj) {
	r := s.realm
	include, _ := rr.c.raw("include_subscribers")
	subscribed, never := []obj{}, []obj{}
	for _, id := range r.channelIDs() {
		ch := r.Channels[id]
		if ch.IsArchived && (rr.fl < 315 || !rr.capability("archived_channels")) {
			continue
		}
		u := rr.c.user
		switch {
		case isSubscribed(ch, u):
			subscribed = append(subscribed, s.subscriptionWire(ch, include == "true"))
		case s.canAccessChannelMetadata(u, ch):
			w := s.channelWire(ch, false)
			if include == "true" {
				w["subscribers"] = r.activeSubscribers(ch)
			}
			never = append(never, w)
		}
	}
	out["subscriptions"], out["unsubscribed"], out["never_subscribed"] = subscribed, []obj{}, never
}
