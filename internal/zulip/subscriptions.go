package zulip

import (
	"context"
	"net/http"
)

// ChannelByName names a channel in Subscribe. The subscription endpoints address channels
// by name, and Subscribe creates a channel whose name does not exist (digest §3.5), with
// Description as its description; a caller that only means to subscribe should read the
// channel's current name by id first.
type ChannelByName struct {
	Name        string  `json:"name"`
	Description *string `json:"description,omitempty"`
}

// SubscribeRequest is the body of Subscribe. Nil optional fields are not sent. The channel
// settings (InviteOnly through Permissions) apply only to channels the request creates.
type SubscribeRequest struct {
	Subscriptions []ChannelByName
	// Principals are the user ids to subscribe; nil subscribes the caller.
	Principals []int64
	// AuthorizationErrorsFatal false subscribes to the channels the caller may access and
	// lists the others in SubscribeResult.Unauthorized (server default true).
	AuthorizationErrorsFatal *bool
	// Announce posts about newly created channels in the new-channel announcements channel.
	Announce *bool
	// SendNewSubscriptionMessages false keeps Notification Bot from sending each new
	// subscriber a direct message (FL397; before it, they were always sent; server default
	// true).
	SendNewSubscriptionMessages *bool
	InviteOnly                  *bool
	IsWebPublic                 *bool
	HistoryPublicToSubscribers  *bool
	IsDefaultStream             *bool
	MessageRetentionDays        *MessageRetention
	TopicsPolicy                *string // one of the TopicsPolicy constants
	FolderID                    *int64  // FL389
	DefaultPushNotifications    *bool   // FL507
	Permissions                 ChannelPermissions
}

// SubscribeResult is the answer of Subscribe. Subscribed and AlreadySubscribed map a user
// to channel names; the key is the user id in decimal since FL289 and the user's API
// e-mail address before.
type SubscribeResult struct {
	Subscribed        map[string][]string `json:"subscribed"`
	AlreadySubscribed map[string][]string `json:"already_subscribed"`
	// Unauthorized lists the channels the caller could not subscribe to; present only when
	// AuthorizationErrorsFatal was false.
	Unauthorized []string `json:"unauthorized"`
	// NewSubscriptionMessagesSent says whether Notification Bot messages were in fact sent;
	// present only when SendNewSubscriptionMessages was true (FL397).
	NewSubscriptionMessagesSent *bool `json:"new_subscription_messages_sent"`
}

// UnsubscribeRequest is the body of Unsubscribe.
type UnsubscribeRequest struct {
	// Subscriptions are the names of the channels.
	Subscriptions []string
	// Principals are the user ids to unsubscribe; nil unsubscribes the caller.
	Principals []int64
}

// UnsubscribeResult is the answer of Unsubscribe: the names of the channels the users were
// removed from, and of those they were not subscribed to.
type UnsubscribeResult struct {
	Removed    []string `json:"removed"`
	NotRemoved []string `json:"not_removed"`
}

// Subscribe subscribes users to channels, creating those whose names do not exist (POST
// /users/me/subscriptions). Subscribing others needs can_add_subscribers_group on the
// channel or the realm. Idempotent in effect: a repeat finds the users already subscribed
// (AlreadySubscribed) and creates nothing, so it is retried like a read.
func (c *Client) Subscribe(ctx context.Context, r SubscribeRequest) (*SubscribeResult, error) {
	subs := r.Subscriptions
	if subs == nil {
		subs = []ChannelByName{}
	}
	p := newParams().
		json("subscriptions", subs).
		optJSONList("principals", r.Principals).
		optJSONBool("authorization_errors_fatal", r.AuthorizationErrorsFatal).
		optJSONBool("announce", r.Announce).
		optJSONBool("send_new_subscription_messages", r.SendNewSubscriptionMessages).
		optJSONBool("invite_only", r.InviteOnly).
		optJSONBool("is_web_public", r.IsWebPublic).
		optJSONBool("history_public_to_subscribers", r.HistoryPublicToSubscribers).
		optJSONBool("is_default_stream", r.IsDefaultStream).
		optJSONInt("folder_id", r.FolderID).
		optJSONBool("default_push_notifications", r.DefaultPushNotifications)
	if r.MessageRetentionDays != nil {
		p.json("message_retention_days", *r.MessageRetentionDays)
	}
	if r.TopicsPolicy != nil {
		p.json("topics_policy", *r.TopicsPolicy)
	}
	r.Permissions.addTo(p)
	var out SubscribeResult
	if err := c.do(ctx, request{method: http.MethodPost, path: "users/me/subscriptions", params: p, idempotent: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Unsubscribe removes users from channels named in the request (DELETE
// /users/me/subscriptions). Administrators may remove anyone; others need the channel's
// can_remove_subscribers_group, except for themselves and their bots. An unknown channel
// name is an error (STREAM_DOES_NOT_EXIST, IsNotFound). Idempotent: a repeat lists the
// channels in NotRemoved.
func (c *Client) Unsubscribe(ctx context.Context, r UnsubscribeRequest) (*UnsubscribeResult, error) {
	names := r.Subscriptions
	if names == nil {
		names = []string{}
	}
	p := newParams().json("subscriptions", names).optJSONList("principals", r.Principals)
	var out UnsubscribeResult
	if err := c.do(ctx, request{method: http.MethodDelete, path: "users/me/subscriptions", params: p, idempotent: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetChannelSubscribers returns the user ids of a channel's active subscribers (GET
// /streams/{id}/members; archived channels since FL480). Idempotent. An unknown or
// inaccessible id is IsNotFound ("Invalid channel ID").
func (c *Client) GetChannelSubscribers(ctx context.Context, channelID int64) ([]int64, error) {
	var out struct {
		Subscribers []int64 `json:"subscribers"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: channelPath(channelID, "/members"), idempotent: true}, &out)
	return out.Subscribers, err
}

// ChannelSubscribers is a channel of register's subscription section with its subscribers.
type ChannelSubscribers struct {
	StreamID    int64   `json:"stream_id"`
	Name        string  `json:"name"`
	IsArchived  bool    `json:"is_archived"`
	Subscribers []int64 `json:"subscribers"`
}

// ListAllSubscribers returns the subscribers of every channel the account can see,
// archived channels included, by channel id, in one request (POST /register with the
// subscription fetch type and include_subscribers; the queue is deleted at once). Zulip
// has no list endpoint for this: GET /streams/{id}/members answers for one channel.
func (c *Client) ListAllSubscribers(ctx context.Context) (map[int64][]int64, error) {
	include := true
	resp, err := c.fetchState(ctx, RegisterRequest{
		FetchEventTypes:    []string{"subscription"},
		IncludeSubscribers: &include,
		ClientCapabilities: map[string]bool{"archived_channels": true},
	})
	if err != nil {
		return nil, err
	}
	out := map[int64][]int64{}
	for _, list := range [][]ChannelSubscribers{resp.Subscriptions, resp.NeverSubscribed} {
		for _, ch := range list {
			out[ch.StreamID] = append([]int64{}, ch.Subscribers...)
		}
	}
	return out, nil
}
