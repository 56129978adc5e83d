package acctest

// The plan checks a type declares in its registry entry (kit.TypeEntry.Role
// and Destroy), which the kit runs: each is tried on the type, so that a
// declaration the kit does not honour fails.

import (
	"fmt"
	"regexp"
	"slices"
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
// destroy says what it does. Types whose configurations go together (one
// user, no address in common) run in one test case, the recorder telling
// their diagnostics apart.
func (c Contract) declaredRules(t *testing.T) {
	var cases []ruleCase
	for _, e := range c.Area.Resources {
		if e.Role == nil && e.Destroy == nil && e.Level == 0 && len(e.AttrLevels) == 0 {
			continue
		}
		cfg, user, ok := c.Types[e.TypeName].someConfig()
		if !ok && e.Contract == kit.Invocation {
			t.Logf("%s is performed once and has no contract case to plan; its own tests try its plan rules", e.TypeName)
			continue
		}
		if !ok {
			t.Errorf("%s declares plan rules but its contract has no configuration to try them with (a Kit, Half or Import case)", e.TypeName)
			continue
		}
		cases = append(cases, ruleCase{e, cfg, user})
	}
	for _, g := range firstFit(cases, func(g []ruleCase, rc ruleCase) bool {
		return g[0].user == rc.user && !sharesAddress(ruleBatch{cases: g}.config(nil), rc.cfg)
	}) {
		b := ruleBatch{user: g[0].user, cases: g}
		t.Run(b.name(), func(t *testing.T) {
			srv, rec := NewServer(t), &DiagRecorder{}
			var steps []resource.TestStep
			for _, rc := range b.cases {
				steps = append(steps, levelSteps(t, rc.e, rc.cfg, b.user)...)
			}
			ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: rec.Factories(), Steps: append(steps, b.steps(t, srv, rec)...)})
		})
	}
}

// ruleCase is a type with declared plan rules and a configuration to try
// them with.
type ruleCase struct {
	e    kit.TypeEntry
	cfg  string
	user int // who makes it
}

// ruleBatch is types whose rules one test case tries: made as one user, with
// no resource or data source address in common.
type ruleBatch struct {
	user  int
	cases []ruleCase
}

// blockAddress matches the start of a resource or data source block.
var blockAddress = regexp.MustCompile(`(?m)^(resource|data)\s+"[^"]+"\s+"[^"]+"`)

// sharesAddress reports whether two configurations declare a block with
// one address.
func sharesAddress(a, b string) bool {
	for _, x := range blockAddress.FindAllString(b, -1) {
		if slices.Contains(blockAddress.FindAllString(a, -1), x) {
			return true
		}
	}
	return false
}

func (b ruleBatch) name() string {
	names := make([]string, len(b.cases))
	for i, rc := range b.cases {
		names[i] = rc.e.TypeName
	}
	return strings.Join(names, "+")
}

// config is the configuration of the batch's types that keep (nil: all).
func (b ruleBatch) config(keep func(kit.TypeEntry) bool) string {
	var s strings.Builder
	for _, rc := range b.cases {
		if keep == nil || keep(rc.e) {
			s.WriteString(rc.cfg + "\n")
		}
	}
	return s.String()
}

func hasRole(e kit.TypeEntry) bool { return e.Role != nil }

// steps are the batch's steps after the levels': a member's plan of the
// types with a role is refused; the user's apply of them all; a member's
// plan of their destroy is refused; the user's destroy, whose plan says what
// it does. The recorder's diagnostics of each refusal are checked per type
// before the next step.
func (b ruleBatch) steps(t *testing.T, srv *Server, rec *DiagRecorder) []resource.TestStep {
	as, member := srv.ProviderConfig(t, b.user), srv.ProviderConfig(t, refserver.SeedMemberID)
	roles := b.config(hasRole) != ""
	var steps []resource.TestStep
	if roles {
		steps = append(steps, resource.TestStep{Config: member + b.config(hasRole), PlanOnly: true,
			ExpectError: ExpectErr("Insufficient Role")})
	}
	steps = append(steps, resource.TestStep{Config: as + b.config(nil), PreConfig: func() { b.expectRoleRefused(t, rec) }})
	if roles {
		steps = append(steps, resource.TestStep{Config: member, PlanOnly: true, ExpectError: ExpectErr("Insufficient Role")})
	}
	// The destroy, by the user who may make it.
	destroy := Apply(as)
	for _, rc := range b.cases {
		if rc.e.Destroy != nil {
			destroy.Plan(DiagCheck{Diags: rec, Type: rc.e.TypeName, Pattern: "WARNING: " + rc.e.Destroy.Title + ": "})
		}
	}
	step := destroy.Step()
	step.PreConfig = func() { b.expectRoleRefused(t, rec) }
	return append(steps, step)
}

// expectRoleRefused checks that the plan before was refused, for each type
// of the batch with a role, naming the role; and forgets the diagnostics.
func (b ruleBatch) expectRoleRefused(t *testing.T, rec *DiagRecorder) {
	t.Helper()
	for _, rc := range b.cases {
		if rc.e.Role != nil {
			if err := rec.HasFor(rc.e.TypeName, ExpectErr("Insufficient Role", "Changing "+rc.e.Role.Of).String()); err != nil {
				t.Error(err)
			}
		}
	}
	rec.Reset()
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
