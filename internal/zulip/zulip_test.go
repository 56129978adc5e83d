package zulip

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	testEmail  = "iago@zulip.example"
	testAPIKey = "sEcReTkEy0123456789abcdefABCDEF0"
)

// fakeClock is the clock and sleeper of a test client: sleeping advances the clock and is
// recorded, so retry and pacing tests run in microseconds and can assert every wait.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
	// onSleep, when set, runs before the clock advances; returning an error aborts the wait.
	onSleep func(ctx context.Context, d time.Duration) error
}

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.sleeps = append(f.sleeps, d)
	hook := f.onSleep
	f.mu.Unlock()
	if hook != nil {
		if err := hook(ctx, d); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
	return nil
}

func (f *fakeClock) Sleeps() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.sleeps...)
}

// logEntry is one call of the Logf hook.
type logEntry struct {
	msg    string
	fields map[string]any
}

// testEnv is one test's server and client.
type testEnv struct {
	client *Client
	mux    *http.ServeMux
	server *httptest.Server
	clock  *fakeClock
	logMu  sync.Mutex
	logs   []logEntry
}

func (e *testEnv) Logs() []logEntry {
	e.logMu.Lock()
	defer e.logMu.Unlock()
	return append([]logEntry(nil), e.logs...)
}

// handle registers a handler for a path under /api/v1 (method checked by the handler, so a
// wrong method fails with a clear message rather than a 405).
func (e *testEnv) handle(path string, h http.HandlerFunc) {
	e.mux.HandleFunc("/api/v1"+path, h)
}

// setup starts a test server and a client for it, with a fake clock and deterministic
// randomness (Rand returns 0: backoff is exactly half its nominal value, no jitter).
func setup(t *testing.T, configure ...func(*Config)) *testEnv {
	t.Helper()
	env := &testEnv{
		mux:   http.NewServeMux(),
		clock: &fakeClock{now: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)},
	}
	env.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected request %s %s", r.Method, r.URL)
		http.Error(w, "unexpected", http.StatusTeapot)
	})
	env.server = httptest.NewServer(env.mux)
	t.Cleanup(env.server.Close)
	cfg := Config{
		SiteURL:   env.server.URL,
		Email:     testEmail,
		APIKey:    testAPIKey,
		UserAgent: UserAgent("1.2.3"),
		Sleep:     env.clock.Sleep,
		Now:       env.clock.Now,
		Rand:      func() float64 { return 0 },
		Logf: func(_ context.Context, msg string, fields map[string]any) {
			env.logMu.Lock()
			defer env.logMu.Unlock()
			env.logs = append(env.logs, logEntry{msg, fields})
		},
	}
	for _, f := range configure {
		f(&cfg)
	}
	client, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	env.client = client
	return env
}

func testMethod(t *testing.T, r *http.Request, want string) {
	t.Helper()
	if r.Method != want {
		t.Errorf("request method = %s, want %s", r.Method, want)
	}
}

func testHeader(t *testing.T, r *http.Request, name, want string) {
	t.Helper()
	if got := r.Header.Get(name); got != want {
		t.Errorf("header %s = %q, want %q", name, got, want)
	}
}

// testAuth checks the Basic credentials.
func testAuth(t *testing.T, r *http.Request) {
	t.Helper()
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(testEmail+":"+testAPIKey))
	testHeader(t, r, "Authorization", want)
}

// testQuery checks the exact query parameters (for GET, and for DELETE query params).
func testQuery(t *testing.T, r *http.Request, want url.Values) {
	t.Helper()
	got := r.URL.Query()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("query = %v, want %v", got, want)
	}
}

// testFormValues checks the exact form body, encoded values included (a JSON parameter must
// arrive as JSON text, a plain one unquoted). It reads the body itself because
// http.Request.ParseForm ignores DELETE bodies.
func testFormValues(t *testing.T, r *http.Request, want url.Values) {
	t.Helper()
	data, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	got, err := url.ParseQuery(string(data))
	if err != nil {
		t.Fatalf("parsing body %q: %v", data, err)
	}
	if len(got) == 0 && len(want) == 0 {
		return
	}
	testHeader(t, r, "Content-Type", "application/x-www-form-urlencoded")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("form = %v, want %v", got, want)
	}
}

// writeJSON writes a JSON answer with the given status.
func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body) // a failed write shows in the client's answer
}

// success writes {"result":"success","msg":""} merged with the given payload fields.
func success(w http.ResponseWriter, payload string) {
	body := `{"result":"success","msg":""}`
	if payload = strings.TrimSpace(payload); payload != "" {
		body = `{"result":"success","msg":"",` + payload + `}`
	}
	writeJSON(w, http.StatusOK, body)
}

func ptr[T any](v T) *T { return &v }

// mustAPIError asserts err carries an *APIError with the given status and code.
func mustAPIError(t *testing.T, err error, status int, code string) *APIError {
	t.Helper()
	if err == nil {
		t.Fatalf("error = nil, want an *APIError (%d %s)", status, code)
	}
	apiErr, ok := AsAPIError(err)
	if !ok {
		t.Fatalf("error %v (%T) is not an *APIError", err, err)
	}
	if apiErr.HTTPStatus != status || apiErr.Code != code {
		t.Fatalf("APIError = %d %q, want %d %q (%v)", apiErr.HTTPStatus, apiErr.Code, status, code, err)
	}
	return apiErr
}

// wantAPIError is mustAPIError for callers that only check the error.
func wantAPIError(t *testing.T, err error, status int, code string) {
	t.Helper()
	_ = mustAPIError(t, err, status, code) // the checks are what matters; the value is not needed
}
