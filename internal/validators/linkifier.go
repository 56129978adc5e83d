package validators

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/yosida95/uritemplate/v3"
)

// CheckPattern compiles a linkifier pattern the way Zulip does: with RE2
// semantics (Go's regexp is RE2), so look-arounds and backreferences fail.
// It returns the sorted names of the pattern's named groups.
func CheckPattern(pattern string) ([]string, error) {
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

// CheckReverseTemplate checks that reverse_template, filled with the groups that
// pattern extracts from exampleInput, reproduces exampleInput exactly.
// In a reverse template "{name}" is a group and "{{" / "}}" are literal braces.
func CheckReverseTemplate(pattern, exampleInput, reverseTemplate string) error {
	re, err := regexp.Compile(strings.TrimSpace(pattern))
	if err != nil {
		return fmt.Errorf("Bad regular expression: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	m := re.FindStringSubmatchIndex(exampleInput)
	if m == nil {
		return fmt.Errorf("example input %q does not match the pattern", exampleInput)
	}
	values := map[string]string{}
	for i, name := range re.SubexpNames() {
		if name != "" && m[2*i] >= 0 {
			values[name] = exampleInput[m[2*i]:m[2*i+1]]
		}
	}
	out, err := expandReverse(reverseTemplate, values)
	if err != nil {
		return err
	}
	if out != exampleInput {
		return fmt.Errorf("reverse template produces %q, not the example input %q", out, exampleInput)
	}
	return nil
}

// expandReverse substitutes {name} placeholders; {{ and }} are literal braces.
func expandReverse(tmpl string, values map[string]string) (string, error) {
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
			end := strings.IndexByte(tmpl[i:], '}')
			if end < 0 {
				return "", errors.New("reverse template has an unclosed '{'")
			}
			name := tmpl[i+1 : i+end]
			v, ok := values[name]
			if !ok {
				return "", fmt.Errorf("group '%s' in reverse template is not present in linkifier pattern", name)
			}
			b.WriteString(v)
			i += end + 1
		case tmpl[i] == '}':
			return "", errors.New("reverse template has an unmatched '}' (write '}}' for a literal brace)")
		default:
			b.WriteByte(tmpl[i])
			i++
		}
	}
	return b.String(), nil
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
