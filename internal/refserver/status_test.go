package refserver

import (
	"net/http"
	"strings"
	"testing"
)

// chatStatus reads a user's status as JSON text.
func chatStatus(e *chatEnv, viewer, user int) string {
	e.t.Helper()
	return chatJSON(e.chatOK(viewer, http.MethodGet, "/users/"+chatItoa(user)+"/status", nil)["status"])
}

func TestChatGetUserStatus(t *testing.T) {
	e := chatNew(t)
	// Every role may read statuses.
	for _, viewer := range []int{SeedOwnerID, SeedAdminID, SeedModeratorID, SeedMemberID, SeedGuestID, SeedBotID} {
		if got := chatStatus(e, viewer, SeedMemberID); got != `{"emoji_code":"1f4c5","emoji_name":"calendar","reaction_type":"unicode_emoji","status_text":"In a meeting"}` {
			t.Errorf("viewer %d: %s", viewer, got)
		}
	}
	for user, want := range map[int]string{SeedMember3ID: `{"away":true}`, SeedAdminID: `{}`, SeedOwnerID: `{"status_text":"Working remotely"}`} {
		if got := chatStatus(e, SeedGuestID, user); got != want {
			t.Errorf("user %d: %s, want %s", user, got, want)
		}
	}
	e.chatFail(SeedMemberID, http.MethodGet, "/users/999/status", nil, 400, "BAD_REQUEST", "No such user")
	e.chatFail(SeedMemberID, http.MethodGet, "/users/8/status", nil, 400, "BAD_REQUEST", "No such user")
	e.chatFail(SeedMemberID, http.MethodGet, "/users/10/status", nil, 400, "BAD_REQUEST", "User is deactivated")
}

func TestChatUpdateOwnStatus(t *testing.T) {
	e := chatNew(t)
	const path = "/users/me/status"
	errs := []struct {
		form []string
		msg  string
	}{
		{nil, "Client did not pass any new values."},
		{[]string{"emoji_code", "1f4bb"}, "Client did not pass any new values."},
		{[]string{"status_text", strings.Repeat("x", 61)}, "status_text is too long (limit: 60 characters)"},
		{[]string{"status_text", "In a meeting", "emoji_code", "1f4bb"}, "Client must pass emoji_name if they pass either emoji_code or reaction_type."},
		{[]string{"status_text", "x", "reaction_type", "unicode_emoji"}, "Client must pass emoji_name if they pass either emoji_code or reaction_type."},
		{[]string{"emoji_name", "invalid"}, "Emoji 'invalid' does not exist"},
		{[]string{"emoji_name", "car", "emoji_code", "1f4bb"}, "Invalid emoji name."},
		{[]string{"emoji_name", "car", "emoji_code", "ffff"}, "Invalid emoji code."},
		{[]string{"emoji_name", "car", "emoji_code", "1f697", "reaction_type", "realm_emoji"}, "Invalid custom emoji."},
		{[]string{"emoji_name", "car", "emoji_code", "1f697", "reaction_type", "other"}, "Invalid emoji type."},
		{[]string{"emoji_name", "car", "emoji_code", "zulip", "reaction_type", "zulip_extra_emoji"}, "Invalid emoji name."},
	}
	for _, tc := range errs {
		e.chatFail(SeedMemberID, http.MethodPost, path, chatForm(tc.form...), 400, "BAD_REQUEST", tc.msg)
	}
	e.chatFail(SeedMemberID, http.MethodPost, path, chatForm("away", "yes"), 400, "BAD_REQUEST", "away is not valid JSON")
	e.chatFail(SeedBotID, http.MethodPost, path, chatForm("status_text", "x"), 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")

	// Sixty characters after stripping are fine; the emoji code is looked up by name.
	text := strings.Repeat("é", 60)
	e.chatOK(SeedAdminID, http.MethodPost, path, chatForm("status_text", "  "+text+"  ", "emoji_name", "car"))
	if got := chatStatus(e, SeedMemberID, SeedAdminID); got != `{"emoji_code":"1f697","emoji_name":"car","reaction_type":"unicode_emoji","status_text":"`+text+`"}` {
		t.Errorf("after update: %s", got)
	}
	// Only the fields passed change.
	e.chatOK(SeedAdminID, http.MethodPost, path, chatForm("away", "true"))
	if got := chatStatus(e, SeedMemberID, SeedAdminID); !strings.HasPrefix(got, `{"away":true,"emoji_code":"1f697"`) {
		t.Errorf("after away: %s", got)
	}
	// An empty emoji_name clears the emoji; an empty text clears the text.
	e.chatOK(SeedAdminID, http.MethodPost, path, chatForm("emoji_name", "", "status_text", "", "away", "false"))
	if got := chatStatus(e, SeedMemberID, SeedAdminID); got != `{}` {
		t.Errorf("after clearing: %s", got)
	}
	e.chatOK(SeedGuestID, http.MethodPost, path, chatForm("emoji_name", "zulip", "status_text", "Zulipping"))
	if got := chatStatus(e, SeedMemberID, SeedGuestID); got != `{"emoji_code":"zulip","emoji_name":"zulip","reaction_type":"zulip_extra_emoji","status_text":"Zulipping"}` {
		t.Errorf("guest: %s", got)
	}
	// The other roles may set their own status too.
	for _, user := range []int{SeedOwnerID, SeedModeratorID, SeedMemberID} {
		e.chatOK(user, http.MethodPost, path, chatForm("status_text", "Busy", "emoji_name", "computer", "emoji_code", "1f4bb", "reaction_type", "unicode_emoji"))
		if got := chatStatus(e, SeedGuestID, user); !strings.Contains(got, `"status_text":"Busy"`) {
			t.Errorf("user %d: %s", user, got)
		}
	}
}

func TestChatUpdateStatusForUser(t *testing.T) {
	e := chatNew(t)
	body := e.chatOK(SeedAdminID, http.MethodPost, "/users/5/status", chatForm("status_text", "Set by HR", "away", "true"))
	if chatJSON(body["ignored_parameters_unsupported"]) != `["away"]` {
		t.Errorf("away should be ignored: %v", body)
	}
	if got := chatStatus(e, SeedAdminID, SeedMemberID); got != `{"emoji_code":"1f4c5","emoji_name":"calendar","reaction_type":"unicode_emoji","status_text":"Set by HR"}` {
		t.Errorf("after admin update: %s", got)
	}
	e.chatOK(SeedOwnerID, http.MethodPost, "/users/9/status", chatForm("status_text", "On leave"))
	for _, tc := range []struct {
		user   int
		path   string
		status int
		code   string
		msg    string
	}{
		{SeedModeratorID, "/users/5/status", 400, "BAD_REQUEST", "Insufficient permission"},
		{SeedMemberID, "/users/6/status", 400, "BAD_REQUEST", "Insufficient permission"},
		{SeedGuestID, "/users/5/status", 400, "BAD_REQUEST", "Insufficient permission"},
		{SeedAdminID, "/users/1/status", 400, "BAD_REQUEST", "Insufficient permission"},
		{SeedAdminID, "/users/999/status", 400, "BAD_REQUEST", "No such user"},
		{SeedAdminID, "/users/10/status", 400, "BAD_REQUEST", "User is deactivated"},
		{SeedBotID, "/users/5/status", 400, "BAD_REQUEST", "This endpoint does not accept bot requests."},
	} {
		e.chatFail(tc.user, http.MethodPost, tc.path, chatForm("status_text", "x"), tc.status, tc.code, tc.msg)
	}
}
