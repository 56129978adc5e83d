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
	"maps"
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

// DataBlocks is the scale case of a data source whose blocks all read the
// same (arguments, "" for none), made as user: block i is named many<i>.
func DataBlocks(user int, typ, arguments string) *ScaleCase {
	return &ScaleCase{User: user, Many: func(i int) string {
		return fmt.Sprintf("data %q \"many%d\" {\n%s}\n", typ, i, arguments)
	}}
}

// scaleFew and scaleMany are the two sizes whose plans are compared.
const scaleFew, scaleMany = 2, 5

// planRequests: for each user of the area's scale cases, the plan after
// applying scaleMany objects of each type sends what the plan after applying
// scaleFew sends.
func (c Contract) planRequests(t *testing.T) {
	cases := c.scaleCases()
	byUser := map[int][]string{}
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		byUser[cases[name].User] = append(byUser[cases[name].User], name)
	}
	for user, names := range byUser {
		t.Run(strings.Join(names, "+"), func(t *testing.T) {
			t.Parallel()
			few, many := requestsAtPlan(t, user, cases, names, scaleFew), requestsAtPlan(t, user, cases, names, scaleMany)
			for _, problem := range scaleProblems(cases, names, few, many) {
				t.Error(problem)
			}
		})
	}
}

// scaleCases are the area's scale cases: its resource types' by type name,
// its data sources' as data.<type name>.
func (c Contract) scaleCases() map[string]*ScaleCase {
	out := map[string]*ScaleCase{}
	for typ, tc := range c.Types {
		if tc.Scale != nil {
			out[typ] = tc.Scale
		}
	}
	for typ, dc := range c.DataSources {
		if dc.Scale != nil {
			out["data."+typ] = dc.Scale
		}
	}
	return out
}

// requestsAtPlan applies n objects (or data blocks) of each case named as
// user and plans again, and returns the requests of that plan (its refresh
// and data reads included).
func requestsAtPlan(t *testing.T, user int, cases map[string]*ScaleCase, names []string, n int) map[string]int {
	srv := NewServer(t)
	var cfg strings.Builder
	cfg.WriteString(srv.ProviderConfig(t, user))
	var versions []tfversion.TerraformVersionCheck
	for _, name := range names {
		for i := range n {
			cfg.WriteString(cases[name].Many(i))
		}
		versions = append(versions, cases[name].Versions...)
	}
	measured := &planCounts{srv: srv}
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
func scaleProblems(cases map[string]*ScaleCase, names []string, few, many map[string]int) []string {
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
	for _, name := range names {
		for _, never := range cases[name].Never {
			if many[never] > 0 {
				out = append(out, fmt.Sprintf("%s: the plan of %d objects sent %d %s, which it must never send",
					name, scaleMany, many[never], never))
			}
		}
	}
	return out
}

// planCounts records the reference server's request counts when the plan
// is made.
type planCounts struct {
	srv    *Server
	counts map[string]int
}

// CheckPlan implements plancheck.PlanCheck.
func (r *planCounts) CheckPlan(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
	r.counts = r.srv.RequestCounts()
}
