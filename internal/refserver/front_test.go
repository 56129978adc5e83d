package refserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// frontSend sends a request with a raw body and content type as the user
// (0: no credentials) and returns the answer.
func (e *coreEnv) frontSend(userID int, method, target, contentType string, body io.Reader) coreAnswer {
	e.t.Helper()
	req, err := http.NewRequest(method, e.ts.URL+target, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if userID != 0 {
		u, _ := e.srv.User(userID)
		req.SetBasicAuth(u.Email, u.APIKey)
	}
	return e.coreSend(req)
}

// TestNormalizePath pins nginx's URI normalization (ngx_http_parse_complex_uri
// with merge_slashes on), which is what Django receives as PATH_INFO behind
// Zulip's nginx (puppet/zulip/files/nginx/uwsgi_params: PATH_INFO
// $document_uri).
func TestNormalizePath(t *testing.T) {
	for in, want := range map[string]string{
		"/api/v1/users":                     "/api/v1/users",
		"/api/v1/users/":                    "/api/v1/users/",
		"/api/v1//users":                    "/api/v1/users",
		"/api/v1/./users":                   "/api/v1/users",
		"/api/v1/users/../server_settings":  "/api/v1/server_settings",
		"/api/v1/users/..":                  "/api/v1/",
		"/api/v1/users/.":                   "/api/v1/users/",
		"/":                                 "/",
		"/..x/.y/z..":                       "/..x/.y/z..",
		"/api/v1/users/me/../../../json/x/": "/api/json/x/",
	} {
		got, ok := normalizePath(in)
		if !ok || got != want {
			t.Errorf("normalizePath(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{"/..", "/../api/v1/users", "/api/v1/../../../x", "/a/./../.."} {
		if got, ok := normalizePath(in); ok {
			t.Errorf("normalizePath(%q) = %q, want a refusal", in, got)
		}
	}
}

// TestDotSegments: a path with "." and ".." segments is served as the
// normalized path, with no redirect; one that climbs above the root is
// nginx's 400 page (ngx_http_parse_complex_uri returns
// NGX_HTTP_PARSE_INVALID_REQUEST).
func TestDotSegments(t *testing.T) {
	e := coreStart(t, Options{})
	// A redirect would be followed silently; refuse it so that it shows.
	e.ts.Client().CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	a := e.frontSend(0, http.MethodGet, "/api/v1/users/../server_settings", "", nil)
	coreWantOK(t, a)
	if a.body["zulip_feature_level"] == nil {
		t.Errorf("not server_settings: %s", a.raw)
	}
	coreWantOK(t, e.frontSend(SeedMemberID, http.MethodGet, "/api/v1//users/./me", "", nil))
	coreWantOK(t, e.frontSend(SeedMemberID, http.MethodGet, "/json/users/me/../me", "", nil))

	a = e.frontSend(0, http.MethodGet, "/api/v1/../../../etc/passwd", "", nil)
	if a.status != 400 || !strings.Contains(a.raw, "<center><h1>400 Bad Request</h1></center>") ||
		a.header.Get("Content-Type") != "text/html" {
		t.Errorf("above the root: %d %q %q", a.status, a.header.Get("Content-Type"), a.raw)
	}
}

// TestOversizeRequestLineAndHeaders: nginx's large_client_header_buffers
// (4 8k, Zulip's nginx keeps the default) give 414 for a request line that does
// not fit in 8 KiB and 400 "Request Header Or Cookie Too Large" for a header
// line that does not, or for headers over 32 KiB in all
// (ngx_http_request.c, ngx_http_alloc_large_header_buffer).
func TestOversizeRequestLineAndHeaders(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.frontSend(0, http.MethodGet, "/api/v1/server_settings?x="+strings.Repeat("a", 8200), "", nil)
	if a.status != 414 || !strings.Contains(a.raw, "<title>414 Request-URI Too Large</title>") {
		t.Errorf("long request line: %d %q", a.status, a.raw)
	}
	coreWantOK(t, e.frontSend(0, http.MethodGet, "/api/v1/server_settings?x="+strings.Repeat("a", 8000), "", nil))

	wantTooLarge := func(what string, set func(http.Header)) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/api/v1/server_settings", nil)
		set(req.Header)
		a := e.coreSend(req)
		if a.status != 400 || !strings.Contains(a.raw, "<title>400 Request Header Or Cookie Too Large</title>") ||
			!strings.Contains(a.raw, "<center>Request Header Or Cookie Too Large</center>") {
			t.Errorf("%s: %d %q", what, a.status, a.raw)
		}
	}
	wantTooLarge("one long header", func(h http.Header) { h.Set("Cookie", strings.Repeat("c", 8200)) })
	wantTooLarge("many headers", func(h http.Header) {
		for i := 0; i < 6; i++ {
			h.Set(fmt.Sprintf("X-Filler-%d", i), strings.Repeat("f", 6000))
		}
	})
	req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/api/v1/server_settings", nil)
	req.Header.Set("X-Fits", strings.Repeat("f", 8000))
	coreWantOK(t, e.coreSend(req))
}

// TestBodyTooLarge: a body over the limit (nginx's client_max_body_size,
// puppet/zulip/templates/nginx.conf.template.erb) is refused with nginx's 413
// page and not processed, whether its length is announced or not; it is
// never truncated into a different request.
func TestBodyTooLarge(t *testing.T) {
	if maxBodyBytes != 80<<20 {
		t.Errorf("limit %d, want Zulip's nginx client_max_body_size 80m", maxBodyBytes)
	}
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv.maxBodyBytes = 1000 // set before the server serves anything
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	e := &coreEnv{t: t, srv: srv, ts: ts}
	form := url.Values{"title": {"big"}, "content": {strings.Repeat("x", 1200)}}.Encode()
	for _, tc := range []struct {
		name string
		body io.Reader
	}{
		{"announced length", strings.NewReader(form)},
		{"chunked", io.MultiReader(strings.NewReader(form))}, // no length: sent chunked
	} {
		a := e.frontSend(SeedMemberID, http.MethodPost, "/api/v1/saved_snippets", "application/x-www-form-urlencoded", tc.body)
		if a.status != 413 || !strings.Contains(a.raw, "<title>413 Request Entity Too Large</title>") {
			t.Errorf("%s: %d %q", tc.name, a.status, a.raw)
		}
	}
	_, body := e.coreDo(SeedMemberID, http.MethodGet, "/saved_snippets", nil)
	for _, s := range body["saved_snippets"].([]any) {
		if s.(map[string]any)["title"] == "big" {
			t.Error("an oversize request was processed")
		}
	}
	// Just under the limit is fine.
	form = url.Values{"title": {"fits"}, "content": {strings.Repeat("x", 900)}}.Encode()
	coreWantOK(t, e.frontSend(SeedMemberID, http.MethodPost, "/api/v1/saved_snippets", "application/x-www-form-urlencoded", strings.NewReader(form)))
	// Unrouted paths are refused the same way, by the announced length.
	a := e.frontSend(0, http.MethodPost, "/api/v1/nowhere", "application/octet-stream", bytes.NewReader(make([]byte, 2000)))
	if a.status != 413 {
		t.Errorf("unrouted: %d", a.status)
	}
}

// TestMultipartBodies: Django's MultiPartParser reads an empty multipart body
// as an empty form (django/http/multipartparser.py returns empty dicts for
// CONTENT_LENGTH 0), so a parameterless POST from a client that always sends
// multipart works; fields of a multipart body are parameters, files are not.
func TestMultipartBodies(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.frontSend(SeedMemberID, http.MethodPost, "/api/v1/register", "multipart/form-data; boundary=xYzZY", strings.NewReader(""))
	coreWantOK(t, a)

	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("title", "From multipart")
	_ = mw.WriteField("content", "Body")
	fw, _ := mw.CreateFormFile("attachment", "a.txt")
	_, _ = fw.Write([]byte("file content"))
	_ = mw.Close()
	a = e.frontSend(SeedMemberID, http.MethodPost, "/api/v1/saved_snippets", mw.FormDataContentType(), &buf)
	coreWantOK(t, a)
	if a.body["ignored_parameters_unsupported"] != nil {
		t.Errorf("a file part became a parameter: %s", a.raw)
	}
	// A non-empty body without a boundary is malformed.
	a = e.frontSend(SeedMemberID, http.MethodPost, "/api/v1/register", "multipart/form-data", strings.NewReader("--x\r\n"))
	coreWantError(t, a, 400, "BAD_REQUEST", "Malformed request body")
}

// TestLenientFormParsing: url-encoded bodies and query strings are parsed as
// Django's QueryDict does (Python's parse_qsl): "&" only separates pairs, a
// malformed escape is kept as text, and a GET body is not read for parameters
// (request.POST is filled for POST, and by zerver/lib/rest.py's
// process_as_post for PUT/PATCH/DELETE, never for GET).
func TestLenientFormParsing(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.frontSend(SeedMemberID, http.MethodPost, "/api/v1/saved_snippets", "application/x-www-form-urlencoded",
		strings.NewReader("title=50%25+off%zz&content=a;b&&flag"))
	coreWantOK(t, a)
	if got := a.body["ignored_parameters_unsupported"]; fmt.Sprint(got) != "[flag]" {
		t.Errorf("ignored_parameters_unsupported = %v", got)
	}
	_, body := e.coreDo(SeedMemberID, http.MethodGet, "/saved_snippets", nil)
	found := false
	for _, s := range body["saved_snippets"].([]any) {
		m := s.(map[string]any)
		if m["title"] == "50% off%zz" && m["content"] == "a;b" {
			found = true
		}
	}
	if !found {
		t.Errorf("snippet not stored as Django would parse it: %v", body["saved_snippets"])
	}
	a = e.frontSend(SeedMemberID, http.MethodGet, "/api/v1/users?x=%zz;y", "application/x-www-form-urlencoded",
		strings.NewReader("bogus=1"))
	coreWantOK(t, a)
	if got := fmt.Sprint(a.body["ignored_parameters_unsupported"]); got != "[x]" {
		t.Errorf("GET: ignored_parameters_unsupported = %s", got)
	}

	for in, want := range map[string]string{
		"a=1&a=2&b":     "map[a:[1 2] b:[]]",
		"a=%41%4":       "map[a:[A%4]]",
		"a+b=c+d&=e":    "map[:[e] a b:[c d]]",
		"x=%ff":         "map[x:[\uFFFD]]",
		"&&":            "map[]",
		"k=v=w":         "map[k:[v=w]]",
		"semi=1;2&z=%2": "map[semi:[1;2] z:[%2]]",
	} {
		if got := fmt.Sprint(parseQueryLenient(in)); got != want {
			t.Errorf("parseQueryLenient(%q) = %s, want %s", in, got, want)
		}
	}
}

// frontSyncBuffer is a bytes.Buffer safe for the logger and the test.
type frontSyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *frontSyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *frontSyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls until the log holds want.
func (s *frontSyncBuffer) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the log never said %q:\n%s", want, s.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRequestLogTellsTheTruth: the log line of each request says what the
// client got. (Zulip's own log, zerver/middleware.py write_log_line, records
// the status the view returned; here faults and slow clients can make that
// differ from what was delivered, so the line says so.)
func TestRequestLogTellsTheTruth(t *testing.T) {
	start := func(t *testing.T, opts Options) (*coreEnv, *frontSyncBuffer) {
		var buf frontSyncBuffer
		opts.Logger = log.New(&buf, "", 0)
		return coreStart(t, opts), &buf
	}
	t.Run("answered", func(t *testing.T) {
		e, buf := start(t, Options{})
		coreWantOK(t, e.coreRequest(0, http.MethodGet, "/server_settings", nil))
		buf.waitFor(t, "GET /api/v1/server_settings -> 200 (")
	})
	t.Run("dropped", func(t *testing.T) {
		e, buf := start(t, Options{Faults: Faults{DropRate: 1}})
		if resp, err := e.ts.Client().Get(e.ts.URL + "/api/v1/server_settings"); err == nil {
			_ = resp.Body.Close()
			t.Fatal("answered")
		}
		buf.waitFor(t, "GET /api/v1/server_settings -> no answer: connection dropped before processing (")
		if strings.Contains(buf.String(), "-> 200") {
			t.Errorf("log claims an answer:\n%s", buf.String())
		}
	})
	t.Run("lost", func(t *testing.T) {
		e, buf := start(t, Options{Faults: Faults{LostAnswerRate: 1}})
		u, _ := e.srv.User(SeedOwnerID)
		req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/api/v1/saved_snippets",
			strings.NewReader("title=t&content=c"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(u.Email, u.APIKey)
		if resp, err := e.ts.Client().Do(req); err == nil {
			_ = resp.Body.Close()
			t.Fatal("answered")
		}
		buf.waitFor(t, "POST /api/v1/saved_snippets -> no answer: processed (200), then the connection was dropped (")
	})
	t.Run("cancelled", func(t *testing.T) {
		e, buf := start(t, Options{Faults: Faults{Latency: 2 * time.Second}})
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.ts.URL+"/api/v1/server_settings", nil)
		if resp, err := e.ts.Client().Do(req); err == nil {
			_ = resp.Body.Close()
			t.Fatal("answered")
		}
		buf.waitFor(t, "GET /api/v1/server_settings -> no answer: the client went away (")
	})
	t.Run("not read", func(t *testing.T) {
		var buf frontSyncBuffer
		srv, base, stop := frontSlowServer(t, Options{Logger: log.New(&buf, "", 0)}, 3000, 300*time.Millisecond)
		defer stop()
		conn := frontNonReader(t, srv, base, "/api/v1/realm/linkifiers")
		defer func() { _ = conn.Close() }()
		buf.waitFor(t, "GET /api/v1/realm/linkifiers -> 200, not delivered: ")
	})
}

// frontSlowServer starts srv behind a listener whose connections have small
// send buffers, seeded with n linkifiers so that GET /realm/linkifiers is an
// answer far larger than the socket buffers. sendTimeout, when set, replaces
// the default deadline for writing an answer. It returns the server, its base
// URL and a stop function.
func frontSlowServer(tb testing.TB, opts Options, n int, sendTimeout time.Duration) (*Server, string, func()) {
	tb.Helper()
	srv, err := New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	if sendTimeout > 0 {
		srv.sendTimeout = sendTimeout
	}
	srv.Do(func(r *Realm) {
		for i := 0; i < n; i++ {
			r.Linkifiers = append(r.Linkifiers, &Linkifier{ID: 100000 + i,
				Pattern:     fmt.Sprintf(`#(?P<id>[0-9]+)-%d-padding-padding-padding`, i),
				URLTemplate: fmt.Sprintf("https://tracker.example.com/%d/issues/{id}/with/a/long/path", i)})
		}
	})
	ts := httptest.NewUnstartedServer(srv)
	ts.Listener = frontSmallBufferListener{ts.Listener}
	ConfigureHTTPServer(ts.Config)
	ts.Start()
	return srv, ts.URL, ts.Close
}

// frontSmallBufferListener gives accepted connections a small send buffer,
// so that an unread answer fills it quickly.
type frontSmallBufferListener struct{ net.Listener }

func (l frontSmallBufferListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(8 << 10)
	}
	return c, err
}

// frontNonReader sends an authenticated GET of path and never reads the answer.
func frontNonReader(tb testing.TB, srv *Server, base, path string) net.Conn {
	tb.Helper()
	u, _ := srv.User(SeedOwnerID)
	var d net.Dialer
	conn, err := d.DialContext(context.Background(), "tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		tb.Fatal(err)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4 << 10)
	}
	auth := base64.StdEncoding.EncodeToString([]byte(u.Email + ":" + u.APIKey))
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: zulip.example.com\r\nAuthorization: Basic %s\r\n\r\n", path, auth); err != nil {
		tb.Fatal(err)
	}
	return conn
}

