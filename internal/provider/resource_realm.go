package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.Resource                = (*realmResource)(nil)
	_ resource.ResourceWithConfigure   = (*realmResource)(nil)
	_ resource.ResourceWithImportState = (*realmResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*realmResource)(nil)
)

// NewRealmResource returns the zulip_realm resource.
func NewRealmResource() resource.Resource {
	return &realmResource{resourceBase: resourceBase{name: "realm"}, table: realmTable}
}

// NewRealmUserDefaultsResource returns the zulip_realm_user_defaults resource.
func NewRealmUserDefaultsResource() resource.Resource {
	return &realmResource{resourceBase: resourceBase{name: "realm_user_defaults"}, table: userDefaultsTable}
}

// realmResource manages a table of the organization's settings: the ones its
// configuration sets, and no others. Its schema, reading and writing are
// loops over one of internal/realmspec's tables, which describe each setting
// once.
type realmResource struct {
	resourceBase
	table *settingsTable
}

// settingsTable is one of internal/realmspec's tables with the endpoints
// that read and change it.
type settingsTable struct {
	specs []realmspec.Setting
	// what names the settings in messages ("Organization Settings").
	what        string
	description string
	// cacheKey is the cache key of the register snapshot holding them.
	cacheKey  string
	fetchType string
	// value finds a setting in the snapshot.
	value func(snap *zulip.RegisterResponse, name string) (json.RawMessage, bool)
	// update sends changed settings.
	update func(c *zulip.Client, ctx context.Context, values map[string]any) error
	// level is the feature level of the endpoint (0: every supported server).
	level int
}

// realmTable is the organization's settings (PATCH /realm).
var realmTable = &settingsTable{
	specs: realmspec.Settings, what: "Organization Settings", cacheKey: cacheRealm, fetchType: zulip.EventTypeRealm,
	value:  (*zulip.RegisterResponse).RealmSetting,
	update: (*zulip.Client).UpdateRealm,
	description: "The organization's own settings (`PATCH /realm`). Only the attributes set in the " +
		"configuration are managed: the others show the organization's current values and are never changed, " +
		"so a configuration may set three settings or all of them. Changing settings needs an administrator; " +
		"some need an owner, as each says, and the plan refuses them for another role. There is one organization " +
		"per provider: declare this resource once. Destroying it leaves the organization's settings as they are " +
		"(Zulip has no defaults to go back to).",
}

// cacheUserDefaults is the cache key of the defaults for new users.
const cacheUserDefaults = "realm_user_settings_defaults"

// userDefaultsTable is the settings new users get (PATCH /realm/user_settings_defaults).
var userDefaultsTable = &settingsTable{
	specs: realmspec.UserDefaults, what: "Default Settings for New Users", cacheKey: cacheUserDefaults,
	fetchType: zulip.EventTypeRealmUserSettingsDefaults, level: 95,
	value:  (*zulip.RegisterResponse).UserDefault,
	update: (*zulip.Client).UpdateRealmUserDefaults,
	description: "The settings new users of the organization get (`PATCH /realm/user_settings_defaults`): " +
		"display, notifications and privacy. They apply **to new users only**; existing users keep their own. " +
		"Only the attributes set in the configuration are managed: the others show the organization's current " +
		"defaults and are never changed. Changing them needs an administrator. Declare this resource once. " +
		"Destroying it leaves the defaults as they are. Needs Zulip feature level 95 (Zulip 5.0) or newer.",
}

// snapshot reads the table's register snapshot, once per run (a change
// forgets it).
func (t *settingsTable) snapshot(ctx context.Context, d *providerData) (*zulip.RegisterResponse, error) {
	return cachedAs(ctx, d.cache, t.cacheKey, func(ctx context.Context) (*zulip.RegisterResponse, error) {
		return d.client.FetchState(ctx, t.fetchType)
	})
}

var (
	// limitPattern matches a limit in seconds or days.
	limitPattern = regexp.MustCompile(`^(unlimited|[1-9][0-9]*)$`)
	// languagePattern matches a language code as Zulip spells them (en, pt_BR, zh_Hans).
	languagePattern = regexp.MustCompile(`^[a-z]{2,3}(_[A-Za-z]{2,4})?$`)
	// jitsiPattern matches a Jitsi server setting.
	jitsiPattern = regexp.MustCompile(`^(server_default|https?://[^\s]+)$`)
)

