package refserver

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Shared helpers of the core area's tests (prefixed "core").

// coreEnv is a reference server behind an httptest server.
type coreEnv struct {
	t   *testing.T
	srv *Server
	ts  *httptest.Server
}

// coreStart starts a server with opts.
func coreStart(t *testing.T, opts Options) *coreEnv {
	t.Helper()
	srv, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &coreEnv{t: t, srv: srv, ts: ts}
}

// coreAnswer is a decoded answer.
type coreAnswer struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

// coreRequest sends a request with Basic auth as the user (0 = no credentials).
// GET and DELETE carry form as the query string unless body is forced.
func (e *coreEnv) coreRequest(userID int, method, path string, form url.Values) coreAnswer {
	e.t.Helper()
	var body io.Reader
	target := e.ts.URL + "/api/v1" + path
	if method == http.MethodGet || method == http.MethodHead {
		if len(form) > 0 {
			target += "?" + form.Encode()
		}
	} else if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if userID != 0 {
		u, ok := e.srv.User(userID)
		if !ok {
			e.t.Fatalf("no user %d", userID)
		}
		req.SetBasicAuth(u.Email, u.APIKey)
	}
	return e.coreSend(req)
}

// coreSend sends req and decodes the JSON answer.
func (e *coreEnv) coreSend(req *http.Request) coreAnswer {
	e.t.Helper()
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer func() {
		if err := resp.Body.Close(); err != nil {
			e.t.Errorf("%s %s: closing the body: %v", req.Method, req.URL, err)
		}
	}()
	raw, _ := io.ReadAll(resp.Body)
	a := coreAnswer{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &a.body); err != nil {
			e.t.Fatalf("%s %s: bad JSON %q: %v", req.Method, req.URL, raw, err)
		}
	}
	return a
}

// coreDo is coreRequest for callers that only need status and body.
func (e *coreEnv) coreDo(userID int, method, path string, form url.Values) (int, map[string]any) {
	e.t.Helper()
	a := e.coreRequest(userID, method, path, form)
	return a.status, a.body
}

// coreWantError asserts an error answer.
func coreWantError(t *testing.T, a coreAnswer, status int, code, msg string) {
	t.Helper()
	if a.status != status || a.body["result"] != "error" || a.body["code"] != code || (msg != "" && a.body["msg"] != msg) {
		t.Fatalf("got %d %s, want %d %s %q", a.status, a.raw, status, code, msg)
	}
}

// coreWantOK asserts a success answer.
func coreWantOK(t *testing.T, a coreAnswer) {
	t.Helper()
	if a.status != http.StatusOK || a.body["result"] != "success" || a.body["msg"] != "" {
		t.Fatalf("got %d %s, want success", a.status, a.raw)
	}
}

