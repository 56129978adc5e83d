package zulip

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestNormalizeSiteURL(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"https://chat.example.com", "https://chat.example.com/api/v1/"},
		{"https://chat.example.com/", "https://chat.example.com/api/v1/"},
		{"https://chat.example.com/api", "https://chat.example.com/api/v1/"},
		{"https://chat.example.com/api/", "https://chat.example.com/api/v1/"},
		{"https://chat.example.com/api/v1", "https://chat.example.com/api/v1/"},
		{"https://chat.example.com/api/v1/", "https://chat.example.com/api/v1/"},
		{"https://chat.example.com/api/v1//", "https://chat.example.com/api/v1/"},
		{"  https://chat.example.com  ", "https://chat.example.com/api/v1/"},
		{"chat.example.com", "https://chat.example.com/api/v1/"},
		{"localhost:9991", "https://localhost:9991/api/v1/"},
		{"http://localhost:9991/api/v1", "http://localhost:9991/api/v1/"},
		{"HTTPS://Chat.Example.com", "https://Chat.Example.com/api/v1/"},
		{"https://example.com/zulip", "https://example.com/zulip/api/v1/"},
		{"https://example.com/zulip/api/v1/", "https://example.com/zulip/api/v1/"},
	}
	for _, tt := range tests {
		got, err := NormalizeSiteURL(tt.in)
		if err != nil {
			t.Errorf("NormalizeSiteURL(%q) error: %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("NormalizeSiteURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeSiteURL_invalid(t *testing.T) {
	tests := []struct {
		in, wantErr string
	}{
		{"", "empty"},
		{"   ", "empty"},
		{"ftp://chat.example.com", "http or https"},
		{"https://", "no host"},
		{"https://chat.example.com/?x=1", "query"},
		{"https://chat.example.com/#x", "fragment"},
		{"https://bot:" + testAPIKey + "@chat.example.com", "user name or password"},
		{"https://chat.example.com:bad" + testAPIKey, "not a valid URL"},
	}
	for _, tt := range tests {
		_, err := NormalizeSiteURL(tt.in)
		if err == nil {
			t.Errorf("NormalizeSiteURL(%q) = nil error, want one mentioning %q", tt.in, tt.wantErr)
			continue
		}
		if !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("NormalizeSiteURL(%q) error %q does not mention %q", tt.in, err, tt.wantErr)
		}
		if strings.Contains(err.Error(), testAPIKey) {
			t.Errorf("NormalizeSiteURL(%q) error repeats the secret: %q", tt.in, err)
		}
	}
}

func TestNew_validation(t *testing.T) {
	tests := []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{"no site", Config{}, "site URL is empty"},
		{"email without key", Config{SiteURL: "chat.example.com", Email: testEmail}, "without an API key"},
		{"key without email", Config{SiteURL: "chat.example.com", APIKey: testAPIKey}, "without an API e-mail"},
		{"insecure with custom client", Config{SiteURL: "chat.example.com", Insecure: true, HTTPClient: &http.Client{}}, "Insecure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("New error = %v, want one mentioning %q", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), testAPIKey) {
				t.Fatalf("error repeats the API key: %v", err)
			}
		})
	}
}

