package zulip

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// Data export types, by the names Zulip uses from feature level 449.
const (
	ExportPublic             = "public"
	ExportFullWithConsent    = "full_with_consent"
	ExportFullWithoutConsent = "full_without_consent"
)

// Feature levels of the export API.
const (
	// ExportTypeFeatureLevel is where POST /export/realm took export_type, as an
	// integer (1 public, 2 full with consent); before it, every export is public.
	ExportTypeFeatureLevel = 304
	// ExportTypeStringFeatureLevel is where export_type became a string, and
	// full_without_consent was added.
	ExportTypeStringFeatureLevel = 449
)

// exportTypeNumbers are the integers export_type took before feature level 449.
var exportTypeNumbers = map[string]int{ExportPublic: 1, ExportFullWithConsent: 2}

// RealmExport is one data export of GET /export/realm and the realm_export event.
type RealmExport struct {
	ID           int64 `json:"id"`
	ActingUserID int64 `json:"acting_user_id"`
	// ExportTime is when the export was requested, in UNIX seconds.
	ExportTime       float64  `json:"export_time"`
	DeletedTimestamp *float64 `json:"deleted_timestamp"`
	FailedTimestamp  *float64 `json:"failed_timestamp"`
	// ExportURL is set once the export succeeded (and not deleted).
	ExportURL *string `json:"export_url"`
	Pending   bool    `json:"pending"`
	// ExportType is the FL449 name ("public", ...), also for a server that
	// sends the older integers; empty before feature level 304.
	ExportType ExportType `json:"export_type"`
}

// ExportType is an export's type, read from either of Zulip's encodings.
type ExportType string

// UnmarshalJSON reads the string of feature level 449 and the integer before it.
func (t *ExportType) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		*t = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = ExportType(s)
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("zulip: export_type %s is neither a string nor an integer", b)
	}
	for name, num := range exportTypeNumbers {
		if num == n {
			*t = ExportType(name)
			return nil
		}
	}
	*t = ExportType(strconv.Itoa(n))
	return nil
}

// Succeeded reports whether the export finished with a tarball.
func (e RealmExport) Succeeded() bool {
	return !e.Pending && e.FailedTimestamp == nil && e.ExportURL != nil
}

// ExportConsent is one user's consent of GET /export/realm/consents.
type ExportConsent struct {
	UserID    int64 `json:"user_id"`
	Consented bool  `json:"consented"`
	// EmailAddressVisibility is sent from feature level 430.
	EmailAddressVisibility *int `json:"email_address_visibility,omitempty"`
}

// CreateRealmExport requests a data export of the organization (POST
// /export/realm; administrators, owners for full_without_consent) and returns
// its id. exportType is sent as the server's featureLevel reads it: not at all
// before 304 (where only a public export exists), as an integer before 449,
// as a string from 449. The export runs in the background: poll
// ListRealmExports. Not idempotent: a repeat makes a second export, and Zulip
// allows five a week.
func (c *Client) CreateRealmExport(ctx context.Context, exportType string, featureLevel int) (int64, error) {
	p := newParams()
	switch {
	case featureLevel >= ExportTypeStringFeatureLevel:
		p.str("export_type", exportType)
	case featureLevel >= ExportTypeFeatureLevel:
		n, ok := exportTypeNumbers[exportType]
		if !ok {
			return 0, fmt.Errorf("zulip: export type %q needs feature level %d; the server has %d", exportType, ExportTypeStringFeatureLevel, featureLevel)
		}
		p.json("export_type", n)
	case exportType != ExportPublic:
		return 0, fmt.Errorf("zulip: export type %q needs feature level %d; the server has %d", exportType, ExportTypeFeatureLevel, featureLevel)
	}
	var out struct {
		ID int64 `json:"id"`
	}
	if err := c.do(ctx, request{method: http.MethodPost, path: "export/realm", params: p, idempotent: false}, &out); err != nil {
		return 0, err
	}
	return out.ID, nil
}

// ListRealmExports lists the organization's data exports (GET /export/realm;
// administrators).
func (c *Client) ListRealmExports(ctx context.Context) ([]RealmExport, error) {
	var out struct {
		Exports []RealmExport `json:"exports"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "export/realm", idempotent: true}, &out); err != nil {
		return nil, err
	}
	return out.Exports, nil
}

// DeleteRealmExport deletes a finished export's tarball (DELETE
// /export/realm/{id}; administrators). Zulip refuses an unknown id, a pending,
// failed or already deleted export with a 400.
func (c *Client) DeleteRealmExport(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "export/realm/" + strconv.FormatInt(id, 10), idempotent: true}, nil)
}

// ListRealmExportConsents lists whether each active human consented to
// private data exports (GET /export/realm/consents; administrators; feature
// level 295).
func (c *Client) ListRealmExportConsents(ctx context.Context) ([]ExportConsent, error) {
	var out struct {
		Consents []ExportConsent `json:"export_consents"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "export/realm/consents", idempotent: true}, &out); err != nil {
		return nil, err
	}
	return out.Consents, nil
}
