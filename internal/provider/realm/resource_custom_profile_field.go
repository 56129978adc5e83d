package realm

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState    = (*profileFieldResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*profileFieldResource)(nil)
	_ resource.ResourceWithValidateConfig = (*profileFieldResource)(nil)
)

// Feature levels of custom profile field attributes.
const (
	featureProfileSummary  = 146
	featureProfileRequired = 244
	featureProfileEditable = 296
	featureProfileMatching = 455
	featureProfilePronouns = 151
)

// maxProfileSummaryFields is CustomProfileField.MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS.
const maxProfileSummaryFields = 2

// profileFieldTypes are the field types by the names Terraform uses: the
// data source's (customProfileFieldTypeKeys), so that its output can feed
// this resource.
var profileFieldTypes = func() map[string]int {
	m := make(map[string]int, len(customProfileFieldTypeKeys))
	for t, name := range customProfileFieldTypeKeys {
		m[name] = t
	}
	return m
}()

// NewCustomProfileFieldResource returns the zulip_custom_profile_field resource.
func NewCustomProfileFieldResource() resource.Resource {
	return &profileFieldResource{ObjectResource: kit.ObjectResourceOf(&profileFields)}
}

// profileFieldResource manages one custom profile field definition.
type profileFieldResource struct {
	kit.ObjectResource[profileFieldModel, zulip.CustomProfileField]
}

// profileFieldModel is the zulip_custom_profile_field state.
type profileFieldModel struct {
	ID                      types.String `tfsdk:"id"`
	Name                    types.String `tfsdk:"name"`
	Hint                    types.String `tfsdk:"hint"`
	Type                    types.String `tfsdk:"type"`
	Options                 types.List   `tfsdk:"options"`
	ExternalAccountSubtype  types.String `tfsdk:"external_account_subtype"`
	URLPattern              types.String `tfsdk:"url_pattern"`
	DisplayInProfileSummary types.Bool   `tfsdk:"display_in_profile_summary"`
	Required                types.Bool   `tfsdk:"required"`
	EditableByUser          types.Bool   `tfsdk:"editable_by_user"`
	UseForUserMatching      types.Bool   `tfsdk:"use_for_user_matching"`
}

// profileOptionModel is one choice of a select field.
type profileOptionModel struct {
	Key  types.String `tfsdk:"key"`
	Text types.String `tfsdk:"text"`
}

// profileOptionAttrTypes are the attribute types of a choice.
var profileOptionAttrTypes = map[string]attr.Type{"key": types.StringType, "text": types.StringType}

