package acctest

// The kit's shared tests, run on every collection object of an area
// (KitCase): what a killed apply, a lost answer, a failed read-back, a taint
// or a duplicated key leave, and how the next plain apply converges.

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// kitTests are the kit's shared tests, by name. Most run on a batch of an
// area's collection objects at once (one test case, one configuration: a
// Terraform command costs the same for one object as for five, and the kit's
// behaviour for one type does not depend on another's being there). Two run
// on each object alone: the failed read-back, whose fault on one type's list
// would also fail another type's read of it (a default channel group's
// create reads the channels); and the generated configuration, which
// terraform-plugin-testing drives for one resource at a time.
var kitTests = []struct {
	name  string
	batch func(t *testing.T, b kitBatch)
	alone bool // batch runs on a batch of one object
	each  func(t *testing.T, typ string, c KitCase)
}{
	{name: "existsAtPlan", batch: kitExistsAtPlan},
	{name: "createAnswerLost", batch: kitCreateAnswerLost},
	{name: "createUncertainStranger", batch: kitCreateUncertainStranger},
	{name: "createReadBackFails", batch: kitCreateReadBackFails, alone: true},
	{name: "taintedReapplied", batch: kitTaintedReapplied},
	{name: "duplicateKey", batch: kitDuplicateKey},
	{name: "generatedConfig", each: kitGeneratedConfig},
}

// runKit runs each of the kit's shared tests on each collection object.
func (c Contract) runKit(t *testing.T) {
	for _, test := range kitTests {
		t.Run(test.name, func(t *testing.T) {
			t.Parallel()
			switch {
			case test.each != nil:
				c.forEachKitCase(t, test.each)
			case test.alone:
				c.forEachKitCase(t, func(t *testing.T, typ string, k KitCase) {
					test.batch(t, kitBatch{user: k.User, types: []string{typ}, cases: map[string]KitCase{typ: k}})
				})
			default:
				for _, b := range c.kitBatches() {
					t.Run(b.name(), func(t *testing.T) { test.batch(t, b) })
				}
			}
		})
	}
}

// forEachKitCase runs f for every collection object, in parallel.
func (c Contract) forEachKitCase(t *testing.T, f func(*testing.T, string, KitCase)) {
	t.Helper()
	for _, typ := range c.sortedTypes(func(tc TypeContract) bool { return tc.Kit != nil }) {
		t.Run(typ, func(t *testing.T) { f(t, typ, *c.Types[typ].Kit) })
	}
}

// kitBatch is collection objects of one area that one test case exercises
// together: made as one user, each through a create request of its own, so
// that a fault aimed at one type's create hits that type alone.
type kitBatch struct {
	user  int
	types []string // sorted
	cases map[string]KitCase
}

// kitBatches are the area's collection objects in as few batches as their
// users and create requests allow (the failed read-back, whose faults aim at
// list requests, runs one type at a time).
func (c Contract) kitBatches() []kitBatch {
	kitOf := func(typ string) KitCase { return *c.Types[typ].Kit }
	groups := firstFit(c.sortedTypes(func(tc TypeContract) bool { return tc.Kit != nil }), func(g []string, typ string) bool {
		return kitOf(g[0]).User == kitOf(typ).User &&
			!slices.ContainsFunc(g, func(o string) bool { return kitOf(o).Create == kitOf(typ).Create })
	})
	batches := make([]kitBatch, len(groups))
	for i, types := range groups {
		batches[i] = kitBatch{user: kitOf(types[0]).User, types: types, cases: map[string]KitCase{}}
		for _, typ := range types {
			batches[i].cases[typ] = kitOf(typ)
		}
	}
	return batches
}

func (b kitBatch) name() string { return strings.Join(b.types, "+") }

// config is the configuration of every object of the batch.
func (b kitBatch) config() string {
	var s strings.Builder
	for _, typ := range b.types {
		s.WriteString(b.cases[typ].Config)
	}
	return s.String()
}

// only is the batch without the objects skip gives a reason to leave out
// (each logged); the test is skipped when none is left.
func (b kitBatch) only(t *testing.T, skip func(typ string, c KitCase) string) kitBatch {
	t.Helper()
	out := kitBatch{user: b.user, cases: map[string]KitCase{}}
	for _, typ := range b.types {
		if why := skip(typ, b.cases[typ]); why != "" {
			t.Logf("%s left out: %s", typ, why)
			continue
		}
		out.types = append(out.types, typ)
		out.cases[typ] = b.cases[typ]
	}
	if len(out.types) == 0 {
		t.Skip("no object of the batch has this case")
	}
	return out
}

// typeOf is the type of the batch whose request (create or list) req is.
func (b kitBatch) typeOf(req string, list bool) (string, bool) {
	for typ, c := range b.cases {
		if !list && c.Create == req || list && c.List == req {
			return typ, true
		}
	}
	return "", false
}

// expectCounts checks that the server holds want objects like each
// configuration.
func (b kitBatch) expectCounts(srv *Server, want int) error {
	var errs []error
	for _, typ := range b.types {
		if err := expectCount(srv, b.cases[typ], want); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", typ, err))
		}
	}
	return errors.Join(errs...)
}

