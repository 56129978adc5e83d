package provider_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// creatingUsers skips a test that creates users on Terraform before 1.11.
var creatingUsers = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)}

// feedConfig is n users and n saved snippets after the provider block.
func feedConfig(provider string, n int) string {
	var cfg strings.Builder
	cfg.WriteString(provider)
	for i := range n {
		fmt.Fprintf(&cfg, "resource \"zulip_user\" \"u%d\" {\n  email     = \"feed%d@example.com\"\n  full_name = \"Feed %d\"\n  password  = \"feed-password-%d\"\n}\n", i, i, i, i)
		fmt.Fprintf(&cfg, "resource \"zulip_saved_snippet\" \"s%d\" {\n  title   = \"Feed %d\"\n  content = \"Content %d\"\n}\n", i, i, i)
	}
	return cfg.String()
}

// TestAccEventFeed_createsReadNoList: users and snippets created in one apply
// take their state from their own add events on one event queue, not from
// lists read back (issue 13): the lists are read only by the plan and the
// apply's first check, one GET /events serves several creates, and the queue
// is registered once. The empty plan that follows (resource.Test checks it)
// shows that the events' objects are what the lists say.
func TestAccEventFeed_createsReadNoList(t *testing.T) {
	srv := acctest.NewServer(t)
	const n = 6
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: creatingUsers, // the password is write-only
		Steps: []resource.TestStep{{
			PreConfig: srv.ResetRequests,
			Config:    feedConfig(srv.ProviderConfig(t, refserver.SeedAdminID), n),
			Check: func(s *terraform.State) error {
				counts := srv.RequestCounts()
				t.Logf("requests: %v", counts)
				if got := srv.Requests("POST", "/api/v1/users") + srv.Requests("POST", "/api/v1/saved_snippets"); got != 2*n {
					return fmt.Errorf("%d creates for %d objects", got, 2*n)
				}
				for _, list := range []string{"/api/v1/users", "/api/v1/saved_snippets"} {
					if got := srv.Requests("GET", list); got > 2 {
						return fmt.Errorf("GET %s %d times: creates read the list back", list, got)
					}
				}
				if got := srv.Requests("GET", "/api/v1/events"); got < 1 || got > 2*n {
					return fmt.Errorf("GET /events %d times for %d creates", got, 2*n)
				}
				for i := range n {
					snippet := s.RootModule().Resources[fmt.Sprintf("zulip_saved_snippet.s%d", i)]
					if snippet == nil || snippet.Primary.Attributes["date_created"] == "" || snippet.Primary.Attributes["date_created"] == "0" {
						return fmt.Errorf("snippet %d has no date_created: %v", i, snippet)
					}
				}
				return nil
			},
		}},
	})
}

// TestAccEventFeed_fallsBack: when the event queue fails (here every
// GET /events answers an error), creates read their lists back instead, and
// the apply succeeds as before.
func TestAccEventFeed_fallsBack(t *testing.T) {
	srv := acctest.NewServer(t)
	const n = 3
	seen := map[string]int{} // the proxy calls the fault function one request at a time
	provider := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		seen[r.Method+" "+r.URL.Path]++
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/events" {
			return acctest.Fault{Status: http.StatusBadRequest}
		}
		return acctest.Fault{}
	})
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: creatingUsers, // the password is write-only
		Steps: []resource.TestStep{{
			Config: feedConfig(provider, n),
			Check: func(*terraform.State) error {
				t.Logf("requests: %v", seen)
				if seen["GET /api/v1/events"] == 0 {
					return fmt.Errorf("the feed was not tried")
				}
				if seen["GET /api/v1/saved_snippets"] < 3 { // the plan's, the apply's first, a read-back
					return fmt.Errorf("the snippets were not read back")
				}
				return nil
			},
		}},
	})
}
