package refserver

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver/smsserver"
)

// serverExt holds the server's machinery beyond the realm: the rate limiter,
// fault injection and the SMS API.
type serverExt struct {
	limiter *rateLimiter         // nil when rate limiting is off
	faults  *faultInjector       // nil when no fault is configured
	sms     *smsserver.Server    // the SMS conversations API under /a1/
	logf    func(string, ...any) // never nil
}

// init seeds the realm or loads it from the state file, restores the SMS API's
// state, and writes the state file once so that it exists from the start.
func (s *Server) init() error {
	s.ext.logf = func(string, ...any) {}
	if s.opts.Logger != nil {
		s.ext.logf = s.opts.Logger.Printf
	}
	s.ext.limiter = newRateLimiter(s.opts.RateLimit)
	s.ext.faults = newFaultInjector(s.opts.Faults, s.opts.Seed)
	s.ext.sms = smsserver.New(smsserver.Options{
		Username:   s.opts.SMSUsername,
		Password:   s.opts.SMSPassword,
		Clock:      s.opts.Clock,
		HTTPClient: s.opts.HTTPClient,
		Logf:       s.ext.logf,
		OnChange:   s.smsChanged,
	})
	var realm *Realm
	if s.opts.StateFile != "" {
		removed, err := removeStaleTemps(s.opts.StateFile)
		for _, name := range removed {
			s.ext.logf("refserver: removed %s, a temporary file left by a server that was killed", name)
		}
		if err != nil {
			return err
		}
		r, ok, err := loadState(s.opts.StateFile)
		if err != nil {
			return err
		}
		if ok {
			realm = r
			if err := s.restoreSMS(r); err != nil {
				return err
			}
		}
	}
	if realm == nil {
		realm = seedRealm(s.opts.Host, s.now())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.realm = realm
	return s.persistLocked()
}

// smsChanged persists the SMS API's state after each of its changes. The SMS
// server calls it synchronously, before it answers the request that made the
// change, so an acknowledged SMS change is on disk too.
func (s *Server) smsChanged() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.realm == nil { // during init
		return
	}
	if err := s.persistLocked(); err != nil {
		s.ext.logf("refserver: %v", err)
	}
}

// wrap turns a handlerFunc into an http.Handler: parameter parsing, the lock,
// authentication, rate limiting, the envelope, ignored_parameters_unsupported,
// and persistence before the answer.
//
// The body is read before the lock is taken, and the answer is composed in
// full under the lock and written after it is released: no client, however
// slow its upload or its reading, holds the lock while the network is used.
func (s *Server) wrap(auth authMode, h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		params, files, err := parseParams(r, s.maxBodyBytes)
		if errors.Is(err, errBodyTooLarge) {
			s.send(w, nginxPage(http.StatusRequestEntityTooLarge, "Request Entity Too Large", ""))
			return
		}
		if err != nil {
			s.writeError(w, errBadRequest("Malformed request body"))
			return
		}
		if resp := s.serveLocked(r, auth, h, params, files); resp != nil {
			s.send(w, resp)
		}
	})
}

// serveLocked runs one API request under the server lock and returns its
// answer; nil when the client went away while the request waited.
//
// A handler that has nothing to answer yet (a long poll of GET /events) returns
// a *waitError: the lock is released while the request waits, then the handler
// runs again with the same parameters, caller and rate-limit headers.
func (s *Server) serveLocked(r *http.Request, auth authMode, h handlerFunc, params url.Values, files []uploadedFile) *response {
	s.mu.Lock()
	c, limitHeaders, resp := s.admit(r, auth, params, files)
	for resp == nil {
		payload, err := h(c)
		var wait *waitError
		if errors.As(err, &wait) {
			s.mu.Unlock()
			woke := wait.wait(r.Context())
			s.mu.Lock()
			if !woke {
				s.mu.Unlock()
				return nil
			}
			continue
		}
		resp = s.answer(c, limitHeaders, payload, err)
	}
	s.mu.Unlock()
	return resp
}

