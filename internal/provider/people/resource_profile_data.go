package people

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState    = (*profileDataResource)(nil)
	_ resource.ResourceWithValidateConfig = (*profileDataResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*profileDataResource)(nil)
)

// NewProfileDataResource returns the zulip_profile_data resource.
func NewProfileDataResource() resource.Resource {
	return &profileDataResource{ResourceBase: kit.ResourceBase{Name: "profile_data"}}
}

// profileDataResource manages the provider account's own values of the custom
// profile fields it names.
type profileDataResource struct {
	kit.ResourceBase
}

// profileDataResourceModel is the zulip_profile_data state.
type profileDataResourceModel struct {
	ID    types.String `tfsdk:"id"`
	Field types.List   `tfsdk:"field"`
}

// profileDataFieldModel is one field block.
type profileDataFieldModel struct {
	ID    types.Int64  `tfsdk:"id"`
	Name  types.String `tfsdk:"name"`
	Value types.String `tfsdk:"value"`
	Users types.List   `tfsdk:"users"`
}

// profileDataFieldType is the object type of a field block.
var profileDataFieldType = kit.ObjectTypeOf(profileDataFieldAttributes())

// Schema describes the resource.
func (r *profileDataResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The provider account's own values of custom profile fields (the fields an " +
			"administrator defined for the organization, such as pronouns or a team). Only the fields named by " +
			"`field` blocks are managed; the account's other values are left alone. Destroying the resource clears " +
			"the named fields. The account must be a human user, not a bot. Fields that are not editable by users " +
			"can be managed only with an administrator's credentials.\n\n" +
			"Import with a comma-separated list of field ids or names, in the order of the `field` blocks, e.g. " +
			"`terraform import zulip_profile_data.me \"1,Pronouns\"`, or with `*` for every field the account has a " +
			"value for, in the organization's field order. A part made only of digits is an id. An import manages " +
			"exactly the fields it names (with `*`, every one): a field imported but missing from the configuration is " +
			"cleared by the next apply, as removing its block does (the plan warns about each), so import the fields " +
			"the configuration names. `terraform plan -generate-config-out` writes each block with both `id` and `name`, " +
			"which is valid as it is.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableString("The user id of the account whose profile this is: the provider's own account."),
		},
		Blocks: map[string]schema.Block{
			"field": schema.ListNestedBlock{
				MarkdownDescription: "One custom profile field and its value. Name the field by `id` or by `name` " +
					"(the other is filled in), or by both when they agree (as `terraform plan -generate-config-out` " +
					"writes them), and give its value in `value`, or in `users` for a Users field.",
				Validators:   []validator.List{listvalidator.IsRequired(), listvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedBlockObject{Attributes: profileDataFieldAttributes()},
			},
		},
	}
}

// profileDataFieldAttributes are the attributes of a field block.
func profileDataFieldAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.Int64Attribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "The field's id (see `GET /api/v1/realm/profile_fields`). Computed when " +
				"the field is named by `name` only; when both are given, they must name the same field.",
			Validators: []validator.Int64{int64validator.AtLeast(1)},
		},
		"name": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "The field's name, exactly as the organization spells it, e.g. " +
				"`Pronouns`. Computed when the field is named by `id` only; when both are given, they must " +
				"name the same field.",
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"value": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The value of any field but a Users field: at most 50 characters for " +
				"Short text, External account (the account name) and Pronouns, 500 for Paragraph; a date " +
				"`YYYY-MM-DD` for Date; a URL for Link; the option's **key** (not its text) for Dropdown. " +
				"Not empty: to clear a field, remove its block.",
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"users": schema.ListAttribute{
			ElementType: types.Int64Type,
			Optional:    true,
			MarkdownDescription: "The value of a Users field: the ids of active, non-bot users of the " +
				"organization, in order.",
			Validators: []validator.List{
				listvalidator.SizeAtLeast(1),
				listvalidator.UniqueValues(),
				listvalidator.ValueInt64sAre(int64validator.AtLeast(1)),
			},
		},
	}
}

