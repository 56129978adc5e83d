package zulip

import (
	"context"
	"net/http"
	"strconv"
)

// Linkifier is a realm linkifier ("realm filter"): text matching Pattern becomes a link built
// from URLTemplate. The optional fields are nil when the server does not have them (before
// FL471/478) or they are unset.
type Linkifier struct {
	ID                      int64    `json:"id"`
	Pattern                 string   `json:"pattern"`
	URLTemplate             string   `json:"url_template"`
	ExampleInput            *string  `json:"example_input,omitempty"`
	ReverseTemplate         *string  `json:"reverse_template,omitempty"`
	AlternativeURLTemplates []string `json:"alternative_url_templates,omitempty"`
}

// LinkifierRequest is the body of CreateLinkifier and UpdateLinkifier. Zulip requires
// Pattern and URLTemplate on every update, even when unchanged, so they are not optional.
// A nil optional field is not sent; on update, "" resets ExampleInput or ReverseTemplate to
// null. AlternativeURLTemplates is sent when non-nil (an empty slice clears it).
type LinkifierRequest struct {
	Pattern                 string
	URLTemplate             string
	ExampleInput            *string
	ReverseTemplate         *string
	AlternativeURLTemplates []string
}

func (r LinkifierRequest) params() *params {
	p := newParams().
		str("pattern", r.Pattern).
		str("url_template", r.URLTemplate).
		optStr("example_input", r.ExampleInput).
		optStr("reverse_template", r.ReverseTemplate)
	if r.AlternativeURLTemplates != nil {
		p.json("alternative_url_templates", r.AlternativeURLTemplates)
	}
	return p
}

// ListLinkifiers returns the organization's linkifiers in the order Zulip applies them
// (GET /realm/linkifiers). Idempotent.
func (c *Client) ListLinkifiers(ctx context.Context) ([]Linkifier, error) {
	var out struct {
		Linkifiers []Linkifier `json:"linkifiers"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "realm/linkifiers", idempotent: true}, &out)
	return out.Linkifiers, err
}

// CreateLinkifier adds a linkifier at the end of the list and returns its id
// (POST /realm/filters; administrators). Not idempotent: a second request would fail as a
// duplicate pattern or, worse, succeed twice, so it is retried only when the server
// certainly did not process it; after an uncertain failure, reconcile with ListLinkifiers.
func (c *Client) CreateLinkifier(ctx context.Context, r LinkifierRequest) (int64, error) {
	var out struct {
		ID int64 `json:"id"`
	}
	err := c.do(ctx, request{method: http.MethodPost, path: "realm/filters", params: r.params(), idempotent: false}, &out)
	return out.ID, err
}

// UpdateLinkifier replaces a linkifier's fields (PATCH /realm/filters/{id}; administrators).
// Idempotent: it sets values. An unknown id is IsNotFound.
func (c *Client) UpdateLinkifier(ctx context.Context, id int64, r LinkifierRequest) error {
	return c.do(ctx, request{method: http.MethodPatch, path: "realm/filters/" + strconv.FormatInt(id, 10), params: r.params(), idempotent: true}, nil)
}

// DeleteLinkifier removes a linkifier (DELETE /realm/filters/{id}; administrators).
// Idempotent in effect: a repeated delete answers "Linkifier not found.", which IsNotFound
// recognises and a caller deleting treats as done.
func (c *Client) DeleteLinkifier(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "realm/filters/" + strconv.FormatInt(id, 10), idempotent: true}, nil)
}

// ReorderLinkifiers sets the processing order; ids must list every linkifier exactly once
// (PATCH /realm/linkifiers, FL202; administrators). Idempotent.
func (c *Client) ReorderLinkifiers(ctx context.Context, ids []int64) error {
	if ids == nil {
		ids = []int64{}
	}
	p := newParams().json("ordered_linkifier_ids", ids)
	return c.do(ctx, request{method: http.MethodPatch, path: "realm/linkifiers", params: p, idempotent: true}, nil)
}
