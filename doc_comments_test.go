package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docWordsNotGo are words in camel case that comments use that are not Go
// identifiers of this module: OpenAPI's keywords and a platform's name.
var docWordsNotGo = map[string]bool{
	"iOS": true, "allOf": true, "anyOf": true, "oneOf": true, "additionalProperties": true, "operationId": true,
}

// TestDocCommentsNameExistingIdentifiers fails when a comment names, in
// camel case, an identifier that appears nowhere in the module's code: a
// function renamed or removed while the comments that explain it, or refer
// to it, were left behind.
func TestDocCommentsNameExistingIdentifiers(t *testing.T) {
	scan := &docScan{idents: map[string]bool{}}
	err := filepath.WalkDir(".", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if path != "." && (strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		return scan.file(path)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range scan.mentions {
		if !scan.idents[m.word] && !docWordsNotGo[m.word] {
			t.Errorf("%s: the comment names %s, which the module's code does not have", m.at, m.word)
		}
	}
	if len(scan.mentions) < 100 {
		t.Fatalf("only %d camel-case names found in comments: the walk missed the module", len(scan.mentions))
	}
}

var (
	// camelWord is a word in camel case.
	camelWord = regexp.MustCompile(`\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b`)
	// pathGoesOn is what follows a word that is part of a path or file name.
	pathGoesOn = regexp.MustCompile(`^[./-]\w`)
)

// docScan gathers the module's identifiers and the camel-case words its
// comments name.
type docScan struct {
	idents   map[string]bool
	mentions []docMention
}

// docMention is a camel-case word at a comment's position.
type docMention struct{ at, word string }

// file adds the identifiers and the comments' camel-case words of one Go file.
func (s *docScan) file(path string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return err
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			s.idents[id.Name] = true
		}
		return true
	})
	for _, group := range f.Comments {
		for _, c := range group.List {
			for _, m := range camelWord.FindAllStringIndex(c.Text, -1) {
				// A part of a path, address or file name is not a name.
				before, after := c.Text[:m[0]], c.Text[m[1]:]
				if strings.HasSuffix(before, "/") || strings.HasSuffix(before, ".") || strings.HasSuffix(before, "-") ||
					pathGoesOn.MatchString(after) {
					continue
				}
				s.mentions = append(s.mentions, docMention{fset.Position(c.Pos()).String(), c.Text[m[0]:m[1]]})
			}
		}
	}
	return nil
}