// Schema describes the resource.
func (r *profileFieldResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	names := make([]string, 0, len(profileFieldTypes))
	for n := range profileFieldTypes {
		names = append(names, n)
	}
	slices.Sort(names)
	optBool := func(desc string) schema.BoolAttribute {
		return schema.BoolAttribute{Optional: true, Computed: true, MarkdownDescription: desc + " Managed only when set.",
			PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}}
	}
	optString := func(desc string, v ...validator.String) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: desc, Validators: v,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A custom profile field of the organization: a question every user's profile can answer. " +
			"Destroying it **deletes the field and every user's answer**, as Zulip does. Its type cannot change: a new " +
			"type replaces the field, which deletes every answer too, and the plan says so (with how many users " +
			"answered); answers that `zulip_user` or `zulip_profile_data` give the field by its id are set on the new " +
			"field in the same apply. Removing a select option " +
			"deletes the answers that chose it; the plan says how many users hold it. At most two fields are shown in " +
			"the profile summary. Needs an organization administrator. Import by name or id.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableString("The field's id."),
			"name": optString("The field's label, at most 40 characters. Required, except for an external account field "+
				"of a built-in subtype, whose label Zulip sets.", stringvalidator.LengthBetween(1, 40)),
			"hint": optString("The help text under the field, at most 80 characters (empty: none). Zulip sets it for "+
				"external account fields of a built-in subtype.", stringvalidator.LengthAtMost(80)),
			"type": schema.StringAttribute{Required: true, MarkdownDescription: "One of " + kit.QuoteAllCode(names) +
				". Changing it replaces the field and deletes every user's answer.",
				Validators:    []validator.String{stringvalidator.OneOf(names...)},
				PlanModifiers: kit.RequiresReplaceString()},
			"options": schema.ListNestedAttribute{
				Optional: true, MarkdownDescription: "The choices of a `select` field, in the order users see them. " +
					"A choice's `key` is what a user's answer holds: keep it when renaming a choice. Keys, and texts, are " +
					"distinct and not only whitespace, as Zulip requires (the plan checks).",
				Validators: []validator.List{listvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"key": schema.StringAttribute{Required: true, MarkdownDescription: "The choice's key, e.g. `design`.",
						Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
					"text": schema.StringAttribute{Required: true, MarkdownDescription: "The choice's text, e.g. `Design`.",
						Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
				}},
			},
			"external_account_subtype": schema.StringAttribute{Optional: true,
				MarkdownDescription: "For an `external_account` field: a built-in subtype (`github`, `gitlab`, `linkedin`, " +
					"`mastodon`, ...) or `custom` with `url_pattern`."},
			"url_pattern": schema.StringAttribute{Optional: true,
				MarkdownDescription: "For a `custom` external account: the profile URL with `%(username)s` where the answer goes."},
			"display_in_profile_summary": optBool("Whether the answer is shown in the profile summary (at most two fields)."),
			"required":                   optBool("Whether users must answer (feature level 244)."),
			"editable_by_user":           optBool("Whether users may change their own answer (feature level 296)."),
			"use_for_user_matching":      optBool("Whether the answer helps find users, e.g. when mentioning (feature level 455; short text and external account fields)."),
		},
	}
}

// ValidateConfig checks a select field's options as Zulip does
// (validate_select_field_data), without the server: a key or text that is
// only whitespace and two options of one text are refused by Zulip, and two
// options of one key would collapse into one (field_data is a JSON object
// keyed by the option key), so the apply would make a field that is not the
// configuration's.
func (r *profileFieldResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var options types.List
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("options"), &options)...)
	if resp.Diagnostics.HasError() || !kit.Known(options) {
		return
	}
	keys, texts := map[string]int{}, map[string]int{}
	for i, e := range options.Elements() {
		obj, ok := e.(types.Object)
		if !ok || !kit.Known(obj) {
			continue
		}
		var o profileOptionModel
		if obj.As(ctx, &o, basetypes.ObjectAsOptions{}).HasError() {
			continue
		}
		at := path.Root("options").AtListIndex(i)
		for _, a := range []struct {
			name  string
			value types.String
			seen  map[string]int
		}{{"key", o.Key, keys}, {"text", o.Text, texts}} {
			if !kit.Known(a.value) || a.value.ValueString() == "" {
				continue // empty: reported by the attribute's validator
			}
			v := a.value.ValueString()
			if strings.TrimFunc(v, kit.IsPythonSpace) == "" {
				resp.Diagnostics.AddAttributeError(at.AtName(a.name), "Blank Option "+kit.TitleCase(a.name),
					fmt.Sprintf("options[%d].%s is only whitespace, which Zulip refuses (\"cannot be blank\"): give the "+
						"option a %s with at least one other character.", i, a.name, a.name))
				continue
			}
			j, dup := a.seen[v]
			if !dup {
				a.seen[v] = i
				continue
			}
			if a.name == "key" {
				resp.Diagnostics.AddAttributeError(at.AtName("key"), "Duplicate Option Key",
					fmt.Sprintf("options[%d].key is %q, as options[%d].key is. Zulip keeps a select field's options by key, "+
						"so the field would be made with only one of them: give each option its own key.", i, v, j))
			} else {
				resp.Diagnostics.AddAttributeError(at.AtName("text"), "Duplicate Option Text",
					fmt.Sprintf("options[%d].text is %q, as options[%d].text is, and Zulip refuses a select field whose "+
						"options repeat a text (\"Field must not have duplicate choices.\"): give each option its own text.", i, v, j))
			}
		}
	}
}

