package operations

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
)

var (
	_ action.ActionWithModifyPlan = (*ownAccountDeactivationAction)(nil)
)

// NewOwnAccountDeactivationAction returns the zulip_own_account_deactivation action.
func NewOwnAccountDeactivationAction() action.Action {
	return &ownAccountDeactivationAction{ActionBase: kit.ActionBase{Name: "own_account_deactivation"}}
}

// ownAccountDeactivationAction deactivates the provider's own account when
// invoked: the action form of the invocation resource of the same name.
type ownAccountDeactivationAction struct {
	kit.ActionBase
}

type ownAccountDeactivationActionModel struct {
	ConfirmEmail types.String `tfsdk:"confirm_email"`
}

// Schema describes the action.
func (a *ownAccountDeactivationAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "**Deactivates the account whose credentials the provider uses** (`DELETE /users/me`) when " +
			"invoked (`terraform apply -invoke=action.zulip_own_account_deactivation.<name>`, or an `action_trigger`). " +
			"**Irreversible through this provider**: the account's key stops working, and only an administrator can " +
			"reactivate it. Use a provider alias dedicated to it. `confirm_email` must name the account, checked at plan " +
			"and again just before. Needs Terraform 1.14 or newer; before, the resource `zulip_own_account_deactivation` " +
			"does the same once.",
		Attributes: map[string]schema.Attribute{
			"confirm_email": schema.StringAttribute{Required: true,
				MarkdownDescription: "The e-mail address of the provider's account (its API e-mail or its real address; " +
					"compared without regard to case), so that a provider pointed at the wrong account deactivates nothing.",
				Validators: []validator.String{validators.String("an e-mail address", kit.CheckNoOuterSpace)}},
		},
	}
}

// ModifyPlan checks confirm_email against the provider's account.
func (a *ownAccountDeactivationAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.Data == nil || !a.Data.KnowsServer() || !a.Data.HasCreds {
		return
	}
	var m ownAccountDeactivationActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if !resp.Diagnostics.HasError() && kit.Known(m.ConfirmEmail) {
		confirmedOwnAccount(ctx, a.Data, m.ConfirmEmail.ValueString(), &resp.Diagnostics)
	}
}

// Invoke deactivates the account after checking it once more.
func (a *ownAccountDeactivationAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m ownAccountDeactivationActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !a.Data.Ready(&resp.Diagnostics) {
		return
	}
	me, ok := confirmedOwnAccount(ctx, a.Data, m.ConfirmEmail.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Deactivating the account %s (user id %d)", me.Email, me.UserID)})
	if err := a.Data.Client.DeactivateOwnUser(ctx); err != nil {
		addOwnAccountDeactivationError(&resp.Diagnostics, err)
		return
	}
	tflog.Warn(ctx, "deactivated the provider's own account", map[string]any{"user_id": me.UserID})
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Account %s deactivated", me.Email)})
}
