package zulip

import (
	"context"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"testing"
)

// TestUploadCustomEmoji: the image goes as the one file of a multipart body,
// with its content type.
func TestUploadCustomEmoji(t *testing.T) {
	env := setup(t)
	env.handle("/realm/emoji/ship_it", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		ct, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || ct != "multipart/form-data" {
			t.Fatalf("content type %q: %v", r.Header.Get("Content-Type"), err)
		}
		part, err := multipart.NewReader(r.Body, params["boundary"]).NextPart()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(part)
		if part.FormName() != "filename" || part.FileName() != "ship.png" || part.Header.Get("Content-Type") != "image/png" || string(data) != "\x89PNG" {
			t.Errorf("part %q %q %q %q", part.FormName(), part.FileName(), part.Header.Get("Content-Type"), data)
		}
		writeJSON(w, http.StatusOK, `{"result":"success","msg":""}`)
	})
	if err := env.client.UploadCustomEmoji(context.Background(), "ship_it", "ship.png", "image/png", []byte("\x89PNG")); err != nil {
		t.Fatal(err)
	}
}

// TestListCustomEmoji: the id-keyed answer becomes a list ordered by id.
func TestListCustomEmoji(t *testing.T) {
	env := setup(t)
	env.handle("/realm/emoji", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, `{"result":"success","msg":"","emoji":{
			"10":{"id":"10","name":"b","source_url":"/b.png","still_url":null,"deactivated":false,"author_id":5},
			"9":{"id":"9","name":"a","source_url":"/a.gif","still_url":"/a.png","deactivated":true,"author_id":null}}}`)
	})
	list, err := env.client.ListCustomEmoji(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "9" || list[1].Name != "b" || list[0].AuthorID != nil || !list[0].Deactivated {
		t.Errorf("list = %+v", list)
	}
}
