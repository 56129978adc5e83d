package operations

import (
	"context"
	"fmt"
	"strings"

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

// ownAccountDeactivation deactivates the provider's own account: the action
// zulip_own_account_deactivation, and the invocation resource of the same
// name (destroying it only forgets: the account stays deactivated).
var ownAccountDeactivation = &kit.Operation[ownAccountDeactivationArgs]{
	Action: "own_account_deactivation", Resource: "own_account_deactivation",
	ActionDescription: "**Deactivates the account whose credentials the provider uses** (`DELETE /users/me`) when " +
		"invoked (`terraform apply -invoke=action.zulip_own_account_deactivation.<name>`, or an `action_trigger`). " +
		"**Irreversible through this provider**: the account's key stops working, and only an administrator can " +
		"reactivate it. Use a provider alias dedicated to it. `confirm_email` must name the account, checked at plan " +
		"and again just before. Needs Terraform 1.14 or newer; before, the resource `zulip_own_account_deactivation` " +
		"does the same once.",
	ResourceDescription: "**Deactivates the account whose credentials the provider uses** (`DELETE /users/me`). " +
		"**This is irreversible through this provider**: once the account is deactivated its API key stops " +
		"working, so the provider can neither undo it nor do anything else as that account; only an " +
		"organization administrator can reactivate it (for example with `zulip_user` and another provider " +
		"configuration). Use a provider alias dedicated to this resource, since every other resource using " +
		"the same provider fails after the deactivation.\n\n" +
		"As a safety catch, `confirm_email` must name the provider's own account: the plan fails otherwise. " +
		"Zulip refuses to deactivate the organization's only owner or only user (`CANNOT_DEACTIVATE_LAST_USER`).",
	Undo: "the account stays deactivated",
	Args: map[string]kit.OperationArg{
		"confirm_email": {Kind: kit.ArgString, Required: true,
			Description: "The e-mail address of the account the provider is configured with (its Zulip API " +
				"e-mail or its real address; compared without regard to case). Checked at plan time and again " +
				"just before the deactivation, so that a provider pointed at the wrong account deactivates nothing.",
			String: []validator.String{validators.String("an e-mail address", kit.CheckNoOuterSpace)}},
	},
	Outputs: map[string]kit.OperationOutput{
		"user_id": {Kind: kit.ArgInt64, Description: "The id of the account that was deactivated."},
	},
	CheckPlan: func(ctx context.Context, d *kit.ProviderData, m ownAccountDeactivationArgs, diags *diag.Diagnostics) map[string]attr.Value {
		if !d.CanAsk() || !kit.Known(m.ConfirmEmail) {
			return nil
		}
		me, ok := confirmedOwnAccount(ctx, d, m.ConfirmEmail.ValueString(), diags)
		if !ok {
			return nil
		}
		return map[string]attr.Value{"user_id": types.Int64Value(me.UserID)}
	},
	Perform: func(ctx context.Context, c kit.Call[ownAccountDeactivationArgs], diags *diag.Diagnostics) map[string]attr.Value {
		// Checked once more: the account could have changed since the plan.
		me, ok := confirmedOwnAccount(ctx, c.Data, c.Args.ConfirmEmail.ValueString(), diags)
		if !ok {
			return nil
		}
		c.Progress(ctx, "Deactivating the account %s (user id %d)", me.Email, me.UserID)
		if err := c.Data.Client.DeactivateOwnUser(ctx); err != nil {
			addOwnAccountDeactivationError(diags, err)
			return nil
		}
		tflog.Warn(ctx, "deactivated the provider's own account", map[string]any{"user_id": me.UserID})
		c.Progress(ctx, "Account %s deactivated", me.Email)
		return map[string]attr.Value{"user_id": types.Int64Value(me.UserID)}
	},
}

// ownAccountDeactivationArgs are the operation's arguments.
type ownAccountDeactivationArgs struct {
	ConfirmEmail types.String `tfsdk:"confirm_email"`
}

// confirmedOwnAccount reads the provider's account and checks that confirm
// names it, reporting on confirm_email when it does not.
func confirmedOwnAccount(ctx context.Context, d *kit.ProviderData, confirm string, diags *diag.Diagnostics) (*zulip.User, bool) {
	me, err := d.Client.GetOwnUser(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read the Provider's Account", "read its own account to check confirm_email", kit.RoleAny, err)
		return nil, false
	}
	emails := []string{me.Email}
	if me.DeliveryEmail != nil && *me.DeliveryEmail != "" {
		emails = append(emails, *me.DeliveryEmail)
	}
	for _, e := range emails {
		if strings.EqualFold(e, confirm) {
			return me, true
		}
	}
	diags.AddAttributeError(path.Root("confirm_email"), "Account Does Not Match confirm_email",
		fmt.Sprintf("The provider is configured with the account %s (user id %d), not %q, so nothing was deactivated. "+
			"Set confirm_email to the account you mean to deactivate, or configure the provider with that account's "+
			"credentials.", strings.Join(emails, " / "), me.UserID, confirm))
	return nil, false
}

// addOwnAccountDeactivationError explains CANNOT_DEACTIVATE_LAST_USER by
// which rule applied.
func addOwnAccountDeactivationError(diags *diag.Diagnostics, err error) {
	const summary = "Unable to Deactivate the Account"
	apiErr, _ := zulip.AsAPIError(err)
	switch {
	case zulip.IsCannotDeactivateLastUser(err) && apiErr != nil && apiErr.IsLastOwner():
		diags.AddError(summary, fmt.Sprintf("The account is the organization's only owner, and Zulip does not leave "+
			"an organization without an owner. Make another user an owner first (for example with zulip_user's "+
			"role = \"owner\"), then apply again. Server said: %s", err))
	case zulip.IsCannotDeactivateLastUser(err):
		diags.AddError(summary, fmt.Sprintf("The account is the organization's only active user, and Zulip does not "+
			"leave an organization without users. To close the organization, deactivate the organization itself "+
			"instead. Server said: %s", err))
	default:
		kit.AddAPIError(diags, summary, "deactivate its own account", kit.RoleAny, err)
	}
}
