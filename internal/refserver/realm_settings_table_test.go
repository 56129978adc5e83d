package refserver

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
)

// tableEntry is one setting of either table (the server's realmSettings and
// realmUserDefaults, or internal/realmspec's), in the terms the description
// can check: the register key's type, the feature level, the default, the
// enumerated values and, for the defaults, the parameter's encoding.
type tableEntry struct {
	name    string
	kind    string // boolean, string, integer, group (a group-setting value), object
	fl      int
	def     any // absent (noDefault) for the name and the authentication methods
	strEnum []string
	intEnum []int
	plain   bool // encoded as plain text (only checked for the defaults' parameters)
}

// noDefault marks a setting whose default is not a table's to give.
type noDefaultT struct{}

var noDefault = noDefaultT{}

// serverTableEntries turns one of the server's tables into entries.
func serverTableEntries(specs []realmSetting) []tableEntry {
	var out []tableEntry
	for _, sp := range specs {
		e := tableEntry{name: sp.Name, fl: sp.FL, def: sp.Default, plain: sp.Plain || sp.Kind == kindText || sp.Kind == kindLanguage}
		switch sp.Kind {
		case kindBool:
			e.kind = "boolean"
		case kindText, kindLanguage, kindJitsiURL:
			e.kind = "string"
		case kindStringEnum:
			e.kind = "string"
			for _, v := range sp.Values {
				e.strEnum = append(e.strEnum, v.Name)
			}
		case kindIntEnum:
			e.kind = "integer"
			for _, v := range sp.Values {
				e.intEnum = append(e.intEnum, v.Code)
			}
		case kindCount, kindLimit, kindRetention, kindChannel:
			e.kind = "integer"
		case kindPermission:
			e.kind = "group"
		case kindAuthMethods:
			e.kind = "object"
		}
		if sp.Name == "name" || sp.Kind == kindAuthMethods {
			e.def = noDefault
		}
		out = append(out, e)
	}
	return out
}

// realmspecEntries turns one of internal/realmspec's tables into entries.
func realmspecEntries(specs []realmspec.Setting) []tableEntry {
	var out []tableEntry
	for _, sp := range specs {
		e := tableEntry{name: sp.Name, fl: sp.FL, def: sp.Default, plain: sp.Plain || sp.Kind == realmspec.Text || sp.Kind == realmspec.Language}
		switch sp.Kind {
		case realmspec.Bool:
			e.kind = "boolean"
		case realmspec.Text, realmspec.Language, realmspec.JitsiURL:
			e.kind = "string"
		case realmspec.StringEnum:
			e.kind = "string"
			for _, v := range sp.Values {
				e.strEnum = append(e.strEnum, v.WireString())
			}
		case realmspec.IntEnum:
			e.kind = "integer"
			for _, v := range sp.Values {
				e.intEnum = append(e.intEnum, v.Code)
			}
		case realmspec.Count, realmspec.Limit, realmspec.Retention, realmspec.Channel:
			e.kind = "integer"
		case realmspec.Permission:
			e.kind = "group"
		case realmspec.AuthMethods:
			e.kind = "object"
		}
		if sp.Name == "name" || sp.Kind == realmspec.AuthMethods {
			e.def = noDefault
		}
		out = append(out, e)
	}
	return out
}

// TestRealmTables_documented checks the server's own tables of the
// organization's settings (realmSettings, realmUserDefaults) and, separately,
// internal/realmspec's (which generates the client and the provider) against
// Zulip's raw newest description, not against each other, so that a mistake
// in one is not hidden by the same mistake in the other. For every setting:
// the register answer documents it (realm_<name>, or a key of
// realm_user_settings_defaults and a parameter of
// update-realm-user-settings-defaults); its type is the kind's; its feature
// level is the one its "New in Zulip X (feature level N)" note names (the
// settings older than every level this project serves carry 0 and a note no
// newer than 128); its default has the documented type, is null only where
// the key is nullable, and is one of the documented values; an enumeration's
// values are among the documented ones; and a default's parameter is
// encoded as documented (plain text or JSON). PATCH /realm itself is not
// documented, so its encodings are pinned by TestUpdateRealm (after the
// view's signature) instead.
func TestRealmTables_documented(t *testing.T) {
	doc := loadNewestDescription(t)
	realm := registerRealmKeys(t, doc)
	defaults := realm["realm_user_settings_defaults"]
	if defaults == nil {
		t.Fatal("the register answer documents no realm_user_settings_defaults")
	}
	params := userDefaultsParams(t, doc)
	for _, table := range []struct {
		name             string
		settings, defaul []tableEntry
	}{
		{"the server's table", serverTableEntries(realmSettings), serverTableEntries(realmUserDefaults)},
		{"internal/realmspec", realmspecEntries(realmspec.Settings), realmspecEntries(realmspec.UserDefaults)},
	} {
		for _, e := range table.settings {
			checkTableEntry(t, table.name, e, realm["realm_"+e.name])
		}
		for _, e := range table.defaul {
			var p *openapi3.Schema
			if ref := defaults.Properties[e.name]; ref != nil {
				p = ref.Value
			}
			checkTableEntry(t, table.name, e, p)
			plainDoc, ok := params[e.name]
			switch {
			case !ok:
				t.Errorf("%s: %s: update-realm-user-settings-defaults has no such parameter", table.name, e.name)
			case plainDoc != e.plain:
				t.Errorf("%s: %s: encoded plain=%v, documented plain=%v", table.name, e.name, e.plain, plainDoc)
			}
		}
	}
}

