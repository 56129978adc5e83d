package acctest

// The test contract: every resource type of an area is listed in the area's
// Contract, and its kind (kit.TypeEntry.Contract) and what the type can do
// (an identity, a name that changes in place, import examples) make tests
// required. Each area's test package declares its Contract and runs it with
// three one-line tests:
//
//	func TestContract(t *testing.T)              { contract.Check(t) }
//	func TestAccContract(t *testing.T)           { contract.Run(t) }
//	func TestAccContract_versioned(t *testing.T) { contract.RunVersioned(t) }
//
// Check fails for a type of the area without its entry, a collection object
// without its kit case, a managed object without a half-failure case or the
// reason it needs none, a type renamed in place without its renamed-reference
// case or the reason, an import example without the object it adopts, a
// collection or managed object without its scale case or the reason, and a
// type without a test its kind requires. So a new type cannot land without its
// lifecycle, import, drift, adoption, half-failure, generated-configuration and
// reads-at-scale tests.

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// Contract is an area's test contract: its types, by resource type name, and
// its data sources, by data source type name.
type Contract struct {
	Area        kit.Area
	Types       map[string]TypeContract
	DataSources map[string]DataContract
}

// DataContract is one data source's part of its area's contract: how the
// contract reads many of it (Scale, whose Many(i) is the i-th data block), or
// why a block reads on its own (ScaleExempt: a query of its own, a list Zulip
// gives per object).
type DataContract struct {
	Scale       *ScaleCase
	ScaleExempt string
}

// TypeContract is one resource type's part of its area's contract.
type TypeContract struct {
	// Name is the Go name its tests use: TestAcc<Name>_<suffix>.
	Name string
	// Kit is how the kit's shared tests exercise a collection object.
	Kit *KitCase
	// Half is the create the half-failure test drives, for a managed object
	// whose create takes several requests; HalfExempt says why a managed
	// object has none.
	Half       *HalfCase
	HalfExempt string
	// Renamed is the renamed-reference case of a type whose name Zulip lets
	// change in place and that another resource refers to by that name;
	// RenameExempt says why a type renamed in place has none.
	Renamed      *RenamedCase
	RenameExempt string
	// NotImportable says why a type that has ImportState refuses every
	// import (which spares it the generated-configuration test).
	NotImportable string
	// Import is the object the type's import examples adopt
	// (examples/resources/<type>/import-by-string-id.tf and
	// import-by-identity.tf).
	Import *ImportCase
	// Example is how the contract applies the type's example
	// (examples/resources/<type>/resource.tf); a type without it has a test
	// TestAcc<Name>_example that names the file.
	Example *ExampleCase
	// Scale is how the contract makes many of the type's objects, for the
	// rule that a plan's requests do not grow with them (contract_scale.go);
	// ScaleExempt says why a collection or managed object needs none (one per
	// organization, nothing read at refresh).
	Scale       *ScaleCase
	ScaleExempt string
}

// ExampleCase is how the contract applies a type's example: as User, with
// Vars, after Setup prepares the seeded organization; the plan after the
// apply is empty and Checks hold.
type ExampleCase struct {
	User   int
	Vars   config.Variables
	Setup  func(*refserver.Realm)
	Checks []statecheck.StateCheck
}

// KitCase is how the kit's shared tests exercise one collection object.
type KitCase struct {
	// User is the seeded user the provider acts as.
	User int
	// Config is a resource "<type>" "test" block that creates a new object.
	Config string
	// Create and List are the create request and the list read
	// ("POST /api/v1/...").
	Create, List string
	// ImportID imports the configured object; "" takes the state's id.
	ImportID string
	// Count is how many objects with the configuration's values the server holds.
	Count func(*refserver.Realm) int
	// Twin adds an object with every configured value, as a killed apply
	// leaves behind; Stranger adds one with the natural key but other values,
	// nil when the natural key is every value.
	Twin, Stranger func(*refserver.Realm)
	// Adopted, when set, is the configuration of the object as an import
	// adopts it, where that differs from Config (an emoji is adopted without
	// its source file).
	Adopted string
	// Made says the create's answer and the configuration determine the object
	// as the server lists it (the kit's creation.made): it is added to the
	// cached list and never read back.
	Made bool
	// NoNaturalKey says why the type has no natural key (Zulip lets two
	// objects share every value), which skips the duplicate-key test.
	NoNaturalKey string
}

