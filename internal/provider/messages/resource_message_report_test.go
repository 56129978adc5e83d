package messages_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
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

func TestAccMessageReport_performsOnce(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	addr := "zulip_message_report.test"
	config := func(description, round string) string {
		return member + fmt.Sprintf(`
resource "zulip_message_report" "test" {
  message_id  = 10
  report_type = "spam"
  description = %q
  triggers    = { round = %q }
}
`, description, round)
	}

	acctest.ParallelSteps(t,
		acctest.Apply(config("Selling things in #random.", "1")).Planned(addr, plancheck.ResourceActionCreate).Plan(
			// The plan already knows where the report will go.
			plancheck.ExpectKnownValue(addr, tfjsonpath.New("moderation_request_channel_id"), knownvalue.Int64Exact(refserver.SeedChannelModReqs)),
		).Clean().State(
			acctest.Value(addr, "moderation_request_channel_id", knownvalue.Int64Exact(refserver.SeedChannelModReqs)),
			acctest.Value(addr, "performed_at", knownvalue.StringRegexp(acctest.RFC3339)),
			testAccReportsCheck(srv, []string{"@_**Mark Member|5** reported #**random>cats@10** sent by @_**Maria Member|6**",
				"Reason: **spam**", "Selling things in #random."}),
		).Step(),
		// A second apply reports nothing.
		acctest.Apply(config("Selling things in #random.", "1")).Plan(plancheck.ExpectEmptyPlan()).
			State(testAccReportsCheck(srv, []string{"Selling things in #random."})).Step(),
		// A changed trigger reports again.
		acctest.Apply(config("Selling things in #random.", "2")).Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).Clean().
			State(testAccReportsCheck(srv, []string{"Selling things in #random."}, []string{"Selling things in #random."})).Step(),
		// So does a changed argument.
		acctest.Apply(config("Still selling things.", "2")).Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).State(
			testAccReportsCheck(srv, []string{"Selling things in #random."}, []string{"Selling things in #random."}, []string{"Still selling things."}),
		).Step(),
		// Destroying only forgets: the reports stay.
		acctest.Apply(member).Planned(addr, plancheck.ResourceActionDestroy).
			State(testAccReportsCheck(srv, []string{"Selling"}, []string{"Selling"}, []string{"Still selling things."})).Step(),
	)
}

func TestAccMessageReport_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	step := acctest.PlanFailsAs(member)
	acctest.ParallelSteps(t,
		step(testAccMessageReportConfig(10, "other", nil), "Missing Report Description", `type "other" needs a description`),
		step(testAccMessageReportConfig(10, "spam", strings.Repeat("é", 1001)), "description", "is 1001 characters long; Zulip accepts at most 1000"),
		step(testAccMessageReportConfig(10, "spam", ""), "description", "must not be empty"),
		step(testAccMessageReportConfig(10, "bogus", nil), "Unknown Report Type", "report_type",
			`does not accept the report type "bogus"; it accepts "spam", "harassment", "inappropriate", "norms" or "other"`),
		step(testAccMessageReportConfig(0, "spam", nil), "message_id", "at least 1"),
		resource.TestStep{
			// 1000 code points (2000 bytes) are within Zulip's limit.
			Config:             member + testAccMessageReportConfig(10, "other", strings.Repeat("é", 1000)),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
	)
}

// TestAccMessageReport_serverReportTypes checks the report type against the
// server's own list, which an organization may change.
func TestAccMessageReport_serverReportTypes(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) {
		r.ReportTypes = []refserver.ReportType{{Key: "spam", Name: "Spam"}, {Key: "impersonation", Name: "Impersonation"}}
	})
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelSteps(t,
		acctest.PlanFails(member+testAccMessageReportConfig(10, "harassment", nil), "Unknown Report Type", `it accepts "spam" or "impersonation"`),
		acctest.Apply(member+testAccMessageReportConfig(10, "impersonation", nil)).
			State(testAccReportsCheck(srv, []string{"Reason: **impersonation**"})).Step(),
	)
}

