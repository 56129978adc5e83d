package refserver_test

// The OpenAPI conformance test of the reference server: it sends real requests to
// every operation the server implements and validates each answer (status and
// body) against Zulip's OpenAPI description with kin-openapi.
//
//	ZULIP_OPENAPI_SPEC=/work/shared/reference/zulip-openapi-fl420.yaml \
//	    go test ./internal/refserver/ -run Conformance -v
//
// The description is Zulip 11.0's (feature level 420) as normalized by
// openapi-generator; the server speaks a newer feature level. The few ways in
// which the test has to read that description differently from a naive
// validator are collected in confPatchSpec, each with its reason, and the
// fields newer than feature level 420 are allowed by name in confAllowances.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// confSpecEnv names the environment variable holding the path of the spec.
const confSpecEnv = "ZULIP_OPENAPI_SPEC"

// confAllowance allows a response field that the FL420 description does not
// know, because it is newer, on a schema that forbids additional properties.
type confAllowance struct {
	Schema   string // components.schemas name the field is added to
	Property string
	FL       int    // the feature level that introduced the field
	Type     string // the field's JSON schema, or the name of a components.schemas entry
}

// confAllowances lists the fields newer than feature level 420 that the server
// sends (it advertises refserver.DefaultFeatureLevel) and that the description
// forbids as additional properties. Source: the API changelog, as summarized in
// the digest (zulip-api-digest.md §1, §4.3, §6.2, §7.1, §9.5, §10).
var confAllowances = []confAllowance{
	// Linkifiers (digest §1): reverse linkification.
	{"get_linkifiers_200_response_allOf_linkifiers_inner", "example_input", 471, `{"type":"string","nullable":true}`},
	{"get_linkifiers_200_response_allOf_linkifiers_inner", "reverse_template", 471, `{"type":"string","nullable":true}`},
	{"get_linkifiers_200_response_allOf_linkifiers_inner", "alternative_url_templates", 478, `{"type":"array","items":{"type":"string"}}`},
	{"register_queue_200_response_allOf_realm_linkifiers_inner", "example_input", 471, `{"type":"string","nullable":true}`},
	{"register_queue_200_response_allOf_realm_linkifiers_inner", "reverse_template", 471, `{"type":"string","nullable":true}`},
	{"register_queue_200_response_allOf_realm_linkifiers_inner", "alternative_url_templates", 478, `{"type":"array","items":{"type":"string"}}`},
	// Users (digest §4.3).
	{"UserBase", "is_imported_stub", 433, `{"type":"boolean"}`},
	{"get_own_user_200_response", "is_imported_stub", 433, `{"type":"boolean"}`},
	// Custom profile fields (digest §6.2): present only when true.
	{"CustomProfileField", "use_for_user_matching", 455, `{"type":"boolean"}`},
	// Channels (digest §7.1).
	{"BasicChannelBase", "can_create_topic_group", 441, "GroupSettingValue"},
	{"Subscription", "can_create_topic_group", 441, "GroupSettingValue"},
	{"BasicChannelBase", "default_push_notifications", 507, `{"type":"boolean"}`},
	// Exports: carried across a realm import (feature levels 499-501 and 506+).
	{"RealmExport", "export_from_prior_server", 506, `{"type":"boolean"}`},
	{"Subscription", "default_push_notifications", 507, `{"type":"boolean"}`},
	// Messages: the sent message's link (feature level 508).
	{"send_message_200_response", "message_url", 508, `{"type":"string"}`},
	{"send_message_200_response", "message_link", 508, `{"type":"string"}`},
	// Register, fetch type realm (digest §8).
	{"register_queue_200_response", "idle_queue_timeout_secs", 481, `{"type":"integer"}`},
	{"register_queue_200_response", "realm_send_channel_events_messages", 434, `{"type":"boolean"}`},
	{"register_queue_200_response", "realm_gif_rating_policy", 453, `{"type":"integer"}`},
	{"register_queue_200_response", "realm_media_preview_size", 469, `{"type":"integer"}`},
	{"register_queue_200_response_allOf_realm_user_settings_defaults", "web_inbox_show_channel_folders", 431, `{"type":"boolean"}`},
	{"register_queue_200_response", "server_report_message_types", 435,
		`{"type":"array","items":{"type":"object","additionalProperties":false,"required":["key","name"],` +
			`"properties":{"key":{"type":"string"},"name":{"type":"string"}}}}`},
}

// confSpec is the loaded, patched description with its router.
type confSpec struct {
	doc    *openapi3.T
	router routers.Router
	base   string // the API base URL the router matches: <httptest URL>/api/v1
	// byID maps an operationId to its method, path template and operation.
	byID map[string]confOperation
	// level, for a raw description, is the feature level the server under test
	// advertises: properties documented as newer must not be sent (0: the
	// normalized FL420 file, which has no feature-level notes to read).
	level int
	// quirks lists the ways the raw description fails a naive validator that
	// the harness tolerates (confRawQuirks), with what kin-openapi reported.
	quirks []string
	// starts maps a Zulip version to the lowest feature level the raw file
	// notes for it (confVersionStarts).
	starts map[string]int
	// common holds, per HTTP status, the error schemas Zulip documents as
	// "common error to many endpoints" (/rest-error-handling), against which an
	// error answer is validated when its operation does not describe it.
	common map[int][]confNamedSchema
}

type confOperation struct {
	method, path string
	op           *openapi3.Operation
}

type confNamedSchema struct {
	name   string
	schema *openapi3.Schema
}

// confCache holds the loaded and patched description: parsing 1.2 MB of YAML
// takes seconds (many under -race), so the tests share one copy. They run
// sequentially; only the router, built per test, depends on the base URL.
var confCache struct {
	sync.Mutex
	spec map[confSource]*confSpec
}

// confSource names a description to validate against: the environment
// variable holding its path, whether the allowances for fields newer than
// feature level 420 apply (only to the normalized FL420 file), and, for the
// raw file, the feature level whose notes it is read at (0: not raw).
type confSource struct {
	env        string
	allowances bool
	level      int
}

var (
	confFL420        = confSource{confSpecEnv, true, 0}
	confFL420Exact   = confSource{confSpecEnv, false, 0}
	confNewestSource = confSource{confSpecNewestEnv, false, refserver.DefaultFeatureLevel}
	confNewest420    = confSource{confSpecNewestEnv, false, 420}
)

// confSpecNewestEnv names the environment variable holding the path of
// Zulip's raw, newest zulip.yaml.
const confSpecNewestEnv = "ZULIP_OPENAPI_SPEC_NEWEST"

