package bots

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// NewBotAPIKeyEphemeralResource returns the zulip_bot_api_key ephemeral resource.
func NewBotAPIKeyEphemeralResource() ephemeral.EphemeralResource {
	return &botAPIKeyEphemeralResource{EphemeralBase: kit.EphemeralBase{Name: "bot_api_key"}}
}

// botAPIKeyEphemeralResource reads a bot's API key, and an outgoing webhook's
// token, without writing them to the plan or the state.
type botAPIKeyEphemeralResource struct {
	kit.EphemeralBase
}

type botAPIKeyModel struct {
	BotID                types.Int64  `tfsdk:"bot_id"`
	Email                types.String `tfsdk:"email"`
	APIKey               types.String `tfsdk:"api_key"`
	OutgoingWebhookToken types.String `tfsdk:"outgoing_webhook_token"`
}

// Schema describes the ephemeral resource.
func (e *botAPIKeyEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A bot's API key (`GET /bots/{id}/api_key`), and an outgoing webhook bot's token, read " +
			"when Terraform needs them and never written to the plan or the state: feed them to another provider's " +
			"ephemeral or write-only arguments, or to an aliased `zulip` provider that acts as the bot. Needs the bot's " +
			"owner or an administrator, Zulip feature level 463 (Zulip 12.0) or newer (older servers give a bot's key " +
			"only when it is created or regenerated), and Terraform 1.10 or newer.",
		Attributes: map[string]schema.Attribute{
			"bot_id": schema.Int64Attribute{Required: true, MarkdownDescription: "The bot's user id (`zulip_bot.<name>.id`)."},
			"email":  schema.StringAttribute{Computed: true, MarkdownDescription: "The bot's address: the `email` its key authenticates with."},
			"api_key": schema.StringAttribute{Computed: true, Sensitive: true,
				MarkdownDescription: "The bot's API key."},
			"outgoing_webhook_token": schema.StringAttribute{Computed: true, Sensitive: true,
				MarkdownDescription: "The token Zulip sends with an outgoing webhook bot's requests, for the receiver to check; null for other bots."},
		},
	}
}

// Open reads the key.
func (e *botAPIKeyEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m botAPIKeyModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !e.Data.Ready(&resp.Diagnostics) {
		return
	}
	if err := e.Data.RequireFeatureLevel(featureBotAPIKey, "Reading a bot's API key"); err != nil {
		resp.Diagnostics.AddError("Zulip Server Too Old", err.Error()+" Before it, Zulip gives a bot's key only when the bot is "+
			"created or its key regenerated: read it in Zulip's settings (Personal settings, Bots) and pass it as a variable.")
		return
	}
	id := m.BotID.ValueInt64()
	key, err := e.Data.Client.GetBotAPIKey(ctx, id)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read the Bot's API Key", fmt.Sprintf("read the API key of bot %d", id), kit.RoleAny, err)
		return
	}
	users, err := kit.Users(ctx, e.Data)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read the Bot", "list the users", kit.RoleAny, err)
		return
	}
	u, ok := users[id]
	if !ok {
		resp.Diagnostics.AddAttributeError(path.Root("bot_id"), "Bot Not Found", fmt.Sprintf("No user has the id %d.", id))
		return
	}
	m.Email, m.APIKey, m.OutgoingWebhookToken = types.StringValue(u.Email), types.StringValue(key), types.StringNull()
	if u.BotType != nil && *u.BotType == zulip.BotTypeOutgoingWebhook {
		b, err := realmBot(ctx, e.Data, id)
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "Unable to Read the Bot", "read the bots' settings through POST /register", kit.RoleAny, err)
			return
		}
		if len(b.Services) > 0 {
			m.OutgoingWebhookToken = types.StringValue(b.Services[0].Token)
		}
	}
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}
