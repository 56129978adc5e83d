package smsserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Errors returned by the test hooks, for errors.Is.
var (
	// ErrNotFound: no conversation has that id.
	ErrNotFound = errors.New("smsserver: conversation not found")
	// ErrNotActive: the conversation is not "started", so it cannot
	// receive a reply.
	ErrNotActive = errors.New("smsserver: conversation is not active")
	// ErrWebhook: the reply webhook failed (transport error or a status
	// outside 2xx).
	ErrWebhook = errors.New("smsserver: reply webhook failed")
)

// maxWebhookAnswer bounds how much of a webhook's answer is read.
const maxWebhookAnswer = 64 << 10

// WebhookResult describes one simulated reply.
type WebhookResult struct {
	// SMSID is the id of the incoming reply SMS (sent as both "id" and
	// "sms_id").
	SMSID string
	// HTTPStatus is the webhook's status code (0 if it could not be reached).
	HTTPStatus int
	// Reply is the "reply" of the webhook's JSON answer, if any.
	Reply string
	// Retain is the "retain" of the webhook's JSON answer.
	Retain bool
	// ReplySMSID is the id of the SMS sent for Reply, if one was sent.
	ReplySMSID string
	// Status is the conversation's status afterwards.
	Status string
}

// webhookAnswer is the JSON a reply webhook may return.
type webhookAnswer struct {
	Reply  string `json:"reply"`
	Retain bool   `json:"retain"`
}

// SimulateReply makes the recipient of conversation id answer with message:
// it POSTs the reply form (id and sms_id, from, to, message,
// direction=incoming, created, and token when one was given) to the
// conversation's reply_url and honours the answer as 46elks documents it:
// {"reply": ...} sends an SMS back, {"retain": true} keeps the conversation
// open, and otherwise (including an empty or non-JSON body) it closes,
// which may start a waiting question. A webhook failure returns an error
// wrapping ErrWebhook and leaves the conversation untouched.
//
// The webhook is called without the server's lock held, so its handler may
// call back into this server.
func (s *Server) SimulateReply(ctx context.Context, conversationID, message string) (WebhookResult, error) {
	s.mu.Lock()
	now := s.nowLocked()
	changed := s.advanceLocked(now)
	c, ok := s.byID[conversationID]
	if !ok {
		s.mu.Unlock()
		s.notify(changed)
		return WebhookResult{}, fmt.Errorf("%w: %s", ErrNotFound, conversationID)
	}
	if c.Status != StatusStarted {
		status := c.Status
		s.mu.Unlock()
		s.notify(changed)
		return WebhookResult{Status: status}, fmt.Errorf("%w: %s is %s", ErrNotActive, conversationID, status)
	}
	res := WebhookResult{SMSID: newID("s")}
	recipient, ourNumber, replyURL, token := c.To, c.From, c.ReplyURL, c.Token
	s.mu.Unlock()
	s.notify(changed)

	form := url.Values{}
	form.Set("id", res.SMSID)
	form.Set("sms_id", res.SMSID)
	form.Set("from", recipient)
	form.Set("to", ourNumber)
	form.Set("message", message)
	form.Set("direction", DirectionIncoming)
	form.Set("created", formatTime(now))
	if token != "" {
		form.Set("token", token)
	}
	answer, status, err := s.postWebhook(ctx, replyURL, form)
	res.HTTPStatus = status
	if err != nil {
		s.opts.Logf("smsserver: reply webhook for %s failed: %v", conversationID, err)
		return res, fmt.Errorf("%w: conversation %s: %w", ErrWebhook, conversationID, err)
	}
	res.Reply, res.Retain = answer.Reply, answer.Retain

	s.mu.Lock()
	later := s.nowLocked()
	s.advanceLocked(later)
	// Look the conversation up again: a Restore may have replaced it while
	// the webhook ran.
	if c, ok = s.byID[conversationID]; !ok {
		s.mu.Unlock()
		s.notify(true)
		return res, fmt.Errorf("%w: %s (removed while its webhook ran)", ErrNotFound, conversationID)
	}
	c.Items = append(c.Items, res.SMSID)
	c.Messages = append(c.Messages, Message{ID: res.SMSID, Direction: DirectionIncoming, From: recipient, To: ourNumber, Text: message, Created: now})
	// The conversation may have expired or been closed while the webhook
	// ran; the reply still arrived, but nothing is sent back or reopened.
	if c.Status == StatusStarted {
		if answer.Reply != "" {
			res.ReplySMSID = newID("s")
			c.Items = append(c.Items, res.ReplySMSID)
			c.Messages = append(c.Messages, Message{ID: res.ReplySMSID, Direction: DirectionOutgoingReply, From: ourNumber, To: recipient, Text: answer.Reply, Created: later})
		}
		if !answer.Retain {
			s.endLocked(c, StatusClosed, later)
		}
	}
	res.Status = c.Status
	s.mu.Unlock()
	s.notify(true)
	return res, nil
}

