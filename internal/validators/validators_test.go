package validators

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestCheckPattern(t *testing.T) {
	tests := []struct {
		pattern string
		groups  string
		err     string
	}{
		{`#(?P<id>[0-9]+)`, "id", ""},
		{`(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>\d+)`, "id,org,repo", ""},
		{`  #(?P<id>[0-9]+)  `, "id", ""},
		{`(?P<id>\d+)(\d)`, "id", ""},
		{`foo(?=bar)`, "", "Bad regular expression: invalid or unsupported Perl syntax: `(?=`"},
		{`(?<!x)y`, "", "Bad regular expression"},
		{`(a)\1`, "", "Bad regular expression: invalid escape sequence: `\\1`"},
		{`[`, "", "Bad regular expression: missing closing ]"},
	}
	for _, tt := range tests {
		groups, err := CheckPattern(tt.pattern)
		if tt.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
				t.Errorf("CheckPattern(%q) error = %v, want prefix %q", tt.pattern, err, tt.err)
			}
			continue
		}
		if err != nil || strings.Join(groups, ",") != tt.groups {
			t.Errorf("CheckPattern(%q) = %v, %v; want %s", tt.pattern, groups, err, tt.groups)
		}
	}
}

func TestCheckGroupsMatchTemplate(t *testing.T) {
	tests := []struct{ pattern, template, err string }{
		{`#(?P<id>[0-9]+)`, "https://example.com/{id}", ""},
		{`#(?P<id>[0-9]+)`, "https://example.com/{?id}", ""},
		{`(?P<a>x)(?P<b>y)`, "https://example.com/{a}/{b}/{a}", ""},
		{`#(?P<id>[0-9]+)`, "https://example.com/{ticket}", "Group 'ticket' in URL template is not present in linkifier pattern."},
		{`(?P<zeta>x)(?P<alpha>y)`, "https://example.com/{zeta}", "Group 'alpha' in linkifier pattern is not present in URL template."},
		{`(?P<b>x)`, "https://example.com/{a}", "Group 'a' in URL template is not present in linkifier pattern."},
		{`#(?P<id>[0-9]+)`, "https://example.com/{id", "Invalid URL template."},
		{`#(?P<id>[0-9]+)`, "https://example.com/{i d}", "Invalid URL template."},
	}
	for _, tt := range tests {
		err := CheckGroupsMatchTemplate(tt.pattern, tt.template)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("CheckGroupsMatchTemplate(%q, %q) = %q, want %q", tt.pattern, tt.template, got, tt.err)
		}
	}
}

func TestCheckReverseTemplate(t *testing.T) {
	tests := []struct{ pattern, input, reverse, err string }{
		{`#(?P<id>[0-9]+)`, "#1234", "#{id}", ""},
		{`(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>\d+)`, "zulip/zulip#12", "{org}/{repo}#{id}", ""},
		{`\{(?P<id>[0-9]+)\}`, "{42}", "{{{id}}}", ""},
		// RealmFilter.clean() (zerver/models/linkifiers.py), in its order and words.
		{`#(?P<id>[0-9]+)`, "#1234", "PR{id}",
			`Example text does not match auto-conversion field. (The reverse template produces "PR1234", not the example input "#1234".)`},
		{`#(?P<id>[0-9]+)`, "abc", "#{id}", "Example input does not match the linkifier pattern."},
		{`#(?P<id>[0-9]+)`, "abc", "", "Example input does not match the linkifier pattern."},
		{`#(?P<id>[0-9]+)`, "#1", "#{nope}{x}", "Group 'nope' in auto-conversion field is not present in linkifier pattern."},
		{`#(?P<id>[0-9]+)`, "#1", "#{it's}", `Group "it's" in auto-conversion field is not present in linkifier pattern.`},
		{`#(?P<id>[0-9]+)`, "#1", "#{id", "Invalid auto-conversion field: missing '}' character."},
		{`#(?P<id>[0-9]+)`, "#1", "#{}", "Invalid auto-conversion field: empty field name."},
		{`#(?P<id>[0-9]+)`, "", "#{id}", "Example text is required when auto-conversion field is set."},
		{`#(?P<id>[0-9]+)`, "  ", "#{id}", "Example text is required when auto-conversion field is set."},
		// pattern.search: the pattern may match anywhere in the example...
		{`#(?P<id>[0-9]+)`, "see #12 please", "", ""},
		// ...but the reverse template must reproduce all of it.
		{`#(?P<id>[0-9]+)`, "see #12", "#{id}",
			`Example text does not match auto-conversion field. (The reverse template produces "#12", not the example input "see #12".)`},
		// Values are stripped; blank ones are absent.
		{`#(?P<id>[0-9]+)`, "  #12\n", " #{id} ", ""},
		{`#(?P<id>[0-9]+)`, "   ", "  ", ""},
		{`#(?P<id>[0-9]+)`, "  ", "", ""},
		// A lone "}" is copied as it is.
		{`#(?P<id>[0-9]+)}`, "#1}", "#{id}}", ""},
		{`#(?P<id>[0-9]+)x}`, "#1x}", "#{id}x}", ""},
	}
	for _, tt := range tests {
		err := CheckReverseTemplate(tt.pattern, tt.input, tt.reverse)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("CheckReverseTemplate(%q, %q, %q) = %q, want %q", tt.pattern, tt.input, tt.reverse, got, tt.err)
		}
	}
}