// ValidateConfig checks each block's shape: one way to name the field, one
// kind of value, no field twice.
func (r *profileDataResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m profileDataResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !kit.Known(m.Field) {
		return
	}
	elems := profileDataElems(ctx, m.Field, &resp.Diagnostics)
	ids, names := map[int64]int{}, map[string]int{}
	for i, e := range elems {
		p := path.Root("field").AtListIndex(i)
		// Both may be given (terraform plan -generate-config-out writes both):
		// the plan then checks that they name the same field.
		if e.ID.IsNull() && e.Name.IsNull() {
			resp.Diagnostics.AddAttributeError(p.AtName("name"), "Missing Field Reference", "Each field block names its custom profile field by `id` or by `name`.")
		}
		if e.Value.IsNull() && e.Users.IsNull() {
			resp.Diagnostics.AddAttributeError(p.AtName("value"), "Missing Field Value",
				"Each field block sets `value`, or `users` for a Users field. To stop managing a field, remove its block.")
		}
		if !e.Value.IsNull() && !e.Users.IsNull() {
			resp.Diagnostics.AddAttributeError(p.AtName("users"), "Conflicting Field Values",
				"Set `value` or `users`, not both: `users` is for Users fields, `value` for every other type.")
		}
		if kit.Known(e.ID) {
			if j, dup := ids[e.ID.ValueInt64()]; dup {
				resp.Diagnostics.AddAttributeError(p.AtName("id"), "Duplicate Field",
					fmt.Sprintf("Field id %d is already set by field[%d].", e.ID.ValueInt64(), j))
			}
			ids[e.ID.ValueInt64()] = i
		}
		if kit.Known(e.Name) {
			if j, dup := names[e.Name.ValueString()]; dup {
				resp.Diagnostics.AddAttributeError(p.AtName("name"), "Duplicate Field",
					fmt.Sprintf("Field %q is already set by field[%d].", e.Name.ValueString(), j))
			}
			names[e.Name.ValueString()] = i
		}
	}
}

// ModifyPlan resolves every field against the organization's field list and
// applies the server's rules where they can be checked before apply: the field
// exists, the account may edit it, and the value suits the field's type.
func (r *profileDataResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || kit.Unchanged(req) {
		return
	}
	var plan, config profileDataResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() || !kit.Known(plan.Field) || !kit.Known(config.Field) {
		return
	}
	planElems := profileDataElems(ctx, plan.Field, &resp.Diagnostics)
	configElems := profileDataElems(ctx, config.Field, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || len(planElems) != len(configElems) {
		return
	}
	if !r.Data.CanAsk() {
		planUnreadFields(configElems, planElems)
		r.setPlanFields(ctx, planElems, resp)
		return
	}
	own := r.profileAccount(ctx, &resp.Diagnostics)
	if own == nil {
		return
	}
	fields, err := profileDataFields(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read Custom Profile Fields", "list the custom profile fields", kit.RoleAny, err)
		return
	}
	seen := map[int64]int{}
	for i, c := range configElems {
		f, ok := r.resolveField(c, i, fields, &planElems[i], &resp.Diagnostics)
		if !ok {
			continue
		}
		planElems[i].ID, planElems[i].Name = types.Int64Value(f.ID), types.StringValue(f.Name)
		checkFieldWritable(c, i, f, own, seen, &resp.Diagnostics)
		r.checkFieldValue(ctx, c, i, f, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	r.warnImportedDropped(ctx, req, fields, planElems, resp)
	r.setPlanFields(ctx, planElems, resp)
	if plan.ID.IsUnknown() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), strconv.FormatInt(own.UserID, 10))...)
	}
}

// planUnreadFields plans the fields when the server cannot be read: the prior
// state's id or name at an index may belong to another field (blocks can be
// reordered), so the one not configured is learnt at apply.
func planUnreadFields(configElems, planElems []profileDataFieldModel) {
	for i, c := range configElems {
		if c.ID.IsNull() {
			planElems[i].ID = types.Int64Unknown()
		}
		if c.Name.IsNull() {
			planElems[i].Name = types.StringUnknown()
		}
	}
}

