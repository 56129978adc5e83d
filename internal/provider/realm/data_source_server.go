package realm

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

// serverDataModel is what the server says of itself.
type serverDataModel struct {
	ZulipVersion                  types.String                 `tfsdk:"zulip_version"`
	ZulipFeatureLevel             types.Int64                  `tfsdk:"zulip_feature_level"`
	ZulipMergeBase                types.String                 `tfsdk:"zulip_merge_base"`
	PushNotificationsEnabled      types.Bool                   `tfsdk:"push_notifications_enabled"`
	EmailAuthEnabled              types.Bool                   `tfsdk:"email_auth_enabled"`
	RequireEmailFormatUsernames   types.Bool                   `tfsdk:"require_email_format_usernames"`
	AuthenticationMethods         map[string]bool              `tfsdk:"authentication_methods"`
	ExternalAuthenticationMethods []externalAuthenticationData `tfsdk:"external_authentication_methods"`
	RealmURL                      types.String                 `tfsdk:"realm_url"`
	RealmName                     types.String                 `tfsdk:"realm_name"`
	RealmWebPublicAccessEnabled   types.Bool                   `tfsdk:"realm_web_public_access_enabled"`
}

// externalAuthenticationData is one single sign-on method of the login page.
type externalAuthenticationData struct {
	Name        types.String `tfsdk:"name"`
	DisplayName types.String `tfsdk:"display_name"`
}

// serverData reads what the server says of itself and of the
// organization before anyone logs in (GET /server_settings).
var serverData = &kit.DataSource[serverDataModel]{Name: "server", NoAccount: true, Read: readServer,
	Schema: schema.Schema{
		MarkdownDescription: "The server's version, feature level and ways to log in, and the organization's name and URL, " +
			"from `GET /server_settings`. Zulip asks no account for it, so a provider configured with only `url` can " +
			"read it too. Use it to make a configuration depend on the server, for example to declare a resource " +
			"only when `zulip_feature_level` is new enough, or to check that password login is off.",
		Attributes: map[string]schema.Attribute{
			"zulip_version":              kit.ComputedString("The server's Zulip version, e.g. `11.0`."),
			"zulip_feature_level":        kit.ComputedInt64("The server's API feature level: what the provider's documentation gives as the level an attribute needs."),
			"zulip_merge_base":           kit.ComputedString("The Zulip version the server's code was last merged from (empty before feature level 88)."),
			"push_notifications_enabled": kit.ComputedBool("Whether the server can send mobile push notifications."),
			"email_auth_enabled":         kit.ComputedBool("Whether logging in with an e-mail address and password is enabled."),
			"require_email_format_usernames": kit.ComputedBool("Whether the server's usernames are e-mail addresses " +
				"(false with some LDAP configurations)."),
			"authentication_methods": schema.MapAttribute{Computed: true, ElementType: types.BoolType,
				MarkdownDescription: "Each way to log in Zulip knows (`password`, `dev`, `email`, `ldap`, `github`, `google`, " +
					"`saml`...) and whether the organization allows it."},
			"external_authentication_methods": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "The single sign-on methods the login page offers, in its order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":         kit.ComputedString("The method's name, e.g. `saml:okta` or `github`."),
					"display_name": kit.ComputedString("The name the login page shows."),
				}}},
			"realm_url":  kit.ComputedString("The organization's URL."),
			"realm_name": kit.ComputedString("The organization's name."),
			"realm_web_public_access_enabled": kit.ComputedBool("Whether the organization lets visitors read its web-public channels " +
				"without an account (false before feature level 116)."),
		},
	},
}

// readServer fills the model from the settings the provider's configuration read;
// unlike the other data sources it needs no credentials, as /server_settings
// asks for none.
func readServer(ctx context.Context, d *kit.ProviderData, m *serverDataModel, diags *diag.Diagnostics) {
	s := d.ServerSettings // read when the provider was configured, in this run
	if s == nil {
		var err error
		if s, err = d.Client.GetServerSettings(ctx); err != nil {
			kit.AddAPIError(diags, "Unable to Read the Server Settings", "read /server_settings", kit.RoleAny, err)
			return
		}
	}
	*m = serverDataModel{
		ZulipVersion:                types.StringValue(s.ZulipVersion),
		ZulipFeatureLevel:           types.Int64Value(int64(s.ZulipFeatureLevel)),
		ZulipMergeBase:              types.StringValue(s.ZulipMergeBase),
		PushNotificationsEnabled:    types.BoolValue(s.PushNotificationsEnabled),
		EmailAuthEnabled:            types.BoolValue(s.EmailAuthEnabled),
		RequireEmailFormatUsernames: types.BoolValue(s.RequireEmailFormatUsernames),
		AuthenticationMethods:       s.AuthenticationMethods,
		RealmURL:                    types.StringValue(s.RealmURL),
		RealmName:                   types.StringValue(s.RealmName),
		RealmWebPublicAccessEnabled: types.BoolValue(s.RealmWebPublicAccessEnabled),
	}
	if m.AuthenticationMethods == nil {
		m.AuthenticationMethods = map[string]bool{}
	}
	m.ExternalAuthenticationMethods = []externalAuthenticationData{}
	for _, e := range s.ExternalAuthenticationMethods {
		m.ExternalAuthenticationMethods = append(m.ExternalAuthenticationMethods,
			externalAuthenticationData{Name: types.StringValue(e.Name), DisplayName: types.StringValue(e.DisplayName)})
	}
}
