package realm

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	aschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ action.ActionWithModifyPlan     = (*applyUserSettingsAction)(nil)
	_ action.ActionWithValidateConfig = (*applyUserSettingsAction)(nil)
)

// featureUserSettingsOfOthers is the feature level of PATCH /settings's
// target_users.
const featureUserSettingsOfOthers = 444

// refusedForOthers are the defaults for new users that Zulip does not let an
// administrator change for other users: UserBaseSettings.
// SECURITY_SENSITIVE_USER_SETTINGS (zerver/models/users.py) less the three
// that are not defaults (allow_private_data_export, enable_login_emails,
// enable_marketing_emails). json_change_settings answers them "Cannot change
// this setting for other users.", so the settings object leaves them out.
var refusedForOthers = []string{"email_address_visibility", "enable_digest_emails", "presence_enabled",
	"send_private_typing_notifications", "send_read_receipts", "send_stream_typing_notifications"}

// NewApplyUserSettingsAction returns the zulip_apply_user_settings action.
func NewApplyUserSettingsAction() action.Action {
	return &applyUserSettingsAction{ActionBase: kit.ActionBase{Name: "apply_user_settings"}}
}

// applyUserSettingsAction changes personal settings of existing users when
// invoked. Verified against Zulip's zerver/views/user_settings.py
// (json_change_settings, newest): target_users needs an organization
// administrator (is_realm_admin: administrators and owners; otherwise
// OrganizationAdministratorRequiredError) and a human account
// (@human_users_only); the settings are UserProfile.property_types less
// SECURITY_SENSITIVE_USER_SETTINGS; the users are those named and the
// recursive members of the groups named, deactivated users included and bots
// left out; each setting changes only for users whose value differs, less,
// with skip_if_already_edited, those whose audit log shows they changed it
// themselves; check_settings_values (the notification sound, the batching
// period) does not run on this branch.
type applyUserSettingsAction struct {
	kit.ActionBase
}

// userSettingsArgs are the arguments the action and the invocation resource
// share.
type userSettingsArgs struct {
	Settings            types.Object `tfsdk:"settings"`
	Users               types.Set    `tfsdk:"users"`
	Group               types.Int64  `tfsdk:"group"`
	SkipIfAlreadyEdited types.Bool   `tfsdk:"skip_if_already_edited"`
}

// userSettingsAbout is what the action and the resource say they do.
const userSettingsAbout = "Applies personal settings to existing users: the users listed in `users`, or the members of " +
	"the user group `group` (its subgroups' members included), as an organization administrator (`PATCH /settings` " +
	"with `target_users`, Zulip feature level 444). The settings are those of `zulip_realm_user_defaults`, which apply " +
	"to new users only; this pushes them to users who already have accounts. Zulip changes a setting only for the " +
	"users whose value differs, leaves bots out, includes deactivated users, and with `skip_if_already_edited` leaves " +
	"out the users who changed that setting themselves. Zulip does not let administrators change the privacy " +
	"settings (`" + "email_address_visibility`, `enable_digest_emails`, `presence_enabled`, " +
	"`send_private_typing_notifications`, `send_read_receipts`, `send_stream_typing_notifications`) of other users, " +
	"so they are not offered. The provider's account must be a human administrator or owner."

// userSettingsAttributes are the settings one can apply: the attributes of
// zulip_realm_user_defaults (realm_settings_gen.go), less the id and the
// settings Zulip refuses for others, each optional.
func userSettingsAttributes() map[string]schema.Attribute {
	out := map[string]schema.Attribute{}
	for name, a := range (realmUserDefaultsModel{}).attributes() {
		if name == "id" || slices.Contains(refusedForOthers, name) {
			continue
		}
		desc := strings.TrimSuffix(a.GetMarkdownDescription(), " Managed only when set.") + " Left as each user has it when not set."
		switch a := a.(type) {
		case schema.BoolAttribute:
			out[name] = schema.BoolAttribute{Optional: true, MarkdownDescription: desc, Validators: a.Validators}
		case schema.Int64Attribute:
			out[name] = schema.Int64Attribute{Optional: true, MarkdownDescription: desc, Validators: a.Validators}
		case schema.StringAttribute:
			out[name] = schema.StringAttribute{Optional: true, MarkdownDescription: desc, Validators: a.Validators}
		default:
			panic(fmt.Sprintf("internal error: the default setting %s has an attribute of type %T", name, a))
		}
	}
	return out
}