// coreFakeClock is a settable clock.
type coreFakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newCoreFakeClock() *coreFakeClock {
	return &coreFakeClock{t: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *coreFakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *coreFakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// coreRoles name the seeded user of each role, for permission matrices.
var coreRoles = []struct {
	name string
	id   int
}{
	{"owner", SeedOwnerID},
	{"administrator", SeedAdminID},
	{"moderator", SeedModeratorID},
	{"member", SeedMemberID},
	{"guest", SeedGuestID},
	{"bot", SeedBotID},
}

func TestAuthentication(t *testing.T) {
	e := coreStart(t, Options{})
	owner, _ := e.srv.User(SeedOwnerID)
	dan, _ := e.srv.User(SeedDeactivatedID)
	cases := []struct {
		name          string
		set           func(*http.Request)
		status        int
		code, msg     string
		wantChallenge bool
	}{
		{"no credentials", func(*http.Request) {}, 401, "UNAUTHORIZED",
			"Not logged in: API authentication or user session required", true},
		{"wrong key", func(r *http.Request) { r.SetBasicAuth(owner.Email, strings.Repeat("x", 32)) }, 401,
			"UNAUTHORIZED", "Invalid API key", true},
		{"malformed key", func(r *http.Request) { r.SetBasicAuth(owner.Email, "short") }, 401,
			"UNAUTHORIZED", "Malformed API key", true},
		{"unknown user", func(r *http.Request) { r.SetBasicAuth("nobody@zulip.example.com", owner.APIKey) }, 401,
			"UNAUTHORIZED", "Invalid API key", true},
		{"another user's key", func(r *http.Request) {
			m, _ := e.srv.User(SeedMemberID)
			r.SetBasicAuth(owner.Email, m.APIKey)
		}, 401, "UNAUTHORIZED", "Invalid API key", true},
		{"deactivated user", func(r *http.Request) { r.SetBasicAuth(dan.Email, dan.APIKey) }, 401,
			"UNAUTHORIZED", "Account is deactivated", true},
		// get_basic_credentials: a value that does not split in two, is not
		// base64, or does not hold exactly one colon is the ValueError branch.
		{"scheme without value", func(r *http.Request) { r.Header.Set("Authorization", "Basic") }, 401,
			"UNAUTHORIZED", "Invalid authorization header for basic auth", true},
		{"undecodable value", func(r *http.Request) { r.Header.Set("Authorization", "Basic %%%") }, 401,
			"UNAUTHORIZED", "Invalid authorization header for basic auth", true},
		{"no colon", func(r *http.Request) {
			r.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(owner.Email)))
		}, 401, "UNAUTHORIZED", "Invalid authorization header for basic auth", true},
		{"two colons", func(r *http.Request) {
			r.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(owner.Email+":"+owner.APIKey+":x")))
		}, 401, "UNAUTHORIZED", "Invalid authorization header for basic auth", true},
		// Another scheme is a plain JsonableError: 400, no challenge.
		{"bearer scheme", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+owner.APIKey) }, 400,
			"BAD_REQUEST", "This endpoint requires HTTP basic authentication.", false},
		{"scheme in lower case", func(r *http.Request) {
			r.Header.Set("Authorization", "basic "+base64.StdEncoding.EncodeToString([]byte(owner.Email+":"+owner.APIKey)))
		}, 200, "", "", false},
		{"e-mail in another case", func(r *http.Request) { r.SetBasicAuth(strings.ToUpper(owner.Email), owner.APIKey) }, 200, "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/api/v1/users/me", nil)
			tc.set(req)
			a := e.coreSend(req)
			if tc.status == 200 {
				coreWantOK(t, a)
				return
			}
			coreWantError(t, a, tc.status, tc.code, tc.msg)
			if got := a.header.Get("WWW-Authenticate"); tc.wantChallenge && got != `Basic realm="zulip"` {
				t.Errorf("WWW-Authenticate = %q", got)
			}
		})
	}
	t.Run("deactivated realm", func(t *testing.T) {
		e := coreStart(t, Options{})
		e.srv.Do(func(r *Realm) { r.Deactivated = true })
		a := e.coreRequest(SeedOwnerID, http.MethodGet, "/users/me", nil)
		coreWantError(t, a, 401, "UNAUTHORIZED", "This organization has been deactivated")
	})
	t.Run("json prefix", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/json/users/me", nil)
		req.SetBasicAuth(owner.Email, owner.APIKey)
		coreWantOK(t, e.coreSend(req))
	})
}

// TestUnknownEndpoints pins Zulip's URL dispatch (zerver/lib/rest.py,
// get_target_view_function_or_response, and zerver/lib/response.py,
// json_method_not_allowed): an unknown path is Django's HTML 404 page, a known
// REST path with another method a 405 whose JSON body has no code, and the
// plain Django views (server_settings, @require_safe in zerver/views/auth.py)
// a bare HttpResponseNotAllowed.
func TestUnknownEndpoints(t *testing.T) {
	e := coreStart(t, Options{})
	for _, tc := range []struct {
		user         int
		method, path string
	}{
		{SeedOwnerID, http.MethodGet, "/no/such/endpoint"},
		{0, http.MethodPost, "/nothing"},
		{SeedOwnerID, http.MethodGet, "/streams/abc"},          // <int:stream_id> does not match
		{SeedOwnerID, http.MethodDelete, "/saved_snippets/-1"}, // nor a sign
		{SeedOwnerID, http.MethodGet, "/users/1/status/extra"},
	} {
		a := e.coreRequest(tc.user, tc.method, tc.path, url.Values{})
		if a.status != 404 || !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") ||
			!strings.Contains(a.raw, "Page not found (404)") {
			t.Errorf("%s %s: got %d %q %.80q, want Django's 404 page", tc.method, tc.path, a.status, a.header.Get("Content-Type"), a.raw)
		}
		if a.header.Get("X-RateLimit-Limit") != "" {
			t.Errorf("%s %s: rate-limit headers on a 404: %v", tc.method, tc.path, a.header)
		}
	}

	checkJSONMethodNotAllowed(t, e)

	checkBareMethodAnswers(t, e)

	checkNotFoundOutsideAPI(t, e)
}