// TestSlowClientDoesNotStallOthers: a client that never reads a large answer
// holds nothing but its own connection. Before, the realm lock was held while
// the answer was written, and with no write timeout every other request
// waited for that client to go away.
func TestSlowClientDoesNotStallOthers(t *testing.T) {
	srv, base, stop := frontSlowServer(t, Options{}, 3000, 0)
	defer stop()
	conn := frontNonReader(t, srv, base, "/api/v1/realm/linkifiers")
	defer func() { _ = conn.Close() }()
	time.Sleep(200 * time.Millisecond) // let the answer fill the buffers
	u, _ := srv.User(SeedMemberID)
	client := &http.Client{Timeout: 5 * time.Second}
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/users/me", nil)
			req.SetBasicAuth(u.Email, u.APIKey)
			resp, err := client.Do(req)
			if err != nil {
				errs <- err
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != 200 {
				errs <- fmt.Errorf("status %d", resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// An out-of-band change does not wait either.
	done := make(chan struct{})
	go func() { srv.Do(func(*Realm) {}); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Do waited for the slow client")
	}
}

// TestHTTPServerTimeouts: the servers the package builds have read, write and
// idle timeouts and a header limit, and ConfigureHTTPServer keeps values
// already set.
func TestHTTPServerTimeouts(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.NewHTTPServer(nil)
	if hs.Handler != srv || hs.ReadHeaderTimeout != ReadHeaderTimeout || hs.ReadTimeout != ReadTimeout ||
		hs.WriteTimeout != WriteTimeout || hs.IdleTimeout != IdleTimeout || hs.MaxHeaderBytes != MaxHeaderBytes {
		t.Errorf("%+v", hs)
	}
	if ReadTimeout < 90*time.Second || WriteTimeout < ReadTimeout {
		t.Errorf("timeouts shorter than a long-poll: read %s, write %s", ReadTimeout, WriteTimeout)
	}
	own := &http.Server{ReadTimeout: time.Second}
	ConfigureHTTPServer(own)
	if own.ReadTimeout != time.Second || own.WriteTimeout != WriteTimeout {
		t.Errorf("%+v", own)
	}
	if srv.sendTimeout != defaultSendTimeout {
		t.Errorf("send timeout %s", srv.sendTimeout)
	}
}

// TestSendWithoutDeadlineSupport: answers go through writers that support
// neither deadlines nor flushing (a recorder that is not an http.Flusher).
func TestSendWithoutDeadlineSupport(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := &frontPlainWriter{header: http.Header{}}
	srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/api/v1/server_settings", nil))
	if w.status != 200 || !strings.Contains(w.body.String(), `"result":"success"`) {
		t.Errorf("%d %s", w.status, w.body.String())
	}
	if w.header.Get("Content-Length") != fmt.Sprint(w.body.Len()) {
		t.Errorf("Content-Length %q for %d bytes", w.header.Get("Content-Length"), w.body.Len())
	}
}

// frontPlainWriter is a bare http.ResponseWriter.
type frontPlainWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *frontPlainWriter) Header() http.Header { return w.header }
func (w *frontPlainWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *frontPlainWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = 200
	}
	return w.body.Write(p)
}

// TestNonIntegerPathIDs: Zulip's <int:...> converters make a non-integer id
// match no route: Django's 404 page, not a JSON error. Out-of-range digits
// match and find nothing.
func TestNonIntegerPathIDs(t *testing.T) {
	e := coreStart(t, Options{})
	for _, p := range []string{"/saved_snippets/abc", "/saved_snippets/+1", "/saved_snippets/1.0"} {
		a := e.coreRequest(SeedMemberID, http.MethodDelete, p, url.Values{})
		if a.status != 404 || !strings.Contains(a.raw, "Page not found (404)") {
			t.Errorf("DELETE %s: %d %.100s", p, a.status, a.raw)
		}
	}
	a := e.coreRequest(SeedMemberID, http.MethodDelete, "/saved_snippets/99999999999999999999999", url.Values{})
	coreWantError(t, a, 404, "BAD_REQUEST", "")
}
