package refserver

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The stream events of zerver/actions/streams.py for the channel write
// endpoints: a created channel to those who can see it, one update event per
// changed property, and the archiving of a channel.

// channelFacts is what the update events report of one channel.
type channelFacts map[string]any

// channelEventFacts records a channel's properties as its update events carry them.
func (s *Server) channelEventFacts(ch *Channel) channelFacts {
	f := channelFacts{
		"name": ch.Name, "description": ch.Description, "invite_only": ch.InviteOnly, "is_web_public": ch.IsWebPublic,
		"history_public_to_subscribers": ch.HistoryPublicToSubscribers, "topics_policy": ch.TopicsPolicy,
		"is_archived": ch.IsArchived, "message_retention_days": nil,
	}
	if s.opts.FeatureLevel >= channelFieldLevels["default_push_notifications"] {
		f["default_push_notifications"] = ch.DefaultPushNotifications
	}
	if ch.MessageRetentionDays != nil {
		f["message_retention_days"] = *ch.MessageRetentionDays
	}
	f["folder_id"] = nil
	if ch.FolderID != nil {
		f["folder_id"] = *ch.FolderID
	}
	for _, gs := range channelGroupSettings {
		if s.opts.FeatureLevel >= gs.fl {
			f[gs.name] = settingText(s.realm.settingForAPI(s.channelSetting(ch, gs.name)))
		}
	}
	return f
}

// settingText renders a setting's value for comparison.
func settingText(v GroupSetting) string {
	b, _ := json.Marshal(v.Wire())
	return string(b)
}

// withChannelEvents wraps a handler that changes existing channels. The
// events go out for what changed even when the handler failed: PATCH
// /streams/{id} applies its parts one after the other, as Zulip's view does,
// and Zulip sends each part's events when it commits. Archiving and
// unarchiving also post Notification Bot's notice in the channel.
func (s *Server) withChannelEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		before := map[int]channelFacts{}
		for id, ch := range s.realm.Channels {
			before[id] = s.channelEventFacts(ch)
		}
		payload, err := h(c)
		for _, id := range s.realm.channelIDs() {
			was, ok := before[id]
			if !ok {
				continue
			}
			ch := s.realm.Channels[id]
			s.emitChannelChanges(ch, was)
			if archived := ch.IsArchived; archived != (was["is_archived"] == true) {
				s.postArchiveNotice(ch, archived)
			}
		}
		return payload, err
	}
}

// channelEventsMessagesFL is the level of the send_channel_events_messages
// organization setting; before it, the channel event notices were sent
// unconditionally.
const channelEventsMessagesFL = 434

// channelEventsMessages reports whether Notification Bot posts channel event
// notices (maybe_send_channel_events_notice, zerver/actions/message_send.py).
// The setting is off by default (Realm.send_channel_events_messages).
func (s *Server) channelEventsMessages() bool {
	return s.opts.FeatureLevel < channelEventsMessagesFL || s.realm.realmBool("send_channel_events_messages")
}

// channelEventsTopic is channel_events_topic_name (zerver/lib/streams.py):
// "channel events", or the empty topic in a channel that allows only that.
func channelEventsTopic(ch *Channel) string {
	if ch.TopicsPolicy == "empty_topic_only" {
		return ""
	}
	return "channel events"
}

// postArchiveNotice is the notice do_deactivate_stream and
// do_unarchive_stream (zerver/actions/streams.py) post; the archive notice
// is read for everyone (limit_unread_user_ids=set()).
func (s *Server) postArchiveNotice(ch *Channel, archived bool) {
	if !s.channelEventsMessages() {
		return
	}
	if !archived {
		s.postChannelMessage(ch, channelEventsTopic(ch), notificationBotID, "Channel #**"+ch.Name+"** has been unarchived.")
		return
	}
	m := s.postChannelMessage(ch, channelEventsTopic(ch), notificationBotID, "Channel #**"+ch.Name+"** has been archived.")
	for uid := range m.Flags {
		markRead(m, uid)
	}
}

// markRead records that u has read m (a message the server posted that
// Zulip sends as read to some of its recipients). The message event went out
// with the flags postChannelMessage gave.
func markRead(m *Message, uid int) {
	flags, ok := m.Flags[uid]
	if !ok {
		return
	}
	for _, f := range flags {
		if f == "read" {
			return
		}
	}
	m.Flags[uid] = append(flags, "read")
}

// withChannelCreationNotices wraps a handler that can create channels: after
// it succeeded, Notification Bot announces the new channels as
// send_messages_for_new_subscribers (zerver/views/streams.py) does, all read
// for the creator (mark_as_read): with announce, one message in the
// organization's new-channel announcements channel; then, when channel event
// notices are on, one in each new channel saying who created it, of what
// kind, with its description.
func (s *Server) withChannelCreationNotices(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		existed := map[int]bool{}
		for id := range s.realm.Channels {
			existed[id] = true
		}
		payload, err := h(c)
		if err != nil {
			return payload, err
		}
		var created []*Channel
		for _, id := range s.realm.channelIDs() {
			if !existed[id] {
				created = append(created, s.realm.Channels[id])
			}
		}
		if len(created) > 0 {
			announce, _ := c.optBool("announce", false)
			s.postCreationNotices(c.user, created, announce)
		}
		return payload, err
	}
}

