package acctest

// The plan checks a type declares in its registry entry (kit.TypeEntry.Role
// and Destroy), which the kit runs: each is tried on the type, so that a
// declaration the kit does not honour fails.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// declaredRules runs, for each type that declares a role, a destroy note or
// feature levels: its plan on a server too old is refused naming the level;
// a member's plan of the object is refused naming the role; with the object
// made, a member's plan of its destroy is refused too; and the plan of the
// destroy says what it does.
func (c Contract) declaredRules(t *testing.T) {
	for _, e := range c.Area.Resources {
		if e.Role == nil && e.Destroy == nil && e.Level == 0 && len(e.AttrLevels) == 0 {
			continue
		}
		t.Run(e.TypeName, func(t *testing.T) {
			cfg, user, ok := c.Types[e.TypeName].someConfig()
			if !ok && e.Contract == kit.Invocation {
				t.Skipf("%s is performed once and has no contract case to plan; its own tests try its plan rules", e.TypeName)
			}
			if !ok {
				t.Fatalf("%s declares plan rules but its contract has no configuration to try them with (a Kit, Half or Import case)", e.TypeName)
			}
			srv, rec := NewServer(t), &DiagRecorder{}
			steps := append(levelSteps(t, e, cfg, user), declaredRuleSteps(t, srv, rec, e, cfg, user)...)
			ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: rec.Factories(), Steps: steps})
		})
	}
}

// levelSteps plan the object on a server one feature level older than the
// type needs, which refuses it naming the level; and, for each attribute
// with a level of its own that the configuration sets, on a server one level
// older than that.
func levelSteps(t *testing.T, e kit.TypeEntry, cfg string, user int) []resource.TestStep {
	var steps []resource.TestStep
	refused := func(level int, phrases ...string) {
		old := NewServer(t, func(o *refserver.Options) { o.FeatureLevel = level - 1 })
		steps = append(steps, resource.TestStep{Config: old.ProviderConfig(t, user) + cfg, PlanOnly: true,
			ExpectError: ExpectErr(append([]string{"Zulip Server Too Old"}, phrases...)...)})
	}
	if e.Level > 0 {
		refused(e.Level, fmt.Sprintf("%s needs Zulip feature level %d", e.TypeName, e.Level))
	}
	for attr, level := range e.AttrLevels {
		if level > e.Level && strings.Contains(cfg, "\n  "+attr+" ") {
			refused(level, fmt.Sprintf("%s needs Zulip feature level %d", attr, level))
		}
	}
	return steps
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
