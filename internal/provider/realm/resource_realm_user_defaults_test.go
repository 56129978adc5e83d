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
	value := func(attr string, v knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectKnownValue("zulip_realm_user_defaults.test", tfjsonpath.New(attr), v)
	}
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: config("recent", "dark", 300),
				ConfigStateChecks: []statecheck.StateCheck{
					value("web_home_view", knownvalue.StringExact("recent")),
					value("color_scheme", knownvalue.StringExact("dark")),
					value("email_notifications_batching_period_seconds", knownvalue.Int64Exact(300)),
					value("twenty_four_hour_time", knownvalue.Bool(false)), // unmanaged
				},
				ConfigPlanChecks: empty,
			},
			{Config: config("inbox", "light", 600), ConfigStateChecks: []statecheck.StateCheck{value("color_scheme", knownvalue.StringExact("light"))}, ConfigPlanChecks: empty},
			{
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) {
						r.Settings.UserDefaults["color_scheme"] = 2
						r.Settings.UserDefaults["twenty_four_hour_time"] = true
					})
				},
				Config: config("inbox", "light", 600),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue("zulip_realm_user_defaults.test", tfjsonpath.New("color_scheme"), knownvalue.StringExact("light")),
					plancheck.ExpectResourceAction("zulip_realm_user_defaults.test", plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{value("twenty_four_hour_time", knownvalue.Bool(true))},
			},
			{ResourceName: "zulip_realm_user_defaults.test", ImportState: true, ImportStateId: srv.URL, ImportStateVerify: true, Config: config("inbox", "light", 600)},
		},
	})
}

// TestAccRealmUserDefaults_validation: bad values and a member's key fail at
// plan; a server before the endpoint is refused, naming the level.
func TestAccRealmUserDefaults_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 90 })
	defaults := func(body string) string {
		return "resource \"zulip_realm_user_defaults\" \"test\" {\n" + body + "\n}\n"
	}
	step := func(cfg string, want ...string) resource.TestStep {
		return resource.TestStep{Config: cfg, PlanOnly: true, ExpectError: acctest.ExpectErr(want...)}
	}
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			step(admin+defaults(`  color_scheme = "purple"`), "color_scheme", "automatic"),
			step(admin+defaults(`  web_font_size_px = -1`), "web_font_size_px"),
			step(srv.ProviderConfig(t, refserver.SeedMemberID)+defaults(`  enter_sends = true`), "Insufficient Role", "administrator"),
			step(old.ProviderConfig(t, refserver.SeedAdminID)+defaults(`  enter_sends = true`), "Zulip Server Too Old", "95"),
		},
	})
}

// TestAccRealmUserDefaults_example applies the documentation's example.
func TestAccRealmUserDefaults_example(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:           srv.ProviderConfig(t, refserver.SeedAdminID) + acctest.ReadExample(t, "examples/resources/zulip_realm_user_defaults/resource.tf"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("zulip_realm_user_defaults.this", tfjsonpath.New("email_address_visibility"), knownvalue.StringExact("administrators")),
			},
		}},
	})
}

// TestAccRealmUserDefaults_generatedConfig: the generated configuration of
// the imported defaults is accepted as it is.
func TestAccRealmUserDefaults_generatedConfig(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: acctest.GeneratedConfigSteps(srv.ProviderConfig(t, refserver.SeedAdminID), "", "zulip_realm_user_defaults.test", srv.URL),
	})
}
