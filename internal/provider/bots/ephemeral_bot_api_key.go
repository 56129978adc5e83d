package bots

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

type botAPIKeyModel struct {
	BotID                types.Int64  `tfsdk:"bot_id"`
	Email                types.String `tfsdk:"email"`
	APIKey               types.String `tfsdk:"api_key"`
	OutgoingWebhookToken types.String `tfsdk:"outgoing_webhook_token"`
}

// botAPIKey reads a bot's API key, and an outgoing webhook's token, without
// writing them to the plan or the state.
var botAPIKey = &kit.Ephemeral[botAPIKeyModel]{Name: "bot_api_key", Open: openBotAPIKey,
	Schema: schema.Schema{
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
	},
}

// openBotAPIKey reads the key.
func openBotAPIKey(ctx context.Context, d *kit.ProviderData, m *botAPIKeyModel, diags *diag.Diagnostics) {
	if err := d.RequireFeatureLevel(featureBotAPIKey, "Reading a bot's API key"); err != nil {
		diags.AddError("Zulip Server Too Old", err.Error()+" Before it, Zulip gives a bot's key only when the bot is "+
			"created or its key regenerated: read it in Zulip's settings (Personal settings, Bots) and pass it as a variable.")
		return
	}
	id := m.BotID.ValueInt64()
	key, err := d.Client.GetBotAPIKey(ctx, id)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read the Bot's API Key", fmt.Sprintf("read the API key of bot %d", id), kit.RoleAny, err)
		return
	}
	users, err := kit.Users(ctx, d)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read the Bot", "list the users", kit.RoleAny, err)
		return
	}
	u, ok := users[id]
	if !ok {
		diags.AddAttributeError(path.Root("bot_id"), "Bot Not Found", fmt.Sprintf("No user has the id %d.", id))
		return
	}
	m.Email, m.APIKey, m.OutgoingWebhookToken = types.StringValue(u.Email), types.StringValue(key), types.StringNull()
	if u.BotType != nil && *u.BotType == zulip.BotTypeOutgoingWebhook {
		b, err := realmBot(ctx, d, id)
		if err != nil {
			kit.AddAPIError(diags, "Unable to Read the Bot", "read the bots' settings through POST /register", kit.RoleAny, err)
			return
		}
		if len(b.Services) > 0 {
			m.OutgoingWebhookToken = types.StringValue(b.Services[0].Token)
		}
	}
}
