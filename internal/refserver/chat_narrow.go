package refserver

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// narrowTerm is one validated narrow term (Zulip's NarrowParameter).
type narrowTerm struct {
	Operator string
	Operand  any // string, int, or []int
	Negated  bool
}

// errBadNarrow is Zulip's BadNarrowOperatorError: 400 BAD_NARROW with desc.
func errBadNarrow(desc string) *apiError {
	return errCode(http.StatusBadRequest, "BAD_NARROW", "Invalid narrow operator: "+desc, obj{"desc": desc})
}

// Operator classes, as NarrowParameter validates operands.
var (
	narrowIDOperators  = map[string]bool{"channel": true, "stream": true, "id": true, "sender": true, "group-pm-with": true, "dm-including": true, "with": true}
	narrowIDsOperators = map[string]bool{"pm-with": true, "dm": true}
)

// parseNarrow decodes and validates a JSON narrow: a list of
// {operator, operand, negated} objects or legacy [operator, operand] pairs.
func parseNarrow(name, raw string) ([]narrowTerm, error) {
	var elems []json.RawMessage
	if !json.Valid([]byte(raw)) {
		return nil, errInvalidJSON(name)
	}
	if err := json.Unmarshal([]byte(raw), &elems); err != nil {
		return nil, errBadRequest("%s is not a list", name)
	}
	terms := make([]narrowTerm, 0, len(elems))
	for i, e := range elems {
		t, err := parseNarrowElement(name, i, e)
		if err != nil {
			return nil, err
		}
		if t.Operator == "search" {
			if s, _ := t.Operand.(string); strings.TrimSpace(s) == "" {
				return nil, errBadRequest("operand cannot be blank.")
			}
		}
		terms = append(terms, t)
	}
	return terms, nil
}

// parseNarrowElement decodes the narrow's element i: a legacy string pair or
// a dict, refusing anything else with Zulip's "Invalid narrow[i]" message.
func parseNarrowElement(name string, i int, e json.RawMessage) (narrowTerm, error) {
	bad := func(why string) error {
		return errBadRequest("Invalid %s[%d]: Value error, %s", name, i, why)
	}
	var pair []any
	var dict map[string]any
	dec := json.NewDecoder(strings.NewReader(string(e)))
	dec.UseNumber()
	switch {
	case json.Unmarshal(e, &pair) == nil:
		if len(pair) != 2 {
			return narrowTerm{}, bad("element is not a string pair")
		}
		op, ok1 := pair[0].(string)
		operand, ok2 := pair[1].(string)
		if !ok1 || !ok2 {
			return narrowTerm{}, bad("element is not a string pair")
		}
		return narrowTerm{Operator: op, Operand: operand}, nil
	case dec.Decode(&dict) == nil && dict != nil:
		return parseNarrowDict(dict, bad)
	}
	return narrowTerm{}, bad("dict or list required")
}

// parseNarrowDict decodes a narrow element given as a dict: operand and
// operator required (in that order), negated a boolean when present, and
// the operand of the type its operator takes.
func parseNarrowDict(dict map[string]any, bad func(why string) error) (narrowTerm, error) {
	var t narrowTerm
	operand, ok := dict["operand"]
	if !ok || operand == nil {
		return t, bad("operand is missing")
	}
	op, ok := dict["operator"]
	if !ok || op == nil {
		return t, bad("operator is missing")
	}
	opStr, ok := op.(string)
	if !ok {
		return t, errBadRequest("operator is not a string")
	}
	t.Operator = opStr
	if neg, ok := dict["negated"]; ok && neg != nil {
		b, ok := neg.(bool)
		if !ok {
			return t, errBadRequest("negated is not a boolean")
		}
		t.Negated = b
	}
	v, err := narrowOperand(opStr, operand)
	if err != nil {
		return t, err
	}
	t.Operand = v
	return t, nil
}

