package provider_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func TestAccLinkifier_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	addr := "zulip_linkifier.test"
	var id int

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: admin + testAccLinkifierConfigFull(),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("pattern"), knownvalue.StringExact(`(?P<org>[a-z]+)/(?P<repo>[a-z-]+)#(?P<id>[0-9]+)`)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("url_template"), knownvalue.StringExact("https://github.com/{org}/{repo}/issues/{id}")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("example_input"), knownvalue.StringExact("zulip/zulip-terminal#12")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("reverse_template"), knownvalue.StringExact("{org}/{repo}#{id}")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("alternative_url_templates"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("https://github.com/{org}/{repo}/pull/{id}"),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.Int64Func(func(v int64) error {
						id = int(v)
						return linkifierOnServer(srv, id, "https://github.com/{org}/{repo}/issues/{id}")
					})),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// In place: a new template, and the optional fields removed.
				Config: admin + testAccLinkifierConfig(`(?P<org>[a-z]+)/(?P<repo>[a-z-]+)#(?P<id>[0-9]+)`, "https://gitlab.com/{org}/{repo}/-/issues/{id}"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("url_template"), knownvalue.StringExact("https://gitlab.com/{org}/{repo}/-/issues/{id}")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("example_input"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("reverse_template"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("alternative_url_templates"), knownvalue.Null()),
				},
			},
			{
				// Changed outside Terraform: the plan puts it back.
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) {
						for _, l := range r.Linkifiers {
							if l.ID == id {
								l.URLTemplate = "https://example.com/{org}/{repo}/{id}"
							}
						}
					})
				},
				Config: admin + testAccLinkifierConfig(`(?P<org>[a-z]+)/(?P<repo>[a-z-]+)#(?P<id>[0-9]+)`, "https://gitlab.com/{org}/{repo}/-/issues/{id}"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.Int64Func(func(int64) error {
						return linkifierOnServer(srv, id, "https://gitlab.com/{org}/{repo}/-/issues/{id}")
					})),
				},
			},
			{
				// Deleted outside Terraform: dropped from state and created again.
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) { r.Linkifiers = r.Linkifiers[:0] })
				},
				Config: admin + testAccLinkifierConfig(`(?P<org>[a-z]+)/(?P<repo>[a-z-]+)#(?P<id>[0-9]+)`, "https://gitlab.com/{org}/{repo}/-/issues/{id}"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

func TestAccLinkifier_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	step := func(hcl string, want string) resource.TestStep {
		return resource.TestStep{Config: admin + hcl, PlanOnly: true, ExpectError: regexp.MustCompile(want)}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step(testAccLinkifierConfig(`foo(?=bar)(?P<id>x)`, "https://x.org/{id}"), `(?s)pattern.*Bad regular expression`),
			step(testAccLinkifierConfig(`(a)\1(?P<id>x)`, "https://x.org/{id}"), `(?s)pattern.*Bad regular expression`),
			step(testAccLinkifierConfig(`#(?P<id>[0-9]+)`, "https://x.org/{id"), `(?s)url_template.*Invalid URL template`),
			step(testAccLinkifierConfig(`#(?P<id>[0-9]+)`, "https://x.org/{ticket}"), `Group 'ticket' in URL template is not\s+present in linkifier pattern`),
			step(testAccLinkifierConfig(`(?P<org>[a-z]+)#(?P<id>[0-9]+)`, "https://x.org/{id}"), `Group 'org' in linkifier pattern is not\s+present in URL template`),
			step(testAccLinkifierConfig(` #(?P<id>[0-9]+)`, "https://x.org/{id}"), `(?s)pattern.*must not start or end with whitespace`),
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
		},
	})
}

func TestAccLinkifier_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 450 })
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      admin + testAccLinkifierConfigFull(),
				PlanOnly:    true,
				ExpectError: expectErr("example_input needs Zulip feature level 471 or newer", "has feature level 450"),
			},
			{
				// Without the newer fields it works on the older server.
				Config: admin + testAccLinkifierConfig(`#(?P<id>[0-9]+)x`, "https://x.org/{id}"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

func TestAccLinkifier_needsAdministrator(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      member + testAccLinkifierConfig(`MEMBER-(?P<id>[0-9]+)`, "https://x.org/{id}"),
			PlanOnly:    true,
			ExpectError: expectErr("Insufficient Role", "Changing linkifiers needs an organization administrator", "is a member"),
		}},
	})
}

// TestAccLinkifier_refreshCostIsConstant applies 50 linkifiers and checks that a
// plan refreshing all of them lists the linkifiers a constant number of times.
func TestAccLinkifier_refreshCostIsConstant(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	const n = 50
	config := admin + fmt.Sprintf(`
resource "zulip_linkifier" "many" {
  count        = %d
  pattern      = "T${count.index}-(?P<id>[0-9]+)"
  url_template = "https://tracker.example.com/${count.index}/{id}"
}`, n)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig: srv.ResetRequests,
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectEmptyPlan(),
						requestCountAtMost{srv: srv, method: "GET", path: "/api/v1/realm/linkifiers", max: 2, resources: n},
					},
				},
			},
		},
	})
}

// requestCountAtMost is a plan check on the number of requests the plan made.
type requestCountAtMost struct {
	srv          *acctest.Server
	method, path string
	max          int
	resources    int
}

// CheckPlan fails when the plan made more than max such requests.
func (c requestCountAtMost) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	if got := c.srv.Requests(c.method, c.path); got > c.max || got == 0 {
		resp.Error = fmt.Errorf("refreshing %d resources made %d %s %s requests; want between 1 and %d", c.resources, got, c.method, c.path, c.max)
	}
}

