package people

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Feature levels of the user lookups (digest §10).
const (
	featureUserByEmail     = 39  // GET /users/{email}
	featureUserByRealEmail = 302 // real addresses accepted besides the dummy one
)

// userDataSourceModel is the zulip_user data source's configuration and result.
type userDataSourceModel struct {
	UserID                     types.Int64  `tfsdk:"user_id"`
	Email                      types.String `tfsdk:"email"`
	ClientGravatar             types.Bool   `tfsdk:"client_gravatar"`
	IncludeCustomProfileFields types.Bool   `tfsdk:"include_custom_profile_fields"`
	APIEmail                   types.String `tfsdk:"api_email"`
	DeliveryEmail              types.String `tfsdk:"delivery_email"`
	FullName                   types.String `tfsdk:"full_name"`
	DateJoined                 types.String `tfsdk:"date_joined"`
	IsActive                   types.Bool   `tfsdk:"is_active"`
	IsOwner                    types.Bool   `tfsdk:"is_owner"`
	IsAdmin                    types.Bool   `tfsdk:"is_admin"`
	IsGuest                    types.Bool   `tfsdk:"is_guest"`
	IsBot                      types.Bool   `tfsdk:"is_bot"`
	BotType                    types.Int64  `tfsdk:"bot_type"`
	BotOwnerID                 types.Int64  `tfsdk:"bot_owner_id"`
	Role                       types.Int64  `tfsdk:"role"`
	RoleName                   types.String `tfsdk:"role_name"`
	Timezone                   types.String `tfsdk:"timezone"`
	AvatarURL                  types.String `tfsdk:"avatar_url"`
	AvatarVersion              types.Int64  `tfsdk:"avatar_version"`
	IsImportedStub             types.Bool   `tfsdk:"is_imported_stub"`
	ProfileData                types.Map    `tfsdk:"profile_data"`
}

// userDataProfileValueModel is one element of the data source's profile_data map.
type userDataProfileValueModel struct {
	Value         types.String `tfsdk:"value"`
	RenderedValue types.String `tfsdk:"rendered_value"`
}

// userDataProfileValueType is the element type of the data source's profile_data.
var userDataProfileValueType = kit.ObjectTypeOf(userDataProfileValueAttributes())

// userData reads one user or bot of the organization.
var userData = &kit.DataSource[userDataSourceModel]{Name: "user", Read: readUser,
	Validators: []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("user_id"), path.MatchRoot("email")),
	},
	Schema: schema.Schema{
		MarkdownDescription: "Reads one user or bot of the organization, by `user_id` or by `email` (exactly one). " +
			"Any account can read any user; what it sees of their e-mail address depends on each user's " +
			"e-mail visibility setting.",
		Attributes: userDataSourceAttributes(),
	},
}

// userDataSourceAttributes are the data source's attributes, in four groups merged.
func userDataSourceAttributes() map[string]schema.Attribute {
	attributes := userDataLookupAttributes()
	maps.Copy(attributes, userDataAccountAttributes())
	maps.Copy(attributes, userDataRoleAttributes())
	maps.Copy(attributes, userDataProfileAttributes())
	return attributes
}

// userDataLookupAttributes are the data source's arguments: whom to look up (by id
// or e-mail) and what to read with them.
func userDataLookupAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"user_id": schema.Int64Attribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "The user's id. Set it to look the user up by id (the most reliable way), or leave " +
				"it out and set `email`; it is then filled in.",
			Validators: []validator.Int64{int64validator.AtLeast(1)},
		},
		"email": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "An e-mail address to look the user up by: the user's real address, which works only " +
				"when their e-mail visibility setting lets the provider's account see it (Zulip feature level 302), " +
				"or the Zulip API address (`api_email`, e.g. `user5@zulip.example.com`), which always works. " +
				"When the user is looked up by `user_id`, this is their `api_email`.",
			Validators: []validator.String{validators.Email()},
		},
		"client_gravatar": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Whether the client computes Gravatar URLs itself: when `true` (the default, as in " +
				"Zulip), `avatar_url` is null for users whose avatar is their Gravatar and whose e-mail is public. " +
				"Set `false` to always get a URL.",
		},
		"include_custom_profile_fields": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Whether to read the user's custom profile field values into `profile_data`. " +
				"Default `false`.",
		},
	}
}

