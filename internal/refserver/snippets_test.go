package refserver

import (
	"strings"
	"testing"
)

func TestSnippetsList(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	want := map[int]string{
		SeedOwnerID:  `[{"content":"Welcome to the team! Please read #**general>rules**.","date_created":1705568400,"id":1,"title":"Welcome"}]`,
		SeedMemberID: `[{"content":"Yesterday / Today / Blockers","date_created":1705654800,"id":2,"title":"Standup"}]`,
	}
	for _, role := range cfgRoles {
		t.Run(role.name, func(t *testing.T) {
			status, body := cfgDo(t, srv, ts, role.id, "GET", "/saved_snippets", nil)
			cfgWantOK(t, status, body)
			w := want[role.id]
			if w == "" {
				w = "[]"
			}
			if got := cfgJSON(body["saved_snippets"]); got != w {
				t.Fatalf("saved_snippets = %s, want %s", got, w)
			}
		})
	}
}

func TestSnippetCreate(t *testing.T) {
	// Every user, guests and bots included, has their own snippets.
	for _, role := range cfgRoles {
		t.Run(role.name, func(t *testing.T) {
			srv, ts := cfgServer(t, 0)
			status, body := cfgDo(t, srv, ts, role.id, "POST", "/saved_snippets", cfgForm("title", "  Hi  ", "content", "\nHello **there**\n"))
			cfgWantOK(t, status, body)
			if body["saved_snippet_id"] != float64(3) {
				t.Fatalf("saved_snippet_id = %v", body["saved_snippet_id"])
			}
			_, body = cfgDo(t, srv, ts, role.id, "GET", "/saved_snippets", nil)
			list := body["saved_snippets"].([]any)
			got := cfgJSON(list[len(list)-1])
			want := `{"content":"Hello **there**","date_created":` + cfgJSON(cfgNow.Unix()) + `,"id":3,"title":"Hi"}`
			if got != want {
				t.Fatalf("snippet = %s, want %s", got, want)
			}
		})
	}
}

func TestSnippetCreateErrors(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	cases := []struct {
		name      string
		form      map[string]string
		code, msg string
	}{
		// StringConstraints(min_length=1, strip_whitespace=True) through
		// typed_endpoint (zerver/views/saved_snippets.py); parameters are
		// validated in signature order, content before title.
		{"missing title", map[string]string{"content": "x"}, "REQUEST_VARIABLE_MISSING", "Missing 'title' argument"},
		{"missing content", map[string]string{"title": "x"}, "REQUEST_VARIABLE_MISSING", "Missing 'content' argument"},
		{"missing both", map[string]string{}, "REQUEST_VARIABLE_MISSING", "Missing 'content' argument"},
		{"empty title", map[string]string{"title": " \t", "content": "x"}, "BAD_REQUEST", "title cannot be blank"},
		{"empty content", map[string]string{"title": "x", "content": "\n "}, "BAD_REQUEST", "content cannot be blank"},
		{"both empty", map[string]string{"title": "", "content": " "}, "BAD_REQUEST", "content cannot be blank"},
		{"missing title, empty content", map[string]string{"content": " "}, "BAD_REQUEST", "content cannot be blank"},
		{"long title, empty content", map[string]string{"title": strings.Repeat("t", 61), "content": ""}, "BAD_REQUEST", "content cannot be blank"},
		{"long title", map[string]string{"title": strings.Repeat("é", 61), "content": "x"}, "BAD_REQUEST", "title is too long (limit: 60 characters)"},
		{"long content", map[string]string{"title": "x", "content": strings.Repeat("a", 10001)}, "BAD_REQUEST", "content is too long (limit: 10000 characters)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			form := cfgForm()
			for k, v := range tc.form {
				form.Set(k, v)
			}
			status, body := cfgDo(t, srv, ts, SeedMemberID, "POST", "/saved_snippets", form)
			cfgWantError(t, status, body, 400, tc.code, tc.msg)
		})
	}
	// The limits count characters after stripping.
	status, body := cfgDo(t, srv, ts, SeedMemberID, "POST", "/saved_snippets", cfgForm("title", " "+strings.Repeat("é", 60)+" ", "content", "x"))
	cfgWantOK(t, status, body)
}

