package refserver

import (
	"sort"
	"strconv"
	"strings"
)

// The events each area sends after a successful change, as Zulip's actions
// do (zerver/actions/*.py send_event_on_commit). A route's handler is wrapped
// with withEvents, so that the handlers stay free of event code and a failed
// request sends nothing.

// withEvents runs h and, when it succeeded, send (the lock is still held).
func withEvents(h handlerFunc, send func(c *call, payload obj)) handlerFunc {
	return func(c *call) (obj, error) {
		payload, err := h(c)
		if err == nil {
			send(c, payload)
		}
		return payload, err
	}
}

// emitEach sends to each queue of an active user that accepts eventType the
// event built for that queue and user (nil: none), for events whose content
// depends on the recipient or on how the queue registered.
func (s *Server) emitEach(eventType string, build func(q *Queue, u *User) obj) {
	for _, id := range sortedQueueIDs(s.realm.Queues) {
		q := s.realm.Queues[id]
		u := s.realm.Users[q.UserID]
		if u == nil || !u.IsActive || !q.accepts(eventType) {
			continue
		}
		if ev := build(q, u); ev != nil {
			s.pushEvent(q, ev)
		}
	}
}

// emitLinkifiers is notify_linkifiers: the whole list, to everyone.
func (s *Server) emitLinkifiers(*call, obj) {
	s.emit(obj{"type": "realm_linkifiers", "realm_linkifiers": s.linkifiersWire()}, nil)
}

// emitProfileFields is notify_realm_custom_profile_fields: the whole list, to everyone.
func (s *Server) emitProfileFields(*call, obj) {
	s.emit(obj{"type": "custom_profile_fields", "fields": s.profileFieldsWire()}, nil)
}

// emitSnippetAdded is do_create_saved_snippet's event, to its owner.
func (s *Server) emitSnippetAdded(c *call, payload obj) {
	id, _ := payload["saved_snippet_id"].(int)
	if wire := s.snippetWire(c.user.ID, id); wire != nil {
		s.emitToUser(c.user.ID, obj{"type": "saved_snippets", "op": "add", "saved_snippet": wire})
	}
}

// emitSnippetUpdated is do_edit_saved_snippet's event; edit_saved_snippet
// returns early, without one, when neither title nor content was given.
func (s *Server) emitSnippetUpdated(c *call, _ obj) {
	if !c.params.Has("title") && !c.params.Has("content") {
		return
	}
	id, _ := strconv.Atoi(c.r.PathValue("saved_snippet_id"))
	if wire := s.snippetWire(c.user.ID, id); wire != nil {
		s.emitToUser(c.user.ID, obj{"type": "saved_snippets", "op": "update", "saved_snippet": wire})
	}
}

// emitSnippetRemoved is do_delete_saved_snippet's event.
func (s *Server) emitSnippetRemoved(c *call, _ obj) {
	id, _ := strconv.Atoi(c.r.PathValue("saved_snippet_id"))
	s.emitToUser(c.user.ID, obj{"type": "saved_snippets", "op": "remove", "saved_snippet_id": id})
}

// snippetWire is one of the user's snippets as the API shows it, or nil.
func (s *Server) snippetWire(userID, id int) obj {
	for _, w := range s.snippetsWire(userID) {
		if w["id"] == id {
			return w
		}
	}
	return nil
}

// emitDomainAdded and emitDomainChanged are do_add_realm_domain's and
// do_change_realm_domain's events, to everyone.
func (s *Server) emitDomainAdded(c *call, _ obj) { s.emitDomain(c, "add") }

func (s *Server) emitDomainChanged(c *call, _ obj) { s.emitDomain(c, "change") }

func (s *Server) emitDomain(c *call, op string) {
	name := c.params.Get("domain")
	if op == "change" {
		name = c.r.PathValue("domain")
	}
	if d := domainFind(s.realm, strings.ToLower(strings.TrimSpace(name))); d != nil {
		s.emit(obj{"type": "realm_domains", "op": op,
			"realm_domain": obj{"domain": d.Domain, "allow_subdomains": d.AllowSubdomains}}, nil)
	}
}

// withDomainRemovalEvents wraps DELETE /realm/domains/{domain}:
// do_remove_realm_domain's event, then, when removing the last domain turned
// emails_restricted_to_domains off, the realm update that says so.
func (s *Server) withDomainRemovalEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		restricted := s.realm.Settings.EmailsRestrictedToDomains
		payload, err := h(c)
		if err != nil {
			return payload, err
		}
		s.emit(obj{"type": "realm_domains", "op": "remove", "domain": strings.ToLower(c.r.PathValue("domain"))}, nil)
		if restricted && !s.realm.Settings.EmailsRestrictedToDomains {
			s.emit(obj{"type": "realm", "op": "update", "property": "emails_restricted_to_domains", "value": false}, nil)
		}
		return payload, err
	}
}

// emitUserTopic is do_set_user_topic_visibility_policy's event, to the user.
func (s *Server) emitUserTopic(c *call, _ obj) {
	streamID, _ := strconv.Atoi(c.params.Get("stream_id"))
	topic := c.params.Get("topic")
	if topic == s.realm.Settings.EmptyTopicDisplayName {
		topic = ""
	}
	ev := obj{"type": "user_topic", "stream_id": streamID, "topic_name": topic,
		"last_updated": s.now().Unix(), "visibility_policy": PolicyInherit}
	for _, t := range s.realm.UserTopics {
		if t.UserID == c.user.ID && t.StreamID == streamID && strings.EqualFold(t.TopicName, topic) {
			ev["topic_name"], ev["last_updated"], ev["visibility_policy"] = t.TopicName, t.LastUpdated, t.VisibilityPolicy
		}
	}
	s.emitToUser(c.user.ID, ev)
}

