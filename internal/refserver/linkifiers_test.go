package refserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

// cfgNow is the fixed clock of the configuration-area tests.
var cfgNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// cfgRoles is the permission matrix's callers: one seeded account per role.
var cfgRoles = []struct {
	name string
	id   int
}{
	{"owner", SeedOwnerID}, {"administrator", SeedAdminID}, {"moderator", SeedModeratorID},
	{"member", SeedMemberID}, {"guest", SeedGuestID}, {"bot", SeedBotID},
}

// cfgServer starts a reference server with a fixed clock and the given feature
// level (0 = the default) behind an httptest server.
func cfgServer(t *testing.T, featureLevel int) (*Server, *httptest.Server) {
	t.Helper()
	srv, err := New(Options{FeatureLevel: featureLevel, Clock: func() time.Time { return cfgNow }})
	if err != nil {
		t.Fatal(err)
	}
	// The seeded bots' keys ("build-botapikey…") contain '-', which the core's
	// authentication rejects as malformed; give them well-formed keys here so
	// that the bot column of the permission matrix tests the endpoints.
	srv.Do(func(r *Realm) {
		for _, u := range r.Users {
			if strings.Contains(u.APIKey, "-") {
				u.APIKey = strings.ReplaceAll(u.APIKey, "-", "0")
			}
		}
	})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return srv, ts
}

// cfgDo sends an API request as a seeded user (form-encoded body, or the query
// string for GET) and returns the status and the decoded JSON body.
func cfgDo(t *testing.T, srv *Server, ts *httptest.Server, userID int, method, path string, form url.Values) (int, map[string]any) {
	t.Helper()
	status, _, raw := cfgDoRaw(t, srv, ts, userID, method, path, form)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s %s: body is not JSON: %v", method, path, err)
	}
	return status, out
}

// cfgDoRaw is cfgDo without decoding: the status, Content-Type and body.
func cfgDoRaw(t *testing.T, srv *Server, ts *httptest.Server, userID int, method, path string, form url.Values) (int, string, []byte) {
	t.Helper()
	u, ok := srv.User(userID)
	if !ok {
		t.Fatalf("no user %d", userID)
	}
	target := ts.URL + "/api/v1" + path
	var body *strings.Reader
	if method == http.MethodGet {
		if len(form) > 0 {
			target += "?" + form.Encode()
		}
		body = strings.NewReader("")
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if method != http.MethodGet {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.SetBasicAuth(u.Email, u.APIKey)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := resp.Body.Close(); err != nil {
			t.Errorf("%s %s: closing the body: %v", method, path, err)
		}
	}()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, path, err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), raw
}

// cfgWantNoRoute fails unless the request gets Django's HTML 404 page, as a
// path that matches no route of Zulip's URL patterns does.
func cfgWantNoRoute(t *testing.T, srv *Server, ts *httptest.Server, userID int, method, path string, form url.Values) {
	t.Helper()
	status, ctype, raw := cfgDoRaw(t, srv, ts, userID, method, path, form)
	if status != http.StatusNotFound || !strings.HasPrefix(ctype, "text/html") {
		t.Fatalf("%s %s: want the HTML 404 page, got %d %s %.80q", method, path, status, ctype, raw)
	}
}