// narrowOperand checks an operand's type as Zulip's validators do.
func narrowOperand(op string, v any) (any, error) {
	asInt := func(n json.Number) (int, bool) {
		i, err := strconv.Atoi(n.String())
		return i, err == nil
	}
	switch {
	case narrowIDOperators[op]:
		switch x := v.(type) {
		case string:
			return x, nil
		case json.Number:
			if i, ok := asInt(x); ok {
				return i, nil
			}
		}
		return nil, errBadRequest("operand is not a string or an integer")
	case narrowIDsOperators[op]:
		switch x := v.(type) {
		case string:
			return x, nil
		case []any:
			ids := make([]int, 0, len(x))
			for _, item := range x {
				n, ok := item.(json.Number)
				if !ok {
					return nil, errBadRequest("operand is not a string or integer list")
				}
				i, ok := asInt(n)
				if !ok {
					return nil, errBadRequest("operand is not a string or integer list")
				}
				ids = append(ids, i)
			}
			return ids, nil
		}
		return nil, errBadRequest("operand is not a string or integer list")
	default:
		s, ok := v.(string)
		if !ok {
			return nil, errBadRequest("operand is not a string")
		}
		return s, nil
	}
}

// narrowSearch holds the parsed search keywords: words (stemmed comparison)
// and quoted phrases (substring comparison).
type narrowSearch struct {
	words, phrases []string
}

var (
	reSearchTerm   = regexp.MustCompile(`"[^"]+"|\S+`)
	reNarrowImage  = regexp.MustCompile(`(?i)https?://\S+\.(png|jpe?g|gif|webp)\b`)
	reNarrowDigits = regexp.MustCompile(`^[0-9]+$`)
)

// parseSearch splits search operands like Zulip's tsearch backend: quoted
// phrases must appear verbatim; other words are matched as words, without the
// stop words PostgreSQL ignores.
func parseSearch(operand string) narrowSearch {
	var ns narrowSearch
	for _, term := range reSearchTerm.FindAllString(operand, -1) {
		if len(term) > 1 && strings.HasPrefix(term, `"`) && strings.HasSuffix(term, `"`) {
			phrase := term[1 : len(term)-1]
			ns.phrases = append(ns.phrases, phrase)
			for _, w := range chatWords(phrase) {
				if !chatStopWords[w] {
					ns.words = append(ns.words, w)
				}
			}
			continue
		}
		for _, w := range chatWords(term) {
			if !chatStopWords[w] {
				ns.words = append(ns.words, w)
			}
		}
	}
	return ns
}

// matches reports whether a message's content or topic satisfies the search.
func (ns narrowSearch) matches(m *Message) bool {
	if len(ns.words) == 0 && len(ns.phrases) == 0 {
		return false // a query of stop words only matches nothing
	}
	text := strings.ToLower(m.Content + "\n" + m.Topic)
	for _, p := range ns.phrases {
		if !strings.Contains(text, strings.ToLower(p)) {
			return false
		}
	}
	have := map[string]bool{}
	for _, w := range chatWords(text) {
		have[chatStem(w)] = true
	}
	for _, w := range ns.words {
		if !have[chatStem(w)] {
			return false
		}
	}
	return true
}

// narrowFilter is a compiled narrow for one user.
type narrowFilter struct {
	preds  []func(m *Message) bool
	search *narrowSearch
}

// narrowPred is a compiled narrow term: whether a message matches it.
type narrowPred = func(m *Message) bool

// narrowTermCompiler compiles one term of an operator for user u, refusing
// an operand the realm does not know.
type narrowTermCompiler func(r *Realm, u *User, t narrowTerm) (narrowPred, error)

// narrowOperators is NarrowBuilder's table of operators (aliases included),
// but for search and near, which compileNarrow handles itself.
var narrowOperators = map[string]narrowTermCompiler{
	"channel": narrowChannelTerm, "stream": narrowChannelTerm,
	"channels": narrowChannelsTerm, "streams": narrowChannelsTerm,
	"topic":  narrowTopicTerm,
	"sender": narrowSenderTerm,
	"is":     narrowIsTerm,
	"has":    narrowHasTerm,
	"in":     narrowInTerm,
	"id":     narrowIDTerm,
	"dm":     narrowDMTerm, "pm-with": narrowDMTerm, "pm_with": narrowDMTerm,
	"dm-including": narrowDMIncludingTerm, "group-pm-with": narrowDMIncludingTerm, "group_pm_with": narrowDMIncludingTerm,
}

