package zulip

import (
	"context"
	"net/http"
)

// ExternalAuthenticationMethod is one entry of ServerSettings.ExternalAuthenticationMethods.
type ExternalAuthenticationMethod struct {
	Name        string  `json:"name"`
	DisplayName string  `json:"display_name"`
	DisplayIcon *string `json:"display_icon"`
	LoginURL    string  `json:"login_url"`
	SignupURL   string  `json:"signup_url"`
}

// ServerSettings is the answer of GET /server_settings. Keys a server does not send keep
// their zero value, which is the documented default (feature level 0 for servers too old to
// report one). RealmURL falls back to the deprecated realm_uri.
type ServerSettings struct {
	ZulipFeatureLevel             int                            `json:"zulip_feature_level"`
	ZulipVersion                  string                         `json:"zulip_version"`
	ZulipMergeBase                string                         `json:"zulip_merge_base"`
	PushNotificationsEnabled      bool                           `json:"push_notifications_enabled"`
	IsIncompatible                bool                           `json:"is_incompatible"`
	EmailAuthEnabled              bool                           `json:"email_auth_enabled"`
	RequireEmailFormatUsernames   bool                           `json:"require_email_format_usernames"`
	AuthenticationMethods         map[string]bool                `json:"authentication_methods"`
	ExternalAuthenticationMethods []ExternalAuthenticationMethod `json:"external_authentication_methods"`
	RealmURL                      string                         `json:"realm_url"`
	RealmURI                      string                         `json:"realm_uri"`
	RealmName                     string                         `json:"realm_name"`
	RealmIcon                     string                         `json:"realm_icon"`
	RealmDescription              string                         `json:"realm_description"`
	RealmWebPublicAccessEnabled   bool                           `json:"realm_web_public_access_enabled"`
}

// APIKeyResponse is the answer of DevFetchAPIKey.
type APIKeyResponse struct {
	APIKey string `json:"api_key"`
	// Email is the account's delivery e-mail, to use as the API e-mail.
	Email string `json:"email"`
	// UserID is present since FL171.
	UserID int64 `json:"user_id"`
}

// GetServerSettings returns the server's version, feature level and login settings
// (GET /server_settings). It needs no authentication and sends none. Idempotent.
func (c *Client) GetServerSettings(ctx context.Context) (*ServerSettings, error) {
	var out ServerSettings
	if err := c.do(ctx, request{method: http.MethodGet, path: "server_settings", noAuth: true, idempotent: true}, &out); err != nil {
		return nil, err
	}
	if out.RealmURL == "" {
		out.RealmURL = out.RealmURI
	}
	return &out, nil
}

// DevFetchAPIKey returns the API key of an account on a development server
// (POST /dev_fetch_api_key; no authentication; production servers refuse it). Idempotent:
// it reads the existing key. The answer holds a secret; callers must not log it.
func (c *Client) DevFetchAPIKey(ctx context.Context, username string) (*APIKeyResponse, error) {
	p := newParams().str("username", username)
	var out APIKeyResponse
	if err := c.do(ctx, request{method: http.MethodPost, path: "dev_fetch_api_key", params: p, noAuth: true, idempotent: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
