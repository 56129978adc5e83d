package zulip

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
)

// CustomEmoji is one custom emoji of GET /realm/emoji. A deactivated emoji
// keeps its id; its name can then be used by a new emoji, with a new id.
type CustomEmoji struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	SourceURL   string  `json:"source_url"`
	StillURL    *string `json:"still_url"`
	Deactivated bool    `json:"deactivated"`
	AuthorID    *int64  `json:"author_id"`
}

// ListCustomEmoji lists the organization's custom emoji, deactivated ones
// included, ordered by id (GET /realm/emoji; any user).
func (c *Client) ListCustomEmoji(ctx context.Context) ([]CustomEmoji, error) {
	var out struct {
		Emoji map[string]CustomEmoji `json:"emoji"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "realm/emoji", idempotent: true}, &out); err != nil {
		return nil, err
	}
	list := make([]CustomEmoji, 0, len(out.Emoji))
	for _, e := range out.Emoji {
		list = append(list, e)
	}
	slices.SortFunc(list, func(a, b CustomEmoji) int {
		x, _ := strconv.Atoi(a.ID)
		y, _ := strconv.Atoi(b.ID)
		return x - y
	})
	return list, nil
}

// UploadCustomEmoji adds a custom emoji (POST /realm/emoji/{name}, multipart,
// one file; can_add_custom_emoji_group). The answer carries nothing: read the
// emoji back by name. Not idempotent: a repeat after an uncertain failure
// answers "A custom emoji with this name already exists.".
func (c *Client) UploadCustomEmoji(ctx context.Context, name, filename, contentType string, data []byte) error {
	return c.do(ctx, request{method: http.MethodPost, path: "realm/emoji/" + url.PathEscape(name),
		file: &fileUpload{field: "filename", filename: filename, contentType: contentType, data: data}, idempotent: false}, nil)
}

// DeactivateCustomEmoji deactivates the active custom emoji of a name (DELETE
// /realm/emoji/{name}; its author or an administrator). An emoji that is not
// active answers 404 (IsNotFound; 400 before feature level 190).
func (c *Client) DeactivateCustomEmoji(ctx context.Context, name string) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "realm/emoji/" + url.PathEscape(name), idempotent: true}, nil)
}