// profileAccount reads the provider's own account, whose profile the resource
// manages, and refuses a bot, which has no profile data. It returns nil when
// the plan stops here.
func (r *profileDataResource) profileAccount(ctx context.Context, diags *diag.Diagnostics) *zulip.User {
	own, err := profileDataOwnUser(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read the Provider's Account", "read its own account (GET /users/me)", kit.RoleAny, err)
		return nil
	}
	if own.IsBot {
		diags.AddAttributeError(path.Root("field"), "Bots Have No Profile Data",
			fmt.Sprintf("The provider's account %s is a bot, and Zulip keeps custom profile field values only for human "+
				"users. Configure the provider with a user's API key to manage that user's profile.", own.Email))
		return nil
	}
	return own
}

// resolveField finds the field that block i names, by id, by name, or both
// when they agree. A field this plan creates or renames to, and a block that
// names none yet, leave planned's id (and name) unknown until apply. It
// reports false when there is no field to check further.
func (r *profileDataResource) resolveField(c profileDataFieldModel, i int, fields []zulip.CustomProfileField, planned *profileDataFieldModel, diags *diag.Diagnostics) (zulip.CustomProfileField, bool) {
	p := path.Root("field").AtListIndex(i)
	var f zulip.CustomProfileField
	var ok bool
	switch {
	case kit.Known(c.ID):
		if f, ok = profileFieldByID(fields, c.ID.ValueInt64()); !ok {
			diags.AddAttributeError(p.AtName("id"), "Unknown Custom Profile Field",
				fmt.Sprintf("No custom profile field has id %d. %s", c.ID.ValueInt64(), profileFieldList(fields)))
		} else if kit.Known(c.Name) && c.Name.ValueString() != f.Name {
			diags.AddAttributeError(p.AtName("name"), "Conflicting Field Reference",
				fmt.Sprintf("This block names field id %d and the name %q, but field %d is named %q. Name the field by "+
					"`id` or by `name`, or by both when they agree. %s", f.ID, c.Name.ValueString(), f.ID, f.Name,
					profileFieldList(fields)))
			ok = false
		}
	case kit.Known(c.Name) && r.Data.PlannedName("zulip_custom_profile_field", c.Name.ValueString()):
		// A field this plan creates or renames to: its id is known at apply.
		if f, ok = profileFieldByName(fields, c.Name.ValueString()); !ok {
			planned.ID = types.Int64Unknown()
		}
	case kit.Known(c.Name):
		if f, ok = profileFieldByName(fields, c.Name.ValueString()); !ok {
			diags.AddAttributeError(p.AtName("name"), "Unknown Custom Profile Field",
				fmt.Sprintf("No custom profile field is named %q (names are matched exactly). %s", c.Name.ValueString(), profileFieldList(fields)))
		}
	default:
		planned.ID, planned.Name = types.Int64Unknown(), types.StringUnknown()
	}
	return f, ok
}

// checkFieldWritable checks that block i is the only one to set field f
// (seen maps each field to the block that set it first) and that the
// provider's account own may change f. Its errors point at the line that
// names the field.
func checkFieldWritable(c profileDataFieldModel, i int, f zulip.CustomProfileField, own *zulip.User, seen map[int64]int, diags *diag.Diagnostics) {
	p := path.Root("field").AtListIndex(i)
	ref := p.AtName("name")
	if kit.Known(c.ID) {
		ref = p.AtName("id")
	}
	if j, dup := seen[f.ID]; dup {
		diags.AddAttributeError(ref, "Duplicate Field",
			fmt.Sprintf("field[%d] and field[%d] both set field %q (id %d).", j, i, f.Name, f.ID))
	}
	seen[f.ID] = i
	if !f.EditableByUser && !own.IsAdmin {
		diags.AddAttributeError(ref, "Custom Profile Field Not Editable",
			fmt.Sprintf("Field %q is not editable by users (editable_by_user is false): only organization administrators "+
				"can change it, and the provider's account %s is not one. Remove this block, or ask an administrator "+
				"to set the value.", f.Name, own.Email))
	}
}