// Schema describes the resource.
func (r *realmResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The organization's URL.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
	}
	for _, sp := range r.table.specs {
		attrs[sp.Name] = realmAttribute(sp)
	}
	resp.Schema = schema.Schema{MarkdownDescription: r.table.description, Attributes: attrs}
}

// realmAttribute is the schema of one setting: optional and computed, so that
// a setting the configuration leaves out keeps the organization's value.
func realmAttribute(sp realmspec.Setting) schema.Attribute {
	desc := realmAttributeDescription(sp)
	switch sp.Kind {
	case realmspec.Bool:
		return schema.BoolAttribute{Optional: true, Computed: true, MarkdownDescription: desc,
			PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}}
	case realmspec.Count, realmspec.Channel:
		least := int64(0)
		if sp.Kind == realmspec.Channel {
			least = -1
		}
		return schema.Int64Attribute{Optional: true, Computed: true, MarkdownDescription: desc,
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			Validators:    []validator.Int64{int64validator.AtLeast(least)}}
	case realmspec.Permission:
		return permissionAttribute(permissionSetting{name: sp.Name, level: sp.FL,
			what: strings.TrimSuffix(strings.TrimPrefix(sp.Description, "Who can "), ".")})
	case realmspec.AuthMethods:
		return schema.MapAttribute{ElementType: types.BoolType, Optional: true, Computed: true, MarkdownDescription: desc,
			PlanModifiers: []planmodifier.Map{mapplanmodifier.UseStateForUnknown()}}
	}
	var v []validator.String
	switch sp.Kind {
	case realmspec.Text:
		if sp.MaxLength > 0 {
			v = append(v, stringvalidator.LengthAtMost(sp.MaxLength))
		}
	case realmspec.Language:
		v = append(v, stringvalidator.RegexMatches(languagePattern, "must be a language code, such as en, de or pt_BR"))
	case realmspec.IntEnum, realmspec.StringEnum:
		v = append(v, stringvalidator.OneOf(realmValueNames(sp)...))
	case realmspec.Limit, realmspec.Retention:
		v = append(v, stringvalidator.RegexMatches(limitPattern, `must be "unlimited" or a positive whole number`))
	case realmspec.JitsiURL:
		v = append(v, stringvalidator.RegexMatches(jitsiPattern, `must be "server_default" or an http(s) URL`))
	}
	return schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: desc, Validators: v,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

// realmAttributeDescription is a setting's documentation: the table's
// sentence, its values, and what changing it needs.
func realmAttributeDescription(sp realmspec.Setting) string {
	desc := sp.Description
	switch sp.Kind {
	case realmspec.IntEnum, realmspec.StringEnum:
		desc += " One of " + quoteAllCode(realmValueNames(sp)) + "."
	case realmspec.Limit:
		desc += " `unlimited` or a number of seconds."
	case realmspec.Retention:
		desc += " `unlimited` or a number of days."
	case realmspec.Text:
		if sp.MaxLength > 0 {
			desc += fmt.Sprintf(" At most %d characters.", sp.MaxLength)
		}
	}
	if sp.Owner {
		desc += " Changing it needs an organization owner."
	}
	if sp.PlanLimited {
		desc += " Zulip Cloud's free plan refuses it."
	}
	if sp.FL > 0 {
		desc += fmt.Sprintf(" Needs Zulip feature level %d (%s) or newer.", sp.FL, zulipVersionOf(sp.FL))
	}
	return desc + " Managed only when set."
}

// quoteAllCode formats names as code, joined.
func quoteAllCode(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}

// realmValueNames are an enumerated setting's names.
func realmValueNames(sp realmspec.Setting) []string {
	names := make([]string, len(sp.Values))
	for i, v := range sp.Values {
		names[i] = v.Name
	}
	return names
}

// realmNull is a setting's null value, of its Terraform type.
func realmNull(sp realmspec.Setting) attr.Value {
	switch sp.Kind {
	case realmspec.Bool:
		return types.BoolNull()
	case realmspec.Count, realmspec.Channel:
		return types.Int64Null()
	case realmspec.Permission:
		return types.ObjectNull(permissionAttrTypes)
	case realmspec.AuthMethods:
		return types.MapNull(types.BoolType)
	}
	return types.StringNull()
}

