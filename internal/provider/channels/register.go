package channels

// Channels: what the area declares.

import (
	"context"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Area declares the area's types (kit.Area).
func Area() kit.Area {
	return kit.Area{
		Resources: []kit.TypeEntry{
			{TypeName: "zulip_channel_folder", Contract: kit.CollectionObject, NewResource: NewChannelFolderResource, Identity: kit.Identity(kit.IdentityOf("name", "The channel folder's name.", true)), Natural: &kit.KeyRule{Attrs: []string{"name"}, Fold: true}, Journaled: true,
				Role: &kit.TypeRole{Need: kit.RoleAdministrator, Of: "channel folders"}, Level: featureChannelFolders,
				Destroy: &kit.Note{Title: "Channel Folder Will Be Archived", Detail: "Zulip never deletes channel folders: " +
					"destroying archives the folder (its channels leave it first). Declaring a folder of that name again unarchives it."},
				Adopt: &kit.ImportSource{Stage: kit.StageObjects, List: kit.ImportFrom(kit.ChannelFolderCollection, func(v zulip.ChannelFolder) (string, string, bool) {
					return v.Name, v.Name, !v.IsArchived
				}), ListDescription: "The organization's channel folders, without archived ones."}},
			{TypeName: "zulip_channel", Contract: kit.CollectionObject, NewResource: NewChannelResource, Identity: kit.Identity(kit.IdentityOf("name", "The channel's name.", true)), Natural: &kit.KeyRule{Attrs: []string{"name"}, Fold: true}, Journaled: true,
				AttrLevels: map[string]int{"folder_id": featureChannelFolders},
				Destroy: &kit.Note{Title: "Channel Will Be Archived", Detail: "Zulip never deletes channels: destroying " +
					"archives the channel, which keeps its messages, subscribers and name. Declaring a channel of that name again unarchives it."},
				Adopt: &kit.ImportSource{Stage: kit.StageObjects, List: liveChannels,
					ListDescription: "The channels the provider's account can see, without archived ones (declaring an archived " +
						"channel's name unarchives it, so an archived channel is not an object Terraform manages).",
					Filters: map[string]kit.ListFilter{filterPrivacy: {Attr: listschema.StringAttribute{Optional: true,
						MarkdownDescription: "Lists only the channels of this privacy: `public`, `private` or `web_public`.",
						Validators:          []validator.String{stringvalidator.OneOf(PrivacyPublic, PrivacyPrivate, PrivacyWebPublic)}}}}}},
			{TypeName: "zulip_default_channels", Contract: kit.ManagedObject, NewResource: NewDefaultChannelsResource, Identity: &kit.SingletonIdentity,
				Role: &kit.TypeRole{Need: kit.RoleAdministrator, Of: "the default channels"},
				Adopt: &kit.ImportSource{Stage: kit.StageObjects, List: kit.Singleton("default_channels"),
					ListDescription: "The organization's default channels: one result."}},
			{TypeName: "zulip_default_channel_group", Contract: kit.CollectionObject, NewResource: NewDefaultChannelGroupResource,
				Identity: kit.Identity(kit.IdentityOf("name", "The default channel group's name.", true)), Journaled: true,
				Role: &kit.TypeRole{Need: kit.RoleAdministrator, Of: "default channel groups"},
				Adopt: &kit.ImportSource{Stage: kit.StageObjects, List: kit.ImportFrom(defaultChannelGroupCollection, func(v zulip.DefaultChannelGroup) (string, string, bool) {
					return v.Name, defaultChannelGroupImportID(v), true
				}), ListDescription: "The organization's default channel groups, by name."}},
			{TypeName: "zulip_channel_folder_order", Contract: kit.ManagedObject, NewResource: channelFolderOrder.New, Identity: &kit.SingletonIdentity,
				Adopt: &kit.ImportSource{Stage: kit.StageOrders, List: kit.OrderOf(kit.ChannelFolderCollection, "channel_folders", func(f zulip.ChannelFolder) bool { return !f.IsArchived }),
					ListDescription: "The order of the organization's channel folders: one result when there is a folder."}},
			{TypeName: "zulip_channel_subscribers", Contract: kit.ManagedObject, NewResource: NewChannelSubscribersResource, Identity: kit.Identity(kit.IdentityOfIDs(kit.ChannelIDAttr)),
				Adopt: &kit.ImportSource{Stage: kit.StageMembers, List: liveChannels,
					ListDescription: "The subscribers of each channel (not archived), as the authoritative `zulip_channel_subscribers`, " +
						"one result per channel."}},
			{TypeName: "zulip_channel_subscription", Contract: kit.ManagedObject, NewResource: NewChannelSubscriptionResource, Identity: kit.Identity(kit.IdentityOfIDs(kit.ChannelIDAttr, kit.UserIDAttr)),
				Adopt: &kit.ImportSource{Stage: kit.StageOwn, List: subscriptionsOfUser, ListOnly: true,
					ListDescription: "The channels one user is subscribed to (not archived ones), as additive " +
						"`zulip_channel_subscription`s, shown by channel name: to manage one person's subscriptions where the " +
						"channels' subscribers are not managed whole. Do not list these beside `zulip_channel_subscribers` of the " +
						"same channels: the two would fight.",
					Filters: kit.UserFilter("subscriptions")}},
			{TypeName: "zulip_user_topic", Contract: kit.ManagedObject, NewResource: NewUserTopicResource, Identity: kit.Identity(kit.IdentitySpec{Attrs: []kit.IdentityAttr{kit.ChannelIDAttr,
				{Name: "topic", Description: "The topic's name."}}, ImportID: func(v []string) string { return v[0] + ":" + v[1] },
				Mutable: true}),
				Adopt: &kit.ImportSource{Stage: kit.StageOwn, List: userTopicsToImport,
					ListDescription: "The topic preferences (muted, unmuted, followed) of the provider's own account, shown as " +
						"`#channel > topic`."}},
		},
		DataSources: []func() datasource.DataSource{channelsData.New, channelData.New, topicsData.New, channelFoldersData.New},
		State:       []string{zulip.EventTypeDefaultStreams, zulip.EventTypeDefaultStreamGroups, zulip.EventTypeUserTopic},
	}
}

// filterPrivacy is the filter of the channel list by privacy.
const filterPrivacy = "privacy"

// liveChannels are the channels that are not archived, by name.
var liveChannels = kit.ImportFromFiltered(kit.ChannelCollection, func(v zulip.Channel, f kit.FilterValues) (string, string, bool) {
	privacy := f.Str(filterPrivacy)
	return v.Name, v.Name, !v.IsArchived && (privacy == "" || privacy == channelPrivacy(v))
})

// channelPrivacy is a channel's privacy as zulip_channel names it.
func channelPrivacy(c zulip.Channel) string {
	switch {
	case c.InviteOnly:
		return PrivacyPrivate
	case c.IsWebPublic:
		return PrivacyWebPublic
	default:
		return PrivacyPublic
	}
}

// subscriptionsOfUser lists the live channels a user (the user_id filter) is
// subscribed to.
func subscriptionsOfUser(ctx context.Context, d *kit.ProviderData, f kit.FilterValues) ([]kit.ImportTarget, error) {
	user := f.Number(kit.FilterUserID)
	subscribers, err := subscribers(ctx, d)
	if err != nil {
		return nil, err
	}
	all, err := kit.ChannelCollection(d).List(ctx)
	if err != nil {
		return nil, err
	}
	var out []kit.ImportTarget
	for _, c := range all {
		if !c.IsArchived && slices.Contains(subscribers[c.StreamID], user) {
			out = append(out, kit.ImportTarget{Name: c.Name, ID: strconv.FormatInt(c.StreamID, 10) + ":" + strconv.FormatInt(user, 10),
				Display: "#" + c.Name})
		}
	}
	return out, nil
}

// userTopicsToImport lists the provider account's topic preferences, named
// after their channel and topic.
func userTopicsToImport(ctx context.Context, d *kit.ProviderData, _ kit.FilterValues) ([]kit.ImportTarget, error) {
	topics, err := kit.UserTopicCollection(d).List(ctx)
	if err != nil {
		return nil, err
	}
	all, err := kit.ChannelCollection(d).List(ctx)
	if err != nil {
		return nil, err
	}
	names := make(map[int64]string, len(all))
	for _, c := range all {
		names[c.StreamID] = c.Name
	}
	var out []kit.ImportTarget
	for _, v := range topics {
		if v.VisibilityPolicy == zulip.VisibilityPolicyNone {
			continue
		}
		channel := names[v.StreamID]
		if channel == "" {
			channel = strconv.FormatInt(v.StreamID, 10)
		}
		out = append(out, kit.ImportTarget{Name: channel + " " + v.TopicName, ID: userTopicID(v.StreamID, v.TopicName),
			Display: "#" + channel + " > " + v.TopicName})
	}
	return out, nil
}
