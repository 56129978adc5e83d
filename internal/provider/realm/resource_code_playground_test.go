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
	count := func(template string, want int) func() error {
		return func() error {
			n := 0
			srv.Do(func(r *refserver.Realm) {
				n = acctest.CountIn(r.Playgrounds, func(p *refserver.Playground) bool { return p.URLTemplate == template })
			})
			if n != want {
				return fmt.Errorf("%d playgrounds with %s, want %d", n, template, want)
			}
			return nil
		}
	}
	addr := "zulip_code_playground.test"
	first, second := "https://play.rust-lang.org/?code={code}", "https://play.rust-lang.org/?edition=2021&code={code}"
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error { return count(second, 0)() },
		Steps: []resource.TestStep{
			acctest.Apply(admin + testAccPlaygroundConfig("Rust playground", "Rust", first)).OnServer(count(first, 1)).Clean().Step(),
			acctest.Apply(admin+testAccPlaygroundConfig("Rust playground", "Rust", second)).Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).
				OnServer(acctest.ServerChecks(count(first, 0), count(second, 1))).Step(),
			acctest.ImportVerify(addr, "Rust/Rust playground"),
			acctest.Apply(admin+testAccPlaygroundConfig("Rust playground", "Rust", second)).OutOfBand(srv, func(r *refserver.Realm) { r.Playgrounds = nil }).
				Planned(addr, plancheck.ResourceActionCreate).OnServer(count(second, 1)).Step(),
		},
	})
}

// TestAccCodePlayground_validation: bad templates and languages fail at plan
// in Zulip's words; a member is refused.
func TestAccCodePlayground_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	step := acctest.PlanFails
	acctest.ParallelSteps(t,
		step(admin+testAccPlaygroundConfig("P", "Go", "https://go.dev/play/?c={source}"), `Missing the required variable "code"`),
		step(admin+testAccPlaygroundConfig("P", "Go", "https://go.dev/play/?c={code}&v={version}"), `"code" should be the only variable`),
		step(admin+testAccPlaygroundConfig("P", "Go", "https://go.dev/play/?c={code"), "Invalid URL template."),
		step(admin+testAccPlaygroundConfig("P", "Go!", "https://go.dev/play/?c={code}"), "pygments_language", "_+-./#"),
		step(admin+testAccPlaygroundConfig(" P", "Go", "https://go.dev/play/?c={code}"), "white space"),
		step(srv.ProviderConfig(t, refserver.SeedMemberID)+testAccPlaygroundConfig("P", "Go", "https://go.dev/play/?c={code}"), "Insufficient Role", "administrator"),
	)
}
