package realm

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*realmResource[realmModel, *realmModel])(nil)
	_ resource.ResourceWithModifyPlan  = (*realmResource[realmModel, *realmModel])(nil)
)

// NewRealmResource returns the zulip_realm resource.
func NewRealmResource() resource.Resource {
	return &realmResource[realmModel, *realmModel]{ResourceBase: kit.ResourceBase{Name: "realm"}, table: realmTable}
}

// NewRealmUserDefaultsResource returns the zulip_realm_user_defaults resource.
func NewRealmUserDefaultsResource() resource.Resource {
	return &realmResource[realmUserDefaultsModel, *realmUserDefaultsModel]{
		ResourceBase: kit.ResourceBase{Name: "realm_user_defaults"}, table: userDefaultsTable}
}

// settingsModel is a model that internal/cmd/gen-realm generates from one of
// internal/realmspec's tables (realm_settings_gen.go): an attribute per
// setting, with its schema, its reading from the register snapshot and its
// request.
type settingsModel[M any] interface {
	*M
	attributes() map[string]schema.Attribute
	// values are the settings in the table's order.
	values() []attr.Value
	setID(id string)
	read(get settingGetter, dir kit.GroupDirectory) error
	send(ctx context.Context, c *zulip.Client, config, prior *M, dir kit.GroupDirectory) ([]string, error)
	narrow(prior *M)
}

// realmResource manages a table of the organization's settings: the ones its
// configuration sets, and no others. The code that handles each setting is
// generated from the table (M); what every setting shares is here.
type realmResource[M any, P settingsModel[M]] struct {
	kit.ResourceBase
	table *settingsTable
}

// settingsTable is one of internal/realmspec's tables with the endpoint that
// reads it.
type settingsTable struct {
	specs []realmspec.Setting
	// what names the settings in messages ("Organization Settings").
	what        string
	description string
	fetchType   string
	// value finds a setting in the snapshot.
	value func(snap *zulip.RegisterResponse, name string) (json.RawMessage, bool)
	// level is the feature level of the endpoint (0: every supported server).
	level int
}

// realmTable is the organization's settings (PATCH /realm).
var realmTable = &settingsTable{
	specs: realmspec.Settings, what: "Organization Settings", fetchType: zulip.EventTypeRealm,
	value: (*zulip.RegisterResponse).RealmSetting,
	description: "The organization's own settings (`PATCH /realm`). Only the attributes set in the " +
		"configuration are managed: the others show the organization's current values and are never changed, " +
		"so a configuration may set three settings or all of them. Changing settings needs an administrator; " +
		"some need an owner, as each says, and the plan refuses them for another role. There is one organization " +
		"per provider: declare this resource once. Destroying it leaves the organization's settings as they are " +
		"(Zulip has no defaults to go back to).",
}

// userDefaultsTable is the settings new users get (PATCH /realm/user_settings_defaults).
var userDefaultsTable = &settingsTable{
	specs: realmspec.UserDefaults, what: "Default Settings for New Users",
	fetchType: zulip.EventTypeRealmUserSettingsDefaults, level: 95,
	value: (*zulip.RegisterResponse).UserDefault,
	description: "The settings new users of the organization get (`PATCH /realm/user_settings_defaults`): " +
		"display, notifications and privacy. They apply **to new users only**; existing users keep their own. " +
		"Only the attributes set in the configuration are managed: the others show the organization's current " +
		"defaults and are never changed. Changing them needs an administrator. Declare this resource once. " +
		"Destroying it leaves the defaults as they are. Needs Zulip feature level 95 (Zulip 5.0) or newer.",
}

// snapshot reads the table's register snapshot, once per run (a change
// forgets it).
func (t *settingsTable) snapshot(ctx context.Context, d *kit.ProviderData) (*zulip.RegisterResponse, error) {
	return kit.State(ctx, d, t.fetchType)
}

var (
	// limitPattern matches a limit in seconds or days.
	limitPattern = regexp.MustCompile(`^(unlimited|[1-9][0-9]*)$`)
	// languageValidator accepts a language code as Zulip spells them (en, pt_BR, zh_Hans).
	languageValidator = stringvalidator.RegexMatches(regexp.MustCompile(`^[a-z]{2,3}(_[A-Za-z]{2,4})?$`),
		"must be a language code, such as en, de or pt_BR")
	// limitValidator accepts a limit in seconds or days.
	limitValidator = stringvalidator.RegexMatches(limitPattern, `must be "unlimited" or a positive whole number`)
	// jitsiValidator accepts a Jitsi server setting.
	jitsiValidator = stringvalidator.RegexMatches(regexp.MustCompile(`^(server_default|https?://[^\s]+)$`),
		`must be "server_default" or an http(s) URL`)
)

