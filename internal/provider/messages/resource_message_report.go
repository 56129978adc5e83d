package messages

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithValidateConfig = (*messageReportResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*messageReportResource)(nil)
)

// Feature levels of message reports (digest §9.3, §10).
const (
	featureMessageReport      = 382 // POST /messages/{id}/report
	featureServerReportTypes  = 435 // server_report_message_types in register
	maxReportDescriptionRunes = 1000
)

// messageReportLegacyTypes are the report types of servers before
// server_report_message_types (FL382–434).
var messageReportLegacyTypes = []string{
	zulip.ReportTypeSpam, zulip.ReportTypeHarassment, zulip.ReportTypeInappropriate,
	zulip.ReportTypeNorms, zulip.ReportTypeOther,
}

// NewMessageReportResource returns the zulip_message_report resource.
func NewMessageReportResource() resource.Resource {
	return &messageReportResource{InvocationBase: kit.InvocationBase{ResourceBase: kit.ResourceBase{Name: "message_report"}}}
}

// messageReportResource reports a message to the moderators (an invocation;
// destroying it only forgets: a posted report cannot be withdrawn through the
// API).
type messageReportResource struct {
	kit.InvocationBase
}

// messageReportResourceModel is the zulip_message_report state.
type messageReportResourceModel struct {
	ID                         types.String `tfsdk:"id"`
	MessageID                  types.Int64  `tfsdk:"message_id"`
	ReportType                 types.String `tfsdk:"report_type"`
	Description                types.String `tfsdk:"description"`
	Triggers                   types.Map    `tfsdk:"triggers"`
	ModerationRequestChannelID types.Int64  `tfsdk:"moderation_request_channel_id"`
	PerformedAt                types.String `tfsdk:"performed_at"`
}

// messageReportRealm is what the server says about reporting.
type messageReportRealm struct {
	// types are the valid report_type keys; nil when the server is older than
	// server_report_message_types.
	types []string
	// channelID is realm_moderation_request_channel_id (-1: reporting
	// disabled); nil when the server did not say.
	channelID *int64
}

// Schema describes the resource.
func (r *messageReportResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: kit.InvocationDescription(
			"Reports a message to the organization's moderators, as the account the provider is configured with "+
				"(`POST /messages/{message_id}/report`, Zulip feature level 382). Zulip posts the report to the "+
				"organization's moderation request channel; an organization without one (reporting disabled) "+
				"refuses reports, which the provider detects at plan time.",
			"the report stays posted in the moderation request channel"),
		Attributes: map[string]schema.Attribute{
			"id":           kit.InvocationIDAttribute(),
			"performed_at": kit.InvocationPerformedAtAttribute(),
			"message_id": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: "The id of the message to report; the account must be able to access it.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.RequiresReplace()},
			},
			"report_type": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Why the message is reported: one of the keys of the server's " +
					"`server_report_message_types` (by default `spam`, `harassment`, `inappropriate`, `norms`, " +
					"`other`; before feature level 435 exactly those). Checked against the server at plan time.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"description": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "An explanation for the moderators, at most 1000 characters (Unicode code " +
					"points). Required when `report_type` is `other`.",
				Validators:    []validator.String{validators.String("1 to 1000 characters", checkReportDescription)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"triggers": kit.InvocationTriggersAttribute(),
			"moderation_request_channel_id": schema.Int64Attribute{
				Computed: true,
				MarkdownDescription: "The id of the channel the report was posted to (the organization's moderation " +
					"request channel), when the server said which it is.",
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
		},
	}
}

// ValidateConfig requires a description for the type "other", as Zulip does.
func (r *messageReportResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m messageReportResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if kit.Known(m.ReportType) && m.ReportType.ValueString() == zulip.ReportTypeOther && m.Description.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("description"), "Missing Report Description",
			"A report of type \"other\" needs a description: Zulip requires an explanation for it.")
	}
}

// ModifyPlan checks a new report against the server: its feature level,
// whether reporting is enabled, and the report types it accepts.
func (r *messageReportResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	// A performed report is never checked again; a replacement is planned with
	// a null prior state, so it is checked here like a new one.
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || !r.Data.KnowsServer() || !r.Data.HasCreds {
		return
	}
	var plan messageReportResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if channelID := checkMessageReport(ctx, r.Data, plan.ReportType, &resp.Diagnostics); channelID != nil {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("moderation_request_channel_id"), *channelID)...)
	}
}

