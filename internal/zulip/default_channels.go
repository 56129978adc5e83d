package zulip

import (
	"context"
	"encoding/json"
	"fmt"
)

// EventTypeDefaultStreams is the register fetch type of the default channels.
const EventTypeDefaultStreams = "default_streams"

// ListDefaultChannels returns the ids of the default channels, through POST /register
// (fetch type default_streams; the queue is deleted). Idempotent.
func (c *Client) ListDefaultChannels(ctx context.Context) ([]int64, error) {
	resp, err := c.FetchState(ctx, EventTypeDefaultStreams)
	if err != nil {
		return nil, err
	}
	return resp.DefaultChannelIDs()
}

// DefaultChannelIDs decodes realm_default_streams: ids from feature level 330, the
// channels themselves before.
func (r *RegisterResponse) DefaultChannelIDs() ([]int64, error) {
	if len(r.RealmDefaultStreams) == 0 {
		return []int64{}, nil
	}
	var ids []int64
	if err := json.Unmarshal(r.RealmDefaultStreams, &ids); err == nil {
		return ids, nil
	}
	var channels []struct {
		StreamID int64 `json:"stream_id"`
	}
	if err := json.Unmarshal(r.RealmDefaultStreams, &channels); err != nil {
		return nil, fmt.Errorf("realm_default_streams: %w", err)
	}
	ids = make([]int64, len(channels))
	for i, ch := range channels {
		ids[i] = ch.StreamID
	}
	return ids, nil
}