// confLoadSpec loads the description src names, patches it and builds a
// router matching requests sent to base (".../api/v1").
func confLoadSpec(t *testing.T, base string, src confSource) *confSpec {
	t.Helper()
	allowances := src.allowances
	path := os.Getenv(src.env)
	if path == "" {
		file := "zulip-openapi-fl420.yaml (normalized, feature level 420)"
		if src.env == confSpecNewestEnv {
			file = "zulip-openapi-newest.yaml (Zulip's raw zulip.yaml, newest feature level)"
		}
		t.Skipf("set %s to the path of Zulip's OpenAPI description to run this conformance test "+
			"(in this project: /work/shared/reference/%s)", src.env, file)
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s=%s: %v (the shared reference files are absent)", src.env, path, err)
	}
	confCache.Lock()
	defer confCache.Unlock()
	if confCache.spec[src] == nil {
		loader := openapi3.NewLoader()
		loader.IsExternalRefsAllowed = false
		doc, err := loader.LoadFromFile(path)
		if err != nil {
			t.Fatalf("loading %s: %v", path, err)
		}
		spec := &confSpec{doc: doc, byID: map[string]confOperation{}, level: src.level}
		if src.level > 0 {
			if spec.quirks, err = confCheckRawDocument(doc); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		for p, item := range doc.Paths.Map() {
			for m, op := range item.Operations() {
				if op.OperationID != "" {
					spec.byID[op.OperationID] = confOperation{method: m, path: p, op: op}
				}
			}
		}
		if src.level > 0 {
			spec.starts = confVersionStarts(doc)
		}
		if err := confPatchSpec(doc, allowances, src.level); err != nil {
			t.Fatalf("patching %s: %v", path, err)
		}
		if spec.common, err = confCommonErrors(doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if confCache.spec == nil {
			confCache.spec = map[confSource]*confSpec{}
		}
		confCache.spec[src] = spec
	}
	spec := *confCache.spec[src]
	spec.base = base
	// The FL420 file declares no servers; the raw one declares Zulip's (a
	// zulipchat.com subdomain, {server}/api/v1, chat.zulip.org, a development
	// server and the test suite's /json, see confRawQuirks). Both are served
	// under {server}/api/v1: declare the test server's alone, so that the
	// router matches its requests and nothing else.
	spec.doc.Servers = openapi3.Servers{&openapi3.Server{URL: base}}
	var err error
	spec.router, err = gorillamux.NewRouter(spec.doc)
	if err != nil {
		t.Fatalf("building the router: %v", err)
	}
	return &spec
}

// confPatchSpec adapts the description to what it means, before validation:
//
//  1. The fields of confAllowances are added to their schemas (unless the
//     server under test advertises feature level 420).
//  2. allOf is merged (flattened). Zulip writes
//     "this object is the base plus these properties, nothing else" as
//     allOf: [Base, {additionalProperties: false, properties: {...}}]; a JSON
//     Schema validator applies additionalProperties:false of one branch alone,
//     so it would reject even "result" and "msg" of every answer. Merging the
//     branches into one schema (union of properties and required names, a
//     property present in several branches merged field by field, the object
//     closed when a branch closes it) gives the intended reading.
//  3. oneOf (without a discriminator) is read as anyOf: Zulip lists alternative
//     error examples with oneOf although their schemas coincide (for instance
//     the 400 of /rest-error-handling: InvalidApiKeyError and
//     UserNotAuthorizedError are both plain CodedError), so a body matching one
//     matches "more than one" and a strict oneOf fails.
//  4. RateLimitedError's retry-after is declared integer, but Zulip sends a
//     fractional number of seconds (digest §0.4, Zulip's rate limiter returns a
//     float); it is read as number.
//  5. For the raw file (level > 0), its feature-level notes: a property
//     documented as new above level is not required (confOptionalNewer); the
//     other side, that such a property is not sent, is checked on each answer
//     (confNewerSent).
//  6. For the raw file, the deviations of confNewestDeviations, each with
//     its reason and the Zulip code that justifies it.
//
// Before patching, the raw file is checked as a document (confRawQuirks).
func confPatchSpec(doc *openapi3.T, allowances bool, level int) error {
	schemas := doc.Components.Schemas
	if allowances {
		for _, a := range confAllowances {
			if err := confApplyAllowance(schemas, a); err != nil {
				return err
			}
		}
	}
	if rl := schemas["RateLimitedError"]; rl != nil {
		confVisit(rl.Value, map[*openapi3.Schema]bool{}, func(s *openapi3.Schema) {
			if p := s.Properties["retry-after"]; p != nil && p.Value != nil && p.Value.Type.Is("integer") {
				p.Value.Type = &openapi3.Types{"number"}
			}
		})
	}
	confFlattenAll(doc)
	if level > 0 {
		confOptionalNewer(doc, level)
	}
	for _, d := range confNewestDeviations {
		if level == 0 && !d.fl420 {
			continue
		}
		if err := d.patch(doc); err != nil {
			return fmt.Errorf("deviation %q: %w", d.what, err)
		}
	}
	return nil
}

// confApplyAllowance adds the allowance's property to its schema: a named schema, or
// one written inline as JSON.
func confApplyAllowance(schemas openapi3.Schemas, a confAllowance) error {
	ref := schemas[a.Schema]
	if ref == nil || ref.Value == nil {
		return fmt.Errorf("allowance %s.%s: no schema %q", a.Schema, a.Property, a.Schema)
	}
	var prop *openapi3.SchemaRef
	if strings.HasPrefix(a.Type, "{") {
		s := openapi3.NewSchema()
		if err := json.Unmarshal([]byte(a.Type), s); err != nil {
			return fmt.Errorf("allowance %s.%s: %w", a.Schema, a.Property, err)
		}
		prop = openapi3.NewSchemaRef("", s)
	} else if prop = schemas[a.Type]; prop == nil {
		return fmt.Errorf("allowance %s.%s: no schema %q", a.Schema, a.Property, a.Type)
	}
	if ref.Value.Properties == nil {
		ref.Value.Properties = openapi3.Schemas{}
	}
	if _, ok := ref.Value.Properties[a.Property]; ok {
		return fmt.Errorf("allowance %s.%s: the schema already has the property", a.Schema, a.Property)
	}
	ref.Value.Properties[a.Property] = prop
	return nil
}

// confFlattenAll flattens every component schema, every response schema and every
// shared response.
func confFlattenAll(doc *openapi3.T) {
	f := &confFlattener{done: map[*openapi3.Schema]bool{}}
	for _, name := range confSortedKeys(doc.Components.Schemas) {
		f.flatten(doc.Components.Schemas[name])
	}
	confEachResponseSchema(doc, f.flatten)
	for _, r := range doc.Components.Responses {
		if r.Value != nil {
			for _, mt := range r.Value.Content {
				f.flatten(mt.Schema)
			}
		}
	}
}

// confDeviation is a place where the server follows Zulip's code rather
// than its raw description, with the reason and the code that justifies it.
type confDeviation struct {
	what, reason, source string
	patch                func(doc *openapi3.T) error
	// fl420 applies the deviation to the normalized FL420 file too.
	fl420 bool
}

// confNewestDeviations are the deviations allowed against the raw, newest
// zulip.yaml.
var confNewestDeviations = []confDeviation{{
	what: "POST /register: realm_linkifiers items carry example_input, reverse_template and alternative_url_templates",
	reason: "the register schema lists only id, pattern and url_template, but the fetch uses the same dictionaries as " +
		"GET /realm/linkifiers, whose schema (and the realm_linkifiers event's) has the three newer fields",
	source: "zerver/lib/events.py fetch_initial_state_data (state[\"realm_linkifiers\"] = linkifiers_for_realm(realm.id)); " +
		"zerver/models/linkifiers.py linkifiers_for_realm",
	patch: func(doc *openapi3.T) error {
		from, err := confResponseProperty(doc, "get-linkifiers", "linkifiers")
		if err != nil {
			return err
		}
		to, err := confResponseProperty(doc, "register-queue", "realm_linkifiers")
		if err != nil {
			return err
		}
		if from.Items == nil || to.Items == nil || from.Items.Value == nil || to.Items.Value == nil {
			return errors.New("no item schemas")
		}
		for name, prop := range from.Items.Value.Properties {
			if _, ok := to.Items.Value.Properties[name]; !ok {
				to.Items.Value.Properties[name] = prop
			}
		}
		return nil
	},
}, {
	what: "POST /user_groups/{user_group_id}/deactivate: the CANNOT_DEACTIVATE_GROUP_IN_USE error carries objections",
	reason: "the error's schema is a closed CodedError, although its own example (and Zulip) sends the objections " +
		"that say where the group is used",
	source: "zerver/lib/exceptions.py CannotDeactivateGroupInUseError (data_fields = [\"objections\"]); " +
		"zerver/lib/user_groups.py access_user_group_for_deactivation",
	fl420: true,
	patch: func(doc *openapi3.T) error {
		for _, item := range doc.Paths.Map() {
			for _, op := range item.Operations() {
				if op.OperationID != "deactivate-user-group" || op.Responses == nil {
					continue
				}
				resp := op.Responses.Value("400")
				if resp == nil || resp.Value == nil || resp.Value.Content["application/json"] == nil {
					return errors.New("no JSON 400 answer")
				}
				objections := openapi3.NewArraySchema().WithItems(openapi3.NewObjectSchema())
				confVisit(resp.Value.Content["application/json"].Schema.Value, map[*openapi3.Schema]bool{}, func(s *openapi3.Schema) {
					if s.Properties != nil && s.Properties["code"] != nil {
						s.Properties["objections"] = openapi3.NewSchemaRef("", objections)
					}
				})
				return nil
			}
		}
		return errors.New("no operation deactivate-user-group")
	},
}}

// confUnmodelledParams are documented parameters the server does not model
// (it reports them in ignored_parameters_unsupported), by "operation parameter".
var confUnmodelledParams = map[string]string{
	"get-messages anchor_date": "anchor=date (feature level 445) is not modelled: the server's GET /messages is " +
		"enough for a client to find a message id (anchor, num_before/num_after, narrow, include_anchor)",
	"update-realm-user-settings-defaults enable_reaction_audible_notifications": "documented at Zulip 13.0's placeholder " +
		"feature level, newer than the level this server advertises",
	"update-realm-user-settings-defaults enable_reaction_desktop_notifications": "documented at Zulip 13.0's placeholder " +
		"feature level, newer than the level this server advertises",
	"update-settings enable_reaction_audible_notifications": "documented at Zulip 13.0's placeholder " +
		"feature level, newer than the level this server advertises",
	"update-settings enable_reaction_desktop_notifications": "documented at Zulip 13.0's placeholder " +
		"feature level, newer than the level this server advertises",
}

// confResponseProperty finds a property of an operation's 200 answer schema.
func confResponseProperty(doc *openapi3.T, operationID, property string) (*openapi3.Schema, error) {
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.OperationID != operationID || op.Responses == nil {
				continue
			}
			resp := op.Responses.Value("200")
			if resp == nil || resp.Value == nil || resp.Value.Content["application/json"] == nil {
				return nil, fmt.Errorf("%s has no JSON 200 answer", operationID)
			}
			schema := resp.Value.Content["application/json"].Schema
			if schema == nil || schema.Value == nil || schema.Value.Properties[property] == nil {
				return nil, fmt.Errorf("%s's answer has no %s", operationID, property)
			}
			return schema.Value.Properties[property].Value, nil
		}
	}
	return nil, fmt.Errorf("no operation %s", operationID)
}

