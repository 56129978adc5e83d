package operations

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Feature levels of the test notification endpoints (digest §9.5).
const (
	featurePushTestNotification     = 217 // POST /mobile_push/test_notification
	featurePushE2EETestNotification = 420 // POST /mobile_push/e2ee/test_notification (push_account_id)
	featurePushE2EEDeviceID         = 468 // device_id replaces push_account_id
)

// The endpoints, as recorded in the endpoint attribute.
const (
	pushEndpointLegacy = "mobile_push/test_notification"
	pushEndpointE2EE   = "mobile_push/e2ee/test_notification"
)

// pushTestNotification sends a test push notification to the provider's
// account's devices: the action zulip_push_test_notification, and the
// invocation resource of the same name (destroying it only forgets: a sent
// notification cannot be unsent).
var pushTestNotification = &kit.Operation[pushTestNotificationArgs]{
	Action: "push_test_notification", Resource: "push_test_notification",
	ActionDescription: "Sends a test push notification to the provider's account's mobile devices each time it is " +
		"invoked (`terraform apply -invoke=action.zulip_push_test_notification.<name>`, or an `action_trigger`): to the " +
		"device of a legacy `token` (`POST /mobile_push/test_notification`, feature level 217), to the end-to-end " +
		"encrypted device `device_id` (`POST /mobile_push/e2ee/test_notification`, feature level 420), or to every " +
		"device of one kind (`encrypted`). Failures say what to do. Needs Terraform 1.14 or newer; before, the resource " +
		"`zulip_push_test_notification` does the same once.",
	ResourceDescription: "Sends a test push notification to the mobile devices of the account the provider is configured with, " +
		"to check that push notifications reach them. Three forms:\n\n" +
		"- `token`: the device registered with that legacy APNs/FCM token (`POST /mobile_push/test_notification`, " +
		"Zulip feature level 217);\n" +
		"- `device_id`: the end-to-end encrypted push device with that id (`POST /mobile_push/e2ee/test_notification`, " +
		"feature level 420; on servers before feature level 468 the id is sent as `push_account_id`);\n" +
		"- neither: every device of the account, through the legacy endpoint, or the end-to-end encrypted one " +
		"when `encrypted = true`.\n\n" +
		"Failures name what to do: register the device first, have the server administrator register the " +
		"server with the push notification service, or retry later.",
	Undo: "a notification, once sent, stays sent",
	Args: map[string]kit.OperationArg{
		"token": {Kind: kit.ArgString, Sensitive: true,
			Description: "The legacy push token (APNs or FCM) of the device to notify, as registered with " +
				"Zulip (for example by `zulip_apns_device_token`). Conflicts with `device_id`.",
			String: []validator.String{validators.String("a push token of 1 to 4096 characters", checkPushToken)}},
		"device_id": {Kind: kit.ArgInt64,
			Description: "The id of the end-to-end encrypted push device to notify (the id Zulip gave the " +
				"device when the app registered it). Conflicts with `token`.",
			Int64: []validator.Int64{int64validator.AtLeast(1)}},
		"encrypted": {Kind: kit.ArgBool,
			Description: "With neither `token` nor `device_id`: `true` notifies every end-to-end encrypted " +
				"device of the account, `false` (the default) every legacy device. Must not be `false` with " +
				"`device_id` or `true` with `token`."},
	},
	Outputs: map[string]kit.OperationOutput{
		"endpoint": {Kind: kit.ArgString, Description: "The endpoint used, below `/api/v1/`: `mobile_push/test_notification` or " +
			"`mobile_push/e2ee/test_notification`."},
	},
	Validate: func(_ context.Context, m pushTestNotificationArgs, diags *diag.Diagnostics) {
		if !m.Token.IsNull() && !m.DeviceID.IsNull() {
			diags.AddAttributeError(path.Root("device_id"), "Conflicting Devices", "Name the device by token or by device_id, not both.")
		}
		checkPushEncryption(m, diags)
	},
	// The endpoint the arguments choose, and a server too old for it.
	CheckPlan: func(_ context.Context, d *kit.ProviderData, m pushTestNotificationArgs, diags *diag.Diagnostics) map[string]attr.Value {
		if m.Token.IsUnknown() || m.DeviceID.IsUnknown() || m.Encrypted.IsUnknown() {
			return nil
		}
		checkPushLevel(d, m, diags)
		return map[string]attr.Value{"endpoint": types.StringValue(pushTestNotificationEndpoint(m))}
	},
	Perform: func(ctx context.Context, c kit.Call[pushTestNotificationArgs], diags *diag.Diagnostics) map[string]attr.Value {
		endpoint := pushTestNotificationEndpoint(c.Args)
		c.Progress(ctx, "Sending a test push notification through POST /%s", endpoint)
		var err error
		if endpoint == pushEndpointE2EE {
			err = c.Data.Client.SendE2EETestNotification(ctx, pushTestNotificationToAPI(c.Args, c.Data.FeatureLevel()))
		} else {
			err = c.Data.Client.SendTestNotification(ctx, c.Args.Token.ValueString())
		}
		if err != nil {
			addPushTestNotificationError(diags, err)
			return nil
		}
		tflog.Info(ctx, "sent a test push notification", map[string]any{"endpoint": endpoint})
		c.Progress(ctx, "Test push notification sent (%s)", endpoint)
		return map[string]attr.Value{"endpoint": types.StringValue(endpoint)}
	},
}

