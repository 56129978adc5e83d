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

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// registry are the provider's resource types.
var registry = []typeEntry{
	{typeName: "zulip_realm", newResource: NewRealmResource, identity: &singletonIdentity,
		adopt: &importSource{list: thisOrganization,
			listDescription: "The organization's settings: one result, imported by the organization's URL."}},
	{typeName: "zulip_realm_user_defaults", newResource: NewRealmUserDefaultsResource, identity: &singletonIdentity,
		adopt: &importSource{list: thisOrganization,
			listDescription: "The organization's defaults for new users: one result, imported by the organization's URL."}},
	{typeName: "zulip_allowed_domain", newResource: NewAllowedDomainResource, identity: identity(identityOf("domain", "The allowed domain.", false)), journaled: true,
		adopt: &importSource{list: importFrom(realmDomainCollection, func(v zulip.RealmDomain) (string, string, bool) {
			return v.Domain, v.Domain, true
		}), listDescription: "The organization's allowed e-mail domains."}},
	{typeName: "zulip_linkifier", newResource: NewLinkifierResource, identity: identity(identityOf("pattern", "The linkifier's pattern.", true)), journaled: true,
		adopt: &importSource{list: importFrom(linkifierCollection, func(v zulip.Linkifier) (string, string, bool) {
			return v.Pattern, strconv.FormatInt(v.ID, 10), true
		}), listDescription: "The organization's linkifiers, shown by pattern."}},
	{typeName: "zulip_code_playground", newResource: NewCodePlaygroundResource, identity: identity(identitySpec{attrs: []identityAttr{
		{name: "pygments_language", description: "The playground's language, as Pygments names it."},
		{name: "name", description: "The playground's name."}}, importID: func(v []string) string { return v[0] + "/" + v[1] }}), journaled: true,
		adopt: &importSource{list: importFrom(playgroundCollection, func(v zulip.Playground) (string, string, bool) {
			return v.PygmentsLanguage + " " + v.Name, v.PygmentsLanguage + "/" + v.Name, true
		}), listDescription: "The organization's code playgrounds, shown by language and name."}},
	{typeName: "zulip_custom_profile_field", newResource: NewCustomProfileFieldResource, identity: identity(identityOf("name", "The field's name.", true)), journaled: true,
		adopt: &importSource{list: importFrom(profileFieldCollection, func(v zulip.CustomProfileField) (string, string, bool) {
			return v.Name, v.Name, true
		}), listDescription: "The organization's custom profile fields."}},
	{typeName: "zulip_custom_emoji", newResource: NewCustomEmojiResource, identity: identity(identityOf("name", "The emoji's name.", false)), journaled: true,
		adopt: &importSource{list: importFrom(emojiCollection, func(v zulip.CustomEmoji) (string, string, bool) {
			return v.Name, v.Name, true
		}), listDescription: "The organization's active custom emoji (the image is not downloaded: `source` is left out, which " +
			"an imported emoji allows)."}},
	{typeName: "zulip_user_group", newResource: NewUserGroupResource, identity: identity(identityOf("name", "The group's name.", true)), natural: &keyRule{attrs: []string{"name"}, fold: true}, journaled: true,
		adopt: &importSource{list: customGroups,
			listDescription: "The organization's user groups, without the system groups (`role:members` and the like), which " +
				"Zulip manages itself, and without deactivated groups."}},
	{typeName: "zulip_channel_folder", newResource: NewChannelFolderResource, identity: identity(identityOf("name", "The channel folder's name.", true)), natural: &keyRule{attrs: []string{"name"}, fold: true}, journaled: true,
		adopt: &importSource{list: importFrom(channelFolderCollection, func(v zulip.ChannelFolder) (string, string, bool) {
			return v.Name, v.Name, !v.IsArchived
		}), listDescription: "The organization's channel folders, without archived ones."}},
	{typeName: "zulip_channel", newResource: NewChannelResource, identity: identity(identityOf("name", "The channel's name.", true)), natural: &keyRule{attrs: []string{"name"}, fold: true}, journaled: true,
		adopt: &importSource{list: liveChannels,
			listDescription: "The channels the provider's account can see, without archived ones (declaring an archived " +
				"channel's name unarchives it, so an archived channel is not an object Terraform manages).",
			filters: map[string]listFilter{filterPrivacy: {attr: listschema.StringAttribute{Optional: true,
				MarkdownDescription: "Lists only the channels of this privacy: `public`, `private` or `web_public`.",
				Validators:          []validator.String{stringvalidator.OneOf(privacyPublic, privacyPrivate, privacyWebPublic)}}}}}},
	{typeName: "zulip_default_channels", newResource: NewDefaultChannelsResource, identity: &singletonIdentity,
		adopt: &importSource{list: singleton("default_channels"),
			listDescription: "The organization's default channels: one result."}},
	{typeName: "zulip_linkifier_order", newResource: NewLinkifierOrderResource, identity: &singletonIdentity,
		adopt: &importSource{list: orderOf(linkifierCollection, "linkifiers", func(zulip.Linkifier) bool { return true }),
			listDescription: "The order of the organization's linkifiers: one result when there is a linkifier."}},
	{typeName: "zulip_custom_profile_field_order", newResource: NewCustomProfileFieldOrderResource, identity: &singletonIdentity,
		adopt: &importSource{list: orderOf(profileFieldCollection, "custom_profile_fields", func(zulip.CustomProfileField) bool { return true }),
			listDescription: "The order of the organization's custom profile fields: one result when there is a field."}},
	{typeName: "zulip_channel_folder_order", newResource: NewChannelFolderOrderResource, identity: &singletonIdentity,
		adopt: &importSource{list: orderOf(channelFolderCollection, "channel_folders", func(f zulip.ChannelFolder) bool { return !f.IsArchived }),
			listDescription: "The order of the organization's channel folders: one result when there is a folder."}},
	{typeName: "zulip_user_group_members", newResource: NewUserGroupMembersResource, identity: identity(identityOfIDs(groupIDAttr)),
		adopt: &importSource{list: customGroups,
			listDescription: "The members of each user group (not system groups), as the authoritative " +
				"`zulip_user_group_members`, one result per group."}},
	{typeName: "zulip_channel_subscribers", newResource: NewChannelSubscribersResource, identity: identity(identityOfIDs(channelIDAttr)),
		adopt: &importSource{list: liveChannels,
			listDescription: "The subscribers of each channel (not archived), as the authoritative `zulip_channel_subscribers`, " +
				"one result per channel."}},
	{typeName: "zulip_user", newResource: NewUserResource, identity: &userIdentity, natural: &keyRule{attrs: []string{"email"}, fold: true}, journaled: true,
		adopt: &importSource{list: func(ctx context.Context, d *providerData, f filterValues) ([]importTarget, error) {
			return usersToImport(ctx, d, false, f)
		}, listDescription: "The organization's human users, by their real address where the provider's account may see it.",
			filters: map[string]listFilter{
				filterRole: {attr: listschema.StringAttribute{Optional: true,
					MarkdownDescription: "Lists only the users of this role: one of " + quoteAllCode(zulip.RoleNames()) + ".",
					Validators:          []validator.String{stringvalidator.OneOf(zulip.RoleNames()...)}}},
				filterIncludeDeactivated: {attr: listschema.BoolAttribute{Optional: true,
					MarkdownDescription: "Lists deactivated users too (they import with `active = false`). Default `false`."}},
			}}},
	{typeName: "zulip_bot", newResource: NewBotResource, identity: identity(identityOf("email", "The bot's e-mail address.", true)), natural: &keyRule{attrs: []string{"short_name"}, fold: true}, journaled: true,
		adopt: &importSource{list: func(ctx context.Context, d *providerData, f filterValues) ([]importTarget, error) {
			return usersToImport(ctx, d, true, f)
		}, listDescription: "The organization's active bots that have an owner (not Zulip's own system bots).",
			filters: map[string]listFilter{filterBotType: {attr: listschema.StringAttribute{Optional: true,
				MarkdownDescription: "Lists only the bots of this type: `generic`, `incoming_webhook`, `outgoing_webhook` or `embedded`.",
				Validators:          []validator.String{stringvalidator.OneOf("generic", "incoming_webhook", "outgoing_webhook", "embedded")}}}}}},
	// A saved snippet has no natural key: titles need not be unique.
	{typeName: "zulip_saved_snippet", newResource: NewSavedSnippetResource, identity: identity(identitySpec{attrs: []identityAttr{{name: "id", number: true,
		description: "The saved snippet's id (titles need not be unique)."}}}), natural: &keyRule{}, journaled: true,
		adopt: &importSource{list: importFrom(savedSnippetCollection, func(v zulip.SavedSnippet) (string, string, bool) {
			return v.Title, strconv.FormatInt(v.ID, 10), true
		}), listDescription: "The saved snippets of the provider's own account (snippets are private to their owner), shown " +
			"by title."}},
	{typeName: "zulip_channel_subscription", newResource: NewChannelSubscriptionResource, identity: identity(identityOfIDs(channelIDAttr, userIDAttr)),
		adopt: &importSource{list: subscriptionsOfUser, listOnly: true,
			listDescription: "The channels one user is subscribed to (not archived ones), as additive " +
				"`zulip_channel_subscription`s, shown by channel name: to manage one person's subscriptions where the " +
				"channels' subscribers are not managed whole. Do not list these beside `zulip_channel_subscribers` of the " +
				"same channels: the two would fight.",
			filters: userFilter("subscriptions")}},
	{typeName: "zulip_user_group_membership", newResource: NewUserGroupMembershipResource, identity: identity(identityOfIDs(groupIDAttr, userIDAttr)),
		adopt: &importSource{list: membershipsOfUser, listOnly: true,
			listDescription: "The user groups one user is a direct member of (not system groups), as additive " +
				"`zulip_user_group_membership`s, shown by group name: to manage one person's memberships where the groups' " +
				"members are not managed whole. Do not list these beside `zulip_user_group_members` of the same groups: " +
				"the two would fight.",
			filters: userFilter("memberships")}},
	{typeName: "zulip_user_topic", newResource: NewUserTopicResource, identity: identity(identitySpec{attrs: []identityAttr{channelIDAttr,
		{name: "topic", description: "The topic's name."}}, importID: func(v []string) string { return v[0] + ":" + v[1] },
		mutable: true}),
		adopt: &importSource{list: userTopicsToImport,
			listDescription: "The topic preferences (muted, unmuted, followed) of the provider's own account, shown as " +
				"`#channel > topic`."}},
	{typeName: "zulip_profile_data", newResource: NewProfileDataResource},
	{typeName: "zulip_message_flags", newResource: NewMessageFlagsResource, identity: identity(identityOf("id", "`<flag>:<message id>,<message id>,...`, as the import id.", true))},
	{typeName: "zulip_apns_device_token", newResource: NewAPNsDeviceTokenResource},
	{typeName: "zulip_push_test_notification", newResource: NewPushTestNotificationResource},
	{typeName: "zulip_message_report", newResource: NewMessageReportResource},
	{typeName: "zulip_own_account_deactivation", newResource: NewOwnAccountDeactivationResource},
	{typeName: "zulip_sms_question", newResource: NewSMSQuestionResource, noAccount: true},
}

// journaledTypes are the registry's journaled types.
var journaledTypes = registrySet(registry, func(e typeEntry) bool { return e.journaled })