// oldestNotedLevel is the newest "New in" level a setting may carry with
// FL 0 (older than any server the provider serves): org_type's 128.
const oldestNotedLevel = 128

// checkTableEntry compares one entry with its documented register key.
func checkTableEntry(t *testing.T, table string, e tableEntry, p *openapi3.Schema) {
	t.Helper()
	if p == nil {
		t.Errorf("%s: %s: the register answer does not document it", table, e.name)
		return
	}
	p = flattenAllOf(p)
	switch e.kind {
	case "group":
		if !documentsGroupSetting(p) {
			t.Errorf("%s: %s: documented as %v, not a group-setting value", table, e.name, p.Type)
		}
	default:
		if p.Type != nil && !p.Type.Is(e.kind) {
			t.Errorf("%s: %s: documented as %v, the table's kind means %s", table, e.name, p.Type.Slice(), e.kind)
		}
	}
	if level, ok := newInLevel(p.Description); ok {
		if e.fl != level && (e.fl != 0 || level > oldestNotedLevel) {
			t.Errorf("%s: %s: the description says feature level %d, the table %d", table, e.name, level, e.fl)
		}
	}
	for _, v := range e.strEnum {
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, any(v)) {
			t.Errorf("%s: %s: value %q is not among the documented %v", table, e.name, v, p.Enum)
		}
	}
	for _, v := range e.intEnum {
		if len(p.Enum) > 0 && !slices.ContainsFunc(p.Enum, func(x any) bool { f, ok := x.(float64); return ok && int(f) == v }) {
			t.Errorf("%s: %s: value %d is not among the documented %v", table, e.name, v, p.Enum)
		}
	}
	checkTableDefault(t, table, e, p)
}

// checkTableDefault checks a default against the documented key.
func checkTableDefault(t *testing.T, table string, e tableEntry, p *openapi3.Schema) {
	t.Helper()
	switch d := e.def.(type) {
	case noDefaultT:
	case nil:
		if !p.Nullable {
			t.Errorf("%s: %s: default null, but the key is not nullable", table, e.name)
		}
	case bool:
		if e.kind != "boolean" {
			t.Errorf("%s: %s: default %v for a %s", table, e.name, d, e.kind)
		}
	case int:
		checkTableIntDefault(t, table, e, p, d)
	case string:
		checkTableStringDefault(t, table, e, p, d)
	default:
		t.Errorf("%s: %s: default %#v of an unexpected type", table, e.name, d)
	}
}

// checkTableIntDefault checks an integer default: an integer key, one of the entry's
// values and of the documented ones.
func checkTableIntDefault(t *testing.T, table string, e tableEntry, p *openapi3.Schema, d int) {
	t.Helper()
	if e.kind != "integer" {
		t.Errorf("%s: %s: default %d for a %s", table, e.name, d, e.kind)
	}
	if len(e.intEnum) > 0 && !slices.Contains(e.intEnum, d) {
		t.Errorf("%s: %s: default %d is not one of its values %v", table, e.name, d, e.intEnum)
	}
	if len(p.Enum) > 0 && !slices.ContainsFunc(p.Enum, func(x any) bool { f, ok := x.(float64); return ok && int(f) == d }) {
		t.Errorf("%s: %s: default %d is not among the documented %v", table, e.name, d, p.Enum)
	}
}

// checkTableStringDefault checks a string default: a system group for a group setting,
// and otherwise one of the entry's values and of the documented ones.
func checkTableStringDefault(t *testing.T, table string, e tableEntry, p *openapi3.Schema, d string) {
	t.Helper()
	switch e.kind {
	case "group":
		if !strings.HasPrefix(d, "role:") || !slices.Contains(systemGroupNames, d) {
			t.Errorf("%s: %s: default %q is not a system group", table, e.name, d)
		}
	case "string":
		if len(e.strEnum) > 0 && !slices.Contains(e.strEnum, d) {
			t.Errorf("%s: %s: default %q is not one of its values %v", table, e.name, d, e.strEnum)
		}
		if len(p.Enum) > 0 && !slices.Contains(p.Enum, any(d)) {
			t.Errorf("%s: %s: default %q is not among the documented %v", table, e.name, d, p.Enum)
		}
	default:
		t.Errorf("%s: %s: default %q for a %s", table, e.name, d, e.kind)
	}
}