// realmGet reads one setting from a plan, state or configuration.
func realmGet(ctx context.Context, get func(context.Context, path.Path, any) diag.Diagnostics, sp realmspec.Setting) (attr.Value, diag.Diagnostics) {
	at := path.Root(sp.Name)
	switch sp.Kind {
	case realmspec.Bool:
		var v types.Bool
		d := get(ctx, at, &v)
		return v, d
	case realmspec.Count, realmspec.Channel:
		var v types.Int64
		d := get(ctx, at, &v)
		return v, d
	case realmspec.Permission:
		var v types.Object
		d := get(ctx, at, &v)
		return v, d
	case realmspec.AuthMethods:
		var v types.Map
		d := get(ctx, at, &v)
		return v, d
	}
	var v types.String
	d := get(ctx, at, &v)
	return v, d
}

// realmFromAPI is a setting's Terraform value from the register snapshot;
// null when the server predates it.
func realmFromAPI(sp realmspec.Setting, raw json.RawMessage, ok bool, dir groupDirectory) (attr.Value, error) {
	if !ok {
		return realmNull(sp), nil
	}
	isNull := string(raw) == "null"
	var err error
	switch sp.Kind {
	case realmspec.Bool:
		var b bool
		err = json.Unmarshal(raw, &b)
		return types.BoolValue(b), err
	case realmspec.Count, realmspec.Channel:
		var n int64
		err = json.Unmarshal(raw, &n)
		return types.Int64Value(n), err
	case realmspec.Permission:
		var v zulip.GroupSettingValue
		if err = json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
		return permissionFromAPI(&v, dir), nil
	case realmspec.AuthMethods:
		methods, err := authMethodsFromAPI(raw)
		if err != nil {
			return nil, err
		}
		elems := make(map[string]attr.Value, len(methods))
		for name, m := range methods {
			elems[name] = types.BoolValue(m.Enabled)
		}
		return types.MapValueMust(types.BoolType, elems), nil
	case realmspec.IntEnum:
		var n int
		err = json.Unmarshal(raw, &n)
		for _, v := range sp.Values {
			if v.Code == n {
				return types.StringValue(v.Name), err
			}
		}
		return types.StringValue(strconv.Itoa(n)), err // a value newer than this provider
	case realmspec.StringEnum:
		var s string
		err = json.Unmarshal(raw, &s)
		for _, v := range sp.Values {
			if v.WireString() == s {
				return types.StringValue(v.Name), err
			}
		}
		return types.StringValue(s), err
	case realmspec.Limit, realmspec.Retention:
		var n int64
		if !isNull {
			err = json.Unmarshal(raw, &n)
		}
		if isNull || n < 0 {
			return types.StringValue("unlimited"), err
		}
		return types.StringValue(strconv.FormatInt(n, 10)), err
	case realmspec.JitsiURL:
		if isNull {
			return types.StringValue("server_default"), nil
		}
	}
	var s string
	err = json.Unmarshal(raw, &s)
	return types.StringValue(s), err
}

// authMethod is one authentication method as the register snapshot gives it.
type authMethod struct {
	Enabled           bool   `json:"enabled"`
	Available         bool   `json:"available"`
	UnavailableReason string `json:"unavailable_reason"`
}

// authMethodsFromAPI decodes realm_authentication_methods: a method's entry is
// {enabled, available, unavailable_reason} from feature level 243 and a bare
// boolean before.
func authMethodsFromAPI(raw json.RawMessage) (map[string]authMethod, error) {
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, err
	}
	out := make(map[string]authMethod, len(entries))
	for name, e := range entries {
		var m authMethod
		if err := json.Unmarshal(e, &m); err != nil {
			m = authMethod{Available: true}
			if err := json.Unmarshal(e, &m.Enabled); err != nil {
				return nil, fmt.Errorf("method %s: %w", name, err)
			}
		}
		out[name] = m
	}
	return out, nil
}

// realmToAPI is the value UpdateRealm sends for a planned setting; prior is
// the value Terraform last read (a permission's expected old value).
func realmToAPI(ctx context.Context, sp realmspec.Setting, planned, prior attr.Value, dir groupDirectory) (any, error) {
	switch v := planned.(type) {
	case types.Bool:
		return v.ValueBool(), nil
	case types.Int64:
		return v.ValueInt64(), nil
	case types.Object:
		p, _ := prior.(types.Object)
		return permissionChange(ctx, v, p, dir)
	case types.Map:
		methods := map[string]bool{}
		for name, e := range v.Elements() {
			if b, ok := e.(types.Bool); ok && known(b) {
				methods[name] = b.ValueBool()
			}
		}
		return methods, nil
	case types.String:
		s := v.ValueString()
		switch sp.Kind {
		case realmspec.IntEnum:
			for _, x := range sp.Values {
				if x.Name == s {
					return int64(x.Code), nil
				}
			}
			return nil, fmt.Errorf("%s: unknown value %q", sp.Name, s)
		case realmspec.StringEnum:
			for _, x := range sp.Values {
				if x.Name == s {
					return x.WireString(), nil
				}
			}
			return nil, fmt.Errorf("%s: unknown value %q", sp.Name, s)
		case realmspec.Limit, realmspec.Retention:
			if s == "unlimited" {
				return s, nil
			}
			return strconv.ParseInt(s, 10, 64)
		}
		return s, nil
	}
	return nil, fmt.Errorf("%s: unexpected value %T", sp.Name, planned)
}

