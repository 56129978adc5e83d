package refserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"sync"

	"github.com/yosida95/uritemplate/v3"
)

func init() {
	registerArea("linkifiers", area{seed: seedLinkifiers, seedStep: 60, routes: (*Server).routesLinkifiers, sections: map[string]registerSection{"realm_linkifiers": (*Server).registerLinkifiers, "realm_filters": (*Server).registerLegacyFilters}})
}

// Feature levels of the linkifier fields newer than the endpoints themselves.
const (
	linkifierReverseFL      = 471 // example_input, reverse_template
	linkifierAlternativesFL = 478 // alternative_url_templates
)

// Linkifier validation messages. RealmFilter.clean() (zerver/models/linkifiers.py)
// raises at its first problem, so Django's full_clean() reports it alone, under
// "__all__", in these words.
const (
	msgLinkifierExampleNoMatch  = "Example input does not match the linkifier pattern."
	msgLinkifierReverseMismatch = "Example text does not match auto-conversion field."
	msgLinkifierReverseNoBrace  = "Invalid auto-conversion field: missing '}' character."
	msgLinkifierReverseNoName   = "Invalid auto-conversion field: empty field name."
	msgLinkifierReverseGroup    = "Group %s in auto-conversion field is not present in linkifier pattern."
	// msgLinkifierReverseNeedsEx is this server's wording for Zulip's
	// MissingDependentParameterError(required_parameter="Example text",
	// set_parameter="auto-conversion field"), whose class body is not in the
	// sources at hand. It is a JsonableError, not a ValidationError, so it
	// escapes full_clean() and the view's `except ValidationError`: a plain
	// 400 BAD_REQUEST without an "errors" map.
	msgLinkifierReverseNeedsEx = "Example text is required when auto-conversion field is set."
	// Alternative URL templates (FL478) are checked by this server's choice
	// under their own field: Zulip's model code for them is not at hand.
	msgLinkifierAlternativeGroup = "Group '%s' in alternative URL template is not present in linkifier pattern."
)

// routesLinkifiers registers the linkifier endpoints that exist at the
// advertised feature level (GET FL54, update FL57, reorder FL202).
func (s *Server) routesLinkifiers() {
	fl := s.opts.FeatureLevel
	if fl >= 54 {
		s.handle("GET /realm/linkifiers", authUser, s.listLinkifiers)
	}
	if fl >= 202 {
		s.handle("PATCH /realm/linkifiers", authUser, withEvents(s.reorderLinkifiers, s.emitLinkifiers))
	}
	s.handle("POST /realm/filters", authUser, withEvents(s.createLinkifier, s.emitLinkifiers))
	if fl >= 57 {
		s.handle("PATCH /realm/filters/{filter_id}", authUser, withEvents(s.updateLinkifier, s.emitLinkifiers))
	}
	s.handle("DELETE /realm/filters/{filter_id}", authUser, withEvents(s.deleteLinkifier, s.emitLinkifiers))
}

// linkifiersWire renders the ordered linkifier list.
func (s *Server) linkifiersWire() []obj {
	out := make([]obj, 0, len(s.realm.Linkifiers))
	for _, l := range s.realm.Linkifiers {
		o := obj{"id": l.ID, "pattern": l.Pattern, "url_template": l.URLTemplate}
		if s.opts.FeatureLevel >= linkifierReverseFL {
			o["example_input"] = cfgOptionalString(l.ExampleInput)
			o["reverse_template"] = cfgOptionalString(l.ReverseTemplate)
		}
		if s.opts.FeatureLevel >= linkifierAlternativesFL {
			alts := l.AlternativeURLTemplates
			if alts == nil {
				alts = []string{}
			}
			o["alternative_url_templates"] = alts
		}
		out = append(out, o)
	}
	return out
}

