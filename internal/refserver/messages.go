package refserver

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// messageFlagOrder is Zulip's UserMessage.ALL_FLAGS minus the flags the API
// never shows (is_private, active_mobile_push_notification), in bit order.
var messageFlagOrder = []string{
	"read", "starred", "collapsed", "mentioned", "stream_wildcard_mentioned",
	"topic_wildcard_mentioned", "group_mentioned", "force_expand", "force_collapse",
	"has_alert_word", "historical",
}

// nonEditableFlags are set by the server only (UserMessage.NON_EDITABLE_FLAGS).
var nonEditableFlags = map[string]bool{
	"has_alert_word": true, "mentioned": true, "stream_wildcard_mentioned": true,
	"topic_wildcard_mentioned": true, "group_mentioned": true, "historical": true,
	"force_expand": true, "force_collapse": true,
}

// largerThanMaxMessageID is Zulip's LARGER_THAN_MAX_MESSAGE_ID ("newest").
const largerThanMaxMessageID = 10000000000000000

// maxReportDescriptionLength is Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH.
const maxReportDescriptionLength = 1000

// notificationBotID is the sender of the messages the server itself posts
// (Zulip's cross-realm Notification Bot, which is not a user of the realm).
const notificationBotID = 0

// routesMessages registers message flags, narrow matching and reports.
func (s *Server) routesMessages() {
	s.handle("POST /messages/flags", authUser, s.updateMessageFlags)
	s.handle("POST /messages/flags/narrow", authUser, s.updateMessageFlagsForNarrow)
	s.handle("GET /messages/matches_narrow", authUser, s.messagesMatchNarrow)
	s.handle("POST /messages/{message_id}/report", authUser, s.reportMessage)
}

// updateMessageFlags serves POST /messages/flags (digest §9.1).
func (s *Server) updateMessageFlags(c *call) (obj, error) {
	var ids []int
	if err := c.reqJSON("messages", &ids); err != nil {
		return nil, err
	}
	op, err := c.reqString("op")
	if err != nil {
		return nil, err
	}
	flag, err := c.reqString("flag")
	if err != nil {
		return nil, err
	}
	modified, ignored, err := s.applyMessageFlags(c.user, op, flag, ids)
	if err != nil {
		return nil, err
	}
	out := obj{"messages": modified}
	if flag == "read" && op == "remove" && c.s.opts.FeatureLevel >= 355 {
		out["ignored_because_not_subscribed_channels"] = ignored
	}
	return out, nil
}

// applyMessageFlags is Zulip's do_update_message_flags. It returns the ids
// whose flag actually changed and, for marking unread, the channels whose
// messages were skipped because the user is not subscribed to them.
//
// A message the user never received has no UserMessage row and behaves as if
// flagged read+historical; changing another flag on it creates a "historical"
// row, which requires access to the message ("Invalid message(s)" otherwise).
func (s *Server) applyMessageFlags(u *User, op, flag string, ids []int) (modified, ignored []int, err error) {
	valid := false
	for _, f := range messageFlagOrder {
		valid = valid || f == flag
	}
	if !valid {
		return nil, nil, errBadRequest("Invalid flag: '%s'", flag)
	}
	if nonEditableFlags[flag] {
		return nil, nil, errBadRequest("Flag not editable: '%s'", flag)
	}
	if op != "add" && op != "remove" {
		return nil, nil, errBadRequest("Invalid message flag operation: '%s'", op)
	}
	adding := op == "add"
	r := s.realm
	seen := map[int]bool{}
	ignoredSet := map[int]bool{}
	var targets []int
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		if flag == "read" && !adding {
			// Unread messages must be in subscribed channels.
			if m := r.message(id); m != nil {
				if ch := r.Channels[m.ChannelID]; ch != nil && !isSubscribed(ch, u) {
					ignoredSet[ch.ID] = true
					continue
				}
			}
		}
		targets = append(targets, id)
	}
	historicalHas := flag == "read" || flag == "historical"
	var historical []int
	modified = []int{}
	for _, id := range targets {
		m := r.message(id)
		has := historicalHas
		row := false
		if m != nil {
			_, row = m.Flags[u.ID]
			if row {
				has = m.HasFlag(u.ID, flag)
			}
		}
		if has == adding {
			continue
		}
		modified = append(modified, id)
		if !row {
			historical = append(historical, id)
		}
	}
	if historicalHas != adding {
		for _, id := range historical {
			if m := r.message(id); m == nil || !s.canAccessMessage(u, m) {
				return nil, nil, errBadRequest("Invalid message(s)")
			}
		}
	}
	for _, id := range modified {
		m := r.message(id)
		if _, row := m.Flags[u.ID]; !row {
			m.Flags[u.ID] = []string{"read", "historical"}
		}
		m.Flags[u.ID] = setMessageFlag(m.Flags[u.ID], flag, adding)
	}
	ignored = make([]int, 0, len(ignoredSet))
	for id := range ignoredSet {
		ignored = append(ignored, id)
	}
	sort.Ints(ignored)
	return modified, ignored, nil
}