// admit authenticates and rate-limits a request (with the lock held); resp is
// the refusal, if any.
func (s *Server) admit(r *http.Request, auth authMode, params url.Values, files []uploadedFile) (c *call, limitHeaders http.Header, resp *response) {
	c = &call{s: s, r: r, params: params, files: files, used: map[string]bool{}, header: http.Header{}}
	if auth == authUser {
		user, aerr := s.authenticate(r)
		if aerr != nil {
			// No rate limit applies to a request that failed authentication:
			// rate_limit_user runs only after validate_api_key succeeded
			// (zerver/decorator.py), so the answer has no X-RateLimit headers.
			return nil, nil, errorResponse(aerr)
		}
		c.user = user
		// Zulip rate-limits authenticated API requests per user (domain
		// api_by_user). The unauthenticated endpoints this server serves
		// (server_settings, fetch_api_key, dev_fetch_api_key) are plain Django
		// views without rate_limit_user or rate_limit_request_by_ip
		// (zerver/views/auth.py), so they are neither limited nor given
		// rate-limit headers.
		if s.ext.limiter != nil {
			d := s.ext.limiter.take("user:"+strconv.Itoa(user.ID), s.now())
			limitHeaders = http.Header{}
			d.setHeaders(limitHeaders)
			if !d.allowed {
				return nil, nil, withHeaders(rateLimitedResponse(d.retryAfter), limitHeaders)
			}
		}
	}
	return c, limitHeaders, nil
}

// answer turns a handler's result into the response (with the lock held),
// persisting the realm after a change.
func (s *Server) answer(c *call, limitHeaders http.Header, payload obj, err error) *response {
	r := c.r
	mutating := r.Method != http.MethodGet && r.Method != http.MethodHead
	if err != nil {
		if errors.Is(err, errNoRoute) {
			return djangoNotFound()
		}
		var ae *apiError
		if !errors.As(err, &ae) {
			s.ext.logf("refserver: %s %s: internal error: %v", r.Method, r.URL.Path, err)
			ae = errCode(http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "Internal server error", nil)
		}
		if mutating {
			// Handlers validate before they change anything, so this is
			// normally a no-op rewrite; it keeps the file equal to memory
			// should one ever change something and then fail.
			if perr := s.persistLocked(); perr != nil {
				s.ext.logf("refserver: %v", perr)
			}
		}
		return withHeaders(errorResponse(ae), limitHeaders)
	}
	if mutating {
		if perr := s.persistLocked(); perr != nil {
			s.ext.logf("refserver: %v", perr)
			return withHeaders(errorResponse(errCode(http.StatusInternalServerError, "INTERNAL_SERVER_ERROR",
				"Internal server error: the change could not be saved", nil)), limitHeaders)
		}
	}
	return withHeaders(c.successResponse(payload), limitHeaders)
}

// withHeaders adds h (which may be nil) to resp's headers and returns resp.
func withHeaders(resp *response, h http.Header) *response {
	for k, v := range h {
		resp.header[k] = v
	}
	return resp
}

// authenticate checks HTTP Basic credentials: the user's e-mail address (the
// delivery address, case-insensitively) and API key.
//
// It follows Zulip's REST path (zerver/lib/rest.py rest_dispatch, then
// zerver/decorator.py get_basic_credentials, authenticated_rest_api_view and
// validate_api_key / access_user_by_api_key / validate_account_and_subdomain):
//   - no Authorization header: MissingAuthenticationError, 401 UNAUTHORIZED;
//   - a header that does not split into a scheme and one value, or whose value
//     is not base64 of "email:key": 401 "Invalid authorization header for basic
//     auth" (the ValueError branch);
//   - another scheme: JsonableError, 400 BAD_REQUEST "This endpoint requires HTTP
//     basic authentication.";
//   - every failure of validate_api_key is turned into json_unauthorized(e.msg):
//     401 with code UNAUTHORIZED and Zulip's message ("Malformed API key",
//     "Invalid API key", "This organization has been deactivated", "Account is
//     deactivated"). The specific codes INVALID_API_KEY, USER_DEACTIVATED and
//     REALM_DEACTIVATED appear only on the fetch_api_key views;
//   - last, an incoming webhook bot's key is refused on every route but those
//     open to webhooks (webhookRoutes), with the same 401.
//
// Every 401 carries WWW-Authenticate: Basic realm="zulip" (errorResponse).
func (s *Server) authenticate(r *http.Request) (*User, *apiError) {
	header, present := r.Header["Authorization"]
	if !present {
		return nil, errCode(http.StatusUnauthorized, "UNAUTHORIZED",
			"Not logged in: API authentication or user session required", nil)
	}
	email, key, aerr := basicCredentials(strings.Join(header, ","))
	if aerr != nil {
		return nil, aerr
	}
	unauthorized := func(msg string) *apiError { return errCode(http.StatusUnauthorized, "UNAUTHORIZED", msg, nil) }
	email, key = strings.TrimSpace(email), strings.TrimSpace(key)
	if !validAPIKeyFormat(key) {
		return nil, unauthorized("Malformed API key")
	}
	u := s.realm.userByEmail(email)
	if u == nil || u.APIKey != key {
		return nil, unauthorized("Invalid API key")
	}
	if s.realm.Deactivated {
		return nil, unauthorized("This organization has been deactivated")
	}
	if !u.IsActive {
		return nil, unauthorized("Account is deactivated")
	}
	if u.isIncomingWebhookBot() && !webhookRoutes[routeOf(r)] {
		return nil, unauthorized(errIncomingWebhookBotMsg)
	}
	return u, nil
}