// confNewIn finds Zulip's feature-level note, "New in Zulip 13.0 (feature
// level 507)"; the raw file also has unnumbered placeholders of unreleased
// work ("feature level ZF-57f64c").
var confNewIn = regexp.MustCompile(`New in Zulip [0-9.]+ \(feature level ([^)]+)\)`)

// confOptionalNewer reads the raw description's feature-level notes: a
// property documented as new at a level above the server's (or at an
// unnumbered, unreleased one) is not required of the server, as Zulip at the
// server's level does not send it.
func confOptionalNewer(doc *openapi3.T, serverLevel int) {
	newer := func(desc string) bool {
		m := confNewIn.FindStringSubmatch(desc)
		if m == nil {
			return false
		}
		level, err := strconv.Atoi(m[1])
		return err != nil || level > serverLevel
	}
	relax := func(s *openapi3.Schema) {
		var keep []string
		for _, name := range s.Required {
			if p := s.Properties[name]; p != nil && p.Value != nil && newer(p.Value.Description) {
				continue
			}
			keep = append(keep, name)
		}
		s.Required = keep
	}
	confVisitAll(doc, relax)
}

// confVisitAll calls fn once on every schema reachable from the components
// and from the operations' answers.
func confVisitAll(doc *openapi3.T, fn func(*openapi3.Schema)) {
	seen := map[*openapi3.Schema]bool{}
	for _, name := range confSortedKeys(doc.Components.Schemas) {
		confVisit(doc.Components.Schemas[name].Value, seen, fn)
	}
	confEachResponseSchema(doc, func(r *openapi3.SchemaRef) {
		if r != nil {
			confVisit(r.Value, seen, fn)
		}
	})
}

// confEachResponseSchema calls fn on the schema of every answer of every operation.
func confEachResponseSchema(doc *openapi3.T, fn func(*openapi3.SchemaRef)) {
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.Responses == nil {
				continue
			}
			for _, resp := range op.Responses.Map() {
				if resp.Value == nil {
					continue
				}
				for _, mt := range resp.Value.Content {
					fn(mt.Schema)
				}
			}
		}
	}
}

// confVisit calls fn on s and on every schema reachable from it, once.
func confVisit(s *openapi3.Schema, seen map[*openapi3.Schema]bool, fn func(*openapi3.Schema)) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	fn(s)
	for _, refs := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
		for _, r := range refs {
			if r != nil {
				confVisit(r.Value, seen, fn)
			}
		}
	}
	for _, r := range s.Properties {
		if r != nil {
			confVisit(r.Value, seen, fn)
		}
	}
	if s.Items != nil {
		confVisit(s.Items.Value, seen, fn)
	}
	if s.AdditionalProperties.Schema != nil {
		confVisit(s.AdditionalProperties.Schema.Value, seen, fn)
	}
}

// confFlattener merges allOf branches in place (see confPatchSpec).
type confFlattener struct {
	done map[*openapi3.Schema]bool
}

func (f *confFlattener) flatten(ref *openapi3.SchemaRef) {
	if ref == nil || ref.Value == nil {
		return
	}
	s := ref.Value
	if f.done[s] {
		return
	}
	f.done[s] = true
	for _, p := range s.Properties {
		f.flatten(p)
	}
	for _, b := range s.AllOf {
		f.flatten(b)
	}
	if len(s.AllOf) > 0 {
		branches := s.AllOf
		s.AllOf = nil
		own := *s // the own keywords stay; the own properties are merged after the branches'
		own.Properties = confCopyProps(s.Properties)
		s.Properties = openapi3.Schemas{}
		s.Required = nil
		for _, b := range branches {
			if b != nil && b.Value != nil {
				confMerge(s, b.Value)
			}
		}
		confMerge(s, &own)
	}
	for _, r := range s.AnyOf {
		f.flatten(r)
	}
	for _, r := range s.OneOf {
		f.flatten(r)
	}
	if len(s.OneOf) > 1 && s.Discriminator == nil {
		s.AnyOf = append(s.AnyOf, s.OneOf...)
		s.OneOf = nil
	}
	f.flatten(s.Items)
	f.flatten(s.AdditionalProperties.Schema)
	f.flatten(s.Not)
}

