package messages_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccMessageReportAction_example applies the action's example: the
// action_trigger posts the report when the resource is created, and nothing
// of the action is in state.
func TestAccMessageReportAction_example(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.ActionVersions,
		Steps: []resource.TestStep{{
			Config: srv.ProviderConfig(t, refserver.SeedMemberID) + acctest.ReadExample(t, "examples/actions/zulip_message_report/action.tf"),
			ConfigStateChecks: []statecheck.StateCheck{
				testAccReportsCheck(srv, []string{"#**random>cats@10**", "Reason: **spam**", "third time this week"}),
			},
		}},
	})
}

// TestAccMessageReportAction_planChecks: the plan refuses what the server
// would (an unknown report type, a missing description for "other").
func TestAccMessageReportAction_planChecks(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	config := func(body string) string {
		return member + `
action "zulip_message_report" "test" {
  config {
` + body + `
  }
}

resource "terraform_data" "trigger" {
  input = "x"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.zulip_message_report.test]
    }
  }
}
`
	}
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.ActionVersions,
		Steps: []resource.TestStep{
			{Config: config("    message_id = 10\n    report_type = \"rude\""), PlanOnly: true,
				ExpectError: acctest.ExpectErrRE(`Unknown Report Type`)},
			{Config: config("    message_id = 10\n    report_type = \"other\""), PlanOnly: true,
				ExpectError: acctest.ExpectErrRE(`Missing Report Description`)},
		},
	})
}
