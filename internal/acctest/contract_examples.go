package acctest

// The contract's tests of import examples and of references to objects
// renamed out of band.

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// renamedReferences: an object renamed out of band is renamed back, and the
// resource that refers to it by name keeps (or gets back) the configured
// name, in one apply, and the plan after it is empty.
func (c Contract) renamedReferences(t *testing.T) {
	for _, typ := range c.sortedTypes(func(tc TypeContract) bool { return tc.Renamed != nil }) {
		rc := *c.Types[typ].Renamed
		t.Run(typ, func(t *testing.T) { renamedReference(t, typ, rc) })
	}
}

// renamedReference runs one renamed-reference case.
func renamedReference(t *testing.T, typ string, c RenamedCase) {
	srv := NewServer(t)
	config := srv.ProviderConfig(t, refserver.SeedAdminID) + c.Config
	states := []statecheck.StateCheck{statecheck.ExpectKnownValue(c.Referrer, c.At, c.Want)}
	ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: states},
			{
				PreConfig: func() {
					renamed := false
					srv.Do(func(r *refserver.Realm) { renamed = c.Rename(r, c.Name, c.Name+" (renamed)") })
					if !renamed {
						t.Fatalf("no %s named %q to rename", typ, c.Name)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(typ+".ref", plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: states,
				Check: func(*terraform.State) error {
					found := false
					srv.Do(func(r *refserver.Realm) { found = c.Rename(r, c.Name, c.Name) })
					if !found {
						return fmt.Errorf("after the apply the server has no %s named %q", typ, c.Name)
					}
					return nil
				},
			},
		},
	})
}

// examples applies each type's example that its Example case declares: the
// apply succeeds, the plan after it is empty, and the case's checks hold.
func (c Contract) examples(t *testing.T) {
	for _, typ := range c.sortedTypes(func(tc TypeContract) bool { return tc.Example != nil }) {
		ec := *c.Types[typ].Example
		t.Run(typ, func(t *testing.T) {
			srv := NewServer(t)
			if ec.Setup != nil {
				srv.Do(ec.Setup)
			}
			config := srv.ProviderConfig(t, ec.User) + ReadExample(t, resourceExample(typ))
			ParallelTest(t, resource.TestCase{Steps: []resource.TestStep{Apply(config).Vars(ec.Vars).Clean().State(ec.Checks...).Step()}})
		})
	}
}

// importBlocks applies every import-by-string-id example of the area with
// the configuration of the seeded object it adopts: the import plans no
// change beyond the import, and the next plan is empty.
func (c Contract) importBlocks(t *testing.T) {
	for _, typ := range c.sortedTypes(func(tc TypeContract) bool { return tc.Import != nil }) {
		example := importExample(typ, false)
		if !exampleExists(example) {
			continue
		}
		ic := *c.Types[typ].Import
		t.Run(typ, func(t *testing.T) {
			srv := NewServer(t)
			if ic.Setup != nil {
				srv.Do(ic.Setup)
			}
			ParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config: srv.ProviderConfig(t, ic.User) + ReadExample(t, example) + ic.Config,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply:             []plancheck.PlanCheck{ExpectOnlyImports()},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				}},
			})
		})
	}
}

// identityExamples applies every import-by-identity example of the area
// with the configuration of the object it adopts: the import plans nothing
// else, the stored identity holds the state's values, and the next plan is
// empty. (Check makes every type with an identity have one.)
func (c Contract) identityExamples(t *testing.T) {
	identities := c.identityAttributes()
	for _, typ := range c.sortedTypes(func(tc TypeContract) bool { return tc.Import != nil }) {
		path := importExample(typ, true)
		if !exampleExists(path) {
			continue
		}
		ic := *c.Types[typ].Import
		t.Run(typ, func(t *testing.T) {
			example := ReadExample(t, path)
			m := regexp.MustCompile(`to\s*=\s*(\S+)`).FindStringSubmatch(example)
			if m == nil {
				t.Fatalf("%s has no import target", path)
			}
			var checks []statecheck.StateCheck
			for _, attr := range identities[typ] {
				checks = append(checks, statecheck.ExpectIdentityValueMatchesState(m[1], tfjsonpath.New(attr)))
			}
			srv := NewServer(t)
			if ic.Setup != nil {
				srv.Do(ic.Setup)
			}
			ParallelTest(t, resource.TestCase{
				TerraformVersionChecks: IdentityVersions,
				Steps: []resource.TestStep{{
					Config:            srv.ProviderConfig(t, ic.User) + example + ic.Config,
					ConfigStateChecks: checks,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply:             []plancheck.PlanCheck{ExpectOnlyImports()},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				}},
			})
		})
	}
}

// ExpectOnlyImports checks that a plan imports and changes nothing else.
func ExpectOnlyImports() plancheck.PlanCheck { return onlyImports{} }

type onlyImports struct{}

// CheckPlan implements plancheck.PlanCheck.
func (onlyImports) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	imports := 0
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Change.Importing != nil {
			imports++
		}
		if !rc.Change.Actions.NoOp() {
			resp.Error = fmt.Errorf("%s: planned %v, want only an import", rc.Address, rc.Change.Actions)
			return
		}
	}
	if imports == 0 {
		resp.Error = fmt.Errorf("the plan imports nothing")
	}
}
