package people

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// devAPIKeyEphemeralResourceModel is the zulip_dev_api_key configuration and result.
type devAPIKeyEphemeralResourceModel struct {
	Username types.String `tfsdk:"username"`
	APIKey   types.String `tfsdk:"api_key"`
	Email    types.String `tfsdk:"email"`
	UserID   types.Int64  `tfsdk:"user_id"`
}

// devAPIKey fetches an account's API key from a development server. It needs
// the server's URL only: the endpoint takes no credentials, which is the
// point of it.
var devAPIKey = &kit.Ephemeral[devAPIKeyEphemeralResourceModel]{Name: "dev_api_key", NoAccount: true, Open: openDevAPIKey,
	Schema: schema.Schema{
		MarkdownDescription: "The API key of any account of a Zulip **development** server, fetched without a " +
			"password through `POST /dev_fetch_api_key`. Production servers refuse that endpoint, and this " +
			"ephemeral resource then fails with an explanation. The key is never written to the plan or the " +
			"state: feed it to an aliased provider's `api_key` (and `email`) to act as that account in the same " +
			"run. A provider configured with only `url`, without any credentials, can open it. Needs Terraform 1.10 " +
			"or newer.",
		Attributes: map[string]schema.Attribute{
			"username": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The e-mail address the account logs in with (its delivery e-mail), e.g. " +
					"`aaron@zulip.example.com`.",
				Validators: []validator.String{validators.Email()},
			},
			"api_key": schema.StringAttribute{
				Computed:            true,
				Sensitive:           true,
				MarkdownDescription: "The account's API key.",
			},
			"email": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The e-mail address to authenticate with, together with `api_key` (the " +
					"provider's `email`).",
			},
			"user_id": schema.Int64Attribute{
				Computed: true,
				MarkdownDescription: "The account's user id (reported by servers since Zulip feature level 171; " +
					"`0` from older ones).",
			},
		},
	},
}

// openDevAPIKey fetches the key.
func openDevAPIKey(ctx context.Context, d *kit.ProviderData, m *devAPIKeyEphemeralResourceModel, diags *diag.Diagnostics) {
	username := m.Username.ValueString()
	key, err := d.Client.DevFetchAPIKey(ctx, username)
	if err != nil {
		addDevAPIKeyError(diags, d, username, err)
		return
	}
	devAPIKeyFromAPI(key, m)
	tflog.Info(ctx, "fetched a development API key", map[string]any{"email": key.Email, "user_id": key.UserID})
}

// devAPIKeyFromAPI copies the server's answer into the result.
func devAPIKeyFromAPI(k *zulip.APIKeyResponse, m *devAPIKeyEphemeralResourceModel) {
	m.APIKey = types.StringValue(k.APIKey)
	m.Email = types.StringValue(k.Email)
	m.UserID = types.Int64Value(k.UserID)
}

// addDevAPIKeyError explains the refusals of POST /dev_fetch_api_key.
func addDevAPIKeyError(diags *diag.Diagnostics, d *kit.ProviderData, username string, err error) {
	const summary = "Unable to Fetch Development API Key"
	apiErr, _ := zulip.AsAPIError(err)
	msg := ""
	if apiErr != nil {
		msg = apiErr.Msg
	}
	switch {
	// A production server does not route the endpoint at all (zproject/dev_urls.py
	// is included only in development): Django's 404 page. A development server
	// with the dev backend disabled says "DevAuthBackend not enabled.".
	case apiErr != nil && apiErr.HTTPStatus == http.StatusNotFound,
		strings.Contains(msg, "DevAuthBackend not enabled"):
		diags.AddError(summary, fmt.Sprintf(
			"The Zulip server at %s is not a development server with development login enabled, so it hands out "+
				"no API keys without a password: zulip_dev_api_key works only against a Zulip development environment "+
				"(or the bundled reference server). Against this server, configure the provider with the account's "+
				"API key from its personal settings (or a bot's) instead. Server said: %s",
			d.Client.BaseURL(), err))
	case zulip.IsUnauthorized(err):
		diags.AddAttributeError(path.Root("username"), summary, fmt.Sprintf(
			"The server has no active account that logs in as %q (unknown, or deactivated). Check the address: it "+
				"is the account's login (delivery) e-mail. Server said: %s", username, err))
	case kit.IsClientError(err) && apiErr != nil && strings.Contains(strings.ToLower(msg), "email"):
		diags.AddAttributeError(path.Root("username"), summary, fmt.Sprintf(
			"The server refused the username %q. Server said: %s", username, err))
	default:
		kit.AddAPIError(diags, summary, "fetch the development API key", kit.RoleAny, err)
	}
}