// postWebhook POSTs form to target and decodes the optional JSON answer.
func (s *Server) postWebhook(ctx context.Context, target string, form url.Values) (webhookAnswer, int, error) {
	var answer webhookAnswer
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		return answer, 0, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", "smsserver (46elks reference)")
	resp, err := s.opts.HTTPClient.Do(req)
	if err != nil {
		return answer, 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxWebhookAnswer))
	if err != nil {
		return answer, resp.StatusCode, fmt.Errorf("reading answer: %w", err)
	}
	// 46elks wants 200-204; any other status counts as a failed delivery
	// (which it would retry; the test hook reports it instead).
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return answer, resp.StatusCode, fmt.Errorf("status %d", resp.StatusCode)
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return answer, resp.StatusCode, nil
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		// Undocumented: an answer that is not a JSON object is treated as
		// no answer (the conversation closes), like an empty body.
		s.opts.Logf("smsserver: webhook answer is not JSON, ignored: %.80q", body)
		return webhookAnswer{}, resp.StatusCode, nil
	}
	return answer, resp.StatusCode, nil
}

// Conversations returns a copy of every conversation, oldest first, after
// bringing expiry up to date.
func (s *Server) Conversations() []Conversation {
	s.mu.Lock()
	changed := s.advanceLocked(s.nowLocked())
	out := make([]Conversation, 0, len(s.convs))
	for _, c := range s.convs {
		out = append(out, c.clone())
	}
	s.mu.Unlock()
	s.notify(changed)
	return out
}

// Conversation returns a copy of one conversation.
func (s *Server) Conversation(id string) (Conversation, bool) {
	s.mu.Lock()
	changed := s.advanceLocked(s.nowLocked())
	c, ok := s.byID[id]
	var out Conversation
	if ok {
		out = c.clone()
	}
	s.mu.Unlock()
	s.notify(changed)
	return out, ok
}

// Close ends a started or waiting conversation now (the API has no such
// endpoint; this stands in for "closed by 46elks" in tests), which may start
// a waiting question. Closing an already closed or expired conversation does
// nothing.
func (s *Server) Close(id string) error {
	s.mu.Lock()
	now := s.nowLocked()
	changed := s.advanceLocked(now)
	c, ok := s.byID[id]
	if !ok {
		s.mu.Unlock()
		s.notify(changed)
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if c.Status == StatusStarted || c.Status == StatusWaiting {
		s.endLocked(c, StatusClosed, now)
		changed = true
	}
	s.mu.Unlock()
	s.notify(changed)
	return nil
}

// State is the server's whole state, for persistence as JSON by the
// embedding server (see Snapshot and Restore).
type State struct {
	// Conversations in creation order.
	Conversations []Conversation `json:"conversations"`
	// LastCreated is the newest "created" handed out, kept so timestamps
	// stay strictly increasing across a restart.
	LastCreated time.Time `json:"last_created,omitzero"`
}

// Snapshot returns a deep copy of the state. Expiry is not advanced first,
// so a snapshot is exactly what the server holds.
func (s *Server) Snapshot() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := State{Conversations: make([]Conversation, 0, len(s.convs)), LastCreated: s.lastCreated}
	for _, c := range s.convs {
		st.Conversations = append(st.Conversations, c.clone())
	}
	return st
}

// Restore replaces the state with st (as returned by Snapshot, possibly via
// JSON). It refuses a state with an empty or duplicate id or an unknown
// status, leaving the server unchanged.
func (s *Server) Restore(st State) error {
	convs := make([]*Conversation, 0, len(st.Conversations))
	byID := make(map[string]*Conversation, len(st.Conversations))
	last := micro(st.LastCreated)
	for i := range st.Conversations {
		c := st.Conversations[i].clone()
		if c.ID == "" {
			return fmt.Errorf("smsserver: restore: conversation %d has no id", i)
		}
		if byID[c.ID] != nil {
			return fmt.Errorf("smsserver: restore: duplicate id %s", c.ID)
		}
		switch c.Status {
		case StatusStarted, StatusWaiting, StatusClosed, StatusExpired:
		default:
			return fmt.Errorf("smsserver: restore: %s has unknown status %q", c.ID, c.Status)
		}
		if c.LifetimeHours < 1 || c.LifetimeHours > 72 {
			return fmt.Errorf("smsserver: restore: %s has lifetime %dh outside 1h-72h", c.ID, c.LifetimeHours)
		}
		c.Created, c.Started, c.Expires, c.Ended = micro(c.Created), micro(c.Started), micro(c.Expires), micro(c.Ended)
		if c.Created.After(last) {
			last = c.Created
		}
		convs = append(convs, &c)
		byID[c.ID] = &c
	}
	s.mu.Lock()
	s.convs, s.byID, s.lastCreated = convs, byID, last
	s.mu.Unlock()
	s.notify(true)
	return nil
}