// narrowConversation is the kind of conversation a term restricts a narrow
// to: channel messages, direct messages, or neither.
type narrowConversation int

const (
	narrowAnyConversation narrowConversation = iota
	narrowChannelConversation
	narrowDMConversation
)

// narrowTermConversation is the kind of conversation t restricts a narrow to.
func narrowTermConversation(t narrowTerm) narrowConversation {
	str, _ := t.Operand.(string)
	switch t.Operator {
	case "channel", "stream", "channels", "streams", "topic":
		return narrowChannelConversation
	case "dm", "pm-with", "pm_with", "dm-including", "group-pm-with", "group_pm_with":
		return narrowDMConversation
	case "is":
		if str == "dm" || str == "private" {
			return narrowDMConversation
		}
	}
	return narrowAnyConversation
}

// compileNarrow resolves a narrow's operands against the realm, reporting
// unknown operators and operands as Zulip's NarrowBuilder does. A narrow
// that restricts to both channel and direct messages is refused at its
// first term that makes it so.
func (s *Server) compileNarrow(u *User, terms []narrowTerm) (*narrowFilter, error) {
	r := s.realm
	f := &narrowFilter{}
	var searchOperands []string
	seen := map[narrowConversation]bool{}
	for _, t := range terms {
		switch t.Operator {
		case "search":
			str, _ := t.Operand.(string)
			searchOperands = append(searchOperands, str)
			continue
		case "near":
			continue
		}
		if kind := narrowTermConversation(t); kind != narrowAnyConversation {
			seen[kind] = true
			if seen[narrowChannelConversation] && seen[narrowDMConversation] {
				return nil, errBadNarrow("No message can be both a channel message and direct message")
			}
		}
		compile, ok := narrowOperators[t.Operator]
		if !ok {
			return nil, errBadNarrow("unknown operator " + t.Operator)
		}
		pred, err := compile(r, u, t)
		if err != nil {
			return nil, err
		}
		if t.Negated {
			inner := pred
			pred = func(m *Message) bool { return !inner(m) }
		}
		f.preds = append(f.preds, pred)
	}
	if len(searchOperands) > 0 {
		ns := parseSearch(strings.Join(searchOperands, " "))
		f.search = &ns
	}
	return f, nil
}

// narrowChannelTerm is channel:X, X a channel's id or name.
func narrowChannelTerm(r *Realm, _ *User, t narrowTerm) (narrowPred, error) {
	ch := narrowChannel(r, t.Operand)
	if ch == nil {
		return nil, errBadNarrow(fmt.Sprintf("unknown channel %v", t.Operand))
	}
	id := ch.ID
	return func(m *Message) bool { return m.ChannelID == id }, nil
}

// narrowChannelsTerm is channels:public and channels:web-public.
func narrowChannelsTerm(r *Realm, _ *User, t narrowTerm) (narrowPred, error) {
	str, _ := t.Operand.(string)
	switch str {
	case "public":
		return func(m *Message) bool { ch := r.Channels[m.ChannelID]; return ch != nil && !ch.InviteOnly }, nil
	case "web-public":
		return func(m *Message) bool { ch := r.Channels[m.ChannelID]; return ch != nil && isWebPublicChannel(ch) }, nil
	}
	return nil, errBadNarrow("unknown channels operand " + str)
}

// narrowTopicTerm is topic:X, compared case-insensitively.
func narrowTopicTerm(_ *Realm, _ *User, t narrowTerm) (narrowPred, error) {
	str, _ := t.Operand.(string)
	return func(m *Message) bool { return strings.EqualFold(m.Topic, str) }, nil
}

// narrowSenderTerm is sender:X, X a user's id or address.
func narrowSenderTerm(r *Realm, _ *User, t narrowTerm) (narrowPred, error) {
	sender := narrowUser(r, t.Operand)
	if sender == nil {
		return nil, errBadNarrow(fmt.Sprintf("unknown user %v", t.Operand))
	}
	id := sender.ID
	return func(m *Message) bool { return m.SenderID == id }, nil
}

