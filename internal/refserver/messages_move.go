package refserver

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// Moving messages to another topic of their channel (PATCH
// /messages/{message_id} with topic), after newest Zulip's
// zerver/actions/message_edit.py (check_update_message,
// validate_message_edit_payload, build_message_edit_request,
// check_time_limit_for_change_all_propagate_mode, do_update_message,
// maybe_send_resolve_topic_notifications,
// maybe_delete_previous_resolve_topic_notification,
// send_message_moved_breadcrumbs), zerver/lib/topic.py
// (update_messages_for_topic_edit, messages_for_topic) and
// zerver/lib/streams.py (can_edit_topic, can_move_messages_within_channel,
// can_resolve_topics, can_access_stream_history). Choices where the model is
// smaller than Zulip:
//   - moving to another channel (stream_id) is not modelled: the parameter is
//     not read, so it is reported in ignored_parameters_unsupported;
//   - the topic links of the Notification Bot's notices always use the
//     #**channel>topic** syntax (get_stream_topic_link_syntax's Markdown
//     fallback for names with `, >, * or $$ is not modelled);
//   - apply_automatic_unmute_follow_topics_policy is not modelled;
//   - queues do not record the empty_topic_name capability, so an empty topic
//     in an update_message event is the realm's empty topic display name, as
//     for clients without it.

// Constants of the modelled behaviour.
const (
	resolvedTopicPrefix     = "✔ "           // RESOLVED_TOPIC_PREFIX
	emptyTopicFallbackName  = "general chat" // Message.EMPTY_TOPIC_FALLBACK_NAME
	moveLimitBufferSecs     = 20             // check_update_message's edit_limit_buffer
	resolveUndoGraceSecs    = 60             // settings.RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS
	topicMoveNoticesFL      = 152            // before it, the notices were sent only for channel moves
	lastMovedTimestampFL    = 365            // last_moved_timestamp; last_edit_timestamp only for content
	resolveTopicsGroupFL    = 367            // can_resolve_topics_group
	channelMoveGroupFL      = 396            // the channel's can_move_messages_within_channel_group
	channelResolveGroupFL   = 402            // the channel's can_resolve_topics_group
	messageKindResolveTopic = "resolve_topic_notification"
)

// messageEditRequest is build_message_edit_request's StreamMessageEditRequest
// (or DirectMessageEditRequest): the edit as read, the new content, and the
// topic change.
type messageEditRequest struct {
	*messageEdit
	body                 string   // the normalized new content, when hasContent
	ch                   *Channel // nil for a direct message
	origTopic, target    string
	topicEdited          bool
	resolved, unresolved bool
	resolveNoticeID      int
	changed              []*Message
	movedAllVisible      bool
	origFollowers        map[int]bool
}

// resolveToggle reports whether the move only resolves or unresolves the topic.
func (q *messageEditRequest) resolveToggle() bool { return q.resolved || q.unresolved }

// checkTopicPrintable is check_stream_topic with check_string_is_printable:
// control characters, surrogates and unassigned code points are refused,
// with their 1-based position.
func checkTopicPrintable(topic string) error {
	for i, r := range []rune(topic) {
		assigned := unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cf, unicode.Co)
		if unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cs, r) || !assigned {
			return errBadRequest("Invalid character in topic, at position %d!", i+1)
		}
	}
	return nil
}

// validateMessageEditPayload is validate_message_edit_payload: the request's
// shape, before any permission.
func validateMessageEditPayload(m *Message, e *messageEdit) error {
	if !e.hasTopic && !e.hasContent {
		return errBadRequest("Nothing to change")
	}
	if m.isDirect() && e.hasTopic {
		return errBadRequest("Direct messages cannot have topics.")
	}
	if e.propagate != "change_one" && !e.hasTopic {
		return errBadRequest("Invalid propagate_mode without topic edit")
	}
	if e.hasTopic && (e.topic == strings.TrimSpace(resolvedTopicPrefix) || e.topic == resolvedTopicPrefix+emptyTopicFallbackName) {
		return errBadRequest("General chat cannot be marked as resolved")
	}
	if e.hasTopic {
		if err := checkTopicPrintable(e.topic); err != nil {
			return err
		}
	}
	if e.hasPrev && e.prevSHA != sha256Hex(m.Content) {
		return errCode(400, "EXPECTATION_MISMATCH", "'prev_content_sha256' value does not match the expected value.", nil)
	}
	return nil
}

