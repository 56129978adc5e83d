package refserver_test

// Reading Zulip's raw, newest zulip.yaml (ZULIP_OPENAPI_SPEC_NEWEST): the
// document-level quirks a naive validator stops at, and its feature-level
// notes, read both ways (conformance_test.go holds the harness itself).

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// confRawQuirk is one way in which Zulip's raw zulip.yaml fails kin-openapi's
// document validation and the harness reads it anyway.
type confRawQuirk struct {
	what, reason string
	match        func(msg string) bool
}

// confRawQuirks are the document validation failures of the raw file that the
// harness tolerates. Any other failure stops the test: a newer file with a
// new quirk must be looked at, not validated against blindly.
var confRawQuirks = []confRawQuirk{{
	what: "example values that do not validate against their schemas",
	reason: "examples are documentation (RateLimitedError's retry-after example is fractional under type integer, " +
		"POST /users/me/subscriptions has a map of named examples as one example); the harness validates the " +
		"server's real answers instead, and reads retry-after as a number (confPatchSpec 4)",
	match: func(msg string) bool { return strings.Contains(msg, "invalid example") },
}, {
	what: `conflicting paths "/users/{user_id}" and "/users/{email}"`,
	reason: "Zulip tells them apart by converter (zproject/urls.py: rest_path(\"users/<int:user_id>\") and " +
		"rest_path(\"users/<email>\")); the router matches both and confRun takes the step's operation when " +
		"the two templates have the same shape",
	match: func(msg string) bool {
		return strings.Contains(msg, `conflicting paths "/users/{user_id}" and "/users/{email}"`)
	},
}, {
	what: "a server URL with an undeclared variable (http://{subdomain}.testserver/json)",
	reason: "that entry is Zulip's test-suite server, not an API base; the harness replaces every server with " +
		"the test server's {base}/api/v1 (confLoadSpec)",
	match: func(msg string) bool { return strings.Contains(msg, "server has undeclared variables") },
}, {
	what: `security requirements naming "basicAuth" while the scheme is declared "BasicAuth"`,
	reason: "a case slip in the file; the harness validates answers, not requests' security, and sends HTTP " +
		"Basic credentials itself (its generated 401 steps check authentication)",
	match: func(msg string) bool {
		return strings.Contains(msg, `refers to undefined security scheme "basicAuth"`)
	},
}}

// confCheckRawDocument validates the raw description as a document, every
// failure at once, and returns each tolerated quirk that occurred as
// "what (reported n×): reason"; a failure no quirk explains is an error.
func confCheckRawDocument(doc *openapi3.T) ([]string, error) {
	err := doc.Validate(context.Background(), openapi3.EnableMultiError())
	if err == nil {
		return nil, nil
	}
	var failures []error
	var multi openapi3.MultiError
	if errors.As(err, &multi) {
		failures = multi
	} else {
		failures = []error{err}
	}
	counts := make([]int, len(confRawQuirks))
	var unexpected []string
	for _, f := range failures {
		known := false
		for i, q := range confRawQuirks {
			if q.match(f.Error()) {
				counts[i]++
				known = true
				break
			}
		}
		if !known {
			unexpected = append(unexpected, f.Error())
		}
	}
	if len(unexpected) > 0 {
		return nil, fmt.Errorf("the raw description fails validation in a way no confRawQuirks entry explains:\n  %s",
			strings.Join(unexpected, "\n  "))
	}
	var tolerated []string
	for i, q := range confRawQuirks {
		if counts[i] > 0 {
			tolerated = append(tolerated, fmt.Sprintf("%s (reported %d×): %s", q.what, counts[i], q.reason))
		}
	}
	return tolerated, nil
}

// confNote is one "New in Zulip V (feature level L)" note of the raw file.
type confNote struct {
	version string
	level   int  // when numbered
	ok      bool // the level is a number (not a placeholder such as ZF-57f64c)
}

// confNoteOf reads the first "New in" note of a description.
func confNoteOf(desc string) (confNote, bool) {
	m := confNewInVersion.FindStringSubmatch(desc)
	if m == nil {
		return confNote{}, false
	}
	level, err := strconv.Atoi(m[2])
	return confNote{version: m[1], level: level, ok: err == nil}, true
}

// confNewInVersion is confNewIn with the version captured too.
var confNewInVersion = regexp.MustCompile(`New in Zulip ([0-9.]+) \(feature level ([^)]+)\)`)

// confVersionStarts maps each Zulip version the raw file's notes name to the
// lowest feature level noted for it, so that a placeholder note ("New in Zulip
// 13.0 (feature level ZF-57f64c)") can still be placed: it is newer than a
// server whose level is below every numbered level of that version.
func confVersionStarts(doc *openapi3.T) map[string]int {
	starts := map[string]int{}
	note := func(s *openapi3.Schema) {
		for _, p := range s.Properties {
			if p == nil || p.Value == nil {
				continue
			}
			if n, ok := confNoteOf(p.Value.Description); ok && n.ok {
				if old, seen := starts[n.version]; !seen || n.level < old {
					starts[n.version] = n.level
				}
			}
		}
	}
	confVisitAll(doc, note)
	return starts
}

