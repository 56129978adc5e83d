package operations

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
)

var (
	_ action.ActionWithModifyPlan     = (*pushTestNotificationAction)(nil)
	_ action.ActionWithValidateConfig = (*pushTestNotificationAction)(nil)
)

// NewPushTestNotificationAction returns the zulip_push_test_notification action.
func NewPushTestNotificationAction() action.Action {
	return &pushTestNotificationAction{ActionBase: kit.ActionBase{Name: "push_test_notification"}}
}

// pushTestNotificationAction sends a test push notification when invoked:
// the action form of the invocation resource of the same name.
type pushTestNotificationAction struct {
	kit.ActionBase
}

type pushTestNotificationActionModel struct {
	Token     types.String `tfsdk:"token"`
	DeviceID  types.Int64  `tfsdk:"device_id"`
	Encrypted types.Bool   `tfsdk:"encrypted"`
}

// asResource is the action's configuration in the resource's model, whose
// helpers choose the endpoint and build the request.
func (m pushTestNotificationActionModel) asResource() pushTestNotificationResourceModel {
	return pushTestNotificationResourceModel{Token: m.Token, DeviceID: m.DeviceID, Encrypted: m.Encrypted}
}

// Schema describes the action.
func (a *pushTestNotificationAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Sends a test push notification to the provider's account's mobile devices each time it is " +
			"invoked (`terraform apply -invoke=action.zulip_push_test_notification.<name>`, or an `action_trigger`): to the " +
			"device of a legacy `token` (`POST /mobile_push/test_notification`, feature level 217), to the end-to-end " +
			"encrypted device `device_id` (`POST /mobile_push/e2ee/test_notification`, feature level 420), or to every " +
			"device of one kind (`encrypted`). Failures say what to do. Needs Terraform 1.14 or newer; before, the resource " +
			"`zulip_push_test_notification` does the same once.",
		Attributes: map[string]schema.Attribute{
			"token": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The legacy push token (APNs or FCM) of the device to notify. Conflicts with `device_id`. " +
					"Actions' arguments cannot be marked sensitive by the provider: pass a `sensitive()` or variable value to keep it out of the output.",
				Validators: []validator.String{validators.String("a push token of 1 to 4096 characters", checkPushToken)}},
			"device_id": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "The id of the end-to-end encrypted push device to notify. Conflicts with `token`.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)}},
			"encrypted": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "With neither `token` nor `device_id`: `true` notifies every end-to-end encrypted device, " +
					"`false` (the default) every legacy device."},
		},
	}
}

// ValidateConfig refuses a device named twice or an encrypted setting that
// contradicts it, as the resource does.
func (a *pushTestNotificationAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var m pushTestNotificationActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !m.Token.IsNull() && !m.DeviceID.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("device_id"), "Conflicting Devices", "Name the device by token or by device_id, not both.")
	}
	checkPushEncryption(m.asResource(), &resp.Diagnostics)
}

// ModifyPlan refuses a server too old for the endpoint.
func (a *pushTestNotificationAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var m pushTestNotificationActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || a.Data == nil || m.Token.IsUnknown() || m.DeviceID.IsUnknown() || m.Encrypted.IsUnknown() {
		return
	}
	checkPushLevel(a.Data, m.asResource(), &resp.Diagnostics)
}

// Invoke sends the notification.
func (a *pushTestNotificationAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m pushTestNotificationActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !a.Data.Ready(&resp.Diagnostics) {
		return
	}
	rm := m.asResource()
	endpoint := pushTestNotificationEndpoint(rm)
	resp.SendProgress(action.InvokeProgressEvent{Message: "Sending a test push notification through POST /" + endpoint})
	var err error
	if endpoint == pushEndpointE2EE {
		err = a.Data.Client.SendE2EETestNotification(ctx, pushTestNotificationToAPI(rm, a.Data.FeatureLevel))
	} else {
		err = a.Data.Client.SendTestNotification(ctx, m.Token.ValueString())
	}
	if err != nil {
		addPushTestNotificationError(&resp.Diagnostics, err)
		return
	}
	tflog.Info(ctx, "sent a test push notification", map[string]any{"endpoint": endpoint})
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Test push notification sent (%s)", endpoint)})
}
