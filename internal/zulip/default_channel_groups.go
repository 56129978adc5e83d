package zulip

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Default channel groups: named sets of channels offered to new users at sign-up. Zulip's
// API description leaves the endpoints out (an experimental feature): their parameters
// and words are those of zerver/views/streams.py, which the reference server models
// (internal/refserver/default_channel_groups.go). The groups are read only through
// register, their channels are addressed by name, and a create answers no id.

// EventTypeDefaultStreamGroups is the register fetch type of the default channel groups.
const EventTypeDefaultStreamGroups = "default_stream_groups"

// DefaultChannelGroup is one default channel group (register's
// realm_default_stream_groups).
type DefaultChannelGroup struct {
	ID          int64
	Name        string
	Description string
	// ChannelIDs are the group's channels, archived ones left out.
	ChannelIDs []int64
}

// UnmarshalJSON decodes a group; its streams are ids from feature level 330 and the
// channels themselves before.
func (g *DefaultChannelGroup) UnmarshalJSON(data []byte) error {
	var raw struct {
		ID          int64           `json:"id"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Streams     json.RawMessage `json:"streams"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*g = DefaultChannelGroup{ID: raw.ID, Name: raw.Name, Description: raw.Description, ChannelIDs: []int64{}}
	if len(raw.Streams) == 0 || string(raw.Streams) == "null" {
		return nil
	}
	var ids []int64
	if json.Unmarshal(raw.Streams, &ids) == nil {
		g.ChannelIDs = append(g.ChannelIDs, ids...)
		return nil
	}
	var channels []struct {
		StreamID int64 `json:"stream_id"`
	}
	if err := json.Unmarshal(raw.Streams, &channels); err != nil {
		return fmt.Errorf("default channel group %q: streams: %w", raw.Name, err)
	}
	for _, ch := range channels {
		g.ChannelIDs = append(g.ChannelIDs, ch.StreamID)
	}
	return nil
}

// ListDefaultChannelGroups returns the default channel groups through POST /register
// (fetch type default_stream_groups, the only way Zulip lists them; the queue is
// deleted). Guests get none. Idempotent.
func (c *Client) ListDefaultChannelGroups(ctx context.Context) ([]DefaultChannelGroup, error) {
	resp, err := c.FetchState(ctx, EventTypeDefaultStreamGroups)
	if err != nil {
		return nil, err
	}
	if resp.RealmDefaultStreamGroups == nil {
		return []DefaultChannelGroup{}, nil
	}
	return resp.RealmDefaultStreamGroups, nil
}

// CreateDefaultChannelGroupRequest is the body of CreateDefaultChannelGroup. Zulip
// requires every parameter (the description and the list may be empty).
type CreateDefaultChannelGroupRequest struct {
	Name        string
	Description string
	// ChannelNames are the group's channels, by name (none may be a default channel).
	ChannelNames []string
}

// CreateDefaultChannelGroup creates a default channel group (POST
// /default_stream_groups/create; administrators). Zulip answers no id: read the groups
// back by name. Not idempotent: a repeat fails ("Default channel group '...' already
// exists"), so after an uncertain failure reconcile with ListDefaultChannelGroups.
func (c *Client) CreateDefaultChannelGroup(ctx context.Context, r CreateDefaultChannelGroupRequest) error {
	names := r.ChannelNames
	if names == nil {
		names = []string{}
	}
	p := newParams().str("group_name", r.Name).str("description", r.Description).json("stream_names", names)
	return c.do(ctx, request{method: http.MethodPost, path: "default_stream_groups/create", params: p, idempotent: false}, nil)
}

// UpdateDefaultChannelGroupRequest is the body of UpdateDefaultChannelGroup; nil fields
// are not sent, and Zulip refuses a request with neither (or with both empty).
type UpdateDefaultChannelGroupRequest struct {
	Name        *string
	Description *string
}

// UpdateDefaultChannelGroup renames a default channel group or changes its description
// (PATCH /default_stream_groups/{id}; administrators). Not idempotent: a repeated rename
// fails ("This default channel group is already named '...'"). An unknown id is
// IsNotFound.
func (c *Client) UpdateDefaultChannelGroup(ctx context.Context, id int64, r UpdateDefaultChannelGroupRequest) error {
	p := newParams().optStr("new_group_name", r.Name).optStr("new_description", r.Description)
	return defaultChannelGroupGone(c.do(ctx, request{method: http.MethodPatch, path: defaultChannelGroupPath(id),
		params: p, idempotent: false}, nil))
}

// AddDefaultChannelGroupChannels adds channels, by name, to a default channel group
// (PATCH /default_stream_groups/{id}/streams, op add; administrators). Zulip adds them
// one by one and stops at the first it refuses (a default channel, one already in the
// group), keeping those added before. Not idempotent: a repeat fails ("Channel '...' is
// already present in default channel group '...'"). An unknown id is IsNotFound.
func (c *Client) AddDefaultChannelGroupChannels(ctx context.Context, id int64, names []string) error {
	return c.defaultChannelGroupChannels(ctx, id, "add", names)
}

// RemoveDefaultChannelGroupChannels removes channels, by name, from a default channel
// group (PATCH /default_stream_groups/{id}/streams, op remove; administrators); Zulip
// checks them all first. Not idempotent: a repeat fails ("Channel '...' is not present in
// default channel group '...'"). An unknown id is IsNotFound.
func (c *Client) RemoveDefaultChannelGroupChannels(ctx context.Context, id int64, names []string) error {
	return c.defaultChannelGroupChannels(ctx, id, "remove", names)
}

// defaultChannelGroupChannels sends PATCH /default_stream_groups/{id}/streams.
func (c *Client) defaultChannelGroupChannels(ctx context.Context, id int64, op string, names []string) error {
	if names == nil {
		names = []string{}
	}
	p := newParams().str("op", op).json("stream_names", names)
	return defaultChannelGroupGone(c.do(ctx, request{method: http.MethodPatch, path: defaultChannelGroupPath(id) + "/streams",
		params: p, idempotent: false}, nil))
}

// DeleteDefaultChannelGroup deletes a default channel group (DELETE
// /default_stream_groups/{id}; administrators). A group that is gone is IsNotFound; a
// caller that only wants it gone treats that as done. Idempotent in effect.
func (c *Client) DeleteDefaultChannelGroup(ctx context.Context, id int64) error {
	return defaultChannelGroupGone(c.do(ctx, request{method: http.MethodDelete, path: defaultChannelGroupPath(id), idempotent: true}, nil))
}

// defaultChannelGroupPath is the path of one group.
func defaultChannelGroupPath(id int64) string {
	return "default_stream_groups/" + strconv.FormatInt(id, 10)
}

// defaultChannelGroupGone makes Zulip's answer for an unknown group ("Default channel
// group with id '...' does not exist.", access_default_stream_group_by_id) match
// ErrNotFound.
func defaultChannelGroupGone(err error) error {
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.HTTPStatus == http.StatusBadRequest && apiErr.Code == CodeBadRequest &&
		strings.HasPrefix(apiErr.Msg, "Default channel group with id ") && strings.HasSuffix(apiErr.Msg, "does not exist.") {
		return groupNotFound{err}
	}
	return err
}

// groupNotFound is an answer for an unknown default channel group: it reads as the
// server's error and matches ErrNotFound.
type groupNotFound struct{ error }

// Is matches ErrNotFound.
func (e groupNotFound) Is(target error) bool { return target == ErrNotFound }

// Unwrap is the server's error.
func (e groupNotFound) Unwrap() error { return e.error }
