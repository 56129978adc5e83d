package acctest

// Step builders: the steps every resource's tests take (apply and plan
// nothing more, import and verify, a change behind Terraform's back, the
// refresh cost of many objects), so that a test says what it checks and not
// how the framework spells it.
//
//	acctest.Apply(cfg).Planned(addr, plancheck.ResourceActionUpdate).Clean().
//		State(acctest.Value(addr, "name", knownvalue.StringExact("ops"))).Step()

import (
	"github.com/hashicorp/terraform-plugin-testing/config"
	"regexp"
	"slices"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// StepBuilder builds one test step that applies a configuration.
type StepBuilder struct{ step resource.TestStep }

// Apply is a step that applies config.
func Apply(config string) *StepBuilder {
	return &StepBuilder{step: resource.TestStep{Config: config}}
}

// Planned expects the plan to take action on addr.
func (b *StepBuilder) Planned(addr string, action plancheck.ResourceActionType) *StepBuilder {
	b.step.ConfigPlanChecks.PreApply = append(b.step.ConfigPlanChecks.PreApply, plancheck.ExpectResourceAction(addr, action))
	return b
}

// Clean expects the plan after the apply (and its refresh) to be empty.
func (b *StepBuilder) Clean() *StepBuilder {
	b.step.ConfigPlanChecks.PostApplyPostRefresh = append(b.step.ConfigPlanChecks.PostApplyPostRefresh, plancheck.ExpectEmptyPlan())
	return b
}

// Vars gives the configuration's variables.
func (b *StepBuilder) Vars(vars config.Variables) *StepBuilder {
	b.step.ConfigVariables = vars
	return b
}

// State adds checks of the state after the apply.
func (b *StepBuilder) State(checks ...statecheck.StateCheck) *StepBuilder {
	b.step.ConfigStateChecks = append(b.step.ConfigStateChecks, checks...)
	return b
}

// OutOfBand changes the reference server before the step plans, as an
// administrator in the web app would.
func (b *StepBuilder) OutOfBand(srv *Server, change func(*refserver.Realm)) *StepBuilder {
	b.step.PreConfig = func() { srv.Do(change) }
	return b
}

// OnServer checks the reference server after the apply (after the checks given
// before it).
func (b *StepBuilder) OnServer(check func() error) *StepBuilder {
	prev := b.step.Check
	b.step.Check = func(s *terraform.State) error {
		if prev != nil {
			if err := prev(s); err != nil {
				return err
			}
		}
		return check()
	}
	return b
}

// Fails expects the step to fail with an error matching expect (ExpectErr).
func (b *StepBuilder) Fails(expect *regexp.Regexp) *StepBuilder {
	b.step.ExpectError = expect
	return b
}

// Before runs f before the step plans (a change made some other way than
// through the server's state).
func (b *StepBuilder) Before(f func()) *StepBuilder {
	b.step.PreConfig = f
	return b
}

// Plan adds checks of the plan before it is applied.
func (b *StepBuilder) Plan(checks ...plancheck.PlanCheck) *StepBuilder {
	b.step.ConfigPlanChecks.PreApply = append(b.step.ConfigPlanChecks.PreApply, checks...)
	return b
}

// Step is the built step.
func (b *StepBuilder) Step() resource.TestStep { return b.step }

// Value checks one attribute of addr in the state.
func Value(addr, attr string, want knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), want)
}

// ImportVerify imports addr (by the state's id, or importID when given) and
// verifies that the imported state equals the applied one, except ignore.
func ImportVerify(addr, importID string, ignore ...string) resource.TestStep {
	return resource.TestStep{ResourceName: addr, ImportState: true, ImportStateVerify: true,
		ImportStateId: importID, ImportStateVerifyIgnore: ignore}
}

// ImportVerifyBy is ImportVerify for a type without an id attribute: attr
// identifies the object in the state.
func ImportVerifyBy(addr, importID, attr string, ignore ...string) resource.TestStep {
	step := ImportVerify(addr, importID, ignore...)
	step.ImportStateVerifyIdentifierAttribute = attr
	return step
}

// ConstantRefreshCost applies config, which makes n objects, and plans it
// again: the plan is empty and sends at most most requests of method and
// path, however large n is (one read per collection per run).
func ConstantRefreshCost(srv *Server, config string, n int, method, path string, most int) []resource.TestStep {
	return []resource.TestStep{
		{Config: config},
		{
			PreConfig: srv.ResetRequests,
			Config:    config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectEmptyPlan(),
				RequestCountAtMost{Server: srv, Method: method, Path: path, Max: most, Resources: n},
			}},
		},
	}
}

// PermissionsLeftOut are the attribute prefixes of the permissions of perms
// that a configuration does not set: its applied state holds them null, an
// import reads them all, so ImportVerify ignores them.
func PermissionsLeftOut(perms []realmspec.GroupPermission, set ...string) []string {
	var out []string
	for _, p := range perms {
		if !slices.Contains(set, p.Name) {
			out = append(out, p.Name+".")
		}
	}
	return out
}
