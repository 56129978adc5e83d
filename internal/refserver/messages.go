package refserver

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yosida95/uritemplate/v3"
)

func init() {
	registerArea("messages", area{seed: seedMessages, seedStep: 40, routes: (*Server).routesMessages,
		sections: map[string]registerSection{
			"message":              (*Server).registerMaxMessageID,
			"starred_messages":     (*Server).registerStarredMessages,
			"update_message_flags": (*Server).registerUnreadMessages,
		}})
}

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

// routesMessages registers message fetching, flags, narrow matching and reports.
func (s *Server) routesMessages() {
	s.handle("POST /messages/flags", authUser, s.updateMessageFlags)
	s.handle("POST /messages/flags/narrow", authUser, s.updateMessageFlagsForNarrow)
	s.handle("GET /messages", authUser, s.getMessages)
	s.handle("GET /messages/matches_narrow", authUser, s.messagesMatchNarrow)
	s.handle("POST /messages/{message_id}/report", authUser, s.reportMessage)
}

// flagsIgnoredChannelsFL is the feature level that added
// ignored_because_not_subscribed_channels to both flag endpoints.
const flagsIgnoredChannelsFL = 355

// updateMessageFlags serves POST /messages/flags (digest §9.1). As in Zulip's
// zerver/views/message_flags.py (update_message_flags), the answer's
// `messages` is the request's list unchanged, duplicates and messages that
// already had the flag included ("Useless, but included for backwards
// compatibility"): it never says which messages changed. Since FL355
// ignored_because_not_subscribed_channels is in every answer, [] unless
// marking unread skipped a channel (the view always passes on what
// do_update_message_flags returns; the API description's "only present if the
// flag is read and the operation is remove" is not what the code does).
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
	_, ignored, err := s.applyMessageFlags(c.user, op, flag, ids)
	if err != nil {
		return nil, err
	}
	if ids == nil {
		ids = []int{}
	}
	out := obj{"messages": ids}
	if c.s.opts.FeatureLevel >= flagsIgnoredChannelsFL {
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
	if err := checkMessageFlagOperation(op, flag); err != nil {
		return nil, nil, err
	}
	adding := op == "add"
	r := s.realm
	targets, ignored := r.messageFlagTargets(u, flag, adding, ids)
	historicalHas := flag == "read" || flag == "historical"
	modified, historical := r.messagesWhoseFlagChanges(u, flag, adding, targets)
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
	s.emitMessageFlags(u, op, flag, modified)
	return modified, ignored, nil
}

// checkMessageFlagOperation refuses, in Zulip's order, a flag that does not
// exist, a flag that cannot be edited and an operation other than add and
// remove.
func checkMessageFlagOperation(op, flag string) error {
	if !slices.Contains(messageFlagOrder, flag) {
		return errBadRequest("Invalid flag: '%s'", flag)
	}
	if nonEditableFlags[flag] {
		return errBadRequest("Flag not editable: '%s'", flag)
	}
	if op != "add" && op != "remove" {
		return errBadRequest("Invalid message flag operation: '%s'", op)
	}
	return nil
}

// messageFlagTargets is the request's message ids without repeats and, when
// marking unread, without messages of channels u is not subscribed to,
// which are returned sorted as ignored.
func (r *Realm) messageFlagTargets(u *User, flag string, adding bool, ids []int) (targets, ignored []int) {
	seen := map[int]bool{}
	ignoredSet := map[int]bool{}
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
	ignored = make([]int, 0, len(ignoredSet))
	for id := range ignoredSet {
		ignored = append(ignored, id)
	}
	sort.Ints(ignored)
	return targets, ignored
}

// messagesWhoseFlagChanges is the targets whose flag the operation changes
// and, of those, the ones u has no UserMessage row for (historical), which
// behave as flagged read and historical.
func (r *Realm) messagesWhoseFlagChanges(u *User, flag string, adding bool, targets []int) (modified, historical []int) {
	historicalHas := flag == "read" || flag == "historical"
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
	return modified, historical
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

// maxMessagesPerUpdate is MAX_MESSAGES_PER_UPDATE of zerver/views/message_flags.py.
const maxMessagesPerUpdate = 5000

// parseAnchorValue is zerver/lib/narrow.py's parse_anchor_value: -1 stands
// for Zulip's None (first_unread). present is false when no anchor was sent.
func parseAnchorValue(val string, present, useFirstUnread bool) (int, error) {
	if useFirstUnread {
		return -1, nil
	}
	if !present {
		return 0, errBadRequest("Missing 'anchor' argument.")
	}
	switch val {
	case "oldest":
		return 0, nil
	case "newest":
		return largerThanMaxMessageID, nil
	case "first_unread":
		return -1, nil
	}
	// Python's int() accepts surrounding whitespace, a sign and "_" between
	// digits; a negative anchor means the oldest message.
	digits := strings.ReplaceAll(strings.TrimSpace(val), "_", "")
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		if !errors.Is(err, strconv.ErrRange) {
			return 0, errBadRequest("Invalid anchor")
		}
		if strings.HasPrefix(digits, "-") {
			return 0, nil
		}
		return largerThanMaxMessageID, nil
	}
	return int(max(0, min(n, largerThanMaxMessageID))), nil
}

