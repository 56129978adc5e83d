package acctest

// The plan checks a type declares in its registry entry (kit.TypeEntry.Role
// and Destroy), which the kit runs: each is tried on the type, so that a
// declaration the kit does not honour fails.

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// declaredRules runs, for each type that declares a role or a destroy note:
// a member's plan of the object is refused naming the role; with the object
// made, a member's plan of its destroy is refused too; and the plan of the
// destroy says what it does.
func (c Contract) declaredRules(t *testing.T) {
	for _, e := range c.Area.Resources {
		if e.Role == nil && e.Destroy == nil {
			continue
		}
		t.Run(e.TypeName, func(t *testing.T) {
			cfg, user, ok := c.Types[e.TypeName].someConfig()
			if !ok {
				t.Fatalf("%s declares plan rules but its contract has no configuration to try them with (a Kit, Half or Import case)", e.TypeName)
			}
			srv, rec := NewServer(t), &DiagRecorder{}
			ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: rec.Factories(), Steps: declaredRuleSteps(t, srv, rec, e, cfg, user)})
		})
	}
}

// declaredRuleSteps are the steps of declaredRules for one type.
func declaredRuleSteps(t *testing.T, srv *Server, rec *DiagRecorder, e kit.TypeEntry, cfg string, user int) []resource.TestStep {
	as, member := srv.ProviderConfig(t, user), srv.ProviderConfig(t, refserver.SeedMemberID)
	var steps []resource.TestStep
	if e.Role != nil {
		steps = append(steps, resource.TestStep{Config: member + cfg, PlanOnly: true,
			ExpectError: ExpectErr("Insufficient Role", "Changing "+e.Role.Of)})
	}
	steps = append(steps, resource.TestStep{Config: as + cfg})
	if e.Role != nil {
		steps = append(steps, resource.TestStep{Config: member, PlanOnly: true,
			ExpectError: ExpectErr("Insufficient Role", "Changing "+e.Role.Of)})
	}
	// The destroy, by the user who may make it.
	destroy := Apply(as)
	if e.Destroy != nil {
		destroy.Plan(DiagCheck{Diags: rec, Pattern: "WARNING: " + e.Destroy.Title + ": "})
	}
	return append(steps, destroy.Step())
}

// someConfig is a configuration that makes an object of the type, and the
// seeded user to make it as: the kit case's, the half-failure case's, or
// the import case's when it needs no setup.
func (tc TypeContract) someConfig() (string, int, bool) {
	switch {
	case tc.Kit != nil:
		return tc.Kit.Config, tc.Kit.User, true
	case tc.Half != nil:
		return tc.Half.Config, tc.Half.User, true
	case tc.Import != nil && tc.Import.Setup == nil:
		return tc.Import.Config, tc.Import.User, true
	}
	return "", 0, false
}
