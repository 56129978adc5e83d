package refserver

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// chatDevices lists a user's push devices as "kind:token:appid" strings.
func chatDevices(e *chatEnv, user int) []string {
	var out []string
	e.srv.Do(func(r *Realm) {
		for _, d := range r.PushDevices {
			if d.UserID == user {
				out = append(out, d.Kind+":"+d.Token+":"+d.AppID)
			}
		}
	})
	return out
}

// APNs tokens as current Zulip handles them (zerver/lib/push_notifications.py):
// validate_token requires hexadecimal (bytes.fromhex), add_push_device_token
// stores the token as given and ignores a conflicting row (so re-adding a
// token keeps its first ios_app_id), and removal looks the token up exactly.
func TestChatAPNsTokens(t *testing.T) {
	e := chatNew(t)
	const path = "/users/me/apns_device_token"
	token := strings.Repeat("C0FFEE12", 8)
	e.chatOK(SeedMemberID, http.MethodPost, path, chatForm("token", token, "appid", "org.zulip.Zulip"))
	// The same token again is the same device, and keeps its app id.
	e.chatOK(SeedMemberID, http.MethodPost, path, chatForm("token", token, "appid", "org.zulip.Zulip.beta"))
	if got := chatDevices(e, SeedMemberID); len(got) != 2 || got[1] != "apns:"+token+":org.zulip.Zulip" {
		t.Errorf("devices: %v", got)
	}
	// Stored as given: the lower-case spelling is another token.
	e.chatOK(SeedMemberID, http.MethodPost, path, chatForm("token", strings.ToLower(token), "appid", "org.zulip.Zulip"))
	if got := chatDevices(e, SeedMemberID); len(got) != 3 || got[2] != "apns:"+strings.ToLower(token)+":org.zulip.Zulip" {
		t.Errorf("devices: %v", got)
	}
	// The API description's own example, and whitespace between pairs.
	e.chatOK(SeedGuestID, http.MethodPost, path, chatForm("token", "c0ffee", "appid", "com.example.app"))
	e.chatOK(SeedGuestID, http.MethodPost, path, chatForm("token", "ab cd\tef", "appid", "com.example.app"))
	for _, user := range []int{SeedOwnerID, SeedAdminID, SeedModeratorID} {
		e.chatOK(user, http.MethodPost, path, chatForm("token", "abcd00"+chatItoa(user*11), "appid", "org.zulip.Zulip"))
	}
	for _, tc := range []struct {
		user      int
		form      []string
		code, msg string
	}{
		{SeedMemberID, []string{"token", "", "appid", "org.zulip.Zulip"}, "BAD_REQUEST", "Empty or invalid length token"},
		{SeedMemberID, []string{"token", strings.Repeat("ab", 2049), "appid", "org.zulip.Zulip"}, "BAD_REQUEST", "Empty or invalid length token"},
		{SeedMemberID, []string{"token", "not a token!", "appid", "org.zulip.Zulip"}, "BAD_REQUEST", "Invalid APNS token"},
		{SeedMemberID, []string{"token", "abcde", "appid", "org.zulip.Zulip"}, "BAD_REQUEST", "Invalid APNS token"},    // odd length
		{SeedMemberID, []string{"token", "a bcd", "appid", "org.zulip.Zulip"}, "BAD_REQUEST", "Invalid APNS token"},    // space inside a pair
		{SeedMemberID, []string{"token", "wP/uEg==", "appid", "org.zulip.Zulip"}, "BAD_REQUEST", "Invalid APNS token"}, // base64
		{SeedMemberID, []string{"token", token, "appid", "org zulip"}, "BAD_REQUEST", "appid has invalid format"},
		{SeedMemberID, []string{"token", token}, "REQUEST_VARIABLE_MISSING", "Missing 'appid' argument"},
		{SeedMemberID, []string{"appid", "org.zulip.Zulip"}, "REQUEST_VARIABLE_MISSING", "Missing 'token' argument"},
		{SeedBotID, []string{"token", token, "appid", "org.zulip.Zulip"}, "BAD_REQUEST", "This endpoint does not accept bot requests."},
	} {
		e.chatFail(tc.user, http.MethodPost, path, chatForm(tc.form...), 400, tc.code, tc.msg)
	}

	e.chatFail(SeedAdminID, http.MethodDelete, path, chatForm("token", token), 400, "BAD_REQUEST", "Token does not exist") // Mark's token
	e.chatOK(SeedMemberID, http.MethodDelete, path, chatForm("token", token))
	if got := chatDevices(e, SeedMemberID); len(got) != 2 || !strings.HasPrefix(got[0], "fcm:") || got[1] != "apns:"+strings.ToLower(token)+":org.zulip.Zulip" {
		t.Errorf("after delete: %v", got)
	}
	e.chatFail(SeedMemberID, http.MethodDelete, path, chatForm("token", token), 400, "BAD_REQUEST", "Token does not exist")
	e.chatFail(SeedMemberID, http.MethodDelete, path, chatForm("token", ""), 400, "BAD_REQUEST", "Empty or invalid length token")
	e.chatFail(SeedMemberID, http.MethodDelete, path, chatForm("token", "abc"), 400, "BAD_REQUEST", "Invalid APNS token")
	e.chatFail(SeedMemberID, http.MethodDelete, path, nil, 400, "REQUEST_VARIABLE_MISSING", "Missing 'token' argument")
	e.chatFail(SeedBotID, http.MethodDelete, path, chatForm("token", token), 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
	// The seeded FCM token is not hexadecimal.
	e.chatFail(SeedMemberID, http.MethodDelete, path, chatForm("token", "fcm-token-mark-0001"), 400, "BAD_REQUEST", "Invalid APNS token")
}

// Before apnsHexTokenFL, validate_token decoded APNs tokens as base64 with
// Python's lenient base64.b64decode (b64_to_hex in the Zulip 9.x
// zerver/views/push_notifications.py): the spec's own example "c0ffee" was
// refused ("Incorrect padding") and base64 tokens were accepted.
func TestChatAPNsBase64BeforeHex(t *testing.T) {
	e := chatNew(t, chatLevel(apnsHexTokenFL-1))
	const path = "/users/me/apns_device_token"
	e.chatOK(SeedMemberID, http.MethodPost, path, chatForm("token", "wP/uEg==", "appid", "org.zulip.Zulip"))
	e.chatOK(SeedMemberID, http.MethodPost, path, chatForm("token", strings.Repeat("ab12", 16), "appid", "org.zulip.Zulip"))
	e.chatFail(SeedMemberID, http.MethodPost, path, chatForm("token", "c0ffee", "appid", "org.zulip.Zulip"), 400, "BAD_REQUEST", "Invalid APNS token")
	e.chatFail(SeedMemberID, http.MethodPost, path, chatForm("token", "abcde", "appid", "org.zulip.Zulip"), 400, "BAD_REQUEST", "Invalid APNS token")
	// The seeded FCM token decodes leniently as base64, but is not an APNs token.
	e.chatFail(SeedMemberID, http.MethodDelete, path, chatForm("token", "fcm-token-mark-0001"), 400, "BAD_REQUEST", "Token does not exist")
	e.chatOK(SeedMemberID, http.MethodDelete, path, chatForm("token", "wP/uEg=="))
}

func TestChatAPNsAppIDBeforeFL223(t *testing.T) {
	e := chatNew(t, chatLevel(222))
	e.chatOK(SeedMemberID, http.MethodPost, "/users/me/apns_device_token", chatForm("token", "abcdef01"))
	if got := chatDevices(e, SeedMemberID); got[len(got)-1] != "apns:abcdef01:org.zulip.Zulip" {
		t.Errorf("default app id: %v", got)
	}
}

func TestChatFCMTokens(t *testing.T) {
	e := chatNew(t)
	const path = "/users/me/android_gcm_reg_id"
	e.chatOK(SeedGuestID, http.MethodPost, path, chatForm("token", "guest-fcm:token/1"))
	e.chatOK(SeedGuestID, http.MethodPost, path, chatForm("token", "guest-fcm:token/1"))
	if got := chatDevices(e, SeedGuestID); len(got) != 1 || got[0] != "fcm:guest-fcm:token/1:" {
		t.Errorf("devices: %v", got)
	}
	e.chatFail(SeedGuestID, http.MethodPost, path, chatForm("token", ""), 400, "BAD_REQUEST", "Empty or invalid length token")
	e.chatFail(SeedGuestID, http.MethodPost, path, chatForm("token", strings.Repeat("x", 4097)), 400, "BAD_REQUEST", "Empty or invalid length token")
	e.chatFail(SeedBotID, http.MethodPost, path, chatForm("token", "x"), 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
	// An incoming webhook bot is refused before the view's human_users_only,
	// by validate_api_key (zerver/decorator.py).
	e.chatFail(SeedIncomingBotID, http.MethodPost, path, chatForm("token", "x"), 401, "UNAUTHORIZED", "This API is not available to incoming webhook bots.")
	e.chatFail(SeedOwnerID, http.MethodDelete, path, chatForm("token", "guest-fcm:token/1"), 400, "BAD_REQUEST", "Token does not exist")
	e.chatOK(SeedGuestID, http.MethodDelete, path, chatForm("token", "guest-fcm:token/1"))
	e.chatFail(SeedGuestID, http.MethodDelete, path, chatForm("token", "guest-fcm:token/1"), 400, "BAD_REQUEST", "Token does not exist")
	if got := chatDevices(e, SeedGuestID); len(got) != 0 {
		t.Errorf("after delete: %v", got)
	}
}

func TestChatTestNotification(t *testing.T) {
	at := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	e := chatNew(t, chatAt(at))
	const path = "/mobile_push/test_notification"
	// The owner has one APNs device (and an E2EE one, not targeted here).
	e.chatOK(SeedOwnerID, http.MethodPost, path, nil)
	sent := e.srv.SentNotifications()
	if len(sent) != 1 {
		t.Fatalf("sent: %+v", sent)
	}
	n := sent[0]
	if n.UserID != SeedOwnerID || n.DeviceID != 1 || n.Kind != PushKindAPNs || n.Sent != at.Unix() {
		t.Errorf("notification: %+v", n)
	}
	want := `{"alert":{"body":"This is a test notification from Zulip Reference Realm (https://zulip.example.com).","title":"Test notification"},` +
		`"event":"test","realm_name":"Zulip Reference Realm","realm_uri":"https://zulip.example.com","realm_url":"https://zulip.example.com",` +
		`"server":"zulip.example.com","time":1748779200,"user_id":1}`
	if got := chatJSON(n.Payload); got != want {
		t.Errorf("payload:\n got %s\nwant %s", got, want)
	}
	// The copy is the caller's.
	sent[0].Payload["alert"].(map[string]any)["title"] = "changed"
	if e.srv.SentNotifications()[0].Payload["alert"].(map[string]any)["title"] != "Test notification" {
		t.Errorf("SentNotifications shares its payload")
	}

	e.chatOK(SeedOwnerID, http.MethodPost, path, chatForm("token", strings.Repeat("ab12", 16)))
	e.chatOK(SeedMemberID, http.MethodPost, path, chatForm("token", "fcm-token-mark-0001"))
	e.chatOK(SeedModeratorID, http.MethodPost, path, nil) // no device: nothing to send, no error
	sent = e.srv.SentNotifications()
	if len(sent) != 3 || sent[1].DeviceID != 1 || sent[2].Kind != PushKindFCM || sent[2].UserID != SeedMemberID {
		t.Errorf("sent: %+v", sent)
	}
	if _, ok := sent[2].Payload["alert"]; ok {
		t.Errorf("FCM payload with an APNs alert: %v", sent[2].Payload)
	}
	for _, tc := range []struct {
		user  int
		token string
	}{
		// Tokens are looked up exactly: another spelling is another token.
		{SeedOwnerID, "unknown"}, {SeedOwnerID, strings.Repeat("AB12", 16)}, {SeedAdminID, strings.Repeat("ab12", 16)}, {SeedMemberID, ""},
	} {
		e.chatFail(tc.user, http.MethodPost, path, chatForm("token", tc.token), 400, "INVALID_PUSH_DEVICE_TOKEN", "Device not recognized")
	}
	e.chatFail(SeedBotID, http.MethodPost, path, nil, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
	if len(e.srv.SentNotifications()) != 3 {
		t.Errorf("failed requests sent notifications")
	}
}

func TestChatE2EETestNotification(t *testing.T) {
	e := chatNew(t)
	const path = "/mobile_push/e2ee/test_notification"
	e.chatOK(SeedOwnerID, http.MethodPost, path, nil)
	e.chatOK(SeedOwnerID, http.MethodPost, path, chatForm("device_id", "2"))
	sent := e.srv.SentNotifications()
	if len(sent) != 2 || sent[0].DeviceID != 2 || sent[0].Kind != PushKindE2EE || sent[1].DeviceID != 2 || sent[0].Payload["event"] != "test" {
		t.Errorf("sent: %+v", sent)
	}
	for _, tc := range []struct {
		user int
		form []string
	}{
		{SeedOwnerID, []string{"device_id", "1"}}, // an APNs device, not an E2EE one
		{SeedOwnerID, []string{"device_id", "99"}},
		{SeedMemberID, nil},
		{SeedGuestID, nil},
	} {
		e.chatFail(tc.user, http.MethodPost, path, chatForm(tc.form...), 400, "NO_ACTIVE_PUSH_DEVICE", "No active registered push device")
	}
	e.chatFail(SeedOwnerID, http.MethodPost, path, chatForm("device_id", "two"), 400, "BAD_REQUEST", "device_id is not valid JSON")
	e.chatFail(SeedBotID, http.MethodPost, path, nil, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")

	for code, want := range map[string]struct {
		status int
		msg    string
	}{
		"ADMIN_ACTION_REQUIRED":            {403, "Push notification configuration issue on server, contact the server administrator or retry later."},
		"FAILED_TO_CONNECT_BOUNCER":        {502, "Network error while connecting to Zulip push notification service."},
		"INTERNAL_SERVER_ERROR_ON_BOUNCER": {502, "Internal server error on Zulip push notification service, retry later."},
	} {
		e := chatNew(t, func(o *Options) { o.PushBouncerError = code })
		e.chatFail(SeedOwnerID, http.MethodPost, path, nil, want.status, code, want.msg)
		// Without a device, the device error comes first.
		e.chatFail(SeedMemberID, http.MethodPost, path, nil, 400, "NO_ACTIVE_PUSH_DEVICE", "No active registered push device")
		if n := len(e.srv.SentNotifications()); n != 0 {
			t.Errorf("%s: %d notifications sent", code, n)
		}
	}
}

func TestChatE2EEPushAccountIDBeforeFL468(t *testing.T) {
	e := chatNew(t, chatLevel(420))
	body := e.chatOK(SeedOwnerID, http.MethodPost, "/mobile_push/e2ee/test_notification", chatForm("push_account_id", "2", "device_id", "1"))
	if chatJSON(body["ignored_parameters_unsupported"]) != `["device_id"]` {
		t.Errorf("ignored: %v", body)
	}
	e.chatFail(SeedOwnerID, http.MethodPost, "/mobile_push/e2ee/test_notification", chatForm("push_account_id", "1"),
		400, "NO_ACTIVE_PUSH_DEVICE", "No active registered push device")
}
