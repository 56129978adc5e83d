package bots

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

type botsDataModel struct {
	IncludeDeactivated types.Bool     `tfsdk:"include_deactivated"`
	Bots               []botDataEntry `tfsdk:"bots"`
}

type botDataEntry struct {
	ID       types.Int64  `tfsdk:"id"`
	Email    types.String `tfsdk:"email"`
	FullName types.String `tfsdk:"full_name"`
	BotType  types.String `tfsdk:"bot_type"`
	OwnerID  types.Int64  `tfsdk:"owner_id"`
	Role     types.String `tfsdk:"role"`
	Active   types.Bool   `tfsdk:"active"`
}

// botsData lists the organization's bots from the users list the run
// reads once.
var botsData = &kit.DataSource[botsDataModel]{Name: "bots", Read: readBots,
	Schema: schema.Schema{
		MarkdownDescription: "The organization's bots, ordered by id: who owns each, its type, role and whether it is " +
			"active. No key or token is ever read here (see `zulip_bot_api_key`). Any user can read them.",
		Attributes: map[string]schema.Attribute{
			"include_deactivated": schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether deactivated bots are listed too (default false)."},
			"bots": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The bots.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":        kit.ComputedInt64("The bot's user id."),
					"email":     kit.ComputedString("The bot's address."),
					"full_name": kit.ComputedString("The bot's name."),
					"bot_type":  kit.ComputedString("`generic`, `incoming_webhook`, `outgoing_webhook` or `embedded`."),
					"owner_id":  kit.ComputedInt64("The owner's user id; null for the server's own bots."),
					"role":      kit.ComputedString("The bot's role."),
					"active":    kit.ComputedBool("Whether the bot is active."),
				}}},
		},
	},
}

// readBots fills the model from the server.
func readBots(ctx context.Context, d *kit.ProviderData, m *botsDataModel, diags *diag.Diagnostics) {
	users, err := kit.Users(ctx, d)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Bots", "list the users", kit.RoleAny, err)
		return
	}
	m.Bots = []botDataEntry{}
	for _, u := range users {
		if !u.IsBot || (!u.IsActive && !m.IncludeDeactivated.ValueBool()) {
			continue
		}
		var b botModel
		botFromAPI(u, zulip.RealmBot{}, &b)
		m.Bots = append(m.Bots, botDataEntry{ID: b.ID, Email: b.Email, FullName: b.FullName, BotType: b.BotType,
			OwnerID: b.OwnerID, Role: b.Role, Active: types.BoolValue(u.IsActive)})
	}
	slices.SortFunc(m.Bots, func(a, b botDataEntry) int { return int(a.ID.ValueInt64() - b.ID.ValueInt64()) })
}
