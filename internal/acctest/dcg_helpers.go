package acctest

// Seeders of default channel groups.

import "github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"

// AddDefaultChannelGroup adds a default channel group behind the provider's
// back.
func AddDefaultChannelGroup(r *refserver.Realm, name, description string, channels ...int) *refserver.DefaultChannelGroup {
	r.NextID["default_channel_group"]++
	g := &refserver.DefaultChannelGroup{ID: r.NextID["default_channel_group"], Name: name, Description: description,
		ChannelIDs: append([]int{}, channels...)}
	r.DefaultChannelGroups = append(r.DefaultChannelGroups, g)
	return g
}

// DefaultChannelGroupNamed is the default channel group of a name, nil if
// there is none.
func DefaultChannelGroupNamed(r *refserver.Realm, name string) *refserver.DefaultChannelGroup {
	for _, g := range r.DefaultChannelGroups {
		if g.Name == name {
			return g
		}
	}
	return nil
}