// cfgOptionalString renders a *string as a JSON string or null.
func cfgOptionalString(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// listLinkifiers serves GET /realm/linkifiers (any user).
func (s *Server) listLinkifiers(c *call) (obj, error) {
	return obj{"linkifiers": s.linkifiersWire()}, nil
}

// createLinkifier serves POST /realm/filters; the new linkifier is appended.
func (s *Server) createLinkifier(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	l := &Linkifier{AlternativeURLTemplates: []string{}}
	if err := s.readLinkifierParams(c, l); err != nil {
		return nil, err
	}
	r := c.realm()
	if err := s.validateLinkifier(c, r, l, 0); err != nil {
		return nil, err
	}
	l.ID = r.newID("linkifier")
	r.Linkifiers = append(r.Linkifiers, l)
	return obj{"id": l.ID}, nil
}

// updateLinkifier serves PATCH /realm/filters/{filter_id}. pattern and url_template
// are required; absent optional fields keep their values, "" resets them to null.
func (s *Server) updateLinkifier(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	id, err := c.pathInt("filter_id")
	if err != nil {
		return nil, err
	}
	r := c.realm()
	var cur *Linkifier
	for _, l := range r.Linkifiers {
		if l.ID == id {
			cur = l
		}
	}
	next := Linkifier{AlternativeURLTemplates: []string{}}
	if cur != nil {
		next = *cur
	}
	if err := s.readLinkifierParams(c, &next); err != nil {
		return nil, err
	}
	if cur == nil {
		return nil, errBadRequest("Linkifier not found.")
	}
	if err := s.validateLinkifier(c, r, &next, id); err != nil {
		return nil, err
	}
	*cur = next
	return nil, nil
}

// deleteLinkifier serves DELETE /realm/filters/{filter_id}.
func (s *Server) deleteLinkifier(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	id, err := c.pathInt("filter_id")
	if err != nil {
		return nil, err
	}
	r := c.realm()
	for i, l := range r.Linkifiers {
		if l.ID == id {
			r.Linkifiers = append(r.Linkifiers[:i:i], r.Linkifiers[i+1:]...)
			return nil, nil
		}
	}
	return nil, errBadRequest("Linkifier not found.")
}

// reorderLinkifiers serves PATCH /realm/linkifiers (check_reorder_linkifiers).
func (s *Server) reorderLinkifiers(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	var ids []int
	if err := c.reqJSON("ordered_linkifier_ids", &ids); err != nil {
		return nil, err
	}
	seen := map[int]bool{}
	for _, id := range ids {
		if seen[id] {
			return nil, errBadRequest("The ordered list must not contain duplicated linkifiers")
		}
		seen[id] = true
	}
	r := c.realm()
	byID := map[int]*Linkifier{}
	for _, l := range r.Linkifiers {
		byID[l.ID] = l
	}
	if len(byID) != len(seen) {
		return nil, errBadRequest("The ordered list must enumerate all existing linkifiers exactly once")
	}
	ordered := make([]*Linkifier, 0, len(ids))
	for _, id := range ids {
		l := byID[id]
		if l == nil {
			return nil, errBadRequest("The ordered list must enumerate all existing linkifiers exactly once")
		}
		ordered = append(ordered, l)
	}
	r.Linkifiers = ordered
	return nil, nil
}

// readLinkifierParams reads the create/update parameters into l. Parameters newer
// than the server's feature level are not read, so that they are reported in
// ignored_parameters_unsupported as an older server would.
func (s *Server) readLinkifierParams(c *call, l *Linkifier) error {
	pattern, err := c.reqString("pattern")
	if err != nil {
		return err
	}
	tmpl, err := c.reqString("url_template")
	if err != nil {
		return err
	}
	l.Pattern, l.URLTemplate = strings.TrimSpace(pattern), strings.TrimSpace(tmpl)
	if s.opts.FeatureLevel >= linkifierReverseFL {
		// normalize_optional_text: values are stripped, and "" (or blank)
		// is no value.
		for name, dst := range map[string]**string{"example_input": &l.ExampleInput, "reverse_template": &l.ReverseTemplate} {
			if v, ok := c.optString(name); ok {
				*dst = normalizeOptionalText(v)
			}
		}
	}
	if s.opts.FeatureLevel >= linkifierAlternativesFL {
		var alts []string
		ok, err := c.optJSON("alternative_url_templates", &alts)
		if err != nil {
			return err
		}
		if ok {
			if alts == nil {
				alts = []string{}
			}
			l.AlternativeURLTemplates = alts
		}
	}
	return nil
}

// cfgFieldErrors collects Django-style validation errors by field, in the order a
// model's full_clean() reports them.
type cfgFieldErrors struct {
	fields []string
	msgs   map[string][]string
}

// add records msg for field.
func (e *cfgFieldErrors) add(field, msg string) {
	if e.msgs == nil {
		e.msgs = map[string][]string{}
	}
	if _, ok := e.msgs[field]; !ok {
		e.fields = append(e.fields, field)
	}
	e.msgs[field] = append(e.msgs[field], msg)
}

// has reports whether field has an error.
func (e *cfgFieldErrors) has(field string) bool { return len(e.msgs[field]) > 0 }

// err is Zulip's ValidationFailureError: 400 BAD_REQUEST, msg = the first message
// (fields in model order, then "__all__"), errors = {field: [messages]}; nil if clean.
func (e *cfgFieldErrors) err() error {
	if len(e.fields) == 0 {
		return nil
	}
	order := append([]string{}, e.fields...)
	sort.SliceStable(order, func(i, j int) bool { return order[i] != "__all__" && order[j] == "__all__" })
	errs := obj{}
	for f, m := range e.msgs {
		errs[f] = m
	}
	return errCode(http.StatusBadRequest, "BAD_REQUEST", e.msgs[order[0]][0], obj{"errors": errs})
}

// normalizeOptionalText is Zulip's normalize_optional_text: the stripped
// value, or nil when nothing is left.
func normalizeOptionalText(v string) *string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	return &v
}