func TestAccMessageReport_reportingDisabled(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) { r.ModerationRequestChannelID = -1 })
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	mark, _ := srv.User(refserver.SeedMemberID)
	// A front of the reference server that refuses POST /register.
	noRegister := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/register" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = fmt.Fprint(w, `{"result":"error","msg":"Register is unavailable here","code":"BAD_REQUEST"}`)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(noRegister.Close)
	acctest.ParallelSteps(t,
		// Known at plan time.
		acctest.PlanFails(member+testAccMessageReportConfig(10, "spam", nil),
			"Message Reporting Is Disabled", "no moderation request channel", "administrator must choose a moderation request channel"),
		resource.TestStep{
			// Not known at plan time (here the server refuses the register
			// call that tells): the server's refusal, explained.
			Config: fmt.Sprintf(`
provider "zulip" {
  url     = %q
  email   = %q
  api_key = %q
}
`, noRegister.URL, mark.Email, mark.APIKey) + testAccMessageReportConfig(10, "spam", nil),
			ExpectError: acctest.ExpectErr("Unable to Report Message", "no moderation request channel",
				"administrator must choose", "Message reporting is not enabled in this organization."),
		},
	)
}

func TestAccMessageReport_inaccessibleMessage(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelSteps(t,
		// Message 8 is in #leadership, which Mark cannot read.
		acctest.Apply(member+testAccMessageReportConfig(8, "spam", nil)).Fails(acctest.ExpectErr("Unable to Report Message", "message_id",
			"does not exist or the provider's account cannot access it", "Invalid message(s)")).Step(),
		acctest.Apply(member+testAccMessageReportConfig(9999, "spam", nil)).Fails(acctest.ExpectErr("message_id", "does not exist", "Invalid message(s)")).Step(),
		resource.TestStep{
			// Nothing was reported, nothing recorded.
			Config:             member + testAccMessageReportConfig(9999, "spam", nil),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
			PreConfig: func() {
				if err := testAccReportsOnServer(srv); err != nil {
					t.Error(err)
				}
			},
		},
	)
}

func TestAccMessageReport_featureLevels(t *testing.T) {
	tooOld := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 380 })
	// Before feature level 435 the server lists no report types: the five
	// original ones apply.
	fixed := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 400 })
	fixed.Do(func(r *refserver.Realm) {
		r.ReportTypes = append(r.ReportTypes, refserver.ReportType{Key: "impersonation", Name: "Impersonation"})
	})
	acctest.ParallelSteps(t,
		acctest.PlanFails(tooOld.ProviderConfig(t, refserver.SeedMemberID)+testAccMessageReportConfig(10, "spam", nil),
			"Zulip Server Too Old", "zulip_message_report needs Zulip feature level 382", "has feature level 380"),
		acctest.PlanFails(fixed.ProviderConfig(t, refserver.SeedMemberID)+testAccMessageReportConfig(10, "impersonation", nil),
			"Unknown Report Type", `"norms" or "other"`),
		acctest.Apply(fixed.ProviderConfig(t, refserver.SeedMemberID)+testAccMessageReportConfig(10, "norms", nil)).
			State(testAccReportsCheck(fixed, []string{"Reason: **norms**"})).Step(),
	)
}

func TestAccMessageReport_example(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelSteps(t,
		acctest.Apply(member+acctest.ReadExample(t, "examples/resources/zulip_message_report/resource.tf")).
			State(testAccReportsCheck(srv, []string{"#**random>cats@10**", "Reason: **spam**", "third time this week"})).Clean().Step(),
	)
}

// testAccMessageReportConfig builds a report; description nil leaves it out.
func testAccMessageReportConfig(messageID int, reportType string, description any) string {
	desc := ""
	if s, ok := description.(string); ok {
		desc = fmt.Sprintf("  description = %q\n", s)
	}
	return fmt.Sprintf(`
resource "zulip_message_report" "test" {
  message_id  = %d
  report_type = %q
%s}
`, messageID, reportType, desc)
}

// testAccReportsOnServer checks the reports posted to the moderation request
// channel, oldest first: one per argument, each containing every phrase.
func testAccReportsOnServer(srv *acctest.Server, want ...[]string) error {
	var got []string
	srv.Do(func(r *refserver.Realm) {
		for _, m := range r.Messages {
			if m.ChannelID == refserver.SeedChannelModReqs && m.SenderID == 0 {
				got = append(got, m.Content)
			}
		}
	})
	if len(got) != len(want) {
		return fmt.Errorf("%d reports posted, want %d: %q", len(got), len(want), got)
	}
	for i, phrases := range want {
		for _, p := range phrases {
			if !strings.Contains(got[i], p) {
				return fmt.Errorf("report %d lacks %q: %q", i+1, p, got[i])
			}
		}
	}
	return nil
}

// testAccReportsCheck is testAccReportsOnServer as a state check.
func testAccReportsCheck(srv *acctest.Server, want ...[]string) statecheck.StateCheck {
	return acctest.ServerCheck(func() error { return testAccReportsOnServer(srv, want...) })
}