// confNewerThan says whether a property's note puts it above level for
// certain: a numbered level above it, or a placeholder of a version whose
// numbered levels all are. A placeholder of a version that straddles level
// is not flagged (its requirement is still dropped by confOptionalNewer).
func confNewerThan(desc string, level int, starts map[string]int) (string, bool) {
	n, ok := confNoteOf(desc)
	if !ok {
		return "", false
	}
	if n.ok {
		return fmt.Sprintf("feature level %d", n.level), n.level > level
	}
	start, known := starts[n.version]
	return fmt.Sprintf("Zulip %s, placeholder level", n.version), known && start > level
}

// confNewerSent lists the properties of a 200 answer that the raw description
// documents as new above the server's advertised level: Zulip at that level
// does not have them, so a server claiming it must not send them. Each is
// reported as its JSON pointer and the note's level.
func confNewerSent(spec *confSpec, op *openapi3.Operation, body map[string]any) []string {
	if op.Responses == nil {
		return nil
	}
	resp := op.Responses.Status(200)
	if resp == nil || resp.Value == nil || resp.Value.Content.Get("application/json") == nil {
		return nil
	}
	schema := resp.Value.Content.Get("application/json").Schema
	if schema == nil {
		return nil
	}
	w := confNewerWalker{level: spec.level, starts: spec.starts}
	found := w.walk(schema.Value, body, "")
	sort.Strings(found)
	return found
}

type confNewerWalker struct {
	level  int
	starts map[string]int
}

// walk visits value along schema. Where the schema offers alternatives
// (anyOf, oneOf: the event types of GET /events, for instance), it follows
// those the value matches and reports a property only if every one of them
// documents it as newer.
func (w confNewerWalker) walk(s *openapi3.Schema, value any, at string) []string {
	if s == nil {
		return nil
	}
	var out []string
	if alts := append(append(openapi3.SchemaRefs{}, s.AnyOf...), s.OneOf...); len(alts) > 0 {
		var common map[string]int
		matched := 0
		for _, a := range alts {
			if a == nil || a.Value == nil || a.Value.VisitJSON(value, openapi3.VisitAsResponse()) != nil {
				continue
			}
			matched++
			if common == nil {
				common = map[string]int{}
			}
			for _, f := range w.walk(a.Value, value, at) {
				common[f]++
			}
		}
		for _, f := range confSortedKeys(common) {
			if common[f] == matched {
				out = append(out, f)
			}
		}
	}
	switch v := value.(type) {
	case map[string]any:
		for _, key := range confSortedKeys(v) {
			p := s.Properties[key]
			if p == nil {
				p = s.AdditionalProperties.Schema
			} else if p.Value != nil {
				if note, newer := confNewerThan(p.Value.Description, w.level, w.starts); newer {
					out = append(out, fmt.Sprintf("%s/%s (%s)", at, key, note))
				}
			}
			if p != nil {
				out = append(out, w.walk(p.Value, v[key], at+"/"+key)...)
			}
		}
	case []any:
		if s.Items != nil {
			for i, item := range v {
				out = append(out, w.walk(s.Items.Value, item, at+"/"+strconv.Itoa(i))...)
			}
		}
	}
	return out
}

// TestOpenAPIConformanceNewestFL420 runs the requests against a server that
// advertises feature level 420 and validates the answers against the raw,
// newest file read at that level: the properties documented as newer are
// neither required nor allowed, wherever the schema is open or closed (the
// FL420 file can only catch them where it forbids additional properties).
func TestOpenAPIConformanceNewestFL420(t *testing.T) {
	stats := confSuite(t, 420, confNewest420)
	t.Logf("OpenAPI conformance, the newest description read at feature level 420: "+
		"%d responses of %d operations validated", stats.responses, len(stats.ops))
}