// checkJSONMethodNotAllowed checks json_method_not_allowed: a REST path with another
// method is a 405 with the allowed methods and no code, even without credentials.
func checkJSONMethodNotAllowed(t *testing.T, e *coreEnv) {
	t.Helper()
	a := e.coreRequest(SeedOwnerID, http.MethodPut, "/events", url.Values{})
	if a.status != 405 || a.header.Get("Allow") != "DELETE, GET, HEAD" {
		t.Fatalf("PUT /events: %d Allow %q", a.status, a.header.Get("Allow"))
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(a.raw), &body); err != nil {
		t.Fatalf("405 body %q: %v", a.raw, err)
	}
	if _, hasCode := body["code"]; hasCode || body["result"] != "error" || body["msg"] != "Method Not Allowed" ||
		fmt.Sprint(body["allowed_methods"]) != "[DELETE GET HEAD]" {
		t.Errorf("405 body %s", a.raw)
	}
	// Django's HttpResponseNotAllowed keeps its default Content-Type.
	if ct := a.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("405 Content-Type %q", ct)
	}
	// No authentication is needed to learn the methods: dispatch comes first.
	a = e.coreRequest(0, http.MethodDelete, "/realm/linkifiers", url.Values{})
	if a.status != 405 || a.header.Get("Allow") != "GET, PATCH, HEAD" {
		t.Errorf("DELETE /realm/linkifiers without credentials: %d %v", a.status, a.header)
	}

}

// checkBareMethodAnswers checks the answers without a body: OPTIONS, and the plain
// Django views' 405.
func checkBareMethodAnswers(t *testing.T, e *coreEnv) {
	t.Helper()
	// OPTIONS: 204 with the sorted methods.
	a := e.coreRequest(0, http.MethodOptions, "/users", nil)
	if a.status != 204 || a.header.Get("Allow") != "GET, HEAD, POST" || a.raw != "" {
		t.Errorf("OPTIONS /users: %d Allow %q %q", a.status, a.header.Get("Allow"), a.raw)
	}

	// Plain Django views: require_safe and require_post answer without a body.
	a = e.coreRequest(SeedOwnerID, http.MethodPut, "/server_settings", url.Values{})
	if a.status != 405 || a.header.Get("Allow") != "GET, HEAD" || a.raw != "" {
		t.Errorf("PUT /server_settings: %d Allow %q %q", a.status, a.header.Get("Allow"), a.raw)
	}
	a = e.coreRequest(0, http.MethodGet, "/fetch_api_key", nil)
	if a.status != 405 || a.header.Get("Allow") != "POST" || a.raw != "" {
		t.Errorf("GET /fetch_api_key: %d Allow %q %q", a.status, a.header.Get("Allow"), a.raw)
	}

}

// checkNotFoundOutsideAPI checks that outside the API too, the answer is Django's page
// rather than Go's text.
func checkNotFoundOutsideAPI(t *testing.T, e *coreEnv) {
	t.Helper()
	resp, err := http.Get(e.ts.URL + "/nowhere")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	if err := resp.Body.Close(); err != nil {
		t.Errorf("closing the body: %v", err)
	}
	if resp.StatusCode != 404 || !strings.Contains(string(raw), "Page not found (404)") {
		t.Errorf("status %d %q", resp.StatusCode, raw)
	}
}

// TestMethodNotAllowedFromHandler: a handler's 405 (PATCH /users/me, which
// Zulip routes to no PATCH view) has json_method_not_allowed's shape too.
func TestMethodNotAllowedFromHandler(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.coreRequest(SeedOwnerID, http.MethodPatch, "/users/me", url.Values{"full_name": {"x"}})
	if a.status != 405 || a.header.Get("Allow") != "DELETE, GET, HEAD" || strings.Contains(a.raw, `"code"`) {
		t.Errorf("PATCH /users/me: %d Allow %q %s", a.status, a.header.Get("Allow"), a.raw)
	}
}

