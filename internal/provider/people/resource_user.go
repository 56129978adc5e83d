package people

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
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
	_ resource.ResourceWithImportState    = (*userResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*userResource)(nil)
	_ resource.ResourceWithValidateConfig = (*userResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*userResource)(nil)
)

// Role names as configured.
const (
	userRoleOwner         = "owner"
	userRoleAdministrator = "administrator"
	userRoleMember        = "member"
	userRoleGuest         = "guest"
)

// NewUserResource returns the zulip_user resource.
func NewUserResource() resource.Resource {
	return &userResource{ResourceBase: kit.ResourceBase{Name: "user"}}
}

// userResource manages one user account of the organization.
type userResource struct {
	kit.ResourceBase
}

// userResourceModel is the zulip_user state.
type userResourceModel struct {
	ID             types.Int64  `tfsdk:"id"`
	Email          types.String `tfsdk:"email"`
	FullName       types.String `tfsdk:"full_name"`
	Password       types.String `tfsdk:"password"`
	Role           types.String `tfsdk:"role"`
	Active         types.Bool   `tfsdk:"active"`
	ProfileData    types.Map    `tfsdk:"profile_data"`
	AllowProtected types.Bool   `tfsdk:"allow_self_or_last_owner_change"`
}

// Schema describes the resource.
func (r *userResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A user account of the organization. Creating one needs an organization administrator " +
			"who also holds Zulip's `can_create_users` special permission; an existing account can be adopted " +
			"instead with `terraform import` (or an `import` block), by id or by e-mail address. Zulip never " +
			"deletes users: destroying this resource **deactivates** the account, and the address stays taken. " +
			"Creating a `zulip_user` whose address belongs to a deactivated account therefore **reactivates that " +
			"account** and applies the configuration to it (the plan says so in a warning naming the account), so " +
			"that apply, destroy and apply again works; an address that belongs to an active account fails the " +
			"plan with an `import` block to copy. The provider's own account and the organization's last active " +
			"owner are protected from deactivation and demotion: see `allow_self_or_last_owner_change`. Bots are " +
			"managed elsewhere in Zulip and are best left out of this resource. The state holds what the " +
			"configuration sets, and the id: what the server reports besides (the role flags, the API address, " +
			"the join date, the time zone, the avatar) is shown by the `zulip_user` data source, looked up by " +
			"`user_id`.",
		Attributes: userResourceAttributes(),
		// Version 1 left out what the server reports of an account but no
		// configuration sets (the role flags, the bot fields, the API and
		// delivery addresses, the join date, time zone, avatar and stub
		// flag): the zulip_user data source shows them.
		Version: 1,
	}
}

// UpgradeState reads a version 0 state, which held the server's reports too,
// without them.
func (r *userResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: kit.UpgradeDroppingAttributes()}
}

// userResourceAttributes are the resource's attributes, in three groups merged.
func userResourceAttributes() map[string]schema.Attribute {
	attributes := userIdentityAttributes()
	maps.Copy(attributes, userStandingAttributes())
	maps.Copy(attributes, userProfileDataAttributes())
	return attributes
}

// userIdentityAttributes say who the user is: the id, the e-mail address, the
// full name and the initial password.
func userIdentityAttributes() map[string]schema.Attribute {
	keepInt := []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
	return map[string]schema.Attribute{
		"id": schema.Int64Attribute{
			Computed: true,
			MarkdownDescription: "The user's id (`user_id`). Known at plan time when the plan reactivates a " +
				"deactivated account.",
			PlanModifiers: keepInt,
		},
		"email": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "The user's real (delivery) e-mail address, unique in the organization. Changing it " +
				"updates the account in place, which Zulip allows only to an organization administrator holding the " +
				"`can_change_user_emails` special permission (Zulip feature level 285). The plan fails for credentials " +
				"below administrator and for older servers; an administrator without the permission (which the API " +
				"does not show) gets the server's refusal, naming it. Compared case-insensitively, as Zulip does.",
			Validators: []validator.String{validators.Email()},
		},
		"full_name": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "The user's full name: 2 to 100 characters, without surrounding whitespace and " +
				"without any of `` * ` \\ > \" @ `` (Zulip's rules).",
			Validators: []validator.String{validators.FullName()},
		},
		"password": schema.StringAttribute{
			Optional:  true,
			Sensitive: true,
			WriteOnly: true,
			MarkdownDescription: "The initial password, needed to create a user (Zulip's API requires one). " +
				"**Write-only** (Terraform 1.11 or newer): it is sent once at creation and never stored in the " +
				"plan or state. It only seeds the new account: changing it later does nothing (Zulip has no API " +
				"to set another user's password) and does **not** replace the user; the user changes their " +
				"password in Zulip. Not needed when the user is imported, nor when the plan reactivates a " +
				"deactivated account (which keeps its own password).",
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
	}
}

