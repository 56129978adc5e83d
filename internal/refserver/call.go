package refserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
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

// call is one API request being served. A handler runs with the server lock
// held and never writes to the network: it returns its payload, and the core
// turns it into a response that is written after the lock is released.
type call struct {
	s    *Server
	r    *http.Request
	user *User // the authenticated caller; nil for authNone routes
	// params holds query-string and body parameters; used records the names a
	// handler read, so that the rest can be reported in ignored_parameters_unsupported.
	params url.Values
	used   map[string]bool
	// files are the files of a multipart body (Django's request.FILES).
	files []uploadedFile
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

// errInvalid is a typed-parameter validation failure for the named
// parameter: zerver/lib/typed_endpoint.py parse_value_for_parameter raises
// ApiParamValidationError, a plain JsonableError (400 BAD_REQUEST) whose message
// comes from ERROR_TEMPLATES and which carries no var_name.
func errInvalid(msg string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: "BAD_REQUEST", Msg: msg}
}

// errInvalidJSON is answered when a Json[...] parameter is not valid JSON:
// pydantic's json_invalid, "{var_name} is not valid JSON" (typed_endpoint's
// ERROR_TEMPLATES), a plain 400 BAD_REQUEST.
func errInvalidJSON(name string) *apiError {
	return errInvalid(name + " is not valid JSON")
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

// maxBodyBytes is the largest request body the server accepts: nginx's
// client_max_body_size in Zulip's production configuration (80m, set in
// puppet/zulip/templates/nginx.conf.template.erb; it was 25m before Zulip 6).
// A larger body is refused with nginx's 413 page before Django sees it, so the
// request is not processed at all. (Django's own DATA_UPLOAD_MAX_MEMORY_SIZE,
// 2.5 MB for non-file form data, makes real Zulip answer an oversize
// url-encoded body with a 500 "Internal server error" through JsonErrorHandler;
// that is a server bug a client cannot act on, so it is not reproduced.)
const maxBodyBytes = 80 << 20

// errBodyTooLarge is returned by parseParams for a body over the limit.
var errBodyTooLarge = errors.New("request body too large")

// parseParams reads the query string and, for form bodies of methods whose
// body Django parses, the body. Parsing follows Django's QueryDict and
// MultiPartParser rather than Go's stricter net/url:
//   - a GET or HEAD body is never read as parameters (Django fills
//     request.POST only for POST, and zerver/lib/rest.py's process_as_post
//     does it for PUT, PATCH and DELETE);
//   - an empty multipart/form-data body is an empty form (Django's
//     MultiPartParser returns empty dicts when CONTENT_LENGTH is 0; Go's
//     multipart reader calls it an unexpected EOF);
//   - url-encoded text is split on "&" only and malformed escapes are kept as
//     they are (Python's parse_qsl), never an error.
//
// A body over limit is errBodyTooLarge; other errors are malformed bodies.
// The files of a multipart body are Django's request.FILES, not parameters.
func parseParams(r *http.Request, limit int64) (url.Values, []uploadedFile, error) {
	vals := parseQueryLenient(r.URL.RawQuery)
	if r.Body == nil || r.Body == http.NoBody {
		return vals, nil, nil
	}
	if r.ContentLength > limit {
		return nil, nil, errBodyTooLarge
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, nil, errBodyTooLarge
		}
		return nil, nil, err
	}
	if int64(len(body)) > limit {
		return nil, nil, errBodyTooLarge
	}
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return vals, nil, nil
	}
	ct, ctParams, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var form url.Values
	var files []uploadedFile
	switch ct {
	case "application/x-www-form-urlencoded":
		form = parseQueryLenient(string(body))
	case "multipart/form-data":
		if len(body) == 0 {
			return vals, nil, nil
		}
		boundary := ctParams["boundary"]
		if boundary == "" {
			return nil, nil, errors.New("multipart body without a boundary")
		}
		// The body is in memory already; a limit above its size keeps every
		// part in memory (no temporary files).
		mf, err := multipart.NewReader(bytes.NewReader(body), boundary).ReadForm(int64(len(body)) + 1)
		if err != nil {
			return nil, nil, err
		}
		defer func() { _ = mf.RemoveAll() }()
		form = mf.Value
		if files, err = readFiles(mf); err != nil {
			return nil, nil, err
		}
	}
	for k, v := range form {
		vals[k] = v // the body wins over the query string, as in Django's REQ
	}
	return vals, files, nil
}

