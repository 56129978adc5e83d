package validators

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/yosida95/uritemplate/v3"
)

// checked is a check's answer, kept for the process: a plan checks each
// linkifier's pattern and templates several times (the attribute validators,
// the resource's own checks, validation and plan), and compiling a regular
// expression or a template is the expensive part.
type checked struct {
	names []string
	err   error
}

// patterns and templates are the answers of CheckPattern and CheckURLTemplate.
var patterns, templates sync.Map

// memo answers check(s) once per s; each caller gets its own copy of names.
func memo(cache *sync.Map, s string, check func(string) ([]string, error)) ([]string, error) {
	v, ok := cache.Load(s)
	if !ok {
		names, err := check(s)
		v, _ = cache.LoadOrStore(s, checked{names, err})
	}
	c, _ := v.(checked)
	return slices.Clone(c.names), c.err
}

// CheckPattern compiles a linkifier pattern the way Zulip does: with RE2
// semantics (Go's regexp is RE2), so look-arounds and backreferences fail.
// It returns the sorted names of the pattern's named groups.
func CheckPattern(pattern string) ([]string, error) {
	return memo(&patterns, pattern, checkPattern)
}

func checkPattern(pattern string) ([]string, error) {
	if strings.TrimSpace(pattern) == "" {
		// Zulip's RealmFilter.pattern is a required field: Django's full_clean
		// refuses it with this message.
		return nil, errors.New("This field cannot be blank.")
	}
	re, err := regexp.Compile(strings.TrimSpace(pattern))
	if err != nil {
		return nil, fmt.Errorf("Bad regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	var names []string
	seen := map[string]bool{}
	for _, n := range re.SubexpNames() {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names, nil
}

// CheckURLTemplate parses an RFC 6570 URL template and returns its sorted,
// distinct variable names.
func CheckURLTemplate(template string) ([]string, error) {
	return memo(&templates, template, checkURLTemplate)
}

func checkURLTemplate(template string) ([]string, error) {
	t, err := uritemplate.New(strings.TrimSpace(template))
	if err != nil {
		return nil, errors.New("Invalid URL template.")
	}
	names := append([]string(nil), t.Varnames()...)
	sort.Strings(names)
	return dedupe(names), nil
}

// CheckGroupsMatchTemplate applies Zulip's rule that the URL template's
// variables and the pattern's named groups are the same set, reporting the
// alphabetically first offender in the server's words.
func CheckGroupsMatchTemplate(pattern, template string) error {
	groups, err := CheckPattern(pattern)
	if err != nil {
		return err
	}
	vars, err := CheckURLTemplate(template)
	if err != nil {
		return err
	}
	// As the server does: template variables missing from the pattern first,
	// then groups missing from the template; the alphabetically first of each.
	inGroups := setOf(groups)
	for _, v := range vars {
		if !inGroups[v] {
			return fmt.Errorf("Group '%s' in URL template is not present in linkifier pattern.", v)
		}
	}
	inVars := setOf(vars)
	for _, g := range groups {
		if !inVars[g] {
			return fmt.Errorf("Group '%s' in linkifier pattern is not present in URL template.", g)
		}
	}
	return nil
}

// CheckAlternativeTemplate checks an alternative URL template: valid RFC 6570
// whose variables are all named groups of the pattern.
func CheckAlternativeTemplate(pattern, template string) error {
	groups, err := CheckPattern(pattern)
	if err != nil {
		return err
	}
	vars, err := CheckURLTemplate(template)
	if err != nil {
		return err
	}
	inGroups := setOf(groups)
	for _, v := range vars {
		if !inGroups[v] {
			return fmt.Errorf("Group '%s' in alternative URL template is not present in linkifier pattern.", v)
		}
	}
	return nil
}

// Linkifier messages of RealmFilter.clean() (zerver/models/linkifiers.py).
const (
	msgExampleNoMatch  = "Example input does not match the linkifier pattern."
	msgReverseMismatch = "Example text does not match auto-conversion field."
	msgReverseNoBrace  = "Invalid auto-conversion field: missing '}' character."
	msgReverseNoName   = "Invalid auto-conversion field: empty field name."
	// msgReverseNeedsExample stands for Zulip's MissingDependentParameterError
	// (required "Example text", set "auto-conversion field"), whose exact
	// wording is not in the sources this project follows.
	msgReverseNeedsExample = "Example text is required when auto-conversion field is set."
)

// CheckReverseTemplate applies the example_input / reverse_template part of
// Zulip's RealmFilter.clean() (zerver/models/linkifiers.py): both values are
// stripped and "" counts as absent (normalize_optional_text); a reverse
// template needs an example; the pattern must occur somewhere in the example
// (pattern.search); and the reverse template, filled with the groups of that
// match, must reproduce the whole example. In a reverse template "{name}" is
// a group and "{{" / "}}" are literal braces. As clean() raises at its first
// problem, only that one is reported, in Zulip's words.
func CheckReverseTemplate(pattern, exampleInput, reverseTemplate string) error {
	re, err := regexp.Compile(strings.TrimSpace(pattern))
	if err != nil {
		return fmt.Errorf("Bad regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	example, reverse := strings.TrimSpace(exampleInput), strings.TrimSpace(reverseTemplate)
	if reverse != "" && example == "" {
		return errors.New(msgReverseNeedsExample)
	}
	if example == "" {
		return nil
	}
	m := re.FindStringSubmatchIndex(example)
	if m == nil {
		return errors.New(msgExampleNoMatch)
	}
	if reverse == "" {
		return nil
	}
	groups := map[string]bool{}
	values := map[string]string{}
	for i, name := range re.SubexpNames() {
		if name == "" {
			continue
		}
		groups[name] = true
		if m[2*i] >= 0 {
			values[name] = example[m[2*i]:m[2*i+1]]
		}
	}
	out, err := expandReverse(reverse, values, groups)
	if err != nil {
		return err
	}
	if out != example {
		return fmt.Errorf("%s (The reverse template produces %q, not the example input %q.)", msgReverseMismatch, out, example)
	}
	return nil
}

// expandReverse is Zulip's expand_reverse_template: "{{" and "}}" are literal
// braces, "{name}" is a group's value, and any other character (a lone "}"
// included) is copied; it stops at the first problem.
func expandReverse(tmpl string, values map[string]string, groups map[string]bool) (string, error) {
	var b strings.Builder
	for i := 0; i < len(tmpl); {
		switch {
		case strings.HasPrefix(tmpl[i:], "{{"):
			b.WriteByte('{')
			i += 2
		case strings.HasPrefix(tmpl[i:], "}}"):
			b.WriteByte('}')
			i += 2
		case tmpl[i] == '{':
			end := strings.IndexByte(tmpl[i+1:], '}')
			if end < 0 {
				return "", errors.New(msgReverseNoBrace)
			}
			name := tmpl[i+1 : i+1+end]
			if name == "" {
				return "", errors.New(msgReverseNoName)
			}
			if !groups[name] {
				return "", fmt.Errorf("Group %s in auto-conversion field is not present in linkifier pattern.", pyRepr(name))
			}
			b.WriteString(values[name])
			i += end + 2
		default:
			b.WriteByte(tmpl[i])
			i++
		}
	}
	return b.String(), nil
}

// pyRepr quotes a name as Python's repr() does in Zulip's %(name)r messages:
// single quotes, or double quotes when the name holds a single quote only.
func pyRepr(s string) string {
	q := "'"
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = `"`
	}
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, q, `\`+q)
	return q + s + q
}

// RE2Pattern validates a linkifier pattern.
func RE2Pattern() validator.String {
	return String("must be a regular expression in RE2 syntax (no look-arounds or backreferences)",
		func(s string) error { _, err := CheckPattern(s); return err })
}

// URLTemplate validates an RFC 6570 URL template.
func URLTemplate() validator.String {
	return String("must be a valid RFC 6570 URL template",
		func(s string) error { _, err := CheckURLTemplate(s); return err })
}

func setOf(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}