// ModifyPlan checks what Zulip would refuse, and warns of lost answers.
func (r *profileFieldResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || kit.Unchanged(req) || !r.Data.KnowsServer() {
		return
	}
	var plan, config, prior profileFieldModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if kit.Known(plan.Name) && (req.State.Raw.IsNull() || !plan.Name.Equal(prior.Name)) {
		r.Data.NotePlannedName("zulip_custom_profile_field", plan.Name.ValueString())
	}
	r.checkShape(plan, config, prior, &resp.Diagnostics)
	r.checkLevels(plan, config, &resp.Diagnostics)
	if !req.State.Raw.IsNull() && !prior.Type.Equal(plan.Type) {
		r.warnTypeChange(ctx, plan, prior, &resp.Diagnostics)
	}
	if !r.Data.HasCreds || resp.Diagnostics.HasError() {
		return
	}
	r.checkSummaryLimit(ctx, plan, prior, &resp.Diagnostics)
	if !req.State.Raw.IsNull() && prior.Type.Equal(plan.Type) {
		r.warnRemovedOptions(ctx, plan, prior, &resp.Diagnostics)
	}
	if req.State.Raw.IsNull() && kit.Known(plan.Name) {
		r.checkLabelFree(ctx, plan, &resp.Diagnostics)
	}
}

// checkLevels checks the server's feature level for each configured setting
// that came after custom profile fields, and for a pronouns field.
func (r *profileFieldResource) checkLevels(plan, config profileFieldModel, diags *diag.Diagnostics) {
	for _, gate := range []struct {
		v     types.Bool
		level int
		name  string
	}{{config.DisplayInProfileSummary, featureProfileSummary, "display_in_profile_summary"},
		{config.Required, featureProfileRequired, "required"}, {config.EditableByUser, featureProfileEditable, "editable_by_user"},
		{config.UseForUserMatching, featureProfileMatching, "use_for_user_matching"}} {
		if !gate.v.IsNull() {
			if err := r.Data.RequireFeatureLevel(gate.level, gate.name); err != nil {
				diags.AddAttributeError(path.Root(gate.name), "Zulip Server Too Old", err.Error())
			}
		}
	}
	if plan.Type.ValueString() == "pronouns" {
		if err := r.Data.RequireFeatureLevel(featureProfilePronouns, "a pronouns field"); err != nil {
			diags.AddAttributeError(path.Root("type"), "Zulip Server Too Old", err.Error())
		}
	}
}

// warnTypeChange warns that a new type replaces the field, deleting every
// user's answer (counted when the server lets the provider count them).
func (r *profileFieldResource) warnTypeChange(ctx context.Context, plan, prior profileFieldModel, diags *diag.Diagnostics) {
	lost := "the answers of the old field are lost"
	if n, ok := r.countAnswers(ctx, prior.ID); ok {
		lost = fmt.Sprintf("the answers of the %d %s who answered it are lost", n, kit.Pluralize("user", n))
	}
	diags.AddAttributeWarning(path.Root("type"), "Field Will Be Replaced: Every Answer Is Deleted",
		fmt.Sprintf("Zulip cannot change a field's type: the field %q is deleted with every user's answer and a new "+
			"%s field is made; %s. Answers the configuration gives the new field (in zulip_user or "+
			"zulip_profile_data) are set again by this apply.", prior.Name.ValueString(), plan.Type.ValueString(), lost))
}

// checkLabelFree checks that no field has the label of a field to create.
func (r *profileFieldResource) checkLabelFree(ctx context.Context, plan profileFieldModel, diags *diag.Diagnostics) {
	req := profileFieldRequestOf(ctx, plan, diags)
	profileFieldCreation(r.Data, profileFieldTypes[plan.Type.ValueString()], req).CheckKeyFree(ctx, r.Data, path.Root("name"),
		fmt.Sprintf("the label %q", plan.Name.ValueString()), diags)
}