func TestNew_defaults(t *testing.T) {
	c, err := New(Config{SiteURL: "chat.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if c.maxRetries != DefaultMaxRetries || c.maxRetryWait != DefaultMaxRetryWait {
		t.Errorf("defaults = %d, %s; want %d, %s", c.maxRetries, c.maxRetryWait, DefaultMaxRetries, DefaultMaxRetryWait)
	}
	if c.userAgent != "terraform-provider-zulip/dev" {
		t.Errorf("default user agent = %q", c.userAgent)
	}
	if c.HasCredentials() {
		t.Error("HasCredentials() = true for a client without credentials")
	}
	if c.BaseURL() != "https://chat.example.com/api/v1/" {
		t.Errorf("BaseURL() = %q", c.BaseURL())
	}

	c, err = New(Config{SiteURL: "chat.example.com", MaxRetries: Off[int](), MaxRetryWait: Off[time.Duration]()})
	if err != nil {
		t.Fatal(err)
	}
	if c.maxRetries != 0 || c.maxRetryWait != 0 {
		t.Errorf("negative settings = %d, %s; want 0, 0", c.maxRetries, c.maxRetryWait)
	}
}

func TestUserAgent(t *testing.T) {
	if got := UserAgent("1.2.3"); got != "terraform-provider-zulip/1.2.3" {
		t.Errorf("UserAgent = %q", got)
	}
	if got := UserAgent(""); got != "terraform-provider-zulip/dev" {
		t.Errorf("UserAgent(\"\") = %q", got)
	}
}

func TestNewHTTPClient(t *testing.T) {
	for _, insecure := range []bool{false, true} {
		tlsConfig, err := newTLSConfig(Config{Insecure: insecure})
		if err != nil {
			t.Fatal(err)
		}
		c := newHTTPClient(tlsConfig)
		tr, ok := c.Transport.(*http.Transport)
		if !ok {
			t.Fatalf("transport is %T", c.Transport)
		}
		if tr.MaxIdleConnsPerHost < 16 {
			t.Errorf("MaxIdleConnsPerHost = %d, want at least 16 for Terraform's parallelism", tr.MaxIdleConnsPerHost)
		}
		if tr.TLSHandshakeTimeout == 0 || tr.IdleConnTimeout == 0 {
			t.Errorf("a timeout is unset: %+v", tr)
		}
		// The request timeout bounds each attempt; a transport timeout would cut a longer one.
		if tr.ResponseHeaderTimeout != 0 || c.Timeout != 0 {
			t.Errorf("transport timeouts %s, %s would override request_timeout", tr.ResponseHeaderTimeout, c.Timeout)
		}
		if tr.TLSClientConfig.InsecureSkipVerify != insecure {
			t.Errorf("InsecureSkipVerify = %v, want %v", tr.TLSClientConfig.InsecureSkipVerify, insecure)
		}
		if tr.Proxy == nil {
			t.Error("the proxy environment is ignored")
		}
	}
}

func TestClient_insecureReachesSelfSignedServer(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		success(w, `"zulip_feature_level":420`)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	srv.StartTLS()
	defer srv.Close()

	strict, err := New(Config{SiteURL: srv.URL, MaxRetries: Off[int]()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := strict.GetServerSettings(context.Background()); err == nil {
		t.Error("a self-signed certificate was accepted without Insecure")
	}
	insecure, err := New(Config{SiteURL: srv.URL, Insecure: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := insecure.GetServerSettings(context.Background())
	if err != nil {
		t.Fatalf("with Insecure: %v", err)
	}
	if s.ZulipFeatureLevel != 420 {
		t.Errorf("feature level = %d", s.ZulipFeatureLevel)
	}
}

func TestClient_requestHeaders(t *testing.T) {
	env := setup(t)
	env.handle("/users/me", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testAuth(t, r)
		testHeader(t, r, "User-Agent", "terraform-provider-zulip/1.2.3")
		testHeader(t, r, "Accept", "application/json")
		testHeader(t, r, "Accept-Language", "en")
		success(w, `"user_id":5`)
	})
	if _, err := env.client.GetOwnUser(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestClient_missingCredentials(t *testing.T) {
	env := setup(t, func(c *Config) { c.Email, c.APIKey = "", "" })
	requests := 0
	env.handle("/users/me", func(w http.ResponseWriter, r *http.Request) {
		requests++
		success(w, "")
	})
	env.handle("/server_settings", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		if r.Header.Get("Authorization") != "" {
			t.Error("server_settings was sent credentials")
		}
		success(w, `"zulip_feature_level":300`)
	})

	_, err := env.client.GetOwnUser(context.Background())
	if !errors.Is(err, ErrMissingCredentials) {
		t.Fatalf("GetOwnUser without credentials: %v, want ErrMissingCredentials", err)
	}
	if !strings.Contains(err.Error(), "/users/me") {
		t.Errorf("error does not name the request: %v", err)
	}
	if requests != 0 {
		t.Errorf("%d requests were sent without credentials", requests)
	}
	if _, err := env.client.GetServerSettings(context.Background()); err != nil {
		t.Fatalf("GetServerSettings without credentials: %v", err)
	}
}

func TestClient_noAuthEndpointsSendNoCredentials(t *testing.T) {
	env := setup(t)
	env.handle("/server_settings", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			t.Error("server_settings was sent credentials")
		}
		success(w, "")
	})
	if _, err := env.client.GetServerSettings(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestClient_redirectIsReportedNotFollowed(t *testing.T) {
	env := setup(t)
	env.handle("/users", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://chat.example.com/api/v1/users", http.StatusMovedPermanently)
	})
	_, err := env.client.CreateUser(context.Background(), CreateUserRequest{Email: "a@b.c", Password: "p", FullName: "A"})
	apiErr := mustAPIError(t, err, http.StatusMovedPermanently, "")
	if !strings.Contains(apiErr.Msg, "redirected to https://chat.example.com/api/v1/users") {
		t.Errorf("message = %q", apiErr.Msg)
	}
}

func TestClient_nonJSONSuccessBody(t *testing.T) {
	env := setup(t)
	env.handle("/realm/linkifiers", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<html><title>Captive portal</title><body>log in</body></html>") // a failed write shows in the client's answer
	})
	_, err := env.client.ListLinkifiers(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not Zulip JSON") || !strings.Contains(err.Error(), "Captive portal") {
		t.Fatalf("error = %v", err)
	}
}

func TestClient_errorResultWithStatus200(t *testing.T) {
	env := setup(t)
	env.handle("/realm/linkifiers", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, `{"result":"error","msg":"odd","code":"BAD_REQUEST"}`)
	})
	_, err := env.client.ListLinkifiers(context.Background())
	wantAPIError(t, err, http.StatusOK, "BAD_REQUEST")
}

func TestClient_ignoredParametersAreLogged(t *testing.T) {
	env := setup(t)
	env.handle("/saved_snippets", func(w http.ResponseWriter, r *http.Request) {
		success(w, `"saved_snippet_id":3,"ignored_parameters_unsupported":["titel"]`)
	})
	if _, err := env.client.CreateSavedSnippet(context.Background(), "t", "c"); err != nil {
		t.Fatal(err)
	}
	for _, e := range env.Logs() {
		if e.fields["ignored_parameters_unsupported"] == "titel" {
			return
		}
	}
	t.Errorf("no log entry names the ignored parameter: %+v", env.Logs())
}

func TestClient_logsRequestsWithoutSecrets(t *testing.T) {
	env := setup(t)
	calls := 0
	env.handle("/users/me", func(w http.ResponseWriter, r *http.Request) {
		calls++
		if calls == 1 {
			writeJSON(w, http.StatusServiceUnavailable, `{"result":"error","msg":"busy","code":"BAD_REQUEST"}`)
			return
		}
		writeJSON(w, http.StatusUnauthorized, `{"result":"error","msg":"Invalid API key `+testAPIKey+`","code":"INVALID_API_KEY"}`)
	})
	_, err := env.client.GetOwnUser(context.Background())
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), testAPIKey) {
		t.Errorf("error text contains the API key: %v", err)
	}
	if !strings.Contains(err.Error(), "[REDACTED]") {
		t.Errorf("error text does not show the redaction: %v", err)
	}
	if !IsUnauthorized(err) {
		t.Errorf("redaction broke errors.Is: %v", err)
	}

	logs := env.Logs()
	var statuses []any
	retried := false
	for _, e := range logs {
		text := fmt.Sprint(e.msg, e.fields)
		if strings.Contains(text, testAPIKey) || strings.Contains(strings.ToLower(text), "authorization") {
			t.Errorf("log entry leaks credentials: %s", text)
		}
		if e.msg == "zulip: request" {
			if e.fields["method"] != http.MethodGet || e.fields["path"] != "users/me" {
				t.Errorf("log entry fields: %v", e.fields)
			}
			if _, ok := e.fields["duration_ms"]; !ok {
				t.Errorf("log entry without duration: %v", e.fields)
			}
			statuses = append(statuses, e.fields["status"])
		}
		if e.msg == "zulip: retrying request" {
			retried = true
		}
	}
	if fmt.Sprint(statuses) != "[503 401]" || !retried {
		t.Errorf("logged statuses %v, retry logged %v", statuses, retried)
	}
}

