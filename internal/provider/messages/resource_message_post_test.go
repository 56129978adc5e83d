package messages_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// testAccMessagePostConfig posts content to #general's topic "deploys",
// again whenever round changes.
func testAccMessagePostConfig(content, round string) string {
	return fmt.Sprintf(`
resource "zulip_message_post" "test" {
  channel_id = %d
  topic      = "deploys"
  content    = %q
  triggers   = { round = %q }
}
`, refserver.SeedChannelGeneral, content, round)
}

func TestAccMessagePost_performsOnce(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	addr := "zulip_message_post.test"
	posted := func(content string, n int) func() error {
		return sentMessages(srv, refserver.SeedMemberID, refserver.SeedChannelGeneral, "deploys", content, n)
	}
	acctest.ParallelSteps(t,
		acctest.Apply(member+testAccMessagePostConfig("Deploying.", "1")).Planned(addr, plancheck.ResourceActionCreate).Clean().
			OnServer(posted("Deploying.", 1)).Step(),
		// A second apply posts nothing.
		acctest.Apply(member+testAccMessagePostConfig("Deploying.", "1")).Plan(plancheck.ExpectEmptyPlan()).
			OnServer(posted("Deploying.", 1)).Step(),
		// A changed trigger posts again.
		acctest.Apply(member+testAccMessagePostConfig("Deploying.", "2")).Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).Clean().
			OnServer(posted("Deploying.", 2)).Step(),
		// So does a changed content; the earlier posts stay.
		acctest.Apply(member+testAccMessagePostConfig("Deployed.", "2")).Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).
			OnServer(acctest.ServerChecks(posted("Deploying.", 2), posted("Deployed.", 1))).Step(),
		// Destroying only forgets: the messages stay.
		acctest.Apply(member).Planned(addr, plancheck.ResourceActionDestroy).
			OnServer(acctest.ServerChecks(posted("Deploying.", 2), posted("Deployed.", 1))).Step(),
	)
}

// TestAccMessagePost_planChecks: the plan refuses what the server would.
func TestAccMessagePost_planChecks(t *testing.T) {
	srv := acctest.NewServer(t)
	step := acctest.PlanFailsAs(srv.ProviderConfig(t, refserver.SeedMemberID))
	post := func(body string) string { return "resource \"zulip_message_post\" \"test\" {\n" + body + "\n}\n" }
	acctest.ParallelSteps(t,
		step(post("  channel_id = 9999\n  topic = \"t\"\n  content = \"hi\""), "Channel Not Found", "channel_id"),
		step(post(fmt.Sprintf("  channel_id = %d\n  topic = \"t\"\n  content = \"hi\"", refserver.SeedChannelArchived)), "Channel Is Archived", "channel_id"),
		step(post("  channel_id = 1\n  content = \"hi\""), "Missing Topic", "topic"),
		step(post("  channel_id = 1\n  topic = \"t\"\n  content = \" \""), "content", "must not be empty"),
		step(post("  to_users = [\"5\"]\n  channel_id = 1\n  topic = \"t\"\n  content = \"hi\""), "Invalid Attribute Combination", "channel_id,to_users"),
	)
}

// TestAccMessagePost_direct: a direct message by user id.
func TestAccMessagePost_direct(t *testing.T) {
	srv := acctest.NewServer(t)
	cfg := srv.ProviderConfig(t, refserver.SeedMemberID) + fmt.Sprintf("resource \"zulip_message_post\" \"test\" {\n  to_users = [\"%d\"]\n  content = \"Ping.\"\n}\n", refserver.SeedMember3ID)
	acctest.ParallelSteps(t,
		acctest.Apply(cfg).Clean().OnServer(func() error {
			var err error
			srv.Do(func(r *refserver.Realm) {
				last := r.Messages[len(r.Messages)-1]
				if last.Content != "Ping." || fmt.Sprint(last.DirectRecipients) != fmt.Sprint([]int{refserver.SeedMemberID, refserver.SeedMember3ID}) {
					err = fmt.Errorf("the last message is %+v", *last)
				}
			})
			return err
		}).Step(),
	)
}