// uploadedFile is one file of a multipart body (Django's UploadedFile).
type uploadedFile struct {
	Field, Filename, ContentType string
	Data                         []byte
}

// readFiles reads a multipart form's files, in field-name order.
func readFiles(mf *multipart.Form) ([]uploadedFile, error) {
	var out []uploadedFile
	for _, field := range slices.Sorted(maps.Keys(mf.File)) {
		for _, fh := range mf.File[field] {
			f, err := fh.Open()
			if err != nil {
				return nil, err
			}
			data, err := io.ReadAll(f)
			_ = f.Close()
			if err != nil {
				return nil, err
			}
			out = append(out, uploadedFile{Field: field, Filename: fh.Filename, ContentType: fh.Header.Get("Content-Type"), Data: data})
		}
	}
	return out, nil
}

// parseQueryLenient parses url-encoded text the way Python's parse_qsl (with
// keep_blank_values, as Django's QueryDict calls it) does: pairs are separated
// by "&" only, a pair without "=" has an empty value, empty pairs are skipped,
// "+" is a space, and a "%" not followed by two hex digits stays as it is.
// Invalid UTF-8 is replaced by U+FFFD, as QueryDict's errors="replace" does.
func parseQueryLenient(s string) url.Values {
	vals := url.Values{}
	for _, pair := range strings.Split(s, "&") {
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		name, value = unquotePlusLenient(name), unquotePlusLenient(value)
		vals[name] = append(vals[name], value)
	}
	return vals
}

// unquotePlusLenient is Python's urllib.parse.unquote_plus with errors="replace".
func unquotePlusLenient(s string) string {
	if !strings.ContainsAny(s, "%+") && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			b.WriteByte(' ')
		case c == '%' && i+2 < len(s) && isHexDigit(s[i+1]) && isHexDigit(s[i+2]):
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return strings.ToValidUTF8(b.String(), "\uFFFD")
}

// isHexDigit reports whether c is a hexadecimal digit.
func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// unhex is the value of the hexadecimal digit c.
func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
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
		return true, errInvalid(typeErrorMessage(name, v, dst))
	}
	return true, nil
}

// typeErrorMessage words the first mismatch between a JSON text and the Go
// type dst points to as pydantic's strict validation and typed_endpoint do:
// the location appended to the parameter's name as [0] or ["key"], then
// "is not a boolean", "is not an integer", "is not a string", "is not a list"
// or "is not a dict" (ERROR_TEMPLATES: bool_type, int_type, string_type,
// list_type, dict_type). A JSON number with a fraction or an exponent is a
// float, never an int, in strict mode.
func typeErrorMessage(name, text string, dst any) string {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return name + " is not valid JSON"
	}
	if msg := firstTypeError(name, v, reflect.TypeOf(dst).Elem()); msg != "" {
		return msg
	}
	return "Invalid " + name // a value of the right shape Go still refused (e.g. out of range)
}

// firstTypeError walks v against t depth-first, in order, and words the first
// mismatch; "" when v fits t.
func firstTypeError(at string, v any, t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return at + " is not a boolean"
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		if !ok || strings.ContainsAny(n.String(), ".eE") {
			return at + " is not an integer"
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return at + " is not a string"
		}
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return at + " is not a list"
		}
		for i, el := range list {
			if msg := firstTypeError(fmt.Sprintf("%s[%d]", at, i), el, t.Elem()); msg != "" {
				return msg
			}
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return at + " is not a dict"
		}
		// pydantic takes the keys in the text's order, which the decoded map
		// has lost; sorted order is the stand-in.
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			key, _ := json.Marshal(k)
			if msg := firstTypeError(fmt.Sprintf("%s[%s]", at, key), m[k], t.Elem()); msg != "" {
				return msg
			}
		}
	}
	return ""
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

// pathInt reads an integer path parameter. Zulip's URL patterns declare these
// as <int:name> (zproject/urls.py), Django's converter for [0-9]+, so a path
// whose segment is anything else matches no route at all: Django answers its
// HTML 404 page. errNoRoute makes the core answer that page. (Zulip resolves
// the URL before authenticating; this server authenticates first, so bad
// credentials on such a path are a 401 here rather than a 404.) Digits beyond
// the range of int name no object, as Django 5's out-of-range lookups find
// none; they are passed on as math.MaxInt, an id nothing has.
func (c *call) pathInt(name string) (int, error) {
	v := c.r.PathValue(name)
	if !isAllDigits(v) {
		return 0, errNoRoute
	}
	n, err := strconv.Atoi(v)
	if errors.Is(err, strconv.ErrRange) {
		n = math.MaxInt
	}
	return n, nil
}

