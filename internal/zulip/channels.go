package zulip

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	StreamID                   int64  `json:"stream_id"`
	Name                       string `json:"name"`
	Description                string `json:"description"`
	RenderedDescription        string `json:"rendered_description"`
	DateCreated                int64  `json:"date_created"`
	CreatorID                  *int64 `json:"creator_id"`
	InviteOnly                 bool   `json:"invite_only"`
	IsWebPublic                bool   `json:"is_web_public"`
	HistoryPublicToSubscribers bool   `json:"history_public_to_subscribers"`
	IsArchived                 bool   `json:"is_archived"`
	FirstMessageID             *int64 `json:"first_message_id"`
	// MessageRetentionDays is nil for the organization's policy and -1 for "unlimited";
	// Retention turns it into the value CreateChannel and UpdateChannel take.
	MessageRetentionDays *int64 `json:"message_retention_days"`
	IsRecentlyActive     bool   `json:"is_recently_active"`
	StreamWeeklyTraffic  *int64 `json:"stream_weekly_traffic"`
	StreamPostPolicy     int    `json:"stream_post_policy"`
	IsAnnouncementOnly   bool   `json:"is_announcement_only"`
	TopicsPolicy         string `json:"topics_policy"`
	// FolderID is the channel folder the channel is in (FL389); nil when none.
	FolderID *int64 `json:"folder_id"`
	// DefaultPushNotifications is the channel's default for new subscribers' push
	// notifications (FL507); nil on older servers.
	DefaultPushNotifications *bool `json:"default_push_notifications"`
	// SubscriberCount is the number of active subscribers, bots included (FL394). The
	// description types it as a number; Zulip sends an integer.
	SubscriberCount *int64 `json:"subscriber_count"`
	// ChannelPermissions are the 11 channel permission settings (digest §1.2).
	ChannelPermissions
	// IsDefault is present only when ListChannels was asked for include_default.
	IsDefault *bool `json:"is_default"`
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

// Topics policies of a channel (TopicsPolicy in the API description; FL392, EmptyTopicOnly
// FL404).
const (
	TopicsPolicyInherit           = "inherit"
	TopicsPolicyAllowEmptyTopic   = "allow_empty_topic"
	TopicsPolicyDisableEmptyTopic = "disable_empty_topic"
	TopicsPolicyEmptyTopicOnly    = "empty_topic_only"
)

// MessageRetention is the message_retention_days parameter of a channel: a number of days,
// or one of the special values "realm_default" (the organization's policy) and "unlimited".
// Build it with RetentionDays, RetentionRealmDefault or RetentionUnlimited; the zero value
// is not a valid retention and a request carrying it fails before it is sent. Setting it
// needs an organization owner and a plan with message retention.
type MessageRetention struct {
	days    int64
	special string
}

// The special retention values.
var (
	RetentionRealmDefault = MessageRetention{special: "realm_default"}
	RetentionUnlimited    = MessageRetention{special: "unlimited"}
)

// RetentionDays is a retention of a number of days, which must be positive.
func RetentionDays(days int64) MessageRetention { return MessageRetention{days: days} }

// Days returns the number of days and true, or 0 and false for a special value.
func (m MessageRetention) Days() (int64, bool) { return m.days, m.special == "" && m.days > 0 }

// String returns "realm_default", "unlimited" or the number of days.
func (m MessageRetention) String() string {
	if m.special != "" {
		return m.special
	}
	return strconv.FormatInt(m.days, 10)
}

// MarshalJSON writes the special values as JSON strings and days as a JSON integer: Zulip
// reads the parameter as Json[str] | Json[int] (zerver/views/streams.py), although the API
// description declares no JSON encoding for it.
func (m MessageRetention) MarshalJSON() ([]byte, error) {
	if m.special != "" {
		return json.Marshal(m.special)
	}
	if m.days <= 0 {
		return nil, fmt.Errorf("message retention must be a positive number of days, %q or %q, not %d",
			RetentionRealmDefault.special, RetentionUnlimited.special, m.days)
	}
	return json.Marshal(m.days)
}

// Retention returns the channel's retention as CreateChannel and UpdateChannel take it:
// RetentionRealmDefault when message_retention_days is null, RetentionUnlimited for -1.
func (c Channel) Retention() MessageRetention {
	switch {
	case c.MessageRetentionDays == nil:
		return RetentionRealmDefault
	case *c.MessageRetentionDays == -1:
		return RetentionUnlimited
	}
	return RetentionDays(*c.MessageRetentionDays)
}

// addTo adds the permissions the request sets.
func (s ChannelPermissions) addTo(p *params) {
	for _, n := range s.named() {
		p.optGroupSetting(n.name, n.value)
	}
}

// CreateChannelRequest is the body of CreateChannel. Nil optional fields are not sent and
// the server applies its defaults (public, not web-public, not default, history public,
// the organization's retention, no folder, topics policy "inherit", no announcement).
type CreateChannelRequest struct {
	Name        string
	Description *string
	// Subscribers are the user ids subscribed on creation. Zulip requires the parameter
	// and does not subscribe the caller implicitly; nil is sent as [].
	Subscribers                []int64
	Announce                   *bool
	InviteOnly                 *bool
	IsWebPublic                *bool
	HistoryPublicToSubscribers *bool
	IsDefaultStream            *bool
	MessageRetentionDays       *MessageRetention
	FolderID                   *int64  // FL389
	TopicsPolicy               *string // one of the TopicsPolicy constants
	DefaultPushNotifications   *bool   // FL507; administrators
	Permissions                ChannelPermissions
}