func TestIgnoredParametersAndBadJSON(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.coreRequest(SeedOwnerID, http.MethodGet, "/users", url.Values{"bogus": {"1"}, "also": {"2"}})
	coreWantOK(t, a)
	if got := fmt.Sprint(a.body["ignored_parameters_unsupported"]); got != "[also bogus]" {
		t.Errorf("ignored_parameters_unsupported = %s", got)
	}
	// Only typed_endpoint views report them (zerver/lib/typed_endpoint.py):
	// each route of untypedViews answers without, a typed one with.
	for route := range untypedViews {
		method, path, _ := strings.Cut(route, " ")
		if method != http.MethodGet {
			continue // the writes are covered through their handlers' own tests
		}
		path = strings.NewReplacer("{user_id}", strconv.Itoa(SeedMemberID)).Replace(path)
		a := e.coreRequest(SeedOwnerID, method, path, url.Values{"bogus": {"1"}})
		coreWantOK(t, a)
		if got, ok := a.body["ignored_parameters_unsupported"]; ok {
			t.Errorf("%s reports ignored_parameters_unsupported %v", route, got)
		}
	}
	coreWantOK(t, e.coreRequest(SeedOwnerID, http.MethodPost, "/realm/domains", url.Values{"domain": {"example.org"}, "allow_subdomains": {"false"}}))
	a = e.coreRequest(SeedOwnerID, http.MethodDelete, "/realm/domains/example.org", url.Values{"bogus": {"1"}})
	coreWantOK(t, a)
	if got := fmt.Sprint(a.body["ignored_parameters_unsupported"]); got != "[bogus]" {
		t.Errorf("DELETE /realm/domains/{domain} (a typed_endpoint): ignored_parameters_unsupported = %s", got)
	}
	a = e.coreRequest(SeedOwnerID, http.MethodGet, "/users", url.Values{"client_gravatar": {"yes"}})
	coreWantError(t, a, 400, "BAD_REQUEST", "client_gravatar is not valid JSON")
	a = e.coreRequest(SeedOwnerID, http.MethodGet, "/users", url.Values{"client_gravatar": {"1"}})
	coreWantError(t, a, 400, "BAD_REQUEST", "client_gravatar is not a boolean")
}

// TestRateLimiting pins zerver/lib/rate_limiter.py (RedisRateLimiterBackend)
// and zerver/middleware.py (RateLimitMiddleware): X-RateLimit-* only on
// requests a limit was applied to, X-RateLimit-Reset = int(now + seconds to
// freedom), and on a 429 Retry-After = secs_to_freedom written by str() (a
// float: "30.0", "0.5"), the body's retry-after the same number.
func TestRateLimiting(t *testing.T) {
	clock := newCoreFakeClock()
	e := coreStart(t, Options{RateLimit: 3, Clock: clock.Now})
	start := clock.Now()
	fillRateLimit(t, e, clock)
	// 30 s after the first request: over the limit until it leaves the window.
	a := e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
	coreWantError(t, a, 429, "RATE_LIMIT_HIT", "API usage exceeded rate limit")
	checkRetryAfter30(t, a)
	// The reset of a refused request is when it may be retried.
	if got, want := a.header.Get("X-RateLimit-Reset"), fmt.Sprint(start.Add(time.Minute).Unix()); got != want {
		t.Errorf("reset %q, want %q", got, want)
	}
	// Errors count and carry the headers too; other users are not affected.
	a = e.coreRequest(SeedOwnerID, http.MethodGet, "/users/9999", nil)
	coreWantError(t, a, 400, "BAD_REQUEST", "No such user")
	if a.header.Get("X-RateLimit-Remaining") != "2" {
		t.Errorf("owner remaining %q", a.header.Get("X-RateLimit-Remaining"))
	}
	// A fractional wait, and a reset rounded down (int(), not ceil).
	clock.Advance(29*time.Second + 500*time.Millisecond)
	a = e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
	if a.status != 429 || a.body["retry-after"] != 0.5 || a.header.Get("Retry-After") != "0.5" {
		t.Fatalf("got %d %v %q", a.status, a.body["retry-after"], a.header.Get("Retry-After"))
	}
	if got, want := a.header.Get("X-RateLimit-Reset"), fmt.Sprint(start.Add(time.Minute).Unix()); got != want {
		t.Errorf("reset %q, want %q", got, want)
	}
	// Recovery once the first request has left the window.
	clock.Advance(500 * time.Millisecond)
	a = e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
	coreWantOK(t, a)
	if a.header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("remaining %q", a.header.Get("X-RateLimit-Remaining"))
	}
	clock.Advance(2*time.Minute + 700*time.Millisecond)
	a = e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
	coreWantOK(t, a)
	if a.header.Get("X-RateLimit-Remaining") != "2" {
		t.Errorf("remaining after reset %q", a.header.Get("X-RateLimit-Remaining"))
	}
	if got, want := a.header.Get("X-RateLimit-Reset"), fmt.Sprint(clock.Now().Add(time.Minute).Unix()); got != want {
		t.Errorf("reset %q, want %q (rounded down)", got, want)
	}
	checkNotRateLimited(t, e)
}

