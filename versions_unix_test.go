//go:build unix

package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
)

// TestShortRunCoversVersionedTests keeps CI's split honest. CI runs the whole
// acceptance suite on the README's Terraform only; on the other CLIs it runs
// ACC_VERSIONED_RUN (GNUmakefile), the tests whose outcome depends on the CLI's
// version, with one lifecycle per type (ACC_LIFECYCLE_RUN) or the test contract
// beside them. A test depends on the version when it, or a function it calls,
// holds a Terraform version check (tfversion, or a variable holding some) or
// asks the CLI its version (terraformVersion); each such test must match
// ACC_VERSIONED_RUN. A check that only skips a test below a version the
// README's Terraform has (a floor: SkipBelow 1.11 or older) does not: such a
// test behaves alike on every CLI at or above its floor, and runs on the
// README's Terraform; but of each floor at least one test must match
// ACC_VERSIONED_RUN, so that each CLI still drives what the floor is for
// (write-only arguments, ephemeral resources, removed blocks...). Every
// resource type must have a _lifecycle test (an invocation resource a
// _performsOnce one), and each name ACC_VERSIONED_RUN lists must still exist.
func TestShortRunCoversVersionedTests(t *testing.T) {
	versionedRun := makeVariable(t, "ACC_VERSIONED_RUN")
	checkLifecycleRun(t)
	// The acceptance tests live in the provider's package and its areas'; the
	// shared tests they call (the areas' contracts) in internal/acctest.
	funcs, uses := versionedFuncs(t, "internal/provider/*_test.go", "internal/provider/*/*_test.go", "internal/acctest/*.go")
	var tests []string
	for name := range funcs {
		if strings.HasPrefix(name, "TestAcc") {
			tests = append(tests, name)
		}
	}
	sort.Strings(tests)
	checkVersionedRun(t, versionedRun, tests, uses)
	for _, alt := range topLevelAlternatives(versionedRun.String()) {
		found := false
		re := regexp.MustCompile(alt)
		for _, name := range tests {
			found = found || re.MatchString(name)
		}
		if !found {
			t.Errorf("ACC_VERSIONED_RUN's %q matches no acceptance test", alt)
		}
	}
	checkEveryTypeHasLifecycle(t, tests)
}

// checkVersionedRun: the run holds every test that depends on the CLI's
// version, and a test of each floor.
func checkVersionedRun(t *testing.T, versionedRun *regexp.Regexp, tests []string, uses map[string]versionUse) {
	t.Helper()
	var list, floorOnly []string
	floors := map[int][]string{} // a floor's tests; floorsRun: those of them in the run
	floorsRun := map[int]bool{}
	for _, name := range tests {
		use := uses[name]
		if use.other {
			list = append(list, name)
			if !versionedRun.MatchString(name) {
				t.Errorf("%s depends on the CLI's version but ACC_VERSIONED_RUN in GNUmakefile does not run it: add it", name)
			}
		} else if len(use.floors) > 0 {
			floorOnly = append(floorOnly, name)
		}
		for minor := range use.floors {
			floors[minor] = append(floors[minor], name)
			floorsRun[minor] = floorsRun[minor] || versionedRun.MatchString(name)
		}
	}
	t.Logf("%d acceptance tests depend on the CLI's version: %s", len(list), strings.Join(list, " "))
	t.Logf("%d need only a CLI as new as the README's Terraform (1.%d) and run on it: %s", len(floorOnly), readmeTerraformMinor, strings.Join(floorOnly, " "))
	for minor, names := range floors {
		if !floorsRun[minor] {
			t.Errorf("no test that needs Terraform 1.%d runs on the other CLIs (ACC_VERSIONED_RUN): add one of %s", minor, strings.Join(names, " "))
		}
	}
}

// checkEveryTypeHasLifecycle: each resource type (an example's directory) has
// a lifecycle test, which ACC_LIFECYCLE_RUN runs.
func checkEveryTypeHasLifecycle(t *testing.T, tests []string) {
	t.Helper()
	resources, err := filepath.Glob("examples/resources/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range resources {
		typ := strings.TrimPrefix(filepath.Base(dir), "zulip_")
		camel := ""
		for _, part := range strings.Split(typ, "_") {
			camel += strings.ToUpper(part[:1]) + part[1:]
		}
		if typ == "realm" { // its tests are named after what it manages
			camel = "RealmSettings"
		}
		found := false
		for _, name := range tests {
			if strings.EqualFold(name, "TestAcc"+camel+"_lifecycle") || strings.EqualFold(name, "TestAcc"+camel+"_performsOnce") {
				found = true
			}
		}
		if !found {
			t.Errorf("zulip_%s has no TestAcc%s_lifecycle (or _performsOnce), which ACC_LIFECYCLE_RUN runs for each type", typ, camel)
		}
	}
}

// topLevelAlternatives splits a regular expression at the | that are
// outside parentheses.
func topLevelAlternatives(re string) []string {
	var alts []string
	depth, start := 0, 0
	for i, r := range re {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				alts = append(alts, re[start:i])
				start = i + 1
			}
		}
	}
	return append(alts, re[start:])
}

// checkLifecycleRun: ACC_LIFECYCLE_RUN runs the types' lifecycle tests, an
// invocation resource's _performsOnce among them.
func checkLifecycleRun(t *testing.T) {
	t.Helper()
	lifecycle := makeVariable(t, "ACC_LIFECYCLE_RUN")
	for _, name := range []string{"TestAccChannel_lifecycle", "TestAccMessagePost_performsOnce"} {
		if !lifecycle.MatchString(name) {
			t.Errorf("ACC_LIFECYCLE_RUN %q does not run %s", lifecycle, name)
		}
	}
}