// userDataAccountAttributes describe the user's account: its addresses, name, when
// it joined, whether it is active, time zone and avatar.
func userDataAccountAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"api_email": kit.ComputedString("The user's Zulip API e-mail (the API's `email` field): the real address when the " +
			"user's e-mail is visible to everyone (and always for bots), otherwise a stand-in " +
			"`user{id}@{organization host}` that identifies the user."),
		"delivery_email": kit.ComputedString("The user's real e-mail address; null when the user's e-mail visibility setting hides " +
			"it from the provider's account."),
		"full_name":   kit.ComputedString("The user's full name."),
		"date_joined": kit.ComputedString("When the account was created, in ISO 8601 (e.g. `2024-01-15T09:00:00+00:00`)."),
		"is_active":   kit.ComputedBool("Whether the account is active (`false` once deactivated)."),
		"timezone":    kit.ComputedString("The user's IANA time zone (e.g. `Europe/Berlin`); null when the user has not set one."),
		"avatar_url": kit.ComputedString("URL of the user's avatar; null for a Gravatar avatar when `client_gravatar` is " +
			"`true` and the user's e-mail is public (compute it from `delivery_email`)."),
		"avatar_version": kit.ComputedInt64("Incremented each time the user changes their avatar."),
		"is_imported_stub": kit.ComputedBool("Whether the account is a placeholder created by a data import for someone who has " +
			"not joined yet (Zulip feature level 433; `false` on older servers)."),
	}
}

// userDataRoleAttributes say what kind of account it is: its role, and for a bot
// the bot's type and owner.
func userDataRoleAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"is_owner": kit.ComputedBool("Whether the user is an organization owner."),
		"is_admin": kit.ComputedBool("Whether the user is an organization administrator (owners included)."),
		"is_guest": kit.ComputedBool("Whether the user is a guest."),
		"is_bot":   kit.ComputedBool("Whether the account is a bot."),
		"bot_type": kit.ComputedInt64("For a bot, its type: `1` generic, `2` incoming webhook, `3` outgoing webhook, " +
			"`4` embedded; null for a human."),
		"bot_owner_id": kit.ComputedInt64("For a bot, the id of the user who owns it (null when it has none); null for a human."),
		"role": kit.ComputedInt64("The user's role as Zulip numbers it: `100` owner, `200` administrator, " +
			"`300` moderator, `400` member, `600` guest."),
		"role_name": kit.ComputedString("The user's role by name: `owner`, `administrator`, `moderator`, `member` or " +
			"`guest` (the names `zulip_user` uses); null for a role this provider does not know."),
	}
}

// userDataProfileAttributes hold the user's custom profile field values.
func userDataProfileAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"profile_data": schema.MapNestedAttribute{
			Computed: true,
			MarkdownDescription: "The user's custom profile field values, keyed by field id as a string " +
				"(`\"3\"`; the `zulip_custom_profile_fields` data source maps names to ids). Fields without a " +
				"value are absent. Null unless `include_custom_profile_fields` is `true`, and for bots, which " +
				"have no profile data.",
			NestedObject: schema.NestedAttributeObject{Attributes: userDataProfileValueAttributes()},
		},
	}
}

// userDataProfileValueAttributes are the attributes of one value of
// profile_data.
func userDataProfileValueAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"value": kit.ComputedString("The value, always as text: a Dropdown option's key, a `YYYY-MM-DD` " +
			"date, or for a Users field a JSON list of user ids such as `[2,5]` (use `jsondecode`)."),
		"rendered_value": kit.ComputedString("The value rendered as HTML, for Short text and Paragraph fields; " +
			"null for other types."),
	}
}

