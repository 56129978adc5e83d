package realm_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccRealmUserDefaults_lifecycle: defaults of each kind are set, read back
// and planned empty; a change applies; an out-of-band change of a managed
// default is undone and of an unmanaged one kept; import reads them all.
func TestAccRealmUserDefaults_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	config := func(view, scheme string, batching int) string {
		return admin + fmt.Sprintf(`
resource "zulip_realm_user_defaults" "test" {
  web_home_view                               = %q
  color_scheme                                = %q
  enter_sends                                 = true
  email_notifications_batching_period_seconds = %d
  notification_sound                          = "ding"
}
`, view, scheme, batching)
	}
	addr := "zulip_realm_user_defaults.test"
	value := func(attr string, v knownvalue.Check) statecheck.StateCheck { return acctest.Value(addr, attr, v) }
	acctest.ParallelSteps(t,
		acctest.Apply(config("recent", "dark", 300)).State(
			value("web_home_view", knownvalue.StringExact("recent")),
			value("color_scheme", knownvalue.StringExact("dark")),
			value("email_notifications_batching_period_seconds", knownvalue.Int64Exact(300)),
			value("twenty_four_hour_time", knownvalue.Bool(false)), // unmanaged
		).Clean().Step(),
		acctest.Apply(config("inbox", "light", 600)).State(value("color_scheme", knownvalue.StringExact("light"))).Clean().Step(),
		acctest.Apply(config("inbox", "light", 600)).OutOfBand(srv, func(r *refserver.Realm) {
			r.Settings.UserDefaults["color_scheme"] = 2
			r.Settings.UserDefaults["twenty_four_hour_time"] = true
		}).Plan(plancheck.ExpectKnownValue(addr, tfjsonpath.New("color_scheme"), knownvalue.StringExact("light"))).
			Planned(addr, plancheck.ResourceActionUpdate).State(value("twenty_four_hour_time", knownvalue.Bool(true))).Step(),
		resource.TestStep{ResourceName: addr, ImportState: true, ImportStateId: srv.URL, ImportStateVerify: true, Config: config("inbox", "light", 600)},
	)
}

// TestAccRealmUserDefaults_validation: bad values and a member's key fail at
// plan; a server before the endpoint is refused, naming the level.
func TestAccRealmUserDefaults_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 90 })
	defaults := func(body string) string {
		return "resource \"zulip_realm_user_defaults\" \"test\" {\n" + body + "\n}\n"
	}
	step := acctest.PlanFails
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelSteps(t,
		step(admin+defaults(`  color_scheme = "purple"`), "color_scheme", "automatic"),
		step(admin+defaults(`  web_font_size_px = -1`), "web_font_size_px"),
		step(srv.ProviderConfig(t, refserver.SeedMemberID)+defaults(`  enter_sends = true`), "Insufficient Role", "administrator"),
		step(old.ProviderConfig(t, refserver.SeedAdminID)+defaults(`  enter_sends = true`), "Zulip Server Too Old", "95"),
	)
}

// TestAccRealmUserDefaults_generatedConfig: the generated configuration of
// the imported defaults is accepted as it is.
func TestAccRealmUserDefaults_generatedConfig(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: acctest.GeneratedConfigSteps(srv.ProviderConfig(t, refserver.SeedAdminID), "", "zulip_realm_user_defaults.test", srv.URL),
	})
}