// userStandingAttributes are the user's role and whether the account is active,
// and the switch that lets a plan demote or deactivate a protected account.
func userStandingAttributes() map[string]schema.Attribute {
	keepStr := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	return map[string]schema.Attribute{
		"role": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "The user's role: `owner`, `administrator`, `moderator`, `member` or `guest`. " +
				"When omitted the role is not managed (a new user is a `member`; an imported or reactivated " +
				"account keeps its role). Changes to or from `owner` need an organization owner's credentials, " +
				"other changes an administrator's (a guest may be made an administrator or owner in one step). Lowering the role of the provider's own account or of the last active " +
				"owner needs `allow_self_or_last_owner_change`.",
			Validators:    []validator.String{stringvalidator.OneOf(zulip.RoleNames()...)},
			PlanModifiers: keepStr,
		},
		"active": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(true),
			MarkdownDescription: "Whether the account is active. `false` deactivates it (the user is logged out " +
				"and cannot log in; their bots are deactivated too), `true` reactivates it. A user deactivated " +
				"outside Terraform shows as a change back to `true`. Default `true`. Deactivating the provider's " +
				"own account or the last active owner needs `allow_self_or_last_owner_change`.",
		},
		"allow_self_or_last_owner_change": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(false),
			MarkdownDescription: "Lets this resource deactivate or demote the provider's own account (whose " +
				"credentials the run uses) or the organization's last active owner. Unless it is `true`, a plan " +
				"that would deactivate such an account (`active = false`, or destroying the resource), or lower " +
				"its `role`, fails at plan time. (Replacing any active account fails too: Zulip cannot delete " +
				"users.) Destroying reads it from the state, so set it to `true` and apply before destroying; a " +
				"demotion may set it in the same change, for example when the same run makes another user an " +
				"owner first. To stop managing such an account without deactivating it, remove it from the state " +
				"instead (a `removed` block with `destroy = false`, or `terraform state rm`). It changes nothing " +
				"on the server. Default `false`.",
		},
	}
}

// userProfileDataAttributes hold the values of the organization's custom profile
// fields that the resource manages.
func userProfileDataAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"profile_data": schema.MapNestedAttribute{
			Optional: true,
			MarkdownDescription: "Values of the organization's custom profile fields, keyed by field id (as a " +
				"string: `\"1\"`; the ids are listed by `GET /api/v1/realm/profile_fields`). Only the fields named " +
				"here are managed: other values the user has are left alone, and a field removed from this map " +
				"has its value cleared. Each element sets exactly one of `value` (every field type except Users) " +
				"or `user_ids` (Users fields). The value's form follows the field type: text, a Dropdown option's " +
				"**key** (not its text), a `YYYY-MM-DD` date, a URL, or an account name. Checked against the " +
				"field definitions at plan time. To clear a value, remove its key. Importing adopts none of the " +
				"user's values: the first apply after an import sets the fields named here and leaves every other " +
				"value as it is (the plan shows the named fields as added).",
			Validators: []validator.Map{
				mapvalidator.KeysAre(stringvalidator.RegexMatches(regexp.MustCompile(`^[1-9][0-9]*$`),
					`must be a custom profile field id such as "1"`)),
			},
			NestedObject: schema.NestedAttributeObject{
				Attributes: map[string]schema.Attribute{
					"value": schema.StringAttribute{
						Optional: true,
						MarkdownDescription: "The value of a field of any type but Users: text (at most 50 " +
							"characters, 500 for a Paragraph), a Dropdown option key, a `YYYY-MM-DD` date, a URL, " +
							"an external account name or pronouns.",
						Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
					},
					"user_ids": schema.SetAttribute{
						ElementType: types.Int64Type,
						Optional:    true,
						MarkdownDescription: "The value of a Users field: ids of active, non-bot users of the " +
							"organization.",
						Validators: []validator.Set{
							setvalidator.SizeAtLeast(1),
							setvalidator.ValueInt64sAre(int64validator.AtLeast(1)),
						},
					},
				},
			},
		},
	}
}