// actionSettingsAttributes are userSettingsAttributes as an action's.
func actionSettingsAttributes() map[string]aschema.Attribute {
	out := map[string]aschema.Attribute{}
	for name, a := range userSettingsAttributes() {
		switch a := a.(type) {
		case schema.BoolAttribute:
			out[name] = aschema.BoolAttribute{Optional: true, MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
		case schema.Int64Attribute:
			out[name] = aschema.Int64Attribute{Optional: true, MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
		case schema.StringAttribute:
			out[name] = aschema.StringAttribute{Optional: true, MarkdownDescription: a.MarkdownDescription, Validators: a.Validators}
		}
	}
	return out
}

// Descriptions of the shared arguments.
const (
	userSettingsSettingsDesc = "The settings to apply, by the names `zulip_realm_user_defaults` has, with the values it " +
		"takes; at least one. A setting left out is not changed."
	userSettingsUsersDesc = "The ids of the users to apply the settings to. Exactly one of `users` and `group` is set."
	userSettingsGroupDesc = "The id of a user group whose members (its subgroups' included) get the settings. Exactly " +
		"one of `users` and `group` is set."
	userSettingsSkipDesc = "Whether to leave out, for each setting, the users who changed it themselves (Zulip finds " +
		"them in its audit log). Defaults to `true`; `false` overrides everyone's choice."
)

// Schema describes the action.
func (a *applyUserSettingsAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = aschema.Schema{
		MarkdownDescription: userSettingsAbout + " Runs each time it is invoked: by `terraform apply " +
			"-invoke=action.zulip_apply_user_settings.<name>` or by an `action_trigger`; nothing is kept in state. " +
			"Needs Terraform 1.14 or newer; before, the resource `zulip_user_settings_push` does the same.",
		Attributes: map[string]aschema.Attribute{
			"settings": aschema.SingleNestedAttribute{Required: true, MarkdownDescription: userSettingsSettingsDesc,
				Attributes: actionSettingsAttributes()},
			"users": aschema.SetAttribute{Optional: true, ElementType: types.Int64Type, MarkdownDescription: userSettingsUsersDesc,
				Validators: []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueInt64sAre(int64validator.AtLeast(1))}},
			"group": aschema.Int64Attribute{Optional: true, MarkdownDescription: userSettingsGroupDesc,
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"skip_if_already_edited": aschema.BoolAttribute{Optional: true, MarkdownDescription: userSettingsSkipDesc},
		},
	}
}

// ValidateConfig checks the arguments.
func (a *applyUserSettingsAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var m userSettingsArgs
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if !resp.Diagnostics.HasError() {
		validateUserSettingsArgs(m, &resp.Diagnostics)
	}
}

// validateUserSettingsArgs requires exactly one of users and group, and at
// least one setting.
func validateUserSettingsArgs(m userSettingsArgs, diags *diag.Diagnostics) {
	if !m.Users.IsUnknown() && !m.Group.IsUnknown() && m.Users.IsNull() == m.Group.IsNull() {
		diags.AddAttributeError(path.Root("users"), "Invalid Attribute Combination",
			"Exactly one of users and group must be set: the users to apply the settings to, or a group whose members get them.")
	}
	if !kit.Known(m.Settings) {
		return
	}
	for _, v := range m.Settings.Attributes() {
		if !v.IsNull() {
			return
		}
	}
	diags.AddAttributeError(path.Root("settings"), "No Settings to Apply", "Set at least one setting in settings.")
}

// ModifyPlan checks the server's feature level and the account's role.
func (a *applyUserSettingsAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.Data == nil || !a.Data.CanAsk() {
		return
	}
	if err := a.Data.RequireFeatureLevel(featureUserSettingsOfOthers, "zulip_apply_user_settings"); err != nil {
		resp.Diagnostics.AddError("Zulip Server Too Old", err.Error())
		return
	}
	var m userSettingsArgs
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if !resp.Diagnostics.HasError() {
		checkUserSettingsPlan(ctx, a.Data, m, true, &resp.Diagnostics)
	}
}

// checkUserSettingsPlan refuses at plan what Zulip would refuse: a setting
// newer than the server, a notification sound the server does not have, and
// an account that is not a human administrator
// (the role is checked only when checkRole: the kit checks it for the
// resource, from its registry entry).
func checkUserSettingsPlan(ctx context.Context, d *kit.ProviderData, m userSettingsArgs, checkRole bool, diags *diag.Diagnostics) {
	if kit.Known(m.Settings) {
		for _, sp := range realmspec.UserDefaults {
			if v, ok := m.Settings.Attributes()[sp.Name]; ok && !v.IsNull() {
				at := path.Root("settings").AtName(sp.Name)
				if err := d.RequireFeatureLevel(sp.FL, sp.Name); err != nil {
					diags.AddAttributeError(at, "Zulip Server Too Old", err.Error())
				}
				if sound, ok := v.(types.String); ok && sp.Sound && kit.Known(sound) {
					// Zulip does not check the sound for other users (check_settings_values
					// does not run on that branch) and would keep one that does not exist.
					defaults := &realmResource[realmUserDefaultsModel, *realmUserDefaultsModel]{ResourceBase: kit.ResourceBase{Data: d}, table: userDefaultsTable}
					var found diag.Diagnostics
					defaults.checkSound(ctx, at, sound.ValueString(), &found)
					for _, f := range found {
						diags.AddAttributeError(at, f.Summary(), "settings."+sp.Name+": "+f.Detail())
					}
				}
			}
		}
	}
	if checkRole {
		d.RequireRole(ctx, kit.RoleAdministrator, "Changing other users' settings", path.Empty(), diags)
	}
	if diags.HasError() {
		return
	}
	if me, err := d.Caller(ctx); err == nil && me.IsBot {
		diags.AddError("Insufficient Role", fmt.Sprintf("Changing other users' settings needs a human account: Zulip "+
			"refuses bots (%s) here. Configure the provider with the API key of an organization administrator.", me.Email))
	}
}

// Invoke applies the settings, saying so as it goes.
func (a *applyUserSettingsAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m userSettingsArgs
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !a.Data.Ready(&resp.Diagnostics) {
		return
	}
	applyUserSettings(ctx, a.Data, m, func(msg string) {
		resp.SendProgress(action.InvokeProgressEvent{Message: msg})
	}, &resp.Diagnostics)
}

// applyUserSettings sends the change, reporting progress to say.
func applyUserSettings(ctx context.Context, d *kit.ProviderData, m userSettingsArgs, say func(string), diags *diag.Diagnostics) {
	s, names, err := userSettingsToAPI(m.Settings)
	if err != nil {
		diags.AddAttributeError(path.Root("settings"), "Invalid Setting", err.Error())
		return
	}
	target := zulip.TargetUsers{UserIDs: kit.KnownInt64s(m.Users), SkipIfAlreadyEdited: m.SkipIfAlreadyEdited.IsNull() || m.SkipIfAlreadyEdited.ValueBool()}
	whom := "users " + joinIDs(target.UserIDs)
	if !m.Group.IsNull() {
		target.GroupIDs = []int64{m.Group.ValueInt64()}
		whom = fmt.Sprintf("the members of user group %d", m.Group.ValueInt64())
	}
	skip := ""
	if target.SkipIfAlreadyEdited {
		skip = ", leaving out, for each setting, the users who changed it themselves"
	}
	settings := strings.Join(names, ", ")
	say(fmt.Sprintf("Applying %s to %s%s", settings, whom, skip))
	if err := d.Client.ChangeUserSettingsOf(ctx, s, target); err != nil {
		addUserSettingsError(diags, err)
		return
	}
	tflog.Info(ctx, "applied settings to other users", map[string]any{"settings": names, "users": target.UserIDs,
		"groups": target.GroupIDs, "skip_if_already_edited": target.SkipIfAlreadyEdited})
	say(fmt.Sprintf("Applied %s to %s (Zulip changed each only where it differed)", settings, whom))
}

// userSettingsToAPI is the request of the settings set, with their names in
// the table's order.
func userSettingsToAPI(o types.Object) (*zulip.RealmUserDefaults, []string, error) {
	s := &zulip.RealmUserDefaults{}
	var names []string
	for _, sp := range realmspec.UserDefaults {
		v, ok := o.Attributes()[sp.Name]
		if !ok || !kit.Known(v) {
			continue
		}
		wire, err := settingToWire(sp, v)
		if err == nil {
			err = s.Set(sp.Name, wire)
		}
		if err != nil {
			return nil, nil, settingError(sp.Name, err)
		}
		names = append(names, sp.Name)
	}
	return s, names, nil
}

// settingToWire is a setting's value as the API takes it.
func settingToWire(sp realmspec.Setting, v attr.Value) (any, error) {
	switch v := v.(type) {
	case types.Bool:
		return v.ValueBool(), nil
	case types.Int64:
		return v.ValueInt64(), nil
	case types.String:
		if sp.Kind != realmspec.IntEnum && sp.Kind != realmspec.StringEnum {
			return v.ValueString(), nil
		}
		for _, x := range sp.Values {
			if x.Name == v.ValueString() && sp.Kind == realmspec.IntEnum {
				return int64(x.Code), nil
			} else if x.Name == v.ValueString() {
				return x.WireString(), nil
			}
		}
		return nil, fmt.Errorf("unknown value %q", v.ValueString())
	}
	return nil, fmt.Errorf("unexpected value %s", v)
}

// addUserSettingsError reports a refused change on the attribute at fault
// where Zulip's answer tells which.
func addUserSettingsError(diags *diag.Diagnostics, err error) {
	const summary = "Unable to Apply User Settings"
	msg := zulip.ErrorMsg(err)
	switch {
	case strings.HasPrefix(msg, "Invalid user ID"):
		diags.AddAttributeError(path.Root("users"), summary, fmt.Sprintf("A user does not exist. Server said: %s", err))
	case strings.HasPrefix(msg, "Invalid user group ID"):
		diags.AddAttributeError(path.Root("group"), summary, fmt.Sprintf("The user group does not exist. Server said: %s", err))
	case strings.Contains(msg, "Cannot change this setting for other users"):
		diags.AddAttributeError(path.Root("settings"), summary, fmt.Sprintf("Zulip does not let administrators "+
			"change one of these settings for other users. Server said: %s", err))
	default:
		kit.AddAPIError(diags, summary, "change other users' settings", kit.RoleAdministrator, err)
	}
}

// joinIDs formats ids as "1, 2, 3".
func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ", ")
}
