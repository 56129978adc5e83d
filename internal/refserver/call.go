package refserver

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// obj is a JSON object payload; a success answer merges it into the envelope.
type obj = map[string]any

// authMode says who may call a route.
type authMode int

const (
	// authNone: no credentials needed (server_settings, dev_fetch_api_key).
	authNone authMode = iota
	// authUser: any active user of the realm, bots included.
	authUser
)

// handlerFunc serves one API route. It returns the success payload (may be nil)
// or an error; an *apiError is answered as is, anything else as a 500.
type handlerFunc func(c *call) (obj, error)

// call is one API request being served.
type call struct {
	s    *Server
	r    *http.Request
	w    http.ResponseWriter
	user *User // the authenticated caller; nil for authNone routes
	// params holds query-string and body parameters; used records the names a
	// handler read, so that the rest can be reported in ignored_parameters_unsupported.
	params url.Values
	used   map[string]bool
	// header holds extra headers to send with the answer.
	header http.Header
}

// realm returns the realm (the server lock is held while a handler runs).
func (c *call) realm() *Realm { return c.s.realm }

// apiError is a Zulip error answer.
type apiError struct {
	Status int
	Code   string
	Msg    string
	Extra  obj
}

// Error implements error.
func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Msg) }

// errBadRequest is Zulip's default JsonableError: 400 BAD_REQUEST.
func errBadRequest(format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: "BAD_REQUEST", Msg: fmt.Sprintf(format, args...)}
}

// errNotFound is ResourceNotFoundError: 404 with code BAD_REQUEST.
func errNotFound(msg string) *apiError {
	return &apiError{Status: http.StatusNotFound, Code: "BAD_REQUEST", Msg: msg}
}

// errCode is an error with a specific code, status and extra fields.
func errCode(status int, code, msg string, extra obj) *apiError {
	return &apiError{Status: status, Code: code, Msg: msg, Extra: extra}
}

// errMissing is MissingArgumentError.
func errMissing(name string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: "REQUEST_VARIABLE_MISSING",
		Msg: fmt.Sprintf("Missing '%s' argument", name), Extra: obj{"var_name": name}}
}

// errInvalid is a typed-parameter validation failure for the named parameter.
func errInvalid(name, msg string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: "REQUEST_VARIABLE_INVALID", Msg: msg,
		Extra: obj{"var_name": name}}
}

// errInvalidJSON is answered when a JSON-encoded parameter is not valid JSON.
func errInvalidJSON(name string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: "INVALID_JSON",
		Msg: fmt.Sprintf("Argument \"%s\" is not valid JSON.", name), Extra: obj{"var_name": name}}
}

// errPrincipal is Organization{Member,Administrator,Owner}RequiredError; role is
// "member", "administrator" or "owner".
func errPrincipal(role string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: "UNAUTHORIZED_PRINCIPAL",
		Msg: "Must be an organization " + role}
}

// requireAdmin fails unless the caller is an administrator or owner.
func (c *call) requireAdmin() error {
	if !c.user.IsAdmin() {
		return errPrincipal("administrator")
	}
	return nil
}

// requireOwner fails unless the caller is an owner.
func (c *call) requireOwner() error {
	if c.user.Role != RoleOwner {
		return errPrincipal("owner")
	}
	return nil
}

// requireHuman fails for bots, as Zulip's human_users_only does.
func (c *call) requireHuman() error {
	if c.user.IsBot {
		return errBadRequest("This endpoint does not accept bot requests.")
	}
	return nil
}

// parseParams reads the query string and, for form bodies, the body.
func parseParams(r *http.Request) (url.Values, error) {
	vals := url.Values{}
	for k, v := range r.URL.Query() {
		vals[k] = append(vals[k], v...)
	}
	if r.Body == nil {
		return vals, nil
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/x-www-form-urlencoded":
		body, err := io.ReadAll(io.LimitReader(r.Body, 10<<20))
		if err != nil {
			return nil, err
		}
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, err
		}
		for k, v := range form {
			vals[k] = v // the body wins over the query string, as in Django's REQ
		}
	case "multipart/form-data":
		if err := r.ParseMultipartForm(10 << 20); err != nil {
			return nil, err
		}
		for k, v := range r.MultipartForm.Value {
			vals[k] = v
		}
	}
	return vals, nil
}