// checkFieldValue checks the value block i sets for field f: user ids for a
// Users field, a value fit for its type for any other.
func (r *profileDataResource) checkFieldValue(ctx context.Context, c profileDataFieldModel, i int, f zulip.CustomProfileField, diags *diag.Diagnostics) {
	p := path.Root("field").AtListIndex(i)
	if f.Type == zulip.ProfileFieldUser {
		if !c.Value.IsNull() {
			diags.AddAttributeError(p.AtName("value"), "Wrong Kind of Value",
				fmt.Sprintf("%q is a Users field: give its user ids as users = [...] instead of value.", f.Name))
		}
		r.checkUsers(ctx, c.Users, p.AtName("users"), diags)
		return
	}
	if !c.Users.IsNull() {
		diags.AddAttributeError(p.AtName("users"), "Wrong Kind of Value",
			fmt.Sprintf("%q is a %s field: set value; users is only for Users fields.", f.Name, profileFieldTypeName(f.Type)))
		return
	}
	if kit.Known(c.Value) {
		if err := checkProfileText(f, c.Value.ValueString()); err != nil {
			diags.AddAttributeError(p.AtName("value"), "Invalid Custom Profile Field Value", err.Error())
		}
	}
}

// Create sets the values of the named fields.
func (r *profileDataResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[profileDataResourceModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	elems := profileDataElems(ctx, plan.Field, &resp.Diagnostics)
	r.resolve(ctx, elems, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	r.write(ctx, profileDataToAPI(ctx, elems, nil, &resp.Diagnostics), nil, "Unable to Set Profile Data", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.Field = profileDataList(ctx, elems, &resp.Diagnostics)
	r.read(ctx, &plan, &resp.Diagnostics, func() {
		resp.Diagnostics.AddError("Profile Data Not Found After Create",
			"The server accepted the profile data but the account shows none of the values. This is a bug in the server or the provider.")
	})
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read refreshes the values of the named fields from the account.
func (r *profileDataResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	kit.Refresh(ctx, r.Data, req, resp, "none of the managed custom profile fields has a value any more", kit.Found(r.read))
}

// Update sets the values that changed and clears the fields no longer named.
func (r *profileDataResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state, ok := kit.LoadUpdate[profileDataResourceModel](ctx, r.Data, req, &resp.Diagnostics)
	if !ok {
		return
	}
	elems := profileDataElems(ctx, plan.Field, &resp.Diagnostics)
	prior := profileDataElems(ctx, state.Field, &resp.Diagnostics)
	r.resolve(ctx, elems, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	named := map[int64]bool{}
	for _, e := range elems {
		named[e.ID.ValueInt64()] = true
	}
	var removed []int64
	for _, e := range prior {
		if kit.Known(e.ID) && !named[e.ID.ValueInt64()] {
			removed = append(removed, e.ID.ValueInt64())
		}
	}
	r.write(ctx, profileDataToAPI(ctx, elems, prior, &resp.Diagnostics), removed, "Unable to Update Profile Data", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.Field = profileDataList(ctx, elems, &resp.Diagnostics)
	// From now on the fields are the configuration's, not the import's.
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, profileDataImportedKey, nil)...)
	r.read(ctx, &plan, &resp.Diagnostics, func() {
		resp.Diagnostics.AddError("Profile Data Disappeared",
			"The account's values of the managed fields were cleared while they were being updated.")
	})
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete clears the values of the named fields; fields that no longer exist
// are skipped.
func (r *profileDataResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[profileDataResourceModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	var ids []int64
	for _, e := range profileDataElems(ctx, state.Field, &resp.Diagnostics) {
		if kit.Known(e.ID) {
			ids = append(ids, e.ID.ValueInt64())
		}
	}
	r.write(ctx, nil, ids, "Unable to Clear Profile Data", &resp.Diagnostics)
}

// ImportState adopts the values of fields named by a comma-separated list of
// ids and names, or of every field with a value ("*").
func (r *profileDataResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	fields, err := profileDataFields(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read Custom Profile Fields", "list the custom profile fields", kit.RoleAny, err)
		return
	}
	var elems []profileDataFieldModel
	add := func(f zulip.CustomProfileField) {
		elems = append(elems, profileDataFieldModel{ID: types.Int64Value(f.ID), Name: types.StringValue(f.Name),
			Value: types.StringNull(), Users: types.ListNull(types.Int64Type)})
	}
	if strings.TrimSpace(req.ID) == "*" {
		user, err := profileDataValues(ctx, r.Data)
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "Unable to Read Profile Data", "read the account's custom profile field values", kit.RoleAny, err)
			return
		}
		for _, f := range fields {
			if _, ok := user.ProfileValueFor(f.ID); ok {
				add(f)
			}
		}
		if len(elems) == 0 {
			resp.Diagnostics.AddError("Nothing to Import", "The provider's account has no custom profile field values.")
			return
		}
	} else {
		seen := map[int64]bool{}
		for _, part := range strings.Split(req.ID, ",") {
			part = strings.TrimSpace(part)
			var f zulip.CustomProfileField
			var ok bool
			if id, err := strconv.ParseInt(part, 10, 64); err == nil {
				f, ok = profileFieldByID(fields, id)
			} else {
				f, ok = profileFieldByName(fields, part)
			}
			if !ok {
				resp.Diagnostics.AddError("Invalid Import ID",
					fmt.Sprintf("A zulip_profile_data is imported by a comma-separated list of custom profile field ids or "+
						"names, e.g. \"1,Pronouns\", or by \"*\" for every field with a value; %q in %q is not a field. %s",
						part, req.ID, profileFieldList(fields)))
				return
			}
			if seen[f.ID] {
				resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("Field %q is named twice in %q.", f.Name, req.ID))
				return
			}
			seen[f.ID] = true
			add(f)
		}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("field"), profileDataList(ctx, elems, &resp.Diagnostics))...)
	// The next plan warns about adopted fields the configuration does not name:
	// they would be cleared like a removed block, which an adoption should not
	// do unnoticed.
	ids := make([]int64, 0, len(elems))
	for _, e := range elems {
		ids = append(ids, e.ID.ValueInt64())
	}
	raw, err := json.Marshal(ids)
	if err == nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, profileDataImportedKey, raw)...)
	}
}