// confMerge merges the (flat) schema src into dst: properties are united, a
// property in both is merged into a fresh schema, required names are united,
// and dst is closed when src is.
func confMerge(dst, src *openapi3.Schema) {
	if dst.Type == nil || len(*dst.Type) == 0 {
		dst.Type = src.Type
	}
	if dst.Properties == nil && len(src.Properties) > 0 {
		dst.Properties = openapi3.Schemas{}
	}
	for name, sp := range src.Properties {
		confMergeProperty(dst, name, sp)
	}
	for _, r := range src.Required {
		if !confContains(dst.Required, r) {
			dst.Required = append(dst.Required, r)
		}
	}
	if src.AdditionalProperties.Has != nil && !*src.AdditionalProperties.Has {
		dst.AdditionalProperties = openapi3.AdditionalProperties{Has: src.AdditionalProperties.Has}
	} else if dst.AdditionalProperties.Has == nil && dst.AdditionalProperties.Schema == nil {
		dst.AdditionalProperties = src.AdditionalProperties
	}
	dst.Nullable = dst.Nullable || src.Nullable
	confMergeUnset(dst, src)
}

// confMergeProperty merges src's property name into dst's: taken as is where dst has
// none, and otherwise merged into a copy, so that a schema shared elsewhere is untouched.
func confMergeProperty(dst *openapi3.Schema, name string, sp *openapi3.SchemaRef) {
	dp, ok := dst.Properties[name]
	if !ok || dp == nil || dp.Value == nil {
		dst.Properties[name] = sp
		return
	}
	if sp == nil || sp.Value == nil || sp.Value == dp.Value {
		return
	}
	merged := *dp.Value
	merged.Properties = confCopyProps(dp.Value.Properties)
	merged.Required = append([]string(nil), dp.Value.Required...)
	confMerge(&merged, sp.Value)
	dst.Properties[name] = openapi3.NewSchemaRef("", &merged)
}

// confMergeUnset takes from src each constraint dst leaves unset.
func confMergeUnset(dst, src *openapi3.Schema) {
	if dst.Items == nil {
		dst.Items = src.Items
	}
	if dst.Enum == nil {
		dst.Enum = src.Enum
	}
	if dst.Format == "" {
		dst.Format = src.Format
	}
	if dst.Min == nil {
		dst.Min = src.Min
	}
	if dst.Max == nil {
		dst.Max = src.Max
	}
	if dst.MaxLength == nil {
		dst.MaxLength = src.MaxLength
	}
	if dst.MinLength == 0 {
		dst.MinLength = src.MinLength
	}
	if dst.Pattern == "" {
		dst.Pattern = src.Pattern
	}
	if len(dst.AnyOf) == 0 {
		dst.AnyOf = src.AnyOf
	}
	if len(dst.OneOf) == 0 {
		dst.OneOf = src.OneOf
	}
	if dst.Not == nil {
		dst.Not = src.Not
	}
}

func confCopyProps(p openapi3.Schemas) openapi3.Schemas {
	out := make(openapi3.Schemas, len(p))
	for k, v := range p {
		out[k] = v
	}
	return out
}

func confContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func confSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// confCommonErrors collects the error schemas every endpoint may answer with:
// the responses of the pseudo-operation /rest-error-handling ("Common error to
// many endpoints": 400, 401, 429), plain CodedError for any error status (every
// Zulip JsonableError has that shape), and Django's validation failure
// (CodedError plus "errors": {field: [messages]}, digest §0.3), which the
// description never spells out but linkifiers (§1) answer with.
func confCommonErrors(doc *openapi3.T) (map[int][]confNamedSchema, error) {
	out := map[int][]confNamedSchema{}
	if item := doc.Paths.Value("/rest-error-handling"); item != nil && item.Post != nil && item.Post.Responses != nil {
		for code, resp := range item.Post.Responses.Map() {
			status, err := strconv.Atoi(code)
			if err != nil || resp.Value == nil {
				continue
			}
			if mt := resp.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil {
				out[status] = append(out[status], confNamedSchema{"/rest-error-handling " + code, mt.Schema.Value})
			}
		}
	}
	ref := doc.Components.Schemas["CodedError"]
	if ref == nil || ref.Value == nil {
		return nil, errors.New("the description has no schema CodedError")
	}
	coded := ref.Value
	validation := *coded
	validation.Properties = confCopyProps(coded.Properties)
	validation.Properties["errors"] = openapi3.NewSchemaRef("", openapi3.NewObjectSchema().
		WithAdditionalProperties(openapi3.NewArraySchema().WithItems(openapi3.NewStringSchema())))
	for _, status := range []int{400, 401, 403, 404, 405, 409, 429, 500, 502, 503, 504} {
		out[status] = append(out[status], confNamedSchema{"CodedError", coded})
	}
	narrow := *coded
	narrow.Properties = confCopyProps(coded.Properties)
	narrow.Properties["desc"] = openapi3.NewSchemaRef("", openapi3.NewStringSchema())
	out[400] = append(out[400], confNamedSchema{"ValidationFailureError (digest §0.3)", &validation},
		confNamedSchema{"BadNarrowOperatorError", &narrow})
	return out, nil
}

// --- the requests ---------------------------------------------------------

// confNoAuth, as a step's user, sends no credentials.
const confNoAuth = -1

// confBadKey, as a step's user, sends the owner's e-mail with a wrong API key.
const confBadKey = -2

// confStep is one request and the answer expected of it.
type confStep struct {
	name   string
	op     string // operationId in the spec; or a name for operations the spec lacks
	user   int    // a seeded user id, confNoAuth or confBadKey
	method string
	path   string // relative to /api/v1; may contain ${var} captured earlier
	// params are the parameters (JSON-encoded where the API says so), sent in
	// the query string for GET and for the operation's query parameters, else in
	// a form body; a name starting with "?" is a query parameter the description
	// lacks (newer than it).
	params map[string]string
	status int    // the expected HTTP status
	code   string // the expected error code, when status is not 200
	// capture stores top-level fields of the answer as variables: var → field.
	capture map[string]string
	// before runs against the server before the request (out-of-band changes).
	before func(*refserver.Server)
	// minFL and maxFL restrict the step to servers advertising a feature level
	// in that range (0: no bound).
	minFL, maxFL int
	// files, when set, makes the body multipart/form-data with these files
	// (content type and data each) besides the form parameters.
	files [][2]string
}

// confGroup is one operation's subtest: steps against a fresh server. Steps of
// other operations may prepare the state; they are validated too.
type confGroup struct {
	op    string // the operation under test
	name  string // the subtest's name when not op (variants of an operation)
	opts  refserver.Options
	steps []confStep
	// noAuth is set for operations that need no credentials, and for variants
	// of an operation already covered: the generated 401 and 429 steps are
	// skipped for them.
	noAuth bool
}

// confStats counts what was validated.
type confStats struct {
	ops       map[string]bool // operations with at least one response validated
	responses int             // responses validated against the description
	envOps    map[string]bool // operations absent from the description
	envelope  int             // their responses, checked for the envelope only
	// described counts the operations of the description (documentation-only
	// entries aside); notImplemented lists those the server answers with 404 or
	// 405, uncovered those it implements that no step exercises (each also
	// fails the coverage subtest).
	described                 int
	notImplemented, uncovered []string
	quirks                    []string // the raw file's tolerated quirks (confRawQuirks)
}

var confFixedNow = time.Date(2025, 6, 2, 12, 0, 0, 0, time.UTC)

func TestOpenAPIConformance(t *testing.T) {
	stats := confSuite(t, 0, confFL420)
	summary := fmt.Sprintf("OpenAPI conformance: %d responses of %d operations validated against %s; "+
		"%d responses of %d operations absent from the description checked for the envelope only",
		stats.responses, len(stats.ops), os.Getenv(confSpecEnv), stats.envelope, len(stats.envOps))
	t.Log(summary)
	fmt.Println(summary)
}