// checkShape checks the attributes a type takes.
func (r *profileFieldResource) checkShape(plan, config, prior profileFieldModel, diags *diag.Diagnostics) {
	typ := plan.Type.ValueString()
	sub := config.ExternalAccountSubtype.ValueString()
	builtIn := typ == "external_account" && kit.Known(config.ExternalAccountSubtype) && sub != "custom"
	checkOptionsShape(typ, config, diags)
	checkExternalAccountShape(typ, sub, builtIn, config, diags)
	checkLabels(sub, builtIn, config, prior, diags)
	checkSwitchesForType(typ, config, diags)
}

// checkOptionsShape checks that a select field, and only one, has options.
func checkOptionsShape(typ string, config profileFieldModel, diags *diag.Diagnostics) {
	switch {
	case typ == "select" && config.Options.IsNull():
		diags.AddAttributeError(path.Root("options"), "Missing Options", "A select field needs at least one option.")
	case typ != "select" && !config.Options.IsNull():
		diags.AddAttributeError(path.Root("options"), "Options Without a Select Field", "Only a select field has options.")
	}
}

// checkExternalAccountShape checks that an external account field, and only
// one, has a subtype (sub), and that a custom one, and only one, has a URL
// pattern with %(username)s.
func checkExternalAccountShape(typ, sub string, builtIn bool, config profileFieldModel, diags *diag.Diagnostics) {
	switch {
	case typ == "external_account" && config.ExternalAccountSubtype.IsNull():
		diags.AddAttributeError(path.Root("external_account_subtype"), "Missing Subtype", "An external account field needs external_account_subtype.")
	case typ != "external_account" && !config.ExternalAccountSubtype.IsNull():
		diags.AddAttributeError(path.Root("external_account_subtype"), "Subtype Without an External Account Field", "Only an external_account field has a subtype.")
	case sub == "custom" && config.URLPattern.IsNull():
		diags.AddAttributeError(path.Root("url_pattern"), "Missing URL Pattern", "A custom external account needs url_pattern, with %(username)s where the answer goes.")
	case kit.Known(config.URLPattern) && !strings.Contains(config.URLPattern.ValueString(), "%(username)s"):
		diags.AddAttributeError(path.Root("url_pattern"), "Invalid URL Pattern", "url_pattern must contain %(username)s exactly once.")
	case builtIn && !config.URLPattern.IsNull():
		diags.AddAttributeError(path.Root("url_pattern"), "URL Pattern of a Built-in Subtype", "Only a custom external account has url_pattern.")
	}
}

// checkLabels checks the name and hint. Zulip labels a field of a built-in
// subtype itself and refuses to change it: the configuration may only repeat
// what the field has (an import). Any other field needs a name.
func checkLabels(sub string, builtIn bool, config, prior profileFieldModel, diags *diag.Diagnostics) {
	for _, a := range []struct {
		name          string
		config, prior types.String
	}{{"name", config.Name, prior.Name}, {"hint", config.Hint, prior.Hint}} {
		if builtIn && !a.config.IsNull() && !a.config.Equal(a.prior) {
			diags.AddAttributeError(path.Root(a.name), "Label of a Built-in Subtype",
				fmt.Sprintf("Zulip labels a %s field itself and does not let it be changed: leave name and hint out "+
					"(or, for an imported field, keep the values it has).", sub))
		}
	}
	if !builtIn && config.Name.IsNull() {
		diags.AddAttributeError(path.Root("name"), "Missing Label", "The field needs a name.")
	}
}

