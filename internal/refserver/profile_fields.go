package refserver

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// routesProfileFields registers the custom profile field and profile data endpoints.
func (s *Server) routesProfileFields() {}

// profileFieldsWire renders the custom profile fields, sorted by order.
func (s *Server) profileFieldsWire() []obj { return nil }

// profileFieldByID returns the realm's custom profile field with the id, or nil.
// Callers answer a nil with errBadRequest("Field id %d not found.", id), as Zulip does.
func (r *Realm) profileFieldByID(id int) *ProfileField {
	for _, f := range r.ProfileFields {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// validateProfileValue validates a value for a custom profile field as Zulip's
// validate_user_custom_profile_field does (digest §6.1) and returns the string to
// store. value is the decoded JSON value of a profile_data item: a string, a []any
// of numbers (USER fields), or nil.
//
// A nil, "" or empty-list value means "remove the value" (Zulip tests `not value`
// before validating): stored is "" and err is nil. Every error is a 400 BAD_REQUEST
// *apiError whose message names the field (or "User IDs" for USER fields).
// The caller checks the field's existence and editable_by_user itself.
func validateProfileValue(r *Realm, field *ProfileField, value any) (stored string, err error) {
	if profileValueEmpty(value) {
		return "", nil
	}
	name := field.Name
	switch field.Type {
	case FieldShortText, FieldExternalAccount, FieldPronouns:
		return profileCappedString(name, value, 50)
	case FieldLongText:
		return profileCappedString(name, value, 500)
	case FieldDate:
		s, ok := value.(string)
		if !ok {
			return "", errBadRequest("%s is not a string", name)
		}
		if !profileIsISODate(s) {
			return "", errBadRequest("%s is not a date", name)
		}
		return s, nil
	case FieldURL:
		s, ok := value.(string)
		if !ok {
			return "", errBadRequest("%s is not a string", name)
		}
		if !profileIsURL(s) {
			return "", errBadRequest("%s is not a URL", name)
		}
		return s, nil
	case FieldSelect:
		s, ok := value.(string)
		if !ok {
			return "", errBadRequest("%s is not a string", name)
		}
		var choices map[string]json.RawMessage
		if json.Unmarshal([]byte(field.FieldData), &choices) != nil || choices[s] == nil {
			return "", errBadRequest("'%s' is not a valid choice for '%s'.", s, name)
		}
		return s, nil
	case FieldUser:
		ids, err := profileUserIDs(r, value)
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(ids)
		return string(b), nil
	default:
		return "", errBadRequest("Invalid field type.")
	}
}

// profileValueEmpty reports whether a profile value is falsy in Python's sense.
func profileValueEmpty(value any) bool {
	switch v := value.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	case []int:
		return len(v) == 0
	}
	return false
}

// profileCappedString is Zulip's check_capped_string; lengths count code points.
func profileCappedString(name string, value any, limit int) (string, error) {
	s, ok := value.(string)
	if !ok {
		return "", errBadRequest("%s is not a string", name)
	}
	if utf8.RuneCountInString(s) > limit {
		return "", errBadRequest("%s is too long (limit: %d characters)", name, limit)
	}
	return s, nil
}

// profileIsISODate reports whether s is a date in strict YYYY-MM-DD form, i.e.
// Python's date.fromisoformat(s).isoformat() == s.
func profileIsISODate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	if s[:4] == "0000" { // Python's date.min is year 1
		return false
	}
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// profileUserIDs is Zulip's check_valid_user_ids (without deactivated users): a
// list of integers naming active, non-bot users of the realm.
func profileUserIDs(r *Realm, value any) ([]int, error) {
	var list []any
	switch v := value.(type) {
	case []any:
		list = v
	case []int:
		for _, n := range v {
			list = append(list, n)
		}
	default:
		return nil, errBadRequest("User IDs is not a list")
	}
	ids := make([]int, 0, len(list))
	for i, item := range list {
		n, ok := profileInt(item)
		if !ok {
			return nil, errBadRequest("User IDs[%d] is not an integer", i)
		}
		ids = append(ids, n)
	}
	var invalid []string
	for _, id := range ids {
		if r.Users[id] == nil {
			invalid = append(invalid, strconv.Itoa(id))
		}
	}
	if len(invalid) > 0 {
		return nil, errBadRequest("Invalid user IDs: %s", strings.Join(invalid, ", "))
	}
	for _, id := range ids {
		u := r.Users[id]
		if !u.IsActive {
			return nil, errBadRequest("User with ID %d is deactivated", id)
		}
		if u.IsBot {
			return nil, errBadRequest("User with ID %d is a bot", id)
		}
	}
	return ids, nil
}

// profileInt converts a decoded JSON number to an int, if it is integral.
func profileInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case float64:
		if n != math.Trunc(n) || math.IsInf(n, 0) || math.Abs(n) > 1<<53 {
			return 0, false
		}
		return int(n), true
	case json.Number:
		i, err := strconv.Atoi(string(n))
		return i, err == nil
	}
	return 0, false
}