// buildMessageEdit is build_message_edit_request: the new content ("(deleted)"
// for a blank one), the truncated target topic, whether the move resolves or
// unresolves the topic, and the channel's topics policy for the target topic.
func (s *Server) buildMessageEdit(m *Message, e *messageEdit) (*messageEditRequest, error) {
	r := s.realm
	q := &messageEditRequest{messageEdit: e, origTopic: m.Topic, target: m.Topic}
	if e.hasContent {
		content := e.content
		if strings.TrimRight(content, " \t\n\r\v\f") == "" {
			content = "(deleted)"
		}
		body, err := normalizeBody(content, r.maxMessageLength())
		if err != nil {
			return nil, err
		}
		q.body = body
	}
	if m.isDirect() {
		return q, nil
	}
	q.ch = r.Channels[m.ChannelID]
	if e.hasTopic {
		q.topicEdited = true
		q.target = truncateTopic(r, e.topic)
		q.resolved = strings.HasPrefix(q.target, resolvedTopicPrefix) && !strings.HasPrefix(q.origTopic, resolvedTopicPrefix) &&
			strings.TrimPrefix(e.topic, resolvedTopicPrefix) == q.origTopic
		q.unresolved = strings.HasPrefix(q.origTopic, resolvedTopicPrefix) && !strings.HasPrefix(q.target, resolvedTopicPrefix) &&
			strings.TrimLeft(q.origTopic, resolvedTopicPrefix) == q.target
	}
	display := r.Settings.EmptyTopicDisplayName
	targetEmpty := q.target == "" || q.target == "(no topic)"
	switch policy := r.channelTopicsPolicy(q.ch); {
	case targetEmpty && q.topicEdited && policy == "disable_empty_topic":
		return nil, errBadRequest("Sending messages to the %s topic is not allowed in this channel.", display)
	case policy == "empty_topic_only" && !targetEmpty:
		return nil, errBadRequest("Only the %s topic is allowed in this channel.", display)
	}
	return q, nil
}

// isModerator is UserProfile.is_moderator: the moderator role exactly (an
// administrator is not one, so Zulip holds administrators to the move time
// limits too).
func isModerator(u *User) bool { return u.Role == RoleModerator }

// canMoveWithinChannel is can_move_messages_within_channel: administrators,
// the channel's administrators and its can_move_messages_within_channel_group.
func (s *Server) canMoveWithinChannel(u *User, ch *Channel) bool {
	return u.IsAdmin() || s.channelSettingHas(ch, "can_administer_channel_group", u) ||
		s.hasChannelPermission(ch, "can_move_messages_within_channel_group", u)
}

// canEditTopic is can_edit_topic: the organization's
// can_move_messages_between_topics_group, or (from feature level 396, which
// added the channel permission) can_move_messages_within_channel.
func (s *Server) canEditTopic(u *User, ch *Channel) bool {
	if s.realm.hasRealmPermission("can_move_messages_between_topics_group", u) {
		return true
	}
	return s.opts.FeatureLevel >= channelMoveGroupFL && s.canMoveWithinChannel(u, ch)
}

// canResolveTopics is can_resolve_topics: the organization's
// can_resolve_topics_group (before feature level 367,
// can_move_messages_between_topics_group, which managed resolving), or (from
// feature level 402) the channel's can_resolve_topics_group.
func (s *Server) canResolveTopics(u *User, ch *Channel) bool {
	if s.opts.FeatureLevel < resolveTopicsGroupFL {
		return s.realm.hasRealmPermission("can_move_messages_between_topics_group", u)
	}
	return s.realm.hasRealmPermission("can_resolve_topics_group", u) ||
		s.opts.FeatureLevel >= channelResolveGroupFL && s.hasChannelPermission(ch, "can_resolve_topics_group", u)
}

