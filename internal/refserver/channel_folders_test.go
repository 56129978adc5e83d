package refserver

import (
	"net/http"
	"testing"
)

// TestChannelFolderEvents: creating, changing and reordering folders tell
// every user, with only what changed.
func TestChannelFolderEvents(t *testing.T) {
	e := chatNew(t)
	q := e.chatOK(SeedMemberID, http.MethodPost, "/register", chatForm("event_types", `["channel_folder"]`))["queue_id"].(string)
	e.chatOK(SeedAdminID, http.MethodPost, "/channel_folders/create", chatForm("name", "A", "description", ""))
	e.chatOK(SeedAdminID, http.MethodPost, "/channel_folders/create", chatForm("name", "B", "description", ""))
	e.chatOK(SeedAdminID, http.MethodPatch, "/channel_folders/1", chatForm("name", "C"))
	e.chatOK(SeedAdminID, http.MethodPatch, "/channel_folders/1", chatForm("name", "C"))
	e.chatOK(SeedAdminID, http.MethodPatch, "/channel_folders", chatForm("order", "[2, 1]"))
	events := e.chatOK(SeedMemberID, http.MethodGet, "/events", chatForm("queue_id", q, "last_event_id", "-1", "dont_block", "true"))["events"].([]any)
	var got []string
	for _, ev := range events {
		m := ev.(map[string]any)
		got = append(got, m["op"].(string))
	}
	if chatJSON(got) != `["add","add","update","reorder"]` {
		t.Fatalf("events: %s", chatJSON(events))
	}
	if d := chatJSON(events[2].(map[string]any)["data"]); d != `{"name":"C"}` {
		t.Errorf("update data = %s", d)
	}
	if o := chatJSON(events[3].(map[string]any)["order"]); o != "[2,1]" {
		t.Errorf("order = %s", o)
	}
}