// TestOpenAPIConformanceNewest runs the same requests against the default
// server and validates the answers against Zulip's own, raw zulip.yaml of the
// newest feature level in ../shared/reference (ZULIP_OPENAPI_SPEC_NEWEST): no
// allowances are needed, the file describes every field the server sends; the
// ways the harness reads the raw file are in confPatchSpec, the deviations it
// allows in confNewestDeviations.
func TestOpenAPIConformanceNewest(t *testing.T) {
	stats := confSuite(t, 0, confNewestSource)
	summary := confSummary("newest", stats)
	t.Log(summary)
	fmt.Println(summary)
}

// TestOpenAPIConformanceFL420 runs the same requests against a server that
// advertises feature level 420, the description's own, and validates the
// answers without any allowance: a server claiming FL420 must not send the
// newer fields (Options.FeatureLevel: "Endpoints and parameters newer than it
// behave as on an older server").
func TestOpenAPIConformanceFL420(t *testing.T) {
	stats := confSuite(t, 420, confFL420Exact)
	t.Logf("OpenAPI conformance at feature level 420: %d responses of %d operations validated", stats.responses, len(stats.ops))
}

// confSuite runs every group against servers advertising featureLevel (0: the
// default) and validates the answers against the description, with or without
// the allowances for newer fields.
func confSuite(t *testing.T, featureLevel int, src confSource) *confStats {
	var current atomic.Pointer[refserver.Server]
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		current.Load().ServeHTTP(w, r)
	}))
	defer ts.Close()
	spec := confLoadSpec(t, ts.URL+"/api/v1", src)
	env := &confSuiteEnv{
		baseURL: ts.URL, featureLevel: featureLevel, current: &current,
		stats: &confStats{ops: map[string]bool{}, envOps: map[string]bool{}, quirks: spec.quirks},
	}

	covered := map[string]bool{}
	for _, g := range confGroups() {
		name := g.name
		if name == "" {
			name = g.op
		}
		t.Run(name, func(t *testing.T) {
			srv := env.newServer(t, g.opts)
			spec := spec
			if src.level > 0 && g.opts.FeatureLevel != 0 && g.opts.FeatureLevel != src.level {
				// A group that runs its own level is read at that level: what
				// the raw file calls newer is neither required nor allowed.
				spec = confLoadSpec(t, ts.URL+"/api/v1", confSource{src.env, src.allowances, g.opts.FeatureLevel})
			}
			vars := map[string]string{}
			var template *confStep
			for i := range g.steps {
				st := &g.steps[i]
				covered[st.op] = true
				if template == nil && confAuthTemplate(st, g.op) {
					template = st
				}
				t.Run(fmt.Sprintf("%02d_%d_%s", i+1, st.status, st.name), func(t *testing.T) {
					confSkipOutsideLevels(t, st, featureLevel)
					if st.before != nil {
						st.before(srv)
					}
					confRun(t, spec, srv, ts.URL, st, vars, env.stats)
				})
			}
			if g.noAuth {
				return
			}
			if template == nil {
				t.Errorf("no step of %s usable for the generated 401/429 checks", g.op)
				return
			}
			env.authChecks(t, spec, srv, g, template, vars)
		})
	}

	t.Run("coverage", func(t *testing.T) {
		confCheckCoverage(t, spec, ts.URL, covered, env.stats)
	})
	t.Run("parameters", func(t *testing.T) {
		confCheckParams(t, spec)
	})
	return env.stats
}

// confSuiteEnv is what the groups of one conformance suite share: the test server's
// address and the reference server behind it, the feature level, and the tallies.
type confSuiteEnv struct {
	baseURL      string
	featureLevel int
	current      *atomic.Pointer[refserver.Server]
	stats        *confStats
}

// newServer starts a reference server at the suite's clock and feature level (unless
// opts set their own) and puts it behind the test server.
func (e *confSuiteEnv) newServer(t *testing.T, opts refserver.Options) *refserver.Server {
	t.Helper()
	if opts.Clock == nil {
		opts.Clock = func() time.Time { return confFixedNow }
	}
	if opts.FeatureLevel == 0 {
		opts.FeatureLevel = e.featureLevel
	}
	srv, err := refserver.New(opts)
	if err != nil {
		t.Fatalf("refserver.New: %v", err)
	}
	e.current.Store(srv)
	return srv
}

// confAuthTemplate says whether a step can be sent again for the generated 401/429
// checks: a step of the group's own operation, by a user, that uses no captured
// variable and holds at every feature level.
func confAuthTemplate(st *confStep, op string) bool {
	return st.op == op && !strings.Contains(st.path+fmt.Sprint(st.params), "${") && st.user > 0 &&
		st.minFL == 0 && st.maxFL == 0
}

// confSkipOutsideLevels skips a step written for feature levels the server does not
// advertise.
func confSkipOutsideLevels(t *testing.T, st *confStep, featureLevel int) {
	t.Helper()
	fl := featureLevel
	if fl == 0 {
		fl = refserver.DefaultFeatureLevel
	}
	if st.minFL != 0 && fl < st.minFL || st.maxFL != 0 && fl > st.maxFL {
		upper := "the newest"
		if st.maxFL != 0 {
			upper = strconv.Itoa(st.maxFL)
		}
		t.Skipf("for feature levels %d to %s; the server advertises %d", st.minFL, upper, fl)
	}
}

// authChecks runs the checks every authenticated operation gets, from the group's
// template step: a wrong API key is a 401, and over the rate limit a 429.
func (e *confSuiteEnv) authChecks(t *testing.T, spec *confSpec, srv *refserver.Server, g confGroup,
	template *confStep, vars map[string]string) {
	t.Helper()
	bad := *template
	bad.name, bad.user, bad.status, bad.code, bad.capture, bad.before = "wrong API key", confBadKey, 401, "UNAUTHORIZED", nil, nil
	t.Run(fmt.Sprintf("%02d_401_%s", len(g.steps)+1, bad.name), func(t *testing.T) {
		confRun(t, spec, srv, e.baseURL, &bad, vars, e.stats)
	})
	// On a fresh server allowing one request a minute, the same user first reads
	// their own account, then sends the operation's request, which is refused
	// before being processed.
	opts := g.opts
	opts.RateLimit = 1
	limited := e.newServer(t, opts)
	first := confStep{name: "first request under the rate limit", op: "get-own-user", user: template.user,
		method: http.MethodGet, path: "/users/me", status: 200}
	hit := *template
	hit.name, hit.status, hit.code, hit.capture, hit.before = "rate limit hit", 429, "RATE_LIMIT_HIT", nil, nil
	t.Run(fmt.Sprintf("%02d_429_%s", len(g.steps)+2, hit.name), func(t *testing.T) {
		confRun(t, spec, limited, e.baseURL, &first, map[string]string{}, e.stats)
		confRun(t, spec, limited, e.baseURL, &hit, map[string]string{}, e.stats)
	})
}

// confVarRE matches a path template's variables.
var confVarRE = regexp.MustCompile(`\{([a-z_]+)\}`)

// confStepVarRE matches a step's variables, ${name} (braces alone would clash
// with linkifier URL templates).
var confStepVarRE = regexp.MustCompile(`\$\{([a-z_]+)\}`)

// confExpand replaces ${var} with captured variables.
func confExpand(t *testing.T, s string, vars map[string]string) string {
	t.Helper()
	return confStepVarRE.ReplaceAllStringFunc(s, func(m string) string {
		v, ok := vars[m[2:len(m)-1]]
		if !ok {
			t.Fatalf("variable %s not captured by an earlier step", m)
		}
		return v
	})
}