// setMessageFlag adds or removes a flag, keeping Zulip's flag order.
func setMessageFlag(flags []string, flag string, on bool) []string {
	have := map[string]bool{}
	for _, f := range flags {
		have[f] = true
	}
	have[flag] = on
	out := []string{}
	for _, f := range messageFlagOrder {
		if have[f] {
			out = append(out, f)
		}
	}
	return out
}

// updateMessageFlagsForNarrow serves POST /messages/flags/narrow (FL155):
// the flag is changed on a range of the messages matching a narrow.
func (s *Server) updateMessageFlagsForNarrow(c *call) (obj, error) {
	anchorVal, err := c.reqString("anchor")
	if err != nil {
		return nil, err
	}
	includeAnchor, err := c.optBool("include_anchor", true)
	if err != nil {
		return nil, err
	}
	numBefore, err := c.reqInt("num_before")
	if err != nil {
		return nil, err
	}
	if numBefore < 0 {
		return nil, errBadRequest("num_before is too small")
	}
	numAfter, err := c.reqInt("num_after")
	if err != nil {
		return nil, err
	}
	if numAfter < 0 {
		return nil, errBadRequest("num_after is too small")
	}
	rawNarrow, err := c.reqString("narrow")
	if err != nil {
		return nil, err
	}
	terms, err := parseNarrow("narrow", rawNarrow)
	if err != nil {
		return nil, err
	}
	op, err := c.reqString("op")
	if err != nil {
		return nil, err
	}
	flag, err := c.reqString("flag")
	if err != nil {
		return nil, err
	}
	anchor := -1 // first_unread
	switch anchorVal {
	case "oldest":
		anchor = 0
	case "newest":
		anchor = largerThanMaxMessageID
	case "first_unread":
	default:
		n, err := strconv.Atoi(anchorVal)
		if err != nil {
			return nil, errBadRequest("Invalid anchor")
		}
		anchor = max(0, min(n, largerThanMaxMessageID))
	}
	if numBefore > 0 && numAfter > 0 && !includeAnchor {
		return nil, errBadRequest("The anchor can only be excluded at an end of the range")
	}
	// Clamp as Zulip does: at most 5000 messages per request.
	const maxPerUpdate = 5000
	numBefore = min(numBefore, max(maxPerUpdate-numAfter, maxPerUpdate/2))
	numAfter = min(numAfter, maxPerUpdate-numBefore)

	f, err := s.compileNarrow(c.user, terms)
	if err != nil {
		return nil, err
	}
	r := c.realm()
	history := narrowIncludesHistory(s, c.user, terms)
	var matching []int
	for _, m := range r.Messages {
		if _, row := m.Flags[c.user.ID]; !row && (!history || !s.canAccessMessage(c.user, m)) {
			continue
		}
		if f.match(m) {
			matching = append(matching, m.ID)
		}
	}
	if anchor == -1 {
		anchor = largerThanMaxMessageID
		for _, id := range matching {
			if !r.message(id).HasFlag(c.user.ID, "read") {
				anchor = id
				break
			}
		}
	}
	var before, at, after []int
	for _, id := range matching {
		switch {
		case anchor == largerThanMaxMessageID || id < anchor:
			before = append(before, id)
		case id == anchor && anchor != 0:
			at = append(at, id)
		default:
			after = append(after, id)
		}
	}
	foundOldest := anchor == 0 || len(before) < numBefore
	foundNewest := anchor == largerThanMaxMessageID || len(after) < numAfter
	var processed []int
	if numBefore > 0 && len(before) > 0 {
		processed = append(processed, before[max(0, len(before)-numBefore):]...)
	}
	if includeAnchor {
		processed = append(processed, at...)
	}
	processed = append(processed, after[:min(numAfter, len(after))]...)

	modified, ignored, err := s.applyMessageFlags(c.user, op, flag, processed)
	if err != nil {
		return nil, err
	}
	out := obj{
		"processed_count":    len(processed),
		"updated_count":      len(modified),
		"first_processed_id": nil,
		"last_processed_id":  nil,
		"found_oldest":       foundOldest,
		"found_newest":       foundNewest,
	}
	if len(processed) > 0 {
		out["first_processed_id"] = processed[0]
		out["last_processed_id"] = processed[len(processed)-1]
	}
	if flag == "read" && op == "remove" && c.s.opts.FeatureLevel >= 355 {
		out["ignored_because_not_subscribed_channels"] = ignored
	}
	return out, nil
}

// narrowIncludesHistory is Zulip's ok_to_include_history: messages the user
// did not receive are searched only when the narrow names one channel whose
// history the user can read (or all public channels), and has no "is" term.
func narrowIncludesHistory(s *Server, u *User, terms []narrowTerm) bool {
	include := false
	for _, t := range terms {
		switch {
		case (t.Operator == "channel" || t.Operator == "stream") && !t.Negated:
			var ch *Channel
			if id, ok := t.Operand.(int); ok {
				ch = s.realm.Channels[id]
			} else if name, ok := t.Operand.(string); ok {
				ch = s.realm.channelByName(name)
			}
			include = ch != nil && ch.HistoryPublicToSubscribers && s.canAccessChannelContent(u, ch)
		case (t.Operator == "channels" || t.Operator == "streams") && t.Operand == "public" && !t.Negated && !u.IsGuest():
			include = true
		}
	}
	for _, t := range terms {
		if t.Operator == "is" {
			include = false
		}
	}
	return include
}

