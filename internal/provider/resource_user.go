package provider

import (
	"context"
	"fmt"
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
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.Resource                   = (*userResource)(nil)
	_ resource.ResourceWithConfigure      = (*userResource)(nil)
	_ resource.ResourceWithImportState    = (*userResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*userResource)(nil)
	_ resource.ResourceWithValidateConfig = (*userResource)(nil)
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
	return &userResource{resourceBase: resourceBase{name: "user"}}
}

// userResource manages one user account of the organization.
type userResource struct {
	resourceBase
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
	APIEmail       types.String `tfsdk:"api_email"`
	DeliveryEmail  types.String `tfsdk:"delivery_email"`
	IsOwner        types.Bool   `tfsdk:"is_owner"`
	IsAdmin        types.Bool   `tfsdk:"is_admin"`
	IsGuest        types.Bool   `tfsdk:"is_guest"`
	IsBot          types.Bool   `tfsdk:"is_bot"`
	BotType        types.Int64  `tfsdk:"bot_type"`
	BotOwnerID     types.Int64  `tfsdk:"bot_owner_id"`
	DateJoined     types.String `tfsdk:"date_joined"`
	Timezone       types.String `tfsdk:"timezone"`
	AvatarURL      types.String `tfsdk:"avatar_url"`
	AvatarVersion  types.Int64  `tfsdk:"avatar_version"`
	IsImportedStub types.Bool   `tfsdk:"is_imported_stub"`
	AllowProtected types.Bool   `tfsdk:"allow_self_or_last_owner_change"`
}

// Schema describes the resource.
func (r *userResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keepStr := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	keepBool := []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}
	keepInt := []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
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
			"managed elsewhere in Zulip and are best left out of this resource.",
		Attributes: map[string]schema.Attribute{
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
			"api_email": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The user's Zulip API e-mail: the real address, or a stand-in such as " +
					"`user13@zulip.example.com` when the user's e-mail visibility hides it from the provider's account.",
				PlanModifiers: keepStr,
			},
			"delivery_email": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The real address as the server reports it; null when the user's e-mail " +
					"visibility setting hides it from the provider's account.",
				PlanModifiers: keepStr,
			},
			"is_owner": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the user is an organization owner.",
				PlanModifiers:       keepBool,
			},
			"is_admin": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the user is an organization administrator (owners included).",
				PlanModifiers:       keepBool,
			},
			"is_guest": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the user is a guest.",
				PlanModifiers:       keepBool,
			},
			"is_bot": schema.BoolAttribute{
				Computed:            true,
				MarkdownDescription: "Whether the account is a bot (only possible for an imported account).",
				PlanModifiers:       keepBool,
			},
			"bot_type": schema.Int64Attribute{
				Computed: true,
				MarkdownDescription: "For a bot, its type: 1 generic, 2 incoming webhook, 3 outgoing webhook, " +
					"4 embedded; null for humans.",
				PlanModifiers: keepInt,
			},
			"bot_owner_id": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "For a bot, the id of its owner; null for humans.",
				PlanModifiers:       keepInt,
			},
			"date_joined": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "When the account was created, in ISO 8601 (e.g. `2024-01-15T09:00:00+00:00`). " +
					"Since Zulip feature level 475 it moves to the first login for users created through the API.",
				PlanModifiers: keepStr,
			},
			"timezone": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The user's IANA time zone (e.g. `Europe/Berlin`), set by the user; null when unset.",
				PlanModifiers:       keepStr,
			},
			"avatar_url": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "URL of the user's avatar (an uploaded image or their Gravatar).",
				PlanModifiers:       keepStr,
			},
			"avatar_version": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "Incremented each time the user changes their avatar.",
				PlanModifiers:       keepInt,
			},
			"is_imported_stub": schema.BoolAttribute{
				Computed: true,
				MarkdownDescription: "Whether the account is a placeholder created by a data import for a user who " +
					"has not joined yet (Zulip feature level 433).",
				PlanModifiers: keepBool,
			},
		},
	}
}

