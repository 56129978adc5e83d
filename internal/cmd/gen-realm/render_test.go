package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGenerated_upToDate fails when a committed generated file differs from
// what the table generates: run go generate ./internal/realmspec (or make
// generate) and commit.
func TestGenerated_upToDate(t *testing.T) {
	files, err := render()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join("..", "..", "..", name))
		if err != nil {
			t.Fatalf("%s: %v (run go generate ./internal/realmspec)", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date: run go generate ./internal/realmspec (or make generate) and commit", name)
		}
	}
}

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"jitsi_server_url":                   "JitsiServerURL",
		"new_stream_announcements_stream_id": "NewStreamAnnouncementsStreamID",
		"enable_guest_user_dm_warning":       "EnableGuestUserDMWarning",
		"name":                               "Name",
	} {
		if got := goName(in); got != want {
			t.Errorf("goName(%q) = %q, want %q", in, got, want)
		}
	}
}