// Schema describes the resource.
func (r *realmResource[M, P]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{MarkdownDescription: r.table.description, Attributes: P(new(M)).attributes()}
}

// settingGetter finds a setting in the register snapshot by its name; false
// when the server did not send it (it predates the setting).
type settingGetter func(name string) (json.RawMessage, bool)

// enumValue is one value of an enumerated setting: its name in Terraform,
// its integer code (IntEnum) or its string on the wire (StringEnum).
type enumValue struct {
	name string
	code int64
	wire string
}

// settingError names the setting a value of which could not be mapped.
func settingError(name string, err error) error { return fmt.Errorf("%s: %w", name, err) }

// fromSnapshot decodes a setting of the snapshot into T; found is false when
// the server did not send it.
func fromSnapshot[T any](get settingGetter, name string) (v T, isNull, found bool, err error) {
	raw, ok := get(name)
	if !ok {
		return v, false, false, nil
	}
	if string(raw) == "null" {
		return v, true, true, nil
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, false, true, settingError(name, fmt.Errorf("the server's value %s: %w", raw, err))
	}
	return v, false, true, nil
}

func boolFromAPI(get settingGetter, name string) (types.Bool, error) {
	b, _, ok, err := fromSnapshot[bool](get, name)
	if !ok || err != nil {
		return types.BoolNull(), err
	}
	return types.BoolValue(b), nil
}

func int64FromAPI(get settingGetter, name string) (types.Int64, error) {
	n, _, ok, err := fromSnapshot[int64](get, name)
	if !ok || err != nil {
		return types.Int64Null(), err
	}
	return types.Int64Value(n), nil
}

func textFromAPI(get settingGetter, name string) (types.String, error) {
	s, _, ok, err := fromSnapshot[string](get, name)
	if !ok || err != nil {
		return types.StringNull(), err
	}
	return types.StringValue(s), nil
}

// intEnumFromAPI names an integer code; a code newer than this provider
// shows as its number.
func intEnumFromAPI(get settingGetter, name string, values []enumValue) (types.String, error) {
	n, _, ok, err := fromSnapshot[int64](get, name)
	if !ok || err != nil {
		return types.StringNull(), err
	}
	for _, v := range values {
		if v.code == n {
			return types.StringValue(v.name), nil
		}
	}
	return types.StringValue(strconv.FormatInt(n, 10)), nil
}

// stringEnumFromAPI names a string value; one newer than this provider shows
// as it is.
func stringEnumFromAPI(get settingGetter, name string, values []enumValue) (types.String, error) {
	s, _, ok, err := fromSnapshot[string](get, name)
	if !ok || err != nil {
		return types.StringNull(), err
	}
	for _, v := range values {
		if v.wire == s {
			return types.StringValue(v.name), nil
		}
	}
	return types.StringValue(s), nil
}

// limitFromAPI reads a limit: null (Limit) or negative (Retention) is unlimited.
func limitFromAPI(get settingGetter, name string) (types.String, error) {
	n, isNull, ok, err := fromSnapshot[int64](get, name)
	switch {
	case !ok || err != nil:
		return types.StringNull(), err
	case isNull || n < 0:
		return types.StringValue("unlimited"), nil
	}
	return types.StringValue(strconv.FormatInt(n, 10)), nil
}

// jitsiFromAPI reads the Jitsi server: null is the server's default.
func jitsiFromAPI(get settingGetter, name string) (types.String, error) {
	s, isNull, ok, err := fromSnapshot[string](get, name)
	switch {
	case !ok || err != nil:
		return types.StringNull(), err
	case isNull:
		return types.StringValue("server_default"), nil
	}
	return types.StringValue(s), nil
}

func permissionFromSnapshot(get settingGetter, name string, dir kit.GroupDirectory) (types.Object, error) {
	v, _, ok, err := fromSnapshot[*zulip.GroupSettingValue](get, name)
	if !ok || err != nil {
		return types.ObjectNull(kit.PermissionAttrTypes), err
	}
	return kit.PermissionFromAPI(v, dir), nil
}