// ModifyPlan refuses at plan what the server would refuse: a setting the
// server's feature level lacks, an owner's setting for another role, a
// permission value the setting does not accept. Destroying warns that the
// organization keeps its settings.
func (r *realmResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		resp.Diagnostics.AddWarning(r.table.what+" Are Kept",
			"Destroying this resource only stops managing the settings: Zulip keeps them as they are.")
		return
	}
	if unchanged(req) || !r.data.knowsServer() {
		return
	}
	if err := r.data.requireFeatureLevel(r.table.level, "zulip_"+r.name); err != nil {
		resp.Diagnostics.AddError("Zulip Server Too Old", err.Error())
		return
	}
	changing := false
	for _, sp := range r.table.specs {
		cfg, d := realmGet(ctx, req.Config.GetAttribute, sp)
		resp.Diagnostics.Append(d...)
		if cfg.IsNull() {
			continue
		}
		planned, d := realmGet(ctx, req.Plan.GetAttribute, sp)
		resp.Diagnostics.Append(d...)
		prior := realmNull(sp)
		if !req.State.Raw.IsNull() {
			prior, d = realmGet(ctx, req.State.GetAttribute, sp)
			resp.Diagnostics.Append(d...)
		}
		if planned.Equal(prior) {
			continue
		}
		at := path.Root(sp.Name)
		if err := r.data.requireFeatureLevel(sp.FL, sp.Name); err != nil {
			resp.Diagnostics.AddAttributeError(at, "Zulip Server Too Old", err.Error())
			continue
		}
		changing = true
		r.checkPlanLimit(ctx, at, sp, planned, &resp.Diagnostics)
		if sp.Owner {
			r.data.requireRole(ctx, roleOwner, "Changing the organization's "+sp.Name, at, &resp.Diagnostics)
		}
		if o, ok := planned.(types.Object); ok {
			r.data.checkPermissionSetting(ctx, at, permissionOfRealm, sp.Name, o, &resp.Diagnostics)
		}
		if m, ok := planned.(types.Map); ok && sp.Kind == realmspec.AuthMethods {
			r.checkAuthMethods(ctx, at, m, &resp.Diagnostics)
		}
	}
	if changing {
		r.data.requireRole(ctx, roleAdministrator, "Changing the "+strings.ToLower(r.table.what), path.Empty(), &resp.Diagnostics)
	}
}

// Plan types of Zulip Cloud that limit settings (Realm.PLAN_TYPE_*).
const (
	planLimited    = 2
	planSelfHosted = 1
	planPlus       = 10
)

// checkPlanLimit refuses at plan, with Zulip's words, a setting the
// organization's Zulip Cloud plan does not allow (ensure_not_on_limited_plan,
// can_enable_restricted_user_access_for_guests).
func (r *realmResource) checkPlanLimit(ctx context.Context, at path.Path, sp realmspec.Setting, planned attr.Value, diags *diag.Diagnostics) {
	if r.table != realmTable || !r.data.hasCreds {
		return
	}
	snap, err := r.table.snapshot(ctx, r.data)
	if err != nil || snap.RealmPlanType == 0 {
		return
	}
	plan := snap.RealmPlanType
	switch {
	case sp.Name == "enable_spectator_access":
		if b, ok := planned.(types.Bool); ok && b.ValueBool() && plan == planLimited {
			diags.AddAttributeError(at, "Not Available on This Plan", "Available on Zulip Cloud Standard. Upgrade to access.")
		}
	case sp.PlanLimited && plan == planLimited:
		diags.AddAttributeError(at, "Not Available on This Plan", "Available on Zulip Cloud Standard. Upgrade to access.")
	case sp.Name == "can_access_all_users_group" && plan != planPlus && plan != planSelfHosted:
		diags.AddAttributeError(at, "Not Available on This Plan", "Available on Zulip Cloud Plus. Upgrade to access.")
	}
}