// readUser fills the model from the server.
func readUser(ctx context.Context, d *kit.ProviderData, m *userDataSourceModel, diags *diag.Diagnostics) {
	if m.ClientGravatar.IsNull() {
		m.ClientGravatar = types.BoolValue(true)
	}
	if m.IncludeCustomProfileFields.IsNull() {
		m.IncludeCustomProfileFields = types.BoolValue(false)
	}
	clientGravatar := m.ClientGravatar.ValueBool()
	opts := zulip.GetUserOptions{ClientGravatar: &clientGravatar, IncludeCustomProfileFields: m.IncludeCustomProfileFields.ValueBool()}

	var (
		u   *zulip.User
		err error
	)
	if kit.Known(m.Email) {
		if err := d.RequireFeatureLevel(featureUserByEmail, "looking a user up by email"); err != nil {
			diags.AddAttributeError(path.Root("email"), "Zulip Server Too Old",
				err.Error()+". Look the user up by user_id instead.")
			return
		}
	}
	if listed, ok := listedUser(ctx, d, m); ok {
		userDataFromAPI(ctx, &listed, m, diags)
		return
	}
	if kit.Known(m.UserID) {
		id := m.UserID.ValueInt64()
		tflog.Debug(ctx, "reading user by id", map[string]any{"user_id": id})
		u, err = d.Client.GetUser(ctx, id, opts)
		if err != nil {
			if zulip.IsNotFound(err) {
				diags.AddAttributeError(path.Root("user_id"), "User Not Found",
					fmt.Sprintf("No user with id %d exists in the organization, or the provider's account may not see "+
						"them. Server said: %s", id, err))
				return
			}
			kit.AddAPIError(diags, "Unable to Read User", fmt.Sprintf("read user %d", id), kit.RoleAny, err)
			return
		}
	} else {
		email := m.Email.ValueString()
		tflog.Debug(ctx, "reading user by e-mail", map[string]any{"email": email})
		u, err = d.Client.GetUserByEmail(ctx, email, opts)
		if err != nil {
			if zulip.IsNotFound(err) {
				diags.AddAttributeError(path.Root("email"), "User Not Found",
					userEmailNotFoundDetail(d, email, err))
				return
			}
			kit.AddAPIError(diags, "Unable to Read User", fmt.Sprintf("read the user with e-mail %q", email), kit.RoleAny, err)
			return
		}
	}
	userDataFromAPI(ctx, u, m, diags)
	if diags.HasError() {
		return
	}
}

// listedUser finds the user in the run's user list (kit.Users), which the
// zulip_user data sources of a plan share with its resources: one request for
// all of them. The list is what GET /users/{id} and GET /users/{email} answer
// with the Gravatar shortcut, profile fields included, and an address matches
// a user's Zulip API e-mail or, where the account may see it, their real one,
// as those lookups do. A lookup without the shortcut, and a user the list
// lacks (or that two addresses could name), is asked for alone, whose answer
// also words what is missing.
func listedUser(ctx context.Context, d *kit.ProviderData, m *userDataSourceModel) (zulip.User, bool) {
	if !m.ClientGravatar.ValueBool() {
		return zulip.User{}, false
	}
	users, err := kit.Users(ctx, d)
	if err != nil {
		return zulip.User{}, false // the lookup alone reports the failure
	}
	if kit.Known(m.UserID) {
		u, ok := users[m.UserID.ValueInt64()]
		return u, ok
	}
	email := m.Email.ValueString()
	var found []zulip.User
	for _, u := range users {
		if strings.EqualFold(u.Email, email) || u.DeliveryEmail != nil && strings.EqualFold(*u.DeliveryEmail, email) {
			found = append(found, u)
		}
	}
	if len(found) != 1 {
		return zulip.User{}, false
	}
	return found[0], true
}