// validateLinkifier runs RealmFilter.full_clean() (zerver/models/linkifiers.py):
// clean_fields() (blank pattern or URL template; url_template_validator; the
// pattern field itself has no validator), then clean(), whose first problem is
// reported under "__all__", then the (realm, pattern) uniqueness check.
// selfID is the id of the linkifier being updated (0 on create).
//
// Everything but the uniqueness check needs no realm state and may be slow
// (RE2 matches the pattern against the example input, and Zulip bounds
// neither: both are TextFields), so it runs without the server lock
// (offLock); the handler returns offLock's *waitError and runs again.
func (s *Server) validateLinkifier(c *call, r *Realm, l *Linkifier, selfID int) error {
	key, _ := json.Marshal(l)
	done, err := c.offLock("linkifier:"+string(key), func() any { return checkLinkifier(*l) })
	if err != nil {
		return err
	}
	checked, _ := done.(linkifierChecked)
	if checked.err != nil {
		return checked.err
	}
	e := checked.fields
	// validate_unique() skips fields that already failed.
	if !e.has("pattern") {
		for _, other := range r.Linkifiers {
			if other.ID != selfID && other.Pattern == l.Pattern {
				e.add("__all__", "Realm filter with this Realm and Pattern already exists.")
				break
			}
		}
	}
	return e.err()
}

// linkifierChecked is what full_clean() finds without the realm: the field
// and clean() errors, or the JsonableError that escapes full_clean().
type linkifierChecked struct {
	fields cfgFieldErrors
	err    error
}

// checkLinkifier runs the parts of full_clean() that need no realm state:
// clean_fields() and clean(). It touches nothing shared but the compiled
// pattern cache, so it runs without the server lock.
func checkLinkifier(l Linkifier) linkifierChecked {
	var e cfgFieldErrors
	// clean_fields(): Django skips the validators of blank fields.
	if l.Pattern == "" {
		e.add("pattern", "This field cannot be blank.")
	}
	if l.URLTemplate == "" {
		e.add("url_template", "This field cannot be blank.")
	} else if _, err := uritemplate.New(l.URLTemplate); err != nil {
		e.add("url_template", "Invalid URL template.")
	}
	validateLinkifierAlternatives(&e, &l)
	// clean() runs even when fields failed.
	msg, err := linkifierClean(&l)
	if err != nil {
		return linkifierChecked{err: err}
	}
	if msg != "" {
		e.add("__all__", msg)
	}
	return linkifierChecked{fields: e}
}