// ValidateConfig checks that each profile_data element holds exactly one form
// of value.
func (r *userResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m userResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	for key, e := range userProfileElements(ctx, m.ProfileData, &resp.Diagnostics) {
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
	if unchanged(req) {
		return
	}
	checks := r.data.knowsServer() && r.data.hasCreds
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

	// fromRole is the account's role before this plan: a new user is a member.
	fromRole := userRoleMember
	if state != nil {
		fromRole = state.Role.ValueString()
	}
	if state == nil {
		// A deactivated account holding the address is taken over (Zulip never
		// lets a new account use it); an active one fails the plan.
		var existing *zulip.User
		if checks && known(plan.Email) {
			existing = r.checkAddressTaken(ctx, plan, &resp.Diagnostics)
			if resp.Diagnostics.HasError() {
				return
			}
		}
		if existing != nil {
			plan.ID = types.Int64Value(existing.UserID)
			role := userRoleName(existing.Role, &resp.Diagnostics)
			fromRole = role.ValueString()
			if config.Role.IsNull() {
				plan.Role = role // not managed: the account keeps its role
			}
		} else {
			if config.Password.IsNull() {
				resp.Diagnostics.AddAttributeError(path.Root("password"), "Missing Password",
					"Creating a user needs an initial password: Zulip's API requires one. Set the write-only `password` "+
						"(for example from a secret store or an ephemeral resource), or import an existing user instead.")
			}
			// A new user is a member unless the configuration says otherwise;
			// knowing it now lets the plan show the role flags too.
			if config.Role.IsNull() {
				plan.Role = types.StringValue(userRoleMember)
			}
		}
	}

	// The role flags follow the role; a UseStateForUnknown value would be
	// stale when the role changes.
	if known(plan.Role) {
		role := plan.Role.ValueString()
		plan.IsOwner = types.BoolValue(role == userRoleOwner)
		plan.IsAdmin = types.BoolValue(role == userRoleOwner || role == userRoleAdministrator)
		plan.IsGuest = types.BoolValue(role == userRoleGuest)
	} else {
		plan.IsOwner, plan.IsAdmin, plan.IsGuest = types.BoolUnknown(), types.BoolUnknown(), types.BoolUnknown()
	}
	// A new address changes what the server reports as the user's e-mails.
	if state != nil && (!known(plan.Email) || !strings.EqualFold(plan.Email.ValueString(), state.Email.ValueString())) {
		plan.APIEmail, plan.DeliveryEmail = types.StringUnknown(), types.StringUnknown()
	}

	if checks {
		if state != nil {
			r.checkProtectedChange(ctx, plan, *state, &resp.Diagnostics)
			r.checkEmailChange(ctx, plan, *state, &resp.Diagnostics)
			r.checkAdminChange(ctx, plan, *state, &resp.Diagnostics)
		}
		r.checkOwnerRoleChange(ctx, plan, fromRole, &resp.Diagnostics)
		r.checkProfileData(ctx, plan, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
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
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
		return
	}
	// The create is a write to the users list: its end forgets the list, and
	// the read-back below is shared with the creates ending beside it.
	write := r.data.cache.beginWrite(cacheUserUsers)
	defer write.end()
	// existing is the account taken over; nil for a new one.
	var existing *zulip.User
	fresh := false // a new account, created by this request
	if known(plan.ID) {
		existing = r.takeOver(ctx, plan, &resp.Diagnostics)
	} else {
		defer r.data.events.expect(ctx)() // before the create: its event goes to the queues that exist
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
		write.end()
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
	var state userResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
		return
	}
	id := state.ID.ValueInt64()
	users, err := userUsers(ctx, r.data)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to Read User", fmt.Sprintf("list the users to read user %d", id), roleAny, err)
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
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update changes the user in place: reactivation first (so the other changes
// apply to an active account), then e-mail, role, name and profile data, and
// deactivation last.
func (r *userResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state userResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
		return
	}
	id := state.ID.ValueInt64()
	plan.ID = state.ID
	if plan.Active.ValueBool() && !state.Active.ValueBool() {
		if !r.setActive(ctx, id, true, state.Role.ValueString(), &resp.Diagnostics) {
			return
		}
	}
	if known(state.Email) && !strings.EqualFold(plan.Email.ValueString(), state.Email.ValueString()) {
		email := plan.Email.ValueString()
		err := r.data.client.UpdateUser(ctx, id, zulip.UpdateUserRequest{NewEmail: &email})
		r.data.cache.invalidate(cacheUserUsers)
		if err != nil {
			addUserAPIError(&resp.Diagnostics, path.Root("email"), "Unable to Change User E-mail",
				"change the user's e-mail address", roleAdministrator, err)
			return
		}
		tflog.Info(ctx, "changed user e-mail", map[string]any{"id": id})
	}
	if known(plan.Role) && !plan.Role.Equal(state.Role) {
		role, _ := zulip.RoleFromName(plan.Role.ValueString()) // validated by the schema
		err := r.data.client.UpdateUser(ctx, id, zulip.UpdateUserRequest{Role: &role})
		r.data.cache.invalidate(cacheUserCaller)
		r.data.cache.invalidate(cacheUserUsers)
		if err != nil {
			addUserAPIError(&resp.Diagnostics, path.Root("role"), "Unable to Change User Role", "change the user's role",
				userRoleNeeded(state.Role.ValueString(), plan.Role.ValueString()), err)
			return
		}
		tflog.Info(ctx, "changed user role", map[string]any{"id": id, "role": plan.Role.ValueString()})
	}
	apiReq := userToAPI(ctx, plan, &state, r.fieldExists(ctx), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if apiReq.FullName != nil || apiReq.ProfileData != nil {
		at := path.Root("profile_data")
		if apiReq.ProfileData == nil {
			at = path.Root("full_name")
		}
		err := r.data.client.UpdateUser(ctx, id, apiReq)
		r.data.cache.invalidate(cacheUserUsers)
		if err != nil {
			addUserAPIError(&resp.Diagnostics, at, "Unable to Update User", "update the user's name or profile data", roleAdministrator, err)
			return
		}
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

// Delete deactivates the user: Zulip has no way to delete one. A user already
// deactivated or gone is not an error. (The plan refused this for the
// provider's own account and the last owner unless allowed.)
func (r *userResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state userResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
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
		if !r.data.ready(&resp.Diagnostics) {
			return
		}
		u, err := r.data.client.GetUserByEmail(ctx, req.ID, zulip.GetUserOptions{})
		if zulip.IsNotFound(err) {
			resp.Diagnostics.AddError("User Not Found",
				fmt.Sprintf("Cannot import %q: %s (a hidden address can still be imported by the user's id). Server said: %s",
					req.ID, errUserNoSuchEmail, err))
			return
		}
		if err != nil {
			addAPIError(&resp.Diagnostics, "Unable to Look Up User", "look the user up by e-mail", roleAny, err)
			return
		}
		id = u.UserID
	default:
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("A zulip_user is imported by its numeric user id or by its e-mail address, got %q.", req.ID))
		return
	}
	if !r.data.ready(&resp.Diagnostics) {
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
	if !r.data.knowsServer() {
		return false
	}
	users, err := userUsers(ctx, r.data)
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
	u, err := r.data.client.GetUser(ctx, m.ID.ValueInt64(), zulip.GetUserOptions{
		ClientGravatar:             &noGravatarShortcut,
		IncludeCustomProfileFields: !m.ProfileData.IsNull(),
	})
	if zulip.IsNotFound(err) {
		gone()
		return
	}
	if err != nil {
		addAPIError(diags, "Unable to Read User", fmt.Sprintf("read user %d", m.ID.ValueInt64()), roleAny, err)
		return
	}
	userFromAPI(ctx, u, m, diags)
}

// fromEvent is a user just created as its add event shows it, when want.
func (r *userResource) fromEvent(ctx context.Context, id int64, want bool) (zulip.User, bool) {
	if !want {
		return zulip.User{}, false
	}
	u, ok := feedObject[zulip.User](ctx, r.data, feedUser, id)
	return u, ok && u.UserID == id
}

// readBack reads a user just created, from one list of the users shared with
// the creates ending beside it (a request per user otherwise); a user missing
// from it is looked up by id, as Read does.
func (r *userResource) readBack(ctx context.Context, m *userResourceModel, diags *diag.Diagnostics, gone func()) {
	users, err := userUsersAfterWrite(ctx, r.data)
	if err == nil {
		if u, ok := users[m.ID.ValueInt64()]; ok {
			userFromAPI(ctx, &u, m, diags)
			return
		}
	}
	r.readOne(ctx, m, diags, gone)
}

// checkAddressTaken looks the planned address up in the organization's users
// (one list per run, shared with the refreshes). It returns the deactivated
// account the create will take over, and reports an active one, or a bot, as
// an error: the plan says so rather than the apply.
func (r *userResource) checkAddressTaken(ctx context.Context, plan userResourceModel, diags *diag.Diagnostics) *zulip.User {
	email := plan.Email.ValueString()
	users, err := userUsersSeen(ctx, r.data)
	if err != nil {
		tflog.Warn(ctx, "could not list users; the server will check the address when the user is created", map[string]any{"error": err.Error()})
		return nil
	}
	u, ok := userByEmail(users, email)
	if !ok {
		return nil
	}
	at := path.Root("email")
	switch {
	case u.IsBot:
		diags.AddAttributeError(at, "E-mail Address Belongs to a Bot",
			fmt.Sprintf("The address %q belongs to the bot %s. Zulip addresses are unique, and zulip_user manages human "+
				"users: choose another address.", email, userDescribe(u)))
		return nil
	case r.data.journaled(ctx, "zulip_user", strconv.FormatInt(u.UserID, 10)):
		return &u // made by an interrupted apply: the create adopts it (journal.go)
	case r.data.heldByState("zulip_user", strconv.FormatInt(u.UserID, 10)):
		// This configuration's own account, which a replacement deactivates and
		// the create takes over again: Zulip never deletes users.
		diags.AddAttributeWarning(at, "Replacing a User Reactivates the Same Account",
			fmt.Sprintf("Zulip cannot delete users, so replacing %s deactivates the account and then reactivates the same "+
				"account with this configuration (name, role when set, the profile fields named here); the configured "+
				"password is not used. To leave the account as it is, run `terraform untaint` on it (or drop -replace).",
				userDescribe(u)))
		return &u
	case u.IsActive:
		diags.AddAttributeError(at, "E-mail Address Already in Use",
			fmt.Sprintf("The address %q belongs to the active %s, so no new account can have it. To manage that account "+
				"with this resource, import it (replace <name> with this resource's name):\n\n%s\n\n"+
				"(or `terraform import <address of this resource> %s`).", email, userDescribe(u), userImportBlock(email), email))
		return nil
	}
	what := "reactivates it"
	if known(plan.Active) && !plan.Active.ValueBool() {
		what = "takes it over as it is, deactivated,"
	}
	diags.AddAttributeWarning(at, "Deactivated User Will Be Reactivated",
		fmt.Sprintf("No new account is created: the address %q belongs to the deactivated %s (Zulip never lets a new "+
			"account use the address of a deactivated one). This apply %s and makes it match this configuration: "+
			"name, role (when set) and the profile fields named here. The configured password is not used: the account "+
			"keeps its own.", email, userDescribe(u), what))
	return &u
}

// takeOver prepares the deactivated account the plan chose for a create: it
// checks that the account still has the address, and reactivates it unless the
// configuration wants it deactivated. It returns the account as it was.
func (r *userResource) takeOver(ctx context.Context, plan userResourceModel, diags *diag.Diagnostics) *zulip.User {
	id := plan.ID.ValueInt64()
	u, err := r.data.client.GetUser(ctx, id, zulip.GetUserOptions{})
	if err != nil {
		addAPIError(diags, "Unable to Read User", fmt.Sprintf("read user %d, which the plan reactivates", id), roleAny, err)
		return nil
	}
	email := plan.Email.ValueString()
	if u.DeliveryEmail != nil && *u.DeliveryEmail != "" && !strings.EqualFold(*u.DeliveryEmail, email) {
		diags.AddAttributeError(path.Root("email"), "User Changed Since the Plan",
			fmt.Sprintf("The plan reactivates user %d for the address %q, but the user's address is now %q. Plan again.",
				id, email, *u.DeliveryEmail))
		return nil
	}
	if plan.Active.ValueBool() && !u.IsActive && !r.setActive(ctx, id, true, plan.Role.ValueString(), diags) {
		return nil
	}
	tflog.Info(ctx, "took over the deactivated account holding the address", map[string]any{"id": id})
	return u
}

// createAccount is POST /users. It sets plan.ID and returns nil for a new
// account; when the address turns out to belong to a deactivated account (the
// plan could not look it up: its values were unknown then), that account is
// reactivated instead and returned.
func (r *userResource) createAccount(ctx context.Context, plan *userResourceModel, password types.String, diags *diag.Diagnostics) (existing *zulip.User, fresh bool) {
	if !known(password) {
		diags.AddAttributeError(path.Root("password"), "Missing Password",
			"Creating a user needs an initial password: Zulip's API requires one.")
		return nil, false
	}
	email := plan.Email.ValueString()
	id, err := r.data.client.CreateUser(ctx, zulip.CreateUserRequest{
		Email: email, Password: password.ValueString(), FullName: plan.FullName.ValueString(),
	})
	r.data.cache.invalidate(cacheUserUsers)
	if err == nil {
		tflog.Info(ctx, "created user", map[string]any{"id": id})
		plan.ID = types.Int64Value(id)
		return nil, true
	}
	if zulip.IsNotSent(err) { // nothing reached the server: nothing to look for
		addUserAPIError(diags, path.Empty(), "Unable to Create User", "create the user (the request was never sent, so "+
			"nothing was created; apply again)", roleAdministrator, err)
		return nil, false
	}
	lctx, cancel := settling(ctx)
	defer cancel()
	existing, lookupErr := r.data.client.GetUserByEmail(lctx, email, zulip.GetUserOptions{})
	switch {
	case lookupErr == nil && !isClientError(err) && existing.IsActive && existing.FullName == plan.FullName.ValueString():
		// A failure after the request was sent (a timeout, a 502) may still
		// have created the user: adopt it rather than leave an account that
		// the next apply would collide with. An account that does not look
		// just created (deactivated, another name) is not adopted.
		tflog.Warn(ctx, "user create failed but the user exists; adopting it", map[string]any{"id": existing.UserID, "error": err.Error()})
		plan.ID = types.Int64Value(existing.UserID)
		return nil, false
	case lookupErr == nil && isUserEmailInUse(err) && !existing.IsActive && !existing.IsBot:
		diags.AddAttributeWarning(path.Root("email"), "Deactivated User Reactivated",
			fmt.Sprintf("The address %q belongs to the deactivated %s (Zulip never lets a new account use it), which "+
				"the plan could not see. Instead of a new account, that one is reactivated and made to match this "+
				"configuration; the configured password is not used.", email, userDescribe(*existing)))
		plan.ID = types.Int64Value(existing.UserID)
		if plan.Active.ValueBool() && !r.setActive(ctx, existing.UserID, true, plan.Role.ValueString(), diags) {
			return nil, false
		}
		return existing, false
	case lookupErr == nil && isUserEmailInUse(err):
		diags.AddAttributeError(path.Root("email"), "E-mail Address Already in Use",
			fmt.Sprintf("The address %q belongs to the active %s, and Zulip never deletes users. To manage that "+
				"account, import it (replace <name> with this resource's name):\n\n%s\n\nServer said: %s",
				email, userDescribe(*existing), userImportBlock(email), err))
	default:
		addUserAPIError(diags, path.Empty(), "Unable to Create User", "create the user", roleAdministrator, err)
	}
	return nil, false
}

// finishCreate sets, after POST /users or a takeover, what that endpoint
// cannot: the role, the name (of an account taken over), the profile data and
// deactivation. from is the account taken over, nil for a new one. It reports
// whether every step worked, and whether it changed anything.
func (r *userResource) finishCreate(ctx context.Context, plan userResourceModel, from *zulip.User, diags *diag.Diagnostics) (ok, wrote bool) {
	id := plan.ID.ValueInt64()
	defer r.data.cache.invalidate(cacheUserUsers)
	current, active := zulip.RoleMember, true
	if from != nil {
		current, active = from.Role, from.IsActive || plan.Active.ValueBool()
	}
	if known(plan.Role) {
		role, _ := zulip.RoleFromName(plan.Role.ValueString()) // validated by the schema
		if role != current {
			currentName, _ := zulip.RoleName(current)
			if err := r.data.client.UpdateUser(ctx, id, zulip.UpdateUserRequest{Role: &role}); err != nil {
				addUserAPIError(diags, path.Root("role"), "Unable to Set User Role", "set the user's role",
					userRoleNeeded(currentName, plan.Role.ValueString()), err)
				return false, true
			}
			wrote = true
		}
	}
	apiReq := userToAPI(ctx, plan, nil, nil, diags)
	if diags.HasError() {
		return false, wrote
	}
	if from != nil && from.FullName != plan.FullName.ValueString() {
		name := plan.FullName.ValueString()
		apiReq.FullName = &name
	}
	if apiReq.FullName != nil || apiReq.ProfileData != nil {
		if err := r.data.client.UpdateUser(ctx, id, apiReq); err != nil {
			addUserAPIError(diags, path.Root("profile_data"), "Unable to Set User Profile Data",
				"set the user's name and profile data", roleAdministrator, err)
			return false, true
		}
		wrote = true
	}
	if !plan.Active.ValueBool() && active {
		return r.setActive(ctx, id, false, plan.Role.ValueString(), diags), true
	}
	return true, wrote
}

// setActive deactivates or reactivates a user. Neither call is idempotent, so
// after a failure the user is read: if it is already as wanted (changed by
// someone else, or by a request whose answer was lost), that is success.
func (r *userResource) setActive(ctx context.Context, id int64, active bool, role string, diags *diag.Diagnostics) bool {
	var err error
	action := "deactivate the user"
	if active {
		action = "reactivate the user"
		err = r.data.client.ReactivateUser(ctx, id)
	} else {
		err = r.data.client.DeactivateUser(ctx, id, zulip.DeactivateUserRequest{})
	}
	r.data.cache.invalidate(cacheUserUsers)
	if err == nil {
		tflog.Info(ctx, "changed user activation", map[string]any{"id": id, "active": active})
		return true
	}
	u, getErr := r.data.client.GetUser(ctx, id, zulip.GetUserOptions{})
	switch {
	case zulip.IsNotFound(getErr) && !active:
		return true // a user that is gone cannot log in either
	case getErr == nil && u.IsActive == active:
		tflog.Info(ctx, "user activation already as wanted", map[string]any{"id": id, "active": active, "error": err.Error()})
		return true
	case getErr == nil && u.IsBot:
		diags.AddAttributeError(path.Root("active"), "Cannot Change a Bot's Activation",
			fmt.Sprintf("User %d is a bot, which Zulip deactivates and reactivates through its bot settings, not the "+
				"user endpoints that zulip_user uses. Server said: %s", id, err))
		return false
	}
	needed := roleAdministrator
	if role == userRoleOwner {
		needed = roleOwner
	}
	summary := "Unable to Deactivate User"
	if active {
		summary = "Unable to Reactivate User"
	}
	addUserAPIError(diags, path.Root("active"), summary, action, needed, err)
	return false
}

// userProtection says why an account may not be deactivated or demoted without
// allow_self_or_last_owner_change: it is the provider's own account, or the
// organization's last active owner. It returns the account and the reasons,
// none when it is not protected. A failed read only skips the check (the
// server keeps its own rule for the last owner).
func (r *userResource) userProtection(ctx context.Context, id int64) (zulip.User, []string) {
	var reasons []string
	users, err := userUsersSeen(ctx, r.data)
	if err != nil {
		tflog.Warn(ctx, "could not list users; the last-owner check is left to the server", map[string]any{"error": err.Error()})
	}
	u, found := users[id]
	if self, err := userSelf(ctx, r.data); err != nil {
		tflog.Warn(ctx, "could not read the provider's own account; it is not protected in this plan", map[string]any{"error": err.Error()})
	} else if self.UserID == id {
		reasons = append(reasons, "the provider's own account: the credentials this run uses would stop working")
		if !found {
			u = *self
		}
	}
	if found && userIsLastOwner(users, u) {
		// Only a fresh list may say so: an owner made by this run may be missing
		// from the copy seen before.
		if fresh, err := userUsers(ctx, r.data); err == nil {
			users = fresh
			if fu, ok := users[id]; ok {
				u = fu
			}
		}
		if userIsLastOwner(users, u) {
			reasons = append(reasons, "the organization's last active owner: an organization needs an owner, and "+
				"Zulip refuses to deactivate or demote the only one")
		}
	}
	return u, reasons
}

// checkDestroy refuses, at plan time, to destroy (deactivate) a protected
// account unless the state allows it.
func (r *userResource) checkDestroy(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var state userResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || state.AllowProtected.ValueBool() || (known(state.Active) && !state.Active.ValueBool()) {
		return // allowed, or already deactivated: destroying changes nothing
	}
	u, reasons := r.userProtection(ctx, state.ID.ValueInt64())
	if len(reasons) == 0 {
		return
	}
	resp.Diagnostics.AddError("Protected User Account",
		fmt.Sprintf("Destroying this zulip_user would deactivate %s, which is %s.\n\nTo stop managing the account "+
			"without deactivating it, remove it from the state instead: a `removed` block (Terraform 1.7 or newer) "+
			"with `lifecycle { destroy = false }`, or `terraform state rm`. To deactivate it anyway, set "+
			"`allow_self_or_last_owner_change = true` on the resource, apply, then destroy.",
			userDescribe(u), strings.Join(reasons, ", and ")))
}

// checkProtectedChange refuses, at plan time, to deactivate or demote a
// protected account unless the configuration allows it.
func (r *userResource) checkProtectedChange(ctx context.Context, plan, state userResourceModel, diags *diag.Diagnostics) {
	if !known(plan.AllowProtected) || plan.AllowProtected.ValueBool() {
		return
	}
	var change string
	at := path.Root("role")
	from, fromKnown := zulip.RoleFromName(state.Role.ValueString())
	to, toKnown := zulip.RoleFromName(plan.Role.ValueString())
	switch {
	case known(plan.Active) && !plan.Active.ValueBool() && state.Active.ValueBool():
		change, at = "deactivate", path.Root("active")
	case fromKnown && toKnown && to > from: // a larger role value is a lower role
		change = fmt.Sprintf("demote (from %q to %q)", state.Role.ValueString(), plan.Role.ValueString())
	default:
		return
	}
	u, reasons := r.userProtection(ctx, state.ID.ValueInt64())
	if len(reasons) == 0 {
		return
	}
	diags.AddAttributeError(at, "Protected User Account",
		fmt.Sprintf("This plan would %s %s, which is %s. If that is intended (for example because this run makes "+
			"another user an owner first), set `allow_self_or_last_owner_change = true` on this resource.",
			change, userDescribe(u), strings.Join(reasons, ", and ")))
}

// featureChangeUserEmail is the feature level at which PATCH /users/{id} takes
// new_email (digest §4.4).
const featureChangeUserEmail = 285

// checkEmailChange reports at plan time an address change the server will
// refuse: before feature level 285 Zulip has no way to change another user's
// address, and since then it needs an organization administrator
// (zerver/views/users.py update_user_backend reaches the target with
// access_user_by_id(for_admin=True)). The can_change_user_emails special
// permission that Zulip also requires is not visible through the API, so the
// server's answer reports its absence (addUserAPIError names it).
func (r *userResource) checkEmailChange(ctx context.Context, plan, state userResourceModel, diags *diag.Diagnostics) {
	if !known(plan.Email) || !known(state.Email) || strings.EqualFold(plan.Email.ValueString(), state.Email.ValueString()) {
		return
	}
	if err := r.data.requireFeatureLevel(featureChangeUserEmail, "changing a user's e-mail address"); err != nil {
		diags.AddAttributeError(path.Root("email"), "Zulip Server Too Old", err.Error()+
			". Change the address in Zulip's own settings (the user can change it in theirs), then update the configuration.")
		return
	}
	r.data.requireRole(ctx, roleAdministrator, "Changing a user's e-mail address", path.Root("email"), diags)
}

// checkAdminChange reports at plan time a change of a user's role or name
// that the provider's account cannot make: PATCH /users/{id} reaches the user
// with access_user_by_id(for_admin=True), so anyone below an administrator
// gets Zulip's bare "Insufficient permission" at apply. (A change to or from
// the owner role is checkOwnerRoleChange's.)
func (r *userResource) checkAdminChange(ctx context.Context, plan, state userResourceModel, diags *diag.Diagnostics) {
	if known(plan.Role) && known(state.Role) && !plan.Role.Equal(state.Role) &&
		plan.Role.ValueString() != userRoleOwner && state.Role.ValueString() != userRoleOwner {
		r.data.requireRole(ctx, roleAdministrator, fmt.Sprintf("Changing the role of %s from %q to %q",
			state.Email.ValueString(), state.Role.ValueString(), plan.Role.ValueString()), path.Root("role"), diags)
	}
	if known(plan.FullName) && known(state.FullName) && !plan.FullName.Equal(state.FullName) {
		r.data.requireRole(ctx, roleAdministrator, fmt.Sprintf("Changing the name of %s from %q to %q",
			state.Email.ValueString(), state.FullName.ValueString(), plan.FullName.ValueString()), path.Root("full_name"), diags)
	}
}

// checkOwnerRoleChange reports at plan time a change to or from the owner role
// that the provider's account cannot make (Zulip wants an owner for it).
func (r *userResource) checkOwnerRoleChange(ctx context.Context, plan userResourceModel, from string, diags *diag.Diagnostics) {
	if !known(plan.Role) {
		return
	}
	to := plan.Role.ValueString()
	if from == to || (from != userRoleOwner && to != userRoleOwner) {
		return
	}
	if self, err := userSelf(ctx, r.data); err == nil && known(plan.ID) && self.UserID == plan.ID.ValueInt64() && from == userRoleOwner {
		r.data.noteStepDown(fmt.Sprintf("%s, from %q to %q", self.Email, from, to), diags)
	} else {
		r.data.noteOwnerOnly(fmt.Sprintf("the role of %s from %q to %q", plan.Email.ValueString(), from, to), diags)
	}
	caller, err := userSelf(ctx, r.data)
	if err != nil {
		tflog.Warn(ctx, "could not read the provider's own account; the server will check the role change", map[string]any{"error": err.Error()})
		return
	}
	if caller.Role == zulip.RoleOwner {
		return
	}
	callerRole, _ := zulip.RoleName(caller.Role)
	diags.AddAttributeError(path.Root("role"), "Organization Owner Required",
		fmt.Sprintf("role: changing a user's role from %q to %q needs an organization owner's credentials, but the "+
			"provider acts as %s, who is %s %s. Configure the provider (or an aliased provider for this resource) "+
			"with an owner's API key.", from, to, caller.Email, userArticle(callerRole), callerRole))
}

// checkProfileData checks the planned profile values against the
// organization's field definitions.
func (r *userResource) checkProfileData(ctx context.Context, plan userResourceModel, diags *diag.Diagnostics) {
	elems := userProfileElements(ctx, plan.ProfileData, diags)
	if len(elems) == 0 {
		return
	}
	fields, err := userProfileFields(ctx, r.data)
	if err != nil {
		tflog.Warn(ctx, "could not list custom profile fields; the server will check profile_data", map[string]any{"error": err.Error()})
		return
	}
	for key, e := range elems {
		at := path.Root("profile_data").AtMapKey(key)
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			continue // reported by the key validator
		}
		f, ok := fields[id]
		if !ok {
			diags.AddAttributeError(at, "Unknown Custom Profile Field",
				fmt.Sprintf("profile_data[%q]: the organization has no custom profile field with id %d. Its fields are: %s.",
					key, id, userFieldList(fields)))
			continue
		}
		if err := checkUserProfileValue(f, e); err != nil {
			diags.AddAttributeError(at, "Invalid Profile Value", fmt.Sprintf("profile_data[%q]: %s", key, err))
			continue
		}
		if f.Type != zulip.ProfileFieldUser || !known(e.UserIDs) {
			continue
		}
		// A bad id would fail only after the user is created (profile data is
		// a second request), leaving a tainted resource: check it now.
		verdict, err := checkUsersSeen(ctx, r.data, func(users map[int64]zulip.User) error {
			return checkUserProfileUsers(ctx, users, e, diags)
		})
		if err != nil {
			tflog.Warn(ctx, "could not list users; the server will check user_ids", map[string]any{"error": err.Error()})
			continue
		}
		if verdict != nil {
			diags.AddAttributeError(at.AtName("user_ids"), "Invalid Profile Value", fmt.Sprintf("profile_data[%q].user_ids: %s", key, verdict))
		}
	}
}

// userToAPI builds the name and profile data part of an update. With prior
// state, only what changed is sent, and fields removed from profile_data are
// sent as null, which Zulip reads as "clear this value", when they still exist
// (exists): the answers of a deleted field, or of one replaced because its type
// changed, went with it, and Zulip refuses to clear a field it does not know.
func userToAPI(ctx context.Context, m userResourceModel, prior *userResourceModel, exists func(id int64) bool, diags *diag.Diagnostics) zulip.UpdateUserRequest {
	var req zulip.UpdateUserRequest
	if prior != nil && known(m.FullName) && !m.FullName.Equal(prior.FullName) {
		name := m.FullName.ValueString()
		req.FullName = &name
	}
	planned := userProfileElements(ctx, m.ProfileData, diags)
	var was map[string]userProfileValueModel
	if prior != nil {
		was = userProfileElements(ctx, prior.ProfileData, diags)
	}
	for _, key := range userSortedKeys(planned) {
		e := planned[key]
		if old, ok := was[key]; ok && old.Value.Equal(e.Value) && old.UserIDs.Equal(e.UserIDs) {
			continue
		}
		if item := userProfileItem(ctx, key, e, diags); item != nil {
			req.ProfileData = append(req.ProfileData, *item)
		}
	}
	for _, key := range userSortedKeys(was) {
		if _, ok := planned[key]; ok {
			continue
		}
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil || (exists != nil && !exists(id)) {
			continue
		}
		req.ProfileData = append(req.ProfileData, zulip.ProfileDataItem{ID: id}) // null value: clear
	}
	return req
}

// fieldExists reports whether a custom profile field exists, from the run's
// list of fields, which is read on the first question (only a value to clear
// asks). When the list cannot be read, every field counts as existing and the
// server decides.
func (r *userResource) fieldExists(ctx context.Context) func(id int64) bool {
	var fields map[int64]zulip.CustomProfileField
	read := false
	return func(id int64) bool {
		if !read {
			read = true
			var err error
			if fields, err = userProfileFields(ctx, r.data); err != nil {
				tflog.Warn(ctx, "could not list custom profile fields; clearing the removed values anyway", map[string]any{"error": err.Error()})
			}
		}
		if fields == nil {
			return true
		}
		_, ok := fields[id]
		return ok
	}
}

// userFromAPI copies the server's view into the model. The configured e-mail
// is kept when the server's matches it but for case, and when the server hides
// it. Only the profile fields m already manages are read: the others are not
// this resource's (an import manages none).
func userFromAPI(ctx context.Context, u *zulip.User, m *userResourceModel, diags *diag.Diagnostics) {
	m.ID = types.Int64Value(u.UserID)
	m.FullName = types.StringValue(u.FullName)
	m.Role = userRoleName(u.Role, diags)
	m.Active = types.BoolValue(u.IsActive)
	if u.DeliveryEmail != nil && *u.DeliveryEmail != "" {
		if !known(m.Email) || !strings.EqualFold(m.Email.ValueString(), *u.DeliveryEmail) {
			m.Email = types.StringValue(*u.DeliveryEmail)
		}
		m.DeliveryEmail = types.StringValue(*u.DeliveryEmail)
	} else {
		if m.Email.IsUnknown() {
			m.Email = types.StringNull()
		}
		m.DeliveryEmail = types.StringNull()
	}
	m.APIEmail = types.StringValue(u.Email)
	m.IsOwner = types.BoolValue(u.IsOwner)
	m.IsAdmin = types.BoolValue(u.IsAdmin)
	m.IsGuest = types.BoolValue(u.IsGuest)
	m.IsBot = types.BoolValue(u.IsBot)
	m.BotType = types.Int64Null()
	if u.BotType != nil {
		m.BotType = types.Int64Value(int64(*u.BotType))
	}
	m.BotOwnerID = types.Int64Null()
	if u.BotOwnerID != nil {
		m.BotOwnerID = types.Int64Value(*u.BotOwnerID)
	}
	m.DateJoined = types.StringValue(u.DateJoined)
	m.Timezone = stringOrNull(&u.Timezone)
	m.AvatarURL = stringOrNull(u.AvatarURL)
	m.AvatarVersion = types.Int64Value(u.AvatarVersion)
	m.IsImportedStub = types.BoolValue(u.IsImportedStub)
	m.Password = types.StringNull() // write-only: never stored

	if !known(m.ProfileData) {
		m.ProfileData = types.MapNull(userProfileValueType)
		return
	}
	managed := userProfileElements(ctx, m.ProfileData, diags)
	elems := make(map[string]userProfileValueModel, len(managed))
	for key, e := range managed {
		v, ok := u.ProfileData[key]
		if !ok {
			continue // cleared outside Terraform: the plan sets it again
		}
		elems[key] = userProfileValueFromAPI(ctx, v.Value, !e.UserIDs.IsNull(), diags)
	}
	m.ProfileData = userProfileMap(ctx, elems, diags)
}

// userPartial is the state saved right after POST /users: the id and the
// configuration, with the values only the server knows left null.
func userPartial(plan userResourceModel) *userResourceModel {
	p := plan
	p.Password = types.StringNull()
	nullStr := func(v *types.String) {
		if v.IsUnknown() {
			*v = types.StringNull()
		}
	}
	nullBool := func(v *types.Bool) {
		if v.IsUnknown() {
			*v = types.BoolNull()
		}
	}
	nullInt := func(v *types.Int64) {
		if v.IsUnknown() {
			*v = types.Int64Null()
		}
	}
	for _, v := range []*types.String{&p.Role, &p.APIEmail, &p.DeliveryEmail, &p.DateJoined, &p.Timezone, &p.AvatarURL} {
		nullStr(v)
	}
	for _, v := range []*types.Bool{&p.Active, &p.IsOwner, &p.IsAdmin, &p.IsGuest, &p.IsBot, &p.IsImportedStub} {
		nullBool(v)
	}
	for _, v := range []*types.Int64{&p.BotType, &p.BotOwnerID, &p.AvatarVersion} {
		nullInt(v)
	}
	if p.ProfileData.IsUnknown() {
		p.ProfileData = types.MapNull(userProfileValueType)
	}
	return &p
}

// userRoleNeeded names the role the provider needs to change a role from one
// to another.
func userRoleNeeded(from, to string) requiredRole {
	if from == userRoleOwner || to == userRoleOwner {
		return roleOwner
	}
	return roleAdministrator
}

// userFieldList describes the custom profile fields for an error message.
func userFieldList(fields map[int64]zulip.CustomProfileField) string {
	ids := make([]int64, 0, len(fields))
	for id := range fields {
		ids = append(ids, id)
	}
	userSortInt64s(ids)
	parts := make([]string, 0, len(ids))
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("%d (%s)", id, fields[id].Name))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