// nonNegative reads a JSON integer parameter that must be >= 0 (pydantic's
// NonNegativeInt); it is 0 when absent, and required makes it mandatory.
func (c *call) nonNegative(name string, required bool) (int, error) {
	n := 0
	var ok bool
	var err error
	if required {
		err = c.reqJSON(name, &n)
		ok = err == nil
	} else {
		ok, err = c.optJSON(name, &n)
	}
	if err != nil {
		return 0, err
	}
	if ok && n < 0 {
		return 0, errBadRequest("%s is too small", name)
	}
	return n, nil
}

// updateMessageFlagsForNarrow serves POST /messages/flags/narrow (FL155):
// the flag is changed on a range of the messages matching a narrow
// (update_message_flags_for_narrow in zerver/views/message_flags.py).
func (s *Server) updateMessageFlagsForNarrow(c *call) (obj, error) {
	anchorVal, err := c.reqString("anchor")
	if err != nil {
		return nil, err
	}
	includeAnchor, err := c.optBool("include_anchor", true)
	if err != nil {
		return nil, err
	}
	numBefore, err := c.nonNegative("num_before", true)
	if err != nil {
		return nil, err
	}
	numAfter, err := c.nonNegative("num_after", true)
	if err != nil {
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
	op, err := c.reqString("op")
	if err != nil {
		return nil, err
	}
	flag, err := c.reqString("flag")
	if err != nil {
		return nil, err
	}
	anchor, err := parseAnchorValue(anchorVal, true, false)
	if err != nil {
		return nil, err
	}
	if numBefore > 0 && numAfter > 0 && !includeAnchor {
		return nil, errBadRequest("The anchor can only be excluded at an end of the range")
	}
	// Clamp such that num_before + num_after <= MAX_MESSAGES_PER_UPDATE.
	numBefore = min(numBefore, max(maxMessagesPerUpdate-numAfter, maxMessagesPerUpdate/2))
	numAfter = min(numAfter, maxMessagesPerUpdate-numBefore)

	res, err := s.fetchMessages(c.user, terms, anchor, includeAnchor, numBefore, numAfter)
	if err != nil {
		return nil, err
	}
	processed := res.rows
	modified, ignored, err := s.applyMessageFlags(c.user, op, flag, processed)
	if err != nil {
		return nil, err
	}
	out := obj{
		"processed_count":    len(processed),
		"updated_count":      len(modified),
		"first_processed_id": nil,
		"last_processed_id":  nil,
		"found_oldest":       res.foundOldest,
		"found_newest":       res.foundNewest,
	}
	if len(processed) > 0 {
		out["first_processed_id"] = processed[0]
		out["last_processed_id"] = processed[len(processed)-1]
	}
	if c.s.opts.FeatureLevel >= flagsIgnoredChannelsFL {
		out["ignored_because_not_subscribed_channels"] = ignored
	}
	return out, nil
}

// fetchResult is what fetch_messages (zerver/lib/narrow.py) finds: the ids
// of the messages in the range, ascending, and what the range tells.
type fetchResult struct {
	rows                                  []int
	anchor                                int
	foundAnchor, foundOldest, foundNewest bool
	history                               bool
	filter                                *narrowFilter
}

// fetchMessages is Zulip's fetch_messages for an authenticated user: the
// messages matching the narrow (those the user received, or every accessible
// one when the narrow includes history), then the range around the anchor
// (-1 = first unread) that limit_query_to_range and
// post_process_limited_query select.
func (s *Server) fetchMessages(u *User, terms []narrowTerm, anchor int, includeAnchor bool, numBefore, numAfter int) (*fetchResult, error) {
	f, err := s.compileNarrow(u, terms)
	if err != nil {
		return nil, err
	}
	r := s.realm
	history := narrowIncludesHistory(s, u, terms)
	var matching []int
	for _, m := range r.Messages {
		if _, row := m.Flags[u.ID]; !row && (!history || !s.canAccessMessage(u, m)) {
			continue
		}
		if f.match(m) {
			matching = append(matching, m.ID)
		}
	}
	if anchor < 0 {
		anchor = s.firstUnreadAnchor(u, terms, f)
	}
	res := limitMessageRange(matching, anchor, includeAnchor, numBefore, numAfter)
	res.history, res.filter = history, f
	return res, nil
}

// firstUnreadAnchor is find_first_unread_anchor: the oldest unread message the
// user received that matches the narrow, leaving out topics the user muted
// (exclude_muting_conditions; muting whole channels is not modelled), or
// LARGER_THAN_MAX_MESSAGE_ID when there is none.
func (s *Server) firstUnreadAnchor(u *User, terms []narrowTerm, f *narrowFilter) int {
	r := s.realm
	channelID := 0
	for _, t := range terms {
		if t.Operator == "channel" || t.Operator == "stream" {
			if ch := narrowChannel(r, t.Operand); ch != nil {
				channelID = ch.ID
			}
			break
		}
	}
	muted := func(m *Message) bool {
		for _, ut := range r.UserTopics {
			if ut.UserID == u.ID && ut.VisibilityPolicy == PolicyMuted && ut.StreamID == m.ChannelID &&
				(channelID == 0 || ut.StreamID == channelID) && strings.EqualFold(ut.TopicName, m.Topic) {
				return true
			}
		}
		return false
	}
	for _, m := range r.Messages {
		if _, row := m.Flags[u.ID]; !row || m.HasFlag(u.ID, "read") || !f.match(m) || muted(m) {
			continue
		}
		return m.ID
	}
	return largerThanMaxMessageID
}

// limitMessageRange selects from ids (ascending) the rows Zulip's
// limit_query_to_range fetches and post_process_limited_query keeps
// (zerver/lib/narrow.py), with the same found_* answers. Every message is
// visible (no plan limits on history), so history_limited is always false.
func limitMessageRange(ids []int, anchor int, includeAnchor bool, numBefore, numAfter int) *fetchResult {
	anchoredToLeft := anchor == 0
	anchoredToRight := anchor >= largerThanMaxMessageID
	if anchoredToRight {
		numAfter = 0
	}
	rows := limitQueryToRange(ids, anchor, includeAnchor, numBefore, numAfter)
	var beforeRows, anchorRows, afterRows []int
	if anchoredToRight {
		beforeRows = rows
	} else {
		for _, id := range rows {
			switch {
			case id < anchor:
				beforeRows = append(beforeRows, id)
			case id == anchor:
				anchorRows = append(anchorRows, id)
			default:
				afterRows = append(afterRows, id)
			}
		}
	}
	if numBefore > 0 && len(beforeRows) > numBefore {
		beforeRows = beforeRows[len(beforeRows)-numBefore:]
	}
	if numAfter > 0 && len(afterRows) > numAfter {
		afterRows = afterRows[:numAfter]
	}
	out := make([]int, 0, len(beforeRows)+len(anchorRows)+len(afterRows))
	out = append(append(append(out, beforeRows...), anchorRows...), afterRows...)
	return &fetchResult{
		rows:        out,
		anchor:      anchor,
		foundAnchor: len(anchorRows) == 1,
		foundOldest: anchoredToLeft || len(beforeRows) < numBefore,
		foundNewest: anchoredToRight || len(afterRows) < numAfter,
	}
}

// limitQueryToRange is limit_query_to_range: the rows of ids (ascending)
// the query fetches around the anchor, ascending, before
// post_process_limited_query trims them. numAfter is 0 when anchored to the
// newest message.
func limitQueryToRange(ids []int, anchor int, includeAnchor bool, numBefore, numAfter int) []int {
	anchoredToLeft := anchor == 0
	anchoredToRight := anchor >= largerThanMaxMessageID
	needBefore := !anchoredToLeft && numBefore > 0
	needAfter := !anchoredToRight && numAfter > 0
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	var rows []int
	switch {
	case needBefore && needAfter:
		rows = append(idsBefore(ids, anchor-1, numBefore, true), idsAfter(ids, anchor, numAfter+1, true)...)
	case needBefore:
		limit := numBefore
		if !anchoredToRight {
			limit += b2i(includeAnchor)
		}
		rows = idsBefore(ids, anchor-b2i(!includeAnchor), limit, !anchoredToRight)
	case needAfter:
		rows = idsAfter(ids, anchor+b2i(!includeAnchor), numAfter+b2i(includeAnchor), !anchoredToLeft)
	default:
		for _, id := range ids {
			if id == anchor {
				rows = append(rows, id)
			}
		}
	}
	sort.Ints(rows)
	return rows
}

// idsBefore returns up to limit of ids (ascending) that are <= upTo (any id
// when unbounded), newest first.
func idsBefore(ids []int, upTo, limit int, bounded bool) []int {
	var out []int
	for i := len(ids) - 1; i >= 0 && len(out) < limit; i-- {
		if !bounded || ids[i] <= upTo {
			out = append(out, ids[i])
		}
	}
	return out
}

// idsAfter returns up to limit of ids (ascending) that are >= from (any id
// when unbounded), oldest first.
func idsAfter(ids []int, from, limit int, bounded bool) []int {
	var out []int
	for i := 0; i < len(ids) && len(out) < limit; i++ {
		if !bounded || ids[i] >= from {
			out = append(out, ids[i])
		}
	}
	return out
}

// narrowIncludesHistory is Zulip's ok_to_include_history (zerver/lib/narrow.py):
// messages the user did not receive are searched only when the narrow names
// one channel whose history the user can read (can_access_stream_history:
// web-public channels for everyone, guests included; otherwise shared history
// and content access) or all public channels (not for guests), and has no
// "is" term other than is:resolved.
func narrowIncludesHistory(s *Server, u *User, terms []narrowTerm) bool {
	include := false
	for _, t := range terms {
		switch {
		case (t.Operator == "channel" || t.Operator == "stream") && !t.Negated:
			ch := narrowChannel(s.realm, t.Operand)
			include = ch != nil && (ch.IsWebPublic || ch.HistoryPublicToSubscribers && s.canAccessChannelContent(u, ch))
		case (t.Operator == "channels" || t.Operator == "streams") && t.Operand == "public" && !t.Negated && !u.IsGuest():
			include = true
		}
	}
	for _, t := range terms {
		if t.Operator == "is" && t.Operand != "resolved" {
			include = false
		}
	}
	return include
}

// messagesMatchNarrow serves GET /messages/matches_narrow (digest §9.2). Like
// Zulip (messages_in_narrow_backend), it considers only messages the user
// received (UserMessage rows). A "with" term is resolved first, as for
// GET /messages.
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
	if terms, err = s.resolveWithOperator(c.user, terms); err != nil {
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

// maxMessagesPerFetch is MAX_MESSAGES_PER_FETCH of zerver/views/message_fetch.py.
const maxMessagesPerFetch = 5000

// Feature levels of GET /messages parameters this server models.
const (
	messagesByIDFL       = 300 // message_ids
	messagesEmptyTopicFL = 334 // allow_empty_topic_name
)

// messagesQuery is a GET /messages request as read: the range around the
// anchor or the message ids, the narrow, and how messages are rendered.
type messagesQuery struct {
	anchorVal                                      string
	hasAnchor, includeAnchor, useFirstUnread       bool
	numBefore, numAfter                            int
	terms                                          []narrowTerm
	clientGravatar, applyMarkdown, allowEmptyTopic bool
	byID                                           []int
	hasIDs                                         bool
	anchor                                         int
}

// getMessages serves GET /messages (get-messages; get_messages_backend in
// zerver/views/message_fetch.py) for authenticated users: a range of the
// messages matching a narrow around an anchor ("newest", "oldest",
// "first_unread" or a message id), num_before/num_after, include_anchor, and
// the legacy use_first_unread_anchor, or message_ids (FL300) instead of a
// range. apply_markdown, client_gravatar and allow_empty_topic_name shape the
// message objects. Not modelled, so reported in ignored_parameters_unsupported
// when sent: anchor_date (the newest servers' anchor "date"). Direct
// messages, reactions, edit history and submessages are not modelled either:
// those fields are empty.
func (s *Server) getMessages(c *call) (obj, error) {
	q, err := readMessagesQuery(c)
	if err != nil {
		return nil, err
	}
	if err := c.readMessagesByID(q); err != nil {
		return nil, err
	}
	if err := s.checkMessagesQuery(c, q); err != nil {
		return nil, err
	}
	var res *fetchResult
	if q.hasIDs {
		res, err = s.fetchMessagesByID(c.user, q.terms, q.byID)
	} else {
		res, err = s.fetchMessages(c.user, q.terms, q.anchor, q.includeAnchor, q.numBefore, q.numAfter)
	}
	if err != nil {
		return nil, err
	}
	r := c.realm()
	messages := make([]obj, 0, len(res.rows))
	for _, id := range res.rows {
		messages = append(messages, s.messageWire(c.user, r.message(id), res.filter, q.applyMarkdown, q.clientGravatar, q.allowEmptyTopic))
	}
	out := obj{
		"messages":        messages,
		"found_anchor":    res.foundAnchor,
		"found_oldest":    res.foundOldest,
		"found_newest":    res.foundNewest,
		"history_limited": false,
	}
	if !q.hasIDs {
		out["anchor"] = res.anchor
	}
	return out, nil
}

// readMessagesQuery reads GET /messages's range, narrow and rendering
// parameters in Zulip's order, refusing a malformed one.
func readMessagesQuery(c *call) (*messagesQuery, error) {
	q := &messagesQuery{}
	var err error
	q.anchorVal, q.hasAnchor = c.optString("anchor")
	if q.includeAnchor, err = c.optBool("include_anchor", true); err != nil {
		return nil, err
	}
	if q.numBefore, err = c.nonNegative("num_before", false); err != nil {
		return nil, err
	}
	if q.numAfter, err = c.nonNegative("num_after", false); err != nil {
		return nil, err
	}
	if rawNarrow, ok := c.optString("narrow"); ok && rawNarrow != "null" {
		if q.terms, err = parseNarrow("narrow", rawNarrow); err != nil {
			return nil, err
		}
	}
	if q.useFirstUnread, err = c.optBool("use_first_unread_anchor", false); err != nil {
		return nil, err
	}
	if q.clientGravatar, err = c.optBool("client_gravatar", true); err != nil {
		return nil, err
	}
	if q.applyMarkdown, err = c.optBool("apply_markdown", true); err != nil {
		return nil, err
	}
	if c.s.opts.FeatureLevel >= messagesEmptyTopicFL {
		if q.allowEmptyTopic, err = c.optBool("allow_empty_topic_name", false); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// readMessagesByID reads message_ids (FL300), refusing a negative id and its
// combination with a range, then the anchor when no ids were sent.
func (c *call) readMessagesByID(q *messagesQuery) error {
	if c.s.opts.FeatureLevel >= messagesByIDFL {
		var err error
		if q.hasIDs, err = c.optJSON("message_ids", &q.byID); err != nil {
			return err
		}
		q.hasIDs = q.hasIDs && q.byID != nil // JSON null is no list
		for i, id := range q.byID {
			if id < 0 {
				return errBadRequest("message_ids[%d] is too small", i)
			}
		}
	}
	if q.hasIDs && (q.numBefore != 0 || q.numAfter != 0 || q.hasAnchor || q.useFirstUnread) {
		// IncompatibleParametersError (zerver/lib/exceptions.py).
		const params = "num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor"
		return errCode(http.StatusBadRequest, "BAD_REQUEST", "Unsupported parameter combination: "+params, obj{"parameters": params})
	}
	if q.hasIDs {
		q.includeAnchor = false
		return nil
	}
	var err error
	q.anchor, err = parseAnchorValue(q.anchorVal, q.hasAnchor, q.useFirstUnread)
	return err
}

// checkMessagesQuery resolves a "with" term of the narrow, then refuses too
// many messages and an anchor excluded inside the range.
func (s *Server) checkMessagesQuery(c *call, q *messagesQuery) error {
	var err error
	if q.terms, err = s.resolveWithOperator(c.user, q.terms); err != nil {
		return err
	}
	requested := q.numBefore + q.numAfter
	if q.hasIDs {
		requested = len(q.byID)
	}
	if requested > maxMessagesPerFetch {
		return errBadRequest("Too many messages requested (maximum %d).", maxMessagesPerFetch)
	}
	if q.numBefore > 0 && q.numAfter > 0 && !q.includeAnchor {
		return errBadRequest("The anchor can only be excluded at an end of the range")
	}
	return nil
}

// fetchMessagesByID is fetch_messages with client_requested_message_ids: the
// requested messages that the narrow query finds, ascending; found_anchor,
// found_oldest and found_newest are all false.
func (s *Server) fetchMessagesByID(u *User, terms []narrowTerm, ids []int) (*fetchResult, error) {
	f, err := s.compileNarrow(u, terms)
	if err != nil {
		return nil, err
	}
	history := narrowIncludesHistory(s, u, terms)
	want := map[int]bool{}
	for _, id := range ids {
		want[id] = true
	}
	res := &fetchResult{history: history, filter: f, rows: []int{}}
	for _, m := range s.realm.Messages {
		if !want[m.ID] {
			continue
		}
		if _, row := m.Flags[u.ID]; !row && (!history || !s.canAccessMessage(u, m)) {
			continue
		}
		if f.match(m) {
			res.rows = append(res.rows, m.ID)
		}
	}
	return res, nil
}

// messageWire renders a channel message for u as messages_for_ids does: the
// user's flags (a message without a UserMessage row is read and historical),
// and match_content/match_subject when the narrow searched.
func (s *Server) messageWire(u *User, m *Message, f *narrowFilter, applyMarkdown, clientGravatar, allowEmptyTopic bool) obj {
	r := s.realm
	flags := []string{"read", "historical"}
	if row, ok := m.Flags[u.ID]; ok {
		flags = append([]string{}, row...)
	}
	content, contentType := m.Content, "text/x-markdown"
	if applyMarkdown {
		content, contentType = renderChatMarkdown(r, m.Content), "text/html"
	}
	topic := m.Topic
	if topic == "" && !allowEmptyTopic {
		topic = r.Settings.EmptyTopicDisplayName
	}
	out := obj{
		"id":                m.ID,
		"type":              "stream",
		"stream_id":         m.ChannelID,
		"display_recipient": "",
		"recipient_id":      channelRecipientID(m.ChannelID),
		"subject":           topic,
		"topic_links":       topicLinks(r, m.Topic),
		"content":           content,
		"content_type":      contentType,
		"timestamp":         m.Timestamp,
		"sender_id":         m.SenderID,
		"sender_email":      "notification-bot@zulip.com",
		"sender_full_name":  "Notification Bot",
		"sender_realm_str":  "zulipinternal",
		"avatar_url":        nil,
		"client":            "Internal",
		"is_me_message":     strings.HasPrefix(m.Content, "/me ") && !strings.Contains(m.Content, "\n"),
		"reactions":         []any{},
		"submessages":       []any{},
		"flags":             flags,
	}
	if ch := r.Channels[m.ChannelID]; ch != nil {
		out["display_recipient"] = ch.Name
	}
	if sender := r.user(m.SenderID); sender != nil {
		out["sender_email"] = r.apiEmail(sender)
		out["sender_full_name"] = sender.FullName
		out["sender_realm_str"] = realmStringID(r)
		out["avatar_url"] = avatarURL(sender, clientGravatar)
		out["client"] = "website"
	}
	s.editTimestampsWire(out, m)
	if m.isDirect() {
		s.directWire(out, m)
	}
	if f != nil && f.search != nil {
		fields := s.searchFields(f, m)
		out["match_content"] = fields["match_content"]
		out["match_subject"] = fields["match_subject"]
	}
	return out
}

// channelRecipientID is the id of a channel's Recipient row. Zulip's recipient
// ids are their own sequence; this server derives them from the channel id
// (offset so that they never look like channel ids).
func channelRecipientID(channelID int) int { return 100000 + channelID }

// realmStringID is the realm's string_id: its subdomain.
func realmStringID(r *Realm) string {
	sub, _, _ := strings.Cut(r.Host, ".")
	return sub
}

// topicLinks is the topic_links of a message: the matches of the realm's
// linkifiers in the topic, in order of position, the first linkifier winning
// where two overlap (zerver/lib/markdown topic_links).
func topicLinks(r *Realm, topic string) []obj {
	type link struct {
		start, end int
		text, url  string
	}
	var links []link
	for _, l := range r.Linkifiers {
		re, msg := linkifierCompile(l.Pattern)
		if msg != "" {
			continue
		}
		tmpl, err := uritemplate.New(l.URLTemplate)
		if err != nil {
			continue
		}
		for _, loc := range re.FindAllStringSubmatchIndex(topic, -1) {
			vals := uritemplate.Values{}
			for i, name := range re.SubexpNames() {
				if name != "" && loc[2*i] >= 0 {
					vals.Set(name, uritemplate.String(topic[loc[2*i]:loc[2*i+1]]))
				}
			}
			u, err := tmpl.Expand(vals)
			if err != nil {
				continue
			}
			links = append(links, link{start: loc[0], end: loc[1], text: topic[loc[0]:loc[1]], url: u})
		}
	}
	sort.SliceStable(links, func(i, j int) bool { return links[i].start < links[j].start })
	out := []obj{}
	end := -1
	for _, l := range links {
		if l.start < end {
			continue
		}
		out = append(out, obj{"text": l.text, "url": l.url})
		end = l.end
	}
	return out
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
	return s.postChannelNotice(ch, topic, senderID, content, func(uid int) bool { return uid == senderID }, "")
}

// postChannelNotice is internal_send_stream_message: a message delivered to
// every active subscriber, read for those read reports and unread for the
// others; kind is its Message.type ("" for a normal message).
func (s *Server) postChannelNotice(ch *Channel, topic string, senderID int, content string, read func(uid int) bool, kind string) *Message {
	r := s.realm
	m := &Message{ID: r.newID("message"), ChannelID: ch.ID, Topic: topic, SenderID: senderID,
		Content: content, Timestamp: s.now().Unix(), Flags: map[int][]string{}, Kind: kind}
	for uid := range ch.Subscribers {
		if u := r.user(uid); u == nil || !u.IsActive {
			continue
		}
		flags := []string{}
		if read(uid) {
			flags = append(flags, "read")
		}
		m.Flags[uid] = flags
	}
	r.Messages = append(r.Messages, m)
	s.emitMessage(m)
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

// seedMessages creates topics with messages, flags and mentions.
func seedMessages(r *Realm, base, _ int64) {
	type msg struct {
		ch     int
		topic  string
		sender int
		text   string
	}
	msgs := []msg{
		{SeedChannelGeneral, "welcome", SeedOwnerID, "Welcome to the organization!"},
		{SeedChannelGeneral, "welcome", SeedMemberID, "Thanks, glad to be here."},
		{SeedChannelGeneral, "lunch", SeedMember3ID, "Pizza on Friday?"},
		{SeedChannelGeneral, "releases", SeedAdminID, "Release 1.0 is out. @**Mark Member** please check the deploy."},
		{SeedChannelAnnounce, "news", SeedOwnerID, "Our new office opens in March."},
		{SeedChannelDesign, "logo", SeedOwnerID, "First logo drafts are in."},
		{SeedChannelDesign, "logo", SeedAdminID, "I like the blue one."},
		{SeedChannelLeaders, "planning", SeedOwnerID, "Q3 planning starts next week."},
		{SeedChannelArchived, "project x", SeedMemberID, "Project X is wound down."},
		{SeedChannelRandom, "cats", SeedMember2ID, "Look at this cat picture."},
		{SeedChannelRandom, "cats", SeedGuestID, "So cute! @**Maria Member**"},
		{SeedChannelDesign, "colors", SeedMemberID, "Which palette do we use for the website?"},
		{SeedChannelGeneral, "releases", SeedMember3ID, "Release notes are in the wiki."},
		{SeedChannelRandom, "", SeedMember3ID, "A message in the empty topic."},
	}
	for i, m := range msgs {
		id := i + 1
		message := &Message{ID: id, ChannelID: m.ch, Topic: m.topic, SenderID: m.sender, Content: m.text,
			Timestamp: base + int64(id)*3600, Flags: map[int][]string{}}
		for uid := range r.Channels[m.ch].Subscribers {
			var flags []string
			if uid == m.sender {
				flags = append(flags, "read")
			}
			message.Flags[uid] = flags
		}
		r.Messages = append(r.Messages, message)
	}
	// Mentions, a star, and messages read by some users.
	r.Messages[3].Flags[SeedMemberID] = []string{"mentioned"}
	r.Messages[10].Flags[SeedMember2ID] = []string{"mentioned"}
	r.Messages[0].Flags[SeedMemberID] = []string{"read", "starred"}
	r.Messages[0].Flags[SeedOwnerID] = []string{"read", "starred"}
	r.Messages[1].Flags[SeedOwnerID] = []string{"read"}
	// Mark joined "design" after its first two messages: with protected history
	// he sees only later ones.
	r.Channels[SeedChannelDesign].Subscribers[SeedMemberID] = 7
	delete(r.Messages[5].Flags, SeedMemberID)
	delete(r.Messages[6].Flags, SeedMemberID)
	r.NextID["message"] = len(msgs)
}

// Message is a channel message, or a direct message (DirectRecipients set;
// messages_write.go).
type Message struct {
	ID        int    `json:"id"`
	ChannelID int    `json:"channel_id"`
	Topic     string `json:"topic"`
	SenderID  int    `json:"sender_id"`
	Content   string `json:"content"` // Markdown source
	Timestamp int64  `json:"timestamp"`
	// Flags maps a user id to that user's flags on the message (read, starred,
	// collapsed, mentioned, has_alert_word, historical, ...). A user who received
	// the message has an entry, possibly empty.
	Flags map[int][]string `json:"flags"`
	// DirectRecipients are a direct message's users, the sender included,
	// ascending; empty for a channel message.
	DirectRecipients []int `json:"direct_recipients,omitempty"`
	// EditTimestamp is when the content was last edited (0: never).
	EditTimestamp int64 `json:"edit_timestamp,omitempty"`
	// MoveTimestamp is when the message last moved to another topic, resolving
	// and unresolving aside (0: never); TopicEditTimestamp when its topic last
	// changed, resolving included.
	MoveTimestamp      int64 `json:"move_timestamp,omitempty"`
	TopicEditTimestamp int64 `json:"topic_edit_timestamp,omitempty"`
	// Kind is Message.type where it is not a normal message
	// ("resolve_topic_notification").
	Kind string `json:"kind,omitempty"`
}

// HasFlag reports whether user has flag on the message.
func (m *Message) HasFlag(userID int, flag string) bool {
	for _, f := range m.Flags[userID] {
		if f == flag {
			return true
		}
	}
	return false
}

// ReportType is an entry of server_report_message_types.
type ReportType struct {
	Key  string `json:"key"`
	Name string `json:"name"`
}

// Register's message snapshots, after zerver/lib/events.py
// fetch_initial_state_data and post_process_state, and zerver/lib/message.py
// (get_starred_message_ids, get_raw_unread_data,
// extract_unread_data_from_um_rows, aggregate_unread_data).
const (
	maxStarredMessages   = 10000 // get_starred_message_ids's limit
	maxUnreadMessages    = 50000 // MAX_UNREAD_MESSAGES
	unreadSenderIDsMaxFL = 89    // streams' sender_ids, removed at feature level 90
	otherUserIDFL        = 119   // pms' other_user_id
	emptyTopicNameFL     = 334   // the empty_topic_name client capability
)

// registerMaxMessageID is fetch type "message": max_message_id, the newest
// message the user received (-1 for none).
func (s *Server) registerMaxMessageID(rr *registerRequest, out obj) {
	out["max_message_id"] = s.maxMessageID(rr.c.user)
}

// registerStarredMessages is fetch type "starred_messages": the ids of the
// user's starred messages, ascending (get_starred_message_ids, at most
// 10000).
func (s *Server) registerStarredMessages(rr *registerRequest, out obj) {
	ids := []int{}
	for _, m := range s.sortedMessages() {
		if len(ids) < maxStarredMessages && m.HasFlag(rr.c.user.ID, "starred") {
			ids = append(ids, m.ID)
		}
	}
	out["starred_messages"] = ids
}

// sortedMessages are the realm's messages in id order.
func (s *Server) sortedMessages() []*Message {
	msgs := append([]*Message{}, s.realm.Messages...)
	sort.Slice(msgs, func(i, j int) bool { return msgs[i].ID < msgs[j].ID })
	return msgs
}

// registerUnreadMessages is unread_msgs, which fetch_initial_state_data
// computes when both "update_message_flags" and "message" are wanted (the
// section of the first re-reads the request for the second).
func (s *Server) registerUnreadMessages(rr *registerRequest, out obj) {
	p, err := readRegisterParams(rr.c)
	if err != nil || !p.wantedFetchTypes()["message"] {
		return
	}
	allowEmpty := rr.fl >= emptyTopicNameFL && rr.capability("empty_topic_name")
	out["unread_msgs"] = s.unreadMessages(rr.c.user, rr.fl, allowEmpty)
}

// unreadKey is a conversation's key in extract_unread_data_from_um_rows's
// dictionaries: (other_user_id), (stream_id, topic) or (user_ids_string).
type unreadKey struct {
	n int
	s string
}

// unreadBuckets are extract_unread_data_from_um_rows's dictionaries: the
// object of each conversation and its message ids.
type unreadBuckets struct {
	ids  map[unreadKey][]int
	objs map[unreadKey]obj
}

func newUnreadBuckets() *unreadBuckets {
	return &unreadBuckets{ids: map[unreadKey][]int{}, objs: map[unreadKey]obj{}}
}

// add files a message id under a conversation.
func (b *unreadBuckets) add(key unreadKey, o obj, id int) {
	if _, ok := b.objs[key]; !ok {
		b.objs[key] = o
	}
	b.ids[key] = append(b.ids[key], id)
}

// list is aggregate_message_dict: one object per conversation, in key order,
// each with its message ids ascending.
func (b *unreadBuckets) list() []obj {
	keys := make([]unreadKey, 0, len(b.objs))
	for k := range b.objs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b unreadKey) int { return cmp.Or(cmp.Compare(a.n, b.n), strings.Compare(a.s, b.s)) })
	out := make([]obj, 0, len(keys))
	for _, k := range keys {
		o := b.objs[k]
		ids := append([]int{}, b.ids[k]...)
		sort.Ints(ids)
		o["unread_message_ids"] = ids
		out = append(out, o)
	}
	return out
}

// unreadRows is get_raw_unread_data's query: the user's unread messages, the
// newest 50000, leaving out the channels the user is no longer subscribed
// to (get_inactive_recipient_ids; this server does not tell a former
// subscription from none, so any channel the user is not subscribed to).
func (s *Server) unreadRows(u *User) []*Message {
	var rows []*Message
	msgs := s.sortedMessages()
	for i := len(msgs) - 1; i >= 0 && len(rows) < maxUnreadMessages; i-- {
		m := msgs[i]
		if _, row := m.Flags[u.ID]; !row || m.HasFlag(u.ID, "read") {
			continue
		}
		if ch := s.realm.Channels[m.ChannelID]; !m.isDirect() && (ch == nil || !isSubscribed(ch, u)) {
			continue
		}
		rows = append(rows, m)
	}
	slices.Reverse(rows)
	return rows
}

// topicMutedFor is extract_unread_data_from_um_rows's is_row_muted: a topic
// the user muted (channels cannot be muted on this server, so the unmuted
// and followed topics of muted channels do not arise).
func (s *Server) topicMutedFor(u *User, channelID int, topic string) bool {
	for _, t := range s.realm.UserTopics {
		if t.UserID == u.ID && t.StreamID == channelID && strings.EqualFold(t.TopicName, topic) {
			return t.VisibilityPolicy == PolicyMuted
		}
	}
	return false
}

// unreadMessages is get_raw_unread_data then aggregate_unread_data: the
// unread messages by one-on-one conversation (pms), channel topic (streams,
// muted topics included), group conversation (huddles); the mentions (direct
// ones, and wildcard ones outside muted topics); count, which leaves out muted
// topics; and whether the 50000 limit was reached.
func (s *Server) unreadMessages(u *User, fl int, allowEmptyTopic bool) obj {
	pms, streams, huddles := newUnreadBuckets(), newUnreadBuckets(), newUnreadBuckets()
	mentions := []int{}
	count := 0
	rows := s.unreadRows(u)
	senders := map[unreadKey]map[int]bool{}
	for _, m := range rows {
		muted := false
		switch ids := m.DirectRecipients; {
		case !m.isDirect():
			muted = s.topicMutedFor(u, m.ChannelID, m.Topic)
			topic := m.Topic
			if topic == "" && !allowEmptyTopic {
				topic = s.realm.Settings.EmptyTopicDisplayName
			}
			key := unreadKey{m.ChannelID, m.Topic}
			streams.add(key, obj{"stream_id": m.ChannelID, "topic": topic}, m.ID)
			if senders[key] == nil {
				senders[key] = map[int]bool{}
			}
			senders[key][m.SenderID] = true
		case len(ids) <= 2:
			other := u.ID
			for _, id := range ids {
				if id != u.ID {
					other = id
				}
			}
			pm := obj{"sender_id": other}
			if fl >= otherUserIDFL {
				pm["other_user_id"] = other
			}
			pms.add(unreadKey{n: other}, pm, m.ID)
		default:
			parts := make([]string, len(ids))
			for i, id := range ids {
				parts[i] = strconv.Itoa(id)
			}
			key := strings.Join(parts, ",") // ids are ascending
			huddles.add(unreadKey{s: key}, obj{"user_ids_string": key}, m.ID)
		}
		if !muted {
			count++
		}
		wildcard := m.HasFlag(u.ID, "stream_wildcard_mentioned") || m.HasFlag(u.ID, "topic_wildcard_mentioned")
		if m.HasFlag(u.ID, "mentioned") || wildcard && !muted {
			mentions = append(mentions, m.ID)
		}
	}
	if fl <= unreadSenderIDsMaxFL {
		for key, o := range streams.objs {
			var ids []int
			for id := range senders[key] {
				ids = append(ids, id)
			}
			sort.Ints(ids)
			o["sender_ids"] = ids
		}
	}
	return obj{
		"count":               count,
		"pms":                 pms.list(),
		"streams":             streams.list(),
		"huddles":             huddles.list(),
		"mentions":            mentions,
		"old_unreads_missing": len(rows) == maxUnreadMessages,
	}
}
