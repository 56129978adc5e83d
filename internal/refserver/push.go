package refserver

import (
	"net/http"
	"regexp"
	"strings"
)

func init() {
	registerArea("push", area{seed: seedPushDevices, seedStep: 60, routes: (*Server).routesPush})
}

// reAppID is the format of an iOS app id (Zulip's ApnsAppId).
var reAppID = regexp.MustCompile(`^[.a-zA-Z0-9-]+$`)

// maxPushTokenLength is the longest token Zulip's validate_token accepts.
const maxPushTokenLength = 4096

// Push bouncer errors that Options.PushBouncerError can inject, answered as
// Zulip answers them from POST /mobile_push/e2ee/test_notification.
var pushBouncerErrors = map[string]*apiError{
	"ADMIN_ACTION_REQUIRED": errCode(http.StatusForbidden, "ADMIN_ACTION_REQUIRED",
		"Push notification configuration issue on server, contact the server administrator or retry later.", nil),
	"FAILED_TO_CONNECT_BOUNCER": errCode(http.StatusBadGateway, "FAILED_TO_CONNECT_BOUNCER",
		"Network error while connecting to Zulip push notification service.", nil),
	"INTERNAL_SERVER_ERROR_ON_BOUNCER": errCode(http.StatusBadGateway, "INTERNAL_SERVER_ERROR_ON_BOUNCER",
		"Internal server error on Zulip push notification service, retry later.", nil),
}

// routesPush registers the push token and test notification endpoints.
func (s *Server) routesPush() {
	s.handle("POST /users/me/apns_device_token", authUser, s.addAPNsToken)
	s.handle("DELETE /users/me/apns_device_token", authUser, s.removeAPNsToken)
	s.handle("POST /users/me/android_gcm_reg_id", authUser, s.addFCMToken)
	s.handle("DELETE /users/me/android_gcm_reg_id", authUser, s.removeFCMToken)
	s.handle("POST /mobile_push/test_notification", authUser, s.testPushNotification)
	s.handle("POST /mobile_push/e2ee/test_notification", authUser, s.testE2EEPushNotification)
}

// SentNotifications returns a copy of every test push notification the server
// has "sent", oldest first.
func (s *Server) SentNotifications() []PushNotification {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]PushNotification, 0, len(s.realm.SentNotifications))
	for _, n := range s.realm.SentNotifications {
		cp := *n
		cp.Payload = clonePayload(n.Payload)
		out = append(out, cp)
	}
	return out
}

// clonePayload deep-copies a notification payload's nested objects.
func clonePayload(p map[string]any) map[string]any {
	if p == nil {
		return nil
	}
	out := make(map[string]any, len(p))
	for k, v := range p {
		if m, ok := v.(map[string]any); ok {
			v = clonePayload(m)
		}
		out[k] = v
	}
	return out
}

// apnsHexTokenFL is the feature level from which APNs tokens must be
// hexadecimal. Zulip's API changelog does not record the change: up to Zulip
// 9.x validate_token (then in zerver/views/push_notifications.py) decoded the
// token as base64 (b64_to_hex), and current Zulip's validate_token
// (zerver/lib/push_notifications.py) calls bytes.fromhex. validate_token
// moved there with the end-to-end-encrypted push registration of feature
// level 406 (Zulip 11.0), which is where this server switches.
const apnsHexTokenFL = 406

// validatePushToken is Zulip's validate_token: a non-empty token of at most
// 4096 characters; an APNs token must also decode, as hexadecimal
// (bytes.fromhex) since apnsHexTokenFL, as base64 (Python's lenient
// base64.b64decode) before.
func validatePushToken(token, kind string, featureLevel int) error {
	if token == "" || len(token) > maxPushTokenLength {
		return errBadRequest("Empty or invalid length token")
	}
	if kind != PushKindAPNs {
		return nil
	}
	ok := pythonFromHex(token)
	if featureLevel < apnsHexTokenFL {
		ok = lenientBase64(token)
	}
	if !ok {
		return errBadRequest("Invalid APNS token")
	}
	return nil
}

// pythonFromHex reports whether Python's bytes.fromhex accepts s: pairs of
// hexadecimal digits (either case), with ASCII whitespace allowed between
// pairs but not inside one.
func pythonFromHex(s string) bool {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' }
	for i := 0; i < len(s); {
		if isSpace(s[i]) {
			i++
			continue
		}
		if i+1 >= len(s) || !isHexDigit(s[i]) || !isHexDigit(s[i+1]) {
			return false
		}
		i += 2
	}
	return true
}