// linkifierOnServer checks the reference server's copy of a linkifier.
func linkifierOnServer(srv *acctest.Server, id int, urlTemplate string) error {
	err := fmt.Errorf("linkifier %d not on the server", id)
	srv.Do(func(r *refserver.Realm) {
		for _, l := range r.Linkifiers {
			if l.ID == id {
				err = nil
				if l.URLTemplate != urlTemplate {
					err = fmt.Errorf("server has url_template %q, want %q", l.URLTemplate, urlTemplate)
				}
			}
		}
	})
	return err
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

// TestAccLinkifier_existsAtPlan: a pattern the organization already has fails
// the plan, with an import block to copy, instead of the apply.
func TestAccLinkifier_existsAtPlan(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      admin + testAccLinkifierConfig(`#(?P<id>[0-9]+)`, "https://x.org/{id}"),
			PlanOnly:    true,
			ExpectError: expectErr(`Linkifier Already Exists`, `pattern "#(?P<id>[0-9]+)" (import id "1")`, "import {", "to = zulip_linkifier.<name>", `id = "1"`, "}"),
		}},
	})
}

// TestAccLinkifier_createAnswerLost: the linkifier is created but the answer is
// lost. The provider finds the one new linkifier that matches the whole
// configuration and adopts it: one linkifier on the server, an empty plan.
func TestAccLinkifier_createAnswerLost(t *testing.T) {
	srv := acctest.NewServer(t)
	lost := 0
	proxy := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/realm/filters" && lost == 0 {
			lost++
			return acctest.Fault{Status: http.StatusBadGateway, Process: true}
		}
		return acctest.Fault{}
	})
	cfg := proxy + testAccLinkifierConfig(`LOST-(?P<id>[0-9]+)`, "https://x.org/{id}")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("zulip_linkifier.test", tfjsonpath.New("id"), knownvalue.Int64Func(func(v int64) error {
					if lost != 1 {
						return fmt.Errorf("the answer was not lost (%d)", lost)
					}
					if n := linkifiersWithPattern(srv, `LOST-(?P<id>[0-9]+)`); n != 1 {
						return fmt.Errorf("%d linkifiers with the pattern, want 1", n)
					}
					return linkifierOnServer(srv, int(v), "https://x.org/{id}")
				})),
			},
		}},
	})
}

// TestAccLinkifier_createUncertainStranger: while the create's outcome is
// unknown, a linkifier with the same pattern but another template appears
// (made by someone else between plan and apply). The provider adopts nothing:
// the apply fails naming it with an import block, the stranger is untouched,
// and nothing is in state for a later destroy to delete.
func TestAccLinkifier_createUncertainStranger(t *testing.T) {
	srv := acctest.NewServer(t)
	const pattern = `STRANGER-(?P<id>[0-9]+)`
	proxy := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/realm/filters" {
			return acctest.Fault{Status: http.StatusGatewayTimeout, Before: func() {
				srv.Do(func(r *refserver.Realm) {
					r.NextID["linkifier"]++
					r.Linkifiers = append(r.Linkifiers, &refserver.Linkifier{
						ID: r.NextID["linkifier"], Pattern: pattern, URLTemplate: "https://someone-else.example/{id}",
					})
				})
			}}
		}
		return acctest.Fault{}
	})
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      proxy + testAccLinkifierConfig(pattern, "https://x.org/{id}"),
			ExpectError: expectErr("Unable to Create Linkifier", "adopted none", "import {", "to = zulip_linkifier.<name>"),
			Check: func(*terraform.State) error {
				if n := linkifiersWithPattern(srv, pattern); n != 1 {
					return fmt.Errorf("%d linkifiers with the pattern, want the stranger alone", n)
				}
				return nil
			},
		}},
		CheckDestroy: func(*terraform.State) error {
			if n := linkifiersWithPattern(srv, pattern); n != 1 {
				return fmt.Errorf("after destroy %d linkifiers with the pattern, want the stranger kept", n)
			}
			return nil
		},
	})
}

// TestAccLinkifier_createReadBackFails: the linkifier is created, but reading
// it back fails. The apply warns instead of failing (a failed create would be
// tainted and replaced, deleting what was just made), keeps the linkifier in
// state, and the next plan is empty: nothing is created twice.
func TestAccLinkifier_createReadBackFails(t *testing.T) {
	srv := acctest.NewServer(t)
	created, failed := false, 0
	proxy := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/v1/realm/filters":
			created = true
		case created && failed == 0 && r.Method == http.MethodGet && r.URL.Path == "/api/v1/realm/linkifiers":
			failed++
			return acctest.Fault{Status: http.StatusServiceUnavailable}
		}
		return acctest.Fault{}
	})
	const pattern = `HALF-(?P<id>[0-9]+)`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: proxy + testAccLinkifierConfig(pattern, "https://x.org/{id}"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("zulip_linkifier.test", tfjsonpath.New("id"), knownvalue.Int64Func(func(v int64) error {
						if failed != 1 {
							return fmt.Errorf("the read-back did not fail (%d)", failed)
						}
						if n := linkifiersWithPattern(srv, pattern); n != 1 {
							return fmt.Errorf("%d linkifiers with the pattern, want 1", n)
						}
						return linkifierOnServer(srv, int(v), "https://x.org/{id}")
					})),
				},
			},
		},
	})
}

// linkifiersWithPattern counts the server's linkifiers with a pattern.
func linkifiersWithPattern(srv *acctest.Server, pattern string) int {
	n := 0
	srv.Do(func(r *refserver.Realm) {
		for _, l := range r.Linkifiers {
			if l.Pattern == pattern {
				n++
			}
		}
	})
	return n
}