// cfgForm builds url.Values from alternating keys and values.
func cfgForm(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// cfgWantOK fails unless the answer is a success.
func cfgWantOK(t *testing.T, status int, body map[string]any) {
	t.Helper()
	if status != http.StatusOK || body["result"] != "success" || body["msg"] != "" {
		t.Fatalf("want success, got %d %v", status, body)
	}
}

// cfgWantError fails unless the answer is the given error.
func cfgWantError(t *testing.T, status int, body map[string]any, wantStatus int, wantCode, wantMsg string) {
	t.Helper()
	if status != wantStatus || body["result"] != "error" || body["code"] != wantCode || body["msg"] != wantMsg {
		t.Fatalf("want %d %s %q, got %d %v", wantStatus, wantCode, wantMsg, status, body)
	}
}

// cfgWant405 fails unless the answer is Zulip's json_method_not_allowed
// (zerver/lib/response.py): 405, "Method Not Allowed", the allowed methods,
// and no error code.
func cfgWant405(t *testing.T, status int, body map[string]any, allowed string) {
	t.Helper()
	_, hasCode := body["code"]
	if status != http.StatusMethodNotAllowed || body["result"] != "error" || body["msg"] != "Method Not Allowed" || hasCode ||
		cfgJSON(body["allowed_methods"]) != allowed {
		t.Fatalf("want 405 allowing %s, got %d %v", allowed, status, body)
	}
}

// cfgJSON re-encodes a decoded value, for compact comparisons.
func cfgJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

func TestLinkifiersList(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	want := `[{"alternative_url_templates":[],"example_input":null,"id":1,"pattern":"#(?P<id>[0-9]+)","reverse_template":null,"url_template":"https://github.com/zulip/zulip/issues/{id}"}]`
	for _, role := range cfgRoles {
		t.Run(role.name, func(t *testing.T) {
			status, body := cfgDo(t, srv, ts, role.id, "GET", "/realm/linkifiers", nil)
			cfgWantOK(t, status, body)
			if got := cfgJSON(body["linkifiers"]); got != want {
				t.Fatalf("linkifiers = %s, want %s", got, want)
			}
			if _, ok := body["ignored_parameters_unsupported"]; ok {
				t.Fatalf("unexpected ignored parameters: %v", body)
			}
		})
	}
	// list_linkifiers is not a typed_endpoint: it never reports ignored parameters.
	status, body := cfgDo(t, srv, ts, SeedMemberID, "GET", "/realm/linkifiers", cfgForm("bogus", "1"))
	cfgWantOK(t, status, body)
	if got, ok := body["ignored_parameters_unsupported"]; ok {
		t.Fatalf("ignored_parameters_unsupported = %v", got)
	}
}

func TestLinkifiersPermissions(t *testing.T) {
	for _, role := range cfgRoles {
		t.Run(role.name, func(t *testing.T) {
			srv, ts := cfgServer(t, 0)
			requests := []struct {
				method, path string
				form         url.Values
			}{
				{"POST", "/realm/filters", cfgForm("pattern", "JIRA-(?P<id>[0-9]+)", "url_template", "https://jira.example.com/{id}")},
				{"PATCH", "/realm/filters/1", cfgForm("pattern", "#(?P<id>[0-9]+)", "url_template", "https://example.com/{id}")},
				{"PATCH", "/realm/linkifiers", cfgForm("ordered_linkifier_ids", "[2,1]")},
				{"DELETE", "/realm/filters/1", nil},
			}
			for _, req := range requests {
				status, body := cfgDo(t, srv, ts, role.id, req.method, req.path, req.form)
				if role.id == SeedOwnerID || role.id == SeedAdminID {
					cfgWantOK(t, status, body)
				} else {
					cfgWantError(t, status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
				}
			}
		})
	}
}

func TestLinkifierCreate(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/filters", cfgForm(
		"pattern", "  JIRA-(?P<id>[0-9]+)\n", "url_template", " https://jira.example.com/browse/{id} ",
		"example_input", "JIRA-42", "reverse_template", "JIRA-{id}",
		"alternative_url_templates", `["https://jira.example.com/issues/{id}"]`))
	cfgWantOK(t, status, body)
	if body["id"] != float64(2) {
		t.Fatalf("id = %v", body["id"])
	}
	status, body = cfgDo(t, srv, ts, SeedGuestID, "GET", "/realm/linkifiers", nil)
	cfgWantOK(t, status, body)
	want := `[{"alternative_url_templates":[],"example_input":null,"id":1,"pattern":"#(?P<id>[0-9]+)","reverse_template":null,"url_template":"https://github.com/zulip/zulip/issues/{id}"},` +
		`{"alternative_url_templates":["https://jira.example.com/issues/{id}"],"example_input":"JIRA-42","id":2,"pattern":"JIRA-(?P<id>[0-9]+)","reverse_template":"JIRA-{id}","url_template":"https://jira.example.com/browse/{id}"}]`
	if got := cfgJSON(body["linkifiers"]); got != want {
		t.Fatalf("linkifiers = %s\nwant %s", got, want)
	}
	// An unknown parameter is reported, not refused.
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/filters", cfgForm(
		"pattern", "T(?P<n>[0-9]+)", "url_template", "https://t.example.com/{n}", "url_format_string", "x"))
	cfgWantOK(t, status, body)
	if got := cfgJSON(body["ignored_parameters_unsupported"]); got != `["url_format_string"]` {
		t.Fatalf("ignored_parameters_unsupported = %s", got)
	}
	// example_input and reverse_template are stripped; the pattern only has
	// to occur in the example (pattern.search in RealmFilter.clean()).
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/filters", cfgForm(
		"pattern", "PR(?P<id>[0-9]+)", "url_template", "https://pr.example.com/{id}",
		"example_input", "  PR7  ", "reverse_template", " PR{id}\n"))
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/filters", cfgForm(
		"pattern", "CVE-(?P<id>[0-9-]+)", "url_template", "https://cve.example.com/{id}", "example_input", "fixes CVE-2024-1 today"))
	cfgWantOK(t, status, body)
	// A blank reverse template is no reverse template: no example needed.
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/filters", cfgForm(
		"pattern", "BUG(?P<id>[0-9]+)", "url_template", "https://bug.example.com/{id}", "example_input", " ", "reverse_template", "  "))
	cfgWantOK(t, status, body)
	srv.Do(func(r *Realm) {
		pr, cve, bug := r.Linkifiers[3], r.Linkifiers[4], r.Linkifiers[5]
		if *pr.ExampleInput != "PR7" || *pr.ReverseTemplate != "PR{id}" || *cve.ExampleInput != "fixes CVE-2024-1 today" ||
			bug.ExampleInput != nil || bug.ReverseTemplate != nil {
			t.Fatalf("stored: %q %q %q %v %v", *pr.ExampleInput, *pr.ReverseTemplate, *cve.ExampleInput, bug.ExampleInput, bug.ReverseTemplate)
		}
	})
	// Literal braces in a reverse template.
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/filters", cfgForm(
		"pattern", "\\{(?P<key>[a-z]+)\\}", "url_template", "https://k.example.com/{key}",
		"example_input", "{abc}", "reverse_template", "{{{key}}}"))
	cfgWantOK(t, status, body)
}

