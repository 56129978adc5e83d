package zulip

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
)

// UserStatus is a user's status. A user without a status has the empty object {}, which
// decodes to a UserStatus with Empty set.
type UserStatus struct {
	StatusText   string `json:"status_text,omitempty"`
	EmojiName    string `json:"emoji_name,omitempty"`
	EmojiCode    string `json:"emoji_code,omitempty"`
	ReactionType string `json:"reaction_type,omitempty"`
	// Away is deprecated (FL148) and mirrors !presence_enabled; nil when absent.
	Away *bool `json:"away,omitempty"`
	// Empty is true when the server sent no status fields at all.
	Empty bool `json:"-"`
}

// UnmarshalJSON records whether the object had any keys, which the fields alone cannot tell
// (a status can legitimately have an empty text).
func (s *UserStatus) UnmarshalJSON(data []byte) error {
	type plain UserStatus
	var v plain
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
		return err
	}
	*s = UserStatus(v)
	s.Empty = len(keys) == 0
	return nil
}

// GetUserStatus returns a user's status (GET /users/{id}/status, FL262). Idempotent. An
// unknown user is IsNotFound.
func (c *Client) GetUserStatus(ctx context.Context, userID int64) (*UserStatus, error) {
	var out struct {
		Status *UserStatus `json:"status"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "users/" + strconv.FormatInt(userID, 10) + "/status", idempotent: true}, &out); err != nil {
		return nil, err
	}
	if out.Status == nil {
		return &UserStatus{Empty: true}, nil
	}
	return out.Status, nil
}
