package refserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
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

// coreRole names the seeded user of each role, for permission matrices.
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
			"INVALID_API_KEY", "Invalid API key", true},
		{"malformed key", func(r *http.Request) { r.SetBasicAuth(owner.Email, "short") }, 401,
			"INVALID_API_KEY", "Malformed API key", true},
		{"unknown user", func(r *http.Request) { r.SetBasicAuth("nobody@zulip.example.com", owner.APIKey) }, 401,
			"INVALID_API_KEY", "Invalid API key", true},
		{"another user's key", func(r *http.Request) {
			m, _ := e.srv.User(SeedMemberID)
			r.SetBasicAuth(owner.Email, m.APIKey)
		}, 401, "INVALID_API_KEY", "Invalid API key", true},
		{"deactivated user", func(r *http.Request) { r.SetBasicAuth(dan.Email, dan.APIKey) }, 401,
			"USER_DEACTIVATED", "Account is deactivated", true},
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
		coreWantError(t, a, 401, "REALM_DEACTIVATED", "This organization has been deactivated")
	})
	t.Run("json prefix", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/json/users/me", nil)
		req.SetBasicAuth(owner.Email, owner.APIKey)
		coreWantOK(t, e.coreSend(req))
	})
}

func TestUnknownEndpoints(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.coreRequest(SeedOwnerID, http.MethodGet, "/no/such/endpoint", nil)
	coreWantError(t, a, 404, "BAD_REQUEST", "Invalid API endpoint")
	a = e.coreRequest(0, http.MethodPost, "/nothing", url.Values{})
	coreWantError(t, a, 404, "BAD_REQUEST", "Invalid API endpoint")

	a = e.coreRequest(SeedOwnerID, http.MethodPut, "/server_settings", url.Values{})
	coreWantError(t, a, 405, "BAD_REQUEST", "Method Not Allowed")
	if got := a.header.Get("Allow"); got != "GET" {
		t.Errorf("Allow = %q", got)
	}
	a = e.coreRequest(SeedOwnerID, http.MethodPut, "/events", url.Values{})
	coreWantError(t, a, 405, "BAD_REQUEST", "Method Not Allowed")
	if got := fmt.Sprint(a.body["allowed_methods"]); got != "[DELETE GET]" {
		t.Errorf("allowed_methods = %s", got)
	}
	// Outside the API, Go's ordinary 404 is fine.
	resp, err := http.Get(e.ts.URL + "/nowhere")
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Errorf("closing the body: %v", err)
	}
	if resp.StatusCode != 404 {
		t.Errorf("status %d", resp.StatusCode)
	}
}

func TestIgnoredParametersAndBadJSON(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.coreRequest(SeedOwnerID, http.MethodGet, "/users/me", url.Values{"bogus": {"1"}, "also": {"2"}})
	coreWantOK(t, a)
	if got := fmt.Sprint(a.body["ignored_parameters_unsupported"]); got != "[also bogus]" {
		t.Errorf("ignored_parameters_unsupported = %s", got)
	}
	a = e.coreRequest(SeedOwnerID, http.MethodGet, "/users", url.Values{"client_gravatar": {"yes"}})
	coreWantError(t, a, 400, "INVALID_JSON", `Argument "client_gravatar" is not valid JSON.`)
	a = e.coreRequest(SeedOwnerID, http.MethodGet, "/users", url.Values{"client_gravatar": {"1"}})
	coreWantError(t, a, 400, "REQUEST_VARIABLE_INVALID", "client_gravatar is not a boolean")
}

func TestRateLimiting(t *testing.T) {
	clock := newCoreFakeClock()
	e := coreStart(t, Options{RateLimit: 3, Clock: clock.Now})
	start := clock.Now()
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
	// 30 s after the first request: over the limit until it leaves the window.
	a := e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
	coreWantError(t, a, 429, "RATE_LIMIT_HIT", "API usage exceeded rate limit")
	if got := a.body["retry-after"]; got != 30.0 {
		t.Errorf("retry-after %v", got)
	}
	if got := a.header.Get("Retry-After"); got != "30" {
		t.Errorf("Retry-After %q", got)
	}
	if got := a.header.Get("X-RateLimit-Remaining"); got != "0" {
		t.Errorf("remaining %q", got)
	}
	if got, want := a.header.Get("X-RateLimit-Reset"), fmt.Sprint(start.Add(20*time.Second+time.Minute).Unix()); got != want {
		t.Errorf("reset %q, want %q", got, want)
	}
	// Errors count and carry the headers too; other users are not affected.
	a = e.coreRequest(SeedOwnerID, http.MethodGet, "/users/9999", nil)
	coreWantError(t, a, 400, "BAD_REQUEST", "No such user")
	if a.header.Get("X-RateLimit-Remaining") != "2" {
		t.Errorf("owner remaining %q", a.header.Get("X-RateLimit-Remaining"))
	}
	// A fractional wait.
	clock.Advance(29*time.Second + 500*time.Millisecond)
	a = e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
	if a.status != 429 || a.body["retry-after"] != 0.5 || a.header.Get("Retry-After") != "0.5" {
		t.Fatalf("got %d %v %q", a.status, a.body["retry-after"], a.header.Get("Retry-After"))
	}
	// Recovery once the first request has left the window.
	clock.Advance(500 * time.Millisecond)
	a = e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
	coreWantOK(t, a)
	if a.header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("remaining %q", a.header.Get("X-RateLimit-Remaining"))
	}
	clock.Advance(2 * time.Minute)
	a = e.coreRequest(SeedMemberID, http.MethodGet, "/users/me", nil)
	coreWantOK(t, a)
	if a.header.Get("X-RateLimit-Remaining") != "2" {
		t.Errorf("remaining after reset %q", a.header.Get("X-RateLimit-Remaining"))
	}
	// Uncharged answers (failed authentication, unknown endpoints) carry the
	// headers of the client's address.
	for _, a := range []coreAnswer{
		e.coreRequest(0, http.MethodGet, "/users/me", nil),
		e.coreRequest(SeedMemberID, http.MethodGet, "/no/such/thing", nil),
	} {
		if a.header.Get("X-RateLimit-Limit") != "3" || a.header.Get("X-RateLimit-Remaining") != "3" {
			t.Errorf("%d answer without rate-limit headers: %v", a.status, a.header)
		}
	}
	// Unauthenticated endpoints are limited by client address.
	for i := 0; i < 3; i++ {
		coreWantOK(t, e.coreRequest(0, http.MethodGet, "/server_settings", nil))
	}
	coreWantError(t, e.coreRequest(0, http.MethodGet, "/server_settings", nil), 429, "RATE_LIMIT_HIT", "")
	a = e.coreRequest(0, http.MethodGet, "/users/me", nil)
	if a.status != 401 || a.header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("%d, remaining %q", a.status, a.header.Get("X-RateLimit-Remaining"))
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