// errIncomingWebhookBotMsg is validate_api_key's refusal of an incoming
// webhook bot's key on a route without allow_incoming_webhooks
// (zerver/decorator.py); authenticated_rest_api_view turns the JsonableError
// into json_unauthorized, a 401 UNAUTHORIZED without rate-limit headers.
const errIncomingWebhookBotMsg = "This API is not available to incoming webhook bots."

// webhookRoutes are the REST routes an incoming webhook bot may call: those
// whose rest_path in zproject/urls.py carries the view flag
// allow_incoming_webhooks, which rest_dispatch (zerver/lib/rest.py) passes to
// authenticated_rest_api_view as allow_webhook_access. Newest Zulip gives it
// to one route, sending a message (send_message_backend); the integrations'
// own URLs (/api/v1/external/...), which take the key as a parameter, are not
// served here.
var webhookRoutes = map[string]bool{"POST /messages": true}

// routeOf is the route a request matched, as the areas register it: "POST
// /messages" for the mux pattern "POST /api/v1/messages" (or /json/...).
func routeOf(r *http.Request) string {
	method, path, ok := strings.Cut(r.Pattern, " ")
	if !ok {
		return ""
	}
	for _, prefix := range []string{"/api/v1", "/json"} {
		if rest, ok := strings.CutPrefix(path, prefix); ok {
			return method + " " + rest
		}
	}
	return ""
}

// basicCredentials decodes an Authorization header value as Zulip's
// get_basic_credentials does: Python's str.split() into exactly a scheme and
// one value, the scheme "basic" in any case, and the value base64 of UTF-8
// text with exactly one colon.
func basicCredentials(value string) (email, key string, aerr *apiError) {
	invalid := errCode(http.StatusUnauthorized, "UNAUTHORIZED", "Invalid authorization header for basic auth", nil)
	parts := strings.Fields(value)
	if len(parts) != 2 {
		return "", "", invalid
	}
	if !strings.EqualFold(parts[0], "basic") {
		return "", "", errBadRequest("This endpoint requires HTTP basic authentication.")
	}
	raw, err := base64.StdEncoding.DecodeString(parts[1])
	if err != nil || !utf8.Valid(raw) {
		return "", "", invalid
	}
	fields := strings.Split(string(raw), ":")
	if len(fields) != 2 {
		return "", "", invalid
	}
	return fields[0], fields[1], nil
}

// validAPIKeyFormat reports whether key looks like a Zulip API key: 32 letters
// and digits (Zulip answers "Malformed API key" otherwise).
func validAPIKeyFormat(key string) bool {
	if len(key) != 32 {
		return false
	}
	for i := 0; i < len(key); i++ {
		if !isASCIILetterOrDigit(key[i]) {
			return false
		}
	}
	return true
}

// isASCIILetterOrDigit reports whether ch is an ASCII letter or digit.
func isASCIILetterOrDigit(ch byte) bool {
	return 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9'
}

