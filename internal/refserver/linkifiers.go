package refserver

import (
	"net/http"
	"regexp"
	"sort"
	"strings"

	"github.com/yosida95/uritemplate/v3"
)

// Feature levels of the linkifier fields newer than the endpoints themselves.
const (
	linkifierReverseFL      = 471 // example_input, reverse_template
	linkifierAlternativesFL = 478 // alternative_url_templates
)

// Linkifier validation messages this server chose where Zulip's wording is not
// documented (digest §1, rule 6): they are reported under the named field.
const (
	msgLinkifierExampleNoMatch   = "Example input does not match the linkifier pattern."
	msgLinkifierReverseNeedsEx   = "Reverse template requires example input."
	msgLinkifierReverseInvalid   = "Invalid reverse template."
	msgLinkifierReverseMismatch  = "Reverse template does not reproduce the example input."
	msgLinkifierReverseGroup     = "Group '%s' in reverse template is not present in linkifier pattern."
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
		s.handle("PATCH /realm/linkifiers", authUser, s.reorderLinkifiers)
	}
	s.handle("POST /realm/filters", authUser, s.createLinkifier)
	if fl >= 57 {
		s.handle("PATCH /realm/filters/{filter_id}", authUser, s.updateLinkifier)
	}
	s.handle("DELETE /realm/filters/{filter_id}", authUser, s.deleteLinkifier)
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
	if err := s.validateLinkifier(r, l, 0); err != nil {
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
	if err := s.validateLinkifier(r, &next, id); err != nil {
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
		for name, dst := range map[string]**string{"example_input": &l.ExampleInput, "reverse_template": &l.ReverseTemplate} {
			if v, ok := c.optString(name); ok {
				if v == "" {
					*dst = nil
				} else {
					*dst = &v
				}
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

// validateLinkifier runs RealmFilter.full_clean(): field validators (blank
// fields, RE2 pattern, RFC 6570 template, the FL471/478 fields), clean() (named
// groups versus template variables) and the (realm, pattern) uniqueness check.
// selfID is the id of the linkifier being updated (0 on create).
func (s *Server) validateLinkifier(r *Realm, l *Linkifier, selfID int) error {
	var e cfgFieldErrors
	// clean_fields(): Django skips validators of blank fields.
	var re *regexp.Regexp
	var reErr string
	if l.Pattern == "" {
		e.add("pattern", "This field cannot be blank.")
		re = regexp.MustCompile("")
	} else if re, reErr = linkifierCompile(l.Pattern); reErr != "" {
		e.add("pattern", reErr)
	}
	var tmplVars []string
	tmplOK := true
	if l.URLTemplate == "" {
		e.add("url_template", "This field cannot be blank.")
	} else if t, err := uritemplate.New(l.URLTemplate); err != nil {
		e.add("url_template", "Invalid URL template.")
		tmplOK = false
	} else {
		tmplVars = t.Varnames()
	}
	groups := map[string]bool{}
	if re != nil {
		for _, n := range re.SubexpNames() {
			if n != "" {
				groups[n] = true
			}
		}
	}
	s.validateLinkifierReverse(&e, l, re, groups)

	// clean(): it compiles the pattern again (so a bad pattern is reported under
	// __all__ too), then compares the named groups with the template variables.
	if reErr != "" {
		e.add("__all__", reErr)
	} else if tmplOK {
		vars := map[string]bool{}
		for _, v := range tmplVars {
			vars[v] = true
		}
		if name := cfgFirstMissing(vars, groups); name != "" {
			e.add("__all__", "Group '"+name+"' in URL template is not present in linkifier pattern.")
		} else if name := cfgFirstMissing(groups, vars); name != "" {
			e.add("__all__", "Group '"+name+"' in linkifier pattern is not present in URL template.")
		}
	}
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

// validateLinkifierReverse checks example_input, reverse_template and
// alternative_url_templates (FL471/478; the wording is this server's choice).
func (s *Server) validateLinkifierReverse(e *cfgFieldErrors, l *Linkifier, re *regexp.Regexp, groups map[string]bool) {
	var values map[string]string
	if l.ExampleInput != nil && re != nil {
		values = linkifierFullMatch(re, *l.ExampleInput)
		if values == nil {
			e.add("example_input", msgLinkifierExampleNoMatch)
		}
	}
	if l.ReverseTemplate != nil {
		switch {
		case l.ExampleInput == nil:
			e.add("reverse_template", msgLinkifierReverseNeedsEx)
		case re == nil || values == nil:
			// The pattern or the example input is already reported.
		default:
			out, missing, ok := expandReverseTemplate(*l.ReverseTemplate, values, groups)
			switch {
			case !ok:
				e.add("reverse_template", msgLinkifierReverseInvalid)
			case missing != "":
				e.add("reverse_template", strings.Replace(msgLinkifierReverseGroup, "%s", missing, 1))
			case out != *l.ExampleInput:
				e.add("reverse_template", msgLinkifierReverseMismatch)
			}
		}
	}
	for _, alt := range l.AlternativeURLTemplates {
		t, err := uritemplate.New(alt)
		if err != nil || alt == "" {
			e.add("alternative_url_templates", "Invalid URL template.")
			continue
		}
		if re == nil {
			continue
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

// linkifierCompile compiles a pattern with RE2 semantics (Go's regexp is RE2).
// It returns the "Bad regular expression: ..." message on failure. RE2 also
// rejects duplicate group names, which Go accepts.
func linkifierCompile(pattern string) (*regexp.Regexp, string) {
	re, err := regexp.Compile(pattern)
	if err != nil {
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

// linkifierFullMatch matches s against the whole pattern and returns the named
// groups' values (an unmatched optional group is ""), or nil if s does not match.
func linkifierFullMatch(re *regexp.Regexp, s string) map[string]string {
	full, err := regexp.Compile(`^(?:` + re.String() + `)$`)
	if err != nil {
		return nil
	}
	m := full.FindStringSubmatch(s)
	if m == nil {
		return nil
	}
	values := map[string]string{}
	for i, n := range full.SubexpNames() {
		if n != "" {
			values[n] = m[i]
		}
	}
	return values
}

// expandReverseTemplate substitutes {name} variables; "{{" and "}}" are literal
// braces. ok is false for a malformed template; missing names the alphabetically
// first variable that is not a named group of the pattern.
func expandReverseTemplate(tmpl string, values map[string]string, groups map[string]bool) (out, missing string, ok bool) {
	var b strings.Builder
	var absent []string
	for i := 0; i < len(tmpl); i++ {
		switch c := tmpl[i]; {
		case c == '{' && i+1 < len(tmpl) && tmpl[i+1] == '{':
			b.WriteByte('{')
			i++
		case c == '}' && i+1 < len(tmpl) && tmpl[i+1] == '}':
			b.WriteByte('}')
			i++
		case c == '}':
			return "", "", false
		case c == '{':
			end := strings.IndexByte(tmpl[i+1:], '}')
			if end < 0 {
				return "", "", false
			}
			name := tmpl[i+1 : i+1+end]
			if name == "" || strings.ContainsAny(name, "{ ") {
				return "", "", false
			}
			if !groups[name] {
				absent = append(absent, name)
			}
			b.WriteString(values[name])
			i += end + 1
		default:
			b.WriteByte(c)
		}
	}
	if len(absent) > 0 {
		sort.Strings(absent)
		return "", absent[0], true
	}
	return b.String(), "", true
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
