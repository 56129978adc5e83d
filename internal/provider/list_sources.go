package provider

// The objects of each resource type that adopting an organization adopts:
// listed once, and used by both zulip_import_blocks (Terraform before 1.14)
// and the list resources of `terraform query` (list.go).

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// importTarget is one object to import: a name for its resource block, the
// import id its resource type accepts, and (when not the name) how a list
// shows it.
type importTarget struct {
	name, id, display string
}

// importSource lists the objects of one resource type.
type importSource struct {
	typeName string
	list     func(context.Context, *providerData, filterValues) ([]importTarget, error)
	// listDescription opens the description of the type's list resource;
	// filters are its filters beyond name_regex.
	listDescription string
	filters         map[string]listFilter
	// listOnly marks a type that only a list resource offers (with a filter
	// it needs), not zulip_import_blocks.
	listOnly bool
}

// Filters of the user and channel lists.
const (
	filterRole               = "role"
	filterIncludeDeactivated = "include_deactivated"
	filterPrivacy            = "privacy"
	filterBotType            = "bot_type"
	filterUserID             = "user_id"
)

// importSources are the types adopted, in the order zulip_import_blocks
// writes them (the organization first, then what refers to it).
var importSources = []importSource{
	{typeName: "zulip_realm", list: thisOrganization,
		listDescription: "The organization's settings: one result, imported by the organization's URL."},
	{typeName: "zulip_realm_user_defaults", list: thisOrganization,
		listDescription: "The organization's defaults for new users: one result, imported by the organization's URL."},
	{typeName: "zulip_allowed_domain", list: importFrom(realmDomainCollection, func(v zulip.RealmDomain) (string, string, bool) {
		return v.Domain, v.Domain, true
	}), listDescription: "The organization's allowed e-mail domains."},
	{typeName: "zulip_linkifier", list: importFrom(linkifierCollection, func(v zulip.Linkifier) (string, string, bool) {
		return v.Pattern, strconv.FormatInt(v.ID, 10), true
	}), listDescription: "The organization's linkifiers, shown by pattern."},
	{typeName: "zulip_code_playground", list: importFrom(playgroundCollection, func(v zulip.Playground) (string, string, bool) {
		return v.PygmentsLanguage + " " + v.Name, v.PygmentsLanguage + "/" + v.Name, true
	}), listDescription: "The organization's code playgrounds, shown by language and name."},
	{typeName: "zulip_custom_profile_field", list: importFrom(profileFieldCollection, func(v zulip.CustomProfileField) (string, string, bool) {
		return v.Name, v.Name, true
	}), listDescription: "The organization's custom profile fields."},
	{typeName: "zulip_custom_emoji", list: importFrom(emojiCollection, func(v zulip.CustomEmoji) (string, string, bool) {
		return v.Name, v.Name, true
	}), listDescription: "The organization's active custom emoji (the image is not downloaded: `source` is left out, which " +
		"an imported emoji allows)."},
	{typeName: "zulip_user_group", list: customGroups,
		listDescription: "The organization's user groups, without the system groups (`role:members` and the like), which " +
			"Zulip manages itself, and without deactivated groups."},
	{typeName: "zulip_channel_folder", list: importFrom(channelFolderCollection, func(v zulip.ChannelFolder) (string, string, bool) {
		return v.Name, v.Name, !v.IsArchived
	}), listDescription: "The organization's channel folders, without archived ones."},
	{typeName: "zulip_channel", list: liveChannels,
		listDescription: "The channels the provider's account can see, without archived ones (declaring an archived " +
			"channel's name unarchives it, so an archived channel is not an object Terraform manages).",
		filters: map[string]listFilter{filterPrivacy: {listschema.StringAttribute{Optional: true,
			MarkdownDescription: "Lists only the channels of this privacy: `public`, `private` or `web_public`.",
			Validators:          []validator.String{stringvalidator.OneOf(privacyPublic, privacyPrivate, privacyWebPublic)}}}}},
	{typeName: "zulip_default_channels", list: singleton("default_channels"),
		listDescription: "The organization's default channels: one result."},
	{typeName: "zulip_linkifier_order", list: orderOf(linkifierCollection, "linkifiers", func(zulip.Linkifier) bool { return true }),
		listDescription: "The order of the organization's linkifiers: one result when there is a linkifier."},
	{typeName: "zulip_custom_profile_field_order",
		list:            orderOf(profileFieldCollection, "custom_profile_fields", func(zulip.CustomProfileField) bool { return true }),
		listDescription: "The order of the organization's custom profile fields: one result when there is a field."},
	{typeName: "zulip_channel_folder_order",
		list:            orderOf(channelFolderCollection, "channel_folders", func(f zulip.ChannelFolder) bool { return !f.IsArchived }),
		listDescription: "The order of the organization's channel folders: one result when there is a folder."},
	{typeName: "zulip_user_group_members", list: customGroups,
		listDescription: "The members of each user group (not system groups), as the authoritative " +
			"`zulip_user_group_members`, one result per group."},
	{typeName: "zulip_channel_subscribers", list: liveChannels,
		listDescription: "The subscribers of each channel (not archived), as the authoritative `zulip_channel_subscribers`, " +
			"one result per channel."},
	{typeName: "zulip_user", list: func(ctx context.Context, d *providerData, f filterValues) ([]importTarget, error) {
		return usersToImport(ctx, d, false, f)
	}, listDescription: "The organization's human users, by their real address where the provider's account may see it.",
		filters: map[string]listFilter{
			filterRole: {listschema.StringAttribute{Optional: true,
				MarkdownDescription: "Lists only the users of this role: one of " + quoteAllCode(zulip.RoleNames()) + ".",
				Validators:          []validator.String{stringvalidator.OneOf(zulip.RoleNames()...)}}},
			filterIncludeDeactivated: {listschema.BoolAttribute{Optional: true,
				MarkdownDescription: "Lists deactivated users too (they import with `active = false`). Default `false`."}},
		}},
	{typeName: "zulip_bot", list: func(ctx context.Context, d *providerData, f filterValues) ([]importTarget, error) {
		return usersToImport(ctx, d, true, f)
	}, listDescription: "The organization's active bots that have an owner (not Zulip's own system bots).",
		filters: map[string]listFilter{filterBotType: {listschema.StringAttribute{Optional: true,
			MarkdownDescription: "Lists only the bots of this type: `generic`, `incoming_webhook`, `outgoing_webhook` or `embedded`.",
			Validators:          []validator.String{stringvalidator.OneOf("generic", "incoming_webhook", "outgoing_webhook", "embedded")}}}}},
	{typeName: "zulip_saved_snippet", list: importFrom(savedSnippetCollection, func(v zulip.SavedSnippet) (string, string, bool) {
		return v.Title, strconv.FormatInt(v.ID, 10), true
	}), listDescription: "The saved snippets of the provider's own account (snippets are private to their owner), shown " +
		"by title."},
	{typeName: "zulip_channel_subscription", list: subscriptionsOfUser, listOnly: true,
		listDescription: "The channels one user is subscribed to (not archived ones), as additive " +
			"`zulip_channel_subscription`s, shown by channel name: to manage one person's subscriptions where the " +
			"channels' subscribers are not managed whole. Do not list these beside `zulip_channel_subscribers` of the " +
			"same channels: the two would fight.",
		filters: userFilter("subscriptions")},
	{typeName: "zulip_user_group_membership", list: membershipsOfUser, listOnly: true,
		listDescription: "The user groups one user is a direct member of (not system groups), as additive " +
			"`zulip_user_group_membership`s, shown by group name: to manage one person's memberships where the groups' " +
			"members are not managed whole. Do not list these beside `zulip_user_group_members` of the same groups: " +
			"the two would fight.",
		filters: userFilter("memberships")},
	{typeName: "zulip_user_topic", list: userTopicsToImport,
		listDescription: "The topic preferences (muted, unmuted, followed) of the provider's own account, shown as " +
			"`#channel > topic`."},
}