func TestSnippetEdit(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	// Someone else's snippet and a missing one are both 404.
	for _, path := range []string{"/saved_snippets/1", "/saved_snippets/99"} {
		status, body := cfgDo(t, srv, ts, SeedMemberID, "PATCH", path, cfgForm("title", "Mine now"))
		cfgWantError(t, status, body, 404, "BAD_REQUEST", "Saved snippet does not exist.")
	}
	// Nothing to change succeeds without a lookup, as in Zulip.
	status, body := cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/saved_snippets/99", nil)
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/saved_snippets/2", cfgForm("title", " "))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "title cannot be blank")
	status, body = cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/saved_snippets/2", cfgForm("content", " "))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "content cannot be blank")
	status, body = cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/saved_snippets/2", cfgForm("title", " ", "content", ""))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "content cannot be blank")

	status, body = cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/saved_snippets/2", cfgForm("title", " Daily standup ", "color", "red"))
	cfgWantOK(t, status, body)
	if got := cfgJSON(body["ignored_parameters_unsupported"]); got != `["color"]` {
		t.Fatalf("ignored_parameters_unsupported = %s", got)
	}
	status, body = cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/saved_snippets/2", cfgForm("content", "Y/T/B"))
	cfgWantOK(t, status, body)
	_, body = cfgDo(t, srv, ts, SeedMemberID, "GET", "/saved_snippets", nil)
	if got := cfgJSON(body["saved_snippets"]); got != `[{"content":"Y/T/B","date_created":1705654800,"id":2,"title":"Daily standup"}]` {
		t.Fatalf("saved_snippets = %s", got)
	}
	// The owner's snippet is untouched.
	srv.Do(func(r *Realm) {
		if r.Snippets[1].Title != "Welcome" {
			t.Fatalf("snippet 1 changed: %+v", r.Snippets[1])
		}
	})
}

func TestSnippetDelete(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	for _, path := range []string{"/saved_snippets/2", "/saved_snippets/99"} {
		status, body := cfgDo(t, srv, ts, SeedOwnerID, "DELETE", path, nil)
		cfgWantError(t, status, body, 404, "BAD_REQUEST", "Saved snippet does not exist.")
	}
	status, body := cfgDo(t, srv, ts, SeedOwnerID, "DELETE", "/saved_snippets/1", nil)
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "DELETE", "/saved_snippets/1", nil)
	cfgWantError(t, status, body, 404, "BAD_REQUEST", "Saved snippet does not exist.")
	_, body = cfgDo(t, srv, ts, SeedOwnerID, "GET", "/saved_snippets", nil)
	if got := cfgJSON(body["saved_snippets"]); got != `[]` {
		t.Fatalf("saved_snippets = %s", got)
	}
	srv.Do(func(r *Realm) {
		if r.Snippets[2] == nil {
			t.Fatal("another user's snippet was deleted")
		}
	})
}

func TestSnippetFeatureLevels(t *testing.T) {
	// Before FL368 there is no edit: the path exists only for DELETE.
	srv, ts := cfgServer(t, 300)
	status, body := cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/saved_snippets/2", cfgForm("title", "x"))
	cfgWant405(t, status, body, `["DELETE"]`)
	status, body = cfgDo(t, srv, ts, SeedMemberID, "GET", "/saved_snippets", nil)
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedMemberID, "POST", "/saved_snippets", cfgForm("title", "t", "content", "c"))
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedMemberID, "DELETE", "/saved_snippets/2", nil)
	cfgWantOK(t, status, body)
	// Before FL297 there are no saved snippets at all.
	srv, ts = cfgServer(t, 290)
	for _, method := range []string{"GET", "POST", "PATCH", "DELETE"} {
		path := "/saved_snippets"
		if method == "PATCH" || method == "DELETE" {
			path += "/2"
		}
		cfgWantNoRoute(t, srv, ts, SeedMemberID, method, path, cfgForm("title", "t", "content", "c"))
	}
}

func TestSnippetsWire(t *testing.T) {
	srv, _ := cfgServer(t, 0)
	srv.Do(func(r *Realm) {
		r.Snippets[7] = &Snippet{ID: 7, OwnerID: SeedOwnerID, Title: "B", Content: "b", DateCreated: 5}
		r.Snippets[3] = &Snippet{ID: 3, OwnerID: SeedOwnerID, Title: "A", Content: "a", DateCreated: 4}
	})
	srv.mu.Lock()
	got := cfgJSON(srv.snippetsWire(SeedOwnerID))
	none := cfgJSON(srv.snippetsWire(SeedGuestID))
	srv.mu.Unlock()
	if !strings.HasPrefix(got, `[{"content":"Welcome`) || !strings.Contains(got, `"id":3,"title":"A"},{"content":"b","date_created":5,"id":7`) {
		t.Fatalf("snippetsWire = %s", got)
	}
	if none != "[]" {
		t.Fatalf("snippetsWire(guest) = %s", none)
	}
}
