package zulip

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

func TestListSavedSnippets(t *testing.T) {
	env := setup(t)
	env.handle("/saved_snippets", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testAuth(t, r)
		success(w, `"saved_snippets":[{"id":1,"title":"Hi","content":"**hello**","date_created":1700000000}]`)
	})
	got, err := env.client.ListSavedSnippets(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []SavedSnippet{{ID: 1, Title: "Hi", Content: "**hello**", DateCreated: 1700000000}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestCreateSavedSnippet(t *testing.T) {
	env := setup(t)
	env.handle("/saved_snippets", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		// Plain strings: no JSON quoting even though they look like JSON.
		testFormValues(t, r, url.Values{"title": {`"quoted"`}, "content": {"[1,2]"}})
		success(w, `"saved_snippet_id":5`)
	})
	id, err := env.client.CreateSavedSnippet(context.Background(), `"quoted"`, "[1,2]")
	if err != nil || id != 5 {
		t.Fatalf("CreateSavedSnippet = %d, %v", id, err)
	}
}

func TestEditSavedSnippet(t *testing.T) {
	env := setup(t)
	env.handle("/saved_snippets/5", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		testFormValues(t, r, url.Values{"content": {"new"}})
		success(w, "")
	})
	if err := env.client.EditSavedSnippet(context.Background(), 5, EditSavedSnippetRequest{Content: ptr("new")}); err != nil {
		t.Fatal(err)
	}
}

func TestEditSavedSnippet_notFound(t *testing.T) {
	env := setup(t)
	env.handle("/saved_snippets/5", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 404, `{"result":"error","msg":"Saved snippet does not exist.","code":"BAD_REQUEST"}`)
	})
	err := env.client.EditSavedSnippet(context.Background(), 5, EditSavedSnippetRequest{Title: ptr("t")})
	if !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}

func TestDeleteSavedSnippet(t *testing.T) {
	env := setup(t)
	env.handle("/saved_snippets/5", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		success(w, "")
	})
	if err := env.client.DeleteSavedSnippet(context.Background(), 5); err != nil {
		t.Fatal(err)
	}
}