// warnImportedDropped warns, in the first plan after an import, about each
// field the import adopted that no block names any more: the apply clears it.
func (r *profileDataResource) warnImportedDropped(ctx context.Context, req resource.ModifyPlanRequest, fields []zulip.CustomProfileField,
	planElems []profileDataFieldModel, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Private == nil {
		return
	}
	raw, diags := req.Private.GetKey(ctx, profileDataImportedKey)
	resp.Diagnostics.Append(diags...)
	var imported []int64
	if len(raw) == 0 || json.Unmarshal(raw, &imported) != nil {
		return
	}
	named := map[int64]bool{}
	for _, e := range planElems {
		if kit.Known(e.ID) {
			named[e.ID.ValueInt64()] = true
		}
	}
	for _, id := range imported {
		f, ok := profileFieldByID(fields, id)
		if !ok || named[id] {
			continue
		}
		resp.Diagnostics.AddAttributeWarning(path.Root("field"), "Imported Field Will Be Cleared",
			fmt.Sprintf("Field %q (id %d), which an import adopted, is named by no field block, so this apply clears "+
				"the account's value, as removing a block does. To leave the value alone, import only the fields the "+
				"configuration names (for example %q rather than \"*\"), or add a block for it.", f.Name, f.ID,
				profileDataImportIDFor(fields, planElems)))
	}
}

// profileDataImportIDFor is the import id that names exactly the planned fields.
func profileDataImportIDFor(fields []zulip.CustomProfileField, elems []profileDataFieldModel) string {
	parts := make([]string, 0, len(elems))
	for _, e := range elems {
		if f, ok := profileFieldByID(fields, e.ID.ValueInt64()); ok && kit.Known(e.ID) {
			parts = append(parts, f.Name)
		}
	}
	return strings.Join(parts, ",")
}

// checkUsers applies the server's rule for a Users field's value at plan
// time: every id names an active, non-bot user. The users are the one list
// the run reads anyway (shared with zulip_user).
func (r *profileDataResource) checkUsers(ctx context.Context, users types.List, at path.Path, diags *diag.Diagnostics) {
	if !kit.Known(users) {
		return
	}
	var ids []int64
	diags.Append(users.ElementsAs(ctx, &ids, true)...)
	verdict, err := kit.CheckUsersSeen(ctx, r.Data, func(all map[int64]zulip.User) error { return checkProfileUserIDs(all, ids) })
	if err != nil {
		tflog.Warn(ctx, "could not list users; the server will check the Users field", map[string]any{"error": err.Error()})
		return
	}
	if verdict != nil {
		diags.AddAttributeError(at, "Invalid Users Field Value", verdict.Error())
	}
}

