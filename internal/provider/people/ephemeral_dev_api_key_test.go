package people_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccDevAPIKey_aliasedProvider applies the documentation's example: a
// provider with only a URL fetches Aaron's key, and an aliased provider
// configured with it creates a linkifier, which needs an administrator. The
// key appears neither in the plan nor in the state.
func TestAccDevAPIKey_aliasedProvider(t *testing.T) {
	srv := acctest.NewServer(t)
	aaron, _ := srv.User(refserver.SeedAdminID)
	example, err := os.ReadFile(acctest.RepoPath("examples/ephemeral-resources/zulip_dev_api_key/ephemeral-resource.tf"))
	if err != nil {
		t.Fatal(err)
	}
	vars := config.Variables{"zulip_url": config.StringVariable(srv.URL)}
	noKey := acctest.SecretAbsent{Secret: aaron.APIKey, What: "Aaron's API key"}
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   acctest.EphemeralVersions,
		ProtoV6ProviderFactories: acctest.EphemeralFactories,
		// Destroying goes through a freshly fetched key too.
		CheckDestroy: func(*terraform.State) error {
			var err error
			srv.Do(func(r *refserver.Realm) {
				for _, l := range r.Linkifiers {
					if strings.HasPrefix(l.Pattern, "ZT-") {
						err = fmt.Errorf("linkifier %d (%s) left after destroy", l.ID, l.Pattern)
					}
				}
			})
			return err
		},
		Steps: []resource.TestStep{
			{
				Config:          acctest.URLOnlyProvider(srv) + string(example),
				ConfigVariables: vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{noKey},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), noKey},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("zulip_linkifier.tickets", tfjsonpath.New("id"), knownvalue.Int64Func(func(id int64) error {
						return acctest.LinkifierOnServer(srv, int(id), "https://tracker.example.com/browse/ZT-{id}")
					})),
					noKey,
				},
			},
		},
	})
}

// TestAccDevAPIKey_values reads the non-secret values through the echo provider.
func TestAccDevAPIKey_values(t *testing.T) {
	srv := acctest.NewServer(t)
	mona, _ := srv.User(refserver.SeedModeratorID)
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   acctest.EphemeralVersions,
		ProtoV6ProviderFactories: acctest.EphemeralFactories,
		Steps: []resource.TestStep{{
			Config: acctest.URLOnlyProvider(srv) + fmt.Sprintf(`
ephemeral "zulip_dev_api_key" "mona" {
  username = %q
}

provider "echo" {
  data = {
    email      = ephemeral.zulip_dev_api_key.mona.email
    user_id    = ephemeral.zulip_dev_api_key.mona.user_id
    key_length = length(ephemeral.zulip_dev_api_key.mona.api_key)
  }
}

resource "echo" "test" {}
`, mona.Email),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("email"), knownvalue.StringExact(mona.Email)),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("user_id"), knownvalue.Int64Exact(refserver.SeedModeratorID)),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("key_length"), knownvalue.Int64Exact(int64(len(mona.APIKey)))),
				acctest.SecretAbsent{Secret: mona.APIKey, What: "Mona's API key"},
			},
		}},
	})
}

func TestAccDevAPIKey_productionServer(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.Production = true })
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   acctest.EphemeralVersions,
		ProtoV6ProviderFactories: acctest.EphemeralFactories,
		Steps: []resource.TestStep{{
			Config: acctest.URLOnlyProvider(srv) + `
ephemeral "zulip_dev_api_key" "aaron" {
  username = "aaron@zulip.example.com"
}
`,
			PlanOnly: true,
			ExpectError: acctest.ExpectErr("Unable to Fetch Development API Key", "is not a development server",
				"works only against a Zulip development environment", "HTTP 404"),
		}},
	})
}

func TestAccDevAPIKey_badUsername(t *testing.T) {
	srv := acctest.NewServer(t)
	deactivated, _ := srv.User(refserver.SeedDeactivatedID)
	step := func(username string, want ...string) resource.TestStep {
		return resource.TestStep{
			Config: acctest.URLOnlyProvider(srv) + fmt.Sprintf(`
ephemeral "zulip_dev_api_key" "x" {
  username = %q
}
`, username),
			PlanOnly:    true,
			ExpectError: acctest.ExpectErr(want...),
		}
	}
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   acctest.EphemeralVersions,
		ProtoV6ProviderFactories: acctest.EphemeralFactories,
		Steps: []resource.TestStep{
			step("aaron", "username", `"aaron" is not a valid e-mail address`),
			step("nobody@zulip.example.com", "username", `no active account that logs in as "nobody@zulip.example.com"`),
			step(deactivated.Email, "username", "no active account", "deactivated"),
		},
	})
}