// serveUnknown answers API requests no route takes, as Zulip's URL dispatch
// does (zerver/lib/rest.py, get_target_view_function_or_response):
//   - a path no route has is Django's HTML 404 page (Zulip has no JSON
//     catch-all for /api/v1/ or /json/);
//   - OPTIONS on a REST path is 204 with Allow listing its methods, sorted;
//   - another method on a REST path is json_method_not_allowed: 405, Allow,
//     and {"result":"error","msg":"Method Not Allowed","allowed_methods":[...]}
//     without a code;
//   - another method on one of the plain Django views this server serves
//     without authentication (server_settings, fetch_api_key,
//     dev_fetch_api_key, decorated @require_safe or @require_post in
//     zerver/views/auth.py) is Django's bare HttpResponseNotAllowed: 405 with
//     Allow and an empty body.
//
// A REST path's methods include HEAD whenever they include GET (rest.py adds
// it with setdefault). allowed_methods keeps the order of zproject/urls.py in
// Zulip; this server does not know that order and sorts them, with HEAD last,
// where Zulip's setdefault puts it.
func (s *Server) serveUnknown(w http.ResponseWriter, r *http.Request) {
	var methods []string
	plainView := false
	for _, m := range []string{http.MethodDelete, http.MethodGet, http.MethodPatch, http.MethodPost, http.MethodPut} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "" && !isCatchAll(pattern) {
			methods = append(methods, m)
			if s.plainViews[pattern] {
				plainView = true
			}
		}
	}
	if len(methods) == 0 {
		s.send(w, djangoNotFound())
		return
	}
	if plainView {
		// django.views.decorators.http: require_safe allows GET and HEAD,
		// require_post allows POST.
		allowed := methods
		if len(methods) == 1 && methods[0] == http.MethodGet {
			allowed = []string{http.MethodGet, http.MethodHead}
		}
		h := http.Header{}
		h.Set("Allow", strings.Join(allowed, ", "))
		h.Set("Content-Type", "text/html; charset=utf-8")
		s.send(w, &response{status: http.StatusMethodNotAllowed, header: h})
		return
	}
	sort.Strings(methods)
	if containsString(methods, http.MethodGet) {
		methods = append(methods, http.MethodHead)
	}
	if r.Method == http.MethodOptions {
		h := http.Header{}
		h.Set("Allow", strings.Join(sortedCopy(methods), ", "))
		s.send(w, &response{status: http.StatusNoContent, header: h})
		return
	}
	s.send(w, methodNotAllowed(methods))
}

// methodNotAllowed is Zulip's json_method_not_allowed (zerver/lib/response.py):
// an HttpResponseNotAllowed, whose Allow header lists the methods, with a JSON
// body that has no code. Its Content-Type is Django's default for an
// HttpResponse, text/html, although the body is JSON.
func methodNotAllowed(allowed []string) *response {
	if allowed == nil {
		allowed = []string{}
	}
	data, _ := json.Marshal(obj{"result": "error", "msg": "Method Not Allowed", "allowed_methods": allowed})
	h := http.Header{}
	h.Set("Allow", strings.Join(allowed, ", "))
	h.Set("Content-Type", "text/html; charset=utf-8")
	return &response{status: http.StatusMethodNotAllowed, header: h, body: data}
}

// djangoNotFoundPage is the body of Zulip's 404 page (templates/404.html,
// rendered by Django's page_not_found for any path no URL pattern matches),
// reduced to its text: the portico page around it carries nothing a client uses.
const djangoNotFoundPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<title>Page not found | Zulip</title>
</head>
<body class="error">
<div class="error_page">
<div class="errorbox">
<div class="errorcontent">
<h1 class="lead">Page not found (404)</h1>
<p>
If this error is unexpected, you can
<a href="mailto:support@zulip.example.com">contact support</a>.
</p>
</div>
</div>
</div>
</body>
</html>
`

// djangoNotFound is Django's 404 page.
func djangoNotFound() *response {
	return htmlResponse(http.StatusNotFound, djangoNotFoundPage)
}

// nginxPage is one of nginx's built-in error pages (ngx_http_special_response.c),
// which Zulip's nginx answers before a request reaches Django: oversize bodies
// and headers, paths that climb above the root. title is the status text nginx
// gives the code; detail, when set, is the finer reason nginx puts in the
// title and under the heading (e.g. "Request Header Or Cookie Too Large" for a
// 400).
func nginxPage(status int, title, detail string) *response {
	var b strings.Builder
	head := title
	if detail != "" {
		head = detail
	}
	fmt.Fprintf(&b, "<html>\r\n<head><title>%d %s</title></head>\r\n<body>\r\n", status, head)
	fmt.Fprintf(&b, "<center><h1>%d %s</h1></center>\r\n", status, title)
	if detail != "" {
		fmt.Fprintf(&b, "<center>%s</center>\r\n", detail)
	}
	b.WriteString("<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
	h := http.Header{}
	h.Set("Content-Type", "text/html")
	return &response{status: status, header: h, body: []byte(b.String())}
}

// containsString reports whether l holds v.
func containsString(l []string, v string) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

// sortedCopy returns l sorted, leaving l as it is.
func sortedCopy(l []string) []string {
	out := append([]string(nil), l...)
	sort.Strings(out)
	return out
}

// catchAllPatterns are the mux patterns of serveUnknown: every path, so that
// Go's own plain-text 404 and 405 answers never appear (the SMS API under /a1/
// has its own handler).
var catchAllPatterns = []string{"/"}

// isCatchAll reports whether a mux pattern is one of serveUnknown's.
func isCatchAll(pattern string) bool {
	for _, p := range catchAllPatterns {
		if pattern == p {
			return true
		}
	}
	return false
}
