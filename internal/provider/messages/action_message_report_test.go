package messages_test

import (
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccMessageReportAction_example applies the action's example: the
// action_trigger posts the report when the resource is created, and nothing
// of the action is in state.
func TestAccMessageReportAction_example(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedMemberID)+acctest.ReadExample(t, "examples/actions/zulip_message_report/action.tf")).
			State(testAccReportsCheck(srv, []string{"#**random>cats@10**", "Reason: **spam**", "third time this week"})).Step(),
	))
}

// TestAccMessageReportAction_planChecks: the plan refuses what the server
// would (an unknown report type, a missing description for "other", a
// server before message reports).
func TestAccMessageReportAction_planChecks(t *testing.T) {
	srv := acctest.NewServer(t)
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 381 })
	body := "    message_id = 10\n    report_type = \"spam\""
	config := func(args string) string {
		return srv.ProviderConfig(t, refserver.SeedMemberID) + acctest.TriggeredAction("zulip_message_report", args)
	}
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.PlanFailsRE(config("    message_id = 10\n    report_type = \"rude\""), `Unknown Report Type`),
		acctest.PlanFailsRE(config("    message_id = 10\n    report_type = \"other\""), `Missing Report Description`),
		acctest.PlanFails(old.ProviderConfig(t, refserver.SeedMemberID)+acctest.TriggeredAction("zulip_message_report", body),
			"Zulip Server Too Old", "zulip_message_report needs Zulip feature level 382"),
	))
}
