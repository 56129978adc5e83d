package zulip

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// fastClock is a clock shared by a client and a reference server that runs twenty times
// faster than the real one, so that a minute's rate-limit window passes in 3s while
// concurrent calls still see time pass together, as they would.
type fastClock struct {
	realStart time.Time
	start     time.Time
}

const fastClockSpeed = 20

func newFastClock() *fastClock {
	return &fastClock{realStart: time.Now(), start: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fastClock) Now() time.Time {
	return c.start.Add(time.Since(c.realStart) * fastClockSpeed)
}

func (c *fastClock) Sleep(ctx context.Context, d time.Duration) error {
	return sleepContext(ctx, d/fastClockSpeed)
}

// burstResult is what a burst against a rate-limited reference server saw.
type burstResult struct {
	errs      []error
	refused   int // 429 answers
	paced     int // waits before sending
	warned    int // entries for Warnf
	simulated time.Duration
}

// runBurst creates n linkifiers and reads the list after each, with Terraform's default
// parallelism of 10, against a reference server limited to limit requests a minute, with
// the client's default retry settings.
func runBurst(t *testing.T, limit, n int) burstResult {
	t.Helper()
	clock := newFastClock()
	srv, err := refserver.New(refserver.Options{RateLimit: limit, Clock: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The pacer reads the server's time from Date; Go's server would write the real one.
		w.Header().Set("Date", clock.Now().Format(http.TimeFormat))
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	admin, _ := srv.User(refserver.SeedAdminID)

	var res burstResult
	var mu sync.Mutex
	client, err := New(Config{
		SiteURL: hs.URL, Email: admin.Email, APIKey: admin.APIKey,
		Sleep: clock.Sleep, Now: clock.Now,
		Logf: func(_ context.Context, msg string, fields map[string]any) {
			mu.Lock()
			defer mu.Unlock()
			if fields["status"] == http.StatusTooManyRequests {
				res.refused++
			}
			if strings.Contains(msg, "waiting for it to come back") {
				res.paced++
			}
		},
		Warnf: func(_ context.Context, msg string, fields map[string]any) {
			mu.Lock()
			defer mu.Unlock()
			res.warned++
			if strings.Contains(msg, "waiting for it to come back") {
				res.paced++
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	start := clock.Now()
	work := make(chan int)
	errs := make(chan error, n)
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				ctx := context.Background()
				_, err := client.CreateLinkifier(ctx, LinkifierRequest{
					Pattern: fmt.Sprintf("BURST%d-(?P<id>[0-9]+)", i), URLTemplate: fmt.Sprintf("https://b.example/%d/{id}", i),
				})
				if err == nil {
					_, err = client.ListLinkifiers(ctx)
				}
				errs <- err
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			res.errs = append(res.errs, err)
		}
	}
	res.simulated = clock.Now().Sub(start)
	return res
}

// TestPacing_burstAtLowRateLimit is the measured failure of issue 11: a burst of 12
// linkifiers at 20 requests a minute failed with the old defaults. With pacing the client
// waits for the window before the server refuses anything.
func TestPacing_burstAtLowRateLimit(t *testing.T) {
	t.Parallel()
	res := runBurst(t, 20, 12)
	for _, err := range res.errs {
		t.Error(err)
	}
	if res.paced == 0 {
		t.Error("24 requests at 20 a minute, and the client never paced itself")
	}
	if res.refused != 0 {
		t.Errorf("the server refused %d requests: the client did not pace itself in time", res.refused)
	}
	if res.warned == 0 {
		t.Error("waits of a minute were not reported through Warnf")
	}
	t.Logf("simulated duration %s, %d paced waits", res.simulated, res.paced)
}

// TestPacing_burstAtZulipsDefaultLimit runs more requests than Zulip's default budget of
// 200 a minute allows (whether they outrun the window depends on the machine's speed, so
// only the outcome is checked).
func TestPacing_burstAtZulipsDefaultLimit(t *testing.T) {
	t.Parallel()
	res := runBurst(t, 200, 120)
	for _, err := range res.errs {
		t.Error(err)
	}
	if res.refused != 0 {
		t.Errorf("the server refused %d requests", res.refused)
	}
	t.Logf("simulated duration %s, %d paced waits", res.simulated, res.paced)
}

// TestPacing_waitersShareTheBudgetInOrder checks that calls waiting for the reset get the
// returning budget in the order they came, and that calls beyond it wait for an answer
// rather than racing the others.
func TestPacing_waitersShareTheBudgetInOrder(t *testing.T) {
	var p pacer
	now := time.Unix(1000, 0)
	h := http.Header{}
	h.Set("X-RateLimit-Limit", "2")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", "1010")
	p.finish(p.force(&pacerTurn{}, now), h, now)

	a, b, c := &pacerTurn{}, &pacerTurn{}, &pacerTurn{}
	for _, turn := range []*pacerTurn{a, b, c} {
		if _, d, _ := p.reserve(now, turn); d != 10*time.Second {
			t.Fatalf("reserve before the reset waits %s, want 10s", d)
		}
	}
	// At the reset the third waiter happens to ask first: two slots come back, and they are
	// the first two waiters'.
	reset := now.Add(10 * time.Second)
	if ticket, d, answered := p.reserve(reset, c); ticket != 0 || d != 0 || answered == nil {
		t.Fatalf("the third waiter got ticket %d, wait %s, answer channel %v; want to wait for an answer", ticket, d, answered)
	}
	ticketB, d, _ := p.reserve(reset, b)
	if ticketB == 0 || d != 0 {
		t.Fatalf("the second waiter must go: ticket %d, wait %s", ticketB, d)
	}
	if ticket, d, _ := p.reserve(reset, a); ticket == 0 || d != 0 {
		t.Fatalf("the first waiter must go: ticket %d, wait %s", ticket, d)
	}
	// A newcomer does not overtake the third waiter.
	newcomer := &pacerTurn{}
	if ticket, _, answered := p.reserve(reset, newcomer); ticket != 0 || answered == nil {
		t.Fatalf("a newcomer overtook a waiter: ticket %d", ticket)
	}
	_, _, answered := p.reserve(reset, c)
	// An answer wakes the waiters, and tells them how long the new window lasts.
	h.Set("X-RateLimit-Reset", "1070")
	p.finish(ticketB, h, reset)
	select {
	case <-answered:
	default:
		t.Fatal("an answer did not wake the calls waiting for one")
	}
	if _, d, _ := p.reserve(reset, c); d != 60*time.Second {
		t.Errorf("after the answer the third waiter waits %s, want 60s", d)
	}
	// A call that gives up leaves the queue; the newcomer is then first.
	p.leave(c)
	if pos := p.positionLocked(newcomer); pos != 0 {
		t.Errorf("after the first waiter left, the newcomer is at %d", pos)
	}
}

// TestPacing_afterRefusalOneRequestProbes checks the state a 429 leaves: nothing goes until
// its Retry-After, then one request, whose answer tells the others what is left.
func TestPacing_afterRefusalOneRequestProbes(t *testing.T) {
	var p pacer
	now := time.Unix(1000, 0)
	p.refused(p.force(&pacerTurn{}, now), 3*time.Second, now)
	first := &pacerTurn{}
	if _, d, _ := p.reserve(now, first); d != 3*time.Second {
		t.Fatalf("reserve waits %s, want the 3s of Retry-After", d)
	}
	later := now.Add(3 * time.Second)
	probe, d, _ := p.reserve(later, first)
	if probe == 0 || d != 0 {
		t.Fatalf("no probe after Retry-After: ticket %d, wait %s", probe, d)
	}
	second := &pacerTurn{}
	if ticket, _, answered := p.reserve(later, second); ticket != 0 || answered == nil {
		t.Fatal("a second request went along with the probe")
	}
	h := http.Header{}
	h.Set("X-RateLimit-Limit", "200")
	h.Set("X-RateLimit-Remaining", "150")
	h.Set("X-RateLimit-Reset", "1060")
	p.finish(probe, h, later)
	if ticket, d, _ := p.reserve(later, second); ticket == 0 || d != 0 {
		t.Errorf("after the probe's answer: ticket %d, wait %s", ticket, d)
	}

	// A server that sends no rate-limit headers (forced 429s from a proxy) ends the probing.
	var q pacer
	q.refused(q.force(&pacerTurn{}, now), time.Second, now)
	probe, _, _ = q.reserve(now.Add(time.Second), &pacerTurn{})
	q.finish(probe, http.Header{}, now.Add(time.Second))
	for range 3 {
		if ticket, d, _ := q.reserve(now.Add(time.Second), &pacerTurn{}); ticket == 0 || d != 0 {
			t.Fatalf("pacing persists without headers: ticket %d, wait %s", ticket, d)
		}
	}
}

// TestPacing_cancelledDuringLongWait waits on the real clock for a reset a minute away and
// is cancelled: it must return at once (Ctrl-C in Terraform cancels the context).
func TestPacing_cancelledDuringLongWait(t *testing.T) {
	env := setup(t, func(c *Config) { c.Sleep = nil; c.Now = nil })
	env.handle("/realm/linkifiers", func(w http.ResponseWriter, r *http.Request) {
		rateLimitHeaders(w, time.Now(), 0, time.Minute)
		linkifiersOK(w, r)
	})
	if _, err := env.client.ListLinkifiers(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := env.client.ListLinkifiers(ctx)
	elapsed := time.Since(start)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "rate limit") {
		t.Fatalf("error = %v, want a cancelled wait for the rate limit", err)
	}
	if !IsNotSent(err) {
		t.Errorf("a call cancelled before its request was sent is not IsNotSent: %v", err)
	}
	// Generous: the point is "not a minute".
	if elapsed > 2*time.Second {
		t.Errorf("the cancelled wait returned after %s", elapsed)
	}
}

// TestPacing_cancelledWhileWaitingForAnAnswer covers the other kind of wait: for an answer
// to a request in flight after a reset.
func TestPacing_cancelledWhileWaitingForAnAnswer(t *testing.T) {
	release := make(chan struct{})
	env := setup(t, func(c *Config) { c.Sleep = nil; c.Now = nil })
	t.Cleanup(func() { close(release) }) // before the server's Close, which waits for the handler
	var count atomic.Int32
	env.handle("/realm/linkifiers", func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1) > 1 {
			select { // the probe hangs
			case <-release:
			case <-r.Context().Done():
			}
		}
		rateLimitHeaders(w, time.Now(), 0, time.Second)
		linkifiersOK(w, r)
	})
	if _, err := env.client.ListLinkifiers(context.Background()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // past the reset: one request probes, the next waits for it
	go func() { _, _ = env.client.ListLinkifiers(context.Background()) }()
	for count.Load() < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := env.client.ListLinkifiers(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v", err)
	}
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("the cancelled wait returned after %s", elapsed)
	}
}

// TestClient_longWaitsAreWarned checks that waits over a second reach Warnf, with the wait
// and the reason, and shorter ones stay in Logf.
func TestClient_longWaitsAreWarned(t *testing.T) {
	var mu sync.Mutex
	var warned []logEntry
	env := setup(t, func(c *Config) {
		c.Warnf = func(_ context.Context, msg string, fields map[string]any) {
			mu.Lock()
			defer mu.Unlock()
			warned = append(warned, logEntry{msg, fields})
		}
	})
	var count atomic.Int32
	env.handle("/realm/linkifiers", sequence(&count, rateLimited("0.5", ""), rateLimited("30", ""), linkifiersOK))
	if _, err := env.client.ListLinkifiers(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(warned) != 1 || warned[0].fields["wait"] != "30s" || !strings.Contains(fmt.Sprint(warned[0].fields["reason"]), "rate limited") {
		t.Errorf("warned = %v, want the 30s wait only", warned)
	}
	short := false
	for _, e := range env.Logs() {
		if e.msg == "zulip: retrying request" && e.fields["retry_in_ms"] == int64(500) {
			short = true
		}
	}
	if !short {
		t.Error("the short wait is not in the debug log")
	}
}

// TestClient_requestTimeout checks that a server that accepts a request and never answers
// fails the call in about request_timeout, without retries, whether it sends nothing or
// stops in the middle of the body.
func TestClient_requestTimeout(t *testing.T) {
	for name, handler := range map[string]func(w http.ResponseWriter, r *http.Request){
		"no answer": func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		},
		"half a body": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"result":"success",`))
			http.NewResponseController(w).Flush() //nolint:errcheck // best effort
			<-r.Context().Done()
		},
	} {
		t.Run(name, func(t *testing.T) {
			env := setup(t, func(c *Config) { c.RequestTimeout = Set(100 * time.Millisecond); c.Sleep = nil; c.Now = nil })
			var count atomic.Int32
			env.handle("/realm/linkifiers", func(w http.ResponseWriter, r *http.Request) {
				count.Add(1)
				handler(w, r)
			})
			start := time.Now()
			_, err := env.client.ListLinkifiers(context.Background())
			if !errors.Is(err, ErrRequestTimeout) || !strings.Contains(err.Error(), "request_timeout") {
				t.Fatalf("error = %v, want ErrRequestTimeout naming request_timeout", err)
			}
			if errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("a request timeout looks like the caller's deadline: %v", err)
			}
			if n := count.Load(); n != 1 {
				t.Errorf("%d requests; a timed-out request must not be retried", n)
			}
			if elapsed := time.Since(start); elapsed > 5*time.Second {
				t.Errorf("the call took %s", elapsed)
			}
		})
	}
}

// TestClient_fetchStateRetriedAfterDroppedConnection: reading state through register is
// retried like a read (the realm settings read of issue 11), and the queue it made deleted.
func TestClient_fetchStateRetriedAfterDroppedConnection(t *testing.T) {
	env := setup(t)
	var registers, deletes atomic.Int32
	env.handle("/register", func(w http.ResponseWriter, r *http.Request) {
		if registers.Add(1) == 1 {
			dropConnection(t)(w, r)
			return
		}
		testFormValues(t, r, map[string][]string{"event_types": {"[]"}, "fetch_event_types": {`["realm"]`}})
		success(w, `"queue_id":"q1","realm_moderation_request_channel_id":-1`)
	})
	env.handle("/events", func(w http.ResponseWriter, r *http.Request) {
		deletes.Add(1)
		success(w, "")
	})
	resp, err := env.client.FetchState(context.Background(), EventTypeRealm)
	if err != nil {
		t.Fatal(err)
	}
	if resp.RealmModerationRequestChannelID == nil || *resp.RealmModerationRequestChannelID != -1 {
		t.Errorf("answer = %+v", resp)
	}
	if registers.Load() != 2 || deletes.Load() != 1 {
		t.Errorf("%d registers, %d queue deletions; want 2 and 1", registers.Load(), deletes.Load())
	}
}

// TestPacing_unitsComeBackAsRequestsLeaveTheWindow: Zulip's window slides, so the unit of
// each request comes back a window after it, not when the whole budget is back at Reset.
// Units that another client spent (seen only in Remaining) wait for Reset.
func TestPacing_unitsComeBackAsRequestsLeaveTheWindow(t *testing.T) {
	var p pacer
	start := time.Unix(1000, 0)
	answer := func(at time.Duration, remaining int) {
		t.Helper()
		now := start.Add(at)
		ticket, d, _ := p.reserve(now, &pacerTurn{})
		if ticket == 0 || d != 0 {
			t.Fatalf("request at +%s did not go: wait %s", at, d)
		}
		h := http.Header{}
		h.Set("X-RateLimit-Limit", "3")
		h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
		h.Set("X-RateLimit-Reset", strconv.FormatInt(now.Add(time.Minute).Unix(), 10))
		p.finish(ticket, h, now)
	}
	// A budget of 3 a minute, spent at +0s, +20s and +40s: Reset is at +100s.
	answer(0, 2)
	answer(20*time.Second, 1)
	answer(40*time.Second, 0)
	now := start.Add(40 * time.Second)
	first, second, third := &pacerTurn{}, &pacerTurn{}, &pacerTurn{}
	// The window's length is known within a second each way: the units come back at most a
	// second late, at +61s and +81s; the third waiter's would come back after Reset.
	for _, c := range []struct {
		turn *pacerTurn
		want time.Duration
	}{{first, 21 * time.Second}, {second, 41 * time.Second}, {third, 60 * time.Second}} {
		if _, d, _ := p.reserve(now, c.turn); d != c.want {
			t.Errorf("waiter waits %s, want %s", d, c.want)
		}
	}
	if ticket, d, _ := p.reserve(start.Add(61*time.Second), first); ticket == 0 || d != 0 {
		t.Fatalf("the first unit did not come back at +61s: ticket %d, wait %s", ticket, d)
	}
	if ticket, d, _ := p.reserve(start.Add(61*time.Second), second); ticket != 0 || d != 20*time.Second {
		t.Fatalf("the second waiter got ticket %d and wait %s at +61s, want to wait 20s", ticket, d)
	}

	// Another client spent two of the three units: only this client's own comes back early.
	var q pacer
	ticket, _, _ := q.reserve(start, &pacerTurn{})
	h := http.Header{}
	h.Set("X-RateLimit-Limit", "3")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", strconv.FormatInt(start.Add(90*time.Second).Unix(), 10))
	q.finish(ticket, h, start)
	if _, d, _ := q.reserve(start, &pacerTurn{}); d != 90*time.Second {
		t.Errorf("with the budget spent by another client, the waiter waits %s, want Reset's 90s", d)
	}
}

// TestNotSent_lostAnswerWasSent: a request whose answer is lost (the connection
// closed after the server read it) may have been processed, so it is not IsNotSent;
// one that could not connect at all is.
func TestNotSent_lostAnswerWasSent(t *testing.T) {
	env := setup(t)
	env.handle("/realm/filters", func(w http.ResponseWriter, _ *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		_ = conn.Close()
	})
	_, err := env.client.CreateLinkifier(context.Background(), LinkifierRequest{Pattern: "A-(?P<id>[0-9]+)", URLTemplate: "https://a.example/{id}"})
	if err == nil || IsNotSent(err) {
		t.Errorf("a create whose answer was lost: error %v, IsNotSent %t; want an error that may have been processed", err, IsNotSent(err))
	}

	refused, err := New(Config{SiteURL: "http://127.0.0.1:1", Email: "a@example.com", APIKey: "k", MaxRetries: Off[int]()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = refused.CreateLinkifier(context.Background(), LinkifierRequest{Pattern: "A-(?P<id>[0-9]+)", URLTemplate: "https://a.example/{id}"})
	if !IsNotSent(err) {
		t.Errorf("a create that could not connect is not IsNotSent: %v", err)
	}
}