// HalfCase is a create the half-failure test drives.
type HalfCase struct {
	// User is the seeded user the provider acts as; Config the resource
	// "<type>" "test" block; Create the create request.
	User           int
	Config, Create string
	// Versions are the Terraform versions the configuration needs (a
	// write-only password needs 1.11).
	Versions []tfversion.TerraformVersionCheck
	// SingleRequest says the create is one write, so that there is no second
	// one to half-fail: the test then checks that it is still one.
	SingleRequest bool
}

// RenamedCase is a reference by name to an object of one type, which an
// administrator renames out of band (in the web app).
type RenamedCase struct {
	// Config declares <type>.ref named Name, and a resource (Referrer) that
	// refers to it by name, holding the name at At.
	Config   string
	Name     string
	Referrer string
	At       tfjsonpath.Path
	Want     knownvalue.Check
	// Rename renames the object on the server, as the web app would, and
	// reports whether it found it.
	Rename func(r *refserver.Realm, from, to string) bool
}

// ImportCase is the seeded object a type's import examples adopt.
type ImportCase struct {
	// Config is the object's configuration (the examples hold only the
	// import block); User the seeded user the provider acts as.
	Config string
	User   int
	// Setup prepares the seeded organization (nil: as seeded).
	Setup func(*refserver.Realm)
	// Apart says why the object cannot be adopted in one configuration with
	// the area's other examples (the contract applies them together, each
	// with a setup apart).
	Apart string
}

// Check checks the contract itself: every type of the area has its entry and
// the cases and tests its kind and abilities require.
func (c Contract) Check(t *testing.T) {
	t.Helper()
	tests := readTests(t)
	inArea := map[string]bool{}
	for _, e := range c.Area.Resources {
		inArea[e.TypeName] = true
		tc, ok := c.Types[e.TypeName]
		if !ok {
			t.Errorf("%s has no entry in the area's Contract: give it one, and its tests become required", e.TypeName)
			continue
		}
		for _, problem := range tc.problems(e, tests) {
			t.Errorf("%s: %s", e.TypeName, problem)
		}
	}
	for typ := range c.Types {
		if !inArea[typ] {
			t.Errorf("the Contract lists %s, which is not a resource type of the area", typ)
		}
	}
	c.checkDataSources(t)
}

// checkDataSources fails for a data source of the area without its entry, an
// entry without exactly one of a scale case and the reason it has none, and
// an entry for a data source the area does not have.
func (c Contract) checkDataSources(t *testing.T) {
	t.Helper()
	inArea := map[string]bool{}
	for _, f := range c.Area.DataSources {
		var meta datasource.MetadataResponse
		f().Metadata(context.Background(), datasource.MetadataRequest{ProviderTypeName: "zulip"}, &meta)
		inArea[meta.TypeName] = true
		dc, ok := c.DataSources[meta.TypeName]
		switch {
		case !ok:
			t.Errorf("data source %s has no entry in the area's Contract (DataSources)", meta.TypeName)
		case (dc.Scale == nil) == (dc.ScaleExempt == ""):
			t.Errorf("data source %s needs either a scale case (Scale) or the reason it needs none (ScaleExempt), not both or neither", meta.TypeName)
		}
	}
	for typ := range c.DataSources {
		if !inArea[typ] {
			t.Errorf("the Contract lists data source %s, which is not a data source of the area", typ)
		}
	}
}

