package zulip

import (
	"context"
	"net/http"
)

// Error codes of the push notification endpoints.
const (
	CodeInvalidPushDeviceToken       = "INVALID_PUSH_DEVICE_TOKEN"
	CodeInvalidRemotePushDeviceToken = "INVALID_REMOTE_PUSH_DEVICE_TOKEN"
	CodeNoActivePushDevice           = "NO_ACTIVE_PUSH_DEVICE"
	CodeAdminActionRequired          = "ADMIN_ACTION_REQUIRED"
	CodeFailedToConnectBouncer       = "FAILED_TO_CONNECT_BOUNCER"
	CodeInternalServerErrorOnBouncer = "INTERNAL_SERVER_ERROR_ON_BOUNCER"
)

// E2EETestNotificationRequest selects the device of SendE2EETestNotification; with neither
// field set, every registered device of the caller is targeted. DeviceID is the parameter
// since FL468; PushAccountID is its predecessor (FL420–467). Set the one the server's
// feature level expects.
type E2EETestNotificationRequest struct {
	DeviceID      *int64
	PushAccountID *int64
}

// AddAPNsToken registers an iOS (APNs) device token for the caller
// (POST /users/me/apns_device_token). appID is required since FL223 (normally
// "org.zulip.Zulip"). Current servers require a hexadecimal token (older ones decoded it as
// base64) and store it exactly as given, so two spellings of a token are two devices.
// Idempotent: registering a registered token again succeeds and changes nothing (the app id
// of the first registration stays).
func (c *Client) AddAPNsToken(ctx context.Context, token, appID string) error {
	p := newParams().str("token", token).str("appid", appID)
	return c.do(ctx, request{method: http.MethodPost, path: "users/me/apns_device_token", params: p, idempotent: true}, nil)
}

// RemoveAPNsToken unregisters an APNs device token (DELETE /users/me/apns_device_token), looked
// up exactly as registered. Idempotent in effect: a repeat answers "Token does not exist",
// which IsNotFound recognises.
func (c *Client) RemoveAPNsToken(ctx context.Context, token string) error {
	p := newParams().str("token", token)
	return c.do(ctx, request{method: http.MethodDelete, path: "users/me/apns_device_token", params: p, idempotent: true}, nil)
}

// SendTestNotification sends a test push notification (POST /mobile_push/test_notification,
// FL217) to the device with the given legacy token, or to every device of the caller when
// token is "". Not idempotent: each call sends a notification.
func (c *Client) SendTestNotification(ctx context.Context, token string) error {
	p := newParams()
	if token != "" {
		p.str("token", token)
	}
	return c.do(ctx, request{method: http.MethodPost, path: "mobile_push/test_notification", params: p, idempotent: false}, nil)
}

// SendE2EETestNotification sends an end-to-end encrypted test push notification
// (POST /mobile_push/e2ee/test_notification, FL420). Not idempotent. Bouncer failures come
// back as HTTP 502 with FAILED_TO_CONNECT_BOUNCER or INTERNAL_SERVER_ERROR_ON_BOUNCER.
func (c *Client) SendE2EETestNotification(ctx context.Context, r E2EETestNotificationRequest) error {
	p := newParams()
	if r.DeviceID != nil {
		p.json("device_id", *r.DeviceID)
	}
	if r.PushAccountID != nil {
		p.json("push_account_id", *r.PushAccountID)
	}
	return c.do(ctx, request{method: http.MethodPost, path: "mobile_push/e2ee/test_notification", params: p, idempotent: false}, nil)
}