// fillRateLimit sends the three requests the limit allows, ten seconds apart, checking
// the limit, the remaining count and the reset of each.
func fillRateLimit(t *testing.T, e *coreEnv, clock *coreFakeClock) {
	t.Helper()
	for i := 0; i < 3; i++ {
		a := e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
		coreWantOK(t, a)
		if got, want := a.header.Get("X-RateLimit-Limit"), "3"; got != want {
			t.Fatalf("limit %q", got)
		}
		if got, want := a.header.Get("X-RateLimit-Remaining"), fmt.Sprint(2-i); got != want {
			t.Fatalf("request %d: remaining %q, want %q", i, got, want)
		}
		if got, want := a.header.Get("X-RateLimit-Reset"), fmt.Sprint(clock.Now().Add(time.Minute).Unix()); got != want {
			t.Fatalf("reset %q, want %q", got, want)
		}
		clock.Advance(10 * time.Second)
	}
}

// checkRetryAfter30 checks a refused request's wait of 30 seconds, written as Python's
// float in the body and the header, with nothing remaining.
func checkRetryAfter30(t *testing.T, a coreAnswer) {
	t.Helper()
	if got := a.body["retry-after"]; got != 30.0 {
		t.Errorf("retry-after %v", got)
	}
	if !strings.Contains(a.raw, `"retry-after":30.0`) {
		t.Errorf("body %s: retry-after not written as Python's float", a.raw)
	}
	if got := a.header.Get("Retry-After"); got != "30.0" {
		t.Errorf("Retry-After %q", got)
	}
	if got := a.header.Get("X-RateLimit-Remaining"); got != "0" {
		t.Errorf("remaining %q", got)
	}
}

// checkNotRateLimited checks that no limit applies to requests that failed
// authentication, to unknown endpoints, or to the unauthenticated views: no headers,
// no counting.
func checkNotRateLimited(t *testing.T, e *coreEnv) {
	t.Helper()
	for _, a := range []coreAnswer{
		e.coreRequest(0, http.MethodGet, "/users/me", nil),
		e.coreRequest(SeedMemberID, http.MethodGet, "/no/such/thing", nil),
		e.coreRequest(SeedMemberID, http.MethodPut, "/users", url.Values{}),
	} {
		if a.header.Get("X-RateLimit-Limit") != "" || a.header.Get("X-RateLimit-Remaining") != "" {
			t.Errorf("%d answer with rate-limit headers: %v", a.status, a.header)
		}
	}
	for i := 0; i < 5; i++ {
		a := e.coreRequest(0, http.MethodGet, "/server_settings", nil)
		coreWantOK(t, a)
		if a.header.Get("X-RateLimit-Limit") != "" {
			t.Fatalf("server_settings with rate-limit headers: %v", a.header)
		}
	}
}

