package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestExpectedErrorsTolerateWrapping: Terraform wraps a diagnostic's detail
// at whatever space the width leaves, and the width depends on the paths in
// it (the checkout's directory, a test's temporary one), so a pattern with a
// literal space passes in one clone and fails in another. An expected error
// is written with acctest.ExpectErr or acctest.ExpectErrRE, whose spaces
// match any whitespace; this finds the ones written with regexp.MustCompile.
func TestExpectedErrorsTolerateWrapping(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var expr ast.Expr
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && id.Name == "ExpectError" {
					expr = n.Value
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Fails" && len(n.Args) == 1 {
					expr = n.Args[0]
				}
			}
			if pattern, ok := mustCompileLiteral(expr); ok && strings.Contains(pattern, " ") {
				t.Errorf("%s: expected error %q has a literal space, which Terraform may wrap: use acctest.ExpectErr or acctest.ExpectErrRE",
					fset.Position(expr.Pos()), pattern)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// mustCompileLiteral returns the pattern of regexp.MustCompile("literal").
func mustCompileLiteral(expr ast.Expr) (string, bool) {
	call, ok := expr.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "MustCompile" {
		return "", false
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "regexp" {
		return "", false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}