// userFilter is the filter of a list of one user's objects (what).
func userFilter(what string) map[string]listFilter {
	return map[string]listFilter{filterUserID: {listschema.Int64Attribute{Required: true,
		MarkdownDescription: "The user whose " + what + " are listed."}}}
}

// subscriptionsOfUser lists the live channels a user (the user_id filter) is
// subscribed to.
func subscriptionsOfUser(ctx context.Context, d *providerData, f filterValues) ([]importTarget, error) {
	user := f.number(filterUserID)
	subscribers, err := d.subscribers(ctx)
	if err != nil {
		return nil, err
	}
	channels, err := channelCollection(d).list(ctx)
	if err != nil {
		return nil, err
	}
	var out []importTarget
	for _, c := range channels {
		if !c.IsArchived && slices.Contains(subscribers[c.StreamID], user) {
			out = append(out, importTarget{name: c.Name, id: strconv.FormatInt(c.StreamID, 10) + ":" + strconv.FormatInt(user, 10),
				display: "#" + c.Name})
		}
	}
	return out, nil
}

// membershipsOfUser lists the custom groups a user (the user_id filter) is a
// direct member of.
func membershipsOfUser(ctx context.Context, d *providerData, f filterValues) ([]importTarget, error) {
	user := f.number(filterUserID)
	groups, err := userGroupCollection(d).list(ctx)
	if err != nil {
		return nil, err
	}
	var out []importTarget
	for _, g := range groups {
		if !g.IsSystemGroup && !g.Deactivated && slices.Contains(g.Members, user) {
			out = append(out, importTarget{name: g.Name, id: membershipID(g.ID, user)})
		}
	}
	return out, nil
}