// setPlanFields writes the field blocks back into the plan.
func (r *profileDataResource) setPlanFields(ctx context.Context, elems []profileDataFieldModel, resp *resource.ModifyPlanResponse) {
	list := profileDataList(ctx, elems, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("field"), list)...)
}

// resolve fills in the id and name of every block from the field list; a plan
// made without the server (unknown provider configuration) leaves one unknown.
func (r *profileDataResource) resolve(ctx context.Context, elems []profileDataFieldModel, diags *diag.Diagnostics) {
	fields, err := profileDataFields(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Custom Profile Fields", "list the custom profile fields", kit.RoleAny, err)
		return
	}
	for i, e := range elems {
		p := path.Root("field").AtListIndex(i)
		var f zulip.CustomProfileField
		var ok bool
		if kit.Known(e.ID) {
			f, ok = profileFieldByID(fields, e.ID.ValueInt64())
			p = p.AtName("id")
		} else {
			f, ok = profileFieldByName(fields, e.Name.ValueString())
			p = p.AtName("name")
		}
		if !ok {
			diags.AddAttributeError(p, "Unknown Custom Profile Field",
				fmt.Sprintf("The field of this block (id %s, name %s) does not exist. %s", e.ID, e.Name, profileFieldList(fields)))
			continue
		}
		elems[i].ID, elems[i].Name = types.Int64Value(f.ID), types.StringValue(f.Name)
	}
}

// write sets values and clears the fields of toClear, as a write of the
// cached values (the run reads them again after it).
func (r *profileDataResource) write(ctx context.Context, set []zulip.ProfileDataItem, toClear []int64, summary string, diags *diag.Diagnostics) {
	_ = r.Data.Cache.Write(ctx, cacheProfileDataValues, func(ctx context.Context) error {
		r.send(ctx, set, toClear, summary, diags)
		return nil
	})
}

// send sets values and clears the fields of toClear. Fields to clear that no
// longer exist are skipped: their values went with them.
func (r *profileDataResource) send(ctx context.Context, set []zulip.ProfileDataItem, toClear []int64, summary string, diags *diag.Diagnostics) {
	if len(set) > 0 {
		ids := make([]int64, 0, len(set))
		for _, it := range set {
			ids = append(ids, it.ID)
		}
		tflog.Debug(ctx, "setting custom profile field values", map[string]any{"field_ids": ids})
		if err := r.Data.Client.UpdateOwnProfileData(ctx, set); err != nil {
			addProfileDataError(diags, summary, "set the account's custom profile field values", err)
			return
		}
	}
	if len(toClear) == 0 {
		return
	}
	fields, err := profileDataFields(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(diags, summary, "list the custom profile fields", kit.RoleAny, err)
		return
	}
	existing := toClear[:0:0]
	for _, id := range toClear {
		if _, ok := profileFieldByID(fields, id); ok {
			existing = append(existing, id)
		}
	}
	if len(existing) == 0 {
		return
	}
	tflog.Debug(ctx, "clearing custom profile field values", map[string]any{"field_ids": existing})
	if err := r.Data.Client.RemoveOwnProfileData(ctx, existing); err != nil && !zulip.IsNotFound(err) {
		addProfileDataError(diags, summary, "clear the account's custom profile field values", err)
	}
}

// read fills the values of m's fields from the account; gone is called when
// none of them has a value, which is what destroying the resource leaves.
func (r *profileDataResource) read(ctx context.Context, m *profileDataResourceModel, diags *diag.Diagnostics, gone func()) {
	fields, err := profileDataFields(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Custom Profile Fields", "list the custom profile fields", kit.RoleAny, err)
		return
	}
	user, err := profileDataValues(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Profile Data", "read the account's custom profile field values", kit.RoleAny, err)
		return
	}
	elems := profileDataElems(ctx, m.Field, diags)
	if diags.HasError() {
		return
	}
	found := false
	for i := range elems {
		if profileDataFromAPI(ctx, fields, user, &elems[i], diags) {
			found = true
		}
	}
	if diags.HasError() {
		return
	}
	if !found {
		gone()
		return
	}
	m.ID = types.StringValue(strconv.FormatInt(user.UserID, 10))
	m.Field = profileDataList(ctx, elems, diags)
}