// errNoRoute is returned by a handler for a request that Zulip's URL patterns
// would not have routed to it; the core answers Django's 404 page.
var errNoRoute = errors.New("no route matches the path")

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

// response is an answer composed in full (status, headers, body) before
// anything is written, so that it can be built under the server lock and
// written after the lock is released: a client that reads slowly, or not at
// all, then delays only its own answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// jsonResponse is a JSON answer. Zulip ends its JSON bodies with a newline
// too (orjson.OPT_APPEND_NEWLINE in zerver/lib/response.py).
func jsonResponse(status int, body any) *response {
	data, err := json.Marshal(body)
	if err != nil {
		// Payloads are built from JSON-safe values; this cannot happen.
		data = []byte(`{"result":"error","msg":"Internal server error","code":"INTERNAL_SERVER_ERROR"}`)
		status = http.StatusInternalServerError
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	return &response{status: status, header: h, body: append(data, '\n')}
}

// htmlResponse is an HTML page (Django's and nginx's error pages).
func htmlResponse(status int, page string) *response {
	h := http.Header{}
	h.Set("Content-Type", "text/html; charset=utf-8")
	return &response{status: status, header: h, body: []byte(page)}
}

// errorResponse is a Zulip error envelope (json_response_from_error in
// zerver/lib/response.py): result, msg, code and the error's data fields.
// A 405 is never a JsonableError in Zulip: it is json_method_not_allowed,
// whose shape methodNotAllowed builds, so an *apiError with status 405 (from
// any handler) is answered in that shape.
func errorResponse(e *apiError) *response {
	if e.Status == http.StatusMethodNotAllowed {
		allowed, _ := e.Extra["allowed_methods"].([]string)
		allowed = append([]string(nil), allowed...)
		if containsString(allowed, http.MethodGet) && !containsString(allowed, http.MethodHead) {
			allowed = append(allowed, http.MethodHead) // rest.py: supported_methods.setdefault("HEAD", ...)
		}
		return methodNotAllowed(allowed)
	}
	body := obj{}
	for k, v := range e.Extra {
		body[k] = v
	}
	body["result"] = "error"
	body["msg"] = e.Msg
	body["code"] = e.Code
	resp := jsonResponse(e.Status, body)
	if e.Status == http.StatusUnauthorized {
		resp.header.Set("WWW-Authenticate", `Basic realm="zulip"`)
	}
	return resp
}

// writeError writes a Zulip error envelope at once; for answers that are not
// built under the server lock.
func (s *Server) writeError(w http.ResponseWriter, e *apiError) {
	s.send(w, errorResponse(e))
}

// successResponse is a Zulip success envelope around payload.
func (c *call) successResponse(payload obj) *response {
	body := obj{}
	for k, v := range payload {
		body[k] = v
	}
	body["result"] = "success"
	body["msg"] = ""
	if unused := c.unusedParams(); len(unused) > 0 && reportsIgnoredParams(c.r.Pattern) {
		body["ignored_parameters_unsupported"] = unused
	}
	resp := jsonResponse(http.StatusOK, body)
	for k, v := range c.header {
		resp.header[k] = v
	}
	return resp
}

// send writes a composed answer. It runs without the server lock. The write
// gets a deadline of its own (nginx's send_timeout, s.sendTimeout), whatever
// the http.Server's timeouts, and is flushed so that a failure to deliver it
// is seen here and reported in the request log rather than lost in a buffer.
func (s *Server) send(w http.ResponseWriter, resp *response) {
	h := w.Header()
	for k, v := range resp.header {
		h[k] = v
	}
	if resp.status != http.StatusNoContent && resp.status != http.StatusNotModified {
		h.Set("Content-Length", strconv.Itoa(len(resp.body)))
	}
	rc := http.NewResponseController(w)
	if s.sendTimeout > 0 {
		// Unsupported by some writers (httptest's recorder): then there is no deadline to set.
		_ = rc.SetWriteDeadline(time.Now().Add(s.sendTimeout))
	}
	w.WriteHeader(resp.status)
	if len(resp.body) > 0 {
		if _, err := w.Write(resp.body); err != nil {
			return // the request log's recorder has the error
		}
	}
	_ = rc.Flush() // likewise
}

// trimmedLower is strings.ToLower(strings.TrimSpace(s)).
func trimmedLower(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