// checkMessageReport refuses at plan what the server would refuse of a
// report: an organization with reporting disabled, and a report type the
// server does not accept. It returns the moderation request channel, when
// the server says which it is.
func checkMessageReport(ctx context.Context, d *kit.ProviderData, reportType types.String, diags *diag.Diagnostics) *int64 {
	realm, err := readMessageReportRealm(ctx, d)
	if err != nil {
		// Not worth failing the plan over: the server checks the same at apply.
		tflog.Warn(ctx, "could not read the organization's report settings; they are checked at apply", map[string]any{"error": err.Error()})
		return nil
	}
	if realm.channelID != nil && *realm.channelID == -1 {
		diags.AddError("Message Reporting Is Disabled",
			"This organization has no moderation request channel (realm_moderation_request_channel_id is -1), "+
				"so Zulip refuses message reports (\"Message reporting is not enabled in this organization.\"). "+
				"An organization administrator must choose a moderation request channel in the organization's "+
				"moderation settings first.")
		return nil
	}
	if kit.Known(reportType) {
		allowed := realm.types
		if allowed == nil {
			allowed = messageReportLegacyTypes
		}
		if !slices.Contains(allowed, reportType.ValueString()) {
			diags.AddAttributeError(path.Root("report_type"), "Unknown Report Type",
				fmt.Sprintf("The server does not accept the report type %q; it accepts %s.",
					reportType.ValueString(), reportTypeList(allowed)))
		}
	}
	return realm.channelID
}

// Create posts the report.
func (r *messageReportResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[messageReportResourceModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	messageID, apiReq := messageReportToAPI(plan)
	if err := r.Data.Client.ReportMessage(ctx, messageID, apiReq); err != nil {
		addMessageReportError(&resp.Diagnostics, err)
		return
	}
	channelID := plan.ModerationRequestChannelID
	if channelID.IsUnknown() {
		// The plan could not learn the channel; the report went there anyway.
		channelID = types.Int64Null()
		if realm, err := readMessageReportRealm(ctx, r.Data); err == nil && realm.channelID != nil && *realm.channelID != -1 {
			channelID = types.Int64Value(*realm.channelID)
		}
	}
	messageReportFromAPI(channelID, &plan)
	tflog.Info(ctx, "reported a message", map[string]any{"message_id": messageID, "report_type": apiReq.ReportType})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// messageReportRealm derives the report types and the moderation request
// channel from the organization settings.
func readMessageReportRealm(ctx context.Context, d *kit.ProviderData) (messageReportRealm, error) {
	resp, err := d.RealmSettings(ctx)
	if err != nil {
		return messageReportRealm{}, err
	}
	realm := messageReportRealm{channelID: resp.RealmModerationRequestChannelID}
	if resp.ZulipFeatureLevel >= featureServerReportTypes {
		for _, t := range resp.ServerReportMessageTypes {
			realm.types = append(realm.types, t.Key)
		}
	}
	return realm, nil
}

// addMessageReportError reports a refused report, on the attribute at fault
// where the server's answer tells which. Zulip answers all of these with
// BAD_REQUEST, so the message is what distinguishes them.
func addMessageReportError(diags *diag.Diagnostics, err error) {
	const summary = "Unable to Report Message"
	apiErr, _ := zulip.AsAPIError(err)
	msg := ""
	if apiErr != nil && apiErr.Code == zulip.CodeBadRequest {
		msg = apiErr.Msg
	}
	switch {
	case strings.Contains(msg, "reporting is not enabled"):
		diags.AddError(summary, fmt.Sprintf("The organization has no moderation request channel, so it accepts no "+
			"reports. An organization administrator must choose a moderation request channel in the organization's "+
			"moderation settings first. Server said: %s", err))
	case zulip.IsNotFound(err):
		diags.AddAttributeError(path.Root("message_id"), summary, fmt.Sprintf("The message does not exist or the "+
			"provider's account cannot access it. Server said: %s", err))
	case strings.HasPrefix(msg, "Invalid report_type"):
		diags.AddAttributeError(path.Root("report_type"), summary, fmt.Sprintf("The server does not accept this "+
			"report type. Server said: %s", err))
	case strings.Contains(msg, "explanation is required"), strings.HasPrefix(msg, "description"):
		diags.AddAttributeError(path.Root("description"), summary, fmt.Sprintf("The server refused the description. "+
			"Server said: %s", err))
	default:
		kit.AddAPIError(diags, summary, "report the message", kit.RoleAny, err)
	}
}

// messageReportToAPI builds the report request.
func messageReportToAPI(m messageReportResourceModel) (int64, zulip.ReportMessageRequest) {
	return m.MessageID.ValueInt64(), zulip.ReportMessageRequest{
		ReportType:  m.ReportType.ValueString(),
		Description: m.Description.ValueString(),
	}
}

// messageReportFromAPI records a posted report (the server answers nothing
// but success).
func messageReportFromAPI(channelID types.Int64, m *messageReportResourceModel) {
	m.ID = types.StringValue(kit.NewInvocationID())
	m.ModerationRequestChannelID = channelID
	m.PerformedAt = kit.InvocationNow()
}

// checkReportDescription is Zulip's limit on report explanations, counted
// in code points as Zulip counts them.
func checkReportDescription(s string) error {
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return errors.New("must not be empty (leave it out instead)")
	case n > maxReportDescriptionRunes:
		return fmt.Errorf("is %d characters long; Zulip accepts at most %d", n, maxReportDescriptionRunes)
	}
	return nil
}

// reportTypeList formats values as "a", "b" or "c".
func reportTypeList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = fmt.Sprintf("%q", v)
	}
	if len(quoted) <= 1 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}