// expectDiags checks, after a test case, that the provider returned for
// each type of the batch a diagnostic matching pattern(type).
func (b kitBatch) expectDiags(t *testing.T, rec *DiagRecorder, pattern func(typ string) string) {
	t.Helper()
	for _, typ := range b.types {
		if err := rec.HasFor(typ, pattern(typ)); err != nil {
			t.Error(err)
		}
	}
}

// kitExistsAtPlan: an object with the configuration's natural key already in
// the organization (what a killed apply leaves behind) fails the plan with an
// import block, instead of failing the apply or duplicating it.
func kitExistsAtPlan(t *testing.T, b kitBatch) {
	srv, rec := NewServer(t), &DiagRecorder{}
	for _, typ := range b.types {
		srv.Do(b.cases[typ].Twin)
	}
	ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{{
			Config:      srv.ProviderConfig(t, b.user) + b.config(),
			PlanOnly:    true,
			ExpectError: ExpectErr("Already Exists", "import {"),
		}},
	})
	b.expectDiags(t, rec, func(typ string) string {
		return ExpectErr("Already Exists", "import {", "to = "+typ+".<name>", "}").String()
	})
}

// kitCreateAnswerLost: the create is processed but its answer lost. The
// provider adopts the one new object that matches the whole configuration:
// one object on the server, an empty plan.
func kitCreateAnswerLost(t *testing.T, b kitBatch) {
	srv := NewServer(t)
	lost := map[string]int{}
	proxy := srv.FaultyProviderConfig(t, b.user, func(r *http.Request) Fault {
		if typ, ok := b.typeOf(r.Method+" "+r.URL.Path, false); ok && lost[typ] == 0 {
			lost[typ]++
			return Fault{Status: http.StatusBadGateway, Process: true}
		}
		return Fault{}
	})
	ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: proxy + b.config(),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: func(*terraform.State) error {
				for _, typ := range b.types {
					if lost[typ] != 1 {
						return fmt.Errorf("%s: the create's answer was not lost (%d)", typ, lost[typ])
					}
				}
				return b.expectCounts(srv, 1)
			},
		}},
	})
}

// kitCreateUncertainStranger: while the create's outcome is unknown, an
// object with the same natural key but other values appears (made by someone
// else between plan and apply). The provider adopts nothing: the apply fails
// naming it with an import block, and no destroy touches it.
func kitCreateUncertainStranger(t *testing.T, b kitBatch) {
	b = b.only(t, func(_ string, c KitCase) string {
		if c.Stranger == nil {
			return "the natural key is every configured value, so an object like it is a twin, not a stranger"
		}
		return ""
	})
	srv, rec := NewServer(t), &DiagRecorder{}
	proxy := srv.FaultyProviderConfig(t, b.user, func(r *http.Request) Fault {
		if typ, ok := b.typeOf(r.Method+" "+r.URL.Path, false); ok {
			return Fault{Status: http.StatusGatewayTimeout, Before: func() { srv.Do(b.cases[typ].Stranger) }}
		}
		return Fault{}
	})
	ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{{
			Config:      proxy + b.config(),
			ExpectError: ExpectErr("adopted none", "import {"),
		}},
		CheckDestroy: func(*terraform.State) error {
			// Nothing like the configuration was made or adopted.
			return b.expectCounts(srv, 0)
		},
	})
	b.expectDiags(t, rec, func(typ string) string {
		return ExpectErr("adopted none", "import {", "to = "+typ+".<name>").String()
	})
}

// kitCreateReadBackFails: the object is created but reading it back fails.
// The apply warns instead of failing (a failed create is tainted, and the next
// apply would delete what was just made), keeps the object in state, and the
// next plan is empty: nothing is created twice.
func kitCreateReadBackFails(t *testing.T, b kitBatch) {
	srv := NewServer(t)
	created, failed := map[string]bool{}, map[string]int{}
	proxy := srv.FaultyProviderConfig(t, b.user, func(r *http.Request) Fault {
		req := r.Method + " " + r.URL.Path
		if typ, ok := b.typeOf(req, false); ok {
			created[typ] = true
		}
		if req == "GET /api/v1/events" {
			// Objects that come from their create's event (saved
			// snippets) are read back when the event queue fails.
			return Fault{Status: http.StatusServiceUnavailable}
		}
		if typ, ok := b.typeOf(req, true); ok && created[typ] && failed[typ] == 0 && !b.cases[typ].Made {
			failed[typ]++
			return Fault{Status: http.StatusServiceUnavailable}
		}
		return Fault{}
	})
	rec := &DiagRecorder{}
	ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{{
			Config: proxy + b.config(),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: func(*terraform.State) error {
				for _, typ := range b.types {
					if err := readBackFailed(rec, typ, b.cases[typ], failed[typ]); err != nil {
						return fmt.Errorf("%s: %w", typ, err)
					}
				}
				return b.expectCounts(srv, 1)
			},
		}},
	})
}

