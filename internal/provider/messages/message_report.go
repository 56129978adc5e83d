package messages

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

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

// messageReport reports a message to the moderators: the action
// zulip_message_report, and the invocation resource of the same name
// (destroying it only forgets: a posted report cannot be withdrawn through
// the API).
var messageReport = &kit.Operation[messageReportArgs]{
	Action: "message_report", Resource: "message_report", Level: featureMessageReport,
	ActionDescription: "Reports a message to the organization's moderators, as the provider's account " +
		"(`POST /messages/{message_id}/report`, Zulip feature level 382), each time it is invoked: by " +
		"`terraform apply -invoke=action.zulip_message_report.<name>` or by an `action_trigger`. Zulip posts the " +
		"report to the moderation request channel; an organization without one, and a report type the server does " +
		"not accept, fail the plan. Nothing is kept in state. Needs Terraform 1.14 or newer; before, the resource " +
		"`zulip_message_report` does the same once.",
	ResourceDescription: "Reports a message to the organization's moderators, as the account the provider is configured with " +
		"(`POST /messages/{message_id}/report`, Zulip feature level 382). Zulip posts the report to the " +
		"organization's moderation request channel; an organization without one (reporting disabled) " +
		"refuses reports, which the provider detects at plan time.",
	Undo: "the report stays posted in the moderation request channel",
	Args: map[string]kit.OperationArg{
		"message_id": {Kind: kit.ArgInt64, Required: true,
			Description: "The id of the message to report; the account must be able to access it.",
			Int64:       []validator.Int64{int64validator.AtLeast(1)}},
		"report_type": {Kind: kit.ArgString, Required: true,
			Description: "Why the message is reported: one of the keys of the server's " +
				"`server_report_message_types` (by default `spam`, `harassment`, `inappropriate`, `norms`, " +
				"`other`; before feature level 435 exactly those). Checked against the server at plan time."},
		"description": {Kind: kit.ArgString,
			Description: "An explanation for the moderators, at most 1000 characters (Unicode code " +
				"points). Required when `report_type` is `other`.",
			String: []validator.String{validators.String("1 to 1000 characters", checkReportDescription)}},
	},
	Outputs: map[string]kit.OperationOutput{
		"moderation_request_channel_id": {Kind: kit.ArgInt64,
			Description: "The id of the channel the report was posted to (the organization's moderation " +
				"request channel), when the server said which it is."},
	},
	Validate: func(_ context.Context, m messageReportArgs, diags *diag.Diagnostics) {
		if kit.Known(m.ReportType) && m.ReportType.ValueString() == zulip.ReportTypeOther && m.Description.IsNull() {
			diags.AddAttributeError(path.Root("description"), "Missing Report Description",
				"A report of type \"other\" needs a description: Zulip requires an explanation for it.")
		}
	},
	CheckPlan: func(ctx context.Context, d *kit.ProviderData, m messageReportArgs, diags *diag.Diagnostics) map[string]attr.Value {
		if !d.CanAsk() {
			return nil
		}
		if channelID := checkMessageReport(ctx, d, m.ReportType, diags); channelID != nil {
			return map[string]attr.Value{"moderation_request_channel_id": types.Int64Value(*channelID)}
		}
		return nil
	},
	Perform: func(ctx context.Context, c kit.Call[messageReportArgs], diags *diag.Diagnostics) map[string]attr.Value {
		id := c.Args.MessageID.ValueInt64()
		apiReq := zulip.ReportMessageRequest{ReportType: c.Args.ReportType.ValueString(), Description: c.Args.Description.ValueString()}
		c.Progress(ctx, "Reporting message %d as %s", id, apiReq.ReportType)
		if err := c.Data.Client.ReportMessage(ctx, id, apiReq); err != nil {
			addMessageReportError(diags, err)
			return nil
		}
		tflog.Info(ctx, "reported a message", map[string]any{"message_id": id, "report_type": apiReq.ReportType})
		c.Progress(ctx, "Message %d reported to the moderators", id)
		if !c.Recorded() || !c.Planned["moderation_request_channel_id"].IsUnknown() {
			return nil
		}
		// The plan could not learn the channel; the report went there anyway.
		if realm, err := readMessageReportRealm(ctx, c.Data); err == nil && realm.channelID != nil && *realm.channelID != -1 {
			return map[string]attr.Value{"moderation_request_channel_id": types.Int64Value(*realm.channelID)}
		}
		return nil
	},
}

// messageReportArgs are the operation's arguments.
type messageReportArgs struct {
	MessageID   types.Int64  `tfsdk:"message_id"`
	ReportType  types.String `tfsdk:"report_type"`
	Description types.String `tfsdk:"description"`
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
	msg := ""
	if zulip.ErrorCode(err) == zulip.CodeBadRequest {
		msg = zulip.ErrorMsg(err)
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