// ValidateConfig checks that each profile_data element holds exactly one form
// of value.
func (r *userResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var profile types.Map // the one attribute it checks, not the model
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("profile_data"), &profile)...)
	if resp.Diagnostics.HasError() || !kit.Known(profile) {
		return
	}
	for key, e := range userProfileElements(ctx, profile, &resp.Diagnostics) {
		if e.Value.IsUnknown() || e.UserIDs.IsUnknown() {
			continue
		}
		if e.Value.IsNull() == e.UserIDs.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("profile_data").AtMapKey(key), "Invalid Profile Value",
				fmt.Sprintf("profile_data[%q]: set exactly one of `value` (for every field type but Users) and "+
					"`user_ids` (for Users fields).", key))
		}
	}
}

// ModifyPlan fills the computed values the plan can already know and applies
// the server's rules at plan time: the address taken (a deactivated account is
// reactivated, an active one must be imported), the protected accounts, the
// role, password and profile field rules.
func (r *userResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if kit.Unchanged(req) {
		return
	}
	checks := r.Data.CanAsk()
	if req.Plan.Raw.IsNull() {
		// Destroy: the only plan that sees nothing but the state.
		if checks {
			r.checkDestroy(ctx, req, resp)
		}
		return
	}
	var plan, config userResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	var state *userResourceModel
	if !req.State.Raw.IsNull() {
		state = &userResourceModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}

	// fromRole is the account's role before this plan.
	var fromRole string
	if state != nil {
		fromRole = state.Role.ValueString()
	} else {
		var ok bool
		if fromRole, ok = r.planNewUser(ctx, &plan, config, checks, &resp.Diagnostics); !ok {
			return
		}
	}
	if checks {
		r.checkPlannedChange(ctx, plan, state, fromRole, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planNewUser plans a user the state does not hold yet. A deactivated account
// holding the address is taken over (Zulip never lets a new account use it),
// keeping its role unless the configuration sets one; an active one fails the
// plan. Otherwise a new user needs a password and is a member unless the
// configuration says otherwise. It returns the account's role before this
// plan, and false when the plan stops here.
func (r *userResource) planNewUser(ctx context.Context, plan *userResourceModel, config userResourceModel, checks bool, diags *diag.Diagnostics) (string, bool) {
	var existing *zulip.User
	if checks && kit.Known(plan.Email) {
		existing = r.checkAddressTaken(ctx, *plan, diags)
		if diags.HasError() {
			return "", false
		}
	}
	if existing != nil {
		plan.ID = types.Int64Value(existing.UserID)
		role := userRoleName(existing.Role, diags)
		if config.Role.IsNull() {
			plan.Role = role // not managed: the account keeps its role
		}
		return role.ValueString(), true
	}
	if config.Password.IsNull() {
		diags.AddAttributeError(path.Root("password"), "Missing Password",
			"Creating a user needs an initial password: Zulip's API requires one. Set the write-only `password` "+
				"(for example from a secret store or an ephemeral resource), or import an existing user instead.")
	}
	// A new user is a member unless the configuration says otherwise.
	if config.Role.IsNull() {
		plan.Role = types.StringValue(userRoleMember)
	}
	return userRoleMember, true
}

// checkPlannedChange applies the server's rules to the plan, in order: for an
// existing user the protected accounts, the e-mail change and the
// administrator's role change; for every user the owner role and the profile
// data.
func (r *userResource) checkPlannedChange(ctx context.Context, plan userResourceModel, state *userResourceModel, fromRole string, diags *diag.Diagnostics) {
	if state != nil {
		r.checkProtectedChange(ctx, plan, *state, diags)
		r.checkEmailChange(ctx, plan, *state, diags)
		r.checkAdminChange(ctx, plan, *state, diags)
	}
	r.checkOwnerRoleChange(ctx, plan, fromRole, diags)
	r.checkProfileData(ctx, plan, diags)
}

// Create adds the user, or takes over the deactivated account that holds the
// address, then sets what POST /users cannot: role, profile data and
// deactivation. Once the account exists, a failing later step does not fail
// the create (Terraform would taint the resource, and replacing a user
// deactivates it): the state claims the plan, with the account's id, and a
// warning says what is left; the next refresh reads the server's real values,
// so the next plan shows the remaining steps as an in-place update.
func (r *userResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, config userResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() || !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	// The create is a write to the users list: its end forgets the list, and
	// the read-back below is shared with the creates ending beside it.
	write := r.Data.Cache.BeginWrite(kit.CacheUserUsers)
	defer write.End()
	// existing is the account taken over; nil for a new one.
	var existing *zulip.User
	fresh := false // a new account, created by this request
	if kit.Known(plan.ID) {
		existing = r.takeOver(ctx, plan, &resp.Diagnostics)
	} else {
		defer r.Data.Events.Expect(ctx)() // before the create: its event goes to the queues that exist
		existing, fresh = r.createAccount(ctx, &plan, config.Password, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	id := plan.ID.ValueInt64()
	// Save the id at once: whatever fails below, Terraform tracks the account.
	resp.Diagnostics.Append(resp.State.Set(ctx, userPartial(plan))...)
	if resp.Diagnostics.HasError() {
		return
	}

	var rest diag.Diagnostics
	if ok, wrote := r.finishCreate(ctx, plan, existing, &rest); ok {
		write.End()
		// A new account that needed nothing more is as its add event shows it.
		if u, found := r.fromEvent(ctx, id, fresh && !wrote); found {
			userFromAPI(ctx, &u, &plan, &rest)
		} else {
			r.readBack(ctx, &plan, &rest, func() {
				rest.AddError("User Disappeared", fmt.Sprintf("User %d was not found right after it was created.", id))
			})
		}
	}
	if !rest.HasError() {
		resp.Diagnostics.Append(rest...)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	// Warnings, not errors: the state saved above stays.
	note := fmt.Sprintf("User %d exists, but this step failed, so the account is not yet as configured. Terraform "+
		"keeps tracking it (it is not tainted): the next plan reads the account and shows what is left to do as an "+
		"in-place update, and the next apply finishes it.", id)
	for _, d := range rest {
		if d.Severity() != diag.SeverityError {
			resp.Diagnostics.Append(d)
			continue
		}
		summary := "User Created Incompletely: " + d.Summary()
		if p, ok := d.(diag.DiagnosticWithPath); ok {
			resp.Diagnostics.AddAttributeWarning(p.Path(), summary, d.Detail()+"\n\n"+note)
			continue
		}
		resp.Diagnostics.AddWarning(summary, d.Detail()+"\n\n"+note)
	}
}

// Read refreshes the user from the server. The users are read as one list,
// shared by every zulip_user of the run and by the plan-time checks.
func (r *userResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := kit.Load[userResourceModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	read := state
	id := state.ID.ValueInt64()
	users, err := kit.Users(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read User", fmt.Sprintf("list the users to read user %d", id), kit.RoleAny, err)
		return
	}
	if u, ok := users[id]; ok {
		userFromAPI(ctx, &u, &state, &resp.Diagnostics)
	} else {
		// Not in the list: make sure with the user's own endpoint before
		// forgetting the account.
		gone := false
		r.readOne(ctx, &state, &resp.Diagnostics, func() { gone = true })
		if gone && !resp.Diagnostics.HasError() {
			tflog.Info(ctx, "user no longer exists; removing it from state", map[string]any{"id": id})
			resp.State.RemoveResource(ctx)
			return
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if state.AllowProtected.IsNull() {
		state.AllowProtected = types.BoolValue(false) // state written before the attribute existed
	}
	kit.StoreRefreshed(ctx, &resp.State, read, &state, &resp.Diagnostics)
}

// Update changes the user in place: reactivation first (so the other changes
// apply to an active account), then e-mail, role, name and profile data, and
// deactivation last.
func (r *userResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state, ok := kit.LoadUpdate[userResourceModel](ctx, r.Data, req, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueInt64()
	plan.ID = state.ID
	if plan.Active.ValueBool() && !state.Active.ValueBool() {
		if !r.setActive(ctx, id, true, state.Role.ValueString(), &resp.Diagnostics) {
			return
		}
	}
	if kit.Known(state.Email) && !strings.EqualFold(plan.Email.ValueString(), state.Email.ValueString()) &&
		!r.changeEmail(ctx, id, plan.Email.ValueString(), &resp.Diagnostics) {
		return
	}
	if kit.Known(plan.Role) && !plan.Role.Equal(state.Role) &&
		!r.changeRole(ctx, id, state.Role.ValueString(), plan.Role.ValueString(), &resp.Diagnostics) {
		return
	}
	apiReq := userToAPI(ctx, plan, &state, r.fieldExists(ctx), &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !r.updateNameAndProfile(ctx, id, apiReq, &resp.Diagnostics) {
		return
	}
	if !plan.Active.ValueBool() && state.Active.ValueBool() {
		if !r.setActive(ctx, id, false, plan.Role.ValueString(), &resp.Diagnostics) {
			return
		}
	}
	r.readOne(ctx, &plan, &resp.Diagnostics, func() {
		resp.Diagnostics.AddError("User Disappeared", fmt.Sprintf("User %d was not found while it was being updated.", id))
	})
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// changeEmail gives the user the address email, and reports whether Zulip
// took it.
func (r *userResource) changeEmail(ctx context.Context, id int64, email string, diags *diag.Diagnostics) bool {
	err := kit.WriteUsers(ctx, r.Data, func(ctx context.Context) error {
		return r.Data.Client.UpdateUser(ctx, id, zulip.UpdateUserRequest{NewEmail: &email})
	})
	if err != nil {
		addUserAPIError(diags, path.Root("email"), "Unable to Change User E-mail",
			"change the user's e-mail address", kit.RoleAdministrator, err)
		return false
	}
	tflog.Info(ctx, "changed user e-mail", map[string]any{"id": id})
	return true
}

// changeRole gives the user the role named to (from is the role it has), and
// reports whether Zulip took it.
func (r *userResource) changeRole(ctx context.Context, id int64, from, to string, diags *diag.Diagnostics) bool {
	role, _ := zulip.RoleFromName(to) // validated by the schema
	err := kit.WriteUsers(ctx, r.Data, func(ctx context.Context) error {
		return r.Data.Client.UpdateUser(ctx, id, zulip.UpdateUserRequest{Role: &role})
	}, kit.CacheUserCaller)
	if err != nil {
		addUserAPIError(diags, path.Root("role"), "Unable to Change User Role", "change the user's role",
			userRoleNeeded(from, to), err)
		return false
	}
	tflog.Info(ctx, "changed user role", map[string]any{"id": id, "role": to})
	return true
}

// updateNameAndProfile sends the name and profile data of apiReq, when it
// changes either, and reports whether Zulip took them (or nothing was sent).
func (r *userResource) updateNameAndProfile(ctx context.Context, id int64, apiReq zulip.UpdateUserRequest, diags *diag.Diagnostics) bool {
	if apiReq.FullName == nil && apiReq.ProfileData == nil {
		return true
	}
	at := path.Root("profile_data")
	if apiReq.ProfileData == nil {
		at = path.Root("full_name")
	}
	err := kit.WriteUsers(ctx, r.Data, func(ctx context.Context) error { return r.Data.Client.UpdateUser(ctx, id, apiReq) })
	if err != nil {
		addUserAPIError(diags, at, "Unable to Update User", "update the user's name or profile data", kit.RoleAdministrator, err)
		return false
	}
	return true
}

// Delete deactivates the user: Zulip has no way to delete one. A user already
// deactivated or gone is not an error. (The plan refused this for the
// provider's own account and the last owner unless allowed.)
func (r *userResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[userResourceModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if !state.Active.IsNull() && !state.Active.ValueBool() {
		tflog.Info(ctx, "user already deactivated; nothing to destroy", map[string]any{"id": state.ID.ValueInt64()})
		return
	}
	r.setActive(ctx, state.ID.ValueInt64(), false, state.Role.ValueString(), &resp.Diagnostics)
}

// ImportState adopts a user by numeric id or by e-mail address. Only what every
// configuration manages is adopted: the profile values stay unmanaged until the
// configuration names them, so that the first apply leaves the others alone.
func (r *userResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, err := strconv.ParseInt(req.ID, 10, 64)
	byEmail := err != nil
	if r.importFromList(ctx, req.ID, id, resp) {
		return
	}
	switch {
	case !byEmail && id > 0:
	case byEmail && validators.CheckEmail(req.ID) == nil:
		if !r.Data.Ready(&resp.Diagnostics) {
			return
		}
		u, err := r.Data.Client.GetUserByEmail(ctx, req.ID, zulip.GetUserOptions{})
		if zulip.IsNotFound(err) {
			resp.Diagnostics.AddError("User Not Found",
				fmt.Sprintf("Cannot import %q: %s (a hidden address can still be imported by the user's id). Server said: %s",
					req.ID, errUserNoSuchEmail, err))
			return
		}
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "Unable to Look Up User", "look the user up by e-mail", kit.RoleAny, err)
			return
		}
		id = u.UserID
	default:
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("A zulip_user is imported by its numeric user id or by its e-mail address, got %q.", req.ID))
		return
	}
	if !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	m := userResourceModel{ID: types.Int64Value(id), ProfileData: types.MapNull(userProfileValueType),
		AllowProtected: types.BoolValue(false)}
	r.readOne(ctx, &m, &resp.Diagnostics, func() {
		resp.Diagnostics.AddError("User Not Found", fmt.Sprintf("Cannot import user %d: the server has no such user.", id))
	})
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Email.IsNull() && byEmail {
		// The address is hidden from the provider's account, but the import
		// named it.
		m.Email = types.StringValue(req.ID)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// importFromList imports the user from the run's list of users, when the list
// has the user (by id, or by an address the provider's account may see): a
// whole organization imported at once (a list resource, many import blocks)
// then costs one request, not one per user. It reports whether it imported.
func (r *userResource) importFromList(ctx context.Context, key string, id int64, resp *resource.ImportStateResponse) bool {
	if !r.Data.KnowsServer() {
		return false
	}
	users, err := kit.Users(ctx, r.Data)
	if err != nil {
		return false // the lookup by the user's own endpoint says why
	}
	u, ok := users[id]
	if !ok {
		for _, v := range users {
			if strings.EqualFold(v.Email, key) || v.DeliveryEmail != nil && strings.EqualFold(*v.DeliveryEmail, key) {
				u, ok = v, true
				break
			}
		}
	}
	if !ok || u.IsBot {
		return false
	}
	m := userResourceModel{ID: types.Int64Value(u.UserID), ProfileData: types.MapNull(userProfileValueType),
		AllowProtected: types.BoolValue(false)}
	userFromAPI(ctx, &u, &m, &resp.Diagnostics)
	if m.Email.IsNull() && validators.CheckEmail(key) == nil {
		m.Email = types.StringValue(key) // hidden from the provider's account, but the import named it
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	return true
}

// readOne fills m from the user's own endpoint, which answers with what the
// server holds now (the shared list may be older than a write of this run);
// gone is called when the user does not exist.
func (r *userResource) readOne(ctx context.Context, m *userResourceModel, diags *diag.Diagnostics, gone func()) {
	noGravatarShortcut := false // always report an avatar URL, Gravatar or not
	u, err := r.Data.Client.GetUser(ctx, m.ID.ValueInt64(), zulip.GetUserOptions{
		ClientGravatar:             &noGravatarShortcut,
		IncludeCustomProfileFields: !m.ProfileData.IsNull(),
	})
	if zulip.IsNotFound(err) {
		gone()
		return
	}
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read User", fmt.Sprintf("read user %d", m.ID.ValueInt64()), kit.RoleAny, err)
		return
	}
	userFromAPI(ctx, u, m, diags)
}

// fromEvent is a user just created as its add event shows it, when want.
func (r *userResource) fromEvent(ctx context.Context, id int64, want bool) (zulip.User, bool) {
	if !want {
		return zulip.User{}, false
	}
	u, ok := kit.FeedObject[zulip.User](ctx, r.Data, kit.FeedUser, id)
	return u, ok && u.UserID == id
}

// ReadBack reads a user just created, from one list of the users shared with
// the creates ending beside it (a request per user otherwise); a user missing
// from it is looked up by id, as Read does.
func (r *userResource) readBack(ctx context.Context, m *userResourceModel, diags *diag.Diagnostics, gone func()) {
	users, err := kit.UsersAfterWrite(ctx, r.Data)
	if err == nil {
		if u, ok := users[m.ID.ValueInt64()]; ok {
			userFromAPI(ctx, &u, m, diags)
			return
		}
	}
	r.readOne(ctx, m, diags, gone)
}
