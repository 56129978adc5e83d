//go:build unix

package main

import (
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
// acceptance suite on the local Terraform only; on the other CLIs it runs
// ACC_VERSIONED_RUN (GNUmakefile), the tests whose outcome depends on the CLI's
// version, with one lifecycle per type (ACC_LIFECYCLE_RUN) or the test contract
// beside them. A test depends on the version when it, or a function it calls,
// holds a Terraform version check (tfversion, or a variable holding some) or
// asks the CLI its version (terraformVersion); each such test must match
// ACC_VERSIONED_RUN, every resource type must have a _lifecycle test (an
// invocation resource a _performsOnce one), and each name ACC_VERSIONED_RUN
// lists must still exist.
func TestShortRunCoversVersionedTests(t *testing.T) {
	versionedRun := makeVariable(t, "ACC_VERSIONED_RUN")
	checkLifecycleRun(t)
	// The acceptance tests live in the provider's package and its areas'; the
	// shared tests they call (the areas' contracts) in internal/acctest.
	funcs, versioned := versionedFuncs(t, "internal/provider/*_test.go", "internal/provider/*/*_test.go", "internal/acctest/*.go")
	var tests []string
	for name := range funcs {
		if strings.HasPrefix(name, "TestAcc") {
			tests = append(tests, name)
		}
	}
	sort.Strings(tests)
	var list []string
	for _, name := range tests {
		if versioned[name] {
			list = append(list, name)
		}
	}
	t.Logf("%d acceptance tests depend on the CLI's version: %s", len(list), strings.Join(list, " "))
	for _, name := range tests {
		if versioned[name] && !versionedRun.MatchString(name) {
			t.Errorf("%s depends on the CLI's version but ACC_VERSIONED_RUN in GNUmakefile does not run it: add it", name)
		}
	}
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
// and methods, by name, and which of them depend on the CLI's version,
// directly or through the functions they call.
func versionedFuncs(t *testing.T, globs ...string) (map[string]*ast.FuncDecl, map[string]bool) {
	t.Helper()
	funcs, versionVars := funcsAndVersionVars(parseGlobs(t, globs...))
	refs := map[string]map[string]bool{}
	versioned := map[string]bool{}
	for name, fn := range funcs {
		refs[name] = identsIn(fn.Body)
		if usesTFVersion(fn.Body) {
			versioned[name] = true
		}
		for v := range versionVars {
			if refs[name][v] {
				versioned[name] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for name := range funcs {
			if versioned[name] {
				continue
			}
			for ref := range refs[name] {
				if versioned[ref] {
					versioned[name], changed = true, true
					break
				}
			}
		}
	}
	return funcs, versioned
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

// funcsAndVersionVars are the files' functions and methods, by name, and
// their package-level variables that hold version checks.
func funcsAndVersionVars(parsed []*ast.File) (map[string]*ast.FuncDecl, map[string]bool) {
	versionVars := map[string]bool{"terraformVersion": true}
	funcs := map[string]*ast.FuncDecl{}
	for _, file := range parsed {
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					if vs, ok := spec.(*ast.ValueSpec); ok && usesTFVersion(vs) {
						for _, name := range vs.Names {
							versionVars[name.Name] = true
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

// usesTFVersion reports whether n refers to the package tfversion.
func usesTFVersion(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "tfversion" {
				found = true
			}
		}
		return !found
	})
	return found
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