// TestPythonFloat pins the text of Retry-After: Python's str(float).
func TestPythonFloat(t *testing.T) {
	for f, want := range map[float64]string{
		30: "30.0", 0.5: "0.5", 0: "0.0", 28.706807374954224: "28.706807374954224",
		0.00005: "5e-05", 0.0001: "0.0001", 1e16: "1e+16", 123456789012345.6: "123456789012345.6",
	} {
		if got := pythonFloat(f); got != want {
			t.Errorf("pythonFloat(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestRateLimitingOffByDefault(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
	if a.header.Get("X-RateLimit-Limit") != "" {
		t.Errorf("headers without a limit: %v", a.header)
	}
}

// coreFaultSequence sends n requests and records each outcome.
func coreFaultSequence(t *testing.T, opts Options, n int) []string {
	t.Helper()
	e := coreStart(t, opts)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	var out []string
	for i := 0; i < n; i++ {
		resp, err := client.Get(e.ts.URL + "/api/v1/server_settings")
		if err != nil {
			out = append(out, "conn-error")
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		if err := resp.Body.Close(); err != nil {
			t.Errorf("closing the body: %v", err)
		}
		switch resp.StatusCode {
		case 429:
			var m map[string]any
			_ = json.Unmarshal(body, &m)
			if m["code"] != "RATE_LIMIT_HIT" || m["retry-after"] != 1.5 || resp.Header.Get("Retry-After") != "1.5" {
				t.Errorf("forced 429: %s %v", body, resp.Header)
			}
		case 503:
			if !strings.Contains(string(body), "503") {
				t.Errorf("503 body %q", body)
			}
		}
		out = append(out, fmt.Sprint(resp.StatusCode))
	}
	return out
}

func TestFaultsDeterministic(t *testing.T) {
	opts := Options{Seed: 42, Faults: Faults{DropRate: 0.2, ErrorRate: 0.2, RateLimitRate: 0.2, RetryAfterSecs: 1.5}}
	a := coreFaultSequence(t, opts, 60)
	b := coreFaultSequence(t, opts, 60)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Fatalf("same seed, different sequences:\n%v\n%v", a, b)
	}
	seen := map[string]int{}
	for _, o := range a {
		seen[o]++
	}
	for _, want := range []string{"conn-error", "200", "503", "429"} {
		if seen[want] == 0 {
			t.Errorf("outcome %s never happened in %v", want, a)
		}
	}
	opts.Seed = 43
	c := coreFaultSequence(t, opts, 60)
	if strings.Join(a, ",") == strings.Join(c, ",") {
		t.Errorf("different seeds gave the same sequence")
	}
}

func TestFaultsNotProcessedOrLostAnswer(t *testing.T) {
	// Every request fails with 503: nothing is processed.
	e := coreStart(t, Options{Faults: Faults{ErrorRate: 1}})
	a := e.coreRequest(SeedOwnerID, http.MethodDelete, "/users/"+fmt.Sprint(SeedMember3ID), url.Values{})
	if a.status != 503 {
		t.Fatalf("status %d", a.status)
	}
	if u, _ := e.srv.User(SeedMember3ID); !u.Active {
		t.Fatal("a 503 request was processed")
	}
	// Every answer is lost, but the change is made.
	e = coreStart(t, Options{Faults: Faults{LostAnswerRate: 1}})
	u, _ := e.srv.User(SeedOwnerID)
	req, _ := http.NewRequest(http.MethodDelete, e.ts.URL+"/api/v1/users/"+fmt.Sprint(SeedMember3ID), nil)
	req.SetBasicAuth(u.Email, u.APIKey)
	resp, err := e.ts.Client().Do(req)
	if err == nil {
		_ = resp.Body.Close() // the test fails anyway, on the answer's arrival
		t.Fatalf("got an answer %d, want a dropped connection", resp.StatusCode)
	}
	if u, _ := e.srv.User(SeedMember3ID); u.Active {
		t.Fatal("a lost-answer request was not processed")
	}
}

func TestFaultsLatency(t *testing.T) {
	e := coreStart(t, Options{Faults: Faults{Latency: 50 * time.Millisecond}})
	start := time.Now()
	coreWantOK(t, e.coreRequest(0, http.MethodGet, "/server_settings", nil))
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("answered in %s", d)
	}
}

func TestConcurrency(t *testing.T) {
	e := coreStart(t, Options{RateLimit: 100000, StateFile: t.TempDir() + "/state.json"})
	var wg sync.WaitGroup
	errs := make(chan string, 1000)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 15; i++ {
				var a coreAnswer
				switch i % 5 {
				case 0:
					a = e.coreRequest(SeedOwnerID, http.MethodGet, "/users", nil)
				case 1:
					a = e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"fetch_event_types": {`["realm_user","realm"]`}})
				case 2:
					a = e.coreRequest(SeedAdminID, http.MethodPost, "/users", url.Values{
						"email": {fmt.Sprintf("new-%d-%d@zulip.example.com", g, i)}, "password": {"correct horse"}, "full_name": {"New User"}})
				case 3:
					a = e.coreRequest(SeedAdminID, http.MethodPatch, fmt.Sprintf("/users/%d", SeedMember3ID),
						url.Values{"full_name": {fmt.Sprintf("Mei %d %d", g, i)}})
				case 4:
					a = e.coreRequest(0, http.MethodGet, "/server_settings", nil)
				}
				if a.status != 200 {
					errs <- a.raw
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	_, body := e.coreDo(SeedOwnerID, http.MethodGet, "/users", nil)
	if n := len(body["members"].([]any)); n != 12+16*3 {
		t.Errorf("%d users", n)
	}
}

// TestIncomingWebhookBotRoutes pins validate_api_key's refusal of an incoming
// webhook bot (zerver/decorator.py validate_api_key, with the
// allow_webhook_access that zerver/lib/rest.py rest_dispatch passes from the
// route's allow_incoming_webhooks flag in zproject/urls.py): every route
// answers 401 UNAUTHORIZED "This API is not available to incoming webhook
// bots.", whatever its view's own decorators, except POST /messages, the one
// route with the flag; the refusal comes after the account checks of
// access_user_by_api_key and before rate_limit_user (no rate-limit headers).
func TestIncomingWebhookBotRoutes(t *testing.T) {
	e := coreStart(t, Options{RateLimit: 100})
	routes := []struct{ method, path string }{
		{http.MethodGet, "/users/me"}, {http.MethodGet, "/users"}, {http.MethodPost, "/register"},
		{http.MethodGet, "/events"}, {http.MethodDelete, "/events"}, {http.MethodGet, "/messages"},
		{http.MethodGet, "/messages/1"}, {http.MethodPatch, "/messages/1"}, {http.MethodDelete, "/messages/1"},
		{http.MethodPost, "/messages/flags"}, {http.MethodGet, "/streams"}, {http.MethodPost, "/users/me/subscriptions"},
		{http.MethodPatch, "/streams/1"}, {http.MethodPost, "/default_streams"}, {http.MethodGet, "/user_groups"},
		{http.MethodPost, "/user_groups/create"}, {http.MethodPost, "/users/me/android_gcm_reg_id"},
		{http.MethodPatch, "/users/me/profile_data"}, {http.MethodGet, "/realm/linkifiers"}, {http.MethodPatch, "/realm"},
		{http.MethodPost, "/bots"}, {http.MethodGet, "/invites"}, {http.MethodPost, "/users/me/status"},
		{http.MethodGet, "/realm/emoji"}, {http.MethodGet, "/export/realm"}, {http.MethodPost, "/user_topics"},
	}
	for _, rt := range routes {
		t.Run(rt.method+" "+rt.path, func(t *testing.T) {
			a := e.coreRequest(SeedIncomingBotID, rt.method, rt.path, url.Values{})
			coreWantError(t, a, 401, "UNAUTHORIZED", "This API is not available to incoming webhook bots.")
			if got := a.header.Get("WWW-Authenticate"); got != `Basic realm="zulip"` {
				t.Errorf("WWW-Authenticate = %q", got)
			}
			if got := a.header.Get("X-RateLimit-Limit"); got != "" {
				t.Errorf("rate-limit headers on the refusal: %q", got)
			}
		})
	}
	t.Run("the web client's prefix", func(t *testing.T) {
		hook, _ := e.srv.User(SeedIncomingBotID)
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/json/users/me", nil)
		req.SetBasicAuth(hook.Email, hook.APIKey)
		coreWantError(t, e.coreSend(req), 401, "UNAUTHORIZED", "This API is not available to incoming webhook bots.")
	})
	t.Run("sending a message", func(t *testing.T) {
		a := e.coreRequest(SeedIncomingBotID, http.MethodPost, "/messages",
			url.Values{"type": {"stream"}, "to": {"general"}, "topic": {"alerts"}, "content": {"disk full"}})
		coreWantOK(t, a)
		if a.header.Get("X-RateLimit-Limit") != "100" {
			t.Errorf("an admitted request has its rate-limit headers: %v", a.header)
		}
		if _, ok := a.body["id"].(float64); !ok {
			t.Errorf("no message id: %s", a.raw)
		}
	})
	t.Run("other bots are not refused by authentication", func(t *testing.T) {
		coreWantOK(t, e.coreRequest(SeedBotID, http.MethodGet, "/users/me", nil))
	})
	t.Run("a deactivated webhook bot", func(t *testing.T) {
		e := coreStart(t, Options{})
		e.srv.Do(func(r *Realm) { r.Users[SeedIncomingBotID].IsActive = false })
		coreWantError(t, e.coreRequest(SeedIncomingBotID, http.MethodGet, "/users/me", nil), 401, "UNAUTHORIZED", "Account is deactivated")
	})
}