// confRun sends one step's request and checks its answer. A step with status 0
// accepts any answer (it is only a preparation), but still validates it.
func confRun(t *testing.T, spec *confSpec, srv *refserver.Server, baseURL string, st *confStep,
	vars map[string]string, stats *confStats) {
	t.Helper()
	path := confExpand(t, st.path, vars)
	req := confRequest(t, spec, srv, baseURL+"/api/v1"+path, st, vars)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", st.method, path, err)
	}
	raw, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", st.method, path, err)
	}
	what := fmt.Sprintf("%s %s (%s) answered %d %s", st.method, path, st.op, resp.StatusCode, confShort(raw))

	// The envelope, for every answer.
	var decoded map[string]any
	if err := json.Unmarshal(raw, &decoded); err != nil {
		t.Errorf("%s: not a JSON object: %v", what, err)
		return
	}
	confCheckEnvelope(t, what, resp, decoded, st)
	confKeepCaptures(t, what, resp.StatusCode, decoded, st, vars)
	confCheckDescribed(t, spec, what, st, req, resp, raw, decoded, stats)
}

// confRequest builds a step's request to u: its parameters in the query (for a GET,
// for a parameter the operation documents in the query, and for one written "?name")
// or the form body (multipart when it uploads files), and its user's credentials.
func confRequest(t *testing.T, spec *confSpec, srv *refserver.Server, u string, st *confStep,
	vars map[string]string) *http.Request {
	t.Helper()
	query, form := url.Values{}, url.Values{}
	queryParams := map[string]bool{}
	if so, inSpec := spec.byID[st.op]; inSpec {
		for _, p := range so.op.Parameters {
			if p.Value != nil && p.Value.In == "query" {
				queryParams[p.Value.Name] = true
			}
		}
	}
	for _, k := range confSortedKeys(st.params) {
		v := confExpand(t, st.params[k], vars)
		if name, ok := strings.CutPrefix(k, "?"); ok { // a query parameter the description lacks
			query.Set(name, v)
		} else if st.method == http.MethodGet || queryParams[k] {
			query.Set(k, v)
		} else {
			form.Set(k, v)
		}
	}
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var body io.Reader
	contentType := "application/x-www-form-urlencoded"
	switch {
	case st.files != nil:
		body, contentType = confMultipart(form, st.files)
	case len(form) > 0:
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(st.method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	confAuthenticate(t, srv, req, st.user)
	return req
}

// confAuthenticate sets the credentials of user on req: none, a well-formed wrong API
// key, or the user's own.
func confAuthenticate(t *testing.T, srv *refserver.Server, req *http.Request, user int) {
	t.Helper()
	switch user {
	case confNoAuth:
	case confBadKey:
		owner, _ := srv.User(refserver.SeedOwnerID)
		req.SetBasicAuth(owner.Email, "wrongwrongwrongwrongwrongwrong00") // well-formed, wrong
	default:
		cred, ok := srv.User(user)
		if !ok {
			t.Fatalf("no user %d", user)
		}
		req.SetBasicAuth(cred.Email, cred.APIKey)
	}
}

// confCheckEnvelope checks what every answer shares: JSON, a msg, a result that
// agrees with the status, a code on an error, and the step's status and code.
func confCheckEnvelope(t *testing.T, what string, resp *http.Response, decoded map[string]any, st *confStep) {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s: Content-Type %q", what, ct)
	}
	result, _ := decoded["result"].(string)
	if _, ok := decoded["msg"].(string); !ok {
		t.Errorf("%s: no string msg", what)
	}
	switch {
	case resp.StatusCode == 200 && result != "success":
		t.Errorf("%s: status 200 with result %q", what, result)
	case resp.StatusCode != 200 && result != "error":
		t.Errorf("%s: status %d with result %q", what, resp.StatusCode, result)
	case result == "error":
		if c, _ := decoded["code"].(string); c == "" {
			t.Errorf("%s: error without code", what)
		}
	}
	if st.status != 0 && resp.StatusCode != st.status {
		t.Errorf("%s: want status %d", what, st.status)
	}
	if st.code != "" && decoded["code"] != st.code {
		t.Errorf("%s: want code %s", what, st.code)
	}
}

// confKeepCaptures keeps the fields the step captures as variables for later steps; a
// successful answer must have them.
func confKeepCaptures(t *testing.T, what string, status int, decoded map[string]any, st *confStep, vars map[string]string) {
	t.Helper()
	for v, field := range st.capture {
		switch x := decoded[field].(type) {
		case string:
			vars[v] = x
		case float64:
			vars[v] = strconv.FormatFloat(x, 'f', -1, 64)
		default:
			if status == 200 {
				t.Errorf("%s: no field %s to capture", what, field)
			}
		}
	}
}

// confCheckDescribed checks the answer against the description: the route must exist
// (except for operations it lacks, which are counted as checked for the envelope
// only) and be the step's operation, and the answer must conform to it.
func confCheckDescribed(t *testing.T, spec *confSpec, what string, st *confStep, req *http.Request,
	resp *http.Response, raw []byte, decoded map[string]any, stats *confStats) {
	t.Helper()
	so, inSpec := spec.byID[st.op]
	route, pathParams, err := spec.router.FindRoute(req)
	if err != nil {
		if inSpec {
			t.Errorf("%s: the router finds no route for the request: %v", what, err)
			return
		}
		stats.envOps[st.op] = true
		stats.envelope++
		return
	}
	if !inSpec {
		t.Errorf("%s: %s is described at %s %s: give the step that operationId", what, st.op, route.Method, route.Path)
		return
	}
	if route.Operation.OperationID != st.op {
		// Two templates match the same URLs (/users/{user_id} and /users/{email}):
		// take the step's operation when its template has the same shape.
		if confShape(route.Path) != confShape(so.path) || route.Method != so.method {
			t.Errorf("%s: the request matches %s (%s %s), not %s (%s %s)", what,
				route.Operation.OperationID, route.Method, route.Path, st.op, so.method, so.path)
			return
		}
		r := *route
		r.Path, r.PathItem, r.Operation = so.path, spec.doc.Paths.Value(so.path), so.op
		route = &r
	}
	note, err := confValidate(spec, req, route, pathParams, resp, raw, decoded)
	if err != nil {
		t.Errorf("%s: does not conform to %s %s (%s):\n%v", what, route.Method, route.Path, st.op, err)
		return
	}
	if note != "" {
		t.Logf("%s: %s", what, note)
	}
	confCheckLevelsAndParams(t, spec, what, st, resp.StatusCode, route.Operation, decoded)
	stats.ops[st.op] = true
	stats.responses++
}

// confCheckLevelsAndParams checks, for the raw file, that nothing newer than the
// advertised level is sent, and that a parameter the operation documents does not come
// back as unsupported, unless the raw file documents it as newer than that level.
func confCheckLevelsAndParams(t *testing.T, spec *confSpec, what string, st *confStep, status int,
	op *openapi3.Operation, decoded map[string]any) {
	t.Helper()
	if spec.level > 0 && status == 200 {
		for _, f := range confNewerSent(spec, op, decoded) {
			t.Errorf("%s: sends %s, documented as newer than the advertised feature level %d", what, f, spec.level)
		}
	}
	if ignored, ok := decoded["ignored_parameters_unsupported"].([]any); ok {
		documented := confDocumentedParams(op)
		for _, p := range ignored {
			if name, _ := p.(string); documented[name] && !confParamNewer(spec, op, name) {
				t.Errorf("%s: the server ignores %q, a parameter %s documents", what, name, st.op)
			}
		}
	}
}

// confValidate validates an answer against its operation's declared response for
// the status; an error answer the operation does not describe (or describes
// otherwise) may instead match one of the common error schemas.
//
// note, when not empty, says that the operation's own schema for the status
// rejected the error answer and which common schema accepted it instead.
func confValidate(spec *confSpec, req *http.Request, route *routers.Route, pathParams map[string]string,
	resp *http.Response, raw []byte, decoded map[string]any) (note string, err error) {
	status := resp.StatusCode
	declared := route.Operation.Responses != nil &&
		(route.Operation.Responses.Status(status) != nil || route.Operation.Responses.Default() != nil)
	var declaredErr error
	if declared {
		input := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{
				Request: req, PathParams: pathParams, Route: route,
			},
			Status:  status,
			Header:  resp.Header,
			Body:    io.NopCloser(bytes.NewReader(raw)),
			Options: confFilterOptions,
		}
		declaredErr = openapi3filter.ValidateResponse(context.Background(), input)
		if declaredErr == nil {
			return "", nil
		}
		if status < 400 {
			return "", declaredErr
		}
	}
	var commonErrs []string
	for _, c := range spec.common[status] {
		err := c.schema.VisitJSON(decoded, openapi3.MultiErrors(), openapi3.VisitAsResponse(),
			openapi3.SetSchemaErrorMessageCustomizer(confSchemaError))
		if err == nil {
			if declared {
				note = fmt.Sprintf("the declared %d rejected it (%v); accepted as %s", status, declaredErr, c.name)
			}
			return note, nil
		}
		commonErrs = append(commonErrs, fmt.Sprintf("  as %s: %v", c.name, err))
	}
	var msg strings.Builder
	if declared {
		fmt.Fprintf(&msg, "declared response %d: %v\n", status, declaredErr)
	} else {
		fmt.Fprintf(&msg, "the operation declares no response %d\n", status)
	}
	if len(commonErrs) == 0 {
		fmt.Fprintf(&msg, "and no common error schema exists for status %d", status)
	} else {
		fmt.Fprintf(&msg, "and it matches no common error schema:\n%s", strings.Join(commonErrs, "\n"))
	}
	return "", errors.New(msg.String())
}

