package kit

import (
	"context"
	"slices"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// The collections of the organization that the types read and write: each is
// read once per run, whichever type asks first.

// RealmDomainCollection is the organization's allowed domains, read once per run.
func RealmDomainCollection(d *ProviderData) *Collection[zulip.RealmDomain] {
	return newCollection(d, cacheRealmDomains, d.Client.ListRealmDomains)
}

// ChannelCollection is every channel the account can see, archived ones
// included, read once per run.
func ChannelCollection(d *ProviderData) *Collection[zulip.Channel] {
	return newCollection(d, cacheChannels, func(ctx context.Context) ([]zulip.Channel, error) {
		all, archived := true, false
		return d.Client.ListChannels(ctx, zulip.ListChannelsOptions{IncludeAll: &all, ExcludeArchived: &archived})
	})
}

// ChannelFolderCollection is every folder, archived ones included.
func ChannelFolderCollection(d *ProviderData) *Collection[zulip.ChannelFolder] {
	return newCollection(d, cacheChannelFolders, func(ctx context.Context) ([]zulip.ChannelFolder, error) {
		all := true
		return d.Client.ListChannelFolders(ctx, zulip.ListChannelFoldersOptions{IncludeArchived: &all})
	})
}

// PlaygroundCollection is the organization's playgrounds, read once per run.
func PlaygroundCollection(d *ProviderData) *Collection[zulip.Playground] {
	return StateCollection(d, cachePlaygrounds, zulip.EventTypeRealmPlaygrounds, func(r *zulip.RegisterResponse) []zulip.Playground { return r.RealmPlaygrounds })
}

// EmojiCollection is the organization's active custom emoji, read once per
// run: a name belongs to one active emoji at a time.
func EmojiCollection(d *ProviderData) *Collection[zulip.CustomEmoji] {
	return newCollection(d, cacheEmoji, func(ctx context.Context) ([]zulip.CustomEmoji, error) {
		all, err := d.Client.ListCustomEmoji(ctx)
		return slices.DeleteFunc(all, func(e zulip.CustomEmoji) bool { return e.Deactivated }), err
	})
}

// ProfileFieldCollection is the organization's custom profile fields, read
// once per run (the same cache entry as the profile data's).
func ProfileFieldCollection(d *ProviderData) *Collection[zulip.CustomProfileField] {
	return newCollection(d, cacheProfileFields, d.Client.ListCustomProfileFields)
}

// LinkifierCollection is the realm's linkifiers, read once per run.
func LinkifierCollection(d *ProviderData) *Collection[zulip.Linkifier] {
	return newCollection(d, cacheLinkifiers, d.Client.ListLinkifiers)
}

// SavedSnippetCollection is the account's saved snippets, read once per run.
func SavedSnippetCollection(d *ProviderData) *Collection[zulip.SavedSnippet] {
	return newCollection(d, cacheSavedSnippets, d.Client.ListSavedSnippets)
}

// UserTopicCollection is the account's user topics: one register call serves
// every zulip_user_topic of a run.
func UserTopicCollection(d *ProviderData) *Collection[zulip.UserTopic] {
	return StateCollection(d, cacheUserTopics, zulip.EventTypeUserTopic, func(r *zulip.RegisterResponse) []zulip.UserTopic { return r.UserTopics })
}

// collection cache keys.
const cacheRealmDomains = "realm_domains"

// cacheChannels is the cache key of every channel the account can see.
const cacheChannels = "channels"

// cacheChannelFolders is the cache key of the organization's folders.
const cacheChannelFolders = "channel folders"

// cachePlaygrounds is the cache key of the code playgrounds.
const cachePlaygrounds = "realm_playgrounds"

// cacheEmoji is the cache key of the organization's active custom emoji.
const cacheEmoji = "custom emoji"

// collection cache keys.
const cacheLinkifiers = "linkifiers"

// collection cache keys.
const cacheSavedSnippets = "saved_snippets"

// cacheUserTopics is the collection cache key of the caller's user topics.
const cacheUserTopics = "user_topics"

// cacheProfileFields is the cache key of the organization's custom profile
// fields.
const cacheProfileFields = "profile_data:fields"