// TestContractRulesListed: GNUmakefile's ACC_CONTRACT_RULES, from which
// ACC_CONTRACT_ONLY picks the rules a run keeps (skipping the others), lists
// every rule of the test contract, so that a run skips no new rule by
// omission and names no rule that is gone.
func TestContractRulesListed(t *testing.T) {
	listed := strings.Fields(makeLine(t, "ACC_CONTRACT_RULES"))
	rules := acctest.ContractRuleNames()
	sort.Strings(listed)
	sort.Strings(rules)
	if !slices.Equal(listed, rules) {
		t.Errorf("GNUmakefile's ACC_CONTRACT_RULES is %v; the contract's rules (acctest.ContractRuleNames) are %v", listed, rules)
	}
}

// makeVariable reads a test-name pattern (name := pattern) from GNUmakefile.
func makeVariable(t *testing.T, name string) *regexp.Regexp {
	t.Helper()
	return regexp.MustCompile(strings.ReplaceAll(makeLine(t, name), "$$", "$"))
}

// makeLine reads the value of a simple variable (name := value) from GNUmakefile.
func makeLine(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("GNUmakefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^` + name + ` := (.+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("GNUmakefile has no %s := line", name)
	}
	return string(m[1])
}

// versionedFuncs parses the files matching globs and returns their functions
// and methods, by name, and what each asks of the CLI's version, directly or
// through the functions and variables it refers to.
func versionedFuncs(t *testing.T, globs ...string) (map[string]*ast.FuncDecl, map[string]versionUse) {
	t.Helper()
	funcs, varUses := funcsAndVersionVars(parseGlobs(t, globs...))
	refs := map[string]map[string]bool{}
	uses := map[string]versionUse{}
	for name, fn := range funcs {
		refs[name] = identsIn(fn.Body)
		use := tfVersionUse(fn.Body)
		for v, vu := range varUses {
			if refs[name][v] {
				use.add(vu)
			}
		}
		uses[name] = use
	}
	for changed := true; changed; {
		changed = false
		for name := range funcs {
			use := uses[name]
			for ref := range refs[name] {
				if ref != name && use.add(uses[ref]) {
					changed = true
				}
			}
			uses[name] = use
		}
	}
	return funcs, uses
}

// readmeTerraformMinor is the minor version of Terraform 1 that runs the
// README's suite in CI (.ci/run refuses an older one).
const readmeTerraformMinor = 11

// versionUse is what code asks of the CLI's version. other: a check that
// can change its outcome on CLIs the README's Terraform is not (a newer
// feature, or the CLI's version asked); floors: the minor versions N of its
// tfversion.SkipBelow(tfversion.Version1_N_0) checks with N at most
// readmeTerraformMinor, which only skip it on CLIs older than the README's.
type versionUse struct {
	other  bool
	floors map[int]bool
}

// add adds v's checks to u's and reports whether u changed.
func (u *versionUse) add(v versionUse) bool {
	changed := v.other && !u.other
	u.other = u.other || v.other
	for minor := range v.floors {
		if !u.floors[minor] {
			if u.floors == nil {
				u.floors = map[int]bool{}
			}
			u.floors[minor], changed = true, true
		}
	}
	return changed
}

// funcsAndVersionVars are the files' functions and methods, by name, and
// what their package-level variables ask of the CLI's version.
func funcsAndVersionVars(parsed []*ast.File) (map[string]*ast.FuncDecl, map[string]versionUse) {
	versionVars := map[string]versionUse{"terraformVersion": {other: true}}
	funcs := map[string]*ast.FuncDecl{}
	for _, file := range parsed {
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					if vs, ok := spec.(*ast.ValueSpec); ok {
						if use := tfVersionUse(vs); use.other || len(use.floors) > 0 {
							for _, name := range vs.Names {
								versionVars[name.Name] = use
							}
						}
					}
				}
			case *ast.FuncDecl:
				funcs[d.Name.Name] = d
			}
		}
	}
	return funcs, versionVars
}

// tfVersionUse is what n asks of the CLI's version through the package
// tfversion (naming its type TerraformVersionCheck asks nothing).
func tfVersionUse(n ast.Node) versionUse {
	var use versionUse
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && tfversionName(call.Fun) == "SkipBelow" && len(call.Args) == 1 {
			var major, minor, patch int
			if _, err := fmt.Sscanf(tfversionName(call.Args[0]), "Version%d_%d_%d", &major, &minor, &patch); err == nil &&
				major == 1 && minor <= readmeTerraformMinor {
				use.add(versionUse{floors: map[int]bool{minor: true}})
				return false
			}
		}
		if name := tfversionName(n); name != "" && name != "TerraformVersionCheck" {
			use.other = true
		}
		return true
	})
	return use
}

// tfversionName is the name n selects from the package tfversion, or "".
func tfversionName(n ast.Node) string {
	if sel, ok := n.(*ast.SelectorExpr); ok {
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == "tfversion" {
			return sel.Sel.Name
		}
	}
	return ""
}

// parseGlobs parses the Go files matching globs.
func parseGlobs(t *testing.T, globs ...string) []*ast.File {
	t.Helper()
	fset := token.NewFileSet()
	var files []string
	for _, glob := range globs {
		matches, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	var parsed []*ast.File
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, file)
	}
	return parsed
}

// identsIn are the names of the identifiers in n.
func identsIn(n ast.Node) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			names[id.Name] = true
		}
		return true
	})
	return names
}
