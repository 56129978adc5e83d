package acctest

// The rule of reads at scale (ARCHITECTURE.md): the plan of a configuration
// with more objects of a type sends the same requests, endpoint by endpoint,
// as the plan of one with fewer: one read per collection per run, never one
// per object. Every type that refreshes from the server gives its ScaleCase
// (or the reason it needs none), so a new type that reads per object fails its
// area's contract.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// ScaleCase is how the contract makes many objects of a type.
type ScaleCase struct {
	// User is the seeded user the provider acts as.
	User int
	// Many is the configuration of the type's i-th object (i from 0): its
	// resource blocks, named and keyed apart by i, with what they need (the
	// channel whose subscribers they are).
	Many func(i int) string
	// Never are requests ("GET /api/v1/...") the plan must not send at all.
	Never []string
	// Versions are the Terraform versions the configuration needs (a
	// write-only password needs 1.11).
	Versions []tfversion.TerraformVersionCheck
}

// scaleFew and scaleMany are the two sizes whose plans are compared.
const scaleFew, scaleMany = 2, 5

// planRequests: for each user of the area's scale cases, the plan after
// applying scaleMany objects of each type sends what the plan after applying
// scaleFew sends.
func (c Contract) planRequests(t *testing.T) {
	byUser := map[int][]string{}
	for _, typ := range c.sortedTypes(func(tc TypeContract) bool { return tc.Scale != nil }) {
		byUser[c.Types[typ].Scale.User] = append(byUser[c.Types[typ].Scale.User], typ)
	}
	for user, types := range byUser {
		t.Run(strings.Join(types, "+"), func(t *testing.T) {
			t.Parallel()
			few, many := c.requestsAtPlan(t, user, types, scaleFew), c.requestsAtPlan(t, user, types, scaleMany)
			for _, problem := range c.scaleProblems(types, few, many) {
				t.Error(problem)
			}
		})
	}
}

// requestsAtPlan applies n objects of each type as user and plans again,
// and returns the requests of that plan (its refresh included).
func (c Contract) requestsAtPlan(t *testing.T, user int, types []string, n int) map[string]int {
	srv := NewServer(t)
	var cfg strings.Builder
	cfg.WriteString(srv.ProviderConfig(t, user))
	var versions []tfversion.TerraformVersionCheck
	for _, typ := range types {
		for i := range n {
			cfg.WriteString(c.Types[typ].Scale.Many(i))
		}
		versions = append(versions, c.Types[typ].Scale.Versions...)
	}
	measured := &requestsAtPlan{srv: srv}
	Test(t, resource.TestCase{TerraformVersionChecks: versions, Steps: []resource.TestStep{
		{Config: cfg.String()},
		{
			PreConfig: srv.ResetRequests,
			Config:    cfg.String(),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), measured},
			},
		},
	}})
	return measured.counts
}

// scaleProblems compares the plans' requests of few and many objects.
func (c Contract) scaleProblems(types []string, few, many map[string]int) []string {
	var out []string
	if len(many) == 0 {
		out = append(out, "no request measured at plan")
	}
	endpoints := slices.Sorted(func(yield func(string) bool) {
		for k := range many {
			if !yield(k) {
				return
			}
		}
		for k := range few {
			if _, ok := many[k]; !ok && !yield(k) {
				return
			}
		}
	})
	for _, k := range endpoints {
		if many[k] != few[k] {
			out = append(out, fmt.Sprintf("%s: %d requests for %d objects of each type, %d for %d: the plan's "+
				"requests grow with the configuration", k, many[k], scaleMany, few[k], scaleFew))
		}
	}
	for _, typ := range types {
		for _, never := range c.Types[typ].Scale.Never {
			if many[never] > 0 {
				out = append(out, fmt.Sprintf("%s: the plan of %d objects sent %d %s, which it must never send",
					typ, scaleMany, many[never], never))
			}
		}
	}
	return out
}

// requestsAtPlan records the reference server's request counts when the plan
// is made.
type requestsAtPlan struct {
	srv    *Server
	counts map[string]int
}

// CheckPlan implements plancheck.PlanCheck.
func (r *requestsAtPlan) CheckPlan(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
	r.counts = r.srv.RequestCounts()
}