// checkAuthMethods refuses at plan what update_realm refuses: a method the
// server lacks (naming the ones it has), enabling one the plan lacks (with
// the server's reason), and leaving no method enabled.
func (r *realmResource) checkAuthMethods(ctx context.Context, at path.Path, planned types.Map, diags *diag.Diagnostics) {
	if !r.data.hasCreds {
		return
	}
	snap, err := r.table.snapshot(ctx, r.data)
	if err != nil {
		return // the apply will say
	}
	raw, ok := r.table.value(snap, "authentication_methods")
	if !ok {
		return
	}
	server, err := authMethodsFromAPI(raw)
	if err != nil {
		return
	}
	enabled := map[string]bool{}
	for name, m := range server {
		enabled[name] = m.Enabled
	}
	names := make([]string, 0, len(server))
	for name := range server {
		names = append(names, name)
	}
	slices.Sort(names)
	for name, e := range planned.Elements() {
		b, isBool := e.(types.Bool)
		if !isBool || !known(b) {
			return // unknown parts: checked when known
		}
		m, exists := server[name]
		switch {
		case !exists:
			diags.AddAttributeError(at, "Unknown Authentication Method",
				fmt.Sprintf("The server has no authentication method %q. Its methods are: %s.", name, strings.Join(names, ", ")))
			continue
		case b.ValueBool() && !m.Enabled && !m.Available:
			diags.AddAttributeError(at, "Authentication Method Not Available",
				fmt.Sprintf("%s cannot be enabled: %s", name, m.UnavailableReason))
		}
		enabled[name] = b.ValueBool()
	}
	if !slices.Contains(slices.Collect(maps.Values(enabled)), true) {
		diags.AddAttributeError(at, "No Authentication Method Left",
			"At least one authentication method must be enabled: with this configuration, nobody could log in.")
	}
}

// Create adopts the organization and sets the configured settings that
// differ from its current ones.
func (r *realmResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if !r.data.ready(&resp.Diagnostics) {
		return
	}
	current, ok := r.read(ctx, &resp.Diagnostics)
	if !ok {
		return
	}
	r.apply(ctx, req.Config, req.Plan, func(sp realmspec.Setting) (attr.Value, diag.Diagnostics) {
		return current[sp.Name], nil
	}, &resp.State, &resp.Diagnostics)
}

// Update sets the configured settings that changed.
func (r *realmResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if !r.data.ready(&resp.Diagnostics) {
		return
	}
	r.apply(ctx, req.Config, req.Plan, func(sp realmspec.Setting) (attr.Value, diag.Diagnostics) {
		return realmGet(ctx, req.State.GetAttribute, sp)
	}, &resp.State, &resp.Diagnostics)
}

// apply sends one PATCH /realm with every configured setting whose plan
// differs from prior, then stores the organization's settings as read back.
func (r *realmResource) apply(ctx context.Context, config tfsdk.Config, plan tfsdk.Plan, prior func(realmspec.Setting) (attr.Value, diag.Diagnostics), state *tfsdk.State, diags *diag.Diagnostics) {
	summary := "Unable to Change " + r.table.what
	dir, err := r.data.groups(ctx)
	if err != nil {
		addAPIError(diags, summary, "list the user groups", roleAny, err)
		return
	}
	values := map[string]any{}
	var names []string
	for _, sp := range r.table.specs {
		cfg, d := realmGet(ctx, config.GetAttribute, sp)
		diags.Append(d...)
		if cfg.IsNull() {
			continue
		}
		planned, d := realmGet(ctx, plan.GetAttribute, sp)
		diags.Append(d...)
		before, d := prior(sp)
		diags.Append(d...)
		if planned.IsUnknown() || planned.Equal(before) {
			continue
		}
		v, err := realmToAPI(ctx, sp, planned, before, dir)
		if err != nil {
			diags.AddAttributeError(path.Root(sp.Name), summary, err.Error())
			return
		}
		if v != nil {
			values[sp.Name] = v
			names = append(names, sp.Name)
		}
	}
	if diags.HasError() {
		return
	}
	if len(values) > 0 {
		err := r.table.update(r.data.client, ctx, values)
		r.data.cache.invalidate(r.table.cacheKey)
		switch {
		case zulip.IsExpectationMismatch(err):
			diags.AddError(r.table.what+" Changed Since the Plan",
				"A permission of the organization changed after Terraform read it, so Zulip refused to overwrite it (the "+
					"provider sends the value it planned from as the expected old value). Run terraform plan again to see "+
					"the change, then apply. Server said: "+err.Error())
			return
		case err != nil:
			addAPIError(diags, summary, "change "+strings.Join(names, ", "), roleAdministrator, err)
			return
		}
	}
	current, ok := r.read(ctx, diags)
	if !ok {
		return
	}
	r.keepManagedKeys(ctx, current, plan.GetAttribute, diags)
	r.store(ctx, current, state, diags)
}

