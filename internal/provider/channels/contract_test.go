package channels_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/channels"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// contract is the area's test contract (acctest.Contract).
var contract = acctest.Contract{Area: channels.Area(), Types: map[string]acctest.TypeContract{
	"zulip_channel": {Name: "Channel", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_channel\" \"many%d\" {\n  name        = \"many-%d\"\n  description = \"\"\n}\n", i, i)
	}}, Kit: &acctest.KitCase{
		User:   refserver.SeedAdminID,
		Config: "resource \"zulip_channel\" \"test\" {\n  name        = \"kit-channel\"\n  description = \"Made by the kit's tests.\"\n}\n", ImportID: "kit-channel",
		Create: "POST /api/v1/channels/create", List: "GET /api/v1/streams",
		Count: func(r *refserver.Realm) int {
			return acctest.CountInMap(r.Channels, func(c *refserver.Channel) bool {
				return c.Name == "kit-channel" && c.Description == "Made by the kit's tests." && !c.IsArchived
			})
		},
		Twin:     func(r *refserver.Realm) { acctest.AddChannel(r, "kit-channel", "Made by the kit's tests.") },
		Stranger: func(r *refserver.Realm) { acctest.AddChannel(r, "kit-channel", "Someone else's channel.") },
	}, Renamed: &acctest.RenamedCase{
		Name: "ren-room",
		Config: `
resource "zulip_channel" "ref" {
  name        = "ren-room"
  description = "Where ops talks"
}

resource "zulip_bot" "referrer" {
  full_name               = "Ren Helper"
  short_name              = "renhelper"
  default_sending_channel = zulip_channel.ref.name
}
`,
		Referrer: "zulip_bot.referrer", At: tfjsonpath.New("default_sending_channel"), Want: knownvalue.StringExact("ren-room"),
		Rename: acctest.RenameIn(func(r *refserver.Realm) map[int]*refserver.Channel { return r.Channels },
			func(c *refserver.Channel) *string { return &c.Name }),
	}, Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_channel" "general" {
  name        = "general"
  description = "Everyone is here."
}`}, Example: &acctest.ExampleCase{User: refserver.SeedOwnerID, // its channels name a group the example creates
		Checks: []statecheck.StateCheck{
			acctest.Value("zulip_channel.security", "privacy", knownvalue.StringExact("private")),
			acctest.Value("zulip_channel.releases", "can_send_message_group", acctest.PermissionOf([]string{"release-managers"})),
		}}},
	"zulip_channel_folder": {Name: "ChannelFolder", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_channel_folder\" \"many%d\" {\n  name = \"Many %d\"\n}\n", i, i)
	}}, Kit: &acctest.KitCase{
		User:   refserver.SeedAdminID,
		Config: "resource \"zulip_channel_folder\" \"test\" {\n  name        = \"Kit\"\n  description = \"Made by the kit's tests.\"\n}\n",
		Create: "POST /api/v1/channel_folders/create", List: "GET /api/v1/channel_folders", ImportID: "Kit",
		Count: func(r *refserver.Realm) int {
			return acctest.CountIn(r.ChannelFolders, func(f *refserver.ChannelFolder) bool {
				return f.Name == "Kit" && f.Description == "Made by the kit's tests." && !f.IsArchived
			})
		},
		Twin:     func(r *refserver.Realm) { acctest.AddFolder(r, "Kit", "Made by the kit's tests.") },
		Stranger: func(r *refserver.Realm) { acctest.AddFolder(r, "KIT", "Someone else's folder.") },
	}, RenameExempt: "channels and the folder order refer to folders by id",
		Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_channel_folder" "engineering" {
  name = "Engineering"
}`, Setup: func(r *refserver.Realm) { acctest.AddFolder(r, "Engineering", "") }},
		Example: &acctest.ExampleCase{User: refserver.SeedAdminID}},
	"zulip_default_channels": {Name: "DefaultChannels", HalfExempt: acctest.SingletonHalf, ScaleExempt: acctest.SingletonScale, Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_default_channels" "all" {
  channel_ids = [1, 2]
}`}, Example: &acctest.ExampleCase{User: refserver.SeedAdminID}},
	"zulip_default_channel_group": {Name: "DefaultChannelGroup", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_default_channel_group\" \"many%d\" {\n  name        = \"Many group %d\"\n  description = \"\"\n  channel_ids = [7]\n}\n", i, i)
	}}, Kit: &acctest.KitCase{
		User:   refserver.SeedAdminID,
		Config: "resource \"zulip_default_channel_group\" \"test\" {\n  name        = \"Kit group\"\n  description = \"Made by the kit's tests.\"\n  channel_ids = [7]\n}\n",
		Create: "POST /api/v1/default_stream_groups/create", List: "POST /api/v1/register", ImportID: "Kit group",
		Count: func(r *refserver.Realm) int {
			return acctest.CountIn(r.DefaultChannelGroups, func(g *refserver.DefaultChannelGroup) bool {
				return g.Name == "Kit group" && g.Description == "Made by the kit's tests." && slices.Equal(g.ChannelIDs, []int{refserver.SeedChannelRandom})
			})
		},
		Twin: func(r *refserver.Realm) {
			acctest.AddDefaultChannelGroup(r, "Kit group", "Made by the kit's tests.", refserver.SeedChannelRandom)
		},
		Stranger: func(r *refserver.Realm) { acctest.AddDefaultChannelGroup(r, "Kit group", "Someone else's group.") },
		Made:     true, // the create reads the groups to find the id; TestAccDefaultChannelGroup_idReadFails fails that read
	}, RenameExempt: "nothing refers to a default channel group by name (Zulip's sign-up and invitations take channel ids)",
		Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_default_channel_group" "engineering" {
  name        = "Engineering"
  description = "Channels for engineers."
  channel_ids = [3, 7]
}`}, Example: &acctest.ExampleCase{User: refserver.SeedAdminID}},
	"zulip_channel_folder_order": {Name: "ChannelFolderOrder", HalfExempt: acctest.SingletonHalf, ScaleExempt: acctest.SingletonScale, Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_channel_folder_order" "all" {
  folders = [1, 2]
}`, Setup: func(r *refserver.Realm) {
		acctest.AddFolder(r, "Teams", "")
		acctest.AddFolder(r, "Projects", "")
	}}, Example: &acctest.ExampleCase{User: refserver.SeedAdminID}},
	"zulip_channel_subscribers": {Name: "ChannelSubscribers", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_channel\" \"subscribers%d\" {\n  name        = \"subscribers-%d\"\n  description = \"\"\n}\nresource \"zulip_channel_subscribers\" \"many%d\" {\n  channel_id  = zulip_channel.subscribers%d.id\n  subscribers = [5, 6]\n}\n", i, i, i, i)
	}}, HalfExempt: "one request for the members added (POST /users/me/subscriptions)",
		Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_channel_subscribers" "design" {
  channel_id  = 3
  subscribers = [1, 2, 5]
}`}, Example: &acctest.ExampleCase{User: refserver.SeedAdminID, Vars: config.Variables{
			"sre_lead_id": config.IntegerVariable(refserver.SeedMemberID), "sre_oncall_id": config.IntegerVariable(refserver.SeedMember3ID),
		}}},
	"zulip_channel_subscription": {Name: "ChannelSubscription", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_channel\" \"subscription%d\" {\n  name        = \"subscription-%d\"\n  description = \"\"\n}\nresource \"zulip_channel_subscription\" \"many%d\" {\n  channel_id = zulip_channel.subscription%d.id\n  user_id    = 11\n}\n", i, i, i, i)
	}}, HalfExempt: "one request (POST /users/me/subscriptions)",
		Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_channel_subscription" "mia_in_random" {
  channel_id = 7
  user_id    = 11
}`}, Example: &acctest.ExampleCase{User: refserver.SeedAdminID,
			Vars: config.Variables{"ann_id": config.IntegerVariable(refserver.SeedMember2ID)}}},
	"zulip_user_topic": {Name: "UserTopic", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_user_topic\" \"many%d\" {\n  channel_id        = 1\n  topic             = \"many %d\"\n  visibility_policy = \"muted\"\n}\n", i, i)
	}}, HalfExempt: "one request (POST /user_topics)",
		RenameExempt: "nothing refers to a user topic; its identity follows Zulip's spelling of the topic",
		Import: &acctest.ImportCase{User: refserver.SeedMemberID, Config: `
resource "zulip_user_topic" "releases" {
  channel_id        = 1
  topic             = "releases"
  visibility_policy = "followed"
}`}},
}, DataSources: map[string]acctest.DataContract{
	"zulip_channels": {ScaleExempt: "each block lists the channels with its own filters (GET /streams and its include_* parameters)"},
	"zulip_channel":  {Scale: acctest.DataBlocks(refserver.SeedAdminID, "zulip_channel", "  name = \"general\"\n")},
	"zulip_topics": {ScaleExempt: "Zulip lists topics per channel (GET /users/me/{channel_id}/topics), each block its channel's; " +
		"blocks on one channel do not share a list either: Zulip posts messages as a side effect of other writes (the \"channel events\" notices " +
		"of a channel's creation or settings change, a message report), so a list read earlier in the run may lack a topic"},
	"zulip_channel_folders": {Scale: acctest.DataBlocks(refserver.SeedAdminID, "zulip_channel_folders", "")},
}}

func TestContract(t *testing.T)              { contract.Check(t) }
func TestAccContract(t *testing.T)           { contract.Run(t) }
func TestAccContract_versioned(t *testing.T) { contract.RunVersioned(t) }
