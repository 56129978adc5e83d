package acctest

// Seeders: objects added to the reference server behind the provider's back,
// as an administrator in the web app (or a killed apply) would leave them.

import "github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"

// AddGroup adds a custom group behind the provider's back.
func AddGroup(r *refserver.Realm, name, description string) *refserver.UserGroup {
	r.NextID["group"]++
	id := r.NextID["group"]
	g := &refserver.UserGroup{ID: id, Name: name, Description: description, Members: []int{}, DirectSubgroupIDs: []int{},
		Settings: map[string]refserver.GroupSetting{"can_manage_group": {GroupID: refserver.GroupAdministrators}}}
	r.Groups[id] = g
	return g
}

// AddFolder adds a channel folder behind the provider's back.
func AddFolder(r *refserver.Realm, name, description string) *refserver.ChannelFolder {
	r.NextID["channel_folder"]++
	f := &refserver.ChannelFolder{ID: r.NextID["channel_folder"], Name: name, Description: description, DateCreated: 1700000000}
	r.ChannelFolders = append(r.ChannelFolders, f)
	return f
}

// AddChannel adds a public channel behind the provider's back.
func AddChannel(r *refserver.Realm, name, description string) *refserver.Channel {
	r.NextID["channel"]++
	id := r.NextID["channel"]
	ch := &refserver.Channel{ID: id, Name: name, Description: description, DateCreated: 1700000000, HistoryPublicToSubscribers: true,
		StreamPostPolicy: 1, TopicsPolicy: "inherit", GroupSettings: map[string]refserver.GroupSetting{}, Subscribers: map[int]int{}}
	r.Channels[id] = ch
	return ch
}

// AddPlayground adds a playground behind the provider's back.
func AddPlayground(r *refserver.Realm, name, language, template string) {
	r.NextID["playground"]++
	r.Playgrounds = append(r.Playgrounds, &refserver.Playground{ID: r.NextID["playground"], Name: name, PygmentsLanguage: language, URLTemplate: template})
}

// AddEmoji adds an active emoji out of band.
func AddEmoji(r *refserver.Realm, name string, author int) {
	r.NextID["emoji"]++
	r.Emoji = append(r.Emoji, &refserver.CustomEmoji{ID: r.NextID["emoji"], Name: name, AuthorID: author, File: "abcdef01.png"})
}

// AddProfileField adds a short text field behind the provider's back.
func AddProfileField(r *refserver.Realm, name, hint string) {
	r.NextID["profile_field"]++
	id := r.NextID["profile_field"]
	r.ProfileFields = append(r.ProfileFields, &refserver.ProfileField{ID: id, Type: refserver.FieldShortText, Order: id,
		Name: name, Hint: hint, EditableByUser: true})
}
