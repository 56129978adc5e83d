package provider

// The objects of each resource type that adopting an organization adopts:
// listed once, and used by both zulip_import_blocks (Terraform before 1.14)
// and the list resources of `terraform query` (kit/list.go).

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/realm"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/channels"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/groups"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/bots"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"

	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Filters of the user and channel lists.
const (
	filterRole               = "role"
	filterIncludeDeactivated = "include_deactivated"
	filterPrivacy            = "privacy"
	filterBotType            = "bot_type"
	filterUserID             = "user_id"
)

// importSources are the types adopted, in the order zulip_import_blocks
// writes them (registry.go).
var importSources = kit.AdoptedSources(registry)

// userFilter is the filter of a list of one user's objects (what).
func userFilter(what string) map[string]kit.ListFilter {
	return map[string]kit.ListFilter{filterUserID: {Attr: listschema.Int64Attribute{Required: true,
		MarkdownDescription: "The user whose " + what + " are listed."}}}
}

// subscriptionsOfUser lists the live channels a user (the user_id filter) is
// subscribed to.
func subscriptionsOfUser(ctx context.Context, d *kit.ProviderData, f kit.FilterValues) ([]kit.ImportTarget, error) {
	user := f.Number(filterUserID)
	subscribers, err := channels.Subscribers(ctx, d)
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

// membershipsOfUser lists the custom all a user (the user_id filter) is a
// direct member of.
func membershipsOfUser(ctx context.Context, d *kit.ProviderData, f kit.FilterValues) ([]kit.ImportTarget, error) {
	user := f.Number(filterUserID)
	all, err := kit.UserGroupCollection(d).List(ctx)
	if err != nil {
		return nil, err
	}
	var out []kit.ImportTarget
	for _, g := range all {
		if !g.IsSystemGroup && !g.Deactivated && slices.Contains(g.Members, user) {
			out = append(out, kit.ImportTarget{Name: g.Name, ID: groups.MembershipID(g.ID, user)})
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
		out = append(out, kit.ImportTarget{Name: channel + " " + v.TopicName, ID: channels.UserTopicID(v.StreamID, v.TopicName),
			Display: "#" + channel + " > " + v.TopicName})
	}
	return out, nil
}

// thisOrganization is the one object of the organization's settings.
func thisOrganization(_ context.Context, d *kit.ProviderData, _ kit.FilterValues) ([]kit.ImportTarget, error) {
	return []kit.ImportTarget{{Name: "this", ID: realm.RealmURL(d.Client), Display: realm.RealmURL(d.Client)}}, nil
}

// singleton is the one object of an organization-wide resource.
func singleton(id string) func(context.Context, *kit.ProviderData, kit.FilterValues) ([]kit.ImportTarget, error) {
	return func(context.Context, *kit.ProviderData, kit.FilterValues) ([]kit.ImportTarget, error) {
		return []kit.ImportTarget{{Name: "all", ID: id, Display: id}}, nil
	}
}

// orderOf is the order resource of a collection, when it has something to
// order (an order resource needs at least one object).
func orderOf[T any](coll func(*kit.ProviderData) *kit.Collection[T], id string, counts func(T) bool) func(context.Context, *kit.ProviderData, kit.FilterValues) ([]kit.ImportTarget, error) {
	return func(ctx context.Context, d *kit.ProviderData, _ kit.FilterValues) ([]kit.ImportTarget, error) {
		list, err := coll(d).List(ctx)
		if err != nil || !slices.ContainsFunc(list, counts) {
			return nil, err
		}
		return []kit.ImportTarget{{Name: "all", ID: id, Display: id}}, nil
	}
}

// customGroups are the user groups that are not system groups nor
// deactivated; liveChannels the channels that are not archived, by name.
var (
	customGroups = importFrom(kit.UserGroupCollection, func(v zulip.UserGroup) (string, string, bool) {
		return v.Name, v.Name, !v.IsSystemGroup && !v.Deactivated
	})
	liveChannels = importFromFiltered(kit.ChannelCollection, func(v zulip.Channel, f kit.FilterValues) (string, string, bool) {
		privacy := f.Str(filterPrivacy)
		return v.Name, v.Name, !v.IsArchived && (privacy == "" || privacy == channelPrivacy(v))
	})
)

// channelPrivacy is a channel's privacy as zulip_channel names it.
func channelPrivacy(c zulip.Channel) string {
	switch {
	case c.InviteOnly:
		return channels.PrivacyPrivate
	case c.IsWebPublic:
		return channels.PrivacyWebPublic
	default:
		return channels.PrivacyPublic
	}
}

// importFrom lists a collection's objects to import: pick gives a name, the
// import id, and whether the object is imported at all.
func importFrom[T any](coll func(*kit.ProviderData) *kit.Collection[T], pick func(T) (name, id string, ok bool)) func(context.Context, *kit.ProviderData, kit.FilterValues) ([]kit.ImportTarget, error) {
	return importFromFiltered(coll, func(v T, _ kit.FilterValues) (string, string, bool) { return pick(v) })
}

// importFromFiltered is importFrom for a type whose list has filters.
func importFromFiltered[T any](coll func(*kit.ProviderData) *kit.Collection[T], pick func(T, kit.FilterValues) (name, id string, ok bool)) func(context.Context, *kit.ProviderData, kit.FilterValues) ([]kit.ImportTarget, error) {
	return func(ctx context.Context, d *kit.ProviderData, f kit.FilterValues) ([]kit.ImportTarget, error) {
		list, err := coll(d).List(ctx)
		if err != nil {
			return nil, err
		}
		var out []kit.ImportTarget
		for _, v := range list {
			if name, id, ok := pick(v, f); ok {
				out = append(out, kit.ImportTarget{Name: name, ID: id})
			}
		}
		return out, nil
	}
}

// usersToImport lists the active humans (wantBots: the active bots of an owner)
// by their real address where the provider's account may see it, shown as
// "Full Name <address>".
func usersToImport(ctx context.Context, d *kit.ProviderData, wantBots bool, f kit.FilterValues) ([]kit.ImportTarget, error) {
	users, err := kit.Users(ctx, d)
	if err != nil {
		return nil, err
	}
	role := -1
	if name := f.Str(filterRole); name != "" {
		role, _ = zulip.RoleFromName(name) // validated by the schema
	}
	withDeactivated := !wantBots && f.Flag(filterIncludeDeactivated)
	botType, anyType := bots.BotTypes[f.Str(filterBotType)], f.Str(filterBotType) == ""
	var out []kit.ImportTarget
	for _, u := range users {
		switch {
		case u.IsBot != wantBots, !u.IsActive && !withDeactivated, wantBots && u.BotOwnerID == nil, role >= 0 && u.Role != role,
			wantBots && !anyType && (u.BotType == nil || *u.BotType != botType):
			continue
		}
		address := u.Email // the API address; the real one when the account may see it
		if u.DeliveryEmail != nil && *u.DeliveryEmail != "" {
			address = *u.DeliveryEmail
		}
		local, _, _ := strings.Cut(address, "@")
		out = append(out, kit.ImportTarget{Name: local, ID: address, Display: u.FullName + " <" + address + ">"})
	}
	slices.SortFunc(out, func(a, b kit.ImportTarget) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}
