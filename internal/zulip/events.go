package zulip

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// Register event and fetch types this project uses.
const (
	EventTypeUserTopic                 = "user_topic"
	EventTypeRealmUserSettingsDefaults = "realm_user_settings_defaults"
	EventTypeRealm                     = "realm"
	EventTypeRealmDomains              = "realm_domains"
	EventTypeRealmLinkifiers           = "realm_linkifiers"
	EventTypeCustomProfileFields       = "custom_profile_fields"
	EventTypeRealmUserGroups           = "realm_user_groups"
	EventTypeUserStatus                = "user_status"
	EventTypeSavedSnippets             = "saved_snippets"
)

// CapabilityLinkifierURLTemplate must be set in RegisterRequest.ClientCapabilities for the
// answer to carry realm_linkifiers (FL176); without it the list is empty.
const CapabilityLinkifierURLTemplate = "linkifier_url_template"

// RegisterRequest is the body of Register. Nil slices and pointers are not sent; note that
// an empty, non-nil EventTypes asks for a queue that receives no events, while nil asks for
// every event type.
type RegisterRequest struct {
	EventTypes         []string
	FetchEventTypes    []string
	ClientCapabilities map[string]bool
	// Narrow limits message events, as a list of [operator, operand] pairs.
	Narrow             [][]string
	ApplyMarkdown      *bool
	ClientGravatar     *bool
	IncludeSubscribers *bool
	SlimPresence       *bool
	AllPublicStreams   *bool
}

// ReportMessageType is one entry of server_report_message_types (FL435): Key is a valid
// report_type for ReportMessage, Name its display text.
type ReportMessageType struct {
	Key  string `json:"key"`
	Name string `json:"name"`
}

// RegisterResponse is the subset of the POST /register answer this project reads; the rest
// is ignored. Keys are present only when their fetch type was requested, except the queue
// and version fields.
type RegisterResponse struct {
	QueueID                          string              `json:"queue_id"`
	LastEventID                      int64               `json:"last_event_id"`
	ZulipFeatureLevel                int                 `json:"zulip_feature_level"`
	ZulipVersion                     string              `json:"zulip_version"`
	ZulipMergeBase                   string              `json:"zulip_merge_base"`
	MaxTopicLength                   int                 `json:"max_topic_length"`
	MaxMessageLength                 int                 `json:"max_message_length"`
	EventQueueLongpollTimeoutSeconds int                 `json:"event_queue_longpoll_timeout_seconds"`
	RealmEmptyTopicDisplayName       string              `json:"realm_empty_topic_display_name"`
	ServerReportMessageTypes         []ReportMessageType `json:"server_report_message_types"`
	// Subscriptions and NeverSubscribed are the fetch type "subscription": the channels
	// the account is subscribed to and those it can see without being subscribed, with
	// their subscribers when IncludeSubscribers was true.
	Subscriptions   []ChannelSubscribers `json:"subscriptions"`
	NeverSubscribed []ChannelSubscribers `json:"never_subscribed"`
	// RealmModerationRequestChannelID is -1 when moderation requests are disabled; nil
	// when not fetched (fetch type "realm").
	RealmModerationRequestChannelID *int64               `json:"realm_moderation_request_channel_id"`
	RealmDomains                    []RealmDomain        `json:"realm_domains"`
	UserTopics                      []UserTopic          `json:"user_topics"`
	RealmLinkifiers                 []Linkifier          `json:"realm_linkifiers"`
	CustomProfileFields             []CustomProfileField `json:"custom_profile_fields"`
	RealmUserGroups                 []UserGroup          `json:"realm_user_groups"`
	// UserStatus is keyed by user id as a string and covers users who set a status.
	UserStatus    map[string]UserStatus `json:"user_status"`
	SavedSnippets []SavedSnippet        `json:"saved_snippets"`
	// RealmPlanType is Zulip Cloud's plan of the organization (fetch type "realm"):
	// 1 self-hosted, 2 limited (free), 3 standard, 4 standard free, 10 plus.
	RealmPlanType int `json:"realm_plan_type"`
	// ServerSupportedPermissionSettings is fetch type "realm"'s rules for every
	// group-setting permission; PermissionRules decodes it.
	ServerSupportedPermissionSettings json.RawMessage `json:"server_supported_permission_settings"`
	// StarredMessages is the fetch type starred_messages (at most MaxStarredSnapshot).
	StarredMessages []int64 `json:"starred_messages"`
	// UnreadMsgs is unread_msgs, answered to the fetch types update_message_flags and
	// message together; nil when not fetched.
	UnreadMsgs *UnreadMessages `json:"unread_msgs"`
	// RealmBots is the fetch type realm_bot (ListRealmBots).
	RealmBots []RealmBot `json:"realm_bots"`
	// RealmPlaygrounds is the fetch type realm_playgrounds.
	RealmPlaygrounds []Playground `json:"realm_playgrounds"`
	// RealmDefaultStreams is the fetch type default_streams (see DefaultChannelIDs).
	RealmDefaultStreams json.RawMessage `json:"realm_default_streams"`
	// RealmDefaultStreamGroups is the fetch type default_stream_groups (ListDefaultChannelGroups).
	RealmDefaultStreamGroups []DefaultChannelGroup `json:"realm_default_stream_groups"`
	// RealmRaw are the organization's settings of internal/realmspec, by register key,
	// as the server sent them (see RealmSetting).
	RealmRaw map[string]json.RawMessage `json:"-"`
	// UserDefaultsRaw is realm_user_settings_defaults, by setting name (see UserDefault).
	UserDefaultsRaw map[string]json.RawMessage `json:"-"`
	// realmBotIndex is RealmBots' index by user id, built when decoded (RealmBot).
	realmBotIndex map[int64]int
	// starred and unread are StarredMessages and UnreadMsgs as sets, built
	// when decoded (Starred, Unread).
	starred, unread map[int64]bool
}

