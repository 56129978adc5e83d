package realm_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func TestAccLinkifier_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	addr := "zulip_linkifier.test"
	var id int
	const pattern, gitlab = `(?P<org>[a-z]+)/(?P<repo>[a-z-]+)#(?P<id>[0-9]+)`, "https://gitlab.com/{org}/{repo}/-/issues/{id}"
	onServer := func(template string) statecheck.StateCheck {
		return acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
			id = int(v)
			return acctest.LinkifierOnServer(srv, id, template)
		}))
	}
	acctest.ParallelSteps(t,
		acctest.Apply(admin+testAccLinkifierConfigFull()).Clean().State(
			acctest.Value(addr, "pattern", knownvalue.StringExact(pattern)),
			acctest.Value(addr, "url_template", knownvalue.StringExact("https://github.com/{org}/{repo}/issues/{id}")),
			acctest.Value(addr, "example_input", knownvalue.StringExact("zulip/zulip-terminal#12")),
			acctest.Value(addr, "reverse_template", knownvalue.StringExact("{org}/{repo}#{id}")),
			acctest.Value(addr, "alternative_url_templates", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringExact("https://github.com/{org}/{repo}/pull/{id}"),
			})),
			onServer("https://github.com/{org}/{repo}/issues/{id}"),
		).Step(),
		acctest.ImportVerify(addr, ""),
		// In place: a new template, and the optional fields removed.
		acctest.Apply(admin+testAccLinkifierConfig(pattern, gitlab)).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(
			acctest.Value(addr, "url_template", knownvalue.StringExact(gitlab)),
			acctest.Value(addr, "example_input", knownvalue.Null()),
			acctest.Value(addr, "reverse_template", knownvalue.Null()),
			acctest.Value(addr, "alternative_url_templates", knownvalue.Null()),
		).Step(),
		// Changed outside Terraform: the plan puts it back.
		acctest.Apply(admin+testAccLinkifierConfig(pattern, gitlab)).OutOfBand(srv, func(r *refserver.Realm) {
			for _, l := range r.Linkifiers {
				if l.ID == id {
					l.URLTemplate = "https://example.com/{org}/{repo}/{id}"
				}
			}
		}).Planned(addr, plancheck.ResourceActionUpdate).State(onServer(gitlab)).Step(),
		// Deleted outside Terraform: dropped from state and created again.
		acctest.Apply(admin+testAccLinkifierConfig(pattern, gitlab)).OutOfBand(srv, func(r *refserver.Realm) {
			r.Linkifiers = r.Linkifiers[:0]
		}).Planned(addr, plancheck.ResourceActionCreate).Clean().Step(),
	)
}

func TestAccLinkifier_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	step := func(hcl string, want string) resource.TestStep { return acctest.PlanFailsRE(admin+hcl, want) }
	acctest.ParallelSteps(t,
		step(testAccLinkifierConfig(`foo(?=bar)(?P<id>x)`, "https://x.org/{id}"), `(?s)pattern.*Bad regular expression`),
		step(testAccLinkifierConfig(`(a)\1(?P<id>x)`, "https://x.org/{id}"), `(?s)pattern.*Bad regular expression`),
		step(testAccLinkifierConfig(`#(?P<id>[0-9]+)`, "https://x.org/{id"), `(?s)url_template.*Invalid URL template`),
		step(testAccLinkifierConfig(`#(?P<id>[0-9]+)`, "https://x.org/{ticket}"), `Group 'ticket' in URL template is not\s+present in linkifier pattern`),
		step(testAccLinkifierConfig(`(?P<org>[a-z]+)#(?P<id>[0-9]+)`, "https://x.org/{id}"), `Group 'org' in linkifier pattern is not\s+present in URL template`),
		step(testAccLinkifierConfig(` #(?P<id>[0-9]+)`, "https://x.org/{id}"), `(?s)pattern.*must not start or end with whitespace`),
		step(testAccLinkifierConfig(``, "https://x.org/{id}"), `(?s)pattern.*This field cannot be blank`),
		step(`
resource "zulip_linkifier" "test" {
  pattern          = "#(?P<id>[0-9]+)"
  url_template     = "https://x.org/{id}"
  reverse_template = "#{id}"
}`, `reverse_template requires example_input`),
		step(`
resource "zulip_linkifier" "test" {
  pattern          = "#(?P<id>[0-9]+)"
  url_template     = "https://x.org/{id}"
  example_input    = "#12"
  reverse_template = "PR{id}"
}`, `(?s)reverse_template.*produces "PR12", not the example input "#12"`),
		step(`
resource "zulip_linkifier" "test" {
  pattern                   = "#(?P<id>[0-9]+)"
  url_template              = "https://x.org/{id}"
  alternative_url_templates = ["https://x.org/{other}"]
}`, `(?s)alternative_url_templates.*Group 'other'`),
	)
}

