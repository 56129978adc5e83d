package people

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ action.ActionWithModifyPlan = (*sendInvitationsAction)(nil)
)

// NewSendInvitationsAction returns the zulip_send_invitations action.
func NewSendInvitationsAction() action.Action {
	return &sendInvitationsAction{ActionBase: kit.ActionBase{Name: "send_invitations"}}
}

// sendInvitationsAction sends e-mail invitations each time it is invoked.
type sendInvitationsAction struct {
	kit.ActionBase
}

type sendInvitationsModel struct {
	inviteArgs
	Emails         types.List `tfsdk:"emails"`
	NotifyReferrer types.Bool `tfsdk:"notify_referrer_on_join"`
}

// Schema describes the action.
func (a *sendInvitationsAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Sends e-mail invitations to join the organization (`POST /invites`) each time it is invoked " +
			"(`terraform apply -invoke=action.zulip_send_invitations.<name>`, or an `action_trigger`). Needs the " +
			"organization's `can_invite_users_group` permission (members by default; Zulip may also refuse accounts " +
			"younger than three days); inviting administrators or moderators needs an administrator, owners an owner. " +
			"An address that already has an account is skipped with a warning while the others are invited; an address " +
			"Zulip does not accept fails the whole action, and nobody is invited. The invitations are listed by the " +
			"data source `zulip_invitations` and can be revoked in Zulip. Needs Terraform 1.14 or newer.",
		Attributes: map[string]schema.Attribute{
			"emails": schema.ListAttribute{ElementType: types.StringType, Required: true,
				MarkdownDescription: "The addresses to invite (bare addresses, at least one).",
				Validators: []validator.List{listvalidator.SizeAtLeast(1),
					listvalidator.ValueStringsAre(validators.String("an e-mail address", validators.CheckEmail))}},
			"role": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The role the invited users get: one of " + kit.QuoteAllCode(zulip.RoleNames()) + ". Default `member`.",
				Validators:          []validator.String{stringvalidator.OneOf(zulip.RoleNames()...)}},
			"channel_ids": schema.SetAttribute{ElementType: types.Int64Type, Optional: true,
				MarkdownDescription: "The ids of the channels the invited users are subscribed to. Each must be a default " +
					"channel or one the provider's account may subscribe others to. Default none."},
			"group_ids": schema.SetAttribute{ElementType: types.Int64Type, Optional: true,
				MarkdownDescription: "The ids of the user groups the invited users join (not system groups). Needs feature level 322."},
			"expires_in_minutes": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "How long the invitations work, in minutes; null (the default): they never expire.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)}},
			"include_realm_default_subscriptions": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Whether the invited users also join the default channels. Needs feature level 261."},
			"welcome_message_custom_text": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Welcome Bot's message to the invited users (Zulip Markdown, at most 8000 characters; " +
					"empty sends none; null: the organization's). Zulip keeps it only from administrators. Needs feature level 416.",
				Validators: []validator.String{stringvalidator.LengthAtMost(zulip.InviteWelcomeTextMaxLength)}},
			"notify_referrer_on_join": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Whether the provider's account gets a direct message when an invited user joins " +
					"(Zulip's default: true). Needs feature level 267."},
		},
	}
}

// ModifyPlan checks what the resource zulip_invite_link checks, with the
// permission to invite by e-mail.
func (a *sendInvitationsAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.Data == nil || !a.Data.CanAsk() {
		return
	}
	var m sendInvitationsModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if !checkSendLevels(a.Data, m, &resp.Diagnostics) {
		return
	}
	kit.RequirePermission(ctx, a.Data, "Sending invitations", path.Empty(), &resp.Diagnostics,
		kit.RealmPermission(ctx, a.Data, "can_invite_users_group"))
	checkInvitation(ctx, a.Data, m.inviteArgs, &resp.Diagnostics)
}

// checkSendLevels refuses an argument the server is too old for.
func checkSendLevels(d *kit.ProviderData, m sendInvitationsModel, diags *diag.Diagnostics) bool {
	set := map[string]bool{
		"group_ids":                           !m.GroupIDs.IsNull(),
		"include_realm_default_subscriptions": m.IncludeDefaults.ValueBool(),
		"welcome_message_custom_text":         !m.WelcomeMessageText.IsNull(),
		"notify_referrer_on_join":             !m.NotifyReferrer.IsNull(),
	}
	levels := maps.Clone(inviteAttrLevels)
	levels["notify_referrer_on_join"] = zulip.InviteNotifyFeatureLevel
	for attr, level := range levels {
		if err := d.RequireFeatureLevel(level, attr); set[attr] && err != nil {
			diags.AddAttributeError(path.Root(attr), "Zulip Server Too Old", err.Error())
		}
	}
	return !diags.HasError()
}

// Invoke sends the invitations.
func (a *sendInvitationsAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m sendInvitationsModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() || !a.Data.Ready(&resp.Diagnostics) {
		return
	}
	var emails []string
	if resp.Diagnostics.Append(m.Emails.ElementsAs(ctx, &emails, false)...); resp.Diagnostics.HasError() {
		return
	}
	r := zulip.SendInvitationsRequest{Emails: emails, NotifyReferrerOnJoin: m.NotifyReferrer.ValueBoolPointer(),
		InviteOptions: m.options()}
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Sending invitations to %d addresses", len(emails))})
	err := inviteLinks(a.Data).Write(ctx, func(ctx context.Context) error { return a.Data.Client.SendInvitations(ctx, r) })
	skipped, sent := invitationFailures(err)
	switch {
	case err != nil && !sent:
		kit.AddAPIError(&resp.Diagnostics, "Unable to Send Invitations", "send the invitations"+skippedText(skipped), kit.RoleAny, err)
		return
	case err != nil:
		resp.Diagnostics.AddWarning("Some Addresses Were Not Invited",
			fmt.Sprintf("Zulip invited the others but skipped %s.", strings.Join(skipped, "; ")))
	}
	n := len(emails) - len(skipped)
	tflog.Info(ctx, "sent invitations", map[string]any{"sent": n, "skipped": len(skipped)})
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Sent %d invitations (%d skipped)", n, len(skipped))})
}

// invitationFailures reads Zulip's INVITATION_FAILED answer: each address
// refused with why, and whether the others were invited.
func invitationFailures(err error) (failed []string, sent bool) {
	var apiErr *zulip.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != "INVITATION_FAILED" {
		return nil, false
	}
	sent, _ = apiErr.Extra["sent_invitations"].(bool)
	list, _ := apiErr.Extra["errors"].([]any)
	for _, e := range list {
		if parts, ok := e.([]any); ok && len(parts) >= 2 {
			failed = append(failed, fmt.Sprintf("%v (%v)", parts[0], parts[1]))
		}
	}
	return failed, sent
}

// skippedText lists the refused addresses for an error message.
func skippedText(failed []string) string {
	if len(failed) == 0 {
		return ""
	}
	return " (refused: " + strings.Join(failed, "; ") + ")"
}