// systemGroupNames are Zulip's system groups (SystemGroups).
var systemGroupNames = []string{"role:internet", "role:everyone", "role:members", "role:fullmembers",
	"role:moderators", "role:administrators", "role:owners", "role:nobody"}

// newInLevel reads the level from which a description's key exists by its
// name: its "New in Zulip X (feature level N)" note, or the later "Before
// Zulip X (feature level N), this was called ..." of a rename.
func newInLevel(description string) (int, bool) {
	level, found := 0, false
	for _, re := range []*regexp.Regexp{newInNote, renamedNote} {
		for _, m := range re.FindAllStringSubmatch(description, -1) {
			if n, err := strconv.Atoi(m[1]); err == nil && n > level {
				level, found = n, true
			}
		}
	}
	return level, found
}

// The notes newInLevel reads.
var (
	newInNote   = regexp.MustCompile(`New in Zulip [0-9.]+ \(feature level (\d+)\)`)
	renamedNote = regexp.MustCompile(`Before Zulip [0-9.]+ \(feature level (\d+)\), this was called`)
)

// flattenAllOf merges a schema written as allOf [ref, {description}] into one
// view: the type, enum and nullability of its parts, and their descriptions.
func flattenAllOf(s *openapi3.Schema) *openapi3.Schema {
	if len(s.AllOf) == 0 {
		return s
	}
	out := *s
	for _, part := range s.AllOf {
		if part == nil || part.Value == nil {
			continue
		}
		v := flattenAllOf(part.Value)
		if out.Type == nil {
			out.Type = v.Type
		}
		if len(out.Enum) == 0 {
			out.Enum = v.Enum
		}
		out.Nullable = out.Nullable || v.Nullable
		out.Description += "\n" + v.Description
		if len(out.OneOf) == 0 {
			out.OneOf = v.OneOf
		}
	}
	return &out
}

// documentsGroupSetting says whether a schema is a group-setting value: an
// integer (a group id) or an object of direct members and subgroups.
func documentsGroupSetting(s *openapi3.Schema) bool {
	var integer, object bool
	for _, alt := range s.OneOf {
		if alt == nil || alt.Value == nil || alt.Value.Type == nil {
			continue
		}
		integer = integer || alt.Value.Type.Is("integer")
		object = object || alt.Value.Type.Is("object")
	}
	return integer && object
}

// loadNewestDescription loads Zulip's raw newest zulip.yaml
// (ZULIP_OPENAPI_SPEC_NEWEST, or ../shared/reference's), or skips.
func loadNewestDescription(t *testing.T) *openapi3.T {
	t.Helper()
	path := os.Getenv("ZULIP_OPENAPI_SPEC_NEWEST")
	if path == "" {
		path = filepath.Join("..", "..", "..", "shared", "reference", "zulip-openapi-newest.yaml")
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("set ZULIP_OPENAPI_SPEC_NEWEST to Zulip's raw zulip.yaml (%v)", err)
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	return doc
}

// registerRealmKeys collects the register answer's realm_* properties.
func registerRealmKeys(t *testing.T, doc *openapi3.T) map[string]*openapi3.Schema {
	t.Helper()
	item := doc.Paths.Find("/register")
	if item == nil || item.Post == nil {
		t.Fatal("no POST /register")
	}
	props := map[string]*openapi3.Schema{}
	var walk func(s *openapi3.SchemaRef)
	walk = func(s *openapi3.SchemaRef) {
		if s == nil || s.Value == nil {
			return
		}
		for k, p := range s.Value.Properties {
			if strings.HasPrefix(k, "realm_") && props[k] == nil && p.Value != nil {
				props[k] = p.Value
			}
		}
		for _, x := range slices.Concat(s.Value.AllOf, s.Value.OneOf, s.Value.AnyOf) {
			walk(x)
		}
	}
	walk(item.Post.Responses.Status(200).Value.Content.Get("application/json").Schema)
	return props
}

// userDefaultsParams maps each documented parameter of
// update-realm-user-settings-defaults to whether it is plain text (not
// application/json in the form's encoding).
func userDefaultsParams(t *testing.T, doc *openapi3.T) map[string]bool {
	t.Helper()
	item := doc.Paths.Find("/realm/user_settings_defaults")
	if item == nil || item.Patch == nil || item.Patch.RequestBody == nil {
		t.Fatal("no PATCH /realm/user_settings_defaults body")
	}
	media := item.Patch.RequestBody.Value.Content.Get("application/x-www-form-urlencoded")
	if media == nil || media.Schema == nil {
		t.Fatal("update-realm-user-settings-defaults has no form body")
	}
	out := map[string]bool{}
	for name, p := range media.Schema.Value.Properties {
		plain := true
		if enc := media.Encoding[name]; enc != nil && enc.ContentType == "application/json" {
			plain = false
		}
		if p.Value != nil && p.Value.Type != nil && p.Value.Type.Is("string") && media.Encoding[name] == nil {
			plain = true
		}
		out[name] = plain
	}
	return out
}