// checkSwitchesForType checks the switches that only some types take: user
// matching (short text and external account fields) and the profile summary
// (not users fields).
func checkSwitchesForType(typ string, config profileFieldModel, diags *diag.Diagnostics) {
	if !config.UseForUserMatching.IsNull() && config.UseForUserMatching.ValueBool() && typ != "short_text" && typ != "external_account" {
		diags.AddAttributeError(path.Root("use_for_user_matching"), "Not a Matching Field", "Only short text and external account fields can be used for user matching.")
	}
	if kit.Known(config.DisplayInProfileSummary) && config.DisplayInProfileSummary.ValueBool() && typ == "users" {
		diags.AddAttributeError(path.Root("display_in_profile_summary"), "Not a Summary Field", "Zulip does not show users fields in the profile summary.")
	}
}

// checkSummaryLimit counts the fields shown in the profile summary: the
// server's others, and this configuration's (plan notes).
func (r *profileFieldResource) checkSummaryLimit(ctx context.Context, plan, prior profileFieldModel, diags *diag.Diagnostics) {
	if !kit.Known(plan.DisplayInProfileSummary) || !plan.DisplayInProfileSummary.ValueBool() {
		return
	}
	all, err := kit.ProfileFieldCollection(r.Data).LastSeen(ctx)
	if err != nil {
		return
	}
	names := map[string]bool{plan.Name.ValueString(): true}
	for _, f := range all {
		if f.DisplayInProfileSummary && strconv.FormatInt(f.ID, 10) != prior.ID.ValueString() {
			names[f.Name] = true
		}
	}
	for n := range r.Data.NoteInPlan("profile summary", plan.Name.ValueString()) {
		names[n] = true
	}
	if len(names) > maxProfileSummaryFields {
		list := make([]string, 0, len(names))
		for n := range names {
			list = append(list, strconv.Quote(n))
		}
		slices.Sort(list)
		diags.AddAttributeError(path.Root("display_in_profile_summary"), "Too Many Summary Fields",
			fmt.Sprintf("Zulip shows at most %d custom profile fields in the profile summary; this plan and the "+
				"organization would show %s.", maxProfileSummaryFields, strings.Join(list, ", ")))
	}
}

// countAnswers counts the users who answered the field id, from the run's
// list of users (read at most once per run, and shared with zulip_user);
// false when the provider has no credentials or the list cannot be read.
func (r *profileFieldResource) countAnswers(ctx context.Context, id types.String) (int, bool) {
	if !r.Data.HasCreds || !kit.Known(id) {
		return 0, false
	}
	users, err := kit.UsersSeen(ctx, r.Data)
	if err != nil {
		return 0, false
	}
	n := 0
	for _, u := range users {
		if _, ok := u.ProfileData[id.ValueString()]; ok {
			n++
		}
	}
	return n, true
}

// warnRemovedOptions warns when a select option users chose is removed: Zulip
// deletes their answers.
func (r *profileFieldResource) warnRemovedOptions(ctx context.Context, plan, prior profileFieldModel, diags *diag.Diagnostics) {
	if plan.Type.ValueString() != "select" || !kit.Known(plan.Options) {
		return
	}
	keep := map[string]bool{}
	for _, o := range profileOptions(ctx, plan.Options, diags) {
		keep[o.Key.ValueString()] = true
	}
	var removed []profileOptionModel
	for _, o := range profileOptions(ctx, prior.Options, diags) {
		if !keep[o.Key.ValueString()] {
			removed = append(removed, o)
		}
	}
	if len(removed) == 0 {
		return
	}
	id, _ := strconv.ParseInt(prior.ID.ValueString(), 10, 64)
	users, err := kit.UsersSeen(ctx, r.Data)
	if err != nil {
		return
	}
	for _, o := range removed {
		n := 0
		for _, u := range users {
			if v, ok := u.ProfileData[strconv.FormatInt(id, 10)]; ok && v.Value == o.Key.ValueString() {
				n++
			}
		}
		diags.AddAttributeWarning(path.Root("options"), "Answers Will Be Deleted",
			fmt.Sprintf("Removing the option %q (key %q) of %q deletes the answers of the %d users who chose it.",
				o.Text.ValueString(), o.Key.ValueString(), prior.Name.ValueString(), n))
	}
}