// readBackFailed checks what kitCreateReadBackFails leaves for one type: a
// warning that the object was created but not read back, after the one
// failed read; or, for an object its create's answer determines (Made),
// nothing to warn of.
func readBackFailed(rec *DiagRecorder, typ string, c KitCase, failed int) error {
	if c.Made {
		// Nothing is read back, so nothing can fail: the object is in
		// state as created, with no warning (that no list follows the
		// create is pinned by TestCollectionCreateAddsToTheCache).
		if rec.HasFor(typ, "Not Finished") == nil {
			return errors.New("the create warned that it was not finished")
		}
		return nil
	}
	if failed != 1 {
		return fmt.Errorf("the read-back did not fail (%d)", failed)
	}
	return rec.HasFor(typ, `(?s)^WARNING: .*Created but Not Finished: .*was created \(id .*\), but reading it back failed`)
}

// kitTaintedReapplied: a tainted object (a failed create, or `terraform
// taint`) plans and applies as a replacement: the plan of the new half does
// not report the object being replaced as existing, and the apply leaves one
// object and an empty plan. (-replace, which Terraform plans differently, is
// TestReplaceEveryType's, with the real CLI.)
func kitTaintedReapplied(t *testing.T, b kitBatch) {
	srv := NewServer(t)
	cfg := srv.ProviderConfig(t, b.user) + b.config()
	var taint []string
	var replaced []plancheck.PlanCheck
	for _, typ := range b.types {
		taint = append(taint, typ+".test")
		replaced = append(replaced, plancheck.ExpectResourceAction(typ+".test", plancheck.ResourceActionDestroyBeforeCreate))
	}
	ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				Config: cfg,
				Taint:  taint,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             replaced,
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error { return b.expectCounts(srv, 1) },
			},
		},
	})
}

// kitDuplicateKey: two resources of one configuration with the same natural
// key fail the plan, both when both are new and when one is already in state,
// naming the key; nothing is created.
func kitDuplicateKey(t *testing.T, b kitBatch) {
	b = b.only(t, func(_ string, c KitCase) string { return c.NoNaturalKey })
	srv, rec := NewServer(t), &DiagRecorder{}
	cfg := srv.ProviderConfig(t, b.user) + b.config()
	var twins strings.Builder
	for _, typ := range b.types {
		twins.WriteString(strings.Replace(b.cases[typ].Config, `"test"`, `"twin"`, 1))
	}
	named := func(typ string) string { return "(?s)Two Resources With One .* Two " + typ + " resources" }
	// Each plan fails for every type; the recorder tells them apart.
	planFails := func(preConfig func()) resource.TestStep {
		return resource.TestStep{PreConfig: preConfig, Config: cfg + twins.String(), PlanOnly: true, ExpectError: ExpectErr("Two Resources With One")}
	}
	ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{
			planFails(nil),
			{
				PreConfig: func() { b.expectDiags(t, rec, named); rec.Reset() },
				Config:    cfg,
				Check:     func(*terraform.State) error { return b.expectCounts(srv, 1) },
			},
			planFails(rec.Reset),
		},
	})
	b.expectDiags(t, rec, named)
}

// kitGeneratedConfig: `terraform plan -generate-config-out` over an import
// block writes configuration that the provider accepts unchanged and that
// plans no change.
func kitGeneratedConfig(t *testing.T, typ string, c KitCase) {
	srv := NewServer(t)
	ParallelTest(t, resource.TestCase{
		Steps: GeneratedConfigSteps(srv.ProviderConfig(t, c.User), c.Config, typ+".test", c.ImportID),
	})
}

// kitImportByIdentity (Terraform 1.12+): the identity stored for a created
// object holds the state's values, and an import block with that identity
// adopts the object and plans no change.
func (c Contract) kitImportByIdentity(t *testing.T) {
	identities := c.identityAttributes()
	c.forEachKitCase(t, func(t *testing.T, typ string, k KitCase) {
		srv := NewServer(t)
		cfg, adopted := srv.ProviderConfig(t, k.User)+k.Config, srv.ProviderConfig(t, k.User)+k.Adopted
		if k.Adopted == "" {
			adopted = cfg
		}
		var checks []statecheck.StateCheck
		for _, attr := range identities[typ] {
			checks = append(checks, statecheck.ExpectIdentityValueMatchesState(typ+".test", tfjsonpath.New(attr)))
		}
		ParallelTest(t, resource.TestCase{
			TerraformVersionChecks: IdentityVersions,
			Steps: []resource.TestStep{
				{Config: cfg, ConfigStateChecks: checks},
				{Config: adopted, ResourceName: typ + ".test", ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
			},
		})
	})
}

// expectCount checks how many objects like the configuration the server holds.
func expectCount(srv *Server, c KitCase, want int) error {
	var n int
	srv.Do(func(r *refserver.Realm) { n = c.Count(r) })
	if n != want {
		return fmt.Errorf("the server holds %d objects like the configuration, want %d", n, want)
	}
	return nil
}