// messagesMatchNarrow serves GET /messages/matches_narrow (digest §9.2). Like
// Zulip, it considers only messages the user received (UserMessage rows).
func (s *Server) messagesMatchNarrow(c *call) (obj, error) {
	var ids []int
	if err := c.reqJSON("msg_ids", &ids); err != nil {
		return nil, err
	}
	rawNarrow, err := c.reqString("narrow")
	if err != nil {
		return nil, err
	}
	terms, err := parseNarrow("narrow", rawNarrow)
	if err != nil {
		return nil, err
	}
	f, err := s.compileNarrow(c.user, terms)
	if err != nil {
		return nil, err
	}
	r := c.realm()
	out := obj{}
	for _, id := range ids {
		m := r.message(id)
		if m == nil {
			continue
		}
		if _, row := m.Flags[c.user.ID]; !row || !f.match(m) {
			continue
		}
		out[strconv.Itoa(id)] = s.searchFields(f, m)
	}
	return obj{"messages": out}, nil
}

// reportMessage serves POST /messages/{message_id}/report (FL382, digest §9.3):
// the report is posted by the Notification Bot to the moderation request
// channel, in the topic "<reported user>'s moderation requests".
func (s *Server) reportMessage(c *call) (obj, error) {
	id, err := c.pathInt("message_id")
	if err != nil {
		return nil, err
	}
	r := c.realm()
	reportType, err := c.reqString("report_type")
	if err != nil {
		return nil, err
	}
	validType := false
	for _, t := range r.ReportTypes {
		validType = validType || t.Key == reportType
	}
	if !validType {
		return nil, errBadRequest("Invalid report_type: Value error, Not in the list of possible values")
	}
	description, _ := c.optString("description")
	if utf8.RuneCountInString(description) > maxReportDescriptionLength {
		return nil, errBadRequest("description is too long (limit: %d characters)", maxReportDescriptionLength)
	}
	if reportType == "other" && description == "" {
		return nil, errBadRequest("An explanation is required.")
	}
	modChannel := r.Channels[r.ModerationRequestChannelID]
	if r.ModerationRequestChannelID == -1 || modChannel == nil {
		return nil, errBadRequest("Message reporting is not enabled in this organization.")
	}
	m := r.message(id)
	if m == nil || !s.canAccessMessage(c.user, m) {
		return nil, errBadRequest("Invalid message(s)")
	}
	reported := r.user(m.SenderID)
	reportedName := "Unknown user"
	if reported != nil {
		reportedName = reported.FullName
	}
	content := s.reportContent(c.user, reported, m, reportType, description)
	s.postChannelMessage(modChannel, truncateTopic(r, reportedName+"'s moderation requests"), notificationBotID, content)
	return nil, nil
}

// reportContent builds the moderation request message, in the format of
// Zulip's send_message_report.
func (s *Server) reportContent(reporter, reported *User, m *Message, reportType, description string) string {
	mention := func(u *User) string {
		if u == nil {
			return "an unknown user"
		}
		return fmt.Sprintf("@_**%s|%d**", u.FullName, u.ID)
	}
	ch := s.realm.Channels[m.ChannelID]
	chName := ""
	if ch != nil {
		chName = ch.Name
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s reported #**%s>%s@%d** sent by %s.\n", mention(reporter), chName, m.Topic, m.ID, mention(reported))
	fmt.Fprintf(&b, "- Reason: **%s**\n- Notes:\n```quote\n%s\n```\n", reportType, description)
	fence := "```"
	for strings.Contains(m.Content, fence) {
		fence += "`"
	}
	fmt.Fprintf(&b, "%s spoiler **Message sent by %s**\n%s\n%s\n", fence, mention(reported), m.Content, fence)
	return b.String()
}

// postChannelMessage appends a message to a channel, delivered (as unread) to
// every active subscriber; the sender's own copy is read.
func (s *Server) postChannelMessage(ch *Channel, topic string, senderID int, content string) *Message {
	r := s.realm
	m := &Message{ID: r.newID("message"), ChannelID: ch.ID, Topic: topic, SenderID: senderID,
		Content: content, Timestamp: s.now().Unix(), Flags: map[int][]string{}}
	for uid := range ch.Subscribers {
		if u := r.user(uid); u == nil || !u.IsActive {
			continue
		}
		flags := []string{}
		if uid == senderID {
			flags = append(flags, "read")
		}
		m.Flags[uid] = flags
	}
	r.Messages = append(r.Messages, m)
	return m
}

// truncateTopic shortens a topic to the realm's limit with an ellipsis, as
// Zulip's truncate_topic does.
func truncateTopic(r *Realm, topic string) string {
	limit := r.Settings.MaxTopicLength
	if limit <= 0 {
		limit = 60
	}
	runes := []rune(topic)
	if len(runes) <= limit {
		return topic
	}
	return string(runes[:limit-1]) + "…"
}