// UpdateChannelRequest is the body of UpdateChannel; nil fields are not sent and leave the
// property unchanged.
type UpdateChannelRequest struct {
	// NewName renames the channel (the description names the parameter new_name).
	NewName                    *string
	Description                *string
	IsPrivate                  *bool
	IsWebPublic                *bool
	HistoryPublicToSubscribers *bool
	IsDefaultStream            *bool // FL200
	MessageRetentionDays       *MessageRetention
	DefaultPushNotifications   *bool // FL507
	// FolderID moves the channel into a folder (FL389); ClearFolder (folder_id=null) takes
	// it out of its folder. Setting both is an error.
	FolderID     *int64
	ClearFolder  bool
	TopicsPolicy *string // FL392; one of the TopicsPolicy constants
	// Unarchive sends is_archived=false, which unarchives an archived channel (FL388).
	// Archiving is ArchiveChannel.
	Unarchive   bool
	Permissions ChannelPermissionUpdates
}

// CreateChannel creates a channel and returns its id (POST /channels/create, FL417; needs
// the realm's can_create_public/private/web_public_channel_group). A taken name, archived
// channels included, answers HTTP 409 CHANNEL_ALREADY_EXISTS. Not idempotent: a repeat
// fails on the name, so after an uncertain failure reconcile with ListChannels (archived
// channels included).
func (c *Client) CreateChannel(ctx context.Context, r CreateChannelRequest) (int64, error) {
	p := newParams().
		str("name", r.Name).
		optStr("description", r.Description).
		jsonList("subscribers", r.Subscribers).
		optJSONBool("announce", r.Announce).
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
		// JSON-encoded here, as in POST /users/me/subscriptions, but plain in PATCH.
		p.json("topics_policy", *r.TopicsPolicy)
	}
	r.Permissions.addTo(p)
	var out struct {
		ID int64 `json:"id"`
	}
	err := c.do(ctx, request{method: http.MethodPost, path: "channels/create", params: p, idempotent: false}, &out)
	return out.ID, err
}

// UpdateChannel changes a channel's properties and permission settings (PATCH
// /streams/{id}; administrators or can_administer_channel_group, FL325). Idempotent unless
// it renames the channel (a repeat answers "Channel already has that name.") or a setting
// update carries an Old value (a repeat answers EXPECTATION_MISMATCH); those requests are
// retried only when the server certainly did not process them.
func (c *Client) UpdateChannel(ctx context.Context, id int64, r UpdateChannelRequest) error {
	if r.FolderID != nil && r.ClearFolder {
		return errors.New("zulip: UpdateChannel: FolderID and ClearFolder are both set")
	}
	p := newParams().
		optStr("new_name", r.NewName).
		optStr("description", r.Description).
		optJSONBool("is_private", r.IsPrivate).
		optJSONBool("is_web_public", r.IsWebPublic).
		optJSONBool("history_public_to_subscribers", r.HistoryPublicToSubscribers).
		optJSONBool("is_default_stream", r.IsDefaultStream).
		optJSONBool("default_push_notifications", r.DefaultPushNotifications).
		optJSONInt("folder_id", r.FolderID).
		optStr("topics_policy", r.TopicsPolicy)
	if r.MessageRetentionDays != nil {
		p.json("message_retention_days", *r.MessageRetentionDays)
	}
	if r.ClearFolder {
		p.json("folder_id", nil)
	}
	if r.Unarchive {
		p.json("is_archived", false)
	}
	settings := r.Permissions.named()
	for _, s := range settings {
		p.optGroupSettingUpdate(s.name, s.value)
	}
	idempotent := r.NewName == nil && !hasOld(settings)
	return c.do(ctx, request{method: http.MethodPatch, path: channelPath(id, ""), params: p, idempotent: idempotent}, nil)
}

// ArchiveChannel archives a channel (DELETE /streams/{id}; administrators or
// can_administer_channel_group). Since Zulip 10 the channel keeps its subscribers and its
// name stays taken; UpdateChannel with Unarchive undoes it (FL388). Not idempotent: after
// an uncertain failure, read the channel's is_archived.
func (c *Client) ArchiveChannel(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: channelPath(id, ""), idempotent: false}, nil)
}

// AddDefaultChannel makes a channel a default channel for new users (POST /default_streams;
// administrators). Private channels are refused ("Private channels cannot be made
// default."). Idempotent: adding a default channel again changes nothing.
func (c *Client) AddDefaultChannel(ctx context.Context, channelID int64) error {
	p := newParams().json("stream_id", channelID)
	return c.do(ctx, request{method: http.MethodPost, path: "default_streams", params: p, idempotent: true}, nil)
}

// RemoveDefaultChannel removes a channel from the default channels (DELETE
// /default_streams; administrators). Idempotent: removing a non-default channel changes
// nothing.
func (c *Client) RemoveDefaultChannel(ctx context.Context, channelID int64) error {
	p := newParams().json("stream_id", channelID)
	return c.do(ctx, request{method: http.MethodDelete, path: "default_streams", params: p, idempotent: true}, nil)
}

func channelPath(id int64, suffix string) string {
	return "streams/" + strconv.FormatInt(id, 10) + suffix
}