// problems are what a type's entry lacks.
func (tc TypeContract) problems(e kit.TypeEntry, tests testFiles) []string {
	r := served()[e.TypeName]
	var meta fwresource.MetadataResponse
	r.Metadata(context.Background(), fwresource.MetadataRequest{ProviderTypeName: "zulip"}, &meta)
	_, importable := e.NewResource().(fwresource.ResourceWithImportState) // the kit's wrapper always has ImportState
	importable = importable && tc.NotImportable == ""
	out := tc.exampleProblems(e, tests)
	var suffixes []string
	switch e.Contract {
	case kit.ContractUnset:
		return []string{"its registry entry names no Contract kind"}
	case kit.CollectionObject:
		suffixes = append(suffixes, "lifecycle", "validation")
		if tc.Kit == nil {
			out = append(out, "a collection object without a kit case (Kit)")
		}
	case kit.ManagedObject:
		suffixes = append(suffixes, "lifecycle", "validation")
		if importable {
			suffixes = append(suffixes, "generatedConfig")
		}
		if (tc.Half == nil) == (tc.HalfExempt == "") {
			out = append(out, "a managed object needs either a half-failure case (Half) or the reason it needs none (HalfExempt), not both or neither")
		}
	}
	if e.Contract != kit.Invocation && (tc.Scale == nil) == (tc.ScaleExempt == "") {
		out = append(out, "it needs either a scale case (Scale) or the reason it needs none (ScaleExempt), not both or neither")
	}
	for _, suffix := range suffixes {
		if name := "TestAcc" + tc.Name + "_" + suffix; !tests.names[name] {
			out = append(out, "no "+name)
		}
	}
	switch renamed := tc.Renamed != nil || tc.RenameExempt != ""; {
	case meta.ResourceBehavior.MutableIdentity && (tc.Renamed == nil) == (tc.RenameExempt == ""):
		out = append(out, "Zulip renames it in place: it needs either a renamed-reference case (Renamed) or the reason it needs none (RenameExempt), not both or neither")
	case !meta.ResourceBehavior.MutableIdentity && renamed:
		out = append(out, "its identity does not change in place, so it has no renamed-reference case")
	}
	return append(out, tc.importProblems(e)...)
}

// exampleProblems: the type's example is applied, by its Example case or by
// a test TestAcc<Name>_example that names it.
func (tc TypeContract) exampleProblems(e kit.TypeEntry, tests testFiles) []string {
	example := resourceExample(e.TypeName)
	switch test := "TestAcc" + tc.Name + "_example"; {
	case tc.Example != nil && !exampleExists(example):
		return []string{"it has an Example case but no " + example}
	case tc.Example != nil:
		return nil
	case !tests.names[test]:
		return []string{"no " + test + " and no Example case"}
	case exampleExists(example) && !strings.Contains(tests.text, example):
		return []string{"no test applies " + example + ": give the type an Example case"}
	}
	return nil
}

// resourceExample is the path of a type's example.
func resourceExample(typ string) string { return "examples/resources/" + typ + "/resource.tf" }

// importProblems: an import example needs the object it adopts, and a type
// with an identity needs an import-by-identity example.
func (tc TypeContract) importProblems(e kit.TypeEntry) []string {
	var out []string
	byID, byIdentity := exampleExists(importExample(e.TypeName, false)), exampleExists(importExample(e.TypeName, true))
	if e.Identity != nil && !byIdentity {
		out = append(out, "it has an identity but no "+importExample(e.TypeName, true))
	}
	if (byID || byIdentity) && tc.Import == nil {
		out = append(out, "it has import examples but no Import case (the object they adopt)")
	}
	if tc.Import != nil && !byID && !byIdentity {
		out = append(out, "it has an Import case but no import example")
	}
	return out
}

// importExample is the path of a type's import-by-string-id or
// import-by-identity example.
func importExample(typ string, identity bool) string {
	name := "import-by-string-id.tf"
	if identity {
		name = "import-by-identity.tf"
	}
	return "examples/resources/" + typ + "/" + name
}

// exampleExists reports whether an example file exists.
func exampleExists(rel string) bool {
	_, err := os.Stat(RepoPath(rel))
	return err == nil
}

// testFiles are the test files of the package a test runs in: the names of
// their test functions, and their text.
type testFiles struct {
	names map[string]bool
	text  string
}

// readTests reads the test files of the package the test runs in.
func readTests(t *testing.T) testFiles {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	out := testFiles{names: map[string]bool{}}
	var text strings.Builder
	fset := token.NewFileSet()
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		text.Write(src)
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				out.names[fn.Name.Name] = true
			}
		}
	}
	out.text = text.String()
	return out
}

