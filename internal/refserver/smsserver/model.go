package smsserver

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// Conversation statuses, the complete list in 46elks' docs.
const (
	// StatusStarted: ongoing, the question has been sent.
	StatusStarted = "started"
	// StatusWaiting: queued behind the recipient's active conversations.
	StatusWaiting = "waiting"
	// StatusClosed: ended by a reply without "retain", or by Close.
	StatusClosed = "closed"
	// StatusExpired: nobody replied before Expires.
	StatusExpired = "expired"
)

// SMS directions, as 46elks names them.
const (
	// DirectionOutgoing is the question itself.
	DirectionOutgoing = "outgoing"
	// DirectionIncoming is a reply from the recipient.
	DirectionIncoming = "incoming"
	// DirectionOutgoingReply is an SMS sent because the webhook answered
	// {"reply": ...}.
	DirectionOutgoingReply = "outgoing-reply"
)

// Conversation is the server's full record of one question: what the API
// shows, plus what tests and persistence need (lifetime, start and end
// times, message texts). It is also the unit of State.
type Conversation struct {
	ID       string `json:"id"`
	Status   string `json:"status"`
	From     string `json:"from,omitempty"` // empty until started
	To       string `json:"to"`
	Message  string `json:"message"`
	ReplyURL string `json:"reply_url"`
	Token    string `json:"token,omitempty"`
	// LifetimeHours is the requested (or default) lifetime.
	LifetimeHours int `json:"lifetime_hours"`
	// DelayAllowed records delay=allowed.
	DelayAllowed bool `json:"delay_allowed,omitempty"`
	// Created is when the question was accepted.
	Created time.Time `json:"created"`
	// Started is when the question was sent (= Created unless it waited).
	Started time.Time `json:"started,omitzero"`
	// Expires is Started + lifetime; zero while waiting.
	Expires time.Time `json:"expires,omitzero"`
	// Ended is when the conversation closed or expired.
	Ended time.Time `json:"ended,omitzero"`
	// Items are the ids of every SMS of the conversation, oldest first.
	Items []string `json:"items"`
	// Messages are the same SMSes with their texts, for tests.
	Messages []Message `json:"messages"`
}

// Message is one SMS of a conversation.
type Message struct {
	ID        string    `json:"id"`
	Direction string    `json:"direction"`
	From      string    `json:"from"`
	To        string    `json:"to"`
	Text      string    `json:"text"`
	Created   time.Time `json:"created"`
}

// clone deep-copies c so callers never share slices with the server.
func (c *Conversation) clone() Conversation {
	out := *c
	out.Items = append([]string{}, c.Items...)
	out.Messages = append([]Message{}, c.Messages...)
	return out
}

// newID returns prefix followed by 32 random hex digits, the shape of
// 46elks ids ("o…" conversations, "s…" SMSes).
func newID(prefix string) string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("smsserver: crypto/rand failed: " + err.Error())
	}
	return prefix + hex.EncodeToString(b[:])
}

// micro truncates t to the API's microsecond precision in UTC, so stored
// times survive a round trip through the wire format unchanged.
func micro(t time.Time) time.Time {
	return t.UTC().Truncate(time.Microsecond)
}

// nowLocked reads the clock at API precision.
func (s *Server) nowLocked() time.Time {
	return micro(s.opts.Clock())
}

// nextCreatedLocked returns the created time for a new conversation:
// now, or 1 µs after the previous one if the clock has not moved. Strictly
// increasing timestamps keep list paging (which pages by created time)
// from skipping conversations created within the same microsecond, which
// a frozen test clock would otherwise produce all the time.
func (s *Server) nextCreatedLocked(now time.Time) time.Time {
	if !now.After(s.lastCreated) {
		now = s.lastCreated.Add(time.Microsecond)
	}
	s.lastCreated = now
	return now
}

// activeLocked returns the recipient's started conversations.
func (s *Server) activeLocked(to string) []*Conversation {
	var out []*Conversation
	for _, c := range s.convs {
		if c.To == to && c.Status == StatusStarted {
			out = append(out, c)
		}
	}
	return out
}

// freeNumberLocked returns a pool number not used by any of the
// recipient's active conversations, or "" if there is none or the
// recipient is at the limit.
func (s *Server) freeNumberLocked(to string) string {
	active := s.activeLocked(to)
	if len(active) >= s.opts.MaxActivePerRecipient {
		return ""
	}
	used := map[string]bool{}
	for _, c := range active {
		used[c.From] = true
	}
	for _, n := range s.opts.Numbers {
		if !used[n] {
			return n
		}
	}
	return ""
}

// startLocked sends the question of c from number at time at.
//
// Undocumented: for a question that waited, "created" stays the time it was
// accepted and "expires" counts the lifetime from when it actually started,
// so a queued question gets its full lifetime to be answered.
func (s *Server) startLocked(c *Conversation, from string, at time.Time) {
	c.Status = StatusStarted
	c.From = from
	c.Started = at
	c.Expires = at.Add(time.Duration(c.LifetimeHours) * time.Hour)
	id := newID("s")
	c.Items = append(c.Items, id)
	c.Messages = append(c.Messages, Message{ID: id, Direction: DirectionOutgoing, From: from, To: c.To, Text: c.Message, Created: at})
	s.opts.Logf("smsserver: conversation %s to %s started from %s, expires %s", c.ID, c.To, from, formatTime(c.Expires))
}

// endLocked closes or expires c at time at, and lets the recipient's
// oldest waiting questions take the freed slot at that same instant.
func (s *Server) endLocked(c *Conversation, status string, at time.Time) {
	c.Status = status
	c.Ended = at
	s.opts.Logf("smsserver: conversation %s to %s %s", c.ID, c.To, status)
	s.promoteLocked(c.To, at)
}

// promoteLocked starts the recipient's waiting questions, oldest first,
// while there is room.
//
// Undocumented: a waiting question never expires while it waits (its
// lifetime only runs once it is sent), and it waits for as long as it takes.
func (s *Server) promoteLocked(to string, at time.Time) {
	for _, c := range s.convs {
		if c.To != to || c.Status != StatusWaiting {
			continue
		}
		from := s.freeNumberLocked(to)
		if from == "" {
			return
		}
		start := at
		if start.Before(c.Created) {
			start = c.Created
		}
		s.startLocked(c, from, start)
	}
}

// advanceLocked brings the model up to now: conversations whose expiry has
// passed become expired, in expiry order, each freeing its slot for a
// waiting question at the instant it expired (which may in turn expire
// before now). Evaluating lazily on every access means no timers, and a
// test that moves its clock sees exactly the state a real server would
// have reached. It reports whether anything changed.
func (s *Server) advanceLocked(now time.Time) bool {
	changed := false
	for {
		var next *Conversation
		for _, c := range s.convs {
			if c.Status == StatusStarted && !c.Expires.After(now) {
				if next == nil || c.Expires.Before(next.Expires) {
					next = c
				}
			}
		}
		if next == nil {
			break
		}
		s.endLocked(next, StatusExpired, next.Expires)
		changed = true
	}
	// A slot can also be free without an expiry, after Restore with a
	// higher limit; start whatever fits now.
	for _, c := range s.convs {
		if c.Status == StatusWaiting && s.freeNumberLocked(c.To) != "" {
			s.promoteLocked(c.To, now)
			changed = true
		}
	}
	return changed
}
