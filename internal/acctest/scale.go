package acctest

import (
	"fmt"
	"strings"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// The organization of issue 14's acceptance: 50 channels, 20 groups nested
// four deep, 500 group memberships and channel subscriptions, and permissions
// that refer to the groups.
const (
	ScaleGroups      = 20
	ScaleChannels    = 50
	scaleUsers       = 100
	ScaleFirstUserID = 1000 // ids of the users ScaleRealmSeed adds
)

// ScaleRealmSeed adds the people ScaleRealmConfig refers to.
func ScaleRealmSeed(r *refserver.Realm) {
	for i := range scaleUsers {
		id := ScaleFirstUserID + i
		r.Users[id] = &refserver.User{ID: id, Email: fmt.Sprintf("scale%d@example.com", i), FullName: fmt.Sprintf("Scale %d", i),
			APIKey: fmt.Sprintf("scalekey%032d", i), Role: refserver.RoleMember, IsActive: true, Timezone: "UTC",
			ProfileData: map[int]string{}}
		r.Groups[refserver.GroupFullMembers].Members = append(r.Groups[refserver.GroupFullMembers].Members, id)
	}
}

// ScaleRealmConfig is the configuration; imports adds an import block per
// resource (to adopt the organization from an empty state).
func ScaleRealmConfig(imports bool) string { return ScaleRealmConfigOf(1, imports) }

// ScaleRealmObjects is how many objects (groups, channels, memberships and
// subscriptions) ScaleRealmConfigOf(scale) declares.
func ScaleRealmObjects(scale int) int {
	return scale * (ScaleGroups*(1+scaleGroupMembers) + ScaleChannels*(1+scaleChannelSubscribers))
}

// Sizes of the scale realm's groups and channels.
const (
	scaleGroupMembers       = 25
	scaleChannelSubscribers = 10
)

// ScaleRealmConfigOf is the configuration of scale times the organization:
// scale*20 groups and scale*50 channels with their members and subscribers
// (scale 10 declares 10,700 objects in 1,400 resources).
func ScaleRealmConfigOf(scale int, imports bool) string {
	var b strings.Builder
	imp := func(to, id string) {
		if imports {
			fmt.Fprintf(&b, "import {\n  to = %s\n  id = %q\n}\n", to, id)
		}
	}
	for g := range scale * ScaleGroups {
		name := fmt.Sprintf("team-%02d", g)
		fmt.Fprintf(&b, "resource \"zulip_user_group\" \"g%d\" {\n  name        = %q\n  description = \"Team %d\"\n", g, name, g)
		if g%4 != 0 { // managed by the team above it
			fmt.Fprintf(&b, "  can_manage_group = { groups = [zulip_user_group.g%d.name] }\n", g-1)
		}
		b.WriteString("}\n")
		imp(fmt.Sprintf("zulip_user_group.g%d", g), name)
		members := make([]string, scaleGroupMembers)
		for m := range members {
			members[m] = fmt.Sprint(ScaleFirstUserID + (g*5+m)%scaleUsers)
		}
		fmt.Fprintf(&b, "resource \"zulip_user_group_members\" \"g%d\" {\n  group_id = zulip_user_group.g%d.id\n  members  = [%s]\n", g, g, strings.Join(members, ", "))
		if g%4 != 0 { // nested four deep: each team includes the one below it
			fmt.Fprintf(&b, "  subgroups = [zulip_user_group.g%d.name]\n", g-1)
		} else {
			b.WriteString("  subgroups = []\n")
		}
		b.WriteString("}\n")
		imp(fmt.Sprintf("zulip_user_group_members.g%d", g), name)
	}
	for c := range scale * ScaleChannels {
		name := fmt.Sprintf("project-%02d", c)
		privacy := "public"
		if c%5 == 0 {
			privacy = "private"
		}
		fmt.Fprintf(&b, "resource \"zulip_channel\" \"c%d\" {\n  name        = %q\n  description = \"Project %d\"\n  privacy     = %q\n"+
			"  can_send_message_group = { groups = [zulip_user_group.g%d.name, \"role:administrators\"] }\n"+
			"  can_administer_channel_group = { groups = [zulip_user_group.g%d.name] }\n}\n",
			c, name, c, privacy, c%(scale*ScaleGroups), (c+1)%(scale*ScaleGroups))
		imp(fmt.Sprintf("zulip_channel.c%d", c), name)
		subs := make([]string, scaleChannelSubscribers)
		for s := range subs {
			subs[s] = fmt.Sprint(ScaleFirstUserID + (c*7+s)%scaleUsers)
		}
		fmt.Fprintf(&b, "resource \"zulip_channel_subscribers\" \"c%d\" {\n  channel_id  = zulip_channel.c%d.id\n  subscribers = [%s]\n}\n",
			c, c, strings.Join(subs, ", "))
		imp(fmt.Sprintf("zulip_channel_subscribers.c%d", c), name)
	}
	return b.String()
}
