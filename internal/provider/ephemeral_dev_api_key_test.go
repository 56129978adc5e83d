package provider_test

import (
	"context"
	"encoding/json"
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
	example, err := os.ReadFile("../../examples/ephemeral-resources/zulip_dev_api_key/ephemeral-resource.tf")
	if err != nil {
		t.Fatal(err)
	}
	vars := config.Variables{"zulip_url": config.StringVariable(srv.URL)}
	noKey := testAccSecretAbsent{secret: aaron.APIKey, what: "Aaron's API key"}
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   testAccEphemeralVersions,
		ProtoV6ProviderFactories: testAccEphemeralFactories,
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
				Config:          testAccURLOnlyProvider(srv) + string(example),
				ConfigVariables: vars,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{noKey},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), noKey},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("zulip_linkifier.tickets", tfjsonpath.New("id"), knownvalue.Int64Func(func(id int64) error {
						return linkifierOnServer(srv, int(id), "https://tracker.example.com/browse/ZT-{id}")
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
		TerraformVersionChecks:   testAccEphemeralVersions,
		ProtoV6ProviderFactories: testAccEphemeralFactories,
		Steps: []resource.TestStep{{
			Config: testAccURLOnlyProvider(srv) + fmt.Sprintf(`
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
				testAccSecretAbsent{secret: mona.APIKey, what: "Mona's API key"},
			},
		}},
	})
}

func TestAccDevAPIKey_productionServer(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.Production = true })
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   testAccEphemeralVersions,
		ProtoV6ProviderFactories: testAccEphemeralFactories,
		Steps: []resource.TestStep{{
			Config: testAccURLOnlyProvider(srv) + `
ephemeral "zulip_dev_api_key" "aaron" {
  username = "aaron@zulip.example.com"
}
`,
			PlanOnly: true,
			ExpectError: expectErr("Unable to Fetch Development API Key", "is not a development server",
				"works only against a Zulip development environment", "HTTP 404"),
		}},
	})
}

func TestAccDevAPIKey_badUsername(t *testing.T) {
	srv := acctest.NewServer(t)
	deactivated, _ := srv.User(refserver.SeedDeactivatedID)
	step := func(username string, want ...string) resource.TestStep {
		return resource.TestStep{
			Config: testAccURLOnlyProvider(srv) + fmt.Sprintf(`
ephemeral "zulip_dev_api_key" "x" {
  username = %q
}
`, username),
			PlanOnly:    true,
			ExpectError: expectErr(want...),
		}
	}
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   testAccEphemeralVersions,
		ProtoV6ProviderFactories: testAccEphemeralFactories,
		Steps: []resource.TestStep{
			step("aaron", "username", `"aaron" is not a valid e-mail address`),
			step("nobody@zulip.example.com", "username", `no active account that logs in as "nobody@zulip.example.com"`),
			step(deactivated.Email, "username", "no active account", "deactivated"),
		},
	})
}

// testAccURLOnlyProvider is a provider block with the server's URL and no credentials.
func testAccURLOnlyProvider(srv *acctest.Server) string {
	return fmt.Sprintf(`
provider "zulip" {
  url = %q
}
`, srv.URL)
}

// testAccSecretAbsent fails when a secret appears anywhere in the state or the
// plan (values, sensitive values, prior state, configuration).
type testAccSecretAbsent struct {
	secret string
	what   string
}

// CheckState implements statecheck.StateCheck.
func (c testAccSecretAbsent) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = c.check("state", req.State)
}

// CheckPlan implements plancheck.PlanCheck.
func (c testAccSecretAbsent) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = c.check("plan", req.Plan)
}

// check looks for the secret in the JSON form of v.
func (c testAccSecretAbsent) check(where string, v any) error {
	if c.secret == "" {
		return fmt.Errorf("testAccSecretAbsent: empty secret for %s", c.what)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if strings.Contains(string(raw), c.secret) {
		return fmt.Errorf("%s found in the %s", c.what, where)
	}
	return nil
}
