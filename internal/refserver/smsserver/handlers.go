package smsserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// wireTimeLayout writes timestamps as 46elks does: UTC, no zone, always six
// fractional digits ("2024-05-17T10:46:33.548909").
const wireTimeLayout = "2006-01-02T15:04:05.000000"

// maxFormBytes bounds a request body; a question is a few hundred bytes.
const maxFormBytes = 64 << 10

// defaultLifetimeHours is 46elks' documented default lifetime.
const defaultLifetimeHours = 16

// tooManyActive is the refusal past the per-recipient limit.
//
// Undocumented: 46elks does not say what happens past the limit without
// delay=allowed. We answer 403 (a refusal by policy, like its "not enough
// credits"), not 429: 429 invites an automatic retry, and retrying does not
// help until a conversation closes, which may take up to 72 hours.
const tooManyActive = "Too many active conversations with this recipient."

// formatTime renders t in the wire format.
func formatTime(t time.Time) string {
	return t.UTC().Format(wireTimeLayout)
}

// wireConversation is the JSON the API returns for a conversation: the
// documented keys only. "from" and "expires" are absent while waiting
// (no number is chosen and no lifetime runs yet), "token" when none was
// given.
type wireConversation struct {
	ID       string   `json:"id"`
	Status   string   `json:"status"`
	From     string   `json:"from,omitempty"`
	To       string   `json:"to"`
	Message  string   `json:"message"`
	ReplyURL string   `json:"reply_url"`
	Created  string   `json:"created"`
	Expires  string   `json:"expires,omitempty"`
	Items    []string `json:"items"`
	Token    string   `json:"token,omitempty"`
}

// toWire converts c for the API.
func toWire(c *Conversation) wireConversation {
	w := wireConversation{
		ID:       c.ID,
		Status:   c.Status,
		From:     c.From,
		To:       c.To,
		Message:  c.Message,
		ReplyURL: c.ReplyURL,
		Created:  formatTime(c.Created),
		Items:    append([]string{}, c.Items...),
		Token:    c.Token,
	}
	if !c.Expires.IsZero() {
		w.Expires = formatTime(c.Expires)
	}
	return w
}

