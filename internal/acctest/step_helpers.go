package acctest

// Steps and cases that tests write often: refused plans and imports, checked
// imports, data-source examples, renamed references, generated
// configuration, ephemeral resources and actions.

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// PlanFails is a step that only plans config and expects the plan to fail
// with an error that says phrases in order (ExpectErr).
func PlanFails(config string, phrases ...string) resource.TestStep {
	return PlanFailsWith(config, ExpectErr(phrases...))
}

// PlanFailsRE is PlanFails for an error matching pattern (ExpectErrRE).
func PlanFailsRE(config, pattern string) resource.TestStep {
	return PlanFailsWith(config, ExpectErrRE(pattern))
}

// PlanFailsWith is PlanFails for an error matching expect.
func PlanFailsWith(config string, expect *regexp.Regexp) resource.TestStep {
	return resource.TestStep{Config: config, PlanOnly: true, ExpectError: expect}
}

// ServerChecks is one check of the reference server made of several, each
// run in turn until one fails.
func ServerChecks(checks ...func() error) func() error {
	return func() error {
		for _, check := range checks {
			if err := check(); err != nil {
				return err
			}
		}
		return nil
	}
}

// ImportFails is a step that imports addr by id (with config, when given)
// and expects the import to fail with an error matching expect.
func ImportFails(config, addr, id string, expect *regexp.Regexp) resource.TestStep {
	return resource.TestStep{Config: config, ResourceName: addr, ImportState: true, ImportStateId: id, ExpectError: expect}
}

// ImportKept is a step that imports addr by id with config and keeps the
// imported state for the steps after it.
func ImportKept(config, addr, id string) resource.TestStep {
	return resource.TestStep{Config: config, ResourceName: addr, ImportState: true, ImportStateId: id, ImportStatePersist: true}
}

// PlanFailsAs is PlanFails for configurations that follow provider (a
// provider block): a test's table of refused configurations.
func PlanFailsAs(provider string) func(config string, phrases ...string) resource.TestStep {
	return func(config string, phrases ...string) resource.TestStep {
		return PlanFails(provider+config, phrases...)
	}
}

// EphemeralCase is a test case of steps that use ephemeral resources, which
// the echo provider can copy into the state.
func EphemeralCase(steps ...resource.TestStep) resource.TestCase {
	return resource.TestCase{TerraformVersionChecks: EphemeralVersions, ProtoV6ProviderFactories: EphemeralFactories, Steps: steps}
}

// ActionCase is a test case of steps that invoke actions.
func ActionCase(steps ...resource.TestStep) resource.TestCase {
	return resource.TestCase{TerraformVersionChecks: ActionVersions, Steps: steps}
}

// TriggeredAction is an action of type typ named "test", with body in its
// config block, that runs when a terraform_data "trigger" is created.
func TriggeredAction(typ, body string) string {
	return `
action "` + typ + `" "test" {
  config {
` + body + `
  }
}

resource "terraform_data" "trigger" {
  input = "x"
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.` + typ + `.test]
    }
  }
}
`
}

// ParallelSteps runs steps as a test case of nothing else (ParallelTest).
func ParallelSteps(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	ParallelTest(t, resource.TestCase{Steps: steps})
}

// ImportChecked imports addr by importID with config (or the last applied
// one when config is empty) and checks the imported state; persist keeps
// it for the next steps, as an adoption by import would.
func ImportChecked(config, addr, importID string, persist bool, check resource.ImportStateCheckFunc) resource.TestStep {
	return resource.TestStep{Config: config, ResourceName: addr, ImportState: true, ImportStateId: importID,
		ImportStatePersist: persist, ImportStateCheck: check}
}

// PlanWarns is a step whose plan of config, which has changes, returns a
// diagnostic matching pattern, recorded by diags; nothing is applied.
func PlanWarns(config string, diags *DiagRecorder, pattern string) resource.TestStep {
	return resource.TestStep{Config: config, PlanOnly: true, ExpectNonEmptyPlan: true,
		Check: func(*terraform.State) error { return diags.Has(pattern) }}
}

// ReadsExample applies the data-source example at path (relative to the
// repository) as user on a new reference server, and checks the state.
func ReadsExample(t *testing.T, user int, path string, checks ...statecheck.StateCheck) {
	t.Helper()
	srv := NewServer(t)
	ParallelTest(t, resource.TestCase{Steps: []resource.TestStep{Apply(srv.ProviderConfig(t, user) + ReadExample(t, path)).State(checks...).Step()}})
}

// RenameIn is a RenamedCase's Rename for objects kept in a map of the
// realm (objects picks it): it renames the one whose name (name points at
// it) is from, and says whether there was one.
func RenameIn[V any](objects func(*refserver.Realm) map[int]*V, name func(*V) *string) func(r *refserver.Realm, from, to string) bool {
	return func(r *refserver.Realm, from, to string) bool {
		for _, o := range objects(r) {
			if n := name(o); *n == from {
				*n = to
				return true
			}
		}
		return false
	}
}

// GeneratedConfigTest runs GeneratedConfigSteps for addr, imported by
// importID as user, on a new reference server that setup (when not nil)
// prepares first.
func GeneratedConfigTest(t *testing.T, user int, setup func(*refserver.Realm), addr, importID string) {
	t.Helper()
	srv := NewServer(t)
	if setup != nil {
		srv.Do(setup)
	}
	ParallelTest(t, resource.TestCase{Steps: GeneratedConfigSteps(srv.ProviderConfig(t, user), "", addr, importID)})
}