// postCreationNotices posts the messages of send_messages_for_new_subscribers.
func (s *Server) postCreationNotices(creator *User, created []*Channel, announce bool) {
	r := s.realm
	mention := fmt.Sprintf("@_**%s|%d**", creator.FullName, creator.ID)
	if announce {
		if ann := r.newChannelAnnouncementsChannel(); ann != nil {
			links := make([]string, 0, len(created))
			for _, ch := range created {
				links = append(links, "#**"+ch.Name+"**")
			}
			content := mention + " created a new channel " + links[0] + "."
			if len(created) > 1 {
				content = mention + " created the following channels: " + strings.Join(links, ", ") + "."
			}
			markRead(s.postChannelMessage(ann, "new channels", notificationBotID, content), creator.ID)
		}
	}
	if !s.channelEventsMessages() {
		return
	}
	for _, ch := range created {
		description := ch.Description
		if description == "" {
			description = "*No description.*"
		}
		content := fmt.Sprintf("**%s** channel created by %s. **Description:**\n```` quote\n%s\n````", channelPolicyName(ch), mention, description)
		markRead(s.postChannelMessage(ch, channelEventsTopic(ch), notificationBotID, content), creator.ID)
	}
}

// channelPolicyName names a channel's kind as the creation notice does
// (Stream.PERMISSION_POLICIES).
func channelPolicyName(ch *Channel) string {
	switch {
	case ch.IsWebPublic:
		return "Web-public"
	case !ch.InviteOnly:
		return "Public"
	case ch.HistoryPublicToSubscribers:
		return "Private, shared history"
	}
	return "Private, protected history"
}

// newChannelAnnouncementsChannel is Realm.new_stream_announcements_stream:
// the organization's new_stream_announcements_stream_id, unless none (-1)
// or archived.
func (r *Realm) newChannelAnnouncementsChannel() *Channel {
	var id int
	switch v := r.Setting("new_stream_announcements_stream_id").(type) {
	case int:
		id = v
	case float64:
		id = int(v)
	}
	ch := r.Channels[id]
	if ch == nil || ch.IsArchived {
		return nil
	}
	return ch
}

// Feature levels of archived channels in events: the archived_channels
// capability (315), and the is_archived update its queues get (378; before,
// every queue got the channel's delete and create).
const (
	archivedChannelsFL      = 315
	archivedChannelUpdateFL = 378
)

// emitChannelChanges sends the update events that take a client from was to
// the channel as it is. Archiving and unarchiving are an is_archived update
// for queues with the archived_channels capability (from 378), and the
// channel's delete and create for the others.
func (s *Server) emitChannelChanges(ch *Channel, was channelFacts) {
	now := s.channelEventFacts(ch)
	visible := func(u *User) bool { return s.canAccessChannelMetadata(u, ch) }
	if archived := now["is_archived"] == true; archived != (was["is_archived"] == true) {
		update := s.opts.FeatureLevel >= archivedChannelUpdateFL
		s.emitEach("stream", func(q *Queue, u *User) obj {
			switch {
			case !visible(u):
				return nil
			case update && q.ArchivedChannels:
				return obj{"type": "stream", "op": "update", "stream_id": ch.ID, "name": ch.Name, "property": "is_archived", "value": archived}
			case archived: // the streams entries carry only their ids
				return obj{"type": "stream", "op": "delete", "streams": []obj{{"stream_id": ch.ID}}, "stream_ids": []int{ch.ID}}
			}
			return obj{"type": "stream", "op": "create", "streams": []obj{s.channelWire(ch, false)}}
		})
		if archived {
			return
		}
	}
	for _, prop := range sortedKeys(now) {
		if now[prop] == was[prop] || prop == "is_archived" {
			continue
		}
		ev := obj{"type": "stream", "op": "update", "stream_id": ch.ID, "name": was["name"], "property": prop, "value": now[prop]}
		switch prop {
		case "invite_only":
			ev["history_public_to_subscribers"], ev["is_web_public"] = ch.HistoryPublicToSubscribers, ch.IsWebPublic
		case "description":
			ev["rendered_description"] = renderChatMarkdown(s.realm, ch.Description)
		case "is_web_public", "history_public_to_subscribers":
			continue // reported with invite_only, as do_change_stream_permission does
		}
		if _, ok := channelPermissionConfigs[prop]; ok {
			ev["value"] = s.realm.settingForAPI(s.channelSetting(ch, prop)).Wire()
		}
		s.emit(ev, visible)
	}
}

// emitChannelCreated is the stream create event of a new channel.
func (s *Server) emitChannelCreated(_ *call, payload obj) {
	id, _ := payload["id"].(int)
	ch := s.realm.Channels[id]
	if ch == nil {
		return
	}
	s.emit(obj{"type": "stream", "op": "create", "streams": []obj{s.channelWire(ch, false)}},
		func(u *User) bool { return s.canAccessChannelMetadata(u, ch) })
}
