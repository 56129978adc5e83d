package zulip

import (
	"context"
	"net/http"
	"strconv"
)

// SavedSnippet is one of the caller's saved snippets (FL297). Snippets are private to their
// owner; another user's id behaves like a missing one.
type SavedSnippet struct {
	ID          int64  `json:"id"`
	Title       string `json:"title"`
	Content     string `json:"content"`
	DateCreated int64  `json:"date_created"`
}

// EditSavedSnippetRequest is the body of EditSavedSnippet; nil fields are not sent.
type EditSavedSnippetRequest struct {
	Title   *string
	Content *string
}

// ListSavedSnippets returns the caller's saved snippets (GET /saved_snippets). There is no
// read by id: callers filter this list. Idempotent.
func (c *Client) ListSavedSnippets(ctx context.Context) ([]SavedSnippet, error) {
	var out struct {
		SavedSnippets []SavedSnippet `json:"saved_snippets"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "saved_snippets", idempotent: true}, &out)
	return out.SavedSnippets, err
}

// CreateSavedSnippet creates a snippet and returns its id (POST /saved_snippets). Not
// idempotent: retried only when the server certainly did not process it; after an uncertain
// failure, reconcile with ListSavedSnippets.
func (c *Client) CreateSavedSnippet(ctx context.Context, title, content string) (int64, error) {
	p := newParams().str("title", title).str("content", content)
	var out struct {
		ID int64 `json:"saved_snippet_id"`
	}
	err := c.do(ctx, request{method: http.MethodPost, path: "saved_snippets", params: p, idempotent: false}, &out)
	return out.ID, err
}

// EditSavedSnippet changes a snippet's title and/or content (PATCH /saved_snippets/{id},
// FL368). Idempotent. A missing snippet is a 404, IsNotFound.
func (c *Client) EditSavedSnippet(ctx context.Context, id int64, r EditSavedSnippetRequest) error {
	p := newParams().optStr("title", r.Title).optStr("content", r.Content)
	return c.do(ctx, request{method: http.MethodPatch, path: "saved_snippets/" + strconv.FormatInt(id, 10), params: p, idempotent: true}, nil)
}

// DeleteSavedSnippet deletes a snippet (DELETE /saved_snippets/{id}). Idempotent in effect:
// a repeat answers 404, IsNotFound.
func (c *Client) DeleteSavedSnippet(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "saved_snippets/" + strconv.FormatInt(id, 10), idempotent: true}, nil)
}
