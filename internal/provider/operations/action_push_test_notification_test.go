package operations_test

import (
	"strings"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccPushTestNotificationAction_example applies the action's example:
// the trigger sends the owner's encrypted device a test notification; a
// device named twice is refused.
func TestAccPushTestNotificationAction_example(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.PlanFailsRE(owner+strings.Replace(acctest.ReadExample(t, "examples/actions/zulip_push_test_notification/action.tf"),
			"device_id = 2", "device_id = 2\n    token     = \"abc\"", 1), `Conflicting Devices`),
		acctest.Apply(owner+acctest.ReadExample(t, "examples/actions/zulip_push_test_notification/action.tf")).
			State(testAccPushSentCheck(srv, testAccPushOwnerE2EE)).Step(),
	))
}