// emitMessageFlags is do_update_message_flags's event, to the user: the ids
// whose flag changed, and for marking unread the details clients need.
func (s *Server) emitMessageFlags(u *User, op, flag string, changed []int) {
	ev := obj{"type": "update_message_flags", "op": op, "operation": op, "flag": flag,
		"messages": append([]int{}, changed...), "all": false}
	if flag == "read" && op == "remove" {
		details := obj{}
		for _, id := range changed {
			m := s.realm.message(id)
			if m == nil {
				continue
			}
			d := obj{"type": "stream", "stream_id": m.ChannelID, "topic": m.Topic, "unmuted_stream_msg": true}
			if m.HasFlag(u.ID, "mentioned") {
				d["mentioned"] = true
			}
			details[strconv.Itoa(id)] = d
		}
		ev["message_details"] = details
	}
	s.emitToUser(u.ID, ev)
}

// emitMessage is a new message's event (do_send_messages, then
// zerver/tornado/event_queue.py process_message_event): to the queues of the
// users with a UserMessage row (the recipients), each with the user's flags
// and the message rendered as the queue registered (apply_markdown,
// client_gravatar). The message object carries no flags of its own.
func (s *Server) emitMessage(m *Message) {
	s.emitEach("message", func(q *Queue, u *User) obj {
		row, recipient := m.Flags[u.ID]
		if !recipient {
			return nil
		}
		wire := s.messageWire(u, m, nil, q.ApplyMarkdown, q.ClientGravatar, false)
		delete(wire, "flags")
		return obj{"type": "message", "message": wire, "flags": append([]string{}, row...)}
	})
}

// userFacts is what realm_user update events report of a user.
type userFacts struct {
	fullName, email string
	role            int
	active          bool
	profile         map[int]string
}

// snapshotUsers records every user's reported facts before a change.
func (s *Server) snapshotUsers() map[int]userFacts {
	out := make(map[int]userFacts, len(s.realm.Users))
	for id, u := range s.realm.Users {
		profile := make(map[int]string, len(u.ProfileData))
		for k, v := range u.ProfileData {
			profile[k] = v
		}
		out[id] = userFacts{fullName: u.FullName, email: u.Email, role: u.Role, active: u.IsActive, profile: profile}
	}
	return out
}

// withUserEvents wraps a handler that changes users: after it succeeded, the
// realm_user events for what changed (zerver/actions/users.py,
// user_settings.py, custom_profile_fields.py, create_user.py) go to everyone.
func (s *Server) withUserEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		before := s.snapshotUsers()
		payload, err := h(c)
		if err == nil {
			s.emitUserChanges(before)
		}
		return payload, err
	}
}

// emitUserChanges sends one realm_user event per changed fact, in user order.
func (s *Server) emitUserChanges(before map[int]userFacts) {
	fl := s.opts.FeatureLevel
	for _, id := range s.realm.userIDs() {
		u := s.realm.Users[id]
		was, existed := before[id]
		if !existed {
			s.emitEach("realm_user", func(_ *Queue, viewer *User) obj {
				return obj{"type": "realm_user", "op": "add", "person": s.userWire(viewer, u, false, true)}
			})
			continue
		}
		update := func(person obj) {
			person["user_id"] = id
			s.emit(obj{"type": "realm_user", "op": "update", "person": person}, nil)
		}
		if was.fullName != u.FullName {
			update(obj{"full_name": u.FullName})
		}
		if was.role != u.Role {
			update(obj{"role": u.Role})
		}
		if was.email != u.Email {
			s.emitEach("realm_user", func(_ *Queue, viewer *User) obj {
				if !canAccessDeliveryEmail(viewer, u) {
					return nil
				}
				return obj{"type": "realm_user", "op": "update", "person": obj{"user_id": id, "delivery_email": u.Email}}
			})
			if emailVisibleToEveryone(u) {
				update(obj{"new_email": u.Email})
			}
		}
		if was.active != u.IsActive {
			switch {
			case fl >= 222:
				update(obj{"is_active": u.IsActive})
			case u.IsActive:
				s.emitEach("realm_user", func(_ *Queue, viewer *User) obj {
					return obj{"type": "realm_user", "op": "add", "person": s.userWire(viewer, u, false, true)}
				})
			default:
				s.emit(obj{"type": "realm_user", "op": "remove", "person": obj{"user_id": id, "full_name": u.FullName}}, nil)
			}
		}
		s.emitProfileChanges(was.profile, u.ProfileData, update)
	}
}

// emitProfileChanges sends one update per custom profile field whose value
// changed (notify_user_update_custom_profile_data): value null when removed,
// rendered_value for the text fields.
func (s *Server) emitProfileChanges(was, now map[int]string, update func(obj)) {
	ids := map[int]bool{}
	for k := range was {
		ids[k] = true
	}
	for k := range now {
		ids[k] = true
	}
	sorted := make([]int, 0, len(ids))
	for k := range ids {
		sorted = append(sorted, k)
	}
	sort.Ints(sorted)
	for _, fid := range sorted {
		old, had := was[fid]
		cur, has := now[fid]
		if had == has && old == cur {
			continue
		}
		field := obj{"id": fid, "value": nil}
		if has {
			field["value"] = cur
			if f := s.realm.profileFieldByID(fid); f != nil && (f.Type == FieldShortText || f.Type == FieldLongText) {
				field["rendered_value"] = renderParagraphs(cur)
			}
		}
		update(obj{"custom_profile_field": field})
	}
}