// checkMessageMove is check_update_message's checks of a topic change, in
// its order: the permission to resolve, or to edit the topic within
// move_messages_within_stream_limit_seconds (plus 20 seconds; moderators
// exempt); for change_all, that every message of the topic is within the
// limit; and can_create_topic_group for the target topic.
func (s *Server) checkMessageMove(u *User, m *Message, q *messageEditRequest) error {
	if !q.topicEdited {
		return nil
	}
	r := s.realm
	if q.resolveToggle() {
		if !s.canResolveTopics(u, q.ch) {
			return errBadRequest("You don't have permission to resolve topics in this channel.")
		}
	} else {
		if !s.canEditTopic(u, q.ch) {
			return errBadRequest("You don't have permission to edit this message")
		}
		if limit, ok := r.limitSeconds("move_messages_within_stream_limit_seconds"); ok && !isModerator(u) &&
			s.now().Unix()-m.Timestamp > int64(limit+moveLimitBufferSecs) {
			return errBadRequest("The time limit for editing this message's topic has passed.")
		}
	}
	if q.resolveToggle() {
		return nil
	}
	if q.propagate == "change_all" && !isModerator(u) {
		if err := s.checkChangeAllTimeLimit(u, m); err != nil {
			return err
		}
	}
	return s.checkTopicCreation(u, q.ch, q.target)
}

// checkChangeAllTimeLimit is check_time_limit_for_change_all_propagate_mode
// for a topic change: every message of the topic the user can see (all of
// them with access to the channel's history, else those they received) must
// be within move_messages_within_stream_limit_seconds plus 20 seconds.
func (s *Server) checkChangeAllTimeLimit(u *User, m *Message) error {
	limit, ok := s.realm.limitSeconds("move_messages_within_stream_limit_seconds")
	if !ok {
		return nil
	}
	oldest := s.now().Unix() - int64(limit+moveLimitBufferSecs)
	var total, allowed []int
	for _, other := range s.topicMessagesVisibleTo(u, m.ChannelID, m.Topic) {
		total = append(total, other.ID)
		if other.Timestamp > oldest {
			allowed = append(allowed, other.ID)
		}
	}
	if len(total) == len(allowed) {
		return nil
	}
	first := 0
	if len(allowed) > 0 {
		first = allowed[0]
	}
	return errCode(400, "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
		fmt.Sprintf("You only have permission to move the %d/%d most recent messages in this topic.", len(allowed), len(total)),
		obj{"first_message_id_allowed_to_move": first, "total_messages_in_topic": len(total),
			"total_messages_allowed_to_move": len(allowed)})
}

// canAccessChannelHistory is can_access_stream_history: a public channel's
// history for non-guests; a channel with shared history for those with
// access to its content.
func (s *Server) canAccessChannelHistory(u *User, ch *Channel) bool {
	if !ch.InviteOnly && ch.HistoryPublicToSubscribers && !u.IsGuest() {
		return true
	}
	return ch.HistoryPublicToSubscribers && s.channelContentAccess(u, ch)
}

