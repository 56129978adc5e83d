package zulip

import (
	"context"
	"net/http"
	"strconv"
)

// Bot types, as Zulip numbers them.
const (
	BotTypeGeneric         = 1
	BotTypeIncomingWebhook = 2
	BotTypeOutgoingWebhook = 3
	BotTypeEmbedded        = 4
)

// Outgoing webhook interfaces (Service.ALLOWED_INTERFACE_TYPES).
const (
	BotInterfaceGeneric = 1
	BotInterfaceSlack   = 2
)

// EventTypeRealmBot is the register fetch type of the bots' settings.
const EventTypeRealmBot = "realm_bot"

// CreateBotRequest is the body of CreateBot (POST /bots, undocumented: the
// parameters of zerver/views/users.py add_bot_backend). Nil fields are not sent.
type CreateBotRequest struct {
	FullName  string
	ShortName string
	BotType   int
	// PayloadURL and InterfaceType are an outgoing webhook's.
	PayloadURL    *string
	InterfaceType *int
	// Default channels, by name.
	DefaultSendingStream        *string
	DefaultEventsRegisterStream *string
	DefaultAllPublicStreams     *bool
}

// CreatedBot is CreateBot's answer: the bot's user id and its API key, a
// secret that the caller keeps only when asked to (zulip_bot's
// keep_api_key_in_state) and never logs.
type CreatedBot struct {
	UserID int64  `json:"user_id"`
	APIKey string `json:"api_key"`
}

// CreateBot creates a bot owned by the caller (POST /bots;
// can_create_bots_group, or can_create_write_only_bots_group for incoming
// webhooks). It returns the bot's user id and API key: on a server before
// feature level 463 the answer and RegenerateBotAPIKey's are the only ways
// to learn a bot's key (GetBotAPIKey needs 463). Not idempotent: a repeat
// answers "Username already in use".
func (c *Client) CreateBot(ctx context.Context, r CreateBotRequest) (CreatedBot, error) {
	p := newParams().str("full_name", r.FullName).str("short_name", r.ShortName).int("bot_type", int64(r.BotType))
	if r.PayloadURL != nil {
		p.json("payload_url", *r.PayloadURL)
	}
	if r.InterfaceType != nil {
		p.int("interface_type", int64(*r.InterfaceType))
	}
	p.optStr("default_sending_stream", r.DefaultSendingStream).
		optStr("default_events_register_stream", r.DefaultEventsRegisterStream).
		optJSONBool("default_all_public_streams", r.DefaultAllPublicStreams)
	var out CreatedBot
	if err := c.do(ctx, request{method: http.MethodPost, path: "bots", params: p, idempotent: false}, &out); err != nil {
		return CreatedBot{}, err
	}
	return out, nil
}

// UpdateBotRequest is the body of UpdateBot (PATCH /bots/{id}, undocumented:
// patch_bot_backend). Nil fields are not sent; an empty default channel name
// clears it.
type UpdateBotRequest struct {
	FullName   *string
	ShortName  *string // feature level 447
	Role       *int
	BotOwnerID *int64
	// ServicePayloadURL and ServiceInterface are an outgoing webhook's.
	ServicePayloadURL           *string
	ServiceInterface            *int
	DefaultSendingStream        *string
	DefaultEventsRegisterStream *string
	DefaultAllPublicStreams     *bool
}

// UpdateBot changes a bot (PATCH /bots/{id}; its owner or an administrator).
// Idempotent: a repeat sets the same values.
func (c *Client) UpdateBot(ctx context.Context, id int64, r UpdateBotRequest) error {
	p := newParams().optStr("full_name", r.FullName).optStr("short_name", r.ShortName)
	if r.Role != nil {
		p.json("role", *r.Role)
	}
	p.optJSONInt("bot_owner_id", r.BotOwnerID)
	if r.ServicePayloadURL != nil {
		p.json("service_payload_url", *r.ServicePayloadURL)
	}
	if r.ServiceInterface != nil {
		p.json("service_interface", *r.ServiceInterface)
	}
	p.optStr("default_sending_stream", r.DefaultSendingStream).
		optStr("default_events_register_stream", r.DefaultEventsRegisterStream).
		optJSONBool("default_all_public_streams", r.DefaultAllPublicStreams)
	return c.do(ctx, request{method: http.MethodPatch, path: "bots/" + strconv.FormatInt(id, 10), params: p, idempotent: true}, nil)
}

// DeactivateBot deactivates a bot (DELETE /bots/{id}); POST
// /users/{id}/reactivate brings it back (ReactivateUser). Not idempotent in
// its answer, like DeactivateUser: after an uncertain failure read is_active.
func (c *Client) DeactivateBot(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "bots/" + strconv.FormatInt(id, 10), idempotent: false}, nil)
}

// GetBotAPIKey returns a bot's API key (GET /bots/{id}/api_key, feature level
// 463; its owner or an administrator). The key is a secret: callers must not
// keep it beyond their need.
func (c *Client) GetBotAPIKey(ctx context.Context, id int64) (string, error) {
	var out struct {
		APIKey string `json:"api_key"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "bots/" + strconv.FormatInt(id, 10) + "/api_key", idempotent: true}, &out)
	return out.APIKey, err
}

// RegenerateBotAPIKey replaces a bot's API key (POST
// /bots/{id}/api_key/regenerate) and returns the new one. Not idempotent: a
// repeat makes another key.
func (c *Client) RegenerateBotAPIKey(ctx context.Context, id int64) (string, error) {
	var out struct {
		APIKey string `json:"api_key"`
	}
	err := c.do(ctx, request{method: http.MethodPost, path: "bots/" + strconv.FormatInt(id, 10) + "/api_key/regenerate", idempotent: false}, &out)
	return out.APIKey, err
}

// RealmBot is a bot's entry of register's realm_bots (fetch type realm_bot):
// its default channels (by name) and its services. An outgoing webhook's
// service carries its token, a secret.
type RealmBot struct {
	UserID                      int64        `json:"user_id"`
	DefaultSendingStream        *string      `json:"default_sending_stream"`
	DefaultEventsRegisterStream *string      `json:"default_events_register_stream"`
	DefaultAllPublicStreams     bool         `json:"default_all_public_streams"`
	Services                    []BotService `json:"services"`
}

// BotService is an outgoing webhook's service (or an embedded bot's).
type BotService struct {
	BaseURL   string `json:"base_url"`
	Interface int    `json:"interface"`
	Token     string `json:"token"`
}

// ListRealmBots reads register's realm_bots: every bot for an administrator,
// the caller's own otherwise. It is retried like a read (see FetchState).
func (c *Client) ListRealmBots(ctx context.Context) ([]RealmBot, error) {
	resp, err := c.FetchState(ctx, EventTypeRealmBot)
	if err != nil {
		return nil, err
	}
	return resp.RealmBots, nil
}