// fieldErrors builds an "errors" map from field, messages pairs.
func fieldErrors(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// anyList is a list of strings as JSON decodes it.
func anyList(s ...string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// linkifierTemplate is a valid URL template for the pattern's id group.
const linkifierTemplate = "https://example.com/{id}"

// linkifierValidationCases are linkifiers Zulip refuses, with its error and, where
// Zulip's model validation reports them, the errors by field.
var linkifierValidationCases = []struct {
	name       string
	form       url.Values
	code, msg  string
	wantErrors map[string]any // nil: no errors key expected
}{
	{"missing pattern", cfgForm("url_template", linkifierTemplate), "REQUEST_VARIABLE_MISSING", "Missing 'pattern' argument", nil},
	{"missing url_template", cfgForm("pattern", "x"), "REQUEST_VARIABLE_MISSING", "Missing 'url_template' argument", nil},
	{"blank pattern", cfgForm("pattern", "  ", "url_template", "https://example.com/"), "BAD_REQUEST",
		"This field cannot be blank.", fieldErrors("pattern", anyList("This field cannot be blank."))},
	{"blank url_template", cfgForm("pattern", "abc", "url_template", " "), "BAD_REQUEST",
		"This field cannot be blank.", fieldErrors("url_template", anyList("This field cannot be blank."))},
	// RealmFilter.pattern has no field validator: only clean() compiles
	// it, so a bad pattern is reported under __all__ alone
	// (zerver/models/linkifiers.py).
	{"look-ahead", cfgForm("pattern", "#(?P<id>[0-9]+)(?=x)", "url_template", linkifierTemplate), "BAD_REQUEST",
		"Bad regular expression: invalid or unsupported Perl syntax: `(?=`",
		fieldErrors("__all__", anyList("Bad regular expression: invalid or unsupported Perl syntax: `(?=`"))},
	{"backreference", cfgForm("pattern", "(?P<id>a)\\1", "url_template", linkifierTemplate), "BAD_REQUEST",
		"Bad regular expression: invalid escape sequence: `\\1`",
		fieldErrors("__all__", anyList("Bad regular expression: invalid escape sequence: `\\1`"))},
	{"duplicate group name", cfgForm("pattern", "(?P<id>a)(?P<id>b)", "url_template", linkifierTemplate), "BAD_REQUEST",
		"Bad regular expression: duplicate capture group name: id",
		fieldErrors("__all__", anyList("Bad regular expression: duplicate capture group name: id"))},
	{"bad pattern and bad template", cfgForm("pattern", "(?P<id>a", "url_template", "https://x/{id"), "BAD_REQUEST",
		"Invalid URL template.",
		fieldErrors("url_template", anyList("Invalid URL template."), "__all__", anyList("Bad regular expression: missing closing ): `(?P<id>a`"))},
	{"invalid template", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", "https://example.com/{id"), "BAD_REQUEST",
		"Invalid URL template.", fieldErrors("url_template", anyList("Invalid URL template."))},
	{"python format string", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", "https://example.com/%(id)s"), "BAD_REQUEST",
		"Invalid URL template.", fieldErrors("url_template", anyList("Invalid URL template."))},
	{"variable not in pattern", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", "https://example.com/{zz}/{id}/{b}"), "BAD_REQUEST",
		"Group 'b' in URL template is not present in linkifier pattern.",
		fieldErrors("__all__", anyList("Group 'b' in URL template is not present in linkifier pattern."))},
	{"group not in template", cfgForm("pattern", "(?P<org>[a-z]+)/(?P<id>[0-9]+)", "url_template", "https://example.com/"), "BAD_REQUEST",
		"Group 'id' in linkifier pattern is not present in URL template.",
		fieldErrors("__all__", anyList("Group 'id' in linkifier pattern is not present in URL template."))},
	{"duplicate pattern", cfgForm("pattern", " #(?P<id>[0-9]+) ", "url_template", linkifierTemplate), "BAD_REQUEST",
		"Realm filter with this Realm and Pattern already exists.",
		fieldErrors("__all__", anyList("Realm filter with this Realm and Pattern already exists."))},
	{"duplicate pattern and template mismatch", cfgForm("pattern", "#(?P<id>[0-9]+)", "url_template", "https://example.com/"), "BAD_REQUEST",
		"Group 'id' in linkifier pattern is not present in URL template.",
		fieldErrors("__all__", anyList("Group 'id' in linkifier pattern is not present in URL template.",
			"Realm filter with this Realm and Pattern already exists."))},
	// clean() raises MissingDependentParameterError, a JsonableError that
	// escapes full_clean(): no "errors" map.
	{"reverse without example", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "reverse_template", "T{id}"), "BAD_REQUEST",
		msgLinkifierReverseNeedsEx, nil},
	{"reverse with a blank example", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "example_input", "   ", "reverse_template", "T{id}"), "BAD_REQUEST",
		msgLinkifierReverseNeedsEx, nil},
	// pattern.search: the example must contain a match, not be one.
	{"example does not match", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "example_input", "no ticket"), "BAD_REQUEST",
		msgLinkifierExampleNoMatch, fieldErrors("__all__", anyList(msgLinkifierExampleNoMatch))},
	{"reverse does not reproduce", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "example_input", "T12", "reverse_template", "T-{id}"), "BAD_REQUEST",
		msgLinkifierReverseMismatch, fieldErrors("__all__", anyList(msgLinkifierReverseMismatch))},
	{"reverse reproduces only the match", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "example_input", "see T12", "reverse_template", "T{id}"), "BAD_REQUEST",
		msgLinkifierReverseMismatch, fieldErrors("__all__", anyList(msgLinkifierReverseMismatch))},
	{"reverse unknown group", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "example_input", "T12", "reverse_template", "T{num}{x}"), "BAD_REQUEST",
		"Group 'num' in auto-conversion field is not present in linkifier pattern.",
		fieldErrors("__all__", anyList("Group 'num' in auto-conversion field is not present in linkifier pattern."))},
	{"reverse unknown group with a quote", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "example_input", "T12", "reverse_template", "T{it's}"), "BAD_REQUEST",
		`Group "it's" in auto-conversion field is not present in linkifier pattern.`,
		fieldErrors("__all__", anyList(`Group "it's" in auto-conversion field is not present in linkifier pattern.`))},
	{"reverse malformed", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "example_input", "T12", "reverse_template", "T{id"), "BAD_REQUEST",
		msgLinkifierReverseNoBrace, fieldErrors("__all__", anyList(msgLinkifierReverseNoBrace))},
	{"reverse empty field", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "example_input", "T12", "reverse_template", "T{}"), "BAD_REQUEST",
		msgLinkifierReverseNoName, fieldErrors("__all__", anyList(msgLinkifierReverseNoName))},
	// clean() stops at its first problem: the template mismatch after a
	// failing example is not reported.
	{"first clean error only", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", "https://example.com/", "example_input", "nothing"), "BAD_REQUEST",
		msgLinkifierExampleNoMatch, fieldErrors("__all__", anyList(msgLinkifierExampleNoMatch))},
	{"alternative invalid", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "alternative_url_templates", `["https://x/{id"]`), "BAD_REQUEST",
		"Invalid URL template.", fieldErrors("alternative_url_templates", anyList("Invalid URL template."))},
	{"alternative unknown group", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "alternative_url_templates", `["https://x/{id}/{page}"]`), "BAD_REQUEST",
		"Group 'page' in alternative URL template is not present in linkifier pattern.",
		fieldErrors("alternative_url_templates", anyList("Group 'page' in alternative URL template is not present in linkifier pattern."))},
	{"alternative not JSON", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "alternative_url_templates", `https://x/{id}`), "BAD_REQUEST",
		"alternative_url_templates is not valid JSON", nil},
	{"alternative not a list", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", linkifierTemplate, "alternative_url_templates", `"https://x/{id}"`), "BAD_REQUEST",
		"alternative_url_templates is not a list", nil},
}