// addProfileDataError reports a failed write, with the likely causes of a
// refusal that plan-time checks could not see.
func addProfileDataError(diags *diag.Diagnostics, summary, action string, err error) {
	if kit.IsClientError(err) && !zulip.IsUnauthorized(err) && !zulip.IsRateLimited(err) {
		diags.AddError(summary, fmt.Sprintf("The provider could not %s. Zulip refuses values that do not suit the field's "+
			"type, fields that are not editable by users (unless the account is an administrator), and any profile data "+
			"from bots. Server said: %s", action, err))
		return
	}
	kit.AddAPIError(diags, summary, action, kit.RoleAny, err)
}

// profileDataElems converts the field list into its blocks.
func profileDataElems(ctx context.Context, list types.List, diags *diag.Diagnostics) []profileDataFieldModel {
	if !kit.Known(list) {
		return nil
	}
	var elems []profileDataFieldModel
	diags.Append(list.ElementsAs(ctx, &elems, false)...)
	return elems
}

// profileDataList converts blocks into the field list.
func profileDataList(ctx context.Context, elems []profileDataFieldModel, diags *diag.Diagnostics) types.List {
	list, d := types.ListValueFrom(ctx, profileDataFieldType, elems)
	diags.Append(d...)
	return list
}

// profileDataToAPI builds the values to set: every block, or with prior state
// only the blocks whose value is new or changed.
func profileDataToAPI(ctx context.Context, elems, prior []profileDataFieldModel, diags *diag.Diagnostics) []zulip.ProfileDataItem {
	was := map[int64]profileDataFieldModel{}
	for _, e := range prior {
		if kit.Known(e.ID) {
			was[e.ID.ValueInt64()] = e
		}
	}
	var items []zulip.ProfileDataItem
	for _, e := range elems {
		if p, ok := was[e.ID.ValueInt64()]; ok && p.Value.Equal(e.Value) && p.Users.Equal(e.Users) {
			continue
		}
		item := zulip.ProfileDataItem{ID: e.ID.ValueInt64()}
		if !e.Users.IsNull() {
			var ids []int64
			diags.Append(e.Users.ElementsAs(ctx, &ids, false)...)
			item.Value = zulip.ProfileUserIDs(ids...)
		} else {
			item.Value = zulip.ProfileText(e.Value.ValueString())
		}
		items = append(items, item)
	}
	return items
}

// profileDataFromAPI fills one block from the account's values and reports
// whether the field has a value. The field is found by id, or by name right
// after an import by name; a field that no longer exists has no value.
func profileDataFromAPI(ctx context.Context, fields []zulip.CustomProfileField, user *zulip.User, e *profileDataFieldModel, diags *diag.Diagnostics) bool {
	var f zulip.CustomProfileField
	var ok bool
	if kit.Known(e.ID) {
		f, ok = profileFieldByID(fields, e.ID.ValueInt64())
	} else if kit.Known(e.Name) {
		f, ok = profileFieldByName(fields, e.Name.ValueString())
	}
	e.Value, e.Users = types.StringNull(), types.ListNull(types.Int64Type)
	if !ok {
		return false
	}
	e.ID, e.Name = types.Int64Value(f.ID), types.StringValue(f.Name)
	v, ok := user.ProfileValueFor(f.ID)
	if !ok {
		return false
	}
	if f.Type != zulip.ProfileFieldUser {
		e.Value = types.StringValue(v.Value)
		return true
	}
	ids, err := profileUsersFromAPI(f, v.Value)
	if err != nil {
		diags.AddError("Unexpected Profile Data", err.Error())
		return false
	}
	list, d := types.ListValueFrom(ctx, types.Int64Type, ids)
	diags.Append(d...)
	e.Users = list
	return true
}
