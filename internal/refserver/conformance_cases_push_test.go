package refserver_test

import (
	"strings"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func init() { confAreas["push"] = confCasesPush }

// confCasesPush are the conformance requests of push notifications.
func confCasesPush(add func(confGroup)) {
	add(confGroup{op: "add-apns-token", steps: []confStep{
		confOK("add", "add-apns-token", confMember, confPOST, "/users/me/apns_device_token", confP("token", strings.Repeat("c0ffee", 10)+"c0ff", "appid", "org.zulip.Zulip")),
		confOK("the spec's example token", "add-apns-token", confMember, confPOST, "/users/me/apns_device_token", confP("token", "c0ffee", "appid", "org.zulip.Zulip")),
		confBad("empty token", "add-apns-token", confMember, confPOST, "/users/me/apns_device_token", confP("token", "", "appid", "org.zulip.Zulip"), 400, "BAD_REQUEST"),
		confBad("not hexadecimal", "add-apns-token", confMember, confPOST, "/users/me/apns_device_token", confP("token", "wP/uEg==", "appid", "org.zulip.Zulip"), 400, "BAD_REQUEST"),
		confBad("missing appid", "add-apns-token", confMember, confPOST, "/users/me/apns_device_token", confP("token", strings.Repeat("ab", 32)), 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "remove-apns-token", steps: []confStep{
		confOK("remove", "remove-apns-token", confOwner, confDELETE, "/users/me/apns_device_token", confP("token", confAPNsToken)),
		confBad("removed already", "remove-apns-token", confOwner, confDELETE, "/users/me/apns_device_token", confP("token", confAPNsToken), 400, "BAD_REQUEST"),
		confBad("missing token", "remove-apns-token", confOwner, confDELETE, "/users/me/apns_device_token", nil, 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "add-fcm-token", steps: []confStep{
		confOK("add", "add-fcm-token", confMember2, confPOST, "/users/me/android_gcm_reg_id", confP("token", "fcm-token-maria-0002")),
		confBad("empty token", "add-fcm-token", confMember2, confPOST, "/users/me/android_gcm_reg_id", confP("token", ""), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "remove-fcm-token", steps: []confStep{
		confOK("remove", "remove-fcm-token", confMember, confDELETE, "/users/me/android_gcm_reg_id", confP("token", confFCMToken)),
		confBad("removed already", "remove-fcm-token", confMember, confDELETE, "/users/me/android_gcm_reg_id", confP("token", confFCMToken), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "test-notify", steps: []confStep{
		confOK("every device", "test-notify", confOwner, confPOST, "/mobile_push/test_notification", nil),
		confOK("one device", "test-notify", confOwner, confPOST, "/mobile_push/test_notification", confP("token", confAPNsToken)),
		confBad("unknown token", "test-notify", confOwner, confPOST, "/mobile_push/test_notification", confP("token", "unknown-token"), 400, "INVALID_PUSH_DEVICE_TOKEN"),
		// Zulip sends to no device at all and succeeds (the view does not check).
		confOK("no device", "test-notify", confAdmin2, confPOST, "/mobile_push/test_notification", nil),
	}})
	add(confGroup{op: "e2ee-test-notify", steps: []confStep{
		confOK("e2ee device", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", nil),
		confBad("no e2ee device", "e2ee-test-notify", confMember, confPOST, "/mobile_push/e2ee/test_notification", nil, 400, "NO_ACTIVE_PUSH_DEVICE"),
		// The owner's seeded e2ee device has id 2; the parameter naming it is
		// device_id since FL468, push_account_id before (digest §9.5).
		confFL(confOK("by device_id", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", confP("device_id", "2")), 468, 0),
		confFL(confBad("unknown device_id", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", confP("device_id", "99"), 400, "NO_ACTIVE_PUSH_DEVICE"), 468, 0),
		confFL(confOK("by push_account_id", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", confP("push_account_id", "2")), 420, 467),
		confFL(confBad("unknown push_account_id", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", confP("push_account_id", "99"), 400, "NO_ACTIVE_PUSH_DEVICE"), 420, 467),
	}})
	for _, e := range []struct {
		code   string
		status int
	}{
		{"ADMIN_ACTION_REQUIRED", 403},
		{"FAILED_TO_CONNECT_BOUNCER", 502},
		{"INTERNAL_SERVER_ERROR_ON_BOUNCER", 502},
	} {
		add(confGroup{op: "e2ee-test-notify", name: "e2ee-test-notify (" + e.code + ")", noAuth: true, opts: refserver.Options{PushBouncerError: e.code}, steps: []confStep{
			confBad("bouncer error", "e2ee-test-notify", confOwner, confPOST, "/mobile_push/e2ee/test_notification", nil, e.status, e.code),
		}})
	}
}