func TestLinkifierValidation(t *testing.T) {
	for _, tc := range linkifierValidationCases {
		t.Run(tc.name, func(t *testing.T) {
			srv, ts := cfgServer(t, 0)
			status, body := cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/filters", tc.form)
			cfgWantError(t, status, body, 400, tc.code, tc.msg)
			if tc.wantErrors == nil {
				if _, ok := body["errors"]; ok {
					t.Fatalf("unexpected errors: %v", body["errors"])
				}
			} else if !reflect.DeepEqual(body["errors"], tc.wantErrors) {
				t.Fatalf("errors = %v, want %v", body["errors"], tc.wantErrors)
			}
			// Nothing was created.
			srv.Do(func(r *Realm) {
				if len(r.Linkifiers) != 1 {
					t.Fatalf("linkifiers = %d", len(r.Linkifiers))
				}
			})
		})
	}
}

func TestLinkifierUpdate(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/filters", cfgForm(
		"pattern", "T(?P<id>[0-9]+)", "url_template", "https://t.example.com/{id}",
		"example_input", "T1", "reverse_template", "T{id}", "alternative_url_templates", `["https://t2.example.com/{id}"]`))
	cfgWantOK(t, status, body)

	// Both pattern and url_template are required.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/filters/2", cfgForm("url_template", "https://x/{id}"))
	cfgWantError(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'pattern' argument")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/filters/2", cfgForm("pattern", "T(?P<id>[0-9]+)"))
	cfgWantError(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'url_template' argument")
	// Unknown id.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/filters/99", cfgForm("pattern", "Q(?P<id>[0-9]+)", "url_template", "https://q/{id}"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Linkifier not found.")
	// Keeping its own pattern is not a duplicate; another's is.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/filters/2", cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", "https://new.example.com/{id}"))
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/filters/2", cfgForm("pattern", "#(?P<id>[0-9]+)",
		"url_template", "https://new.example.com/{id}", "example_input", "#1", "reverse_template", "#{id}"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Realm filter with this Realm and Pattern already exists.")
	// Several failures: clean()'s and the uniqueness check's, both under
	// __all__, in that order; msg is the first.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/filters/2", cfgForm("pattern", "#(?P<id>[0-9]+)", "url_template", "https://new.example.com/{id}"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", msgLinkifierExampleNoMatch)
	if got := cfgJSON(body["errors"]); got != `{"__all__":["`+msgLinkifierExampleNoMatch+`","Realm filter with this Realm and Pattern already exists."]}` {
		t.Fatalf("errors = %s", got)
	}
	// A changed pattern must still match the kept example input.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/filters/2", cfgForm("pattern", "U(?P<id>[0-9]+)", "url_template", "https://new.example.com/{id}"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", msgLinkifierExampleNoMatch)

	_, body = cfgDo(t, srv, ts, SeedMemberID, "GET", "/realm/linkifiers", nil)
	got := body["linkifiers"].([]any)[1].(map[string]any)
	if got["url_template"] != "https://new.example.com/{id}" || got["example_input"] != "T1" || got["reverse_template"] != "T{id}" ||
		cfgJSON(got["alternative_url_templates"]) != `["https://t2.example.com/{id}"]` {
		t.Fatalf("after update: %v", got)
	}
	// "" resets example_input and reverse_template to null; [] clears the alternatives.
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "PATCH", "/realm/filters/2", cfgForm("pattern", "U(?P<id>[0-9]+)",
		"url_template", "https://u.example.com/{id}", "example_input", "", "reverse_template", "", "alternative_url_templates", "[]"))
	cfgWantOK(t, status, body)
	_, body = cfgDo(t, srv, ts, SeedMemberID, "GET", "/realm/linkifiers", nil)
	got = body["linkifiers"].([]any)[1].(map[string]any)
	want := `{"alternative_url_templates":[],"example_input":null,"id":2,"pattern":"U(?P<id>[0-9]+)","reverse_template":null,"url_template":"https://u.example.com/{id}"}`
	if cfgJSON(got) != want {
		t.Fatalf("after reset: %s", cfgJSON(got))
	}
}