// profileOptions decodes a list of options.
func profileOptions(ctx context.Context, l types.List, diags *diag.Diagnostics) []profileOptionModel {
	var out []profileOptionModel
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}

// profileFieldRequestOf is the request of a planned field: every configured value.
func profileFieldRequestOf(ctx context.Context, m profileFieldModel, diags *diag.Diagnostics) zulip.ProfileFieldRequest {
	knownBool := func(b types.Bool) *bool {
		if !kit.Known(b) {
			return nil // left to the server (unset in the configuration)
		}
		return b.ValueBoolPointer()
	}
	knownString := func(s types.String) *string {
		if !kit.Known(s) {
			return nil
		}
		return s.ValueStringPointer()
	}
	req := zulip.ProfileFieldRequest{Name: knownString(m.Name), Hint: knownString(m.Hint),
		DisplayInProfileSummary: knownBool(m.DisplayInProfileSummary), Required: knownBool(m.Required),
		EditableByUser: knownBool(m.EditableByUser), UseForUserMatching: knownBool(m.UseForUserMatching)}
	if req.UseForUserMatching != nil && !*req.UseForUserMatching {
		req.UseForUserMatching = nil // false is the default, which servers before it do not know
	}
	var data any
	switch m.Type.ValueString() {
	case "select":
		choices := map[string]map[string]string{}
		for i, o := range profileOptions(ctx, m.Options, diags) {
			choices[o.Key.ValueString()] = map[string]string{"text": o.Text.ValueString(), "order": strconv.Itoa(i + 1)}
		}
		data = choices
	case "external_account":
		ext := map[string]string{"subtype": m.ExternalAccountSubtype.ValueString()}
		if kit.Known(m.URLPattern) {
			ext["url_pattern"] = m.URLPattern.ValueString()
		}
		data = ext
	}
	if data != nil {
		b, _ := json.Marshal(data)
		s := string(b)
		req.FieldData = &s
	}
	return req
}

