package provider

// The registry: every resource type is declared here once, with what the kit
// needs to know of it (its identity, its natural key where that is not the
// identity's required attributes, whether its creates are journaled, whether
// it needs an account) and how an organization's objects of the type are
// adopted (zulip_import_blocks and the type's list resource). The provider's
// resources, the list resources, zulip_import_blocks, the journal and the
// kit's rules all read it; adding a type adds one entry.
//
// The entries are in the order zulip_import_blocks writes the adopted types
// (the organization first, then what refers to it), then the types that are
// not adopted.

import (
	"context"
	"strconv"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/realm"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/channels"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/groups"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/people"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/bots"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/messages"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/operations"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// registry are the provider's resource types.
var registry = []kit.TypeEntry{
	{TypeName: "zulip_realm", NewResource: realm.NewRealmResource, Identity: &kit.SingletonIdentity,
		Adopt: &kit.ImportSource{List: thisOrganization,
			ListDescription: "The organization's settings: one result, imported by the organization's URL."}},
	{TypeName: "zulip_realm_user_defaults", NewResource: realm.NewRealmUserDefaultsResource, Identity: &kit.SingletonIdentity,
		Adopt: &kit.ImportSource{List: thisOrganization,
			ListDescription: "The organization's defaults for new users: one result, imported by the organization's URL."}},
	{TypeName: "zulip_allowed_domain", NewResource: realm.NewAllowedDomainResource, Identity: kit.Identity(kit.IdentityOf("domain", "The allowed domain.", false)), Journaled: true,
		Adopt: &kit.ImportSource{List: importFrom(kit.RealmDomainCollection, func(v zulip.RealmDomain) (string, string, bool) {
			return v.Domain, v.Domain, true
		}), ListDescription: "The organization's allowed e-mail domains."}},
	{TypeName: "zulip_linkifier", NewResource: realm.NewLinkifierResource, Identity: kit.Identity(kit.IdentityOf("pattern", "The linkifier's pattern.", true)), Journaled: true,
		Adopt: &kit.ImportSource{List: importFrom(kit.LinkifierCollection, func(v zulip.Linkifier) (string, string, bool) {
			return v.Pattern, strconv.FormatInt(v.ID, 10), true
		}), ListDescription: "The organization's linkifiers, shown by pattern."}},
	{TypeName: "zulip_code_playground", NewResource: realm.NewCodePlaygroundResource, Identity: kit.Identity(kit.IdentitySpec{Attrs: []kit.IdentityAttr{
		{Name: "pygments_language", Description: "The playground's language, as Pygments names it."},
		{Name: "name", Description: "The playground's name."}}, ImportID: func(v []string) string { return v[0] + "/" + v[1] }}), Journaled: true,
		Adopt: &kit.ImportSource{List: importFrom(kit.PlaygroundCollection, func(v zulip.Playground) (string, string, bool) {
			return v.PygmentsLanguage + " " + v.Name, v.PygmentsLanguage + "/" + v.Name, true
		}), ListDescription: "The organization's code playgrounds, shown by language and name."}},
	{TypeName: "zulip_custom_profile_field", NewResource: realm.NewCustomProfileFieldResource, Identity: kit.Identity(kit.IdentityOf("name", "The field's name.", true)), Journaled: true,
		Adopt: &kit.ImportSource{List: importFrom(kit.ProfileFieldCollection, func(v zulip.CustomProfileField) (string, string, bool) {
			return v.Name, v.Name, true
		}), ListDescription: "The organization's custom profile fields."}},
	{TypeName: "zulip_custom_emoji", NewResource: bots.NewCustomEmojiResource, Identity: kit.Identity(kit.IdentityOf("name", "The emoji's name.", false)), Journaled: true,
		Adopt: &kit.ImportSource{List: importFrom(kit.EmojiCollection, func(v zulip.CustomEmoji) (string, string, bool) {
			return v.Name, v.Name, true
		}), ListDescription: "The organization's active custom emoji (the image is not downloaded: `source` is left out, which " +
			"an imported emoji allows)."}},
	{TypeName: "zulip_user_group", NewResource: groups.NewUserGroupResource, Identity: kit.Identity(kit.IdentityOf("name", "The group's name.", true)), Natural: &kit.KeyRule{Attrs: []string{"name"}, Fold: true}, Journaled: true,
		Adopt: &kit.ImportSource{List: customGroups,
			ListDescription: "The organization's user groups, without the system groups (`role:members` and the like), which " +
				"Zulip manages itself, and without deactivated groups."}},
	{TypeName: "zulip_channel_folder", NewResource: channels.NewChannelFolderResource, Identity: kit.Identity(kit.IdentityOf("name", "The channel folder's name.", true)), Natural: &kit.KeyRule{Attrs: []string{"name"}, Fold: true}, Journaled: true,
		Adopt: &kit.ImportSource{List: importFrom(kit.ChannelFolderCollection, func(v zulip.ChannelFolder) (string, string, bool) {
			return v.Name, v.Name, !v.IsArchived
		}), ListDescription: "The organization's channel folders, without archived ones."}},
	{TypeName: "zulip_channel", NewResource: channels.NewChannelResource, Identity: kit.Identity(kit.IdentityOf("name", "The channel's name.", true)), Natural: &kit.KeyRule{Attrs: []string{"name"}, Fold: true}, Journaled: true,
		Adopt: &kit.ImportSource{List: liveChannels,
			ListDescription: "The channels the provider's account can see, without archived ones (declaring an archived " +
				"channel's name unarchives it, so an archived channel is not an object Terraform manages).",
			Filters: map[string]kit.ListFilter{filterPrivacy: {Attr: listschema.StringAttribute{Optional: true,
				MarkdownDescription: "Lists only the channels of this privacy: `public`, `private` or `web_public`.",
				Validators:          []validator.String{stringvalidator.OneOf(channels.PrivacyPublic, channels.PrivacyPrivate, channels.PrivacyWebPublic)}}}}}},
	{TypeName: "zulip_default_channels", NewResource: channels.NewDefaultChannelsResource, Identity: &kit.SingletonIdentity,
		Adopt: &kit.ImportSource{List: singleton("default_channels"),
			ListDescription: "The organization's default channels: one result."}},
	{TypeName: "zulip_linkifier_order", NewResource: realm.NewLinkifierOrderResource, Identity: &kit.SingletonIdentity,
		Adopt: &kit.ImportSource{List: orderOf(kit.LinkifierCollection, "linkifiers", func(zulip.Linkifier) bool { return true }),
			ListDescription: "The order of the organization's linkifiers: one result when there is a linkifier."}},
	{TypeName: "zulip_custom_profile_field_order", NewResource: realm.NewCustomProfileFieldOrderResource, Identity: &kit.SingletonIdentity,
		Adopt: &kit.ImportSource{List: orderOf(kit.ProfileFieldCollection, "custom_profile_fields", func(zulip.CustomProfileField) bool { return true }),
			ListDescription: "The order of the organization's custom profile fields: one result when there is a field."}},
	{TypeName: "zulip_channel_folder_order", NewResource: channels.NewChannelFolderOrderResource, Identity: &kit.SingletonIdentity,
		Adopt: &kit.ImportSource{List: orderOf(kit.ChannelFolderCollection, "channel_folders", func(f zulip.ChannelFolder) bool { return !f.IsArchived }),
			ListDescription: "The order of the organization's channel folders: one result when there is a folder."}},
	{TypeName: "zulip_user_group_members", NewResource: groups.NewUserGroupMembersResource, Identity: kit.Identity(kit.IdentityOfIDs(kit.GroupIDAttr)),
		Adopt: &kit.ImportSource{List: customGroups,
			ListDescription: "The members of each user group (not system groups), as the authoritative " +
				"`zulip_user_group_members`, one result per group."}},
	{TypeName: "zulip_channel_subscribers", NewResource: channels.NewChannelSubscribersResource, Identity: kit.Identity(kit.IdentityOfIDs(kit.ChannelIDAttr)),
		Adopt: &kit.ImportSource{List: liveChannels,
			ListDescription: "The subscribers of each channel (not archived), as the authoritative `zulip_channel_subscribers`, " +
				"one result per channel."}},
	{TypeName: "zulip_user", NewResource: people.NewUserResource, Identity: &kit.UserIdentity, Natural: &kit.KeyRule{Attrs: []string{"email"}, Fold: true}, Journaled: true,
		Adopt: &kit.ImportSource{List: func(ctx context.Context, d *kit.ProviderData, f kit.FilterValues) ([]kit.ImportTarget, error) {
			return usersToImport(ctx, d, false, f)
		}, ListDescription: "The organization's human users, by their real address where the provider's account may see it.",
			Filters: map[string]kit.ListFilter{
				filterRole: {Attr: listschema.StringAttribute{Optional: true,
					MarkdownDescription: "Lists only the users of this role: one of " + kit.QuoteAllCode(zulip.RoleNames()) + ".",
					Validators:          []validator.String{stringvalidator.OneOf(zulip.RoleNames()...)}}},
				filterIncludeDeactivated: {Attr: listschema.BoolAttribute{Optional: true,
					MarkdownDescription: "Lists deactivated users too (they import with `active = false`). Default `false`."}},
			}}},
	{TypeName: "zulip_bot", NewResource: bots.NewBotResource, Identity: kit.Identity(kit.IdentityOf("email", "The bot's e-mail address.", true)), Natural: &kit.KeyRule{Attrs: []string{"short_name"}, Fold: true}, Journaled: true,
		Adopt: &kit.ImportSource{List: func(ctx context.Context, d *kit.ProviderData, f kit.FilterValues) ([]kit.ImportTarget, error) {
			return usersToImport(ctx, d, true, f)
		}, ListDescription: "The organization's active bots that have an owner (not Zulip's own system bots).",
			Filters: map[string]kit.ListFilter{filterBotType: {Attr: listschema.StringAttribute{Optional: true,
				MarkdownDescription: "Lists only the bots of this type: `generic`, `incoming_webhook`, `outgoing_webhook` or `embedded`.",
				Validators:          []validator.String{stringvalidator.OneOf("generic", "incoming_webhook", "outgoing_webhook", "embedded")}}}}}},
	// A saved snippet has no natural key: titles need not be unique.
	{TypeName: "zulip_saved_snippet", NewResource: messages.NewSavedSnippetResource, Identity: kit.Identity(kit.IdentitySpec{Attrs: []kit.IdentityAttr{{Name: "id", Number: true,
		Description: "The saved snippet's id (titles need not be unique)."}}}), Natural: &kit.KeyRule{}, Journaled: true,
		Adopt: &kit.ImportSource{List: importFrom(kit.SavedSnippetCollection, func(v zulip.SavedSnippet) (string, string, bool) {
			return v.Title, strconv.FormatInt(v.ID, 10), true
		}), ListDescription: "The saved snippets of the provider's own account (snippets are private to their owner), shown " +
			"by title."}},
	{TypeName: "zulip_channel_subscription", NewResource: channels.NewChannelSubscriptionResource, Identity: kit.Identity(kit.IdentityOfIDs(kit.ChannelIDAttr, kit.UserIDAttr)),
		Adopt: &kit.ImportSource{List: subscriptionsOfUser, ListOnly: true,
			ListDescription: "The channels one user is subscribed to (not archived ones), as additive " +
				"`zulip_channel_subscription`s, shown by channel name: to manage one person's subscriptions where the " +
				"channels' subscribers are not managed whole. Do not list these beside `zulip_channel_subscribers` of the " +
				"same channels: the two would fight.",
			Filters: userFilter("subscriptions")}},
	{TypeName: "zulip_user_group_membership", NewResource: groups.NewUserGroupMembershipResource, Identity: kit.Identity(kit.IdentityOfIDs(kit.GroupIDAttr, kit.UserIDAttr)),
		Adopt: &kit.ImportSource{List: membershipsOfUser, ListOnly: true,
			ListDescription: "The user groups one user is a direct member of (not system groups), as additive " +
				"`zulip_user_group_membership`s, shown by group name: to manage one person's memberships where the groups' " +
				"members are not managed whole. Do not list these beside `zulip_user_group_members` of the same groups: " +
				"the two would fight.",
			Filters: userFilter("memberships")}},
	{TypeName: "zulip_user_topic", NewResource: channels.NewUserTopicResource, Identity: kit.Identity(kit.IdentitySpec{Attrs: []kit.IdentityAttr{kit.ChannelIDAttr,
		{Name: "topic", Description: "The topic's name."}}, ImportID: func(v []string) string { return v[0] + ":" + v[1] },
		Mutable: true}),
		Adopt: &kit.ImportSource{List: userTopicsToImport,
			ListDescription: "The topic preferences (muted, unmuted, followed) of the provider's own account, shown as " +
				"`#channel > topic`."}},
	{TypeName: "zulip_profile_data", NewResource: people.NewProfileDataResource},
	{TypeName: "zulip_message_flags", NewResource: messages.NewMessageFlagsResource, Identity: kit.Identity(kit.IdentityOf("id", "`<flag>:<message id>,<message id>,...`, as the import id.", true))},
	{TypeName: "zulip_apns_device_token", NewResource: operations.NewAPNsDeviceTokenResource},
	{TypeName: "zulip_push_test_notification", NewResource: operations.NewPushTestNotificationResource},
	{TypeName: "zulip_message_report", NewResource: messages.NewMessageReportResource},
	{TypeName: "zulip_own_account_deactivation", NewResource: operations.NewOwnAccountDeactivationResource},
	{TypeName: "zulip_sms_question", NewResource: operations.NewSMSQuestionResource, NoAccount: true},
}

// journaledTypes are the registry's journaled types.
var journaledTypes = kit.RegistrySet(registry, func(e kit.TypeEntry) bool { return e.Journaled })