func TestAccLinkifier_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 450 })
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelSteps(t,
		acctest.PlanFails(admin+testAccLinkifierConfigFull(), "example_input needs Zulip feature level 471 or newer", "has feature level 450"),
		// Without the newer fields it works on the older server.
		acctest.Apply(admin+testAccLinkifierConfig(`#(?P<id>[0-9]+)x`, "https://x.org/{id}")).Clean().Step(),
	)
}

func TestAccLinkifier_needsAdministrator(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{acctest.PlanFails(member+testAccLinkifierConfig(`MEMBER-(?P<id>[0-9]+)`, "https://x.org/{id}"),
			"Insufficient Role", "Changing linkifiers needs an organization administrator", "is a member")},
	})
}

func testAccLinkifierConfig(pattern, urlTemplate string) string {
	return fmt.Sprintf(`
resource "zulip_linkifier" "test" {
  pattern      = %q
  url_template = %q
}
`, pattern, urlTemplate)
}

func testAccLinkifierConfigFull() string {
	return strings.TrimSpace(`
resource "zulip_linkifier" "test" {
  pattern                   = "(?P<org>[a-z]+)/(?P<repo>[a-z-]+)#(?P<id>[0-9]+)"
  url_template              = "https://github.com/{org}/{repo}/issues/{id}"
  example_input             = "zulip/zulip-terminal#12"
  reverse_template          = "{org}/{repo}#{id}"
  alternative_url_templates = ["https://github.com/{org}/{repo}/pull/{id}"]
}
`)
}

// TestAccLinkifier_createsReadBackOnce: the creates Terraform runs in parallel
// read the linkifiers back together (issue 13). Eight new linkifiers cost eight
// POSTs and a few lists: the plan's, the apply's first, the read-backs (shared
// while writes are in flight; 4 lists in all on an idle machine, 10 before).
func TestAccLinkifier_createsReadBackOnce(t *testing.T) {
	srv := acctest.NewServer(t)
	var cfg strings.Builder
	cfg.WriteString(srv.ProviderConfig(t, refserver.SeedAdminID))
	const n = 8
	for i := range n {
		fmt.Fprintf(&cfg, "resource \"zulip_linkifier\" \"l%d\" {\n  pattern      = \"RB%d-(?P<id>[0-9]+)\"\n  url_template = \"https://rb%d.example.com/{id}\"\n}\n", i, i, i)
	}
	acctest.ParallelSteps(t,
		acctest.Apply(cfg.String()).Before(srv.ResetRequests).OnServer(func() error {
			posts := srv.Requests("POST", "/api/v1/realm/filters")
			lists := srv.Requests("GET", "/api/v1/realm/linkifiers")
			t.Logf("%d creates: %d POST, %d GET /realm/linkifiers", n, posts, lists)
			if posts != n {
				return fmt.Errorf("%d POST /realm/filters for %d linkifiers", posts, n)
			}
			// How many creates overlap depends on scheduling, so only the
			// bound that holds whatever the timing is asserted: never more
			// than one list per create besides the plan's and the apply's
			// first; the sharing itself is pinned, deterministically, by
			// TestCollectionCacheReadsBackOnceAfterParallelWrites.
			if lists > n+2 {
				return fmt.Errorf("%d GET /realm/linkifiers for %d creates", lists, n)
			}
			return nil
		}).Step(),
	)
}