// narrowIsTerm is is:X, mostly a test of u's flags on the message. Direct
// messages are not modelled, so is:dm matches nothing.
func narrowIsTerm(r *Realm, u *User, t narrowTerm) (narrowPred, error) {
	str, _ := t.Operand.(string)
	uid := u.ID
	has := func(flags ...string) narrowPred {
		return func(m *Message) bool {
			for _, fl := range flags {
				if m.HasFlag(uid, fl) {
					return true
				}
			}
			return false
		}
	}
	switch str {
	case "dm", "private":
		return func(*Message) bool { return false }, nil
	case "starred":
		return has("starred"), nil
	case "unread":
		return func(m *Message) bool { return !m.HasFlag(uid, "read") }, nil
	case "mentioned":
		return has("mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "group_mentioned"), nil
	case "alerted":
		return has("has_alert_word"), nil
	case "resolved":
		return func(m *Message) bool { return strings.HasPrefix(m.Topic, "✔ ") }, nil
	case "followed":
		// get_followed_topic_condition_sa: topics the user follows.
		return func(m *Message) bool { return r.followsTopic(uid, m.ChannelID, m.Topic) }, nil
	}
	return nil, errBadNarrow("unknown 'is' operand " + str)
}

// narrowHasTerm is has:X, read from the message's content. Reactions are
// not modelled, so has:reaction matches nothing.
func narrowHasTerm(_ *Realm, _ *User, t narrowTerm) (narrowPred, error) {
	str, _ := t.Operand.(string)
	switch str {
	case "link":
		return func(m *Message) bool { return reChatURL.MatchString(m.Content) }, nil
	case "image":
		return func(m *Message) bool { return reNarrowImage.MatchString(m.Content) }, nil
	case "attachment":
		return func(m *Message) bool { return strings.Contains(m.Content, "/user_uploads/") }, nil
	case "reaction":
		return func(*Message) bool { return false }, nil
	}
	return nil, errBadNarrow("unknown 'has' operand " + str)
}

// narrowInTerm is in:home and in:all, which match every message.
func narrowInTerm(_ *Realm, _ *User, t narrowTerm) (narrowPred, error) {
	str, _ := t.Operand.(string)
	switch str {
	case "home", "all":
		return func(*Message) bool { return true }, nil
	}
	return nil, errBadNarrow("unknown 'in' operand " + str)
}

// narrowIDTerm is id:N, N a message id in digits.
func narrowIDTerm(_ *Realm, _ *User, t narrowTerm) (narrowPred, error) {
	idStr := fmt.Sprint(t.Operand)
	if !reNarrowDigits.MatchString(idStr) {
		return nil, errBadNarrow("Invalid message ID")
	}
	id, _ := strconv.Atoi(idStr)
	return func(m *Message) bool { return m.ID == id }, nil
}

// narrowDMTerm is dm:X, X users who must exist; direct messages are not
// modelled, so it matches nothing.
func narrowDMTerm(r *Realm, _ *User, t narrowTerm) (narrowPred, error) {
	if !narrowUsersExist(r, t.Operand) {
		return nil, errBadNarrow(fmt.Sprintf("unknown user in %v", narrowOperandString(t.Operand)))
	}
	return func(*Message) bool { return false }, nil
}

// narrowDMIncludingTerm is dm-including:X, X a user who must exist; direct
// messages are not modelled, so it matches nothing.
func narrowDMIncludingTerm(r *Realm, _ *User, t narrowTerm) (narrowPred, error) {
	if narrowUser(r, t.Operand) == nil {
		return nil, errBadNarrow(fmt.Sprintf("unknown user %v", t.Operand))
	}
	return func(*Message) bool { return false }, nil
}

// match reports whether m satisfies every term.
func (f *narrowFilter) match(m *Message) bool {
	for _, p := range f.preds {
		if !p(m) {
			return false
		}
	}
	return f.search == nil || f.search.matches(m)
}

// narrowChannel resolves a channel operand: an id, or a name (any case).
func narrowChannel(r *Realm, operand any) *Channel {
	switch x := operand.(type) {
	case int:
		return r.Channels[x]
	case string:
		return r.channelByName(x)
	}
	return nil
}

// followsTopic reports whether the user follows the topic (a UserTopic row
// with the FOLLOWED policy; topics compare case-insensitively).
func (r *Realm) followsTopic(userID, channelID int, topic string) bool {
	for _, ut := range r.UserTopics {
		if ut.UserID == userID && ut.StreamID == channelID && ut.VisibilityPolicy == PolicyFollowed &&
			strings.EqualFold(ut.TopicName, topic) {
			return true
		}
	}
	return false
}

// resolveWithOperator is update_narrow_terms_containing_with_operator
// (zerver/lib/narrow.py): a "with" term names a message, and the narrow
// becomes that message's conversation (its channel and topic) plus the terms
// that are not channel, topic or direct-message terms. When the user cannot
// access the message, the "with" term is dropped if the rest of the narrow
// still names a conversation, and refused otherwise. Two "with" terms are
// refused.
func (s *Server) resolveWithOperator(u *User, terms []narrowTerm) ([]narrowTerm, error) {
	var rest []narrowTerm
	var with *narrowTerm
	for i, t := range terms {
		if t.Operator != "with" {
			rest = append(rest, t)
			continue
		}
		if with != nil {
			return nil, errCode(http.StatusBadRequest, "BAD_NARROW",
				"Invalid narrow operator combination: Duplicate 'with' operators.", obj{"desc": "Duplicate 'with' operators."})
		}
		with = &terms[i]
	}
	if with == nil {
		return terms, nil
	}
	id, ok := with.Operand.(int)
	if !ok {
		n, err := strconv.Atoi(strings.TrimSpace(fmt.Sprint(with.Operand)))
		if err != nil {
			return nil, errBadNarrow("Invalid 'with' operator")
		}
		id = n
	}
	m := s.realm.message(id)
	if m == nil || !s.canAccessMessage(u, m) {
		if narrowDefinesConversation(rest) {
			return rest, nil
		}
		return nil, errBadNarrow("Invalid 'with' operator")
	}
	out := []narrowTerm{{Operator: "channel", Operand: m.ChannelID}, {Operator: "topic", Operand: m.Topic}}
	for _, t := range rest {
		switch t.Operator {
		case "stream", "channel", "topic", "dm", "pm-with":
		default:
			out = append(out, t)
		}
	}
	return out, nil
}

// narrowDefinesConversation is can_narrow_define_conversation: a dm term, or
// both a channel and a topic term.
func narrowDefinesConversation(terms []narrowTerm) bool {
	channel, topic := false, false
	for _, t := range terms {
		switch t.Operator {
		case "dm", "pm-with":
			return true
		case "stream", "channel":
			channel = true
		case "topic":
			topic = true
		}
		if channel && topic {
			return true
		}
	}
	return false
}

// narrowUser resolves a user operand: an id, or an e-mail address (real or dummy).
func narrowUser(r *Realm, operand any) *User {
	switch x := operand.(type) {
	case int:
		return r.user(x)
	case string:
		if u := r.userByEmail(x); u != nil {
			return u
		}
		for _, id := range r.userIDs() {
			if equalFoldASCII(fmt.Sprintf("user%d@%s", id, r.Host), x) {
				return r.Users[id]
			}
		}
	}
	return nil
}

// narrowUsersExist checks a dm operand: comma-separated e-mails or an id list.
func narrowUsersExist(r *Realm, operand any) bool {
	switch x := operand.(type) {
	case []int:
		for _, id := range x {
			if r.user(id) == nil {
				return false
			}
		}
		return len(x) > 0
	case string:
		for _, e := range strings.Split(x, ",") {
			if narrowUser(r, strings.TrimSpace(e)) == nil {
				return false
			}
		}
		return true
	}
	return false
}

// narrowOperandString formats an operand as Zulip's str() would.
func narrowOperandString(operand any) string {
	if ids, ok := operand.([]int); ok {
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = strconv.Itoa(id)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(operand)
}

// searchFields renders match_content and match_subject for a matched message,
// with search highlights when the narrow has a search term.
func (s *Server) searchFields(f *narrowFilter, m *Message) obj {
	content := renderChatMarkdown(s.realm, m.Content)
	subject := html.EscapeString(m.Topic)
	if f.search != nil {
		content = highlightHTML(content, f.search.words, f.search.phrases)
		subject = highlightHTML(subject, f.search.words, f.search.phrases)
	}
	return obj{"match_content": content, "match_subject": subject}
}
