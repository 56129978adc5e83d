package acctest

// The contract's tests of import examples and of references to objects
// renamed out of band.

import (
	"context"
	"fmt"
	"regexp"
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
	for _, b := range c.importBatches(t, false) {
		t.Run(b.name(), func(t *testing.T) {
			ParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config: b.config(t),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply:             []plancheck.PlanCheck{ExpectOnlyImports(b.targets()...)},
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
	for _, b := range c.importBatches(t, true) {
		t.Run(b.name(), func(t *testing.T) {
			var checks []statecheck.StateCheck
			for _, ex := range b.examples {
				for _, attr := range identities[ex.typ] {
					checks = append(checks, statecheck.ExpectIdentityValueMatchesState(ex.target, tfjsonpath.New(attr)))
				}
			}
			ParallelTest(t, resource.TestCase{
				TerraformVersionChecks: IdentityVersions,
				Steps: []resource.TestStep{{
					Config:            b.config(t),
					ConfigStateChecks: checks,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply:             []plancheck.PlanCheck{ExpectOnlyImports(b.targets()...)},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				}},
			})
		})
	}
}

// importExampleCase is a type's import example (an import block) with the
// configuration of the object it adopts.
type importExampleCase struct {
	typ, example, target string // target: the import block's to
	ic                   ImportCase
}

// importBatch is import examples that one test case applies together: as
// one user, with no address in common; an example with a setup, or Apart,
// is alone in its batch.
type importBatch struct {
	user     int
	examples []importExampleCase
}

// importBatches are the area's import examples (by identity, or by string
// id) in as few batches as their users and addresses allow.
func (c Contract) importBatches(t *testing.T, identity bool) []importBatch {
	t.Helper()
	var examples []importExampleCase
	for _, typ := range c.sortedTypes(func(tc TypeContract) bool { return tc.Import != nil }) {
		path := importExample(typ, identity)
		if !exampleExists(path) {
			continue
		}
		example := ReadExample(t, path)
		m := regexp.MustCompile(`to\s*=\s*(\S+)`).FindStringSubmatch(example)
		if m == nil {
			t.Fatalf("%s has no import target", path)
		}
		examples = append(examples, importExampleCase{typ: typ, example: example, target: m[1], ic: *c.Types[typ].Import})
	}
	// An example whose setup changes the seeded organization (renames a
	// seeded group, say) runs apart, as another example may adopt what it
	// changed; so does one that says why (Apart).
	groups := firstFit(examples, func(g []importExampleCase, ex importExampleCase) bool {
		b := importBatch{examples: g}
		return g[0].ic.User == ex.ic.User && !ex.apart() && !b.apart() && !sharesAddress(b.configs(), ex.example+ex.ic.Config)
	})
	batches := make([]importBatch, len(groups))
	for i, g := range groups {
		batches[i] = importBatch{user: g[0].ic.User, examples: g}
	}
	return batches
}

// apart reports whether the example runs in a batch of its own.
func (ex importExampleCase) apart() bool { return ex.ic.Setup != nil || ex.ic.Apart != "" }

// apart reports whether the batch holds an example that runs apart.
func (b importBatch) apart() bool { return slices.ContainsFunc(b.examples, importExampleCase.apart) }

func (b importBatch) name() string {
	names := make([]string, len(b.examples))
	for i, ex := range b.examples {
		names[i] = ex.typ
	}
	return strings.Join(names, "+")
}

// configs are the batch's import blocks and configurations.
func (b importBatch) configs() string {
	var s strings.Builder
	for _, ex := range b.examples {
		s.WriteString(ex.example + "\n" + ex.ic.Config + "\n")
	}
	return s.String()
}

// targets are the addresses the batch's examples import to.
func (b importBatch) targets() []string {
	out := make([]string, len(b.examples))
	for i, ex := range b.examples {
		out[i] = ex.target
	}
	return out
}

// config starts the batch's server, prepared by the examples' setup, and is
// the whole configuration on it.
func (b importBatch) config(t *testing.T) string {
	srv := NewServer(t)
	for _, ex := range b.examples {
		if ex.ic.Setup != nil {
			srv.Do(ex.ic.Setup)
		}
	}
	return srv.ProviderConfig(t, b.user) + b.configs()
}

// ExpectOnlyImports checks that a plan imports (each of addrs, or
// something when none is given) and changes nothing else.
func ExpectOnlyImports(addrs ...string) plancheck.PlanCheck { return onlyImports{addrs} }

type onlyImports struct{ addrs []string }

// CheckPlan implements plancheck.PlanCheck.
func (o onlyImports) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	imported := map[string]bool{}
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Change.Importing != nil {
			imported[rc.Address] = true
		}
		if !rc.Change.Actions.NoOp() {
			resp.Error = fmt.Errorf("%s: planned %v, want only an import", rc.Address, rc.Change.Actions)
			return
		}
	}
	if len(imported) == 0 {
		resp.Error = fmt.Errorf("the plan imports nothing")
	}
	for _, addr := range o.addrs {
		if !imported[addr] {
			resp.Error = fmt.Errorf("the plan does not import %s", addr)
		}
	}
}