// TestOpenAPIConformanceFeatureNotes checks the reading of the raw file's
// notes on its own schemas: a property newer than the level is flagged, an
// older or unannotated one is not, a placeholder is flagged only when its
// version lies wholly above the level, and among alternatives only what every
// matching alternative calls newer.
func TestOpenAPIConformanceFeatureNotes(t *testing.T) {
	prop := func(desc string) *openapi3.SchemaRef {
		s := openapi3.NewStringSchema()
		s.Description = desc
		return openapi3.NewSchemaRef("", s)
	}
	obj := func(props map[string]*openapi3.SchemaRef) *openapi3.Schema {
		s := openapi3.NewObjectSchema()
		s.Properties = props
		return s
	}
	item := obj(map[string]*openapi3.SchemaRef{
		"old":     prop("**Changes**: New in Zulip 9.0 (feature level 300)."),
		"plain":   prop("No note."),
		"new":     prop("Text.\n\n**Changes**: New in Zulip 12.0 (feature level 480)."),
		"v13":     prop("**Changes**: New in Zulip 13.0 (feature level ZF-57f64c)."),
		"v12":     prop("**Changes**: New in Zulip 12.0 (feature level e2b257)."),
		"v13real": prop("New in Zulip 13.0 (feature level 505)."),
	})
	eventA := obj(map[string]*openapi3.SchemaRef{
		"type": openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"string"}, Enum: []any{"a"}}),
		"x":    prop("New in Zulip 12.0 (feature level 470)."),
	})
	eventB := obj(map[string]*openapi3.SchemaRef{
		"type": openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"string"}, Enum: []any{"a", "b"}}),
		"x":    prop("Older."),
	})
	eventC := obj(map[string]*openapi3.SchemaRef{
		"type": openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"string"}, Enum: []any{"c"}}),
		"x":    prop("New in Zulip 12.0 (feature level 470)."),
	})
	event := &openapi3.Schema{AnyOf: openapi3.SchemaRefs{
		openapi3.NewSchemaRef("", eventA), openapi3.NewSchemaRef("", eventB), openapi3.NewSchemaRef("", eventC)}}
	root := obj(map[string]*openapi3.SchemaRef{
		"items":  openapi3.NewSchemaRef("", openapi3.NewArraySchema().WithItems(item)),
		"events": openapi3.NewSchemaRef("", openapi3.NewArraySchema().WithItems(event)),
	})
	body := map[string]any{
		"items": []any{map[string]any{"old": "", "plain": "", "new": "", "v13": "", "v12": "", "v13real": ""}},
		// a matches A and B (B does not call x newer); c matches C alone.
		"events": []any{map[string]any{"type": "a", "x": ""}, map[string]any{"type": "c", "x": ""}},
	}
	starts := map[string]int{"9.0": 250, "12.0": 421, "13.0": 505}
	w := confNewerWalker{level: 497, starts: starts}
	got := strings.Join(w.walk(root, body, ""), "\n")
	want := strings.Join([]string{
		"/items/0/v13 (Zulip 13.0, placeholder level)",
		"/items/0/v13real (feature level 505)",
	}, "\n")
	if got != want {
		t.Errorf("at level %d flagged:\n%s\nwant:\n%s", w.level, got, want)
	}
	w.level = 420
	got = strings.Join(w.walk(root, body, ""), "\n")
	want = strings.Join([]string{
		"/events/1/x (feature level 470)",
		"/items/0/new (feature level 480)",
		"/items/0/v12 (Zulip 12.0, placeholder level)",
		"/items/0/v13 (Zulip 13.0, placeholder level)",
		"/items/0/v13real (feature level 505)",
	}, "\n")
	if got != want {
		t.Errorf("at level 420 flagged:\n%s\nwant:\n%s", got, want)
	}
}

// confParamNewer says whether an operation documents the parameter name as
// new above level (its own description or its body property's): a server
// advertising level rightly reports it in ignored_parameters_unsupported.
func confParamNewer(spec *confSpec, op *openapi3.Operation, name string) bool {
	if spec.level == 0 {
		return false
	}
	var desc string
	for _, p := range op.Parameters {
		if p.Value != nil && p.Value.Name == name {
			desc = p.Value.Description
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		for _, mt := range op.RequestBody.Value.Content {
			if mt.Schema != nil && mt.Schema.Value != nil && mt.Schema.Value.Properties[name] != nil &&
				mt.Schema.Value.Properties[name].Value != nil {
				desc = mt.Schema.Value.Properties[name].Value.Description
			}
		}
	}
	_, newer := confNewerThan(desc, spec.level, spec.starts)
	return newer
}

// TestOpenAPIConformanceRawQuirks checks the document check: a quirk of
// confRawQuirks is tolerated and reported, any other failure is an error.
func TestOpenAPIConformanceRawQuirks(t *testing.T) {
	load := func(t *testing.T, servers, paths string) *openapi3.T {
		t.Helper()
		src := "openapi: 3.0.1\ninfo: {title: t, version: '1'}\nservers:\n" + servers + "paths:\n" + paths
		doc, err := openapi3.NewLoader().LoadFromData([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	const ok = "  /users/me:\n    get:\n      operationId: get-own-user\n      responses: {'200': {description: ok}}\n"
	const testServer = "  - url: 'http://{subdomain}.testserver/json'\n"
	quirks, err := confCheckRawDocument(load(t, testServer, ok))
	if err != nil || len(quirks) != 1 || !strings.HasPrefix(quirks[0], confRawQuirks[2].what) {
		t.Errorf("the test-suite server: quirks %q, error %v; want the server quirk alone", quirks, err)
	}
	// A path parameter the operation does not declare is no known quirk.
	const undeclared = "  /users/{user_id}:\n    get:\n      operationId: get-user\n      responses: {'200': {description: ok}}\n"
	if quirks, err := confCheckRawDocument(load(t, testServer, undeclared)); err == nil || !strings.Contains(err.Error(), "user_id") {
		t.Errorf("an undeclared path parameter: quirks %q, error %v; want an error naming user_id", quirks, err)
	}
	if quirks, err := confCheckRawDocument(load(t, "  - url: 'http://localhost:9991/api/v1'\n", ok)); err != nil || len(quirks) != 0 {
		t.Errorf("a valid document: quirks %q, error %v", quirks, err)
	}
}
