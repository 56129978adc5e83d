package zulip

import (
	"context"
	"net/http"
	"testing"
)

func TestGetUserStatus(t *testing.T) {
	env := setup(t)
	env.handle("/users/12/status", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		success(w, `"status":{"status_text":"on vacation","emoji_name":"car","emoji_code":"1f697","reaction_type":"unicode_emoji","away":true}`)
	})
	got, err := env.client.GetUserStatus(context.Background(), 12)
	if err != nil {
		t.Fatal(err)
	}
	want := UserStatus{StatusText: "on vacation", EmojiName: "car", EmojiCode: "1f697", ReactionType: "unicode_emoji", Away: ptr(true)}
	if got.Empty || got.StatusText != want.StatusText || got.EmojiName != want.EmojiName || got.EmojiCode != want.EmojiCode ||
		got.ReactionType != want.ReactionType || got.Away == nil || !*got.Away {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestGetUserStatus_empty(t *testing.T) {
	env := setup(t)
	env.handle("/users/12/status", func(w http.ResponseWriter, r *http.Request) {
		success(w, `"status":{}`)
	})
	got, err := env.client.GetUserStatus(context.Background(), 12)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Empty || got.StatusText != "" || got.Away != nil {
		t.Errorf("got %+v, want an empty status", got)
	}
}

func TestGetUserStatus_onlyEmptyText(t *testing.T) {
	env := setup(t)
	env.handle("/users/12/status", func(w http.ResponseWriter, r *http.Request) {
		success(w, `"status":{"status_text":""}`)
	})
	got, err := env.client.GetUserStatus(context.Background(), 12)
	if err != nil {
		t.Fatal(err)
	}
	if got.Empty {
		t.Errorf("a status with a key is reported empty: %+v", got)
	}
}

func TestGetUserStatus_notFound(t *testing.T) {
	env := setup(t)
	env.handle("/users/99/status", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"result":"error","msg":"No such user","code":"BAD_REQUEST"}`)
	})
	if _, err := env.client.GetUserStatus(context.Background(), 99); !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}