// lenientBase64 reports whether Python's base64.b64decode (validate=False)
// accepts s: characters outside the alphabet are discarded, and the data
// characters must form whole quads or be completed by enough "=" padding.
func lenientBase64(s string) bool {
	data, pads := 0, 0
	for _, c := range s {
		switch {
		case c == '=':
			pads++
		case c < 0x80 && (c == '+' || c == '/' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')):
			data++
		}
	}
	switch data % 4 {
	case 0:
		return true
	case 2:
		return pads >= 2
	case 3:
		return pads >= 1
	default:
		return false
	}
}

// findPushDevice returns the index of the user's device of kind with exactly
// this token, or -1. Zulip stores tokens as given and looks them up exactly
// (PushDeviceToken.objects.get(token=..., kind=..., user=...)), so two
// spellings of a hexadecimal token are two devices.
func (r *Realm) findPushDevice(userID int, kind, token string) int {
	for i, d := range r.PushDevices {
		if d.UserID == userID && d.Kind == kind && d.Token == token {
			return i
		}
	}
	return -1
}

// addPushToken registers a legacy push token of the caller, as given. As in
// Zulip's add_push_device_token (zerver/lib/push_notifications.py), a token
// the user has already registered is left as it is: the row is created with
// ignore_conflicts (earlier versions caught the IntegrityError), so a new
// appid does not replace the stored ios_app_id.
func (s *Server) addPushToken(c *call, kind, token, appID string) (obj, error) {
	if err := validatePushToken(token, kind, s.opts.FeatureLevel); err != nil {
		return nil, err
	}
	r := c.realm()
	if r.findPushDevice(c.user.ID, kind, token) >= 0 {
		return nil, nil
	}
	r.PushDevices = append(r.PushDevices, &PushDevice{
		ID: r.newID("push_device"), UserID: c.user.ID, Kind: kind, Token: token, AppID: appID,
	})
	return nil, nil
}

// removePushToken deletes a legacy push token of the caller.
func (s *Server) removePushToken(c *call, kind string) (obj, error) {
	if err := c.requireHuman(); err != nil {
		return nil, err
	}
	token, err := c.reqString("token")
	if err != nil {
		return nil, err
	}
	if err := validatePushToken(token, kind, s.opts.FeatureLevel); err != nil {
		return nil, err
	}
	r := c.realm()
	i := r.findPushDevice(c.user.ID, kind, token)
	if i < 0 {
		return nil, errBadRequest("Token does not exist")
	}
	r.PushDevices = append(r.PushDevices[:i], r.PushDevices[i+1:]...)
	return nil, nil
}

// addAPNsToken serves POST /users/me/apns_device_token (add-apns-token).
// appid is required since FL223; before, it defaulted to org.zulip.Zulip.
func (s *Server) addAPNsToken(c *call) (obj, error) {
	if err := c.requireHuman(); err != nil {
		return nil, err
	}
	token, err := c.reqString("token")
	if err != nil {
		return nil, err
	}
	var appID string
	if c.s.opts.FeatureLevel >= 223 {
		if appID, err = c.reqString("appid"); err != nil {
			return nil, err
		}
	} else if v, ok := c.optString("appid"); ok {
		appID = v
	} else {
		appID = "org.zulip.Zulip"
	}
	if !reAppID.MatchString(appID) {
		return nil, errBadRequest("appid has invalid format")
	}
	return s.addPushToken(c, PushKindAPNs, token, appID)
}

// removeAPNsToken serves DELETE /users/me/apns_device_token (remove-apns-token).
func (s *Server) removeAPNsToken(c *call) (obj, error) { return s.removePushToken(c, PushKindAPNs) }

// addFCMToken serves POST /users/me/android_gcm_reg_id (add-fcm-token).
func (s *Server) addFCMToken(c *call) (obj, error) {
	if err := c.requireHuman(); err != nil {
		return nil, err
	}
	token, err := c.reqString("token")
	if err != nil {
		return nil, err
	}
	return s.addPushToken(c, PushKindFCM, token, "")
}

// removeFCMToken serves DELETE /users/me/android_gcm_reg_id (remove-fcm-token).
func (s *Server) removeFCMToken(c *call) (obj, error) { return s.removePushToken(c, PushKindFCM) }

// testPushNotification serves POST /mobile_push/test_notification (FL217):
// to the device with the given token, or to every legacy device of the user
// (none at all is not an error: nothing is sent).
func (s *Server) testPushNotification(c *call) (obj, error) {
	if err := c.requireHuman(); err != nil {
		return nil, err
	}
	r := c.realm()
	token, hasToken := c.optString("token")
	var devices []*PushDevice
	for _, d := range r.PushDevices {
		if d.UserID != c.user.ID || (d.Kind != PushKindAPNs && d.Kind != PushKindFCM) {
			continue
		}
		// PushDeviceToken.objects.get(token=token, user=user_profile): exact.
		if hasToken && d.Token != token {
			continue
		}
		devices = append(devices, d)
	}
	if hasToken && len(devices) == 0 {
		return nil, errCode(http.StatusBadRequest, "INVALID_PUSH_DEVICE_TOKEN", "Device not recognized", nil)
	}
	for _, d := range devices {
		s.recordPush(c, d)
	}
	return nil, nil
}

// testE2EEPushNotification serves POST /mobile_push/e2ee/test_notification
// (FL420): to the end-to-end-encrypted device with the given id (device_id
// since FL468, push_account_id before), or to all of them. No matching device
// is 400 NO_ACTIVE_PUSH_DEVICE; Options.PushBouncerError then injects the
// bouncer's failures.
func (s *Server) testE2EEPushNotification(c *call) (obj, error) {
	if err := c.requireHuman(); err != nil {
		return nil, err
	}
	param := "device_id"
	if c.s.opts.FeatureLevel < 468 {
		param = "push_account_id"
	}
	var want int
	hasID, err := c.optJSON(param, &want)
	if err != nil {
		return nil, err
	}
	var devices []*PushDevice
	for _, d := range c.realm().PushDevices {
		if d.UserID == c.user.ID && d.Kind == PushKindE2EE && (!hasID || d.ID == want) {
			devices = append(devices, d)
		}
	}
	if len(devices) == 0 {
		return nil, errCode(http.StatusBadRequest, "NO_ACTIVE_PUSH_DEVICE", "No active registered push device", nil)
	}
	if e, ok := pushBouncerErrors[c.s.opts.PushBouncerError]; ok {
		return nil, errCode(e.Status, e.Code, e.Msg, nil)
	}
	for _, d := range devices {
		s.recordPush(c, d)
	}
	return nil, nil
}

// recordPush records the test notification a device would have received:
// Zulip's base payload plus event "test" and, for APNs, the alert text.
func (s *Server) recordPush(c *call, d *PushDevice) {
	r := c.realm()
	realmURL := "https://" + r.Host
	now := s.now().Unix()
	payload := map[string]any{
		"event":      "test",
		"server":     r.Host,
		"realm_name": r.Name,
		"realm_url":  realmURL,
		"realm_uri":  realmURL,
		"user_id":    c.user.ID,
		"time":       now,
	}
	if d.Kind == PushKindAPNs || d.Kind == PushKindE2EE {
		payload["alert"] = map[string]any{
			"title": "Test notification",
			"body":  "This is a test notification from " + r.Name + " (" + realmURL + ").",
		}
	}
	r.SentNotifications = append(r.SentNotifications, &PushNotification{
		UserID: c.user.ID, DeviceID: d.ID, Kind: d.Kind, Payload: payload, Sent: now,
	})
}

// seedPushDevices registers an APNs, an end-to-end-encrypted and an FCM device.
func seedPushDevices(r *Realm, _, _ int64) {
	r.PushDevices = []*PushDevice{
		{ID: 1, UserID: SeedOwnerID, Kind: PushKindAPNs, Token: strings.Repeat("ab12", 16), AppID: "org.zulip.Zulip"},
		{ID: 2, UserID: SeedOwnerID, Kind: PushKindE2EE},
		{ID: 3, UserID: SeedMemberID, Kind: PushKindFCM, Token: "fcm-token-mark-0001", AppID: "com.zulipmobile"},
	}
	r.NextID["push_device"] = 3
}

// Push device kinds.
const (
	PushKindAPNs = "apns"
	PushKindFCM  = "fcm"
	PushKindE2EE = "e2ee"
)

// PushDevice is a registered mobile device: a legacy APNs/FCM token, or an
// end-to-end-encrypted push device identified by its device id.
type PushDevice struct {
	ID     int    `json:"id"`
	UserID int    `json:"user_id"`
	Kind   string `json:"kind"`
	Token  string `json:"token,omitempty"`
	AppID  string `json:"app_id,omitempty"`
}

// PushNotification is what a test notification would have sent to a device.
type PushNotification struct {
	UserID   int            `json:"user_id"`
	DeviceID int            `json:"device_id"`
	Kind     string         `json:"kind"`
	Payload  map[string]any `json:"payload"`
	Sent     int64          `json:"sent"`
}