// topicMessagesVisibleTo is messages_for_topic (the topic compared without
// case) narrowed by bulk_access_stream_messages_query: all of them for a
// user with access to the channel's history, else those the user received;
// in id order.
func (s *Server) topicMessagesVisibleTo(u *User, channelID int, topic string) []*Message {
	ch := s.realm.Channels[channelID]
	history := ch != nil && s.canAccessChannelHistory(u, ch)
	var out []*Message
	for _, m := range s.realm.Messages {
		if m.isDirect() || m.ChannelID != channelID || !strings.EqualFold(m.Topic, topic) {
			continue
		}
		if _, row := m.Flags[u.ID]; history || row {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// moveTopic is do_update_message's topic change: the messages the
// propagate mode selects (update_messages_for_topic_edit: the edited one,
// then for change_later the later ones and for change_all every one of the
// topic the editor can see) take the target topic; when the editor moved
// every message of the topic they can see, the topic's visibility policies
// follow it.
func (s *Server) moveTopic(editor *User, m *Message, q *messageEditRequest, now int64) {
	targetHadMessages := s.topicHasMessages(m.ChannelID, q.target)
	q.origFollowers = s.followersOf(m.ChannelID, q.origTopic)
	q.changed = []*Message{m}
	if q.propagate != "change_one" {
		for _, other := range s.topicMessagesVisibleTo(editor, m.ChannelID, q.origTopic) {
			if other.ID > m.ID || q.propagate == "change_all" && other.ID != m.ID {
				q.changed = append(q.changed, other)
			}
		}
	}
	sort.Slice(q.changed, func(i, j int) bool { return q.changed[i].ID < q.changed[j].ID })
	for _, c := range q.changed {
		c.Topic = q.target
		c.TopicEditTimestamp = now
		if !q.resolveToggle() {
			c.MoveTimestamp = now
		}
	}
	q.movedAllVisible = q.propagate == "change_all" || len(s.topicMessagesVisibleTo(editor, m.ChannelID, q.origTopic)) == 0
	if q.movedAllVisible {
		s.migrateTopicVisibility(m.ChannelID, q.origTopic, q.target, targetHadMessages, now)
	}
}

// topicHasMessages is messages_for_topic(...).exists(): whether a topic of
// the channel (compared without case) holds any message.
func (s *Server) topicHasMessages(channelID int, topic string) bool {
	for _, m := range s.realm.Messages {
		if !m.isDirect() && m.ChannelID == channelID && strings.EqualFold(m.Topic, topic) {
			return true
		}
	}
	return false
}

// visibilityAfterMerge is get_visibility_policy_after_merge: the more
// visible policy wins (followed, unmuted, none, muted).
func visibilityAfterMerge(orig, target int) int {
	for _, p := range []int{PolicyFollowed, PolicyUnmuted, PolicyInherit} {
		if orig == p || target == p {
			return p
		}
	}
	return PolicyMuted
}

// migrateTopicVisibility is do_update_message's migration of topic
// visibility policies when the whole topic moved: each user's policy for the
// original topic goes, and the target topic takes it (merged with the
// target's own when the target topic already had messages).
func (s *Server) migrateTopicVisibility(channelID int, orig, target string, targetHadMessages bool, now int64) {
	r := s.realm
	if strings.EqualFold(orig, target) {
		return
	}
	policies := map[int][2]int{} // user: {original, target}
	for _, t := range r.UserTopics {
		if t.StreamID != channelID {
			continue
		}
		p := policies[t.UserID]
		switch {
		case strings.EqualFold(t.TopicName, orig):
			p[0] = t.VisibilityPolicy
		case strings.EqualFold(t.TopicName, target):
			p[1] = t.VisibilityPolicy
		default:
			continue
		}
		policies[t.UserID] = p
	}
	users := make([]int, 0, len(policies))
	for uid := range policies {
		users = append(users, uid)
	}
	sort.Ints(users)
	for _, uid := range users {
		p := policies[uid]
		if p[0] != PolicyInherit {
			userTopicSet(r, uid, channelID, orig, PolicyInherit, now)
		}
		policy := p[0]
		if targetHadMessages {
			policy = visibilityAfterMerge(p[0], p[1])
		}
		if policy != p[1] {
			userTopicSet(r, uid, channelID, target, policy, now)
		}
	}
}

// userMention is silent_mention_syntax_for_user.
func userMention(u *User) string { return fmt.Sprintf("@_**%s|%d**", u.FullName, u.ID) }

// topicLinkSyntax is get_stream_topic_link_syntax's #**channel>topic** form.
func topicLinkSyntax(ch *Channel, topic string) string { return "#**" + ch.Name + ">" + topic + "**" }

// sendResolveNotice is maybe_send_resolve_topic_notifications: for a topic
// (un)resolved without a content edit, the Notification Bot's notice in the
// target topic, unread for the subscribers (not bots) whose
// resolved_topic_notice_auto_read_policy is "never", or "except_followed"
// while following the topic; or, when the topic's newest message is such a
// notice younger than the undo grace period, that notice is deleted instead
// (maybe_delete_previous_resolve_topic_notification).
func (s *Server) sendResolveNotice(editor *User, q *messageEditRequest) {
	r := s.realm
	var last *Message
	for _, m := range r.Messages {
		if !m.isDirect() && m.ChannelID == q.ch.ID && strings.EqualFold(m.Topic, q.target) && (last == nil || m.ID > last.ID) {
			last = m
		}
	}
	if last != nil && last.Kind == messageKindResolveTopic && s.now().Unix()-last.Timestamp <= resolveUndoGraceSecs {
		s.removeMessage(last)
		return
	}
	followers := q.origFollowers
	if !q.movedAllVisible {
		followers = s.followersOf(q.ch.ID, q.target)
	}
	sp, _ := realmSettingByName("resolved_topic_notice_auto_read_policy")
	unread := func(uid int) bool {
		u := r.user(uid)
		if u == nil || u.IsBot || uid == editor.ID {
			return false
		}
		policy, _ := r.userSetting(uid, sp).(string)
		return policy == "never" || policy == "except_followed" && followers[uid]
	}
	text := "%s has marked this topic as resolved."
	if q.unresolved {
		text = "%s has marked this topic as unresolved."
	}
	notice := s.postChannelNotice(q.ch, q.target, notificationBotID, fmt.Sprintf(text, userMention(editor)),
		func(uid int) bool { return !unread(uid) }, messageKindResolveTopic)
	q.resolveNoticeID = notice.ID
}

// sendMoveBreadcrumbs is do_update_message's choice of notices for a move
// and send_message_moved_breadcrumbs: the Notification Bot tells the new
// topic where the messages came from (unless the move only (un)resolved the
// topic), then the old topic where they went; each notice is read for the
// editor.
func (s *Server) sendMoveBreadcrumbs(editor *User, q *messageEditRequest, base string) {
	user := userMention(editor)
	count := len(q.changed)
	readByEditor := func(uid int) bool { return uid == editor.ID }
	if q.notifyNew && !q.resolveToggle() {
		moved := map[int]bool{q.resolveNoticeID: true}
		for _, m := range q.changed {
			moved[m.ID] = true
		}
		preexisting := false
		for _, m := range s.topicMessagesVisibleTo(editor, q.ch.ID, q.target) {
			preexisting = preexisting || !moved[m.ID]
		}
		old := topicLinkSyntax(q.ch, q.origTopic)
		var text string
		switch {
		case !preexisting && q.movedAllVisible:
			text = fmt.Sprintf("This topic was moved here from %s by %s.", old, user)
		case count == 1:
			link := channelTopicURL(base, q.ch, q.target) + "/near/" + fmt.Sprint(q.changed[0].ID)
			text = fmt.Sprintf("[A message](%s) was moved here from %s by %s.", link, old, user)
		default:
			text = fmt.Sprintf("%d messages were moved here from %s by %s.", count, old, user)
		}
		s.postChannelNotice(q.ch, q.target, notificationBotID, text, readByEditor, "")
	}
	if q.notifyOld {
		dest := topicLinkSyntax(q.ch, q.target)
		var text string
		switch {
		case q.movedAllVisible:
			text = fmt.Sprintf("This topic was moved to %s by %s.", dest, user)
		case count == 1:
			text = fmt.Sprintf("A message was moved from this topic to %s by %s.", dest, user)
		default:
			text = fmt.Sprintf("%d messages were moved from this topic to %s by %s.", count, dest, user)
		}
		s.postChannelNotice(q.ch, q.origTopic, notificationBotID, text, readByEditor, "")
	}
}

// followersOf are the users following a topic of a channel.
func (s *Server) followersOf(channelID int, topic string) map[int]bool {
	out := map[int]bool{}
	for _, t := range s.realm.UserTopics {
		if t.StreamID == channelID && strings.EqualFold(t.TopicName, topic) && t.VisibilityPolicy == PolicyFollowed {
			out[t.UserID] = true
		}
	}
	return out
}

// editTimestampsWire adds a message's edit times to its wire form: from
// feature level 365 last_edit_timestamp for content edits and
// last_moved_timestamp for moves (resolving aside); before it,
// last_edit_timestamp for either.
func (s *Server) editTimestampsWire(out obj, m *Message) {
	if s.opts.FeatureLevel >= lastMovedTimestampFL {
		if m.EditTimestamp != 0 {
			out["last_edit_timestamp"] = m.EditTimestamp
		}
		if m.MoveTimestamp != 0 {
			out["last_moved_timestamp"] = m.MoveTimestamp
		}
		return
	}
	if t := max(m.EditTimestamp, m.TopicEditTimestamp); t != 0 {
		out["last_edit_timestamp"] = t
	}
}
