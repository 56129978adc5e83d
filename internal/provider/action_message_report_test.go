package provider_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

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
				ExpectError: regexp.MustCompile(`Unknown Report Type`)},
			{Config: config("    message_id = 10\n    report_type = \"other\""), PlanOnly: true,
				ExpectError: regexp.MustCompile(`Missing Report Description`)},
		},
	})
}

// TestAccOwnAccountDeactivationAction_example applies the action's example
// with its alias acting as Mark: the trigger deactivates his account; a wrong
// confirm_email fails the plan and deactivates nothing.
func TestAccOwnAccountDeactivationAction_example(t *testing.T) {
	srv := acctest.NewServer(t)
	mark, _ := srv.User(refserver.SeedMemberID)
	alias := strings.Replace(srv.ProviderConfig(t, refserver.SeedMemberID), `provider "zulip" {`, "provider \"zulip\" {\n  alias = \"leaving\"", 1)
	example := acctest.ReadExample(t, "examples/actions/zulip_own_account_deactivation/action.tf")
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.ActionVersions,
		Steps: []resource.TestStep{
			{
				Config:      alias + strings.Replace(example, mark.Email, "someone@zulip.example.com", 1),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Account Does Not Match confirm_email`),
			},
			{
				Config: alias + example,
				Check: func(*terraform.State) error {
					if u, _ := srv.User(refserver.SeedMemberID); u.Active {
						return fmt.Errorf("Mark is still active")
					}
					return nil
				},
			},
		},
	})
}

// TestAccPushTestNotificationAction_example applies the action's example:
// the trigger sends the owner's encrypted device a test notification; a
// device named twice is refused.
func TestAccPushTestNotificationAction_example(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.ActionVersions,
		Steps: []resource.TestStep{
			{
				Config: owner + strings.Replace(acctest.ReadExample(t, "examples/actions/zulip_push_test_notification/action.tf"),
					"device_id = 2", "device_id = 2\n    token     = \"abc\"", 1),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Conflicting Devices`),
			},
			{
				Config:            owner + acctest.ReadExample(t, "examples/actions/zulip_push_test_notification/action.tf"),
				ConfigStateChecks: []statecheck.StateCheck{testAccPushSentCheck(srv, testAccPushOwnerE2EE)},
			},
		},
	})
}