// Create adds the field.
func (r *profileFieldResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[profileFieldModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	apiReq := profileFieldRequestOf(ctx, plan, &resp.Diagnostics)
	key, ok := profileFieldCreation(r.Data, profileFieldTypes[plan.Type.ValueString()], apiReq).Create(ctx, r.Data, &resp.Diagnostics)
	if !ok {
		return
	}
	profileFields.FinishCreate(ctx, r.Data, &plan, key, resp)
}

// Update changes the field in place (the type replaces it).
func (r *profileFieldResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	profileFields.Update(ctx, r.Data, req, resp, func(ctx context.Context, plan, state *profileFieldModel, diags *diag.Diagnostics) error {
		apiReq := profileFieldRequestOf(ctx, *plan, diags)
		if diags.HasError() {
			return nil
		}
		if plan.Name.Equal(state.Name) {
			apiReq.Name = nil // a built-in subtype's label cannot be sent back
		}
		if plan.Hint.Equal(state.Hint) {
			apiReq.Hint = nil
		}
		id, _ := strconv.ParseInt(state.ID.ValueString(), 10, 64)
		return r.Data.Client.UpdateCustomProfileField(ctx, id, apiReq)
	})
}

// profileFields is the kit's skeleton for zulip_custom_profile_field.
var profileFields = kit.Objects[profileFieldModel, zulip.CustomProfileField]{
	TypeName: "zulip_custom_profile_field", What: "custom profile field", Role: kit.RoleAdministrator,
	Coll:     kit.ProfileFieldCollection,
	Key:      func(f zulip.CustomProfileField) string { return strconv.FormatInt(f.ID, 10) },
	StateKey: func(m *profileFieldModel) string { return m.ID.ValueString() },
	SetKey:   func(m *profileFieldModel, k string) { m.ID = types.StringValue(k) },
	FromAPI:  kit.WithoutData(profileFieldFromAPI),
	ImportHint: "The organization's custom profile fields are listed in its settings, under Custom profile fields " +
		"(GET /api/v1/realm/profile_fields, or data.zulip_custom_profile_fields).",
	Remove: func(d *kit.ProviderData) func(context.Context, string) error {
		return kit.DeleteByID(d.Client.DeleteCustomProfileField)
	},
	Lookup: kit.ByNameOrID("zulip_custom_profile_field",
		func(f zulip.CustomProfileField) int64 { return f.ID }, func(f zulip.CustomProfileField) string { return f.Name }, true),
}

// profileFieldFromAPI copies a field into the model.
func profileFieldFromAPI(_ context.Context, f zulip.CustomProfileField, m *profileFieldModel, diags *diag.Diagnostics) {
	m.ID = types.StringValue(strconv.FormatInt(f.ID, 10))
	m.Name = types.StringValue(f.Name)
	m.Hint = types.StringValue(f.Hint)
	for name, t := range profileFieldTypes {
		if t == f.Type {
			m.Type = types.StringValue(name)
		}
	}
	m.DisplayInProfileSummary = types.BoolValue(f.DisplayInProfileSummary)
	m.Required = types.BoolValue(f.Required)
	m.EditableByUser = types.BoolValue(f.EditableByUser)
	m.UseForUserMatching = types.BoolValue(f.UseForUserMatching)
	m.Options = types.ListNull(types.ObjectType{AttrTypes: profileOptionAttrTypes})
	m.ExternalAccountSubtype, m.URLPattern = types.StringNull(), types.StringNull()
	switch f.Type {
	case zulip.ProfileFieldSelect:
		opts, err := f.SelectOptions()
		if err != nil {
			diags.AddError("Unable to Read Custom Profile Field", err.Error())
			return
		}
		keys := make([]string, 0, len(opts))
		for k := range opts {
			keys = append(keys, k)
		}
		order := func(k string) int { n, _ := strconv.Atoi(opts[k].Order); return n }
		slices.SortStableFunc(keys, func(a, b string) int { return order(a) - order(b) })
		elems := make([]attr.Value, len(keys))
		for i, k := range keys {
			elems[i] = types.ObjectValueMust(profileOptionAttrTypes, map[string]attr.Value{
				"key": types.StringValue(k), "text": types.StringValue(opts[k].Text)})
		}
		m.Options = types.ListValueMust(types.ObjectType{AttrTypes: profileOptionAttrTypes}, elems)
	case zulip.ProfileFieldExternalAccount:
		ext, err := f.ExternalAccount()
		if err != nil {
			diags.AddError("Unable to Read Custom Profile Field", err.Error())
			return
		}
		m.ExternalAccountSubtype = types.StringValue(ext.Subtype)
		if ext.URLPattern != "" {
			m.URLPattern = types.StringValue(ext.URLPattern)
		}
	}
}

// sameJSON compares two JSON texts by value.
func sameJSON(a, b string) bool {
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return a == b
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return string(ja) == string(jb)
}

// profileFieldCreation is the create of a field; its natural key is the label.
func profileFieldCreation(d *kit.ProviderData, fieldType int, req zulip.ProfileFieldRequest) kit.Creation[profileFieldModel, zulip.CustomProfileField] {
	name := ""
	if req.Name != nil {
		name = *req.Name
	}
	return kit.Creation[profileFieldModel, zulip.CustomProfileField]{
		Objects: profileFields,
		Send: func(ctx context.Context) (string, error) {
			id, err := d.Client.CreateCustomProfileField(ctx, fieldType, req)
			return strconv.FormatInt(id, 10), err
		},
		SameKey: func(f zulip.CustomProfileField) bool { return name != "" && strings.EqualFold(f.Name, name) },
		Matches: func(f zulip.CustomProfileField) bool {
			return f.Type == fieldType && (name == "" || f.Name == name) && (req.Hint == nil || f.Hint == *req.Hint) &&
				(req.FieldData == nil || sameJSON(f.FieldData, *req.FieldData))
		},
	}
}
