package refserver

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// FuzzServeHTTP sends arbitrary methods, paths, content types and bodies, as
// any of the seeded users (or none, or with a wrong key), to the server with
// fault injection off, and requires an answer that is not a 5xx: a 5xx from
// Zulip means a server bug, and the reference server's only deliberate ones
// are injected faults. A panic fails the test too. The seed corpus is in
// testdata/fuzz/FuzzServeHTTP; `go test` runs the seeds, and
//
//	go test -run '^$' -fuzz FuzzServeHTTP -fuzztime 60s ./internal/refserver/
//
// explores from them.
func FuzzServeHTTP(f *testing.F) {
	f.Add("GET", "/api/v1/users/me", "", []byte(nil), uint8(1))
	f.Add("POST", "/api/v1/saved_snippets", "application/x-www-form-urlencoded", []byte("title=t&content=c"), uint8(2))
	f.Add("PATCH", "/api/v1/users/12", "multipart/form-data; boundary=b", []byte("--b\r\nContent-Disposition: form-data; name=\"role\"\r\n\r\n200\r\n--b--\r\n"), uint8(1))

	users := []int{0, SeedOwnerID, SeedMemberID, SeedGuestID, SeedBotID, SeedAdminID}
	var srv *Server
	runs := 0
	f.Fuzz(func(t *testing.T, method, path, contentType string, body []byte, who uint8) {
		// A fresh realm now and then, so that state left by earlier inputs
		// both matters and stays small.
		if srv == nil || runs%500 == 0 {
			var err error
			// No outgoing request may leave the test (webhooks of the SMS API).
			noNetwork := &http.Client{Transport: fuzzNoNetwork{}}
			// A long poll of GET /events ends with a heartbeat at once.
			if srv, err = New(Options{HTTPClient: noNetwork, EventHeartbeat: 50 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
		}
		runs++
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		req, err := http.NewRequest(method, "http://zulip.example.com"+path, bytes.NewReader(body))
		if err != nil {
			return // not an HTTP request a client could send
		}
		req.RequestURI = req.URL.RequestURI()
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		switch idx := int(who) % (len(users) + 1); {
		case idx == len(users):
			owner, _ := srv.User(SeedOwnerID)
			req.SetBasicAuth(owner.Email, strings.Repeat("k", 32))
		case users[idx] != 0:
			u, _ := srv.User(users[idx])
			req.SetBasicAuth(u.Email, u.APIKey)
		}
		rec := httptest.NewRecorder()
		t0 := time.Now()
		srv.ServeHTTP(rec, req)
		if d := time.Since(t0); d > 10*time.Second {
			t.Fatalf("%s %q (%s, %q as %d) took %s", method, path, contentType, body, who, d)
		}
		if rec.Code >= 500 {
			t.Fatalf("%s %q (%s, %q as %d): %d %s", method, path, contentType, body, who, rec.Code, rec.Body.String())
		}
	})
}

// fuzzNoNetwork refuses every outgoing request.
type fuzzNoNetwork struct{}

func (fuzzNoNetwork) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("no network in the fuzz test")
}