// profileIsURL follows the rules of Django's URLValidator (schemes http, https,
// ftp and ftps; a host that is a domain name with a top-level domain, localhost,
// an IPv4 address or a bracketed IPv6 address; an optional port of up to 5 digits;
// no whitespace; at most 2048 characters).
func profileIsURL(s string) bool {
	if s == "" || len(s) > 2048 || strings.ContainsAny(s, " \t\r\n\v\f") {
		return false
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return false
	}
	switch strings.ToLower(scheme) {
	case "http", "https", "ftp", "ftps":
	default:
		return false
	}
	// Split the authority from the path, query or fragment.
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	if i := strings.LastIndex(authority, "@"); i >= 0 {
		userinfo := authority[:i]
		authority = authority[i+1:]
		user, pass, _ := strings.Cut(userinfo, ":")
		if user == "" || strings.ContainsAny(user, ":@/") || strings.ContainsAny(pass, ":@/") {
			return false
		}
	}
	host := authority
	if strings.HasPrefix(host, "[") {
		end := strings.Index(host, "]")
		if end < 0 {
			return false
		}
		ip6 := host[1:end]
		if ip6 == "" || strings.Trim(strings.ToLower(ip6), "0123456789abcdef:.") != "" {
			return false
		}
		host, authority = "", host[end+1:]
	} else if i := strings.LastIndex(host, ":"); i >= 0 {
		host, authority = host[:i], host[i:]
	} else {
		authority = ""
	}
	if authority != "" { // the port
		port := strings.TrimPrefix(authority, ":")
		if port == authority || port == "" || len(port) > 5 || strings.Trim(port, "0123456789") != "" {
			return false
		}
	}
	if host == "" {
		return strings.HasPrefix(rest, "[")
	}
	return profileIsHost(strings.ToLower(host))
}

// profileIsHost checks a lowercased host name or IPv4 address.
func profileIsHost(host string) bool {
	if host == "localhost" {
		return true
	}
	if profileIsIPv4(host) {
		return true
	}
	host = strings.TrimSuffix(host, ".") // a trailing dot is allowed
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return false
	}
	isAlnum := func(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0xa1 }
	for i, label := range labels {
		n := utf8.RuneCountInString(label)
		if n == 0 || n > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		last := i == len(labels)-1
		for _, c := range label {
			if c == '-' {
				continue
			}
			if last && !strings.HasPrefix(label, "xn--") && c >= '0' && c <= '9' {
				return false // a top-level domain has no digits
			}
			if !isAlnum(c) {
				return false
			}
		}
		if last && n < 2 {
			return false
		}
	}
	return true
}

// profileIsIPv4 reports whether s is a dotted-quad IPv4 address.
func profileIsIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 || strings.Trim(p, "0123456789") != "" || (len(p) > 1 && p[0] == '0') {
			return false
		}
		if n, _ := strconv.Atoi(p); n > 255 {
			return false
		}
	}
	return true
}

// profileFieldNotFound is the error for an unknown field id.
func profileFieldNotFound(id int) error {
	return errBadRequest("Field id %s not found.", fmt.Sprint(id))
}
