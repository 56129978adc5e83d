package zulip

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
)

// Message types of SendMessageRequest (the names every server accepts; "channel" and
// "direct" are their newer aliases).
const (
	MessageTypeStream  = "stream"
	MessageTypePrivate = "private"
)

// SendMessageRequest is the body of SendMessage: a channel message (ChannelID and Topic)
// or a direct message (UserIDs, or Emails; Zulip refuses a list that mixes them).
type SendMessageRequest struct {
	ChannelID int64
	Topic     string
	UserIDs   []int64
	Emails    []string
	Content   string
}

// SentMessage is Zulip's answer to SendMessage. MessageURL (FL508) is the message's
// permanent link; empty on older servers.
type SentMessage struct {
	ID         int64  `json:"id"`
	MessageURL string `json:"message_url"`
}

// Message is one message as GET /messages/{id} returns it, with its content as sent
// (Markdown source, not the rendered HTML).
type Message struct {
	ID       int64  `json:"id"`
	Type     string `json:"type"` // "stream" or "private"
	StreamID int64  `json:"stream_id"`
	Subject  string `json:"subject"` // the topic; "" for direct messages
	Content  string `json:"content"`
	SenderID int64  `json:"sender_id"`
	// DisplayRecipient is the channel's name (a JSON string) for a channel message, the
	// conversation's users (a JSON list) for a direct message: see Recipients.
	DisplayRecipient json.RawMessage `json:"display_recipient"`
	Timestamp        int64           `json:"timestamp"`
}

// MessageRecipient is one user of a direct message's conversation.
type MessageRecipient struct {
	ID    int64  `json:"id"`
	Email string `json:"email"`
}

// Recipients are the users of a direct message's conversation, the sender included;
// nil for a channel message.
func (m Message) Recipients() []MessageRecipient {
	var out []MessageRecipient
	if m.Type != MessageTypePrivate || json.Unmarshal(m.DisplayRecipient, &out) != nil {
		return nil
	}
	return out
}

// SendMessage posts a message (POST /messages). Not idempotent: each call posts one, so it
// is retried only when the server certainly did not process it.
func (c *Client) SendMessage(ctx context.Context, r SendMessageRequest) (*SentMessage, error) {
	p := newParams().str("content", r.Content)
	switch {
	case len(r.UserIDs) > 0:
		p.str("type", MessageTypePrivate).json("to", r.UserIDs)
	case len(r.Emails) > 0:
		p.str("type", MessageTypePrivate).json("to", r.Emails)
	default:
		p.str("type", MessageTypeStream).int("to", r.ChannelID).str("topic", r.Topic)
	}
	var out SentMessage
	if err := c.do(ctx, request{method: http.MethodPost, path: "messages", params: p, idempotent: false}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetMessage reads one message with its Markdown source (GET /messages/{id},
// apply_markdown=false); the empty topic is "" (allow_empty_topic_name, FL334; older servers
// ignore it). Idempotent. A message that is gone, or that the caller cannot access, is
// IsNotFound.
func (c *Client) GetMessage(ctx context.Context, id int64) (*Message, error) {
	p := newParams().json("apply_markdown", false).json("allow_empty_topic_name", true)
	var out struct {
		Message Message `json:"message"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: messagePath(id), params: p, idempotent: true}, &out); err != nil {
		return nil, err
	}
	return &out.Message, nil
}

// NewestMessages returns up to n of the newest messages matching narrow, oldest first, with
// their Markdown source (GET /messages, anchor newest). Idempotent.
func (c *Client) NewestMessages(ctx context.Context, narrow []NarrowTerm, n int) ([]Message, error) {
	if narrow == nil {
		narrow = []NarrowTerm{}
	}
	p := newParams().str("anchor", "newest").int("num_before", int64(n)).int("num_after", 0).json("narrow", narrow).
		json("apply_markdown", false).json("allow_empty_topic_name", true)
	var out struct {
		Messages []Message `json:"messages"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "messages", params: p, idempotent: true}, &out)
	return out.Messages, err
}

// MaxMessagesByID is how many message ids GetMessagesByID asks for in one request:
// Zulip's documentation recommends at most 1000 messages a batch.
const MaxMessagesByID = 1000

// GetMessagesByID reads the messages of ids with their Markdown source, as GetMessage
// does, in one request per MaxMessagesByID ids (GET /messages with message_ids, feature
// level 300). Zulip returns those of them that exist and are in the caller's message
// history (its own messages, and those of channels it was subscribed to when they were
// sent); the others are left out, not an error: GetMessage tells a gone message from one
// the caller can read outside its history. Idempotent.
func (c *Client) GetMessagesByID(ctx context.Context, ids []int64) ([]Message, error) {
	var all []Message
	for chunk := range slices.Chunk(ids, MaxMessagesByID) {
		p := newParams().json("message_ids", chunk).json("narrow", []NarrowTerm{}).
			json("apply_markdown", false).json("allow_empty_topic_name", true)
		var out struct {
			Messages []Message `json:"messages"`
		}
		if err := c.do(ctx, request{method: http.MethodGet, path: "messages", params: p, idempotent: true}, &out); err != nil {
			return nil, err
		}
		all = append(all, out.Messages...)
	}
	return all, nil
}

// EditMessageRequest changes a message (PATCH /messages/{id}); nil fields are left as
// they are.
type EditMessageRequest struct {
	Content *string
	// Topic moves the message alone to another topic of its channel (propagate_mode
	// change_one), without Notification Bot's notices in either topic: the change is the
	// configuration's, not news.
	Topic *string
}

// EditMessage changes a message's content, topic or both in one request (PATCH
// /messages/{id}). Idempotent: a repeat sets the same content, and a move to the topic the
// message is in already is no change, which Zulip answers "Nothing to change" when the
// request holds nothing else: that answer is a success here.
func (c *Client) EditMessage(ctx context.Context, id int64, r EditMessageRequest) error {
	p := newParams()
	if r.Content != nil {
		p.str("content", *r.Content)
	}
	if r.Topic != nil {
		p.str("topic", *r.Topic).str("propagate_mode", "change_one").
			json("send_notification_to_old_thread", false).json("send_notification_to_new_thread", false)
	}
	err := c.do(ctx, request{method: http.MethodPatch, path: messagePath(id), params: p, idempotent: true}, nil)
	var apiErr *APIError
	if r.Content == nil && errors.As(err, &apiErr) && apiErr.Msg == "Nothing to change" {
		return nil
	}
	return err
}

// DeleteMessage deletes a message for everyone (DELETE /messages/{id}). Idempotent in
// effect: a repeat is IsNotFound.
func (c *Client) DeleteMessage(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: messagePath(id), idempotent: true}, nil)
}

// messagePath is the path of one message.
func messagePath(id int64) string { return "messages/" + strconv.FormatInt(id, 10) }