// firstFit puts each item in the first group fits takes it in, or in a new
// group of its own: how the contract batches the cases that one test case can
// try together (one user, nothing in common).
func firstFit[T any](items []T, fits func(group []T, item T) bool) [][]T {
	var groups [][]T
	for _, it := range items {
		i := slices.IndexFunc(groups, func(g []T) bool { return fits(g, it) })
		if i < 0 {
			groups = append(groups, nil)
			i = len(groups) - 1
		}
		groups[i] = append(groups[i], it)
	}
	return groups
}

// sortedTypes are the contract's types that have a case picked by has, sorted.
func (c Contract) sortedTypes(has func(TypeContract) bool) []string {
	var out []string
	for typ, tc := range c.Types {
		if has(tc) {
			out = append(out, typ)
		}
	}
	sort.Strings(out)
	return out
}

// Run runs the contract's tests that do not depend on the CLI's version: the
// kit's shared tests on each collection object, the renamed references, and
// the import-block examples.
func (c Contract) Run(t *testing.T) {
	c.runKit(t)
	for _, rule := range contractRules {
		t.Run(rule.name, func(t *testing.T) { t.Parallel(); rule.run(c, t) })
	}
}

// contractRules are Run's tests besides the kit's (kitTests).
var contractRules = []struct {
	name string
	run  func(Contract, *testing.T)
}{
	{"renamedReference", Contract.renamedReferences},
	{"importBlocks", Contract.importBlocks},
	{"declaredRules", Contract.declaredRules},
	{"examples", Contract.examples},
	{"planRequests", Contract.planRequests},
}

// ContractRuleNames are the names of Run's subtests, each a rule of the
// contract: CI skips some of them on some CLIs (GNUmakefile's
// ACC_CONTRACT_RULES must list them all).
func ContractRuleNames() []string {
	var names []string
	for _, test := range kitTests {
		names = append(names, test.name)
	}
	for _, rule := range contractRules {
		names = append(names, rule.name)
	}
	return names
}

// RunVersioned runs the contract's tests whose outcome depends on the CLI's
// version (CI runs them on every version it tests): half-failed creates, and
// import by identity.
func (c Contract) RunVersioned(t *testing.T) {
	t.Run("halfCreateConverges", func(t *testing.T) { t.Parallel(); c.halfCreates(t) })
	t.Run("importByIdentity", func(t *testing.T) { t.Parallel(); c.kitImportByIdentity(t) })
	t.Run("importByIdentityExamples", func(t *testing.T) { t.Parallel(); c.identityExamples(t) })
}

// identityAttributes are the identity attributes of each of the area's
// types that has an identity.
func (c Contract) identityAttributes() map[string][]string {
	ctx := context.Background()
	out := map[string][]string{}
	resources := served()
	for _, e := range c.Area.Resources {
		withIdentity, ok := resources[e.TypeName].(fwresource.ResourceWithIdentity)
		if !ok {
			continue
		}
		var resp fwresource.IdentitySchemaResponse
		withIdentity.IdentitySchema(ctx, fwresource.IdentitySchemaRequest{}, &resp)
		for name := range resp.IdentitySchema.Attributes {
			out[e.TypeName] = append(out[e.TypeName], name)
		}
		sort.Strings(out[e.TypeName])
	}
	return out
}

// SingletonScale is why an organization's (or an account's) singleton has no
// scale case (TypeContract.ScaleExempt).
const SingletonScale = "one per organization or account: there are no more objects to make"

// SingletonHalf is why an organization-wide singleton has no half-failure
// case (TypeContract.HalfExempt).
const SingletonHalf = "a singleton: its create adopts the organization's object, and a failed one, tainted, is " +
	"replaced by forgetting and adopting it again (TestEveryTypeThroughTerraformOperations)"

// served are the provider's resources as it serves them (with the kit's
// rules around each), by type name.
func served() map[string]fwresource.Resource {
	ctx := context.Background()
	out := map[string]fwresource.Resource{}
	for _, f := range provider.New("test")().Resources(ctx) {
		r := f()
		var meta fwresource.MetadataResponse
		r.Metadata(ctx, fwresource.MetadataRequest{ProviderTypeName: "zulip"}, &meta)
		out[meta.TypeName] = r
	}
	return out
}
