package messages

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
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ action.ActionWithModifyPlan     = (*messageReportAction)(nil)
	_ action.ActionWithValidateConfig = (*messageReportAction)(nil)
)

// NewMessageReportAction returns the zulip_message_report action.
func NewMessageReportAction() action.Action {
	return &messageReportAction{ActionBase: kit.ActionBase{Name: "message_report"}}
}

// messageReportAction reports a message to the moderators when invoked: the
// action form of the invocation resource zulip_message_report, which stays
// for Terraform before 1.14.
type messageReportAction struct {
	kit.ActionBase
}

type messageReportActionModel struct {
	MessageID   types.Int64  `tfsdk:"message_id"`
	ReportType  types.String `tfsdk:"report_type"`
	Description types.String `tfsdk:"description"`
}

// Schema describes the action.
func (a *messageReportAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reports a message to the organization's moderators, as the provider's account " +
			"(`POST /messages/{message_id}/report`, Zulip feature level 382), each time it is invoked: by " +
			"`terraform apply -invoke=action.zulip_message_report.<name>` or by an `action_trigger`. Zulip posts the " +
			"report to the moderation request channel; an organization without one, and a report type the server does " +
			"not accept, fail the plan. Nothing is kept in state. Needs Terraform 1.14 or newer; before, the resource " +
			"`zulip_message_report` does the same once.",
		Attributes: map[string]schema.Attribute{
			"message_id": schema.Int64Attribute{Required: true, MarkdownDescription: "The id of the message to report.",
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"report_type": schema.StringAttribute{Required: true,
				MarkdownDescription: "Why: one of the server's `server_report_message_types` (by default `spam`, `harassment`, " +
					"`inappropriate`, `norms`, `other`)."},
			"description": schema.StringAttribute{Optional: true,
				MarkdownDescription: "An explanation for the moderators, at most 1000 characters; required for `other`.",
				Validators:          []validator.String{validators.String("1 to 1000 characters", checkReportDescription)}},
		},
	}
}

// ValidateConfig requires a description for the type "other", as Zulip does.
func (a *messageReportAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var m messageReportActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if kit.Known(m.ReportType) && m.ReportType.ValueString() == zulip.ReportTypeOther && m.Description.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("description"), "Missing Report Description",
			"A report of type \"other\" needs a description: Zulip requires an explanation for it.")
	}
}

// ModifyPlan checks the report against the server, as the resource does.
func (a *messageReportAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.Data == nil || !a.Data.KnowsServer() || !a.Data.HasCreds {
		return
	}
	if err := a.Data.RequireFeatureLevel(featureMessageReport, "zulip_message_report"); err != nil {
		resp.Diagnostics.AddError("Zulip Server Too Old", err.Error())
		return
	}
	var m messageReportActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if !resp.Diagnostics.HasError() {
		checkMessageReport(ctx, a.Data, m.ReportType, &resp.Diagnostics)
	}
}

// Invoke posts the report, saying so as it goes.
func (a *messageReportAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m messageReportActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !a.Data.Ready(&resp.Diagnostics) {
		return
	}
	id := m.MessageID.ValueInt64()
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Reporting message %d as %s", id, m.ReportType.ValueString())})
	apiReq := zulip.ReportMessageRequest{ReportType: m.ReportType.ValueString(), Description: m.Description.ValueString()}
	if err := a.Data.Client.ReportMessage(ctx, id, apiReq); err != nil {
		addMessageReportError(&resp.Diagnostics, err)
		return
	}
	tflog.Info(ctx, "reported a message", map[string]any{"message_id": id, "report_type": apiReq.ReportType})
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Message %d reported to the moderators", id)})
}
