package provider

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAreasImportOnlyTheKit holds the provider's layout (DESIGN.md,
// "Packages"): an area package (internal/provider/<area>) may import the kit
// but neither another area nor the provider package, and the kit imports no
// package of the provider. What two areas share belongs in the kit. Tests
// count too: an area's tests (an external test package) may import the
// provider (to serve it) and their own area, nothing else of it.
func TestAreasImportOnlyTheKit(t *testing.T) {
	const module = "github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	areas := 0
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "testdata" {
			continue
		}
		pkg := e.Name()
		if pkg != "kit" {
			areas++
		}
		files, err := filepath.Glob(filepath.Join(pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if path != module && !strings.HasPrefix(path, module+"/") {
					continue
				}
				switch {
				case path == module+"/kit" && pkg != "kit":
				case (path == module || path == module+"/"+pkg) && pkg != "kit" && strings.HasSuffix(file, "_test.go"):
				default:
					t.Errorf("%s imports %s: %s may import only the kit", file, path, pkg)
				}
			}
		}
	}
	if areas < 7 {
		t.Errorf("found %d area packages, want the seven of DESIGN.md", areas)
	}
}