// writeJSON writes a 200 JSON response.
func writeJSON(w http.ResponseWriter, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		textError(w, http.StatusInternalServerError, "Internal error.")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// badRequest is a validation failure: a 4xx status and a plain-text reason.
type badRequest struct {
	status int
	msg    string
}

// Error implements error.
func (e *badRequest) Error() string { return e.msg }

// invalid builds the 400 for a bad parameter.
func invalid(param, why string) *badRequest {
	return &badRequest{http.StatusBadRequest, "Invalid parameter " + param + ": " + why}
}

// questionInput is a parsed and validated POST /a1/conversations body.
type questionInput struct {
	to, message, replyURL, token string
	lifetimeHours                int
	delay                        bool
}

// formValue returns the single value of name. A parameter given twice is
// refused rather than silently resolved, which would hide a client bug.
func formValue(form url.Values, name string) (string, bool, *badRequest) {
	vs, ok := form[name]
	if !ok {
		return "", false, nil
	}
	if len(vs) != 1 {
		return "", true, &badRequest{http.StatusBadRequest, "Parameter " + name + " given more than once."}
	}
	return vs[0], true, nil
}

// parseQuestion validates the form of a new question.
func parseQuestion(form url.Values) (questionInput, *badRequest) {
	var in questionInput
	get := func(name string) (string, bool, *badRequest) { return formValue(form, name) }

	to, ok, bad := get("to")
	if bad != nil {
		return in, bad
	}
	if !ok || to == "" {
		return in, &badRequest{http.StatusBadRequest, "Missing parameter: to"}
	}
	if !isE164(to) {
		return in, invalid("to", "must be a phone number in E.164 format, such as +46700000000.")
	}
	in.to = to

	msg, ok, bad := get("message")
	if bad != nil {
		return in, bad
	}
	if !ok || strings.TrimSpace(msg) == "" {
		return in, &badRequest{http.StatusBadRequest, "Missing parameter: message"}
	}
	in.message = msg

	replyURL, ok, bad := get("reply_url")
	if bad != nil {
		return in, bad
	}
	if !ok || replyURL == "" {
		return in, &badRequest{http.StatusBadRequest, "Missing parameter: reply_url"}
	}
	if !isWebURL(replyURL) {
		return in, invalid("reply_url", "must be an absolute http or https URL.")
	}
	in.replyURL = replyURL

	token, _, bad := get("token")
	if bad != nil {
		return in, bad
	}
	in.token = token

	in.lifetimeHours = defaultLifetimeHours
	lifetime, ok, bad := get("lifetime")
	if bad != nil {
		return in, bad
	}
	if ok {
		h, good := parseHours(lifetime)
		if !good {
			return in, invalid("lifetime", "must be a whole number of hours from 1h to 72h, such as 16h.")
		}
		in.lifetimeHours = h
	}

	delay, ok, bad := get("delay")
	if bad != nil {
		return in, bad
	}
	if ok {
		if delay != "allowed" {
			return in, invalid("delay", "the only accepted value is allowed.")
		}
		in.delay = true
	}
	return in, nil
}

// isE164 checks the strict E.164 shape: "+", a first digit 1-9, and 2 to 15
// ASCII digits in all.
func isE164(s string) bool {
	if len(s) < 3 || len(s) > 16 || s[0] != '+' || s[1] == '0' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isWebURL reports whether s is an absolute http(s) URL with a host, the
// only kind of reply_url a webhook can be posted to.
func isWebURL(s string) bool {
	if strings.ContainsAny(s, " \t\r\n") {
		return false
	}
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	return (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != ""
}

// parseHours accepts "<n>h" with n in 1..72, the only documented form.
// Minutes, days and Go durations ("90m", "1d", "1h30m") are refused.
func parseHours(s string) (int, bool) {
	digits, found := strings.CutSuffix(s, "h")
	if !found || digits == "" || len(digits) > 3 {
		return 0, false
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || n > 72 {
		return 0, false
	}
	return n, true
}

// handleCreate serves POST /a1/conversations.
func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			textError(w, http.StatusRequestEntityTooLarge, "Request body too large.")
			return
		}
		textError(w, http.StatusBadRequest, "Could not parse the form-encoded body.")
		return
	}
	// Parameters are read from the body only: the API is documented as
	// form-encoded POSTs, and a client putting them in the query string is
	// a bug this server should reveal.
	in, bad := parseQuestion(r.PostForm)
	if bad != nil {
		textError(w, bad.status, bad.msg)
		return
	}
	for name := range r.PostForm {
		switch name {
		case "to", "message", "reply_url", "token", "lifetime", "delay":
		default:
			// "from" in particular is "not used" per the docs: ignored,
			// but logged so a client sending it can be spotted.
			s.opts.Logf("smsserver: ignoring unknown parameter %q", name)
		}
	}

	s.mu.Lock()
	now := s.nowLocked()
	changed := s.advanceLocked(now)
	from := s.freeNumberLocked(in.to)
	if from == "" && !in.delay {
		s.mu.Unlock()
		s.notify(changed)
		textError(w, http.StatusForbidden, tooManyActive)
		return
	}
	c := &Conversation{
		ID:            newID("o"),
		Status:        StatusWaiting,
		To:            in.to,
		Message:       in.message,
		ReplyURL:      in.replyURL,
		Token:         in.token,
		LifetimeHours: in.lifetimeHours,
		DelayAllowed:  in.delay,
		Created:       s.nextCreatedLocked(now),
		Items:         []string{},
		Messages:      []Message{},
	}
	s.convs = append(s.convs, c)
	s.byID[c.ID] = c
	if from != "" {
		s.startLocked(c, from, c.Created)
	} else {
		s.opts.Logf("smsserver: conversation %s to %s waiting", c.ID, c.To)
	}
	out := toWire(c)
	s.mu.Unlock()
	s.notify(true)
	writeJSON(w, out)
}

// handleGet serves GET /a1/conversations/{id}.
func (s *Server) handleGet(w http.ResponseWriter, id string) {
	s.mu.Lock()
	changed := s.advanceLocked(s.nowLocked())
	c, ok := s.byID[id]
	var out wireConversation
	if ok {
		out = toWire(c)
	}
	s.mu.Unlock()
	s.notify(changed)
	if !ok {
		textError(w, http.StatusNotFound, "Conversation not found.")
		return
	}
	writeJSON(w, out)
}

// listPage is the paged history shape shared by 46elks' list endpoints.
// Undocumented: "next" is omitted on the last page.
type listPage struct {
	Data []wireConversation `json:"data"`
	Next string             `json:"next,omitempty"`
}

// handleList serves GET /a1/conversations, newest first. As everywhere in
// 46elks' history API, "start" returns items created before it and "end"
// items created after it; "next" is passed back as "start".
func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := 100
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			textError(w, http.StatusBadRequest, "Invalid parameter limit: must be a number from 1 to 100.")
			return
		}
		limit = n
	}
	var before, after time.Time
	for _, p := range []struct {
		name string
		dst  *time.Time
	}{{"start", &before}, {"end", &after}} {
		if v := q.Get(p.name); v != "" {
			t, ok := parseWireTime(v)
			if !ok {
				textError(w, http.StatusBadRequest, "Invalid parameter "+p.name+": must be a UTC timestamp such as 2024-05-17T10:46:33.548909.")
				return
			}
			*p.dst = t
		}
	}

	s.mu.Lock()
	changed := s.advanceLocked(s.nowLocked())
	matching := make([]*Conversation, 0, len(s.convs))
	for _, c := range s.convs {
		if !before.IsZero() && !c.Created.Before(before) {
			continue
		}
		if !after.IsZero() && !c.Created.After(after) {
			continue
		}
		matching = append(matching, c)
	}
	sort.SliceStable(matching, func(i, j int) bool { return matching[i].Created.After(matching[j].Created) })
	page := listPage{Data: []wireConversation{}}
	for i, c := range matching {
		if i == limit {
			page.Next = formatTime(matching[i-1].Created)
			break
		}
		page.Data = append(page.Data, toWire(c))
	}
	s.mu.Unlock()
	s.notify(changed)
	writeJSON(w, page)
}

// parseWireTime parses a zone-less UTC timestamp with 0 to 6 fractional
// digits.
func parseWireTime(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02T15:04:05.000000", "2006-01-02T15:04:05", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	// Fewer than six fractional digits: pad, so "…:05.5" means 0.5 s.
	if i := strings.LastIndexByte(s, '.'); i > 0 && len(s)-i-1 < 6 {
		padded := s + strings.Repeat("0", 6-(len(s)-i-1))
		if t, err := time.Parse("2006-01-02T15:04:05.000000", padded); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
