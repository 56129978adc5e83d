package operations_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

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
				ExpectError: acctest.ExpectErrRE(`Conflicting Devices`),
			},
			{
				Config:            owner + acctest.ReadExample(t, "examples/actions/zulip_push_test_notification/action.tf"),
				ConfigStateChecks: []statecheck.StateCheck{testAccPushSentCheck(srv, testAccPushOwnerE2EE)},
			},
		},
	})
}
