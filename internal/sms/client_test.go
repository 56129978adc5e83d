package sms

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

const (
	testUser     = "u1234abcd"
	testPassword = "s3cr3t-P4ssw0rd"
)

// setup starts an httptest server and a Client pointed at it. Handlers are
// registered on the returned mux; unknown paths fail the test.
func setup(t *testing.T) (*http.ServeMux, *Client) {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
		http.Error(w, "unexpected", http.StatusTeapot)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c, err := New(Config{APIURL: srv.URL, Username: testUser, Password: testPassword, UserAgent: "sms-test/1"})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return mux, c
}

// testMethod fails the test unless r uses the wanted method.
func testMethod(t *testing.T, r *http.Request, want string) {
	t.Helper()
	if r.Method != want {
		t.Errorf("method = %s, want %s", r.Method, want)
	}
}

// testAuth fails the test unless r carries the test credentials.
func testAuth(t *testing.T, r *http.Request) {
	t.Helper()
	user, pass, ok := r.BasicAuth()
	if !ok || user != testUser || pass != testPassword {
		t.Errorf("basic auth = %q/%q (ok=%v), want test credentials", user, pass, ok)
	}
	if got := r.Header.Get("User-Agent"); got != "sms-test/1" {
		t.Errorf("User-Agent = %q", got)
	}
}

// testForm fails the test unless the form body holds exactly want.
func testForm(t *testing.T, r *http.Request, want url.Values) {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
		t.Errorf("Content-Type = %q", ct)
	}
	if err := r.ParseForm(); err != nil {
		t.Fatalf("ParseForm: %v", err)
	}
	if len(r.URL.Query()) != 0 {
		t.Errorf("query string = %q, want none", r.URL.RawQuery)
	}
	got := r.PostForm
	for k, v := range want {
		if len(got[k]) != 1 || got[k][0] != v[0] {
			t.Errorf("form %s = %q, want %q", k, got[k], v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected form parameter %s=%q", k, got[k])
		}
	}
}

