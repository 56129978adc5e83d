package bots

// Bots and custom emoji: what the area declares.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Area declares the area's types (kit.Area).
func Area() kit.Area {
	return kit.Area{
		Resources: []kit.TypeEntry{
			{TypeName: "zulip_custom_emoji", Contract: kit.CollectionObject, NewResource: NewCustomEmojiResource, Identity: kit.Identity(kit.IdentityOf("name", "The emoji's name.", false)), Journaled: true,
				Destroy: &kit.Note{Title: "Custom Emoji Will Be Deactivated", Detail: "Zulip never deletes custom emoji: destroying " +
					"deactivates it. It stays visible in old messages and reactions, and its name can be used by a new emoji."},
				Adopt: &kit.ImportSource{Stage: kit.StageObjects, List: kit.ImportFrom(kit.EmojiCollection, func(v zulip.CustomEmoji) (string, string, bool) {
					return v.Name, v.Name, true
				}), ListDescription: "The organization's active custom emoji (the image is not downloaded: `source` is left out, which " +
					"an imported emoji allows)."}},
			{TypeName: "zulip_bot", Contract: kit.ManagedObject, NewResource: NewBotResource, Identity: kit.Identity(kit.IdentityOf("email", "The bot's e-mail address.", true)), Natural: &kit.KeyRule{Attrs: []string{"short_name"}, Fold: true}, Journaled: true,
				Destroy: &kit.Note{Title: "Bot Will Be Deactivated", Detail: "Zulip never deletes users: destroying deactivates " +
					"the bot, and its API key stops working. Creating a bot with its short name again reactivates it."},
				Adopt: &kit.ImportSource{Stage: kit.StageAccounts, List: botsToImport, ListDescription: "The organization's active bots that have an owner (not Zulip's own system bots).",
					Filters: map[string]kit.ListFilter{filterBotType: {Attr: listschema.StringAttribute{Optional: true,
						MarkdownDescription: "Lists only the bots of this type: `generic`, `incoming_webhook`, `outgoing_webhook` or `embedded`.",
						Validators:          []validator.String{stringvalidator.OneOf("generic", "incoming_webhook", "outgoing_webhook", "embedded")}}}}}},
		},
		DataSources:        []func() datasource.DataSource{botsData.New, customEmojiData.New},
		EphemeralResources: []func() ephemeral.EphemeralResource{botAPIKey.New},
		Functions:          []func() function.Function{NewWebhookURLFunction},
		State:              []string{zulip.EventTypeRealmBot},
	}
}

// filterBotType is the filter of the bot list by type.
const filterBotType = "bot_type"

// botsToImport lists the organization's active bots that have an owner (not
// Zulip's own system bots); those of one type with bot_type.
func botsToImport(ctx context.Context, d *kit.ProviderData, f kit.FilterValues) ([]kit.ImportTarget, error) {
	botType, anyType := botTypes[f.Str(filterBotType)], f.Str(filterBotType) == ""
	return kit.UsersToImport(ctx, d, func(u zulip.User) bool {
		return u.IsBot && u.IsActive && u.BotOwnerID != nil && (anyType || u.BotType != nil && *u.BotType == botType)
	})
}