// RealmBot returns the bot of realm_bots with the user id; false when the
// snapshot has none. A decoded answer looks it up in an index built once.
func (r *RegisterResponse) RealmBot(userID int64) (RealmBot, bool) {
	if r.realmBotIndex != nil {
		i, ok := r.realmBotIndex[userID]
		if !ok {
			return RealmBot{}, false
		}
		return r.RealmBots[i], true
	}
	for _, b := range r.RealmBots {
		if b.UserID == userID {
			return b, true
		}
	}
	return RealmBot{}, false
}

// GroupPermissionSetting is the rule of one group-setting permission: which
// values it accepts (server_supported_permission_settings).
type GroupPermissionSetting struct {
	RequireSystemGroup  bool     `json:"require_system_group"`
	AllowInternetGroup  bool     `json:"allow_internet_group"`
	AllowNobodyGroup    bool     `json:"allow_nobody_group"`
	AllowEveryoneGroup  bool     `json:"allow_everyone_group"`
	DefaultGroupName    string   `json:"default_group_name"`
	AllowedSystemGroups []string `json:"allowed_system_groups"`
}

// SupportedPermissionSettings are the rules of the realm's, channels' and
// groups' permission settings, by setting name.
type SupportedPermissionSettings struct {
	Realm  map[string]GroupPermissionSetting `json:"realm"`
	Stream map[string]GroupPermissionSetting `json:"stream"`
	Group  map[string]GroupPermissionSetting `json:"group"`
}

// permissionRulesFL is the level from which server_supported_permission_settings
// has a stable format (before it, Zulip documents it as unstable, not for clients).
const permissionRulesFL = 326

// PermissionRules decodes server_supported_permission_settings; false when the
// server sent none or sent the older, unstable format.
func (r *RegisterResponse) PermissionRules() (*SupportedPermissionSettings, bool) {
	if r.ZulipFeatureLevel < permissionRulesFL || len(r.ServerSupportedPermissionSettings) == 0 {
		return nil, false
	}
	var out SupportedPermissionSettings
	if json.Unmarshal(r.ServerSupportedPermissionSettings, &out) != nil {
		return nil, false
	}
	return &out, true
}

// Register registers an event queue and fetches the initial state of the requested types
// (POST /register). The queue lives on the server until DeleteQueue or about ten minutes of
// inactivity; callers that only want the state should delete it. Not idempotent: a repeat
// after an uncertain failure would create a second queue, so it is retried only when the
// server certainly did not process it.
func (c *Client) Register(ctx context.Context, r RegisterRequest) (*RegisterResponse, error) {
	return c.register(ctx, r, false)
}

