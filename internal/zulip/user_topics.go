package zulip

import (
	"context"
	"net/http"
)

// Topic visibility policies (UserTopic.VisibilityPolicy).
const (
	// VisibilityPolicyNone removes the user's preference for the topic.
	VisibilityPolicyNone = 0
	// VisibilityPolicyMuted mutes the topic.
	VisibilityPolicyMuted = 1
	// VisibilityPolicyUnmuted unmutes the topic in a muted channel (FL170).
	VisibilityPolicyUnmuted = 2
	// VisibilityPolicyFollowed follows the topic (FL219).
	VisibilityPolicyFollowed = 3
)

// UserTopic is the caller's visibility policy for one topic. Topics with policy none are
// not listed.
type UserTopic struct {
	StreamID         int64  `json:"stream_id"`
	TopicName        string `json:"topic_name"`
	LastUpdated      int64  `json:"last_updated"`
	VisibilityPolicy int    `json:"visibility_policy"`
}

// SetUserTopic sets the caller's visibility policy for a topic (POST /user_topics, FL170);
// VisibilityPolicyNone removes it. Idempotent: it sets a value, and Zulip accepts a repeat.
// An inaccessible channel is IsNotFound ("Invalid channel ID").
func (c *Client) SetUserTopic(ctx context.Context, streamID int64, topic string, policy int) error {
	p := newParams().
		json("stream_id", streamID).
		str("topic", topic).
		json("visibility_policy", policy)
	return c.do(ctx, request{method: http.MethodPost, path: "user_topics", params: p, idempotent: true}, nil)
}

// ListUserTopics returns the caller's topic visibility policies. Zulip has no endpoint for
// them other than POST /register with fetch type "user_topic" (singular; the answer's key is
// user_topics), so this registers a queue for no events, reads the state and deletes the
// queue again (best effort). Idempotent.
func (c *Client) ListUserTopics(ctx context.Context) ([]UserTopic, error) {
	resp, err := c.fetchState(ctx, RegisterRequest{FetchEventTypes: []string{EventTypeUserTopic}})
	if err != nil {
		return nil, err
	}
	if resp.UserTopics == nil {
		return []UserTopic{}, nil
	}
	return resp.UserTopics, nil
}
