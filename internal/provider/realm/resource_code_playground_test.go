package realm_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// testAccPlaygroundConfig is a zulip_code_playground "test".
func testAccPlaygroundConfig(name, language, template string) string {
	return fmt.Sprintf("resource \"zulip_code_playground\" \"test\" {\n  name              = %q\n  pygments_language = %q\n  url_template      = %q\n}\n",
		name, language, template)
}

// TestAccCodePlayground_lifecycle: a playground is added, replaced on change
// (Zulip cannot change one), re-added after an out-of-band deletion, and
// deleted.
func TestAccCodePlayground_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	count := func(template string, want int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			n := 0
			srv.Do(func(r *refserver.Realm) {
				for _, p := range r.Playgrounds {
					if p.URLTemplate == template {
						n++
					}
				}
			})
			if n != want {
				return fmt.Errorf("%d playgrounds with %s, want %d", n, template, want)
			}
			return nil
		}
	}
	first, second := "https://play.rust-lang.org/?code={code}", "https://play.rust-lang.org/?edition=2021&code={code}"
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: count(second, 0),
		Steps: []resource.TestStep{
			{Config: admin + testAccPlaygroundConfig("Rust playground", "Rust", first), Check: count(first, 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
			{Config: admin + testAccPlaygroundConfig("Rust playground", "Rust", second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("zulip_code_playground.test", plancheck.ResourceActionDestroyBeforeCreate)}},
				Check: resource.ComposeTestCheckFunc(count(first, 0), count(second, 1))},
			{ResourceName: "zulip_code_playground.test", ImportState: true, ImportStateId: "Rust/Rust playground", ImportStateVerify: true},
			{
				PreConfig: func() { srv.Do(func(r *refserver.Realm) { r.Playgrounds = nil }) },
				Config:    admin + testAccPlaygroundConfig("Rust playground", "Rust", second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("zulip_code_playground.test", plancheck.ResourceActionCreate)}},
				Check: count(second, 1),
			},
		},
	})
}

// TestAccCodePlayground_validation: bad templates and languages fail at plan
// in Zulip's words; a member is refused.
func TestAccCodePlayground_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	step := func(cfg string, want ...string) resource.TestStep {
		return resource.TestStep{Config: cfg, PlanOnly: true, ExpectError: acctest.ExpectErr(want...)}
	}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			step(admin+testAccPlaygroundConfig("P", "Go", "https://go.dev/play/?c={source}"), `Missing the required variable "code"`),
			step(admin+testAccPlaygroundConfig("P", "Go", "https://go.dev/play/?c={code}&v={version}"), `"code" should be the only variable`),
			step(admin+testAccPlaygroundConfig("P", "Go", "https://go.dev/play/?c={code"), "Invalid URL template."),
			step(admin+testAccPlaygroundConfig("P", "Go!", "https://go.dev/play/?c={code}"), "pygments_language", "_+-./#"),
			step(admin+testAccPlaygroundConfig(" P", "Go", "https://go.dev/play/?c={code}"), "white space"),
			step(srv.ProviderConfig(t, refserver.SeedMemberID)+testAccPlaygroundConfig("P", "Go", "https://go.dev/play/?c={code}"), "Insufficient Role", "administrator"),
		},
	})
}

// TestAccCodePlayground_example applies the documentation's example.
func TestAccCodePlayground_example(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:           srv.ProviderConfig(t, refserver.SeedAdminID) + acctest.ReadExample(t, "examples/resources/zulip_code_playground/resource.tf"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}