// linkifierClean is RealmFilter.clean(): it returns the message of the first
// ValidationError it raises, or the JsonableError that escapes full_clean().
func linkifierClean(l *Linkifier) (string, error) {
	re, reErr := linkifierCompile(l.Pattern)
	if reErr != "" {
		return reErr, nil
	}
	groups := map[string]bool{}
	for _, n := range re.SubexpNames() {
		if n != "" {
			groups[n] = true
		}
	}
	example, reverse := optionalText(l.ExampleInput), optionalText(l.ReverseTemplate)
	if reverse != nil && example == nil {
		return "", errBadRequest("%s", msgLinkifierReverseNeedsEx)
	}
	if example != nil {
		// pattern.search: the pattern may match anywhere in the example.
		loc := re.FindStringSubmatchIndex(*example)
		if loc == nil {
			return msgLinkifierExampleNoMatch, nil
		}
		if reverse != nil {
			values := map[string]string{}
			for i, n := range re.SubexpNames() {
				if n != "" && loc[2*i] >= 0 {
					values[n] = (*example)[loc[2*i]:loc[2*i+1]]
				}
			}
			out, msg := expandReverseTemplate(*reverse, values, groups)
			if msg != "" {
				return msg, nil
			}
			if out != *example {
				return msgLinkifierReverseMismatch, nil
			}
		}
	}
	// An invalid URL template is reported by its field validator only.
	names, ok := urlTemplateVars(l.URLTemplate)
	if !ok {
		return "", nil
	}
	vars := map[string]bool{}
	for _, v := range names {
		vars[v] = true
	}
	if name := cfgFirstMissing(vars, groups); name != "" {
		return "Group " + pyRepr(name) + " in URL template is not present in linkifier pattern.", nil
	}
	if name := cfgFirstMissing(groups, vars); name != "" {
		return "Group " + pyRepr(name) + " in linkifier pattern is not present in URL template.", nil
	}
	return "", nil
}

// urlTemplateVars returns the variables of an RFC 6570 URL template, and
// whether the template is valid (uri_template.validate).
func urlTemplateVars(tmpl string) ([]string, bool) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return nil, false
	}
	return t.Varnames(), true
}

// optionalText is normalize_optional_text for a stored value.
func optionalText(p *string) *string {
	if p == nil {
		return nil
	}
	return normalizeOptionalText(*p)
}

// validateLinkifierAlternatives checks alternative_url_templates (FL478):
// each must be a valid RFC 6570 template whose variables are named groups of
// the pattern. Reported under the field, in this server's words.
func validateLinkifierAlternatives(e *cfgFieldErrors, l *Linkifier) {
	re, reErr := linkifierCompile(l.Pattern)
	for _, alt := range l.AlternativeURLTemplates {
		t, err := uritemplate.New(alt)
		if err != nil || alt == "" {
			e.add("alternative_url_templates", "Invalid URL template.")
			continue
		}
		if reErr != "" {
			continue
		}
		groups := map[string]bool{}
		for _, n := range re.SubexpNames() {
			if n != "" {
				groups[n] = true
			}
		}
		vars := map[string]bool{}
		for _, v := range t.Varnames() {
			vars[v] = true
		}
		if name := cfgFirstMissing(vars, groups); name != "" {
			e.add("alternative_url_templates", strings.Replace(msgLinkifierAlternativeGroup, "%s", name, 1))
		}
	}
}