// keepManagedKeys narrows map settings (the authentication methods) to the
// keys the prior value names: only those are managed, and the others would
// read as a change. A prior value that is null or unknown (an import, a
// configuration that leaves the setting out) keeps every key.
func (r *realmResource) keepManagedKeys(ctx context.Context, current map[string]attr.Value, get func(context.Context, path.Path, any) diag.Diagnostics, diags *diag.Diagnostics) {
	for _, sp := range r.table.specs {
		if sp.Kind != realmspec.AuthMethods {
			continue
		}
		prior, d := realmGet(ctx, get, sp)
		diags.Append(d...)
		pm, ok := prior.(types.Map)
		cm, ok2 := current[sp.Name].(types.Map)
		if !ok || !ok2 || !known(pm) || !known(cm) {
			continue
		}
		kept := map[string]attr.Value{}
		for name := range pm.Elements() {
			if v, ok := cm.Elements()[name]; ok {
				kept[name] = v
			}
		}
		current[sp.Name] = types.MapValueMust(types.BoolType, kept)
	}
}

// read returns the table's settings as Terraform values, by name.
func (r *realmResource) read(ctx context.Context, diags *diag.Diagnostics) (map[string]attr.Value, bool) {
	return readSettings(ctx, r.data, r.table, diags)
}

// readSettings returns a table's settings as Terraform values, by name, from
// the register snapshot the run reads once.
func readSettings(ctx context.Context, d *providerData, t *settingsTable, diags *diag.Diagnostics) (map[string]attr.Value, bool) {
	summary := "Unable to Read " + t.what
	snap, err := t.snapshot(ctx, d)
	if err != nil {
		addAPIError(diags, summary, "read the settings through POST /register", roleAny, err)
		return nil, false
	}
	dir, err := d.groups(ctx)
	if err != nil {
		addAPIError(diags, summary, "list the user groups", roleAny, err)
		return nil, false
	}
	out := make(map[string]attr.Value, len(t.specs))
	for _, sp := range t.specs {
		raw, ok := t.value(snap, sp.Name)
		v, err := realmFromAPI(sp, raw, ok, dir)
		if err != nil {
			diags.AddError(summary, fmt.Sprintf("%s: the server's value %s: %v", sp.Name, raw, err))
			return nil, false
		}
		out[sp.Name] = v
	}
	return out, true
}

// store writes the settings and the organization's URL into state.
func (r *realmResource) store(ctx context.Context, current map[string]attr.Value, state *tfsdk.State, diags *diag.Diagnostics) {
	storeRealm(ctx, r.data, current, state, diags)
}

// storeRealm writes the settings and the organization's URL into a resource's
// or data source's state.
func storeRealm(ctx context.Context, d *providerData, current map[string]attr.Value, state *tfsdk.State, diags *diag.Diagnostics) {
	diags.Append(state.SetAttribute(ctx, path.Root("id"), realmURL(d.client))...)
	names := make([]string, 0, len(current))
	for name := range current {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		diags.Append(state.SetAttribute(ctx, path.Root(name), current[name])...)
	}
}

// realmURL is the organization's URL: the API base without /api/v1/.
func realmURL(c *zulip.Client) string {
	return strings.TrimSuffix(strings.TrimSuffix(c.BaseURL(), "/"), "/api/v1")
}

// Read refreshes every setting: the organization has no other way to be gone.
func (r *realmResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if !r.data.ready(&resp.Diagnostics) {
		return
	}
	current, ok := r.read(ctx, &resp.Diagnostics)
	if !ok {
		return
	}
	r.keepManagedKeys(ctx, current, req.State.GetAttribute, &resp.Diagnostics)
	r.store(ctx, current, &resp.State, &resp.Diagnostics)
}

// Delete leaves the organization's settings as they are (ModifyPlan says so).
func (r *realmResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// ImportState adopts the organization: any id works (its URL reads best);
// Read fills every setting.
func (r *realmResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}