// pushTestNotificationArgs are the operation's arguments.
type pushTestNotificationArgs struct {
	Token     types.String `tfsdk:"token"`
	DeviceID  types.Int64  `tfsdk:"device_id"`
	Encrypted types.Bool   `tfsdk:"encrypted"`
}

// checkPushEncryption rejects an `encrypted` that contradicts the device chosen.
func checkPushEncryption(m pushTestNotificationArgs, diags *diag.Diagnostics) {
	if !kit.Known(m.Encrypted) {
		return
	}
	if !m.Encrypted.ValueBool() && !m.DeviceID.IsNull() {
		diags.AddAttributeError(path.Root("encrypted"), "Contradictory Encryption Setting",
			"device_id names an end-to-end encrypted push device, which only the encrypted endpoint reaches: "+
				"remove `encrypted = false`.")
	}
	if m.Encrypted.ValueBool() && !m.Token.IsNull() {
		diags.AddAttributeError(path.Root("encrypted"), "Contradictory Encryption Setting",
			"token names a legacy (APNs/FCM) device, which only the legacy endpoint reaches: remove `encrypted = true`, "+
				"or use `device_id` to name an end-to-end encrypted device.")
	}
}

// checkPushLevel refuses a server too old for the endpoint the arguments choose.
func checkPushLevel(d *kit.ProviderData, m pushTestNotificationArgs, diags *diag.Diagnostics) {
	endpoint := pushTestNotificationEndpoint(m)
	level, attr := featurePushTestNotification, path.Root("token")
	if endpoint == pushEndpointE2EE {
		level, attr = featurePushE2EETestNotification, path.Root("encrypted")
		if !m.DeviceID.IsNull() {
			attr = path.Root("device_id")
		}
	}
	if err := d.RequireFeatureLevel(level, "POST /"+endpoint); err != nil {
		diags.AddAttributeError(attr, "Zulip Server Too Old", err.Error())
	}
}

// pushTestNotificationEndpoint chooses the endpoint from the arguments.
func pushTestNotificationEndpoint(m pushTestNotificationArgs) string {
	if !m.DeviceID.IsNull() || (m.Token.IsNull() && m.Encrypted.ValueBool()) {
		return pushEndpointE2EE
	}
	return pushEndpointLegacy
}

// pushTestNotificationToAPI builds the encrypted endpoint's request; the
// device id goes in the parameter the server's feature level expects.
func pushTestNotificationToAPI(m pushTestNotificationArgs, featureLevel int) zulip.E2EETestNotificationRequest {
	var req zulip.E2EETestNotificationRequest
	if !m.DeviceID.IsNull() {
		id := m.DeviceID.ValueInt64()
		if featureLevel >= featurePushE2EEDeviceID {
			req.DeviceID = &id
		} else {
			req.PushAccountID = &id
		}
	}
	return req
}

// addPushTestNotificationError explains each error code of the test
// notification endpoints with what to do about it.
func addPushTestNotificationError(diags *diag.Diagnostics, err error) {
	const summary = "Unable to Send Test Push Notification"
	switch zulip.ErrorCode(err) {
	case zulip.CodeInvalidPushDeviceToken:
		diags.AddAttributeError(path.Root("token"), summary, fmt.Sprintf(
			"The server has no device with this token for the provider's account. Register the device first (the "+
				"mobile app does so when it logs in, or use zulip_apns_device_token with the same token), and check "+
				"that the provider uses the account the device is registered to. Server said: %s", err))
	case zulip.CodeInvalidRemotePushDeviceToken:
		diags.AddAttributeError(path.Root("token"), summary, fmt.Sprintf(
			"The server knows this token, but Zulip's push notification service (the push bouncer) does not: the "+
				"device's registration with the bouncer was lost or failed. Register the device again (log out and "+
				"back in on the mobile app, or replace its zulip_apns_device_token) so that the server registers it "+
				"with the bouncer, then retry. Server said: %s", err))
	case zulip.CodeNoActivePushDevice:
		diags.AddError(summary, fmt.Sprintf(
			"The provider's account has no active end-to-end encrypted push device (with that device_id, if one "+
				"was given). Register the device first: "+
				"log in with a version of the Zulip mobile app that supports end-to-end encrypted notifications, "+
				"check device_id, or use the legacy endpoint (token, or encrypted = false) for older apps. "+
				"Server said: %s", err))
	case zulip.CodeAdminActionRequired:
		diags.AddError(summary, fmt.Sprintf(
			"The Zulip server is not set up to send push notifications through Zulip's push notification service. "+
				"The server administrator must register the server with the push bouncer and accept its terms of "+
				"service (or resolve the plan or billing problem the bouncer reports); retrying will not help "+
				"until then. Server said: %s", err))
	case zulip.CodeFailedToConnectBouncer:
		diags.AddError(summary, fmt.Sprintf(
			"The Zulip server could not reach Zulip's push notification service. This is usually temporary: "+
				"retry later (a failed invocation is not recorded, so the next apply tries again). If it persists, the server "+
				"administrator should check the server's outgoing network access to the push bouncer. Server said: %s", err))
	case zulip.CodeInternalServerErrorOnBouncer:
		diags.AddError(summary, fmt.Sprintf(
			"Zulip's push notification service failed while handling the notification. Retry later (a failed "+
				"invocation is not recorded, so the next apply tries again). Server said: %s", err))
	default:
		kit.AddAPIError(diags, summary, "send the test push notification", kit.RoleAny, err)
	}
}
