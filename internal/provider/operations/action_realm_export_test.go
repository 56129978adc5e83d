package operations_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// testAccRealmExportConfig is an action of the given body, triggered when a
// terraform_data is created.
func testAccRealmExportConfig(body string) string {
	return acctest.TriggeredAction("zulip_realm_export", body)
}

// testAccRealmExports checks the server's exports: how many, and that the
// last one has the type, the caller and the status wanted.
func testAccRealmExports(srv *acctest.Server, count, exportType, actingUser int, succeeded bool) func() error {
	return func() error {
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
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+acctest.ReadExample(t, "examples/actions/zulip_realm_export/action.tf")).
			OnServer(acctest.ServerChecks(
				testAccRealmExports(srv, 1, refserver.ExportPublic, refserver.SeedAdminID, true),
				func() error {
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
			)).Step(),
	))
}

// TestAccRealmExportAction_oldServer: at feature level 420 a full export with
// consent is sent as Zulip's integer and waited for as well.
func TestAccRealmExportAction_oldServer(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 420; o.ExportDuration = 1500 * time.Millisecond })
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedOwnerID)+testAccRealmExportConfig(`    export_type = "full_with_consent"`)).
			OnServer(testAccRealmExports(srv, 1, refserver.ExportFullWithConsent, refserver.SeedOwnerID, true)).Step(),
	))
}

// TestAccRealmExportAction_planChecks: the plan refuses what the server
// would, naming the attribute: an unknown type, a role too low for the type,
// a type newer than the server, a zero timeout. Nothing is exported.
func TestAccRealmExportAction_planChecks(t *testing.T) {
	srv := acctest.NewServer(t)
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 420 })
	admin, member := srv.ProviderConfig(t, refserver.SeedAdminID), srv.ProviderConfig(t, refserver.SeedMemberID)
	c := acctest.ActionCase(
		acctest.PlanFailsRE(admin+testAccRealmExportConfig(`    export_type = "everything"`), `export_type = "everything".*value must be one of`),
		acctest.PlanFailsRE(member+testAccRealmExportConfig(``),
			`Insufficient Role.*Exporting the organization's data needs an\s+organization\s+administrator`),
		// Terraform 1.14 shows an action's diagnostics at its trigger, 1.16 at the attribute.
		acctest.PlanFails(admin+testAccRealmExportConfig(`    export_type = "full_without_consent"`),
			"Insufficient Role", "without member consent needs an organization owner"),
		acctest.PlanFails(old.ProviderConfig(t, refserver.SeedOwnerID)+testAccRealmExportConfig(`    export_type = "full_without_consent"`),
			"Zulip Server Too Old", "full_without_consent", "feature level 449"),
		acctest.PlanFailsRE(admin+testAccRealmExportConfig(`    timeout = "0s"`), `Invalid Timeout.*timeout = "0s"`),
		acctest.PlanFailsRE(admin+testAccRealmExportConfig(`    timeout = "soon"`), `timeout = "soon".*is not a duration`),
	)
	c.CheckDestroy = func(*terraform.State) error { return testAccRealmExports(srv, 0, 0, 0, false)() }
	acctest.ParallelTest(t, c)
}

// TestAccRealmExportAction_failed: an export Zulip could not make fails the
// apply with a clear error.
func TestAccRealmExportAction_failed(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.ExportFailure = true })
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+testAccRealmExportConfig("")).Fails(acctest.ExpectErrRE(`Data Export Failed.*Zulip could not make data export 1 \(public\)`)).Step(),
	))
}

// TestAccRealmExportAction_timeout: an export still pending when the timeout
// runs out fails the action, naming the timeout.
func TestAccRealmExportAction_timeout(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.ExportDuration = time.Hour })
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+testAccRealmExportConfig(`    timeout = "3s"`)).Fails(acctest.ExpectErrRE(`Data Export Not Finished.*still pending after 3s`)).Step(),
	))
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
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+testAccRealmExportConfig("")).Fails(acctest.ExpectErr("Data Export Refused", "Exceeded rate limit", "five data exports in seven days")).Step(),
	))
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
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(proxy+testAccRealmExportConfig("")).OnServer(testAccRealmExports(srv, 1, refserver.ExportPublic, refserver.SeedAdminID, true)).Step(),
	))
}
