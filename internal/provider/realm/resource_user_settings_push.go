package realm

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

var (
	_ resource.ResourceWithValidateConfig = (*userSettingsPushResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*userSettingsPushResource)(nil)
)

// NewUserSettingsPushResource returns the zulip_user_settings_push resource.
func NewUserSettingsPushResource() resource.Resource {
	return &userSettingsPushResource{InvocationBase: kit.InvocationBase{ResourceBase: kit.ResourceBase{Name: "user_settings_push"}}}
}

// userSettingsPushResource applies personal settings to existing users (an
// invocation, the resource form of zulip_apply_user_settings for Terraform
// before 1.14 and OpenTofu; destroying it only forgets: the users keep the
// settings).
type userSettingsPushResource struct {
	kit.InvocationBase
}

// userSettingsPushModel is the zulip_user_settings_push state.
type userSettingsPushModel struct {
	userSettingsArgs
	ID          types.String `tfsdk:"id"`
	Triggers    types.Map    `tfsdk:"triggers"`
	PerformedAt types.String `tfsdk:"performed_at"`
}

// Schema describes the resource.
func (r *userSettingsPushResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: kit.InvocationDescription(userSettingsAbout+" The action `zulip_apply_user_settings` "+
			"does the same on Terraform 1.14 and newer.", "the users keep the settings applied"),
		Attributes: map[string]schema.Attribute{
			"id":           kit.InvocationIDAttribute(),
			"performed_at": kit.InvocationPerformedAtAttribute(),
			"triggers":     kit.InvocationTriggersAttribute(),
			"settings": schema.SingleNestedAttribute{Required: true, MarkdownDescription: userSettingsSettingsDesc,
				Attributes:    userSettingsAttributes(),
				PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplace()}},
			"users": schema.SetAttribute{Optional: true, ElementType: types.Int64Type, MarkdownDescription: userSettingsUsersDesc,
				Validators:    []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueInt64sAre(int64validator.AtLeast(1))},
				PlanModifiers: kit.RequiresReplaceSet()},
			"group": schema.Int64Attribute{Optional: true, MarkdownDescription: userSettingsGroupDesc,
				Validators:    []validator.Int64{int64validator.AtLeast(1)},
				PlanModifiers: kit.RequiresReplaceInt64()},
			"skip_if_already_edited": schema.BoolAttribute{Optional: true, MarkdownDescription: userSettingsSkipDesc,
				PlanModifiers: kit.RequiresReplaceBool()},
		},
	}
}

// ValidateConfig checks the arguments, as the action does.
func (r *userSettingsPushResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m userSettingsPushModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if !resp.Diagnostics.HasError() {
		validateUserSettingsArgs(m.userSettingsArgs, &resp.Diagnostics)
	}
}

// ModifyPlan checks a new push against the server (the kit checks the
// type's feature level and role from its registry entry).
func (r *userSettingsPushResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || !r.Data.CanAsk() {
		return
	}
	var plan userSettingsPushModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !resp.Diagnostics.HasError() {
		checkUserSettingsPlan(ctx, r.Data, plan.userSettingsArgs, false, &resp.Diagnostics)
	}
}

// Create applies the settings.
func (r *userSettingsPushResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[userSettingsPushModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	applyUserSettings(ctx, r.Data, plan.userSettingsArgs, func(msg string) { tflog.Info(ctx, msg) }, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.ID = types.StringValue(kit.NewInvocationID())
	plan.PerformedAt = kit.InvocationNow()
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}