func TestCheckDomain(t *testing.T) {
	tests := []struct{ domain, err string }{
		{"example.com", ""},
		{"a-b.example.co.uk", ""},
		{"", "Invalid domain: Domain can't be empty."},
		{"localhost", "Invalid domain: Domain must have at least one dot (.)"},
		{strings.Repeat("a", 60) + "." + strings.Repeat("b", 60) + "." + strings.Repeat("c", 60) + "." + strings.Repeat("d", 60) + "." + strings.Repeat("e", 20) + ".com", "Invalid domain: Domain is too long"},
		{".example.com", "Invalid domain: Domain cannot start or end with a dot (.)"},
		{"example.com.", "Invalid domain: Domain cannot start or end with a dot (.)"},
		{"example..com", "Invalid domain: Consecutive '.' are not allowed."},
		{"-example.com", "Invalid domain: Subdomains cannot start or end with a '-'."},
		{"exa_mple.com", "Invalid domain: Domain can only have letters, numbers, '.' and '-'s."},
		{"Example.com", `must be written in lower case ("example.com"): Zulip stores domains in lower case`},
		{" example.com", "must not have leading or trailing whitespace"},
	}
	for _, tt := range tests {
		err := CheckDomain(tt.domain)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("CheckDomain(%q) = %q, want %q", tt.domain, got, tt.err)
		}
	}
}

func TestFormats(t *testing.T) {
	cases := []struct {
		name  string
		check func(string) error
		good  []string
		bad   []string
	}{
		{"email", CheckEmail, []string{"a@example.com", "a.b+c@x.org"}, []string{"", "a", "Alice <a@example.com>", "a@"}},
		{"e164", CheckE164, []string{"+46700000000", "+12"}, []string{"46700000000", "+0123", "+1234567890123456", "+46 70"}},
		{"url", CheckHTTPURL, []string{"https://example.com/hook", "http://127.0.0.1:8080/x"}, []string{"example.com", "ftp://x.org", "https://", ""}},
		{"date", CheckDate, []string{"1990-04-01", "2024-02-29"}, []string{"1990-4-1", "2023-02-29", "01/04/1990", ""}},
	}
	for _, c := range cases {
		for _, g := range c.good {
			if err := c.check(g); err != nil {
				t.Errorf("%s(%q) = %v, want ok", c.name, g, err)
			}
		}
		for _, b := range c.bad {
			if err := c.check(b); err == nil {
				t.Errorf("%s(%q) = ok, want an error", c.name, b)
			}
		}
	}
}

func TestStringValidatorNamesAttribute(t *testing.T) {
	v := Domain()
	req := validator.StringRequest{Path: path.Root("domain"), ConfigValue: types.StringValue("Example.com")}
	resp := &validator.StringResponse{}
	v.ValidateString(context.Background(), req, resp)
	if !resp.Diagnostics.HasError() {
		t.Fatal("want an error")
	}
	if d := resp.Diagnostics[0].Detail(); !strings.Contains(d, "domain") || !strings.Contains(d, "lower case") {
		t.Errorf("detail %q does not name the attribute and the reason", d)
	}
	for _, val := range []types.String{types.StringNull(), types.StringUnknown()} {
		resp := &validator.StringResponse{}
		v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("domain"), ConfigValue: val}, resp)
		if resp.Diagnostics.HasError() {
			t.Errorf("null/unknown must not be validated: %v", resp.Diagnostics)
		}
	}
}

func TestTitledValidator(t *testing.T) {
	v := Titled("Invalid Widget", "a widget", func(s string) error {
		if s == "bad" {
			return errors.New("The widget \"bad\" is refused.")
		}
		return nil
	})
	resp := &validator.StringResponse{}
	v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("w"), ConfigValue: types.StringValue("bad")}, resp)
	if !resp.Diagnostics.HasError() || resp.Diagnostics[0].Summary() != "Invalid Widget" ||
		resp.Diagnostics[0].Detail() != "The widget \"bad\" is refused." {
		t.Fatalf("diagnostics = %v", resp.Diagnostics)
	}
	resp = &validator.StringResponse{}
	v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("w"), ConfigValue: types.StringValue("good")}, resp)
	if resp.Diagnostics.HasError() {
		t.Errorf("a good value was refused: %v", resp.Diagnostics)
	}
}
