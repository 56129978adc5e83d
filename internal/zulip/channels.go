package zulip

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// GroupSettingValue is the value of a group-based permission setting: either a named user
// group (GroupID set) or an anonymous group of direct members and subgroups.
type GroupSettingValue struct {
	// GroupID is the named group's id; nil for an anonymous group.
	GroupID         *int64
	DirectMembers   []int64
	DirectSubgroups []int64
}

// IsNamedGroup reports whether the value refers to a named group.
func (g GroupSettingValue) IsNamedGroup() bool { return g.GroupID != nil }

// UnmarshalJSON accepts an integer or {"direct_members": [...], "direct_subgroups": [...]}.
func (g *GroupSettingValue) UnmarshalJSON(data []byte) error {
	*g = GroupSettingValue{}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var anon struct {
			DirectMembers   []int64 `json:"direct_members"`
			DirectSubgroups []int64 `json:"direct_subgroups"`
		}
		if err := json.Unmarshal(trimmed, &anon); err != nil {
			return err
		}
		g.DirectMembers = nonNil(anon.DirectMembers)
		g.DirectSubgroups = nonNil(anon.DirectSubgroups)
		return nil
	}
	var id int64
	if err := json.Unmarshal(trimmed, &id); err != nil {
		return fmt.Errorf("group setting value must be a group id or an anonymous group: %w", err)
	}
	g.GroupID = &id
	return nil
}

// MarshalJSON writes the same two forms.
func (g GroupSettingValue) MarshalJSON() ([]byte, error) {
	if g.GroupID != nil {
		return json.Marshal(*g.GroupID)
	}
	return json.Marshal(struct {
		DirectMembers   []int64 `json:"direct_members"`
		DirectSubgroups []int64 `json:"direct_subgroups"`
	}{nonNil(g.DirectMembers), nonNil(g.DirectSubgroups)})
}

func nonNil(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

// Channel is a channel ("stream") as GET /streams describes it (digest §7.1). Fields that
// newer servers add are ignored; those that older servers lack stay nil or zero.
type Channel struct {
	StreamID                   int64              `json:"stream_id"`
	Name                       string             `json:"name"`
	Description                string             `json:"description"`
	RenderedDescription        string             `json:"rendered_description"`
	DateCreated                int64              `json:"date_created"`
	CreatorID                  *int64             `json:"creator_id"`
	InviteOnly                 bool               `json:"invite_only"`
	IsWebPublic                bool               `json:"is_web_public"`
	HistoryPublicToSubscribers bool               `json:"history_public_to_subscribers"`
	IsArchived                 bool               `json:"is_archived"`
	FirstMessageID             *int64             `json:"first_message_id"`
	MessageRetentionDays       *int64             `json:"message_retention_days"`
	IsRecentlyActive           bool               `json:"is_recently_active"`
	StreamWeeklyTraffic        *int64             `json:"stream_weekly_traffic"`
	StreamPostPolicy           int                `json:"stream_post_policy"`
	IsAnnouncementOnly         bool               `json:"is_announcement_only"`
	TopicsPolicy               string             `json:"topics_policy"`
	CanAddSubscribersGroup     *GroupSettingValue `json:"can_add_subscribers_group"`
	CanRemoveSubscribersGroup  *GroupSettingValue `json:"can_remove_subscribers_group"`
	CanAdministerChannelGroup  *GroupSettingValue `json:"can_administer_channel_group"`
	CanSendMessageGroup        *GroupSettingValue `json:"can_send_message_group"`
	CanSubscribeGroup          *GroupSettingValue `json:"can_subscribe_group"`
	CanCreateTopicGroup        *GroupSettingValue `json:"can_create_topic_group"`
	IsDefault                  *bool              `json:"is_default"`
}

// ListChannelsOptions are the filters of ListChannels; nil leaves the server default
// (include_public and include_subscribed true, exclude_archived true, the rest false).
type ListChannelsOptions struct {
	IncludePublic           *bool
	IncludeWebPublic        *bool
	IncludeSubscribed       *bool
	ExcludeArchived         *bool
	IncludeAll              *bool
	IncludeAllActive        *bool
	IncludeDefault          *bool
	IncludeOwnerSubscribed  *bool
	IncludeCanAccessContent *bool
}

// Topic is a topic of a channel with the id of its latest message.
type Topic struct {
	MaxID int64  `json:"max_id"`
	Name  string `json:"name"`
}

// ListTopicsOptions are the query parameters of ListTopics.
type ListTopicsOptions struct {
	// AllowEmptyTopicName returns the "" topic as "" rather than the realm's display name
	// for it (FL334). Nil leaves the server default (false).
	AllowEmptyTopicName *bool
}

// ListChannels returns the channels matching the filters (GET /streams). Idempotent.
func (c *Client) ListChannels(ctx context.Context, opts ListChannelsOptions) ([]Channel, error) {
	p := newParams().
		optJSONBool("include_public", opts.IncludePublic).
		optJSONBool("include_web_public", opts.IncludeWebPublic).
		optJSONBool("include_subscribed", opts.IncludeSubscribed).
		optJSONBool("exclude_archived", opts.ExcludeArchived).
		optJSONBool("include_all", opts.IncludeAll).
		optJSONBool("include_all_active", opts.IncludeAllActive).
		optJSONBool("include_default", opts.IncludeDefault).
		optJSONBool("include_owner_subscribed", opts.IncludeOwnerSubscribed).
		optJSONBool("include_can_access_content", opts.IncludeCanAccessContent)
	var out struct {
		Streams []Channel `json:"streams"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "streams", params: p, idempotent: true}, &out)
	return out.Streams, err
}

// GetChannel returns one channel (GET /streams/{id}, FL132). Idempotent. An unknown or
// inaccessible id is IsNotFound ("Invalid channel ID").
func (c *Client) GetChannel(ctx context.Context, id int64) (*Channel, error) {
	var out struct {
		Stream Channel `json:"stream"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "streams/" + strconv.FormatInt(id, 10), idempotent: true}, &out); err != nil {
		return nil, err
	}
	return &out.Stream, nil
}

// ListTopics returns a channel's topics, newest first (GET /users/me/{stream_id}/topics).
// Idempotent.
func (c *Client) ListTopics(ctx context.Context, streamID int64, opts ListTopicsOptions) ([]Topic, error) {
	p := newParams().optJSONBool("allow_empty_topic_name", opts.AllowEmptyTopicName)
	var out struct {
		Topics []Topic `json:"topics"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "users/me/" + strconv.FormatInt(streamID, 10) + "/topics", params: p, idempotent: true}, &out)
	return out.Topics, err
}