// pyRepr renders a string as Python's repr() does for the %(name)r of
// Zulip's messages: in single quotes, or double quotes when the string has a
// single quote and no double quote; backslashes and control characters
// escaped.
func pyRepr(s string) string {
	quote := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, c := range s {
		switch {
		case c == '\\' || c == rune(quote):
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// RE2's bound on a pattern (Zulip's filter_pattern_validator compiles it with
// re2.Options()' defaults): RE2::Init gives the forward program two thirds of
// max_mem (8 MiB), and Compiler::Setup allows as many 8-byte instructions as
// fit; a pattern that needs more is refused with "pattern too large - compile
// failed". Zulip bounds the pattern by nothing else (RealmFilter.pattern is a
// TextField). The count is Go's instructions for the simplified pattern,
// which equals RE2's for ASCII text and falls short of it for classes of
// multi-byte characters (RE2 compiles UTF-8 byte ranges), so the server
// refuses no pattern RE2 accepts.
const (
	re2MaxMem      = 8 << 20
	re2InstBytes   = 8
	re2MaxInsts    = re2MaxMem * 2 / 3 / re2InstBytes
	re2TooLarge    = "pattern too large - compile failed"
	compiledCached = 64 // patterns kept compiled (linkifierCompile)
)

// compiledPatterns caches linkifierCompile's results: messages' topic links
// compile every linkifier, under the server lock. Its own lock, because
// checkLinkifier runs without the server's.
var compiledPatterns = struct {
	sync.Mutex
	m map[string]compiledPattern
}{m: map[string]compiledPattern{}}

// compiledPattern is one result of linkifierCompile.
type compiledPattern struct {
	re  *regexp.Regexp
	msg string
}

// linkifierCompile compiles a pattern with RE2 semantics (Go's regexp is RE2).
// It returns the "Bad regular expression: ..." message on failure. RE2 also
// rejects duplicate group names, which Go accepts, and patterns whose program
// exceeds its memory budget (re2MaxInsts).
func linkifierCompile(pattern string) (*regexp.Regexp, string) {
	compiledPatterns.Lock()
	hit, ok := compiledPatterns.m[pattern]
	compiledPatterns.Unlock()
	if ok {
		return hit.re, hit.msg
	}
	re, msg := compilePattern(pattern)
	compiledPatterns.Lock()
	if len(compiledPatterns.m) >= compiledCached {
		clear(compiledPatterns.m)
	}
	compiledPatterns.m[pattern] = compiledPattern{re, msg}
	compiledPatterns.Unlock()
	return re, msg
}

// compilePattern is linkifierCompile without the cache.
func compilePattern(pattern string) (*regexp.Regexp, string) {
	if parsed, err := syntax.Parse(pattern, syntax.Perl); err == nil {
		if prog, err := syntax.Compile(parsed.Simplify()); err == nil && len(prog.Inst) > re2MaxInsts {
			return nil, "Bad regular expression: " + re2TooLarge
		}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		var serr *syntax.Error
		if errors.As(err, &serr) && serr.Code == syntax.ErrLarge {
			return nil, "Bad regular expression: " + re2TooLarge
		}
		return nil, "Bad regular expression: " + strings.TrimPrefix(err.Error(), "error parsing regexp: ")
	}
	seen := map[string]bool{}
	for _, n := range re.SubexpNames() {
		if n == "" {
			continue
		}
		if seen[n] {
			return nil, "Bad regular expression: duplicate capture group name: " + n
		}
		seen[n] = true
	}
	return re, ""
}

// expandReverseTemplate is Zulip's expand_reverse_template
// (zerver/models/linkifiers.py): "{{" and "}}" are literal braces, "{name}" is
// the value of a named group, and any other character (a lone "}" included)
// is copied. It stops at the first problem and returns its message. A group
// that did not take part in the match expands to "" here (Zulip would fail
// on its None).
func expandReverseTemplate(tmpl string, values map[string]string, groups map[string]bool) (out, msg string) {
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
				return "", msgLinkifierReverseNoBrace
			}
			name := tmpl[i+1 : i+1+end]
			if name == "" {
				return "", msgLinkifierReverseNoName
			}
			if !groups[name] {
				return "", fmt.Sprintf(msgLinkifierReverseGroup, pyRepr(name))
			}
			b.WriteString(values[name])
			i += end + 2
		default:
			b.WriteByte(tmpl[i])
			i++
		}
	}
	return b.String(), ""
}

// cfgFirstMissing returns the alphabetically first key of a that is not in b, or "".
func cfgFirstMissing(a, b map[string]bool) string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return ""
	}
	sort.Strings(out)
	return out[0]
}

// registerLinkifiers is register's realm_linkifiers section.
func (s *Server) registerLinkifiers(rr *registerRequest, out obj) {
	if rr.capability("linkifier_url_template") {
		out["realm_linkifiers"] = nonNilObjs(s.linkifiersWire())
	} else {
		out["realm_linkifiers"] = []obj{}
	}
}

// registerLegacyFilters is register's realm_filters section.
func (s *Server) registerLegacyFilters(rr *registerRequest, out obj) {
	out["realm_filters"] = []any{}
}

// seedLinkifiers adds the seeded linkifier.
func seedLinkifiers(r *Realm, _, _ int64) {
	r.Linkifiers = []*Linkifier{{
		ID: 1, Pattern: "#(?P<id>[0-9]+)", URLTemplate: "https://github.com/zulip/zulip/issues/{id}",
		AlternativeURLTemplates: []string{},
	}}
	r.NextID["linkifier"] = 1
}

// Linkifier is a realm filter.
type Linkifier struct {
	ID                      int      `json:"id"`
	Pattern                 string   `json:"pattern"`
	URLTemplate             string   `json:"url_template"`
	ExampleInput            *string  `json:"example_input"`
	ReverseTemplate         *string  `json:"reverse_template"`
	AlternativeURLTemplates []string `json:"alternative_url_templates"`
}
