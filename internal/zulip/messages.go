package zulip

import (
	"context"
	"net/http"
	"strconv"
)

// Message flag operations and the flags a user can change (UpdateMessageFlags). Other flags
// (mentioned, has_alert_word, historical, ...) are read-only.
const (
	FlagOpAdd    = "add"
	FlagOpRemove = "remove"

	FlagRead      = "read"
	FlagStarred   = "starred"
	FlagCollapsed = "collapsed"
)

// Report types accepted by every server with ReportMessage (FL382). Since FL435 the
// authoritative list is RegisterResponse.ServerReportMessageTypes.
const (
	ReportTypeSpam          = "spam"
	ReportTypeHarassment    = "harassment"
	ReportTypeInappropriate = "inappropriate"
	ReportTypeNorms         = "norms"
	ReportTypeOther         = "other"
)

// UpdateMessageFlagsRequest is the body of UpdateMessageFlags.
type UpdateMessageFlagsRequest struct {
	Messages []int64
	Op       string
	Flag     string
}

// UpdateMessageFlagsResponse is Zulip's answer to UpdateMessageFlags. It does not say which
// messages changed: Messages is the request's list echoed back unchanged (duplicates and
// messages that already had the flag included; Zulip keeps it "for backwards compatibility").
// IgnoredBecauseNotSubscribedChannels (FL355) lists, when marking messages unread, the
// channels whose messages were left read because the caller is not subscribed to them; it
// is empty otherwise, and absent (nil) on older servers.
type UpdateMessageFlagsResponse struct {
	Messages                            []int64 `json:"messages"`
	IgnoredBecauseNotSubscribedChannels []int64 `json:"ignored_because_not_subscribed_channels"`
}

// NarrowTerm is one term of a narrow. Operand is a string, an integer id, or a list of ids
// (for operators such as "dm"), as the operator requires.
type NarrowTerm struct {
	Operator string `json:"operator"`
	Operand  any    `json:"operand"`
	Negated  bool   `json:"negated,omitempty"`
}

// NarrowMatch is the highlighted rendering of a message that matches a narrow: both fields
// are HTML with <span class="highlight"> around search terms.
type NarrowMatch struct {
	MatchContent string `json:"match_content"`
	MatchSubject string `json:"match_subject"`
}

// ReportMessageRequest is the body of ReportMessage.
type ReportMessageRequest struct {
	ReportType string
	// Description is required (non-empty) for ReportTypeOther; "" is not sent.
	Description string
}

// UpdateMessageFlags adds or removes a personal flag on messages (POST /messages/flags).
// Idempotent: it sets state, and a repeat answers the same.
func (c *Client) UpdateMessageFlags(ctx context.Context, r UpdateMessageFlagsRequest) (*UpdateMessageFlagsResponse, error) {
	ids := r.Messages
	if ids == nil {
		ids = []int64{}
	}
	p := newParams().json("messages", ids).str("op", r.Op).str("flag", r.Flag)
	var out UpdateMessageFlagsResponse
	if err := c.do(ctx, request{method: http.MethodPost, path: "messages/flags", params: p, idempotent: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// MatchesNarrow reports which of the messages match a narrow
// (GET /messages/matches_narrow). Messages that do not match are absent from the map.
// Idempotent.
func (c *Client) MatchesNarrow(ctx context.Context, messageIDs []int64, narrow []NarrowTerm) (map[int64]NarrowMatch, error) {
	if messageIDs == nil {
		messageIDs = []int64{}
	}
	if narrow == nil {
		narrow = []NarrowTerm{}
	}
	p := newParams().json("msg_ids", messageIDs).json("narrow", narrow)
	var out struct {
		Messages map[int64]NarrowMatch `json:"messages"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "messages/matches_narrow", params: p, idempotent: true}, &out); err != nil {
		return nil, err
	}
	if out.Messages == nil {
		out.Messages = map[int64]NarrowMatch{}
	}
	return out.Messages, nil
}

// ReportMessage reports a message to the organization's moderators
// (POST /messages/{id}/report, FL382). Not idempotent: each call posts a report, so it is
// retried only when the server certainly did not process it.
func (c *Client) ReportMessage(ctx context.Context, messageID int64, r ReportMessageRequest) error {
	p := newParams().str("report_type", r.ReportType)
	if r.Description != "" {
		p.str("description", r.Description)
	}
	return c.do(ctx, request{method: http.MethodPost, path: "messages/" + strconv.FormatInt(messageID, 10) + "/report", params: p, idempotent: false}, nil)
}
