package operations_test

import (
	"fmt"
	"os"
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

	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				// The address is compared without regard to case.
				Config: cfg + testAccOwnAccountDeactivationConfig("MEI@zulip.example.com", "1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
						// The plan shows whose account it is.
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("user_id"), knownvalue.Int64Exact(int64(mei))),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("user_id"), knownvalue.Int64Exact(int64(mei))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("performed_at"), knownvalue.StringRegexp(acctest.RFC3339)),
					testAccUserActiveCheck(srv, mei, false),
					deletes(1),
				},
			},
			{
				// A second apply does nothing (and needs no working credentials).
				Config: cfg + testAccOwnAccountDeactivationConfig("MEI@zulip.example.com", "1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{deletes(1)},
			},
			{
				// Reactivated by an administrator; a changed trigger deactivates
				// the account again.
				PreConfig: func() { testAccSetUserActive(srv, mei, true) },
				Config:    cfg + testAccOwnAccountDeactivationConfig("mei@zulip.example.com", "2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					testAccUserActiveCheck(srv, mei, false),
					deletes(2),
				},
			},
			{
				// Without reactivation, performing it again fails: the account's
				// key no longer works. Nothing is sent.
				Config:      cfg + testAccOwnAccountDeactivationConfig("mei@zulip.example.com", "3"),
				ExpectError: acctest.ExpectErr("rejected its credentials", "Account is deactivated"),
			},
			{
				Config:            cfg,
				ConfigStateChecks: []statecheck.StateCheck{deletes(2)},
			},
		},
	})
}

func TestAccOwnAccountDeactivation_wrongAccount(t *testing.T) {
	srv := acctest.NewServer(t)
	cfg := srv.ProviderConfig(t, refserver.SeedMember3ID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:   cfg + testAccOwnAccountDeactivationConfig("mark@zulip.example.com", "1"),
				PlanOnly: true,
				ExpectError: acctest.ExpectErr("Account Does Not Match confirm_email", "confirm_email",
					"configured with the account mei@zulip.example.com", `(user id 11), not "mark@zulip.example.com"`, "nothing was deactivated"),
			},
			{
				Config:      cfg + testAccOwnAccountDeactivationConfig(" mei@zulip.example.com", "1"),
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("confirm_email", "must not start or end with whitespace"),
			},
			{
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
		},
	})
}

// TestAccOwnAccountDeactivation_realAddress confirms with the real address of
// an account whose API e-mail is a dummy one (e-mail visible to nobody).
func TestAccOwnAccountDeactivation_realAddress(t *testing.T) {
	srv := acctest.NewServer(t)
	maria, _ := srv.User(refserver.SeedMember2ID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:            srv.ProviderConfig(t, maria.ID) + testAccOwnAccountDeactivationConfig(maria.Email, "1"),
			ConfigStateChecks: []statecheck.StateCheck{testAccUserActiveCheck(srv, maria.ID, false)},
		}},
	})
}

func TestAccOwnAccountDeactivation_lastOwner(t *testing.T) {
	srv := acctest.NewServer(t)
	// With Oscar gone, Olivia is the only owner.
	testAccSetUserActive(srv, refserver.SeedOwner2ID, false)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: srv.ProviderConfig(t, refserver.SeedOwnerID) + testAccOwnAccountDeactivationConfig("olivia@zulip.example.com", "1"),
				ExpectError: acctest.ExpectErr("Unable to Deactivate the Account", "the organization's only owner",
					"Make another user an owner first", "CANNOT_DEACTIVATE_LAST_USER"),
			},
			{
				Config:            srv.ProviderConfig(t, refserver.SeedOwnerID),
				ConfigStateChecks: []statecheck.StateCheck{testAccUserActiveCheck(srv, refserver.SeedOwnerID, true)},
			},
		},
	})
}

func TestAccOwnAccountDeactivation_onlyUser(t *testing.T) {
	srv := acctest.NewServer(t)
	mei := refserver.SeedMember3ID
	srv.Do(func(r *refserver.Realm) {
		for id, u := range r.Users {
			u.IsActive = id == mei
		}
	})
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: srv.ProviderConfig(t, mei) + testAccOwnAccountDeactivationConfig("mei@zulip.example.com", "1"),
			ExpectError: acctest.ExpectErr("Unable to Deactivate the Account", "the organization's only active user",
				"deactivate the organization itself instead", "CANNOT_DEACTIVATE_LAST_USER"),
		}},
	})
}

func TestAccOwnAccountDeactivation_example(t *testing.T) {
	srv := acctest.NewServer(t)
	mei := refserver.SeedMember3ID
	example, err := os.ReadFile(acctest.RepoPath("examples/resources/zulip_own_account_deactivation/resource.tf"))
	if err != nil {
		t.Fatal(err)
	}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: srv.ProviderConfig(t, mei) + string(example),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("zulip_own_account_deactivation.mei", tfjsonpath.New("user_id"), knownvalue.Int64Exact(int64(mei))),
				testAccUserActiveCheck(srv, mei, false),
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
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