func TestClient_unreachableServer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more: connection refused

	clock := &fakeClock{}
	c, err := New(Config{SiteURL: url, Email: testEmail, APIKey: testAPIKey, Sleep: clock.Sleep, Now: clock.Now, Rand: func() float64 { return 0 }, MaxRetries: Set(2)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListLinkifiers(context.Background())
	if err == nil || !strings.Contains(err.Error(), "could not reach the Zulip server; gave up after 3 attempts") {
		t.Fatalf("error = %v", err)
	}
	if strings.Contains(err.Error(), testAPIKey) {
		t.Fatalf("error contains the key: %v", err)
	}
	if got := len(clock.Sleeps()); got != 2 {
		t.Errorf("waited %d times, want 2", got)
	}
}

// TestSetting: a Setting left unset is the default; Set(v) is v; Set(0), a
// negative Set and Off turn the feature off.
func TestSetting(t *testing.T) {
	const def = 5 * time.Second
	for _, c := range []struct {
		name string
		s    Setting[time.Duration]
		want time.Duration
	}{
		{"unset", Setting[time.Duration]{}, def},
		{"set", Set(time.Minute), time.Minute},
		{"zero", Set(time.Duration(0)), 0},
		{"negative", Set(-time.Second), 0},
		{"off", Off[time.Duration](), 0},
	} {
		if got := c.s.or(def); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
