package provider_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// queryStep is a `terraform query` step over list blocks.
func queryStep(srv *acctest.Server, t *testing.T, user int, lists string, checks ...querycheck.QueryResultCheck) resource.TestStep {
	return resource.TestStep{Query: true, Config: srv.ProviderConfig(t, user) + lists, QueryResultChecks: checks}
}

// filteredLists lists each type through one of its filters.
const filteredLists = `
list "zulip_user" "admins" {
  provider = zulip
  config {
    role = "administrator"
  }
}
list "zulip_user" "active" {
  provider = zulip
  limit    = 1000
}
list "zulip_user" "everyone" {
  provider = zulip
  limit    = 1000
  config {
    include_deactivated = true
  }
}
list "zulip_channel" "private" {
  provider = zulip
  config {
    privacy = "private"
  }
}
list "zulip_channel" "front" {
  provider = zulip
  config {
    name_regex = "^front"
  }
}
list "zulip_user_group" "all" {
  provider = zulip
}
list "zulip_bot" "hooks" {
  provider = zulip
  config {
    bot_type = "incoming_webhook"
  }
}
`

// seededCounts counts the organization's active private channels, its
// humans, and its active humans.
func seededCounts(srv *acctest.Server) (private, humans, active int) {
	srv.Do(func(r *refserver.Realm) {
		for _, c := range r.Channels {
			if c.InviteOnly && !c.IsArchived {
				private++
			}
		}
		for _, u := range r.Users {
			if !u.IsBot {
				humans++
				if u.IsActive {
					active++
				}
			}
		}
	})
	return private, humans, active
}

// TestAccList_filters: each filter narrows its list to what the
// organization holds, and results are shown by name (users by name and
// address).
func TestAccList_filters(t *testing.T) {
	srv := acctest.NewServer(t)
	private, humans, active := seededCounts(srv)
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.QueryVersions,
		Steps: []resource.TestStep{
			queryStep(srv, t, refserver.SeedOwnerID, filteredLists,
				querycheck.ExpectLength("zulip_user.admins", 2),
				querycheck.ExpectResourceDisplayName("zulip_user.admins",
					queryfilter.ByResourceIdentity(map[string]knownvalue.Check{
						"email": knownvalue.StringExact("aaron@zulip.example.com"), "id": knownvalue.Int64Exact(refserver.SeedAdminID)}),
					knownvalue.StringExact("Aaron Admin <aaron@zulip.example.com>")),
				querycheck.ExpectIdentity("zulip_user.admins", map[string]knownvalue.Check{
					"email": knownvalue.StringExact("alice@zulip.example.com"), "id": knownvalue.Int64Exact(refserver.SeedAdmin2ID)}),
				querycheck.ExpectLength("zulip_user.active", active),
				querycheck.ExpectLength("zulip_user.everyone", humans),
				querycheck.ExpectIdentity("zulip_user.everyone", map[string]knownvalue.Check{
					"email": knownvalue.StringExact("dan@zulip.example.com"), "id": knownvalue.Int64Exact(refserver.SeedDeactivatedID)}),
				querycheck.ExpectLength("zulip_channel.private", private),
				querycheck.ExpectIdentity("zulip_channel.private", map[string]knownvalue.Check{"name": knownvalue.StringExact("backend-internal")}),
				querycheck.ExpectLength("zulip_channel.front", 1),
				querycheck.ExpectIdentity("zulip_channel.front", map[string]knownvalue.Check{"name": knownvalue.StringExact("frontend-ops")}),
				// No system group (role:members and the like) is listed.
				querycheck.ExpectLength("zulip_user_group.all", 3),
				querycheck.ExpectLength("zulip_bot.hooks", 1),
				querycheck.ExpectIdentity("zulip_bot.hooks", map[string]knownvalue.Check{"email": knownvalue.StringExact("alerts-bot@zulip.example.com")}),
			),
			{Query: true, Config: srv.ProviderConfig(t, refserver.SeedOwnerID) + `
list "zulip_channel" "bad" {
  provider = zulip
  config {
    name_regex = "(unclosed"
  }
}
`, ExpectError: acctest.ExpectErrRE(`Invalid Regular Expression`)},
		},
	})
}

// TestAccList_includeResource: with include_resource each result holds the
// object as an import reads it.
func TestAccList_includeResource(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.QueryVersions,
		Steps: []resource.TestStep{queryStep(srv, t, refserver.SeedAdminID, `
list "zulip_channel" "all" {
  provider         = zulip
  include_resource = true
}
list "zulip_channel_subscribers" "all" {
  provider         = zulip
  include_resource = true
}
`,
			querycheck.ExpectResourceKnownValues("zulip_channel.all",
				queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"name": knownvalue.StringExact("general")}),
				[]querycheck.KnownValueCheck{
					{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("Everyone is here.")},
					{Path: tfjsonpath.New("privacy"), KnownValue: knownvalue.StringExact("public")},
				}),
			querycheck.ExpectResourceDisplayName("zulip_channel_subscribers.all",
				queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"channel_id": knownvalue.Int64Exact(int64(refserver.SeedChannelDesign))}),
				knownvalue.StringExact("design")),
		)},
	})
}

