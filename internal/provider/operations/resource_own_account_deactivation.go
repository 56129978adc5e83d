package operations

import (
	"context"
	"fmt"
	"strings"

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
	_ resource.ResourceWithModifyPlan = (*ownAccountDeactivationResource)(nil)
)

// NewOwnAccountDeactivationResource returns the zulip_own_account_deactivation resource.
func NewOwnAccountDeactivationResource() resource.Resource {
	return &ownAccountDeactivationResource{InvocationBase: kit.InvocationBase{ResourceBase: kit.ResourceBase{Name: "own_account_deactivation"}}}
}

// ownAccountDeactivationResource deactivates the provider's own account (an
// invocation; destroying it only forgets: the account stays deactivated).
type ownAccountDeactivationResource struct {
	kit.InvocationBase
}

// ownAccountDeactivationResourceModel is the zulip_own_account_deactivation state.
type ownAccountDeactivationResourceModel struct {
	ID           types.String `tfsdk:"id"`
	ConfirmEmail types.String `tfsdk:"confirm_email"`
	Triggers     types.Map    `tfsdk:"triggers"`
	UserID       types.Int64  `tfsdk:"user_id"`
	PerformedAt  types.String `tfsdk:"performed_at"`
}

// Schema describes the resource.
func (r *ownAccountDeactivationResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: kit.InvocationDescription(
			"**Deactivates the account whose credentials the provider uses** (`DELETE /users/me`). "+
				"**This is irreversible through this provider**: once the account is deactivated its API key stops "+
				"working, so the provider can neither undo it nor do anything else as that account; only an "+
				"organization administrator can reactivate it (for example with `zulip_user` and another provider "+
				"configuration). Use a provider alias dedicated to this resource, since every other resource using "+
				"the same provider fails after the deactivation.\n\n"+
				"As a safety catch, `confirm_email` must name the provider's own account: the plan fails otherwise. "+
				"Zulip refuses to deactivate the organization's only owner or only user (`CANNOT_DEACTIVATE_LAST_USER`).",
			"the account stays deactivated"),
		Attributes: map[string]schema.Attribute{
			"id":           kit.InvocationIDAttribute(),
			"performed_at": kit.InvocationPerformedAtAttribute(),
			"confirm_email": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The e-mail address of the account the provider is configured with (its Zulip API " +
					"e-mail or its real address; compared without regard to case). Checked at plan time and again " +
					"just before the deactivation, so that a provider pointed at the wrong account deactivates nothing.",
				Validators:    []validator.String{validators.String("an e-mail address", kit.CheckNoOuterSpace)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"triggers": kit.InvocationTriggersAttribute(),
			"user_id": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "The id of the account that was deactivated.",
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
		},
	}
}

// ModifyPlan checks confirm_email against the provider's account and shows
// which account would be deactivated.
func (r *ownAccountDeactivationResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	// A performed deactivation is never checked again (the account's key no
	// longer works); a replacement is planned with a null prior state.
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || !r.Data.KnowsServer() || !r.Data.HasCreds {
		return
	}
	var plan ownAccountDeactivationResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !kit.Known(plan.ConfirmEmail) {
		return
	}
	me, ok := confirmedOwnAccount(ctx, r.Data, plan.ConfirmEmail.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("user_id"), me.UserID)...)
}

// Create deactivates the account, after checking once more that it is the
// one confirm_email names.
func (r *ownAccountDeactivationResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[ownAccountDeactivationResourceModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	me, ok := confirmedOwnAccount(ctx, r.Data, plan.ConfirmEmail.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	if err := r.Data.Client.DeactivateOwnUser(ctx); err != nil {
		addOwnAccountDeactivationError(&resp.Diagnostics, err)
		return
	}
	tflog.Warn(ctx, "deactivated the provider's own account", map[string]any{"user_id": me.UserID})
	ownAccountDeactivationFromAPI(me, &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
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

// ownAccountDeactivationFromAPI records a deactivation.
func ownAccountDeactivationFromAPI(me *zulip.User, m *ownAccountDeactivationResourceModel) {
	m.ID = types.StringValue(kit.NewInvocationID())
	m.UserID = types.Int64Value(me.UserID)
	m.PerformedAt = kit.InvocationNow()
}