// confDocumentedParams lists the parameters an operation documents: query and
// path parameters and the properties of its form body.
func confDocumentedParams(op *openapi3.Operation) map[string]bool {
	out := map[string]bool{}
	for _, p := range op.Parameters {
		if p.Value != nil {
			out[p.Value.Name] = true
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		for _, mt := range op.RequestBody.Value.Content {
			if mt.Schema != nil && mt.Schema.Value != nil {
				for name := range mt.Schema.Value.Properties {
					out[name] = true
				}
			}
		}
	}
	return out
}

// confFilterOptions are the response validation options: undeclared statuses
// are errors (the caller handles them first), every failure is reported, and
// messages name the JSON pointer and the reason without dumping the schema.
var confFilterOptions = func() *openapi3filter.Options {
	o := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}
	o.WithCustomSchemaErrorFunc(confSchemaError)
	return o
}()

// confSchemaError renders a schema error briefly: where, and why.
func confSchemaError(e *openapi3.SchemaError) string {
	reason := e.Reason
	if reason == "" {
		reason = "does not match the schema's " + e.SchemaField
	}
	if e.Origin != nil {
		reason += ": " + e.Origin.Error()
	}
	return fmt.Sprintf("at /%s: %s", strings.Join(e.JSONPointer(), "/"), reason)
}

// confShape replaces a path template's variable names, so that /users/{user_id}
// and /users/{email} compare equal.
func confShape(p string) string { return confVarRE.ReplaceAllString(p, "{}") }

