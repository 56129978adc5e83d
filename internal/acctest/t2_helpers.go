package acctest

import (
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
