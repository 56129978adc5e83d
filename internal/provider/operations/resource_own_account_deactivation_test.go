package operations_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func TestAccOwnAccountDeactivation_performsOnce(t *testing.T) {
	srv := acctest.NewServer(t)
	mei := refserver.SeedMember3ID
	cfg := srv.ProviderConfig(t, mei)
	addr := "zulip_own_account_deactivation.test"
	deletes := func(want int) statecheck.StateCheck {
		return acctest.ServerCheck(func() error {
			if got := srv.Requests("DELETE", "/api/v1/users/me"); got != want {
				return fmt.Errorf("%d DELETE /users/me requests, want %d", got, want)
			}
			return nil
		})
	}

	acctest.ParallelSteps(t,
		// The address is compared without regard to case.
		acctest.Apply(cfg+testAccOwnAccountDeactivationConfig("MEI@zulip.example.com", "1")).Planned(addr, plancheck.ResourceActionCreate).Plan(
			// The plan shows whose account it is.
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("user_id"), knownvalue.Int64Exact(int64(mei))),
		).Clean().State(
			acctest.Value(addr, "user_id", knownvalue.Int64Exact(int64(mei))),
			acctest.Value(addr, "performed_at", knownvalue.StringRegexp(acctest.RFC3339)),
			testAccUserActiveCheck(srv, mei, false),
			deletes(1),
		).Step(),
		// A second apply does nothing (and needs no working credentials).
		acctest.Apply(cfg+testAccOwnAccountDeactivationConfig("MEI@zulip.example.com", "1")).Plan(plancheck.ExpectEmptyPlan()).State(deletes(1)).Step(),
		// Reactivated by an administrator; a changed trigger deactivates
		// the account again.
		acctest.Apply(cfg+testAccOwnAccountDeactivationConfig("mei@zulip.example.com", "2")).Before(func() { testAccSetUserActive(srv, mei, true) }).
			Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).Clean().State(testAccUserActiveCheck(srv, mei, false), deletes(2)).Step(),
		// Without reactivation, performing it again fails: the account's
		// key no longer works. Nothing is sent.
		acctest.Apply(cfg+testAccOwnAccountDeactivationConfig("mei@zulip.example.com", "3")).
			Fails(acctest.ExpectErr("rejected its credentials", "Account is deactivated")).Step(),
		acctest.Apply(cfg).State(deletes(2)).Step(),
	)
}

func TestAccOwnAccountDeactivation_wrongAccount(t *testing.T) {
	srv := acctest.NewServer(t)
	cfg := srv.ProviderConfig(t, refserver.SeedMember3ID)
	acctest.ParallelSteps(t,
		acctest.PlanFails(cfg+testAccOwnAccountDeactivationConfig("mark@zulip.example.com", "1"), "Account Does Not Match confirm_email", "confirm_email",
			"configured with the account mei@zulip.example.com", `(user id 11), not "mark@zulip.example.com"`, "nothing was deactivated"),
		acctest.PlanFails(cfg+testAccOwnAccountDeactivationConfig(" mei@zulip.example.com", "1"), "confirm_email", "must not start or end with whitespace"),
		resource.TestStep{
			Config:             cfg,
			PlanOnly:           true,
			ExpectNonEmptyPlan: false,
			PreConfig: func() {
				if err := testAccUserActive(srv, refserver.SeedMember3ID, true); err != nil {
					t.Error(err)
				}
				if n := srv.Requests("DELETE", "/api/v1/users/me"); n != 0 {
					t.Errorf("%d DELETE /users/me requests, want none", n)
				}
			},
		},
	)
}

// TestAccOwnAccountDeactivation_realAddress confirms with the real address of
// an account whose API e-mail is a dummy one (e-mail visible to nobody).
func TestAccOwnAccountDeactivation_realAddress(t *testing.T) {
	srv := acctest.NewServer(t)
	maria, _ := srv.User(refserver.SeedMember2ID)
	acctest.ParallelSteps(t,
		acctest.Apply(srv.ProviderConfig(t, maria.ID)+testAccOwnAccountDeactivationConfig(maria.Email, "1")).State(testAccUserActiveCheck(srv, maria.ID, false)).Step(),
	)
}

func TestAccOwnAccountDeactivation_lastOwner(t *testing.T) {
	srv := acctest.NewServer(t)
	// With Oscar gone, Olivia is the only owner.
	testAccSetUserActive(srv, refserver.SeedOwner2ID, false)
	acctest.ParallelSteps(t,
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedOwnerID)+testAccOwnAccountDeactivationConfig("olivia@zulip.example.com", "1")).
			Fails(acctest.ExpectErr("Unable to Deactivate the Account", "the organization's only owner",
				"Make another user an owner first", "CANNOT_DEACTIVATE_LAST_USER")).Step(),
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedOwnerID)).State(testAccUserActiveCheck(srv, refserver.SeedOwnerID, true)).Step(),
	)
}

func TestAccOwnAccountDeactivation_onlyUser(t *testing.T) {
	srv := acctest.NewServer(t)
	mei := refserver.SeedMember3ID
	srv.Do(func(r *refserver.Realm) {
		for id, u := range r.Users {
			u.IsActive = id == mei
		}
	})
	acctest.ParallelSteps(t,
		acctest.Apply(srv.ProviderConfig(t, mei)+testAccOwnAccountDeactivationConfig("mei@zulip.example.com", "1")).
			Fails(acctest.ExpectErr("Unable to Deactivate the Account", "the organization's only active user",
				"deactivate the organization itself instead", "CANNOT_DEACTIVATE_LAST_USER")).Step(),
	)
}

func TestAccOwnAccountDeactivation_example(t *testing.T) {
	srv := acctest.NewServer(t)
	mei := refserver.SeedMember3ID
	acctest.ParallelSteps(t,
		acctest.Apply(srv.ProviderConfig(t, mei)+acctest.ReadExample(t, "examples/resources/zulip_own_account_deactivation/resource.tf")).State(
			acctest.Value("zulip_own_account_deactivation.mei", "user_id", knownvalue.Int64Exact(int64(mei))),
			testAccUserActiveCheck(srv, mei, false),
		).Clean().Step(),
	)
}

func testAccOwnAccountDeactivationConfig(email, round string) string {
	return fmt.Sprintf(`
resource "zulip_own_account_deactivation" "test" {
  confirm_email = %q
  triggers      = { round = %q }
}
`, email, round)
}

// testAccUserActive checks a user's is_active on the reference server.
func testAccUserActive(srv *acctest.Server, userID int, want bool) error {
	u, ok := srv.User(userID)
	switch {
	case !ok:
		return fmt.Errorf("no user %d", userID)
	case u.Active != want:
		return fmt.Errorf("user %d (%s) is_active = %v, want %v", userID, strings.ToLower(u.Email), u.Active, want)
	}
	return nil
}

// testAccUserActiveCheck is testAccUserActive as a state check.
func testAccUserActiveCheck(srv *acctest.Server, userID int, want bool) statecheck.StateCheck {
	return acctest.ServerCheck(func() error { return testAccUserActive(srv, userID, want) })
}

// testAccSetUserActive (re)activates or deactivates a user out of band.
func testAccSetUserActive(srv *acctest.Server, userID int, active bool) {
	srv.Do(func(r *refserver.Realm) { r.Users[userID].IsActive = active })
}