func (c *Client) register(ctx context.Context, r RegisterRequest, idempotent bool) (*RegisterResponse, error) {
	p := newParams()
	if r.EventTypes != nil {
		p.json("event_types", r.EventTypes)
	}
	if r.FetchEventTypes != nil {
		p.json("fetch_event_types", r.FetchEventTypes)
	}
	if r.ClientCapabilities != nil {
		p.json("client_capabilities", r.ClientCapabilities)
	}
	if r.Narrow != nil {
		p.json("narrow", r.Narrow)
	}
	p.optJSONBool("apply_markdown", r.ApplyMarkdown).
		optJSONBool("client_gravatar", r.ClientGravatar).
		optJSONBool("include_subscribers", r.IncludeSubscribers).
		optJSONBool("slim_presence", r.SlimPresence).
		optJSONBool("all_public_streams", r.AllPublicStreams)
	var out RegisterResponse
	if err := c.do(ctx, request{method: http.MethodPost, path: "register", params: p, idempotent: idempotent}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteQueue deletes an event queue (DELETE /events). Idempotent in effect: an unknown or
// already deleted queue answers BAD_EVENT_QUEUE_ID (IsBadEventQueue), which a caller
// cleaning up treats as done.
func (c *Client) DeleteQueue(ctx context.Context, queueID string) error {
	p := newParams().str("queue_id", queueID)
	return c.do(ctx, request{method: http.MethodDelete, path: "events", params: p, idempotent: true}, nil)
}

// queueCleanupTimeout bounds the best-effort deletion of a queue that was registered only to
// read state; cancelledCleanupTimeout replaces it when the caller is already cancelled
// (Ctrl-C), which must not wait on a rate limit for a queue the server expires anyway.
const (
	queueCleanupTimeout     = 15 * time.Second
	cancelledCleanupTimeout = time.Second
)

// FetchState reads the initial state of fetchTypes (fetch types such as EventTypeRealm)
// through POST /register, without leaving an event queue behind. Unlike Register it is
// retried like a read: see fetchState.
func (c *Client) FetchState(ctx context.Context, fetchTypes ...string) (*RegisterResponse, error) {
	return c.fetchState(ctx, RegisterRequest{FetchEventTypes: fetchTypes})
}

// fetchState registers a queue for no events, to read the initial state of fetchTypes, and
// deletes the queue afterwards. Reads through register would otherwise leave one queue per
// call on the server until its idle timeout, which at Terraform scale is hundreds.
//
// The register is treated as idempotent here, unlike Register: if an uncertain attempt did
// create a queue, that queue receives no events and the server collects it after its idle
// timeout, so a retry costs nothing visible, while failing a plan over it would.
//
// The deletion uses a context detached from the caller's cancellation, so that a read that
// was cancelled right after registering still cleans up; its failure is only logged.
func (c *Client) fetchState(ctx context.Context, req RegisterRequest) (*RegisterResponse, error) {
	req.EventTypes = []string{}
	resp, err := c.register(ctx, req, true)
	if err != nil {
		return nil, err
	}
	if resp.QueueID != "" {
		timeout := queueCleanupTimeout
		if ctx.Err() != nil {
			timeout = cancelledCleanupTimeout
		}
		cleanupCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
		defer cancel()
		if err := c.DeleteQueue(cleanupCtx, resp.QueueID); err != nil && !IsBadEventQueue(err) {
			c.log(ctx, "zulip: could not delete the event queue registered to read state; the server will expire it", map[string]any{
				"error": err.Error(),
			})
		}
	}
	return resp, nil
}

// GetEvents returns the events of a queue after lastEventID (GET /events), each
// as the server sent it. It long-polls: the server answers when it has an event,
// or with a heartbeat after about a minute. An expired or unknown queue answers
// BAD_EVENT_QUEUE_ID (IsBadEventQueue). Idempotent: the events stay in the queue
// until a later call's lastEventID acknowledges them.
func (c *Client) GetEvents(ctx context.Context, queueID string, lastEventID int64) ([]json.RawMessage, error) {
	p := newParams().str("queue_id", queueID).int("last_event_id", lastEventID)
	var out struct {
		Events []json.RawMessage `json:"events"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "events", params: p, idempotent: true}, &out); err != nil {
		return nil, err
	}
	return out.Events, nil
}