// TestAccList_requestsDoNotGrow: a query of every list resource with
// include_resource sends the same requests, endpoint by endpoint, for an
// organization with 3 and with 25 more channels, groups and users: one read
// per collection, none per object.
func TestAccList_requestsDoNotGrow(t *testing.T) {
	var lists strings.Builder
	for _, typ := range listTypes(t) {
		fmt.Fprintf(&lists, "list %q \"all\" {\n  provider         = zulip\n  include_resource = true\n  limit            = 1000\n%s}\n",
			typ, listConfigs[typ])
	}
	counts := map[int]map[string]int{}
	for _, n := range []int{3, 25} {
		srv := acctest.NewServer(t)
		srv.Do(func(r *refserver.Realm) {
			for i := range n {
				acctest.AddChannel(r, fmt.Sprintf("bulk-%02d", i), "Bulk")
				acctest.AddGroup(r, fmt.Sprintf("bulk-%02d", i), "Bulk")
				r.NextID["user"]++
				id := r.NextID["user"]
				r.Users[id] = &refserver.User{ID: id, Email: fmt.Sprintf("bulk-%02d@zulip.example.com", i), FullName: fmt.Sprintf("Bulk %d", i),
					Role: refserver.RoleMember, IsActive: true, Timezone: "Europe/Berlin", EmailVisibility: 1}
			}
		})
		counted := &requestsOfQuery{srv: srv}
		acctest.Test(t, resource.TestCase{
			TerraformVersionChecks: acctest.QueryVersions,
			Steps: []resource.TestStep{{
				PreConfig: srv.ResetRequests, Query: true, Config: srv.ProviderConfig(t, refserver.SeedOwnerID) + lists.String(),
				QueryResultChecks: []querycheck.QueryResultCheck{querycheck.ExpectLengthAtLeast("zulip_user.all", 9+n), counted},
			}},
		})
		counts[n] = counted.counts
	}
	if t.Failed() || t.Skipped() {
		return
	}
	for endpoint, n := range counts[25] {
		if counts[3][endpoint] != n {
			t.Errorf("%s: %d requests with 3 more objects of each kind, %d with 25", endpoint, counts[3][endpoint], n)
		}
	}
	for endpoint := range counts[3] {
		if _, ok := counts[25][endpoint]; !ok {
			t.Errorf("%s: requested with 3 more objects of each kind, not with 25", endpoint)
		}
	}
	t.Logf("requests of a query of every list: %v", counts[25])
}

// listConfigs are the filters a list needs.
var listConfigs = map[string]string{
	"zulip_channel_subscription":  "  config {\n    user_id = 11\n  }\n",
	"zulip_user_group_membership": "  config {\n    user_id = 11\n  }\n",
}

// requestsOfQuery records the requests a query sent.
type requestsOfQuery struct {
	srv    *acctest.Server
	counts map[string]int
}

func (r *requestsOfQuery) CheckQuery(context.Context, querycheck.CheckQueryRequest, *querycheck.CheckQueryResponse) {
	r.counts = r.srv.RequestCounts()
}

// listTypes are the provider's list resource types.
func listTypes(t *testing.T) []string {
	t.Helper()
	p, ok := provider.New("test")().(fwprovider.ProviderWithListResources)
	if !ok {
		t.Fatal("the provider has no list resources")
	}
	var out []string
	for _, f := range p.ListResources(context.Background()) {
		out = append(out, typeName(f()))
	}
	sort.Strings(out)
	return out
}

// listExamples are the list resources' examples.
var listExamples = []string{
	"examples/list-resources/zulip_allowed_domain/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_bot/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_channel/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_channel_folder/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_channel_folder_order/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_channel_subscribers/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_code_playground/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_custom_emoji/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_custom_profile_field/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_custom_profile_field_order/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_default_channels/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_default_channel_group/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_linkifier/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_linkifier_order/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_realm/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_realm_user_defaults/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_user/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_user_group/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_user_group_members/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_saved_snippet/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_user_topic/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_channel_subscription/list-resource.tfquery.hcl",
	"examples/list-resources/zulip_user_group_membership/list-resource.tfquery.hcl",
}

// TestAccExamples_listResources runs every list resource's example with
// `terraform query`: each of its list blocks finds something in the
// organization (seeded, plus a private team- channel, a folder and a
// playground, which the seed lacks).
func TestAccExamples_listResources(t *testing.T) {
	for _, example := range listExamples {
		t.Run(filepath.Base(filepath.Dir(example)), func(t *testing.T) {
			srv := acctest.NewServer(t)
			srv.Do(func(r *refserver.Realm) {
				acctest.AddChannel(r, "team-rocket", "Rockets").InviteOnly = true
				acctest.AddFolder(r, "Teams", "")
				acctest.AddPlayground(r, "Rust playground", "Rust", "https://play.rust-lang.org/?code={code}")
			})
			text := acctest.ReadExample(t, example)
			var checks []querycheck.QueryResultCheck
			for _, m := range regexp.MustCompile(`(?m)^list "([a-z_]+)" "([a-z_]+)"`).FindAllStringSubmatch(text, -1) {
				checks = append(checks, querycheck.ExpectLengthAtLeast(m[1]+"."+m[2], 1))
			}
			if len(checks) == 0 {
				t.Fatalf("%s has no list block", example)
			}
			acctest.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks: acctest.QueryVersions,
				Steps:                  []resource.TestStep{queryStep(srv, t, refserver.SeedOwnerID, text, checks...)},
			})
		})
	}
}