// confShort abbreviates an answer body for messages.
func confShort(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// confCheckCoverage asks the server, without credentials, for every operation of
// the description that no step exercises: an implemented route answers (401 for
// authenticated ones), a missing one answers 404 "Invalid API endpoint" (or
// Go's plain 404). An implemented operation the test does not cover fails.
func confCheckCoverage(t *testing.T, spec *confSpec, baseURL string, covered map[string]bool, stats *confStats) {
	for _, id := range confSortedKeys(spec.byID) {
		o := spec.byID[id]
		if confDocOnly[id] {
			continue
		}
		stats.described++
		if covered[id] {
			continue
		}
		path := confVarRE.ReplaceAllString(o.path, "1")
		req, err := http.NewRequest(o.method, baseURL+"/api/v1"+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%s %s: %v", o.method, path, err)
			continue
		}
		raw, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		msg, _ := body["msg"].(string)
		missing := resp.StatusCode == 404 && (body == nil || strings.Contains(msg, "Invalid API endpoint")) ||
			resp.StatusCode == 405
		if missing {
			stats.notImplemented = append(stats.notImplemented, o.method+" "+o.path)
		} else {
			stats.uncovered = append(stats.uncovered, o.method+" "+o.path)
			t.Errorf("%s %s (%s) is implemented (answered %d %s) but no conformance step covers it",
				o.method, o.path, id, resp.StatusCode, confShort(raw))
		}
	}
}

// confDocOnly are the description's documentation-only entries: pages of the
// API documentation written as operations, not endpoints a server has.
var confDocOnly = map[string]bool{
	"rest-error-handling": true, "zulip-outgoing-webhooks": true,
}

// TestOpenAPIConformanceValidator checks the checker: answers that break the
// description in each typical way must be rejected, so that a patched
// description cannot silently accept everything.
func TestOpenAPIConformanceValidator(t *testing.T) {
	spec := confLoadSpec(t, "http://zulip.test/api/v1", confFL420)
	linkifier := `{"id":1,"pattern":"#(?P<id>[0-9]+)","url_template":"https://x/{id}"}`
	cases := []struct {
		name, method, path string
		status             int
		body               string
		valid              bool
	}{
		{"linkifiers", "GET", "/realm/linkifiers", 200, `{"result":"success","msg":"","linkifiers":[` + linkifier + `]}`, true},
		{"ignored parameters", "GET", "/realm/linkifiers", 200, `{"result":"success","msg":"","linkifiers":[],"ignored_parameters_unsupported":["x"]}`, true},
		{"allowed newer fields", "GET", "/realm/linkifiers", 200, `{"result":"success","msg":"","linkifiers":[{"id":1,"pattern":"a","url_template":"b","example_input":null,"reverse_template":"a","alternative_url_templates":["c"]}]}`, true},
		{"allowed field of the wrong type", "GET", "/realm/linkifiers", 200, `{"result":"success","msg":"","linkifiers":[{"id":1,"pattern":"a","url_template":"b","alternative_url_templates":"c"}]}`, false},
		{"missing msg", "GET", "/realm/linkifiers", 200, `{"result":"success","linkifiers":[]}`, false},
		{"error result on success", "GET", "/realm/linkifiers", 200, `{"result":"error","msg":"","linkifiers":[]}`, false},
		{"unknown top-level field", "GET", "/realm/linkifiers", 200, `{"result":"success","msg":"","linkifiers":[],"extra":1}`, false},
		{"unknown item field", "GET", "/realm/linkifiers", 200, `{"result":"success","msg":"","linkifiers":[{"id":1,"pattern":"a","url_template":"b","url_format":"c"}]}`, false},
		{"wrong type", "GET", "/realm/linkifiers", 200, `{"result":"success","msg":"","linkifiers":[{"id":"1","pattern":"a","url_template":"b"}]}`, false},
		{"nullable override", "GET", "/streams/1", 200, `{"result":"success","msg":"","stream":` + confChannelJSON(`"creator_id":null`) + `}`, true},
		{"null where not nullable", "GET", "/streams/1", 200, `{"result":"success","msg":"","stream":` + confChannelJSON(`"creator_id":null,"name":null`) + `}`, false},
		{"missing required field", "GET", "/streams/1", 200, `{"result":"success","msg":"","stream":` + strings.Replace(confChannelJSON(`"creator_id":1`), `"subscriber_count":3,`, "", 1) + `}`, false},
		{"user", "GET", "/users/1", 200, `{"result":"success","msg":"","user":` + confUserJSON(`"is_imported_stub":false`) + `}`, true},
		{"user with a removed field", "GET", "/users/1", 200, `{"result":"success","msg":"","user":` + confUserJSON(`"is_billing_admin":false`) + `}`, false},
		{"declared error", "GET", "/streams/1", 400, `{"result":"error","msg":"Invalid channel ID","code":"BAD_REQUEST"}`, true},
		{"common missing argument", "POST", "/realm/filters", 400, `{"result":"error","msg":"Missing 'pattern' argument","code":"REQUEST_VARIABLE_MISSING","var_name":"pattern"}`, true},
		{"validation failure", "POST", "/realm/filters", 400, `{"result":"error","msg":"Invalid URL template.","code":"BAD_REQUEST","errors":{"url_template":["Invalid URL template."]}}`, true},
		{"error with an unknown field", "POST", "/realm/filters", 400, `{"result":"error","msg":"x","code":"BAD_REQUEST","hint":"y"}`, false},
		{"error without code", "POST", "/realm/filters", 400, `{"result":"error","msg":"x"}`, false},
		{"401", "GET", "/users/me", 401, `{"result":"error","msg":"Invalid API key","code":"UNAUTHORIZED"}`, true},
		{"fractional retry-after", "GET", "/users/me", 429, `{"result":"error","msg":"API usage exceeded rate limit","code":"RATE_LIMIT_HIT","retry-after":0.25}`, true},
		{"undocumented status", "GET", "/users/me", 418, `{"result":"error","msg":"teapot","code":"BAD_REQUEST"}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(c.method, spec.base+c.path, nil)
			route, params, err := spec.router.FindRoute(req)
			if err != nil {
				t.Fatalf("no route for %s %s: %v", c.method, c.path, err)
			}
			var decoded map[string]any
			if err := json.Unmarshal([]byte(c.body), &decoded); err != nil {
				t.Fatal(err)
			}
			resp := &http.Response{StatusCode: c.status, Header: http.Header{"Content-Type": {"application/json"}}}
			_, err = confValidate(spec, req, route, params, resp, []byte(c.body), decoded)
			if c.valid && err != nil {
				t.Errorf("rejected a conforming answer: %v", err)
			}
			if !c.valid && err == nil {
				t.Errorf("accepted a non-conforming answer")
			}
		})
	}
}

// confChannelJSON is a complete channel object of the FL420 description, with extra fields.
func confChannelJSON(extra string) string {
	return `{"stream_id":1,"name":"general","description":"","rendered_description":"","date_created":1,` +
		`"invite_only":false,"is_web_public":false,"history_public_to_subscribers":true,"is_archived":false,` +
		`"first_message_id":null,"message_retention_days":null,"is_recently_active":true,"stream_weekly_traffic":null,` +
		`"stream_post_policy":1,"is_announcement_only":false,"can_remove_subscribers_group":2,"can_subscribe_group":8,` +
		`"folder_id":null,"subscriber_count":3,` + extra + `}`
}

// confUserJSON is a complete user object of the FL420 description, with extra fields.
func confUserJSON(extra string) string {
	return `{"user_id":1,"email":"a@b.c","delivery_email":null,"full_name":"A","date_joined":"2024-01-01T00:00:00+00:00",` +
		`"is_active":true,"is_owner":true,"is_admin":true,"is_guest":false,"is_bot":false,"bot_type":null,` +
		`"bot_owner_id":null,"role":100,"timezone":"","avatar_url":null,"avatar_version":1,` + extra + `}`
}

// confCheckParams requires every documented query or body parameter of every
// operation the steps exercise to be sent by at least one step, so that the
// server is seen to accept it (a documented parameter reported back in
// ignored_parameters_unsupported fails confRun).
func confCheckParams(t *testing.T, spec *confSpec) {
	sent := map[string]map[string]bool{}
	for _, g := range confGroups() {
		for _, st := range g.steps {
			if sent[st.op] == nil {
				sent[st.op] = map[string]bool{}
			}
			for k := range st.params {
				sent[st.op][strings.TrimPrefix(k, "?")] = true
			}
			if len(st.files) > 0 {
				sent[st.op]["filename"] = true // the multipart file's property (confMultipart)
			}
		}
	}
	for _, id := range confSortedKeys(sent) {
		o, ok := spec.byID[id]
		if !ok {
			continue
		}
		path := map[string]bool{}
		for _, p := range o.op.Parameters {
			if p.Value != nil && p.Value.In == "path" {
				path[p.Value.Name] = true
			}
		}
		for _, name := range confSortedKeys(confDocumentedParams(o.op)) {
			if _, unmodelled := confUnmodelledParams[id+" "+name]; unmodelled {
				continue
			}
			if !path[name] && !sent[id][name] {
				t.Errorf("%s documents parameter %q, which no step sends", id, name)
			}
		}
	}
}

// confSummary is the account of a conformance run against the raw description:
// what was covered, and each deviation allowed with its reason and source.
func confSummary(name string, stats *confStats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "OpenAPI conformance (%s): %d operations covered, %d responses validated; "+
		"%d responses of %d operations absent from the description checked for the envelope only; "+
		"properties documented as newer than feature level %d are neither required nor sent",
		name, len(stats.ops), stats.responses, stats.envelope, len(stats.envOps), refserver.DefaultFeatureLevel)
	fmt.Fprintf(&b, "\noperations of the description: %d (documentation-only entries aside); %d not implemented by the "+
		"server; %d implemented but exercised by no step", stats.described, len(stats.notImplemented), len(stats.uncovered))
	for _, op := range stats.uncovered {
		fmt.Fprintf(&b, "\n  - not exercised: %s", op)
	}
	fmt.Fprintf(&b, "\nquirks of the raw file tolerated (%d):", len(stats.quirks))
	for _, q := range stats.quirks {
		fmt.Fprintf(&b, "\n  - %s", q)
	}
	fmt.Fprintf(&b, "\ndeviations allowed (%d):", len(confNewestDeviations))
	for _, d := range confNewestDeviations {
		fmt.Fprintf(&b, "\n  - %s: %s [%s]", d.what, d.reason, d.source)
	}
	fmt.Fprintf(&b, "\nparameters not modelled (%d):", len(confUnmodelledParams))
	for _, k := range confSortedKeys(confUnmodelledParams) {
		fmt.Fprintf(&b, "\n  - %s: %s", k, confUnmodelledParams[k])
	}
	return b.String()
}

// confMultipart is a multipart/form-data body of a form and files (content
// type and data each), and its content type.
func confMultipart(form url.Values, files [][2]string) (io.Reader, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, k := range confSortedKeys(form) {
		_ = mw.WriteField(k, form.Get(k))
	}
	for i, f := range files {
		h := textproto.MIMEHeader{}
		// The first file's field is "filename", as the description names it.
		field := "filename"
		if i > 0 {
			field = fmt.Sprintf("file%d", i)
		}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename="upload%d"`, field, i))
		h.Set("Content-Type", f[0])
		w, _ := mw.CreatePart(h)
		_, _ = w.Write([]byte(f[1]))
	}
	_ = mw.Close()
	return &buf, mw.FormDataContentType()
}
