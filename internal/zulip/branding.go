package zulip

import (
	"context"
	"net/http"
)

// BrandingUploaded is the source of an uploaded icon or logo, as register
// reports it; an icon not uploaded is "G" (Gravatar's identicon), a logo "D"
// (Zulip's default).
const BrandingUploaded = "U"

// RealmBranding is the organization's icon and logos as register's realm
// section gives them (realm_icon_url, realm_icon_source and the like). Zulip
// serves a resized PNG, not the uploaded file, so a client compares the
// source and the URL, whose version changes with every upload and removal.
type RealmBranding struct {
	IconURL         string `json:"realm_icon_url"`
	IconSource      string `json:"realm_icon_source"`
	LogoURL         string `json:"realm_logo_url"`
	LogoSource      string `json:"realm_logo_source"`
	NightLogoURL    string `json:"realm_night_logo_url"`
	NightLogoSource string `json:"realm_night_logo_source"`
}

// GetRealmBranding reads the organization's icon and logos (POST /register,
// fetch type realm, without leaving an event queue; any user). Retried like
// a read, as FetchState is.
func (c *Client) GetRealmBranding(ctx context.Context) (*RealmBranding, error) {
	p := newParams().json("event_types", []string{}).json("fetch_event_types", []string{EventTypeRealm})
	var out struct {
		QueueID string `json:"queue_id"`
		RealmBranding
	}
	if err := c.do(ctx, request{method: http.MethodPost, path: "register", params: p, idempotent: true}, &out); err != nil {
		return nil, err
	}
	c.dropStateQueue(ctx, out.QueueID)
	return &out.RealmBranding, nil
}

// dropStateQueue deletes, as best it can, a queue registered only to read
// state (see fetchState).
func (c *Client) dropStateQueue(ctx context.Context, queueID string) {
	if queueID == "" {
		return
	}
	limit := queueCleanupTimeout
	if ctx.Err() != nil {
		limit = cancelledCleanupTimeout
	}
	cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), limit)
	defer cancel()
	if err := c.DeleteQueue(cleanup, queueID); err != nil && !IsBadEventQueue(err) {
		c.log(ctx, "zulip: could not delete the event queue of a branding read; the server will expire it", map[string]any{"error": err.Error()})
	}
}

// UploadRealmIcon sets the organization's icon (POST /realm/icon, multipart,
// one file; administrators). Zulip answers the new icon_url, which this
// method drops: GetRealmBranding reads it with the logos. Idempotent in
// effect: a repeat uploads the same image again.
func (c *Client) UploadRealmIcon(ctx context.Context, filename, contentType string, data []byte) error {
	return c.do(ctx, request{method: http.MethodPost, path: "realm/icon",
		file: &fileUpload{field: "file", filename: filename, contentType: contentType, data: data}, idempotent: true}, nil)
}

// DeleteRealmIcon returns the organization's icon to Zulip's default, the
// Gravatar identicon (DELETE /realm/icon; administrators). Idempotent.
func (c *Client) DeleteRealmIcon(ctx context.Context) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "realm/icon", idempotent: true}, nil)
}

// UploadRealmLogo sets the organization's logo, or its logo for the dark
// theme when night is true (POST /realm/logo, multipart, one file and the
// JSON boolean night; administrators; refused on Zulip Cloud's limited
// plan). Idempotent in effect.
func (c *Client) UploadRealmLogo(ctx context.Context, night bool, filename, contentType string, data []byte) error {
	return c.do(ctx, request{method: http.MethodPost, path: "realm/logo", params: newParams().json("night", night),
		file: &fileUpload{field: "file", filename: filename, contentType: contentType, data: data}, idempotent: true}, nil)
}

// DeleteRealmLogo returns the organization's logo (night: its dark-theme
// logo) to Zulip's default (DELETE /realm/logo; administrators). Idempotent.
func (c *Client) DeleteRealmLogo(ctx context.Context, night bool) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "realm/logo", params: newParams().json("night", night), idempotent: true}, nil)
}
