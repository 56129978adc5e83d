package refserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Sending, fetching, editing and deleting messages (POST /messages, GET,
// PATCH and DELETE /messages/{message_id}), after newest Zulip's
// zerver/views/message_send.py (send_message_backend),
// zerver/actions/message_send.py (check_send_message, check_message,
// extract_stream_indicator, extract_private_recipients,
// check_can_send_direct_message), zerver/lib/addressee.py
// (Addressee.legacy_build), zerver/lib/streams.py
// (access_stream_for_send_message, check_for_can_create_topic_group_violation,
// can_delete_any_message_in_channel, can_delete_own_message_in_channel),
// zerver/lib/message.py (access_message, has_message_access, normalize_body),
// zerver/views/message_edit.py (update_message_backend,
// validate_can_delete_message, delete_message_backend,
// json_fetch_raw_message) and zerver/actions/message_edit.py
// (check_update_message, validate_user_can_edit_message,
// validate_message_edit_payload). Choices where the model is smaller than
// Zulip:
//   - PATCH /messages edits content and moves messages to another topic of
//     their channel (messages_move.go); moving them to another channel is not
//     modelled: stream_id is not read, so it is reported in
//     ignored_parameters_unsupported;
//   - wildcard and group mentions are not checked (every user may use them);
//     @**Full Name** and @**Full Name|id** mentions set the mentioned flag;
//   - widgets, forged senders, local echo (queue_id, local_id) and edit
//     history are not modelled; an edited message carries
//     last_edit_timestamp;
//   - the client is told by the User-Agent's first word, as Zulip's
//     parse_client does, which decides read_by_sender's default
//     (Client.default_read_by_sender);
//   - delete_message events carry message_ids, the bulk_message_deletion
//     form every current client declares.

func init() {
	registerArea("messages_write", area{routes: (*Server).routesMessageWrites})
}

// Feature levels of the modelled behaviour.
const (
	messageURLFL            = 508 // message_url and message_link in POST /messages
	detachedUploadsFL       = 285 // detached_uploads in PATCH /messages
	prevContentSHA256FL     = 379 // prev_content_sha256
	readBySenderFL          = 236 // read_by_sender
	channelTypeFL           = 248 // type "channel"
	directTypeFL            = 174 // type "direct"
	generalChatAliasFL      = 370 // "(no topic)" and the display name mean ""
	defaultMaxMessageLength = 10000
	editLimitBufferSecs     = 20
	messageTruncatedNote    = "\n[message truncated]"
)

// routesMessageWrites registers the endpoints.
func (s *Server) routesMessageWrites() {
	s.handle("POST /messages", authUser, s.sendMessage)
	s.handle("GET /messages/{message_id}", authUser, s.getMessage)
	s.handle("PATCH /messages/{message_id}", authUser, s.updateMessage)
	s.handle("DELETE /messages/{message_id}", authUser, s.deleteMessage)
}

// isDirect reports whether the message is a direct message.
func (m *Message) isDirect() bool { return len(m.DirectRecipients) > 0 }

// limitSeconds reads a realm time limit (register form: a number, or null
// for no limit).
func (r *Realm) limitSeconds(name string) (int, bool) {
	switch v := r.Setting(name).(type) {
	case int:
		return v, true
	case float64:
		return int(v), true
	case int64:
		return int(v), true
	}
	return 0, false
}

// realmBool reads a boolean organization setting.
func (r *Realm) realmBool(name string) bool {
	b, _ := r.Setting(name).(bool)
	return b
}

// channelTopicsPolicy is get_stream_topics_policy: the channel's own policy,
// or the organization's where the channel inherits it.
func (r *Realm) channelTopicsPolicy(ch *Channel) string {
	if ch.TopicsPolicy != "" && ch.TopicsPolicy != "inherit" {
		return ch.TopicsPolicy
	}
	if p, ok := r.Setting("topics_policy").(string); ok && p != "" {
		return p
	}
	return "allow_empty_topic"
}

// hasChannelPermission is user_has_permission_for_group_setting on a channel setting.
func (s *Server) hasChannelPermission(ch *Channel, name string, u *User) bool {
	return s.realm.userHasPermission(s.channelSetting(ch, name), channelPermissionConfigs[name], u)
}

// settingIsSystemGroup reports whether a setting names the system group.
func (r *Realm) settingIsSystemGroup(v GroupSetting, name string) bool {
	v = r.canonicalSetting(v)
	return v.GroupID != 0 && v.GroupID == r.systemGroupID(name)
}

// accessMessage is access_message with has_message_access: direct messages
// to those who received them; channel messages of public channels to every
// non-guest; of channels with protected history to subscribers (or members of
// groups granting content access) who received them; otherwise to those with
// content access. A message being modified must be in an active channel.
func (s *Server) accessMessage(u *User, id int, modifying bool) (*Message, error) {
	m := s.realm.message(id)
	if m == nil || !s.hasMessageAccess(u, m, modifying) {
		return nil, errBadRequest("Invalid message(s)")
	}
	return m, nil
}

// hasMessageAccess is zerver/lib/message.py has_message_access.
func (s *Server) hasMessageAccess(u *User, m *Message, modifying bool) bool {
	_, row := m.Flags[u.ID]
	if m.isDirect() {
		return row
	}
	ch := s.realm.Channels[m.ChannelID]
	if ch == nil || modifying && ch.IsArchived {
		return false
	}
	if !ch.InviteOnly && !u.IsGuest() {
		return true
	}
	content := s.channelContentAccess(u, ch)
	if !ch.HistoryPublicToSubscribers {
		return row && content
	}
	return content
}

// channelContentAccess is has_message_access's content access to a channel
// that is private or seen by a guest: subscribers, and non-guests in its
// can_add_subscribers_group or can_subscribe_group.
func (s *Server) channelContentAccess(u *User, ch *Channel) bool {
	return isSubscribed(ch, u) || !u.IsGuest() &&
		(s.channelSettingHas(ch, "can_add_subscribers_group", u) || s.channelSettingHas(ch, "can_subscribe_group", u))
}

// clientName is Zulip's parse_client: the User-Agent's first word (before a
// slash), or the client parameter.
func (c *call) clientName() string {
	if v, ok := c.params["client"]; ok && len(v) > 0 {
		return v[len(v)-1]
	}
	ua := c.r.Header.Get("User-Agent")
	name, _, _ := strings.Cut(ua, "/")
	name, _, _ = strings.Cut(name, " ")
	if name == "" {
		return "Unspecified"
	}
	return name
}

// defaultReadBySender is Client.default_read_by_sender: messages sent from
// Zulip's own apps are read for their sender, those of API clients not.
func defaultReadBySender(client string) bool {
	name := strings.ToLower(client)
	switch name {
	case "zulipandroid", "zulipios", "zulipdesktop", "zulipmobile", "zulipelectron", "zulipterminal", "snipe", "website", "ios", "android":
		return true
	}
	return strings.Contains(name, "desktop app") || strings.Contains(name, "zulipmobile")
}

// maxMessageLength is the server's MAX_MESSAGE_LENGTH (register's
// max_message_length): RealmSettings.MaxMessageLength, or Zulip's default.
func (r *Realm) maxMessageLength() int {
	if r.Settings.MaxMessageLength > 0 {
		return r.Settings.MaxMessageLength
	}
	return defaultMaxMessageLength
}

// normalizeBody is normalize_body: trailing whitespace and leading newlines
// go, an empty message is refused, and one longer than maxLength truncated.
func normalizeBody(body string, maxLength int) (string, error) {
	body = strings.TrimLeft(strings.TrimRight(body, " \t\n\r\v\f"), "\n")
	if body == "" {
		return "", errBadRequest("Message must not be empty")
	}
	if strings.ContainsRune(body, 0) {
		return "", errBadRequest("Message must not contain null bytes")
	}
	if utf8.RuneCountInString(body) > maxLength {
		keep := maxLength - utf8.RuneCountInString(messageTruncatedNote)
		body = string([]rune(body)[:keep]) + messageTruncatedNote
	}
	return body, nil
}

// topicParam reads OptionalTopic: "topic", or its legacy alias "subject",
// stripped; "(no topic)" and the empty topic's display name are the empty
// topic from feature level 370 (maybe_rename_general_chat_to_empty_topic).
func (c *call) topicParam() (string, bool) {
	t, ok := c.optString("topic")
	if !ok {
		if t, ok = c.optString("subject"); !ok {
			return "", false
		}
	}
	t = strings.TrimSpace(t)
	if c.s.opts.FeatureLevel >= generalChatAliasFL && (t == "(no topic)" || t == c.realm().Settings.EmptyTopicDisplayName) {
		t = ""
	}
	return t, true
}

// messageSend is a POST /messages request as read: the content, whether the
// sender has read it, the addressee ("to", "type", topic).
type messageSend struct {
	content      string
	readBySender bool
	to           string
	hasTo        bool
	typ          string // "stream" or "private"
	topic        string
	hasTopic     bool
}

// sendMessage is send_message_backend with check_send_message.
func (s *Server) sendMessage(c *call) (obj, error) {
	p, err := s.readMessageSend(c)
	if err != nil {
		return nil, err
	}
	var m *Message
	if p.typ == "stream" {
		m, err = s.sendChannelMessage(c, p)
	} else {
		m, err = s.sendDirectMessage(c, p)
	}
	if err != nil {
		return nil, err
	}
	return s.sentAnswer(c, m), nil
}

// readMessageSend reads POST /messages's parameters in Zulip's order,
// refusing a malformed one and an unknown type; "channel" and "direct"
// (from their feature levels) become "stream" and "private".
func (s *Server) readMessageSend(c *call) (*messageSend, error) {
	p := &messageSend{}
	var err error
	if p.content, err = c.reqString("content"); err != nil {
		return nil, err
	}
	p.readBySender = defaultReadBySender(c.clientName())
	if s.opts.FeatureLevel >= readBySenderFL {
		var rbs *bool
		if _, err := c.optJSON("read_by_sender", &rbs); err != nil {
			return nil, err
		}
		if rbs != nil {
			p.readBySender = *rbs
		}
	}
	p.to, p.hasTo = c.optString("to")
	if p.typ, err = c.reqString("type"); err != nil {
		return nil, err
	}
	switch {
	case p.typ == "stream" || p.typ == "private":
	case p.typ == "channel" && s.opts.FeatureLevel >= channelTypeFL:
		p.typ = "stream"
	case p.typ == "direct" && s.opts.FeatureLevel >= directTypeFL:
		p.typ = "private"
	default:
		return nil, errBadRequest("Invalid type")
	}
	p.topic, p.hasTopic = c.topicParam()
	return p, nil
}

// sendChannelMessage checks and delivers a channel message in Zulip's
// order: the addressee (Addressee.legacy_build), the content, the channel,
// the sender's access, the topic's creation and the channel's topics
// policy.
func (s *Server) sendChannelMessage(c *call, p *messageSend) (*Message, error) {
	r := c.realm()
	sender := c.user
	var target any // a channel name or id
	if p.hasTo {
		var err error
		if target, err = extractStreamIndicator(p.to); err != nil {
			return nil, err
		}
	}
	if target == nil {
		return nil, errBadRequest("Missing channel")
	}
	if !p.hasTopic {
		return nil, errBadRequest("Missing topic")
	}
	body, err := normalizeBody(p.content, s.realm.maxMessageLength())
	if err != nil {
		return nil, err
	}
	topic := truncateTopic(r, p.topic)
	ch, err := s.channelForSending(target)
	if err != nil {
		return nil, err
	}
	if err := s.accessChannelForSending(sender, ch); err != nil {
		return nil, err
	}
	if err := s.checkTopicCreation(sender, ch, topic); err != nil {
		return nil, err
	}
	display := r.Settings.EmptyTopicDisplayName
	switch policy := r.channelTopicsPolicy(ch); {
	case policy == "disable_empty_topic" && topic == "":
		return nil, errBadRequest("Sending messages to the %s topic is not allowed in this channel.", display)
	case policy == "empty_topic_only" && topic != "":
		return nil, errBadRequest("Only the %s topic is allowed in this channel.", display)
	}
	return s.deliverChannelMessage(ch, topic, sender, body, p.readBySender), nil
}

// sendDirectMessage checks and delivers a direct message in Zulip's order:
// the recipients, the content, the conversation and whether the sender may
// write to it.
func (s *Server) sendDirectMessage(c *call, p *messageSend) (*Message, error) {
	sender := c.user
	var recipients []*User
	if p.hasTo {
		var err error
		if recipients, err = s.privateRecipients(p.to); err != nil {
			return nil, err
		}
	}
	if len(recipients) == 0 {
		return nil, errBadRequest("Message must have recipients")
	}
	body, err := normalizeBody(p.content, s.realm.maxMessageLength())
	if err != nil {
		return nil, err
	}
	ids, err := s.directConversation(sender, recipients)
	if err != nil {
		return nil, err
	}
	if err := s.checkCanSendDirect(sender, recipients, ids); err != nil {
		return nil, err
	}
	return s.deliverDirectMessage(ids, sender, body, p.readBySender), nil
}

// extractStreamIndicator is extract_stream_indicator: a channel id, a name,
// or either JSON-encoded (a one-element list too).
func extractStreamIndicator(s string) (any, error) {
	if !json.Valid([]byte(s)) {
		return s, nil // not JSON: a plain channel name
	}
	var data any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	_ = dec.Decode(&data) // valid JSON
	if list, ok := data.([]any); ok {
		if len(list) != 1 {
			return nil, errBadRequest("Expected exactly one channel")
		}
		data = list[0]
	}
	switch v := data.(type) {
	case string:
		return v, nil
	case json.Number:
		if n, err := strconv.Atoi(v.String()); err == nil {
			return n, nil
		}
	}
	return nil, errBadRequest("Invalid data type for channel")
}

// channelForSending is validate_stream_name_with_pm_notification and
// validate_stream_id_with_pm_notification: the channel, archived ones
// included (the Notification Bot's note to a bot's owner is not modelled).
func (s *Server) channelForSending(target any) (*Channel, error) {
	r := s.realm
	if id, ok := target.(int); ok {
		if ch := r.Channels[id]; ch != nil {
			return ch, nil
		}
		return nil, errCode(400, "STREAM_DOES_NOT_EXIST", fmt.Sprintf("Channel with ID '%d' does not exist", id), obj{"stream_id": id})
	}
	str, _ := target.(string)
	name := strings.TrimSpace(str)
	if name == "" {
		return nil, errBadRequest("Channel name can't be empty.")
	}
	if ch := r.channelByName(name); ch != nil {
		return ch, nil
	}
	escaped := html.EscapeString(name)
	return nil, errCode(400, "STREAM_DOES_NOT_EXIST", fmt.Sprintf("Channel '%s' does not exist", escaped), obj{"stream": escaped})
}

// canSendToChannel is check_stream_access_based_on_can_send_message_group.
func (s *Server) canSendToChannel(u *User, ch *Channel) bool {
	v := s.channelSetting(ch, "can_send_message_group")
	switch {
	case s.realm.settingIsSystemGroup(v, sysEveryone):
		return true
	case s.realm.settingIsSystemGroup(v, sysNobody):
		return false
	}
	return s.hasChannelPermission(ch, "can_send_message_group", u)
}

// accessChannelForSending is access_stream_for_send_message: the channel's
// can_send_message_group (a bot may post where its owner may), then access
// to an active channel.
func (s *Server) accessChannelForSending(u *User, ch *Channel) error {
	owner := s.realm.user(u.BotOwnerID)
	ownerMay := u.IsBot && owner != nil && s.canSendToChannel(owner, ch)
	if !s.canSendToChannel(u, ch) && !ownerMay {
		return errBadRequest("You do not have permission to post in this channel.")
	}
	denied := errBadRequest("Not authorized to send to channel '%s'", ch.Name)
	switch {
	case ch.IsArchived:
		return denied
	case ch.IsWebPublic, !ch.InviteOnly && !u.IsGuest(), isSubscribed(ch, u):
		return nil
	case u.IsBot && owner != nil && isSubscribed(ch, owner):
		return nil
	case ch.HistoryPublicToSubscribers && !u.IsGuest() &&
		(s.channelSettingHas(ch, "can_add_subscribers_group", u) || s.channelSettingHas(ch, "can_subscribe_group", u)):
		return nil
	}
	return denied
}

// checkTopicCreation is check_for_can_create_topic_group_violation: a topic
// that has no message yet needs can_create_topic_group (a bot's owner's will
// do).
func (s *Server) checkTopicCreation(u *User, ch *Channel, topic string) error {
	r := s.realm
	v := s.channelSetting(ch, "can_create_topic_group")
	if r.settingIsSystemGroup(v, sysEveryone) {
		return nil
	}
	for _, m := range r.Messages {
		if m.ChannelID == ch.ID && !m.isDirect() && strings.EqualFold(m.Topic, topic) {
			return nil
		}
	}
	can := func(u *User) bool {
		return !r.settingIsSystemGroup(v, sysNobody) && s.hasChannelPermission(ch, "can_create_topic_group", u)
	}
	owner := r.user(u.BotOwnerID)
	if can(u) || u.IsBot && owner != nil && can(owner) {
		return nil
	}
	return errBadRequest("You do not have permission to create new topics in this channel.")
}

// privateRecipients is extract_private_recipients with Addressee's lookups:
// a JSON list of ids or of e-mail addresses, or comma-separated addresses.
func (s *Server) privateRecipients(to string) ([]*User, error) {
	var data any = to // not JSON: comma-separated addresses
	if json.Valid([]byte(to)) {
		dec := json.NewDecoder(strings.NewReader(to))
		dec.UseNumber()
		_ = dec.Decode(&data)
	}
	if str, ok := data.(string); ok {
		var list []any
		for _, part := range strings.Split(str, ",") {
			list = append(list, part)
		}
		data = list
	}
	list, ok := data.([]any)
	if !ok {
		return nil, errBadRequest("Invalid data type for recipients")
	}
	if len(list) == 0 {
		return nil, nil
	}
	r := s.realm
	var out []*User
	switch list[0].(type) {
	case string:
		seen := map[string]bool{}
		for _, e := range list {
			email, ok := e.(string)
			if !ok {
				return nil, errBadRequest("Recipient lists may contain emails or user IDs, but not both.")
			}
			email = strings.TrimSpace(email)
			if email == "" || seen[strings.ToLower(email)] {
				continue
			}
			seen[strings.ToLower(email)] = true
			var found *User
			for _, id := range r.userIDs() {
				if equalFoldASCII(r.apiEmail(r.Users[id]), email) {
					found = r.Users[id]
				}
			}
			if found == nil {
				return nil, errBadRequest("Invalid email '%s'", email)
			}
			out = append(out, found)
		}
	case json.Number:
		seen := map[int]bool{}
		for _, e := range list {
			n, ok := e.(json.Number)
			id, err := strconv.Atoi(n.String())
			if !ok || err != nil {
				return nil, errBadRequest("Recipient lists may contain emails or user IDs, but not both.")
			}
			if seen[id] {
				continue
			}
			seen[id] = true
			u := r.user(id)
			if u == nil {
				return nil, errBadRequest("Invalid user ID %d", id)
			}
			out = append(out, u)
		}
	default:
		return nil, errBadRequest("Invalid data type for recipients")
	}
	return out, nil
}

// directConversation is recipient_for_user_profiles: the conversation's user
// ids, ascending, the sender included; a deactivated recipient is refused.
func (s *Server) directConversation(sender *User, recipients []*User) ([]int, error) {
	set := map[int]bool{sender.ID: true}
	for _, u := range recipients {
		if !u.IsActive {
			return nil, errBadRequest("'%s' is no longer using Zulip.", s.realm.apiEmail(u))
		}
		set[u.ID] = true
	}
	ids := make([]int, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids, nil
}

// checkCanSendDirect is check_can_send_direct_message: someone in the
// conversation must be in direct_message_permission_group, and the sender in
// direct_message_initiator_group unless the conversation already exists.
// Bots, and conversations with bots or oneself only, are exempt.
func (s *Server) checkCanSendDirect(sender *User, recipients []*User, ids []int) error {
	r := s.realm
	if sender.IsBot {
		return nil
	}
	onlyBots := true
	for _, u := range recipients {
		onlyBots = onlyBots && (u.IsBot || u.ID == sender.ID)
	}
	if onlyBots {
		return nil
	}
	perm := r.Settings.GroupSettings["direct_message_permission_group"]
	allowed := false
	for _, id := range ids {
		allowed = allowed || r.hasRealmPermission("direct_message_permission_group", r.user(id))
	}
	if !allowed {
		if r.settingIsSystemGroup(perm, sysNobody) {
			return errBadRequest("Direct messages are disabled in this organization.")
		}
		return errBadRequest("This conversation does not include any users who can authorize it.")
	}
	if r.hasRealmPermission("direct_message_initiator_group", sender) {
		return nil
	}
	for _, m := range r.Messages {
		if m.isDirect() && sameIntSet(m.DirectRecipients, ids) {
			return nil
		}
	}
	return errBadRequest("You do not have permission to initiate direct message conversations.")
}

// mentionRE finds @**Full Name** and @**Full Name|id** (silent mentions,
// @_**...**, notify nobody).
var mentionRE = regexp.MustCompile(`(^|[^_])@\*\*([^*|]+)(?:\|(\d+))?\*\*`)

// mentionedUsers is the set of user ids a message mentions.
func (r *Realm) mentionedUsers(content string) map[int]bool {
	out := map[int]bool{}
	for _, m := range mentionRE.FindAllStringSubmatch(content, -1) {
		if m[3] != "" {
			if id, err := strconv.Atoi(m[3]); err == nil && r.user(id) != nil {
				out[id] = true
			}
			continue
		}
		for _, id := range r.userIDs() {
			if u := r.Users[id]; u.IsActive && u.FullName == m[2] {
				out[id] = true
			}
		}
	}
	return out
}

// messageFlagsFor are a new message's flags for a recipient.
func messageFlagsFor(uid int, sender *User, readBySender bool, mentioned map[int]bool) []string {
	flags := []string{}
	if uid == sender.ID && readBySender {
		flags = append(flags, "read")
	}
	if mentioned[uid] && uid != sender.ID {
		flags = append(flags, "mentioned")
	}
	return flags
}

// deliverChannelMessage saves a channel message (do_send_messages): every
// active subscriber and the sender receive it; the message event follows.
func (s *Server) deliverChannelMessage(ch *Channel, topic string, sender *User, body string, readBySender bool) *Message {
	r := s.realm
	m := &Message{ID: r.newID("message"), ChannelID: ch.ID, Topic: topic, SenderID: sender.ID,
		Content: body, Timestamp: s.now().Unix(), Flags: map[int][]string{}}
	mentioned := r.mentionedUsers(body)
	for uid := range ch.Subscribers {
		if u := r.user(uid); u != nil && u.IsActive {
			m.Flags[uid] = messageFlagsFor(uid, sender, readBySender, mentioned)
		}
	}
	m.Flags[sender.ID] = messageFlagsFor(sender.ID, sender, readBySender, mentioned)
	r.Messages = append(r.Messages, m)
	s.emitMessage(m)
	return m
}

// deliverDirectMessage saves a direct message for its conversation.
func (s *Server) deliverDirectMessage(ids []int, sender *User, body string, readBySender bool) *Message {
	r := s.realm
	m := &Message{ID: r.newID("message"), SenderID: sender.ID, Content: body, Timestamp: s.now().Unix(),
		Flags: map[int][]string{}, DirectRecipients: ids}
	mentioned := r.mentionedUsers(body)
	for _, uid := range ids {
		m.Flags[uid] = messageFlagsFor(uid, sender, readBySender, mentioned)
	}
	r.Messages = append(r.Messages, m)
	s.emitMessage(m)
	return m
}

// sentAnswer is send_message_backend's answer: the id, and from feature level
// 508 the message's URL and Markdown link.
func (s *Server) sentAnswer(c *call, m *Message) obj {
	out := obj{"id": m.ID}
	if s.opts.FeatureLevel < messageURLFL {
		return out
	}
	base := realmURL(c.r)
	if m.isDirect() {
		u := base + "/#narrow/dm/" + s.directSlug(c.user, m) + "/near/" + strconv.Itoa(m.ID)
		out["message_url"], out["message_link"] = u, u
		return out
	}
	ch := s.realm.Channels[m.ChannelID]
	if !s.canAccessChannelMetadata(c.user, ch) {
		u := base + "/#narrow/channel/" + strconv.Itoa(ch.ID) + "/topic/" + encodeHashComponent(m.Topic) + "/near/" + strconv.Itoa(m.ID)
		out["message_url"], out["message_link"] = u, u
		return out
	}
	u := channelTopicURL(base, ch, m.Topic) + "/near/" + strconv.Itoa(m.ID)
	topic := m.Topic
	if topic == "" {
		topic = s.realm.Settings.EmptyTopicDisplayName
	}
	out["message_url"] = u
	out["message_link"] = fmt.Sprintf("[#%s > %s @ 💬](%s)", ch.Name, topic, u)
	return out
}

// channelTopicURL is a topic's narrow URL (stream_topic_url's form):
// /#narrow/channel/<id>-<name>/topic/<topic>, hash-encoded.
func channelTopicURL(base string, ch *Channel, topic string) string {
	return base + "/#narrow/channel/" + strconv.Itoa(ch.ID) + "-" + encodeHashComponent(strings.ReplaceAll(ch.Name, " ", "-")) +
		"/topic/" + encodeHashComponent(topic)
}

// slugJunk is what personal_narrow_url replaces in a name.
var slugJunk = regexp.MustCompile("[ \"%/<>`\\p{C}]+")

// directSlug is the narrow of a direct message as its viewer links it: the
// other user's id and name, or the other users' ids and "group"
// (zerver/lib/url_encoding.py personal_narrow_url, direct_message_group_narrow_url).
func (s *Server) directSlug(viewer *User, m *Message) string {
	var others []string
	var other *User
	for _, id := range m.DirectRecipients {
		if id != viewer.ID {
			others = append(others, strconv.Itoa(id))
			other = s.realm.user(id)
		}
	}
	switch {
	case len(others) == 0:
		return strconv.Itoa(viewer.ID) + "-" + slugJunk.ReplaceAllString(viewer.FullName, "-")
	case len(others) == 1:
		return others[0] + "-" + slugJunk.ReplaceAllString(other.FullName, "-")
	}
	return strings.Join(others, ",") + "-group"
}

// encodeHashComponent is Zulip's encode_hash_component: percent-encoding
// with "." in place of "%" (and "." itself encoded first).
func encodeHashComponent(s string) string {
	q := url.PathEscape(s)
	// PathEscape keeps some sub-delimiters that Python's quote(safe="") escapes.
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		ch := q[i]
		if ch == '%' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.IndexByte("-_.~", ch) >= 0 {
			b.WriteByte(ch)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", ch)
	}
	return strings.ReplaceAll(strings.ReplaceAll(b.String(), ".", "%2E"), "%", ".")
}

// directWire completes a message's wire form for a direct message.
func (s *Server) directWire(out obj, m *Message) {
	r := s.realm
	users := []obj{}
	for _, id := range m.DirectRecipients {
		if u := r.user(id); u != nil {
			users = append(users, obj{"id": u.ID, "email": r.apiEmail(u), "full_name": u.FullName, "is_mirror_dummy": false})
		}
	}
	out["type"] = "private"
	out["display_recipient"] = users
	out["subject"] = ""
	out["topic_links"] = []obj{}
	out["recipient_id"] = directRecipientID(r, m)
	delete(out, "stream_id")
}

// directRecipientID is a direct message's recipient id: the receiving
// user's personal recipient for two people (or oneself), else the group's,
// numbered after its first message. Like channelRecipientID, a number of
// this server's own.
func directRecipientID(r *Realm, m *Message) int {
	ids := m.DirectRecipients
	switch len(ids) {
	case 1:
		return 200000 + ids[0]
	case 2:
		if ids[0] == m.SenderID {
			return 200000 + ids[1]
		}
		return 200000 + ids[0]
	}
	for _, other := range r.Messages {
		if other.isDirect() && sameIntSet(other.DirectRecipients, ids) {
			return 300000 + other.ID
		}
	}
	return 300000 + m.ID
}

// getMessage is json_fetch_raw_message for an authenticated user.
func (s *Server) getMessage(c *call) (obj, error) {
	id, err := c.pathInt("message_id")
	if err != nil {
		return nil, err
	}
	allowEmpty := false
	if s.opts.FeatureLevel >= messagesEmptyTopicFL {
		if allowEmpty, err = c.optBool("allow_empty_topic_name", false); err != nil {
			return nil, err
		}
	}
	applyMarkdown, err := c.optBool("apply_markdown", true)
	if err != nil {
		return nil, err
	}
	m, err := s.accessMessage(c.user, id, false)
	if err != nil {
		return nil, err
	}
	return obj{"message": s.messageWire(c.user, m, nil, applyMarkdown, true, allowEmpty), "raw_content": m.Content}, nil
}

// messageEdit is a PATCH /messages/{message_id} request as read: the new
// content, the hash of the content it expects, the new topic, the propagate
// mode and which topics hear of a move.
type messageEdit struct {
	id                   int
	content              string
	hasContent           bool
	prevSHA              string
	hasPrev              bool
	topic                string
	hasTopic             bool
	propagate            string
	notifyOld, notifyNew bool
}

// updateMessage is update_message_backend with check_update_message, its
// checks in their order: access, the permission to edit the content, the
// payload (validate_message_edit_payload), the request
// (build_message_edit_request), the permission to move (messages_move.go),
// then do_update_message.
func (s *Server) updateMessage(c *call) (obj, error) {
	e, err := s.readMessageEdit(c)
	if err != nil {
		return nil, err
	}
	m, err := s.accessMessage(c.user, e.id, true)
	if err != nil {
		return nil, err
	}
	if e.hasContent {
		if err := s.checkCanEditMessage(c.user, m); err != nil {
			return nil, err
		}
	}
	if e.hasTopic && e.topic == m.Topic {
		e.hasTopic = false // the topic it has: no topic change
	}
	if err := validateMessageEditPayload(m, e); err != nil {
		return nil, err
	}
	q, err := s.buildMessageEdit(m, e)
	if err != nil {
		return nil, err
	}
	if err := s.checkMessageMove(c.user, m, q); err != nil {
		return nil, err
	}
	s.doUpdateMessage(c.user, m, q, realmURL(c.r))
	out := obj{}
	if s.opts.FeatureLevel >= detachedUploadsFL {
		out["detached_uploads"] = []any{}
	}
	return out, nil
}

// readMessageEdit reads PATCH /messages/{message_id}'s parameters in
// Zulip's order, refusing a malformed one and an unknown propagate mode.
func (s *Server) readMessageEdit(c *call) (*messageEdit, error) {
	e := &messageEdit{}
	var err error
	if e.id, err = c.pathInt("message_id"); err != nil {
		return nil, err
	}
	e.topic, e.hasTopic = c.topicParam()
	propagate, ok := c.optString("propagate_mode")
	if !ok {
		propagate = "change_one"
	} else if propagate != "change_later" && propagate != "change_one" && propagate != "change_all" {
		return nil, errBadRequest("Invalid propagate_mode")
	}
	e.propagate = propagate
	if e.notifyOld, err = c.optBool("send_notification_to_old_thread", false); err != nil {
		return nil, err
	}
	if e.notifyNew, err = c.optBool("send_notification_to_new_thread", true); err != nil {
		return nil, err
	}
	e.content, e.hasContent = c.optString("content")
	if s.opts.FeatureLevel >= prevContentSHA256FL {
		e.prevSHA, e.hasPrev = c.optString("prev_content_sha256")
	}
	return e, nil
}

// sha256Hex is Zulip's sha256_hash: the hexadecimal SHA-256 of a text.
func sha256Hex(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// checkCanEditMessage is validate_user_can_edit_message: editing must be on,
// the message one's own, and within message_content_edit_limit_seconds (plus
// Zulip's 20 seconds of grace).
func (s *Server) checkCanEditMessage(u *User, m *Message) error {
	r := s.realm
	if !r.realmBool("allow_message_editing") {
		return errBadRequest("Your organization has turned off message editing")
	}
	if m.SenderID != u.ID {
		return errBadRequest("You don't have permission to edit this message")
	}
	if limit, ok := r.limitSeconds("message_content_edit_limit_seconds"); ok &&
		s.now().Unix()-m.Timestamp > int64(limit+editLimitBufferSecs) {
		return errBadRequest("The time limit for editing this message has passed")
	}
	return nil
}

// doUpdateMessage is do_update_message: the content edit (mentions
// recomputed), the topic move, the update_message event, then for a move
// the resolve notice and the Notification Bot's breadcrumbs.
func (s *Server) doUpdateMessage(editor *User, m *Message, q *messageEditRequest, base string) {
	r := s.realm
	now := s.now().Unix()
	ev := obj{"type": "update_message", "user_id": editor.ID, "edit_timestamp": now,
		"message_id": m.ID, "rendering_only": false}
	if q.hasContent {
		orig := m.Content
		m.Content = q.body
		m.EditTimestamp = now
		mentioned := r.mentionedUsers(q.body)
		for uid, flags := range m.Flags {
			m.Flags[uid] = setMessageFlag(flags, "mentioned", mentioned[uid] && uid != m.SenderID)
		}
		ev["orig_content"], ev["orig_rendered_content"] = orig, renderChatMarkdown(r, orig)
		ev["content"], ev["rendered_content"] = m.Content, renderChatMarkdown(r, m.Content)
		ev["is_me_message"] = strings.HasPrefix(m.Content, "/me ") && !strings.Contains(m.Content, "\n")
	}
	if m.isDirect() {
		ev["message_ids"] = []int{m.ID}
		s.emitMessageUpdate(m, ev, false)
		return
	}
	ev["stream_name"], ev["stream_id"] = q.ch.Name, q.ch.ID
	q.changed = []*Message{m}
	if q.topicEdited {
		s.moveTopic(editor, m, q, now)
		ev["propagate_mode"] = q.propagate
		ev["orig_subject"], ev["subject"] = r.topicDisplay(q.origTopic), r.topicDisplay(q.target)
		ev["topic_links"] = topicLinks(r, q.target)
	}
	ids := make([]int, 0, len(q.changed))
	for _, c := range q.changed {
		ids = append(ids, c.ID)
	}
	sort.Ints(ids)
	ev["message_ids"] = ids
	s.emitMessageUpdate(m, ev, q.ch.HistoryPublicToSubscribers)
	if q.topicEdited && !q.hasContent && q.resolveToggle() {
		s.sendResolveNotice(editor, q)
	}
	if q.topicEdited && s.opts.FeatureLevel >= topicMoveNoticesFL {
		s.sendMoveBreadcrumbs(editor, q, base)
	}
}

// topicDisplay is a topic as a client without the empty_topic_name
// capability sees it: the empty topic by its display name.
func (r *Realm) topicDisplay(topic string) string {
	if topic == "" {
		return r.Settings.EmptyTopicDisplayName
	}
	return topic
}

// emitMessageUpdate sends do_update_message's update_message event to the
// users who received the message, with their flags, and, for a channel whose
// history is shared with its subscribers, to its other active subscribers
// with the flag read.
func (s *Server) emitMessageUpdate(m *Message, ev obj, toSubscribers bool) {
	ch := s.realm.Channels[m.ChannelID]
	s.emitEach("update_message", func(_ *Queue, u *User) obj {
		flags, ok := m.Flags[u.ID]
		if !ok && toSubscribers && ch != nil && isSubscribed(ch, u) {
			flags, ok = []string{"read"}, true
		}
		if !ok {
			return nil
		}
		out := obj{}
		for k, v := range ev {
			out[k] = v
		}
		out["flags"] = append([]string{}, flags...)
		return out
	})
}

// deleteMessage is delete_message_backend.
func (s *Server) deleteMessage(c *call) (obj, error) {
	id, err := c.pathInt("message_id")
	if err != nil {
		return nil, err
	}
	m, err := s.accessMessage(c.user, id, true)
	if err != nil {
		return nil, err
	}
	if err := s.checkCanDeleteMessage(c.user, m); err != nil {
		return nil, err
	}
	s.removeMessage(m)
	return obj{}, nil
}

// checkCanDeleteMessage is validate_can_delete_message: the organization's
// or the channel's can_delete_any_message_group; else one's own message (or
// one's bot's) with the organization's or the channel's
// can_delete_own_message_group, within message_content_delete_limit_seconds.
func (s *Server) checkCanDeleteMessage(u *User, m *Message) error {
	r := s.realm
	if r.hasRealmPermission("can_delete_any_message_group", u) {
		return nil
	}
	ch := r.Channels[m.ChannelID]
	if !m.isDirect() && ch != nil && s.hasChannelPermission(ch, "can_delete_any_message_group", u) {
		return nil
	}
	denied := errBadRequest("You don't have permission to delete this message")
	sender := r.user(m.SenderID)
	if m.SenderID != u.ID && (sender == nil || sender.BotOwnerID != u.ID) {
		return denied
	}
	if !r.hasRealmPermission("can_delete_own_message_group", u) {
		if m.isDirect() || ch == nil || !s.hasChannelPermission(ch, "can_delete_own_message_group", u) {
			return denied
		}
	}
	if limit, ok := r.limitSeconds("message_content_delete_limit_seconds"); ok && s.now().Unix()-m.Timestamp > int64(limit) {
		return errBadRequest("The time limit for deleting this message has passed")
	}
	return nil
}

// removeMessage is do_delete_messages for one message: it is gone, and the
// users who had received it hear so (delete_message, bulk form).
func (s *Server) removeMessage(m *Message) {
	r := s.realm
	for i, other := range r.Messages {
		if other == m {
			r.Messages = append(r.Messages[:i], r.Messages[i+1:]...)
			break
		}
	}
	ev := obj{"type": "delete_message", "message_ids": []int{m.ID}, "message_type": "private"}
	if !m.isDirect() {
		ev["message_type"], ev["stream_id"], ev["topic"] = "stream", m.ChannelID, m.Topic
	}
	s.emit(ev, func(u *User) bool { _, ok := m.Flags[u.ID]; return ok })
}
