package messages_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// sentMessages checks that the server holds exactly n messages from sender
// in the channel's topic with the content.
func sentMessages(srv *acctest.Server, sender, channel int, topic, content string, n int) func() error {
	return func() error {
		got := 0
		srv.Do(func(r *refserver.Realm) {
			for _, m := range r.Messages {
				if m.SenderID == sender && m.ChannelID == channel && m.Topic == topic && m.Content == content {
					got++
				}
			}
		})
		if got != n {
			return fmt.Errorf("the server holds %d messages %q in topic %q, want %d", got, content, topic, n)
		}
		return nil
	}
}

// TestAccSendMessageAction_example applies the action's example: the
// action_trigger posts the message when the release record is created, and
// again when its version changes.
func TestAccSendMessageAction_example(t *testing.T) {
	srv := acctest.NewServer(t)
	cfg := srv.ProviderConfig(t, refserver.SeedMemberID) + acctest.ReadExample(t, "examples/actions/zulip_send_message/action.tf")
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(cfg).OnServer(sentMessages(srv, refserver.SeedMemberID, refserver.SeedChannelGeneral, "releases",
			"Release **2.4.0** is out: see the changelog.", 1)).Step(),
		acctest.Apply(cfg).Vars(config.Variables{"release": config.StringVariable("2.5.0")}).OnServer(acctest.ServerChecks(
			sentMessages(srv, refserver.SeedMemberID, refserver.SeedChannelGeneral, "releases", "Release **2.5.0** is out: see the changelog.", 1),
			sentMessages(srv, refserver.SeedMemberID, refserver.SeedChannelGeneral, "releases", "Release **2.4.0** is out: see the changelog.", 1),
		)).Step(),
	))
}

// TestAccSendMessageAction_planChecks: the plan refuses what the server
// would, as the resource's does.
func TestAccSendMessageAction_planChecks(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) { r.Channels[refserver.SeedChannelRandom].TopicsPolicy = "disable_empty_topic" })
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	cfg := func(body string) string { return member + acctest.TriggeredAction("zulip_send_message", body) }
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.PlanFails(cfg("    channel_id = 9999\n    topic = \"t\"\n    content = \"hi\""), "Channel Not Found", "channel_id"),
		acctest.PlanFails(cfg(fmt.Sprintf("    channel_id = %d\n    topic = \"\"\n    content = \"hi\"", refserver.SeedChannelRandom)),
			"Topic Required", "topic"),
		acctest.PlanFails(cfg("    channel_id = 1\n    content = \"hi\""), "Missing Topic", "topic"),
		acctest.PlanFails(cfg("    channel_id = 1\n    topic = \"t\"\n    content = \"hi\\n\""), "content", "must not end with whitespace"),
		acctest.PlanFails(cfg("    content = \"hi\""), "Missing Attribute Configuration", "channel_id,to_users"),
		acctest.PlanFails(cfg("    to_users = [\"5\", \"mei@zulip.example.com\"]\n    content = \"hi\""), "Mixed Recipients", "to_users"),
	))
}
