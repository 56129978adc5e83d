package provider_test

import (
	"regexp"
	"strings"
)

// expectErr builds an ExpectError pattern from phrases that must appear in
// order. Terraform wraps diagnostics at any space, so each space in a phrase
// matches any run of whitespace.
func expectErr(phrases ...string) *regexp.Regexp {
	quoted := make([]string, len(phrases))
	for i, p := range phrases {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		quoted[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, `.*`))
}

// expectErrRE is expectErr for a regular expression: each space in pattern
// matches any run of whitespace, and "." also matches line breaks.
func expectErrRE(pattern string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + strings.ReplaceAll(pattern, " ", `\s+`))
}
