package provider

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TestJournaledTypesHaveIDs: the journal recognises an object by the first
// of the keys a state holds, its id (an allowed domain has none: its domain is
// all there is to it); every journaled type has one and an identity to import
// it by.
func TestJournaledTypesHaveIDs(t *testing.T) {
	for _, e := range registry {
		if !e.Journaled {
			continue
		}
		var sch resource.SchemaResponse
		e.NewResource().Schema(context.Background(), resource.SchemaRequest{}, &sch)
		if _, hasID := sch.Schema.Attributes["id"]; !hasID && e.TypeName != "zulip_allowed_domain" || e.Identity == nil {
			t.Errorf("%s is journaled but has no id attribute or no identity", e.TypeName)
		}
	}
	if len(journaledTypes) == 0 {
		t.Error("no type is journaled")
	}
}

// TestEveryAreaRunsItsContract: each area's test package declares its
// acctest.Contract and runs it (TestContract checks the contract itself, the
// acceptance tests run it), so no area's types escape the contract.
func TestEveryAreaRunsItsContract(t *testing.T) {
	dirs, err := filepath.Glob("*/register.go")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != len(areas) {
		t.Errorf("%d directories have a register.go, but the provider has %d areas", len(dirs), len(areas))
	}
	want := []string{"TestContract", "TestAccContract", "TestAccContract_versioned"}
	for _, reg := range dirs {
		dir := filepath.Dir(reg)
		found := map[string]bool{}
		files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
					found[fn.Name.Name] = true
				}
			}
		}
		for _, name := range want {
			if !found[name] {
				t.Errorf("the %s area has no %s (see acctest.Contract)", dir, name)
			}
		}
	}
}

// TestEveryTypeIsConfigured: each type of every kind takes the provider's
// data (its kit base's Configure), so no type reaches the server without a
// client; the types' files need not assert it one by one.
func TestEveryTypeIsConfigured(t *testing.T) {
	for _, e := range registry {
		if _, ok := e.NewResource().(resource.ResourceWithConfigure); !ok {
			t.Errorf("%s has no Configure", e.TypeName)
		}
	}
	for _, f := range dataSources {
		if _, ok := f().(datasource.DataSourceWithConfigure); !ok {
			t.Errorf("data source %T has no Configure", f())
		}
	}
	for _, f := range ephemeralResources {
		if _, ok := f().(ephemeral.EphemeralResourceWithConfigure); !ok {
			t.Errorf("ephemeral resource %T has no Configure", f())
		}
	}
	for _, f := range actions {
		if _, ok := f().(action.ActionWithConfigure); !ok {
			t.Errorf("action %T has no Configure", f())
		}
	}
	p := &zulipProvider{}
	for _, f := range p.ListResources(context.Background()) {
		if _, ok := f().(list.ListResourceWithConfigure); !ok {
			t.Errorf("list resource %T has no Configure", f())
		}
	}
}