func authMethodsFromSnapshot(get settingGetter, name string) (types.Map, error) {
	raw, ok := get(name)
	if !ok {
		return types.MapNull(types.BoolType), nil
	}
	methods, err := authMethodsFromAPI(raw)
	if err != nil {
		return types.MapNull(types.BoolType), settingError(name, err)
	}
	elems := make(map[string]attr.Value, len(methods))
	for name, m := range methods {
		elems[name] = types.BoolValue(m.Enabled)
	}
	return types.MapValueMust(types.BoolType, elems), nil
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

// changed says whether a setting is sent: the configuration sets it and its
// planned value differs from the prior one.
func changed(config, planned, prior attr.Value) bool {
	return !config.IsNull() && !planned.IsUnknown() && !planned.Equal(prior)
}

func intEnumToAPI(v types.String, values []enumValue) (*int64, error) {
	for _, x := range values {
		if x.name == v.ValueString() {
			return &x.code, nil
		}
	}
	return nil, fmt.Errorf("unknown value %q", v.ValueString())
}

func stringEnumToAPI(v types.String, values []enumValue) (*string, error) {
	for _, x := range values {
		if x.name == v.ValueString() {
			return &x.wire, nil
		}
	}
	return nil, fmt.Errorf("unknown value %q", v.ValueString())
}

func limitToAPI(v types.String) (*zulip.Limit, error) {
	if v.ValueString() == "unlimited" {
		return &zulip.Limit{Unlimited: true}, nil
	}
	n, err := strconv.ParseInt(v.ValueString(), 10, 64)
	return &zulip.Limit{Value: n}, err
}

// authMethodsToAPI is the methods the map names, enabled or not.
func authMethodsToAPI(v types.Map) map[string]bool {
	methods := map[string]bool{}
	for name, e := range v.Elements() {
		if b, ok := e.(types.Bool); ok && kit.Known(b) {
			methods[name] = b.ValueBool()
		}
	}
	return methods
}

// keepKeys narrows a map setting (the authentication methods) to the keys
// prior names: only those are managed, and the others would read as a
// change. A prior value that is null or unknown (an import, a configuration
// that leaves the setting out) keeps every key.
func keepKeys(current, prior types.Map) types.Map {
	if !kit.Known(prior) || !kit.Known(current) {
		return current
	}
	kept := map[string]attr.Value{}
	for name := range prior.Elements() {
		if v, ok := current.Elements()[name]; ok {
			kept[name] = v
		}
	}
	return types.MapValueMust(types.BoolType, kept)
}

// ModifyPlan refuses at plan what the server would refuse: a setting the
// server's feature level lacks, an owner's setting for another role, a
// permission value the setting does not accept.
func (r *realmResource[M, P]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || kit.Unchanged(req) || !r.Data.KnowsServer() {
		return
	}
	if err := r.Data.RequireFeatureLevel(r.table.level, "zulip_"+r.Name); err != nil {
		resp.Diagnostics.AddError("Zulip Server Too Old", err.Error())
		return
	}
	var config, plan, state M
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	configured, planned, prior := P(&config).values(), P(&plan).values(), P(&state).values()
	changing := false
	for i, sp := range r.table.specs {
		if configured[i].IsNull() || planned[i].Equal(prior[i]) {
			continue
		}
		at := path.Root(sp.Name)
		if err := r.Data.RequireFeatureLevel(sp.FL, sp.Name); err != nil {
			resp.Diagnostics.AddAttributeError(at, "Zulip Server Too Old", err.Error())
			continue
		}
		changing = true
		r.checkChange(ctx, at, sp, planned[i], &resp.Diagnostics)
	}
	if changing {
		r.Data.RequireRole(ctx, kit.RoleAdministrator, "Changing the "+strings.ToLower(r.table.what), path.Empty(), &resp.Diagnostics)
	}
}

// checkChange checks the planned value of a setting that changes, in order:
// its limit, an owner's setting's role, a permission's value, and the
// authentication methods, channel or sound it names.
func (r *realmResource[M, P]) checkChange(ctx context.Context, at path.Path, sp realmspec.Setting, planned attr.Value, diags *diag.Diagnostics) {
	r.checkPlanLimit(ctx, at, sp, planned, diags)
	if sp.Owner {
		r.Data.RequireRole(ctx, kit.RoleOwner, "Changing the organization's "+sp.Name, at, diags)
	}
	if o, ok := planned.(types.Object); ok {
		kit.CheckPermissionSetting(ctx, r.Data, at, kit.PermissionOfRealm, sp.Name, o, diags)
	}
	if m, ok := planned.(types.Map); ok && sp.Kind == realmspec.AuthMethods {
		r.checkAuthMethods(ctx, at, m, diags)
	}
	if n, ok := planned.(types.Int64); ok && sp.Kind == realmspec.Channel && kit.Known(n) {
		r.checkChannel(ctx, at, sp, n.ValueInt64(), diags)
	}
	if v, ok := planned.(types.String); ok && sp.Sound && kit.Known(v) {
		r.checkSound(ctx, at, v.ValueString(), diags)
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
func (r *realmResource[M, P]) checkPlanLimit(ctx context.Context, at path.Path, sp realmspec.Setting, planned attr.Value, diags *diag.Diagnostics) {
	if r.table != realmTable || !r.Data.HasCreds {
		return
	}
	snap, err := r.table.snapshot(ctx, r.Data)
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

// checkChannel refuses at plan the channel of a channel setting that
// update_realm refuses: one the provider's account cannot see or that is
// archived ("Invalid channel ID"), and a public one where the setting takes
// only private channels. A channel the same apply creates is unknown at plan
// and checked when the apply plans it again.
func (r *realmResource[M, P]) checkChannel(ctx context.Context, at path.Path, sp realmspec.Setting, id int64, diags *diag.Diagnostics) {
	if id == -1 || !r.Data.HasCreds {
		return
	}
	all, err := kit.ChannelCollection(r.Data).LastSeen(ctx)
	if err != nil {
		return // the apply will say
	}
	i := slices.IndexFunc(all, func(c zulip.Channel) bool { return c.StreamID == id })
	switch {
	case i < 0:
		diags.AddAttributeError(at, "Unknown Channel", fmt.Sprintf("No channel the provider's account can see has the id %d, "+
			"and Zulip refuses it (\"Invalid channel ID\"). Use a channel's id, or -1 for none.", id))
	case all[i].IsArchived:
		diags.AddAttributeError(at, "Archived Channel", fmt.Sprintf("The channel %q (id %d) is archived, and Zulip refuses it "+
			"(\"Invalid channel ID\"). Use a channel that is not archived, or -1 for none.", all[i].Name, id))
	case sp.Private && !all[i].InviteOnly:
		diags.AddAttributeError(at, "Private Channel Required", fmt.Sprintf("The channel %q (id %d) is public, and Zulip refuses it: "+
			"\"Moderation request channel must be private.\" Use a private channel, or -1 to disable reports.", all[i].Name, id))
	}
}

// checkSound refuses at plan a notification sound the server does not offer
// (check_settings_values: "Invalid notification sound"), from register's
// available_notification_sounds beside the settings; a server that does not
// send the list is left to decide.
func (r *realmResource[M, P]) checkSound(ctx context.Context, at path.Path, sound string, diags *diag.Diagnostics) {
	if sound == "none" || !r.Data.HasCreds {
		return
	}
	snap, err := r.table.snapshot(ctx, r.Data)
	if err != nil {
		return // the apply will say
	}
	raw, ok := r.table.value(snap, "available_notification_sounds")
	var sounds []string
	if !ok || json.Unmarshal(raw, &sounds) != nil || len(sounds) == 0 || slices.Contains(sounds, sound) {
		return
	}
	diags.AddAttributeError(at, "Unknown Notification Sound", fmt.Sprintf("Zulip refuses it: \"Invalid notification sound '%s'\". "+
		"The server's sounds are %s, or none.", sound, strings.Join(sounds, ", ")))
}

// checkAuthMethods refuses at plan what update_realm refuses: a method the
// server lacks (naming the ones it has), enabling one the plan lacks (with
// the server's reason), and leaving no method enabled.
func (r *realmResource[M, P]) checkAuthMethods(ctx context.Context, at path.Path, planned types.Map, diags *diag.Diagnostics) {
	if !r.Data.HasCreds {
		return
	}
	snap, err := r.table.snapshot(ctx, r.Data)
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
		if !isBool || !kit.Known(b) {
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
func (r *realmResource[M, P]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	var current M
	if !r.read(ctx, P(&current), &resp.Diagnostics) {
		return
	}
	r.apply(ctx, req.Config, req.Plan, &current, &resp.State, &resp.Diagnostics)
}

// Update sets the configured settings that changed.
func (r *realmResource[M, P]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	var prior M
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.apply(ctx, req.Config, req.Plan, &prior, &resp.State, &resp.Diagnostics)
}

// apply sends one request with every configured setting whose plan differs
// from prior, then stores the settings as read back.
func (r *realmResource[M, P]) apply(ctx context.Context, configured tfsdk.Config, planned tfsdk.Plan, prior *M, state *tfsdk.State, diags *diag.Diagnostics) {
	summary := "Unable to Change " + r.table.what
	var config, plan M
	diags.Append(configured.Get(ctx, &config)...)
	diags.Append(planned.Get(ctx, &plan)...)
	if diags.HasError() {
		return
	}
	dir, err := r.Data.Groups(ctx)
	if err != nil {
		kit.AddAPIError(diags, summary, "list the user groups", kit.RoleAny, err)
		return
	}
	var names []string
	err = r.Data.Cache.Write(ctx, kit.StateKey(r.table.fetchType), func(ctx context.Context) (err error) {
		names, err = P(&plan).send(ctx, r.Data.Client, &config, prior, dir)
		return err
	})
	switch {
	case zulip.IsExpectationMismatch(err):
		diags.AddError(r.table.what+" Changed Since the Plan",
			"A permission of the organization changed after Terraform read it, so Zulip refused to overwrite it (the "+
				"provider sends the value it planned from as the expected old value). Run terraform plan again to see "+
				"the change, then apply. Server said: "+err.Error())
		return
	case err != nil && names == nil: // a value the provider could not map
		diags.AddError(summary, err.Error())
		return
	case err != nil:
		kit.AddAPIError(diags, summary, "change "+strings.Join(names, ", "), kit.RoleAdministrator, err)
		return
	}
	var current M
	if !r.read(ctx, P(&current), diags) {
		return
	}
	P(&current).narrow(&plan)
	diags.Append(state.Set(ctx, &current)...)
}

// read fills m with the table's settings from the register snapshot the run
// reads once.
func (r *realmResource[M, P]) read(ctx context.Context, m P, diags *diag.Diagnostics) bool {
	return readSettings(ctx, r.Data, r.table, m, diags)
}

// readSettings fills a generated model with a table's settings from the
// register snapshot the run reads once, and the organization's URL.
func readSettings(ctx context.Context, d *kit.ProviderData, t *settingsTable, m interface {
	read(settingGetter, kit.GroupDirectory) error
	setID(string)
}, diags *diag.Diagnostics) bool {
	summary := "Unable to Read " + t.what
	snap, err := t.snapshot(ctx, d)
	if err != nil {
		kit.AddAPIError(diags, summary, "read the settings through POST /register", kit.RoleAny, err)
		return false
	}
	dir, err := d.Groups(ctx)
	if err != nil {
		kit.AddAPIError(diags, summary, "list the user groups", kit.RoleAny, err)
		return false
	}
	if err := m.read(func(name string) (json.RawMessage, bool) { return t.value(snap, name) }, dir); err != nil {
		diags.AddError(summary, err.Error())
		return false
	}
	m.setID(realmURL(d.Client))
	return true
}

// realmURL is the organization's URL: the API base without /api/v1/.
func realmURL(c *zulip.Client) string {
	return strings.TrimSuffix(strings.TrimSuffix(c.BaseURL(), "/"), "/api/v1")
}

// Read refreshes every setting: the organization has no other way to be gone.
func (r *realmResource[M, P]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	var prior, current M
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() || !r.read(ctx, P(&current), &resp.Diagnostics) {
		return
	}
	P(&current).narrow(&prior)
	resp.Diagnostics.Append(resp.State.Set(ctx, &current)...)
}

// Delete leaves the organization's settings as they are (ModifyPlan says so).
func (r *realmResource[M, P]) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
}

// ImportState adopts the organization: any id works (its URL reads best);
// Read fills every setting.
func (r *realmResource[M, P]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}