// raw returns a parameter's raw value and marks it as used.
func (c *call) raw(name string) (string, bool) {
	c.used[name] = true
	v, ok := c.params[name]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

// optString returns a plain string parameter.
func (c *call) optString(name string) (string, bool) { return c.raw(name) }

// reqString returns a required plain string parameter.
func (c *call) reqString(name string) (string, error) {
	v, ok := c.raw(name)
	if !ok {
		return "", errMissing(name)
	}
	return v, nil
}

// optJSON decodes a JSON-encoded parameter into dst; ok is false when absent.
// what names the expected type in the error ("a list", "an integer", ...).
func (c *call) optJSON(name string, dst any) (bool, error) {
	v, ok := c.raw(name)
	if !ok {
		return false, nil
	}
	if !json.Valid([]byte(v)) {
		return true, errInvalidJSON(name)
	}
	if err := json.Unmarshal([]byte(v), dst); err != nil {
		return true, errInvalid(name, fmt.Sprintf("%s is not %s", name, describeJSONType(dst)))
	}
	return true, nil
}

// reqJSON decodes a required JSON-encoded parameter into dst.
func (c *call) reqJSON(name string, dst any) error {
	ok, err := c.optJSON(name, dst)
	if err != nil {
		return err
	}
	if !ok {
		return errMissing(name)
	}
	return nil
}

// optBool reads a JSON boolean parameter with a default.
func (c *call) optBool(name string, def bool) (bool, error) {
	var b bool
	ok, err := c.optJSON(name, &b)
	if err != nil || !ok {
		return def, err
	}
	return b, nil
}

// reqInt reads a required JSON integer parameter.
func (c *call) reqInt(name string) (int, error) {
	var n int
	err := c.reqJSON(name, &n)
	return n, err
}

// pathInt reads an integer path parameter; a non-integer is the given error.
func (c *call) pathInt(name string) (int, error) {
	v := c.r.PathValue(name)
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, errInvalid(name, fmt.Sprintf("%s is not an integer", name))
	}
	return n, nil
}

// describeJSONType names the expected JSON type of dst in Zulip's words.
func describeJSONType(dst any) string {
	switch dst.(type) {
	case *bool:
		return "a boolean"
	case *int, *int64:
		return "an integer"
	case *string:
		return "a string"
	case *[]int, *[]string, *[]any:
		return "a list"
	case *map[string]any, *map[string]bool:
		return "a dict"
	default:
		return "valid"
	}
}

// unusedParams lists the parameters no handler read, sorted.
func (c *call) unusedParams() []string {
	var out []string
	for k := range c.params {
		if !c.used[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// writeJSON writes a JSON answer.
func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// writeError writes a Zulip error envelope.
func writeError(w http.ResponseWriter, e *apiError) {
	body := obj{}
	for k, v := range e.Extra {
		body[k] = v
	}
	body["result"] = "error"
	body["msg"] = e.Msg
	body["code"] = e.Code
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="zulip"`)
	}
	writeJSON(w, e.Status, body)
}

// writeSuccess writes a Zulip success envelope around payload.
func (c *call) writeSuccess(payload obj) {
	body := obj{}
	for k, v := range payload {
		body[k] = v
	}
	body["result"] = "success"
	body["msg"] = ""
	if unused := c.unusedParams(); len(unused) > 0 {
		body["ignored_parameters_unsupported"] = unused
	}
	for k, v := range c.header {
		c.w.Header()[k] = v
	}
	writeJSON(c.w, http.StatusOK, body)
}

// trimmedLower is strings.ToLower(strings.TrimSpace(s)).
func trimmedLower(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
