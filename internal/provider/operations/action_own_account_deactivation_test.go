package operations_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccOwnAccountDeactivationAction_example applies the action's example
// with its alias acting as Mark: the trigger deactivates his account; a wrong
// confirm_email fails the plan and deactivates nothing.
func TestAccOwnAccountDeactivationAction_example(t *testing.T) {
	srv := acctest.NewServer(t)
	mark, _ := srv.User(refserver.SeedMemberID)
	alias := strings.Replace(srv.ProviderConfig(t, refserver.SeedMemberID), `provider "zulip" {`, "provider \"zulip\" {\n  alias = \"leaving\"", 1)
	example := acctest.ReadExample(t, "examples/actions/zulip_own_account_deactivation/action.tf")
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.PlanFailsRE(alias+strings.Replace(example, mark.Email, "someone@zulip.example.com", 1), `Account Does Not Match confirm_email`),
		acctest.Apply(alias+example).OnServer(func() error {
			if u, _ := srv.User(refserver.SeedMemberID); u.Active {
				return fmt.Errorf("Mark is still active")
			}
			return nil
		}).Step(),
	))
}
