package acctest

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// ImportFails imports addr by importID, with config (or the last applied
// one when config is empty), and expects the import to fail with an error
// matching expect (ExpectErr).
func ImportFails(config, addr, importID string, expect *regexp.Regexp) resource.TestStep {
	return resource.TestStep{Config: config, ResourceName: addr, ImportState: true, ImportStateId: importID, ExpectError: expect}
}

// ImportChecked imports addr by importID with config (or the last applied
// one when config is empty) and checks the imported state; persist keeps
// it for the next steps, as an adoption by import would.
func ImportChecked(config, addr, importID string, persist bool, check resource.ImportStateCheckFunc) resource.TestStep {
	return resource.TestStep{Config: config, ResourceName: addr, ImportState: true, ImportStateId: importID,
		ImportStatePersist: persist, ImportStateCheck: check}
}

// PlanFails is a step whose plan of config fails with an error matching
// expect (ExpectErr); nothing is applied.
func PlanFails(config string, expect *regexp.Regexp) resource.TestStep {
	return resource.TestStep{Config: config, PlanOnly: true, ExpectError: expect}
}

// PlanRefuses makes PlanFails steps for configurations after prefix (the
// provider block): each plan fails naming want, in order (ExpectErr).
func PlanRefuses(prefix string) func(hcl string, want ...string) resource.TestStep {
	return func(hcl string, want ...string) resource.TestStep {
		return PlanFails(prefix+hcl, ExpectErr(want...))
	}
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
