package refserver

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestLinkifierSlowCheckStallsNobody: while a linkifier's pattern is checked
// against its example (offLock), the server lock is free: requests of other
// users, and unauthenticated ones, are answered while the check is held up.
// The check is held until they are (offLockStarted), so the test does not
// depend on how long a check takes; were the lock held, they would never be.
func TestLinkifierSlowCheckStallsNobody(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	admin, _ := srv.User(SeedAdminID)
	checking, release := make(chan struct{}), make(chan struct{})
	srv.Do(func(*Realm) {
		srv.offLockStarted = func() {
			close(checking)
			<-release
		}
	})
	form := url.Values{"pattern": {"(?P<id>[ab]+)c"},
		"url_template": {"https://example.com/{id}"}, "example_input": {"aaaa"}}
	type result struct {
		status int
		body   string
	}
	slow := make(chan result, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/v1/realm/filters", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(admin.Email, admin.APIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			slow <- result{status: -1, body: err.Error()}
			return
		}
		defer func() { _ = resp.Body.Close() }()
		raw, _ := io.ReadAll(resp.Body)
		slow <- result{status: resp.StatusCode, body: string(raw)}
	}()
	<-checking
	quick := make(chan error, 1)
	go func() {
		resp, err := http.Get(ts.URL + "/api/v1/server_settings")
		if err != nil {
			quick <- err
			return
		}
		_ = resp.Body.Close()
		status, body := cfgDo(t, srv, ts, SeedMemberID, http.MethodGet, "/realm/linkifiers", nil)
		if status != http.StatusOK {
			quick <- fmt.Errorf("GET /realm/linkifiers: %d %s", status, body)
			return
		}
		quick <- nil
	}()
	select {
	case err := <-quick:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		close(release)
		t.Fatal("the other requests were not answered while a linkifier was checked: the check holds the lock")
	}
	close(release)
	got := <-slow
	if got.status != http.StatusBadRequest || !strings.Contains(got.body, "Example input does not match the linkifier pattern.") {
		t.Fatalf("the checked request: %d %.200s", got.status, got.body)
	}
}

// TestLinkifierPatternTooLarge: RE2 refuses a pattern whose program exceeds
// two thirds of its 8 MiB max_mem (re2.cc RE2::Init, compile.cc
// Compiler::Setup), in its words, under __all__ as clean() reports a bad
// pattern; a pattern within the budget is accepted however long.
func TestLinkifierPatternTooLarge(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	// 700 times a{1000}: a short pattern, a program of 700,002 instructions.
	status, body := cfgDo(t, srv, ts, SeedAdminID, http.MethodPost, "/realm/filters",
		cfgForm("pattern", strings.Repeat("a{1000}", 700), "url_template", "https://example.com/"))
	const msg = "Bad regular expression: pattern too large - compile failed"
	cfgWantError(t, status, body, http.StatusBadRequest, "BAD_REQUEST", msg)
	if cfgJSON(body["errors"]) != `{"__all__":["`+msg+`"]}` {
		t.Fatalf("errors: %v", body["errors"])
	}
	status, body = cfgDo(t, srv, ts, SeedAdminID, http.MethodPost, "/realm/filters",
		cfgForm("pattern", strings.Repeat("a", 100000), "url_template", "https://example.com/"))
	cfgWantOK(t, status, body)
}

// TestOffLock: the work runs once per request and key; a rerun with other
// inputs (the realm changed while the lock was released) does it again, and
// a request that went away leaves nothing behind.
func TestOffLock(t *testing.T) {
	srv, _ := cfgServer(t, 0)
	c := &call{s: srv}
	runs := 0
	work := func(v string) func() any { return func() any { runs++; return v } }
	srv.mu.Lock()
	defer srv.mu.Unlock()
	wait := func(err error) *waitError {
		t.Helper()
		var w *waitError
		if !errors.As(err, &w) {
			t.Fatalf("want a waitError, got %v", err)
		}
		<-w.woken
		return w
	}
	_, err := c.offLock("a", work("A"))
	_ = wait(err)
	if got, err := c.offLock("a", work("A")); err != nil || got != "A" {
		t.Fatalf("rerun: %v, %v", got, err)
	}
	if got, err := c.offLock("b", work("B")); err == nil {
		t.Fatalf("other inputs: got %v without waiting", got)
	} else {
		_ = wait(err)
	}
	if got, _ := c.offLock("b", work("B")); got != "B" || runs != 2 {
		t.Fatalf("got %v after %d runs", got, runs)
	}
	_, err = c.offLock("c", work("C"))
	w := wait(err)
	w.onGone()
	if len(srv.offLockJobs) != 0 {
		t.Fatalf("left behind: %v", srv.offLockJobs)
	}
}