func TestLinkifierDeleteAndReorder(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	for _, p := range []string{"A(?P<id>[0-9]+)", "B(?P<id>[0-9]+)"} {
		status, body := cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/filters", cfgForm("pattern", p, "url_template", "https://x/{id}"))
		cfgWantOK(t, status, body)
	}
	ids := func() string {
		_, body := cfgDo(t, srv, ts, SeedMemberID, "GET", "/realm/linkifiers", nil)
		var out []string
		for _, l := range body["linkifiers"].([]any) {
			out = append(out, cfgJSON(l.(map[string]any)["id"]))
		}
		return strings.Join(out, ",")
	}
	if got := ids(); got != "1,2,3" {
		t.Fatalf("order = %s", got)
	}
	errCases := []struct{ list, msg string }{
		{"[3,2,2,1]", "The ordered list must not contain duplicated linkifiers"},
		{"[3,2]", "The ordered list must enumerate all existing linkifiers exactly once"},
		{"[3,2,1,4]", "The ordered list must enumerate all existing linkifiers exactly once"},
		{"[3,2,4]", "The ordered list must enumerate all existing linkifiers exactly once"},
	}
	for _, tc := range errCases {
		status, body := cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/linkifiers", cfgForm("ordered_linkifier_ids", tc.list))
		cfgWantError(t, status, body, 400, "BAD_REQUEST", tc.msg)
	}
	status, body := cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/linkifiers", nil)
	cfgWantError(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'ordered_linkifier_ids' argument")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/linkifiers", cfgForm("ordered_linkifier_ids", "[3,2,1]"))
	cfgWantOK(t, status, body)
	if got := ids(); got != "3,2,1" {
		t.Fatalf("order = %s", got)
	}
	// New linkifiers are appended after a reorder too.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/filters", cfgForm("pattern", "C(?P<id>[0-9]+)", "url_template", "https://x/{id}"))
	cfgWantOK(t, status, body)
	if got := ids(); got != "3,2,1,4" {
		t.Fatalf("order = %s", got)
	}
	status, body = cfgDo(t, srv, ts, SeedAdminID, "DELETE", "/realm/filters/2", nil)
	cfgWantOK(t, status, body)
	if got := ids(); got != "3,1,4" {
		t.Fatalf("order = %s", got)
	}
	status, body = cfgDo(t, srv, ts, SeedAdminID, "DELETE", "/realm/filters/2", nil)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Linkifier not found.")
}

