package acctest

// The kit's shared tests, run on every collection object of an area
// (KitCase): what a killed apply, a lost answer, a failed read-back, a taint
// or a duplicated key leave, and how the next plain apply converges.

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// kitTests are the kit's shared tests, by name.
var kitTests = []struct {
	name string
	run  func(t *testing.T, typ string, c KitCase)
}{
	{"existsAtPlan", kitExistsAtPlan},
	{"createAnswerLost", kitCreateAnswerLost},
	{"createUncertainStranger", kitCreateUncertainStranger},
	{"createReadBackFails", kitCreateReadBackFails},
	{"taintedReapplied", kitTaintedReapplied},
	{"duplicateKey", kitDuplicateKey},
	{"generatedConfig", kitGeneratedConfig},
}

// runKit runs each of the kit's shared tests on each collection object.
func (c Contract) runKit(t *testing.T) {
	for _, test := range kitTests {
		t.Run(test.name, func(t *testing.T) {
			t.Parallel()
			c.forEachKitCase(t, test.run)
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

// kitExistsAtPlan: an object with the configuration's natural key already in
// the organization (what a killed apply leaves behind) fails the plan with an
// import block, instead of failing the apply or duplicating it.
func kitExistsAtPlan(t *testing.T, typ string, c KitCase) {
	srv := NewServer(t)
	srv.Do(c.Twin)
	ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:      srv.ProviderConfig(t, c.User) + c.Config,
			PlanOnly:    true,
			ExpectError: ExpectErr("Already Exists", "import {", "to = "+typ+".<name>", "}"),
		}},
	})
}

// kitCreateAnswerLost: the create is processed but its answer lost. The
// provider adopts the one new object that matches the whole configuration:
// one object on the server, an empty plan.
func kitCreateAnswerLost(t *testing.T, _ string, c KitCase) {
	srv := NewServer(t)
	lost := 0
	proxy := srv.FaultyProviderConfig(t, c.User, func(r *http.Request) Fault {
		if r.Method+" "+r.URL.Path == c.Create && lost == 0 {
			lost++
			return Fault{Status: http.StatusBadGateway, Process: true}
		}
		return Fault{}
	})
	ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: proxy + c.Config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: func(*terraform.State) error {
				if lost != 1 {
					return fmt.Errorf("the create's answer was not lost (%d)", lost)
				}
				return expectCount(srv, c, 1)
			},
		}},
	})
}

// kitCreateUncertainStranger: while the create's outcome is unknown, an
// object with the same natural key but other values appears (made by someone
// else between plan and apply). The provider adopts nothing: the apply fails
// naming it with an import block, and no destroy touches it.
func kitCreateUncertainStranger(t *testing.T, typ string, c KitCase) {
	if c.Stranger == nil {
		t.Skipf("%s: the natural key is every configured value, so an object like it is a twin, not a stranger", typ)
	}
	srv := NewServer(t)
	proxy := srv.FaultyProviderConfig(t, c.User, func(r *http.Request) Fault {
		if r.Method+" "+r.URL.Path == c.Create {
			return Fault{Status: http.StatusGatewayTimeout, Before: func() { srv.Do(c.Stranger) }}
		}
		return Fault{}
	})
	ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:      proxy + c.Config,
			ExpectError: ExpectErr("adopted none", "import {", "to = "+typ+".<name>"),
		}},
		CheckDestroy: func(*terraform.State) error {
			// Nothing like the configuration was made or adopted.
			return expectCount(srv, c, 0)
		},
	})
}

// kitCreateReadBackFails: the object is created but reading it back fails.
// The apply warns instead of failing (a failed create is tainted, and the next
// apply would delete what was just made), keeps the object in state, and the
// next plan is empty: nothing is created twice.
func kitCreateReadBackFails(t *testing.T, _ string, c KitCase) {
	srv := NewServer(t)
	created, failed := false, 0
	proxy := srv.FaultyProviderConfig(t, c.User, func(r *http.Request) Fault {
		switch req := r.Method + " " + r.URL.Path; {
		case req == c.Create:
			created = true
		case req == "GET /api/v1/events":
			// Objects that come from their create's event (saved
			// snippets) are read back when the event queue fails.
			return Fault{Status: http.StatusServiceUnavailable}
		case created && failed == 0 && req == c.List && !c.Made:
			failed++
			return Fault{Status: http.StatusServiceUnavailable}
		}
		return Fault{}
	})
	rec := &DiagRecorder{}
	ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{{
			Config: proxy + c.Config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: func(*terraform.State) error {
				if c.Made {
					// Nothing is read back, so nothing can fail: the object
					// is in state as created, with no warning (that no list
					// follows the create is pinned by
					// TestCollectionCreateAddsToTheCache).
					if rec.Has("Not Finished") == nil {
						return errors.New("the create warned that it was not finished")
					}
					return expectCount(srv, c, 1)
				}
				if failed != 1 {
					return fmt.Errorf("the read-back did not fail (%d)", failed)
				}
				if err := rec.Has(`(?s)^WARNING: .*Created but Not Finished: .*was created \(id .*\), but reading it back failed`); err != nil {
					return err
				}
				return expectCount(srv, c, 1)
			},
		}},
	})
}

// kitTaintedReapplied: a tainted object (a failed create, or `terraform
// taint`) plans and applies as a replacement: the plan of the new half does
// not report the object being replaced as existing, and the apply leaves one
// object and an empty plan. (-replace, which Terraform plans differently, is
// TestReplaceEveryType's, with the real CLI.)
func kitTaintedReapplied(t *testing.T, typ string, c KitCase) {
	srv := NewServer(t)
	cfg := srv.ProviderConfig(t, c.User) + c.Config
	ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				Config: cfg,
				Taint:  []string{typ + ".test"},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(typ+".test", plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error { return expectCount(srv, c, 1) },
			},
		},
	})
}

// kitDuplicateKey: two resources of one configuration with the same natural
// key fail the plan, both when both are new and when one is already in state,
// naming the key; nothing is created.
func kitDuplicateKey(t *testing.T, typ string, c KitCase) {
	if c.NoNaturalKey != "" {
		t.Skipf("%s has no natural key: %s", typ, c.NoNaturalKey)
	}
	srv := NewServer(t)
	cfg := srv.ProviderConfig(t, c.User) + c.Config
	twin := strings.Replace(c.Config, `"test"`, `"twin"`, 1)
	ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: cfg + twin, PlanOnly: true, ExpectError: ExpectErr("Two Resources With One", typ)},
			{Config: cfg, Check: func(*terraform.State) error { return expectCount(srv, c, 1) }},
			{Config: cfg + twin, PlanOnly: true, ExpectError: ExpectErr("Two Resources With One", typ)},
		},
	})
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
