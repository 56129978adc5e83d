package refserver

import "encoding/json"

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

// withChannelEvents wraps a handler that changes existing channels.
func (s *Server) withChannelEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		before := map[int]channelFacts{}
		for id, ch := range s.realm.Channels {
			before[id] = s.channelEventFacts(ch)
		}
		payload, err := h(c)
		if err == nil {
			for _, id := range s.realm.channelIDs() {
				if was, ok := before[id]; ok {
					s.emitChannelChanges(s.realm.Channels[id], was)
				}
			}
		}
		return payload, err
	}
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
