package refserver

import (
	"fmt"
	"net/http"
	"testing"
)

// GET /users/{user_id}/channels (feature level 440; the newest API
// description, get-user-channels): the target's subscriptions, limited to
// the channels whose metadata the caller can access (Zulip's
// user_has_metadata_access, zerver/lib/streams.py), so all of them for an
// administrator; bots are targets from feature level 458; the target is
// looked up as access_user_by_id (zerver/lib/users.py) does.
func TestUserChannels(t *testing.T) {
	e := chatNew(t)
	get := func(viewer, target int) string {
		t.Helper()
		return chatJSON(e.chatOK(viewer, http.MethodGet, fmt.Sprintf("/users/%d/channels", target), nil)["subscribed_channel_ids"])
	}
	// The owner is in general, announce, design, leadership, old-projects
	// (archived) and moderation-requests.
	if got := get(SeedAdmin2ID, SeedOwnerID); got != "[1,2,3,4,5,6]" {
		t.Errorf("an administrator sees all: %s", got)
	}
	// A member subscribed to design but not to leadership or the moderation
	// channel sees the owner's public channels and design.
	if got := get(SeedMemberID, SeedOwnerID); got != "[1,2,3,5]" {
		t.Errorf("a member: %s", got)
	}
	// A guest: web-public channels and its own subscriptions.
	if got := get(SeedGuestID, SeedOwnerID); got != "[1,2]" {
		t.Errorf("a guest: %s", got)
	}
	if got := get(SeedMemberID, SeedMember2ID); got != "[1,7]" {
		t.Errorf("another member: %s", got)
	}
	e.chatFail(SeedMemberID, http.MethodGet, "/users/999/channels", nil, 400, "BAD_REQUEST", "No such user")
	e.chatFail(SeedMemberID, http.MethodGet, fmt.Sprintf("/users/%d/channels", SeedDeactivatedID), nil, 400, "BAD_REQUEST", "User is deactivated")
	if got := get(SeedAdminID, SeedBotID); got != "[1]" {
		t.Errorf("a bot at the default level: %s", got)
	}

	old := chatNew(t, chatLevel(userChannelsBotTargetFL-1))
	old.chatFail(SeedAdminID, http.MethodGet, fmt.Sprintf("/users/%d/channels", SeedBotID), nil, 400, "BAD_REQUEST", "No such user")
	if status, _ := old.chatDo(SeedAdminID, http.MethodGet, fmt.Sprintf("/users/%d/channels", SeedOwnerID), nil); status != http.StatusOK {
		t.Errorf("at %d: %d", userChannelsBotTargetFL-1, status)
	}
	// Before feature level 440 the route does not exist.
	older := chatNew(t, chatLevel(userChannelsFL-1))
	u, _ := older.srv.User(SeedAdminID)
	req, _ := http.NewRequest(http.MethodGet, older.ts.URL+fmt.Sprintf("/api/v1/users/%d/channels", SeedOwnerID), nil)
	req.SetBasicAuth(u.Email, u.APIKey)
	resp, err := older.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("at %d: %d", userChannelsFL-1, resp.StatusCode)
	}
}
