package sms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Conversation statuses as documented by 46elks. The list is complete as of
// the beta docs, but the client keeps any other value verbatim.
const (
	// StatusStarted is an ongoing conversation: the question has been sent.
	StatusStarted = "started"
	// StatusWaiting is a question queued (delay=allowed) because the
	// recipient already has too many active conversations.
	StatusWaiting = "waiting"
	// StatusClosed is a conversation that has ended.
	StatusClosed = "closed"
	// StatusExpired is a conversation closed because nobody replied before
	// its expiry time.
	StatusExpired = "expired"
)

// conversationIDPattern accepts the documented id shape ("o" + hex) and
// any other plain alphanumeric id a future API version might use.
var conversationIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// TimeLayout is the API's timestamp format: UTC with no zone designator and
// up to microsecond precision.
const TimeLayout = "2006-01-02T15:04:05.999999"

// QuestionRequest is the input of SendQuestion.
type QuestionRequest struct {
	// To is the recipient, in E.164 form ("+46700000000"). Required.
	To string
	// Message is the SMS text of the question. Required.
	Message string
	// ReplyURL is the absolute http(s) URL that receives replies. Required.
	ReplyURL string
	// Token is an optional caller-chosen value that 46elks passes to the
	// reply webhook. Sent only when not empty.
	Token string
	// LifetimeHours is the time until the conversation closes by itself,
	// 1 to 72 hours; 0 leaves it to the server (16 h by default). Hours,
	// because "<n>h" is the only form the API documents.
	LifetimeHours int
	// DelayAllowed asks the server to queue the question (status
	// "waiting") instead of failing when the recipient has too many active
	// conversations.
	DelayAllowed bool
}

// Question is a conversation as the API reports it.
type Question struct {
	// ID is the conversation id, "o…".
	ID string
	// Status is one of the Status constants, or any newer value verbatim.
	Status string
	// From is the number 46elks chose to send from (empty while waiting).
	From string
	// To is the recipient.
	To string
	// Message is the initial question.
	Message string
	// ReplyURL is the webhook receiving replies.
	ReplyURL string
	// Token is the caller's token, if one was given.
	Token string
	// Created is when the question was created (UTC).
	Created time.Time
	// Expires is when the conversation closes automatically (UTC); zero if
	// the server did not report it.
	Expires time.Time
	// Items are the ids ("s…") of the SMSes in the conversation.
	Items []string
}

// questionJSON is the wire form of Question; its times use apiTime so the
// zone-less timestamps decode as UTC.
type questionJSON struct {
	ID       string   `json:"id"`
	Status   string   `json:"status"`
	From     string   `json:"from,omitempty"`
	To       string   `json:"to"`
	Message  string   `json:"message"`
	ReplyURL string   `json:"reply_url"`
	Token    string   `json:"token,omitempty"`
	Created  apiTime  `json:"created,omitzero"`
	Expires  apiTime  `json:"expires,omitzero"`
	Items    []string `json:"items"`
}

// UnmarshalJSON decodes the API's conversation object, ignoring unknown keys.
func (q *Question) UnmarshalJSON(data []byte) error {
	var w questionJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*q = Question{
		ID:       w.ID,
		Status:   w.Status,
		From:     w.From,
		To:       w.To,
		Message:  w.Message,
		ReplyURL: w.ReplyURL,
		Token:    w.Token,
		Created:  w.Created.Time,
		Expires:  w.Expires.Time,
		Items:    w.Items,
	}
	return nil
}

// MarshalJSON encodes a Question in the API's own shape, so that a record
// can be stored and decoded again without loss.
func (q Question) MarshalJSON() ([]byte, error) {
	return json.Marshal(questionJSON{
		ID:       q.ID,
		Status:   q.Status,
		From:     q.From,
		To:       q.To,
		Message:  q.Message,
		ReplyURL: q.ReplyURL,
		Token:    q.Token,
		Created:  apiTime{q.Created},
		Expires:  apiTime{q.Expires},
		Items:    q.Items,
	})
}

// apiTime is a timestamp in TimeLayout. JSON null and "" decode to the zero
// time; a zero time is left out by omitzero (its promoted IsZero), or
// encodes as "" rather than year 1.
type apiTime struct{ time.Time }

// UnmarshalJSON parses a zone-less UTC timestamp.
func (t *apiTime) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("sms: timestamp: %w", err)
	}
	parsed, err := ParseTime(s)
	if err != nil {
		return err
	}
	t.Time = parsed
	return nil
}

// MarshalJSON writes the timestamp in TimeLayout, in UTC.
func (t apiTime) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte(`""`), nil
	}
	return json.Marshal(t.UTC().Format(TimeLayout))
}

// ParseTime parses an API timestamp. The documented form has no zone and
// is UTC; a value that does carry a zone (RFC 3339) is accepted too and
// converted to UTC, so a server that starts adding "Z" does not break us.
// The empty string gives the zero time.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.ParseInLocation(TimeLayout, s, time.UTC); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	return time.Time{}, fmt.Errorf("sms: timestamp %q is not in the form %s", s, TimeLayout)
}

// SendQuestion sends a question (POST /a1/conversations). The request is
// validated first, so that a bad number or URL costs no API call; such
// failures are *ValidationError. The server picks the sender number, so no
// "from" is ever sent. The call is not retried: a POST that may have been
// delivered must not send a second SMS.
func (c *Client) SendQuestion(ctx context.Context, req QuestionRequest) (*Question, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	form := url.Values{}
	form.Set("to", req.To)
	form.Set("message", req.Message)
	form.Set("reply_url", req.ReplyURL)
	if req.Token != "" {
		form.Set("token", req.Token)
	}
	if req.LifetimeHours != 0 {
		form.Set("lifetime", strconv.Itoa(req.LifetimeHours)+"h")
	}
	if req.DelayAllowed {
		form.Set("delay", "allowed")
	}
	var q Question
	if err := c.do(ctx, http.MethodPost, []string{"conversations"}, form, &q); err != nil {
		return nil, err
	}
	if q.ID == "" {
		return nil, errors.New("sms: POST /a1/conversations: response has no conversation id")
	}
	return &q, nil
}

// Validate checks a QuestionRequest the way SendQuestion does before
// sending it, returning the first problem as a *ValidationError.
func (req QuestionRequest) Validate() error {
	if err := ValidateE164(req.To); err != nil {
		return wrapField("to", err)
	}
	if strings.TrimSpace(req.Message) == "" {
		return &ValidationError{Field: "message", Reason: "must not be empty"}
	}
	if err := ValidateReplyURL(req.ReplyURL); err != nil {
		return wrapField("reply_url", err)
	}
	if req.LifetimeHours != 0 {
		if err := ValidateLifetimeHours(req.LifetimeHours); err != nil {
			return wrapField("lifetime", err)
		}
	}
	return nil
}

// GetQuestion reads one conversation (GET /a1/conversations/{id}). An
// unknown id gives an *APIError for which IsNotFound is true.
func (c *Client) GetQuestion(ctx context.Context, id string) (*Question, error) {
	if !conversationIDPattern.MatchString(id) {
		// Ids are "o" followed by hex; refusing anything path-like keeps a
		// stray "/" or ".." from addressing a different resource.
		return nil, &ValidationError{Field: "id", Reason: "must be a conversation id such as o1a2b3c"}
	}
	var q Question
	if err := c.do(ctx, http.MethodGet, []string{"conversations", url.PathEscape(id)}, nil, &q); err != nil {
		return nil, err
	}
	return &q, nil
}