// userEmailNotFoundDetail explains a "No such user" answer to a lookup by
// e-mail: Zulip gives the same answer for an address nobody has and for a real
// address the caller may not see.
func userEmailNotFoundDetail(d *kit.ProviderData, email string, err error) string {
	detail := fmt.Sprintf("No user with the e-mail address %q is visible to the provider's account. Either no user has "+
		"this address, or a user has it but their e-mail visibility setting hides it from the provider's account "+
		"(Zulip answers \"No such user\" in both cases). Look the user up by user_id, or by their Zulip API e-mail "+
		"(the stand-in address user{id}@{organization host}, which always works).", email)
	if d.KnowsServer() && d.FeatureLevel() < featureUserByRealEmail {
		detail += fmt.Sprintf(" This server (feature level %d) accepts only API e-mail addresses: real addresses are "+
			"looked up since feature level %d.", d.FeatureLevel(), featureUserByRealEmail)
	}
	return detail + " Server said: " + err.Error()
}

// userDataFromAPI copies the server's view of a user into the model. The
// lookup attributes keep the configured value (Terraform requires it); the
// other one is filled in.
func userDataFromAPI(ctx context.Context, u *zulip.User, m *userDataSourceModel, diags *diag.Diagnostics) {
	if !kit.Known(m.UserID) {
		m.UserID = types.Int64Value(u.UserID)
	}
	if !kit.Known(m.Email) {
		m.Email = types.StringValue(u.Email)
	}
	m.APIEmail = types.StringValue(u.Email)
	m.DeliveryEmail = kit.StringOrNull(u.DeliveryEmail)
	m.FullName = types.StringValue(u.FullName)
	m.DateJoined = types.StringValue(u.DateJoined)
	m.IsActive = types.BoolValue(u.IsActive)
	m.IsOwner = types.BoolValue(u.IsOwner)
	m.IsAdmin = types.BoolValue(u.IsAdmin)
	m.IsGuest = types.BoolValue(u.IsGuest)
	m.IsBot = types.BoolValue(u.IsBot)
	m.BotType = types.Int64Null()
	m.BotOwnerID = types.Int64Null()
	if u.IsBot {
		if u.BotType != nil {
			m.BotType = types.Int64Value(int64(*u.BotType))
		}
		if u.BotOwnerID != nil {
			m.BotOwnerID = types.Int64Value(*u.BotOwnerID)
		}
	}
	m.Role = types.Int64Value(int64(u.Role))
	if name, ok := zulip.RoleName(u.Role); ok {
		m.RoleName = types.StringValue(name)
	} else {
		// A role added by a newer server: role still says which; failing the
		// whole read over a name would be worse.
		tflog.Warn(ctx, "unknown user role", map[string]any{"user_id": u.UserID, "role": u.Role})
		m.RoleName = types.StringNull()
	}
	m.Timezone = kit.StringOrNull(&u.Timezone)
	m.AvatarURL = kit.StringOrNull(u.AvatarURL)
	m.AvatarVersion = types.Int64Value(u.AvatarVersion)
	m.IsImportedStub = types.BoolValue(u.IsImportedStub)

	m.ProfileData = types.MapNull(userDataProfileValueType)
	if m.IncludeCustomProfileFields.ValueBool() && !u.IsBot {
		elems := make(map[string]userDataProfileValueModel, len(u.ProfileData))
		for key, v := range u.ProfileData {
			e := userDataProfileValueModel{Value: types.StringValue(v.Value), RenderedValue: types.StringNull()}
			if v.RenderedValue != nil {
				e.RenderedValue = types.StringValue(*v.RenderedValue)
			}
			elems[key] = e
		}
		pd, d := types.MapValueFrom(ctx, userDataProfileValueType, elems)
		diags.Append(d...)
		m.ProfileData = pd
	}
}