func TestNew_APIURL(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", "https://api.46elks.com/a1"},
		{"https://api.46elks.com", "https://api.46elks.com/a1"},
		{"https://api.46elks.com/", "https://api.46elks.com/a1"},
		{"https://api.46elks.com/a1", "https://api.46elks.com/a1"},
		{"https://api.46elks.com/a1/", "https://api.46elks.com/a1"},
		{"https://api.46elks.com/A1", "https://api.46elks.com/a1"},
		{"http://127.0.0.1:8080/sms/", "http://127.0.0.1:8080/sms/a1"},
		{"http://127.0.0.1:8080/sms/a1", "http://127.0.0.1:8080/sms/a1"},
	}
	for _, tt := range tests {
		c, err := New(Config{APIURL: tt.in, Username: "u", Password: "p"})
		if err != nil {
			t.Errorf("New(%q): %v", tt.in, err)
			continue
		}
		if got := c.base.String(); got != tt.want {
			t.Errorf("New(%q) base = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNew_Errors(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"no username", Config{Password: "p"}},
		{"no password", Config{Username: "u"}},
		{"ftp", Config{APIURL: "ftp://api.46elks.com", Username: "u", Password: "p"}},
		{"relative", Config{APIURL: "api.46elks.com/a1", Username: "u", Password: "p"}},
		{"query", Config{APIURL: "https://api.46elks.com/?x=1", Username: "u", Password: "p"}},
		{"credentials in url", Config{APIURL: "https://u:" + testPassword + "@api.46elks.com", Username: "u", Password: "p"}},
		{"unparsable with credentials", Config{APIURL: "https://u:" + testPassword + "@api.46elks.com/%zz", Username: "u", Password: "p"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if err == nil {
				t.Fatal("New succeeded, want error")
			}
			if strings.Contains(err.Error(), testPassword) {
				t.Errorf("error leaks the password: %v", err)
			}
		})
	}
}

func TestNew_DefaultHTTPClientHasTimeout(t *testing.T) {
	c, err := New(Config{Username: "u", Password: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if c.httpClient == nil || c.httpClient.Timeout == 0 {
		t.Errorf("default HTTP client has no timeout")
	}
	if c.userAgent == "" {
		t.Errorf("no default user agent")
	}
}

func TestAPIError_Shapes(t *testing.T) {
	long := strings.Repeat("x", 5000)
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		wantMessage string
	}{
		{"plain 400", 400, "text/plain; charset=utf-8", "Invalid to number.\n", "Invalid to number."},
		{"plain 401", 401, "text/plain; charset=utf-8", "Authorization failed.", "Authorization failed."},
		{"plain 403", 403, "text/plain; charset=utf-8", "Too many active conversations with this recipient.", "Too many active conversations with this recipient."},
		{"json error", 403, "application/json", `{"error": "Not enough credits"}`, "Not enough credits"},
		{"json message", 400, "application/json", `{"message": "Bad lifetime"}`, "Bad lifetime"},
		{"json both prefers error", 400, "application/json", `{"message": "m", "error": "e"}`, "e"},
		{"json without keys kept as text", 400, "application/json", `{"detail":"d"}`, `{"detail":"d"}`},
		{"html 502", 502, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>", "Bad Gateway"},
		{"html without content type", 502, "", "<!DOCTYPE html><html>oops</html>", "Bad Gateway"},
		{"empty 500", 500, "", "", "Internal Server Error"},
		{"multi-line text collapsed", 400, "text/plain", "line one\n  line two", "line one line two"},
		{"long body capped", 400, "text/plain", long, long[:maxErrorBody]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mux, c := setup(t)
			mux.HandleFunc("/a1/conversations/o1", func(w http.ResponseWriter, r *http.Request) {
				if tt.contentType != "" {
					w.Header().Set("Content-Type", tt.contentType)
				}
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.body)
			})
			q, err := c.GetQuestion(context.Background(), "o1")
			if q != nil {
				t.Errorf("got question %+v on error", q)
			}
			var apiErr *APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error %T %v, want *APIError", err, err)
			}
			if apiErr.HTTPStatus != tt.status {
				t.Errorf("HTTPStatus = %d, want %d", apiErr.HTTPStatus, tt.status)
			}
			if apiErr.Message != tt.wantMessage {
				t.Errorf("Message = %q, want %q", apiErr.Message, tt.wantMessage)
			}
			if strings.Contains(err.Error(), testPassword) {
				t.Errorf("error leaks the password: %v", err)
			}
		})
	}
}

func TestAPIError_Helpers(t *testing.T) {
	notFound := &APIError{HTTPStatus: 404, Message: "Not found"}
	wrapped := errors.Join(errors.New("context"), notFound)
	if !IsNotFound(wrapped) || IsUnauthorized(wrapped) {
		t.Errorf("helpers wrong for 404")
	}
	if !IsUnauthorized(&APIError{HTTPStatus: 401}) || IsNotFound(&APIError{HTTPStatus: 401}) {
		t.Errorf("helpers wrong for 401")
	}
	if IsNotFound(errors.New("plain")) {
		t.Errorf("IsNotFound(plain error) = true")
	}
	if got := notFound.Error(); got != "sms: HTTP 404: Not found" {
		t.Errorf("Error() = %q", got)
	}
}

func TestTransportError_NoPassword(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close() // connection refused from now on
	c, err := New(Config{APIURL: addr, Username: testUser, Password: testPassword})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetQuestion(context.Background(), "o1")
	if err == nil {
		t.Fatal("want transport error")
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		t.Errorf("transport error reported as APIError: %v", err)
	}
	if strings.Contains(err.Error(), testPassword) {
		t.Errorf("error leaks the password: %v", err)
	}
}

func TestContextCancelled(t *testing.T) {
	mux, c := setup(t)
	release := make(chan struct{})
	mux.HandleFunc("/a1/conversations/o1", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := c.GetQuestion(ctx, "o1")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
}
