package acctest

import (
	"testing"

	"regexp"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
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
