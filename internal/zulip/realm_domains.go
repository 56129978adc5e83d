package zulip

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
)

// RealmDomain is an allowed e-mail domain of the organization. The domain string is its key:
// the API reveals the numeric id only in the answer to AddRealmDomain.
type RealmDomain struct {
	Domain          string `json:"domain"`
	AllowSubdomains bool   `json:"allow_subdomains"`
}

// NewRealmDomain is the answer to AddRealmDomain: the id and the domain as stored (Zulip
// lowercases and trims it).
type NewRealmDomain struct {
	ID     int64
	Domain string
}

// ListRealmDomains returns the allowed domains (GET /realm/domains). Idempotent.
func (c *Client) ListRealmDomains(ctx context.Context) ([]RealmDomain, error) {
	var out struct {
		Domains []RealmDomain `json:"domains"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "realm/domains", idempotent: true}, &out)
	return out.Domains, err
}

// AddRealmDomain adds an allowed domain (POST /realm/domains; owners since FL143). Not
// idempotent: a repeat fails with "already a part of your organization", so it is retried
// only when the server certainly did not process it; reconcile with ListRealmDomains.
func (c *Client) AddRealmDomain(ctx context.Context, domain string, allowSubdomains bool) (*NewRealmDomain, error) {
	p := newParams().str("domain", domain).json("allow_subdomains", allowSubdomains)
	var out struct {
		NewDomain []json.RawMessage `json:"new_domain"`
	}
	if err := c.do(ctx, request{method: http.MethodPost, path: "realm/domains", params: p, idempotent: false}, &out); err != nil {
		return nil, err
	}
	// new_domain is a two-element array [id, domain], not an object.
	if len(out.NewDomain) != 2 {
		return nil, fmt.Errorf("zulip: POST /realm/domains: expected new_domain to be [id, domain], got %d elements", len(out.NewDomain))
	}
	var res NewRealmDomain
	if err := json.Unmarshal(out.NewDomain[0], &res.ID); err != nil {
		return nil, fmt.Errorf("zulip: POST /realm/domains: decoding new_domain id: %w", err)
	}
	if err := json.Unmarshal(out.NewDomain[1], &res.Domain); err != nil {
		return nil, fmt.Errorf("zulip: POST /realm/domains: decoding new_domain domain: %w", err)
	}
	return &res, nil
}

// UpdateRealmDomain sets allow_subdomains (PATCH /realm/domains/{domain}; owners). The server
// looks the domain up case-sensitively, as given. Idempotent. An unknown domain is
// IsNotFound.
func (c *Client) UpdateRealmDomain(ctx context.Context, domain string, allowSubdomains bool) error {
	p := newParams().json("allow_subdomains", allowSubdomains)
	return c.do(ctx, request{method: http.MethodPatch, path: "realm/domains/" + url.PathEscape(domain), params: p, idempotent: true}, nil)
}

// DeleteRealmDomain removes an allowed domain (DELETE /realm/domains/{domain}; owners).
// Idempotent in effect: a repeat is IsNotFound.
func (c *Client) DeleteRealmDomain(ctx context.Context, domain string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "realm/domains/" + url.PathEscape(domain), idempotent: true}, nil)
}