func TestLinkifierFeatureLevels(t *testing.T) {
	form := cfgForm("pattern", "T(?P<id>[0-9]+)", "url_template", "https://t/{id}",
		"example_input", "T1", "reverse_template", "T{id}", "alternative_url_templates", `["https://t2/{id}"]`)
	cases := []struct {
		fl          int
		ignored     string
		wantListing string
	}{
		{400, `["alternative_url_templates","example_input","reverse_template"]`,
			`{"id":2,"pattern":"T(?P<id>[0-9]+)","url_template":"https://t/{id}"}`},
		{475, `["alternative_url_templates"]`,
			`{"example_input":"T1","id":2,"pattern":"T(?P<id>[0-9]+)","reverse_template":"T{id}","url_template":"https://t/{id}"}`},
		{478, ``,
			`{"alternative_url_templates":["https://t2/{id}"],"example_input":"T1","id":2,"pattern":"T(?P<id>[0-9]+)","reverse_template":"T{id}","url_template":"https://t/{id}"}`},
	}
	for _, tc := range cases {
		srv, ts := cfgServer(t, tc.fl)
		status, body := cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/filters", form)
		cfgWantOK(t, status, body)
		if tc.ignored == "" {
			if _, ok := body["ignored_parameters_unsupported"]; ok {
				t.Fatalf("FL%d: unexpected ignored parameters %v", tc.fl, body)
			}
		} else if got := cfgJSON(body["ignored_parameters_unsupported"]); got != tc.ignored {
			t.Fatalf("FL%d: ignored = %s", tc.fl, got)
		}
		_, body = cfgDo(t, srv, ts, SeedMemberID, "GET", "/realm/linkifiers", nil)
		if got := cfgJSON(body["linkifiers"].([]any)[1]); got != tc.wantListing {
			t.Fatalf("FL%d: listing %s", tc.fl, got)
		}
		if got := len(srv.linkifiersWireLocked()); got != 2 {
			t.Fatalf("FL%d: wire has %d linkifiers", tc.fl, got)
		}
	}
	// Reordering arrived in FL202.
	srv, ts := cfgServer(t, 200)
	status, body := cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/linkifiers", cfgForm("ordered_linkifier_ids", "[1]"))
	cfgWant405(t, status, body, `["GET","HEAD"]`)
	// On an older server an invalid reverse template is not even looked at.
	srv, ts = cfgServer(t, 400)
	status, body = cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/filters", cfgForm(
		"pattern", "T(?P<id>[0-9]+)", "url_template", "https://t/{id}", "reverse_template", "nonsense{"))
	cfgWantOK(t, status, body)
}

// linkifiersWireLocked calls linkifiersWire under the server lock, for tests.
func (s *Server) linkifiersWireLocked() []obj {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.linkifiersWire()
}
