package acctest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Fault is what a FaultyProvider's proxy does with one request.
type Fault struct {
	// Status, when not zero, is answered instead of the server's answer:
	// 502 and 504 as a proxy's HTML page, anything else as a Zulip JSON error.
	Status int
	// Process lets the server handle the request before the answer is
	// replaced: the lost-answer case, where the change is made but the client
	// cannot know it.
	Process bool
	// Before runs before the request is handled, e.g. to change the realm
	// behind the provider's back at an exact moment.
	Before func()
	// Late answers Status at once and lets the server handle the request only
	// after it has answered the next one: a request still in flight at the
	// server when the client gave up, and when it looked to see what was made.
	Late bool
}

// FaultyProviderConfig returns a provider block acting as a seeded user
// through a proxy in front of the reference server. fault is called for each
// request, one at a time, in arrival order; its zero Fault passes the request
// through. Retries are off, so each fault reaches the provider as it is.
func (s *Server) FaultyProviderConfig(t *testing.T, userID int, fault func(*http.Request) Fault) string {
	t.Helper()
	u, ok := s.User(userID)
	if !ok {
		t.Fatalf("no user %d in the reference server", userID)
	}
	var mu sync.Mutex
	var late func() // a Late request, handled after the next one is answered
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		f := fault(r)
		var after func()
		if !f.Late {
			after, late = late, nil
		}
		mu.Unlock()
		if after != nil {
			defer after()
		}
		if f.Before != nil {
			f.Before()
		}
		if f.Late {
			body, _ := io.ReadAll(r.Body)
			held := r.Clone(context.Background())
			held.Body = io.NopCloser(bytes.NewReader(body))
			mu.Lock()
			late = func() { s.ServeHTTP(httptest.NewRecorder(), held) }
			mu.Unlock()
		}
		if f.Status == 0 {
			s.ServeHTTP(w, r)
			return
		}
		if f.Process {
			s.ServeHTTP(httptest.NewRecorder(), r)
		}
		if f.Status == http.StatusBadGateway || f.Status == http.StatusGatewayTimeout {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(f.Status)
			_, _ = fmt.Fprintf(w, "<html><title>%d %s</title></html>", f.Status, http.StatusText(f.Status)) // a failed write shows in the provider's answer
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.Status)
		_, _ = io.WriteString(w, `{"result":"error","msg":"Injected failure","code":"BAD_REQUEST"}`) // a failed write shows in the provider's answer
	}))
	t.Cleanup(hs.Close)
	return fmt.Sprintf(`
provider "zulip" {
  url         = %q
  email       = %q
  api_key     = %q
  max_retries = 0
}
`, hs.URL, u.Email, u.APIKey)
}
