package refserver

import (
	"sort"
	"strings"
	"unicode/utf8"
)

func init() {
	registerArea("snippets", area{seed: seedSnippets, seedStep: 60, routes: (*Server).routesSnippets, sections: map[string]registerSection{"saved_snippets": (*Server).registerSnippets}})
}

// Saved snippet limits and feature levels (digest §2).
const (
	snippetsFL           = 297   // the saved snippet endpoints
	snippetEditFL        = 368   // PATCH /saved_snippets/{id}
	snippetMaxTitle      = 60    // SavedSnippet.MAX_TITLE_LENGTH
	snippetMaxContentLen = 10000 // settings.MAX_MESSAGE_LENGTH
)

// routesSnippets registers the saved snippet endpoints that exist at the
// advertised feature level: none before FL297, no edit before FL368. An absent
// route is answered by the core's catch-all as on an older server (404 "Invalid
// API endpoint", or 405 "Method Not Allowed" when the path has other methods).
func (s *Server) routesSnippets() {
	if s.opts.FeatureLevel < snippetsFL {
		return
	}
	s.handle("GET /saved_snippets", authUser, s.listSnippets)
	s.handle("POST /saved_snippets", authUser, withEvents(s.createSnippet, s.emitSnippetAdded))
	s.handle("DELETE /saved_snippets/{saved_snippet_id}", authUser, withEvents(s.deleteSnippet, s.emitSnippetRemoved))
	if s.opts.FeatureLevel >= snippetEditFL {
		s.handle("PATCH /saved_snippets/{saved_snippet_id}", authUser, withEvents(s.editSnippet, s.emitSnippetUpdated))
	}
}

// snippetsWire renders the saved snippets of a user, by id.
func (s *Server) snippetsWire(userID int) []obj {
	var ids []int
	for id, sn := range s.realm.Snippets {
		if sn.OwnerID == userID {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	out := make([]obj, 0, len(ids))
	for _, id := range ids {
		sn := s.realm.Snippets[id]
		out = append(out, obj{"id": sn.ID, "title": sn.Title, "content": sn.Content, "date_created": sn.DateCreated})
	}
	return out
}

// listSnippets serves GET /saved_snippets: the caller's own snippets only.
func (s *Server) listSnippets(c *call) (obj, error) {
	return obj{"saved_snippets": s.snippetsWire(c.user.ID)}, nil
}

// createSnippet serves POST /saved_snippets. Zulip's typed_endpoint validates
// the parameters in their (alphabetical) signature order, so everything wrong
// with content is reported before anything wrong with title
// (create_saved_snippet in zerver/views/saved_snippets.py).
func (s *Server) createSnippet(c *call) (obj, error) {
	content, err := c.reqString("content")
	if err != nil {
		return nil, err
	}
	if content, err = snippetField("content", content); err != nil {
		return nil, err
	}
	title, err := c.reqString("title")
	if err != nil {
		return nil, err
	}
	if title, err = snippetField("title", title); err != nil {
		return nil, err
	}
	r := c.realm()
	sn := &Snippet{ID: r.newID("snippet"), OwnerID: c.user.ID, Title: title, Content: content,
		DateCreated: s.now().Unix()}
	r.Snippets[sn.ID] = sn
	return obj{"saved_snippet_id": sn.ID}, nil
}

// editSnippet serves PATCH /saved_snippets/{saved_snippet_id} (FL368). As in
// Zulip, a request with neither title nor content succeeds without looking the
// snippet up.
func (s *Server) editSnippet(c *call) (obj, error) {
	id, err := c.pathInt("saved_snippet_id")
	if err != nil {
		return nil, err
	}
	content, hasContent := c.optString("content")
	if hasContent {
		if content, err = snippetField("content", content); err != nil {
			return nil, err
		}
	}
	title, hasTitle := c.optString("title")
	if hasTitle {
		if title, err = snippetField("title", title); err != nil {
			return nil, err
		}
	}
	if !hasTitle && !hasContent {
		return nil, nil
	}
	sn := s.snippetOwned(c, id)
	if sn == nil {
		return nil, errNotFound("Saved snippet does not exist.")
	}
	if hasTitle {
		sn.Title = title
	}
	if hasContent {
		sn.Content = content
	}
	return nil, nil
}

// deleteSnippet serves DELETE /saved_snippets/{saved_snippet_id}.
func (s *Server) deleteSnippet(c *call) (obj, error) {
	id, err := c.pathInt("saved_snippet_id")
	if err != nil {
		return nil, err
	}
	if s.snippetOwned(c, id) == nil {
		return nil, errNotFound("Saved snippet does not exist.")
	}
	delete(c.realm().Snippets, id)
	return nil, nil
}

// snippetOwned returns the caller's snippet with the id; someone else's is nil.
func (s *Server) snippetOwned(c *call, id int) *Snippet {
	sn := c.realm().Snippets[id]
	if sn == nil || sn.OwnerID != c.user.ID {
		return nil
	}
	return sn
}

// snippetField strips a title or content and checks it as Zulip's
// StringConstraints(min_length=1, max_length=..., strip_whitespace=True) do
// through typed_endpoint: empty after stripping is "title cannot be blank" /
// "content cannot be blank", too long "title is too long (limit: 60
// characters)" (lengths count code points, after stripping).
func snippetField(name, v string) (string, error) {
	v = strings.TrimSpace(v)
	limit := snippetMaxTitle
	if name == "content" {
		limit = snippetMaxContentLen
	}
	if v == "" {
		return "", errBadRequest("%s cannot be blank", name)
	}
	if utf8.RuneCountInString(v) > limit {
		return "", errBadRequest("%s is too long (limit: %d characters)", name, limit)
	}
	return v, nil
}

// registerSnippets is register's saved_snippets section.
func (s *Server) registerSnippets(rr *registerRequest, out obj) {
	if rr.fl < 297 {
		return
	}
	out["saved_snippets"] = nonNilObjs(s.snippetsWire(rr.c.user.ID))
}

// seedSnippets adds a saved snippet for the owner and one for the member.
func seedSnippets(r *Realm, base, day int64) {
	r.Snippets[1] = &Snippet{ID: 1, OwnerID: SeedOwnerID, Title: "Welcome", Content: "Welcome to the team! Please read #**general>rules**.", DateCreated: base + 3*day}
	r.Snippets[2] = &Snippet{ID: 2, OwnerID: SeedMemberID, Title: "Standup", Content: "Yesterday / Today / Blockers", DateCreated: base + 4*day}
	r.NextID["snippet"] = 2
}

// Snippet is a saved snippet, private to its owner.
type Snippet struct {
	ID          int    `json:"id"`
	OwnerID     int    `json:"owner_id"`
	Title       string `json:"title"`
	Content     string `json:"content"`
	DateCreated int64  `json:"date_created"`
}
