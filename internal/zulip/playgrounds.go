package zulip

import (
	"context"
	"net/http"
	"strconv"
)

// EventTypeRealmPlaygrounds is the register fetch type of the code playgrounds.
const EventTypeRealmPlaygrounds = "realm_playgrounds"

// Playground is a code playground: where code blocks of a language can be opened.
type Playground struct {
	ID               int64  `json:"id"`
	Name             string `json:"name"`
	PygmentsLanguage string `json:"pygments_language"`
	URLTemplate      string `json:"url_template"`
}

// PlaygroundRequest is the body of CreatePlayground.
type PlaygroundRequest struct {
	Name             string
	PygmentsLanguage string
	// URLTemplate is an RFC 6570 template whose only variable is code (FL196).
	URLTemplate string
}

// CreatePlayground adds a code playground and returns its id (POST /realm/playgrounds,
// FL49; administrators). Not idempotent: a repeat fails ("... already exists"), so it is
// retried only when the server certainly did not process it.
func (c *Client) CreatePlayground(ctx context.Context, r PlaygroundRequest) (int64, error) {
	p := newParams().str("name", r.Name).str("pygments_language", r.PygmentsLanguage).str("url_template", r.URLTemplate)
	var out struct {
		ID int64 `json:"id"`
	}
	err := c.do(ctx, request{method: http.MethodPost, path: "realm/playgrounds", params: p, idempotent: false}, &out)
	return out.ID, err
}

// DeletePlayground removes a code playground (DELETE /realm/playgrounds/{id};
// administrators). A playground that is gone answers "Invalid playground"; a caller that
// only wants it gone treats that as done. Idempotent in effect.
func (c *Client) DeletePlayground(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "realm/playgrounds/" + strconv.FormatInt(id, 10), idempotent: true}, nil)
}

// ListPlaygrounds returns the code playgrounds through POST /register (fetch type
// realm_playgrounds, the only way Zulip lists them; the queue is deleted). Idempotent.
func (c *Client) ListPlaygrounds(ctx context.Context) ([]Playground, error) {
	resp, err := c.FetchState(ctx, EventTypeRealmPlaygrounds)
	if err != nil {
		return nil, err
	}
	if resp.RealmPlaygrounds == nil {
		return []Playground{}, nil
	}
	return resp.RealmPlaygrounds, nil
}
