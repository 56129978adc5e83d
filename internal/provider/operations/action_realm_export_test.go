package operations_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// testAccRealmExportConfig is an action of the given body, triggered when a
// terraform_data is created.
func testAccRealmExportConfig(body string) string {
	return `
action "zulip_realm_export" "test" {
  config {
` + body + `
  }
}

resource "terraform_data" "trigger" {
  input = "x"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.zulip_realm_export.test]
    }
  }
}
`
}

// testAccRealmExports checks the server's exports: how many, and that the
// last one has the type, the caller and the status wanted.
func testAccRealmExports(srv *acctest.Server, count, exportType, actingUser int, succeeded bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var err error
		srv.Do(func(r *refserver.Realm) {
			if r.Exports == nil || len(r.Exports.List) != count {
				err = fmt.Errorf("exports: %+v, want %d", r.Exports, count)
				return
			}
			e := r.Exports.List[count-1]
			if e.Type != exportType || e.ActingUserID != actingUser {
				err = fmt.Errorf("export %+v: want type %d by user %d", e, exportType, actingUser)
			} else if succeeded && (e.URL == "" || e.Failed != 0) {
				err = fmt.Errorf("export %+v did not succeed", e)
			}
		})
		return err
	}
}

// TestAccRealmExportAction_example applies the action's example as an
// administrator: the trigger requests a public export, the action waits until
// it is made, and the export's tarball can be downloaded.
func TestAccRealmExportAction_example(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.ActionVersions,
		Steps: []resource.TestStep{{
			Config: srv.ProviderConfig(t, refserver.SeedAdminID) + acctest.ReadExample(t, "examples/actions/zulip_realm_export/action.tf"),
			Check: resource.ComposeTestCheckFunc(
				testAccRealmExports(srv, 1, refserver.ExportPublic, refserver.SeedAdminID, true),
				func(*terraform.State) error {
					var url string
					srv.Do(func(r *refserver.Realm) { url = r.Exports.List[0].URL })
					resp, err := http.Get(url) //nolint:noctx // a test's one request
					if err != nil {
						return err
					}
					_ = resp.Body.Close()
					if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/gzip" {
						return fmt.Errorf("the export's URL answered %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
					}
					return nil
				},
			),
		}},
	})
}

// TestAccRealmExportAction_oldServer: at feature level 420 a full export with
// consent is sent as Zulip's integer and waited for as well.
func TestAccRealmExportAction_oldServer(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 420; o.ExportDuration = 1500 * time.Millisecond })
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.ActionVersions,
		Steps: []resource.TestStep{{
			Config: srv.ProviderConfig(t, refserver.SeedOwnerID) + testAccRealmExportConfig(`    export_type = "full_with_consent"`),
			Check:  testAccRealmExports(srv, 1, refserver.ExportFullWithConsent, refserver.SeedOwnerID, true),
		}},
	})
}

// TestAccRealmExportAction_planChecks: the plan refuses what the server
// would, naming the attribute: an unknown type, a role too low for the type,
// a type newer than the server, a zero timeout. Nothing is exported.
func TestAccRealmExportAction_planChecks(t *testing.T) {
	srv := acctest.NewServer(t)
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 420 })
	admin, member := srv.ProviderConfig(t, refserver.SeedAdminID), srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.ActionVersions,
		Steps: []resource.TestStep{
			{Config: admin + testAccRealmExportConfig(`    export_type = "everything"`), PlanOnly: true,
				ExpectError: acctest.ExpectErrRE(`export_type = "everything".*value must be one of`)},
			{Config: member + testAccRealmExportConfig(``), PlanOnly: true,
				ExpectError: acctest.ExpectErrRE(`Insufficient Role.*Exporting the organization's data needs an\s+organization\s+administrator`)},
			{Config: admin + testAccRealmExportConfig(`    export_type = "full_without_consent"`), PlanOnly: true,
				// Terraform 1.14 shows an action's diagnostics at its trigger, 1.16 at the attribute.
				ExpectError: acctest.ExpectErr("Insufficient Role", "without member consent needs an organization owner")},
			{Config: old.ProviderConfig(t, refserver.SeedOwnerID) + testAccRealmExportConfig(`    export_type = "full_without_consent"`), PlanOnly: true,
				ExpectError: acctest.ExpectErr("Zulip Server Too Old", "full_without_consent", "feature level 449")},
			{Config: admin + testAccRealmExportConfig(`    timeout = "0s"`), PlanOnly: true,
				ExpectError: acctest.ExpectErrRE(`Invalid Timeout.*timeout = "0s"`)},
			{Config: admin + testAccRealmExportConfig(`    timeout = "soon"`), PlanOnly: true,
				ExpectError: acctest.ExpectErrRE(`timeout = "soon".*is not a duration`)},
		},
		CheckDestroy: testAccRealmExports(srv, 0, 0, 0, false),
	})
}

// TestAccRealmExportAction_failed: an export Zulip could not make fails the
// apply with a clear error.
func TestAccRealmExportAction_failed(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.ExportFailure = true })
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.ActionVersions,
		Steps: []resource.TestStep{{
			Config:      srv.ProviderConfig(t, refserver.SeedAdminID) + testAccRealmExportConfig(""),
			ExpectError: acctest.ExpectErrRE(`Data Export Failed.*Zulip could not make data export 1 \(public\)`),
		}},
	})
}

// TestAccRealmExportAction_timeout: an export still pending when the timeout
// runs out fails the action, naming the timeout.
func TestAccRealmExportAction_timeout(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.ExportDuration = time.Hour })
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.ActionVersions,
		Steps: []resource.TestStep{{
			Config:      srv.ProviderConfig(t, refserver.SeedAdminID) + testAccRealmExportConfig(`    timeout = "3s"`),
			ExpectError: acctest.ExpectErrRE(`Data Export Not Finished.*still pending after 3s`),
		}},
	})
}

// TestAccRealmExportAction_rateLimited: Zulip's weekly limit is explained.
func TestAccRealmExportAction_rateLimited(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) {
		for i := range 5 {
			r.Exports.List = append(r.Exports.List, &refserver.RealmExport{ID: 100 + i, Type: refserver.ExportPublic,
				ActingUserID: refserver.SeedOwnerID, Status: 3, Requested: float64(time.Now().Unix())})
		}
	})
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.ActionVersions,
		Steps: []resource.TestStep{{
			Config:      srv.ProviderConfig(t, refserver.SeedAdminID) + testAccRealmExportConfig(""),
			ExpectError: acctest.ExpectErr("Data Export Refused", "Exceeded rate limit", "five data exports in seven days"),
		}},
	})
}

// TestAccRealmExportAction_lostAnswer: when the export request's answer is
// lost, the action adopts the one export it made instead of requesting a
// second one, and waits for it.
func TestAccRealmExportAction_lostAnswer(t *testing.T) {
	srv := acctest.NewServer(t)
	proxy := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/export/realm") {
			return acctest.Fault{Status: http.StatusBadGateway, Process: true}
		}
		return acctest.Fault{}
	})
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.ActionVersions,
		Steps: []resource.TestStep{{
			Config: proxy + testAccRealmExportConfig(""),
			Check:  testAccRealmExports(srv, 1, refserver.ExportPublic, refserver.SeedAdminID, true),
		}},
	})
}