// userTopicsToImport lists the provider account's topic preferences, named
// after their channel and topic.
func userTopicsToImport(ctx context.Context, d *providerData, _ filterValues) ([]importTarget, error) {
	topics, err := userTopicCollection(d).list(ctx)
	if err != nil {
		return nil, err
	}
	channels, err := channelCollection(d).list(ctx)
	if err != nil {
		return nil, err
	}
	names := make(map[int64]string, len(channels))
	for _, c := range channels {
		names[c.StreamID] = c.Name
	}
	var out []importTarget
	for _, v := range topics {
		if v.VisibilityPolicy == zulip.VisibilityPolicyNone {
			continue
		}
		channel := names[v.StreamID]
		if channel == "" {
			channel = strconv.FormatInt(v.StreamID, 10)
		}
		out = append(out, importTarget{name: channel + " " + v.TopicName, id: userTopicID(v.StreamID, v.TopicName),
			display: "#" + channel + " > " + v.TopicName})
	}
	return out, nil
}

// thisOrganization is the one object of the organization's settings.
func thisOrganization(_ context.Context, d *providerData, _ filterValues) ([]importTarget, error) {
	return []importTarget{{name: "this", id: realmURL(d.client), display: realmURL(d.client)}}, nil
}

// singleton is the one object of an organization-wide resource.
func singleton(id string) func(context.Context, *providerData, filterValues) ([]importTarget, error) {
	return func(context.Context, *providerData, filterValues) ([]importTarget, error) {
		return []importTarget{{name: "all", id: id, display: id}}, nil
	}
}

// orderOf is the order resource of a collection, when it has something to
// order (an order resource needs at least one object).
func orderOf[T any](coll func(*providerData) *collection[T], id string, counts func(T) bool) func(context.Context, *providerData, filterValues) ([]importTarget, error) {
	return func(ctx context.Context, d *providerData, _ filterValues) ([]importTarget, error) {
		list, err := coll(d).list(ctx)
		if err != nil || !slices.ContainsFunc(list, counts) {
			return nil, err
		}
		return []importTarget{{name: "all", id: id, display: id}}, nil
	}
}

// customGroups are the user groups that are not system groups nor
// deactivated; liveChannels the channels that are not archived, by name.
var (
	customGroups = importFrom(userGroupCollection, func(v zulip.UserGroup) (string, string, bool) {
		return v.Name, v.Name, !v.IsSystemGroup && !v.Deactivated
	})
	liveChannels = importFromFiltered(channelCollection, func(v zulip.Channel, f filterValues) (string, string, bool) {
		privacy := f.str(filterPrivacy)
		return v.Name, v.Name, !v.IsArchived && (privacy == "" || privacy == channelPrivacy(v))
	})
)

// channelPrivacy is a channel's privacy as zulip_channel names it.
func channelPrivacy(c zulip.Channel) string {
	switch {
	case c.InviteOnly:
		return privacyPrivate
	case c.IsWebPublic:
		return privacyWebPublic
	default:
		return privacyPublic
	}
}

// importFrom lists a collection's objects to import: pick gives a name, the
// import id, and whether the object is imported at all.
func importFrom[T any](coll func(*providerData) *collection[T], pick func(T) (name, id string, ok bool)) func(context.Context, *providerData, filterValues) ([]importTarget, error) {
	return importFromFiltered(coll, func(v T, _ filterValues) (string, string, bool) { return pick(v) })
}

// importFromFiltered is importFrom for a type whose list has filters.
func importFromFiltered[T any](coll func(*providerData) *collection[T], pick func(T, filterValues) (name, id string, ok bool)) func(context.Context, *providerData, filterValues) ([]importTarget, error) {
	return func(ctx context.Context, d *providerData, f filterValues) ([]importTarget, error) {
		list, err := coll(d).list(ctx)
		if err != nil {
			return nil, err
		}
		var out []importTarget
		for _, v := range list {
			if name, id, ok := pick(v, f); ok {
				out = append(out, importTarget{name: name, id: id})
			}
		}
		return out, nil
	}
}

// usersToImport lists the active humans (bots: the active bots of an owner)
// by their real address where the provider's account may see it, shown as
// "Full Name <address>".
func usersToImport(ctx context.Context, d *providerData, bots bool, f filterValues) ([]importTarget, error) {
	users, err := userUsers(ctx, d)
	if err != nil {
		return nil, err
	}
	role := -1
	if name := f.str(filterRole); name != "" {
		role, _ = zulip.RoleFromName(name) // validated by the schema
	}
	withDeactivated := !bots && f.flag(filterIncludeDeactivated)
	botType, anyType := botTypes[f.str(filterBotType)], f.str(filterBotType) == ""
	var out []importTarget
	for _, u := range users {
		switch {
		case u.IsBot != bots, !u.IsActive && !withDeactivated, bots && u.BotOwnerID == nil, role >= 0 && u.Role != role,
			bots && !anyType && (u.BotType == nil || *u.BotType != botType):
			continue
		}
		address := u.Email // the API address; the real one when the account may see it
		if u.DeliveryEmail != nil && *u.DeliveryEmail != "" {
			address = *u.DeliveryEmail
		}
		local, _, _ := strings.Cut(address, "@")
		out = append(out, importTarget{name: local, id: address, display: u.FullName + " <" + address + ">"})
	}
	slices.SortFunc(out, func(a, b importTarget) int { return strings.Compare(a.id, b.id) })
	return out, nil
}
