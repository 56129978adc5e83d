package provider_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccPlanRequestsDoNotGrow: a plan (refresh included) of a configuration
// with n objects of each collection type (groups, their members, channels and
// their subscribers included) sends the same requests, endpoint by
// endpoint, for n = 3 and n = 9: one read per collection per run, no per-object
// reads (issue 13; the rule of ARCHITECTURE.md's "reads at scale"). The
// message flags come from register snapshots read once per run, so no
// message is asked about (GET /messages/matches_narrow) at all.
func TestAccPlanRequestsDoNotGrow(t *testing.T) {
	counts := map[int]map[string]int{}
	for _, n := range []int{3, 9} {
		srv := acctest.NewServer(t)
		var cfg strings.Builder
		cfg.WriteString(srv.ProviderConfig(t, refserver.SeedOwnerID))
		for i := range n {
			fmt.Fprintf(&cfg, "resource \"zulip_linkifier\" \"l%d\" {\n  pattern      = \"PR%d-(?P<id>[0-9]+)\"\n  url_template = \"https://pr%d.example.com/{id}\"\n}\n", i, i, i)
			fmt.Fprintf(&cfg, "resource \"zulip_saved_snippet\" \"s%d\" {\n  title   = \"Title %d\"\n  content = \"Content %d\"\n}\n", i, i, i)
			fmt.Fprintf(&cfg, "resource \"zulip_allowed_domain\" \"d%d\" {\n  domain = \"pr%d.example.org\"\n}\n", i, i)
			fmt.Fprintf(&cfg, "resource \"zulip_user_topic\" \"t%d\" {\n  channel_id        = 1\n  topic             = \"plan %d\"\n  visibility_policy = \"muted\"\n}\n", i, i)
			fmt.Fprintf(&cfg, "resource \"zulip_message_flags\" \"f%d\" {\n  message_ids = [%d]\n  flag        = \"starred\"\n}\n", i, i+2)
			fmt.Fprintf(&cfg, "resource \"zulip_message_flags\" \"r%d\" {\n  message_ids = [%d]\n  flag        = \"read\"\n}\n", i, i+2)
			fmt.Fprintf(&cfg, "resource \"zulip_user_group\" \"g%d\" {\n  name = \"pr-g%d\"\n  can_mention_group = { groups = [\"backend\"] }\n}\n", i, i)
			fmt.Fprintf(&cfg, "resource \"zulip_user_group_members\" \"g%d\" {\n  group_id = zulip_user_group.g%d.id\n  members  = [5, 11]\n}\n", i, i)
			fmt.Fprintf(&cfg, "resource \"zulip_channel\" \"c%d\" {\n  name = \"pr-c%d\"\n  can_send_message_group = { groups = [zulip_user_group.g%d.name] }\n}\n", i, i, i)
			fmt.Fprintf(&cfg, "resource \"zulip_channel_subscribers\" \"c%d\" {\n  channel_id  = zulip_channel.c%d.id\n  subscribers = [5, 6]\n}\n", i, i)
		}
		measured := requestsAtPlan{srv: srv}
		acctest.Test(t, resource.TestCase{
			Steps: []resource.TestStep{
				{Config: cfg.String()},
				{
					PreConfig: srv.ResetRequests,
					Config:    cfg.String(),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), &measured},
					},
				},
			},
		})
		counts[n] = measured.counts
	}
	var endpoints []string
	for k := range counts[9] {
		endpoints = append(endpoints, k)
	}
	sort.Strings(endpoints)
	for _, k := range endpoints {
		t.Logf("%s: %d (n=3), %d (n=9)", k, counts[3][k], counts[9][k])
		if k == "GET /api/v1/messages/matches_narrow" {
			t.Errorf("%s: %d requests for 18 zulip_message_flags; the register snapshots hold every flag", k, counts[9][k])
		}
		if counts[9][k] != counts[3][k] {
			t.Errorf("%s: %d requests for 9 objects of each type, %d for 3: the plan's requests grow with the configuration", k, counts[9][k], counts[3][k])
		}
	}
	if len(endpoints) == 0 {
		t.Error("no request measured")
	}
}

// requestsAtPlan records the reference server's request counts when the plan
// is made.
type requestsAtPlan struct {
	srv    *acctest.Server
	counts map[string]int
}

// CheckPlan implements plancheck.PlanCheck.
func (r *requestsAtPlan) CheckPlan(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
	r.counts = r.srv.RequestCounts()
}
