package zulip

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// sequence answers successive requests with the given handlers (the last one repeats) and
// counts them.
func sequence(count *atomic.Int32, handlers ...http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n := int(count.Add(1))
		handlers[min(n, len(handlers))-1](w, r)
	}
}

func rateLimited(header string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if header != "" {
			w.Header().Set("Retry-After", header)
		}
		writeJSON(w, http.StatusTooManyRequests, `{"result":"error","msg":"API usage exceeded rate limit","code":"RATE_LIMIT_HIT"`+body+`}`)
	}
}

func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, code, `{"result":"error","msg":"temporarily unavailable","code":"BAD_REQUEST"}`)
	}
}

func linkifiersOK(w http.ResponseWriter, r *http.Request) {
	success(w, `"linkifiers":[{"id":1,"pattern":"p","url_template":"u"}]`)
}

func TestRetry_rateLimited(t *testing.T) {
	tests := []struct {
		name     string
		header   string
		body     string
		wantWait time.Duration
	}{
		{"header only", "3", "", 3 * time.Second},
		{"body only", "", `,"retry-after":2.5`, 2500 * time.Millisecond},
		{"fractional header", "1.5", `,"retry-after":0.7`, 1500 * time.Millisecond},
		{"body larger than header", "2", `,"retry-after":5.25`, 5250 * time.Millisecond},
		{"neither: backoff", "", "", 250 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := setup(t)
			var count atomic.Int32
			env.handle("/realm/linkifiers", sequence(&count, rateLimited(tt.header, tt.body), linkifiersOK))
			got, err := env.client.ListLinkifiers(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || count.Load() != 2 {
				t.Errorf("got %v after %d requests", got, count.Load())
			}
			if sleeps := env.clock.Sleeps(); !reflect.DeepEqual(sleeps, []time.Duration{tt.wantWait}) {
				t.Errorf("waits = %v, want [%s]", sleeps, tt.wantWait)
			}
		})
	}
}

func TestRetry_rateLimitJitter(t *testing.T) {
	env := setup(t, func(c *Config) { c.Rand = func() float64 { return 0.5 } })
	var count atomic.Int32
	env.handle("/realm/linkifiers", sequence(&count, rateLimited("20", ""), linkifiersOK))
	if _, err := env.client.ListLinkifiers(context.Background()); err != nil {
		t.Fatal(err)
	}
	// 20s asked, plus half of the jitter cap (min(20s/10, 1s) = 1s).
	if sleeps := env.clock.Sleeps(); !reflect.DeepEqual(sleeps, []time.Duration{20500 * time.Millisecond}) {
		t.Errorf("waits = %v", sleeps)
	}
}

func TestRetry_serverErrorsThenSuccess(t *testing.T) {
	for _, code := range []int{http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			env := setup(t)
			var count atomic.Int32
			env.handle("/realm/linkifiers", sequence(&count, status(code), status(code), linkifiersOK))
			if _, err := env.client.ListLinkifiers(context.Background()); err != nil {
				t.Fatal(err)
			}
			if count.Load() != 3 {
				t.Errorf("%d requests, want 3", count.Load())
			}
			// Exponential backoff with Rand = 0: half of 0.5s, then half of 1s.
			want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond}
			if sleeps := env.clock.Sleeps(); !reflect.DeepEqual(sleeps, want) {
				t.Errorf("waits = %v, want %v", sleeps, want)
			}
		})
	}
}

func TestRetry_serverErrorHonoursRetryAfter(t *testing.T) {
	env := setup(t)
	var count atomic.Int32
	env.handle("/realm/linkifiers", sequence(&count, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "4")
		status(http.StatusServiceUnavailable)(w, r)
	}, linkifiersOK))
	if _, err := env.client.ListLinkifiers(context.Background()); err != nil {
		t.Fatal(err)
	}
	if sleeps := env.clock.Sleeps(); !reflect.DeepEqual(sleeps, []time.Duration{4 * time.Second}) {
		t.Errorf("waits = %v", sleeps)
	}
}

func TestRetry_otherErrorsAreNotRetried(t *testing.T) {
	for _, code := range []int{400, 401, 403, 404, 500} {
		env := setup(t)
		var count atomic.Int32
		env.handle("/realm/linkifiers", sequence(&count, status(code), linkifiersOK))
		_, err := env.client.ListLinkifiers(context.Background())
		wantAPIError(t, err, code, "BAD_REQUEST")
		if count.Load() != 1 || len(env.clock.Sleeps()) != 0 {
			t.Errorf("HTTP %d: %d requests, waits %v", code, count.Load(), env.clock.Sleeps())
		}
	}
}

func TestRetry_totalWaitCap(t *testing.T) {
	env := setup(t, func(c *Config) { c.MaxRetryWait = Set(30 * time.Second) })
	var count atomic.Int32
	env.handle("/realm/linkifiers", sequence(&count, rateLimited("20", `,"retry-after":20`)))
	_, err := env.client.ListLinkifiers(context.Background())
	if !IsRateLimited(err) {
		t.Fatalf("error = %v, want rate limited", err)
	}
	want := "rate limited by the Zulip server; gave up after waiting 20s in total (max_retry_wait 30s; the next wait would be 20s)"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error = %q, want it to contain %q", err, want)
	}
	if count.Load() != 2 {
		t.Errorf("%d requests, want 2", count.Load())
	}
	if sleeps := env.clock.Sleeps(); !reflect.DeepEqual(sleeps, []time.Duration{20 * time.Second}) {
		t.Errorf("waits = %v", sleeps)
	}
}

func TestRetry_maxRetries(t *testing.T) {
	env := setup(t, func(c *Config) { c.MaxRetries = Set(2) })
	var count atomic.Int32
	env.handle("/realm/linkifiers", sequence(&count, status(http.StatusServiceUnavailable)))
	_, err := env.client.ListLinkifiers(context.Background())
	wantAPIError(t, err, http.StatusServiceUnavailable, "BAD_REQUEST")
	if !strings.Contains(err.Error(), "the Zulip server answered HTTP 503; gave up after 3 attempts (max_retries 2)") {
		t.Errorf("error = %q", err)
	}
	if count.Load() != 3 {
		t.Errorf("%d requests, want 3", count.Load())
	}
}

func TestRetry_retriesDisabled(t *testing.T) {
	env := setup(t, func(c *Config) { c.MaxRetries = Off[int]() })
	var count atomic.Int32
	env.handle("/realm/linkifiers", sequence(&count, rateLimited("1", "")))
	_, err := env.client.ListLinkifiers(context.Background())
	if !IsRateLimited(err) || count.Load() != 1 || len(env.clock.Sleeps()) != 0 {
		t.Errorf("err %v, %d requests, waits %v", err, count.Load(), env.clock.Sleeps())
	}
}

func TestRetry_contextCancelledDuringWait(t *testing.T) {
	env := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	env.clock.onSleep = func(ctx context.Context, d time.Duration) error {
		cancel()
		return ctx.Err()
	}
	var count atomic.Int32
	env.handle("/realm/linkifiers", sequence(&count, rateLimited("10", ""), linkifiersOK))
	_, err := env.client.ListLinkifiers(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if !IsRateLimited(err) {
		t.Errorf("the last server answer is lost: %v", err)
	}
	if !strings.Contains(err.Error(), "stopped waiting to retry") {
		t.Errorf("error = %q", err)
	}
	if count.Load() != 1 {
		t.Errorf("%d requests, want 1", count.Load())
	}
}

func TestRetry_realSleepHonoursContext(t *testing.T) {
	env := setup(t, func(c *Config) { c.Sleep = nil; c.Now = nil })
	var count atomic.Int32
	env.handle("/realm/linkifiers", sequence(&count, rateLimited("30", "")))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := env.client.ListLinkifiers(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want deadline exceeded", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("the wait ignored the context: %s", elapsed)
	}
}

func TestRetry_contextAlreadyCancelled(t *testing.T) {
	env := setup(t)
	env.handle("/realm/linkifiers", linkifiersOK)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := env.client.ListLinkifiers(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v", err)
	}
	if len(env.clock.Sleeps()) != 0 {
		t.Errorf("a cancelled call waited: %v", env.clock.Sleeps())
	}
}

func TestRetry_createNotRetriedAfterServerError(t *testing.T) {
	for _, code := range []int{http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout} {
		env := setup(t)
		var count atomic.Int32
		env.handle("/realm/filters", sequence(&count, status(code), func(w http.ResponseWriter, r *http.Request) {
			success(w, `"id":9`)
		}))
		_, err := env.client.CreateLinkifier(context.Background(), LinkifierRequest{Pattern: "p", URLTemplate: "u"})
		wantAPIError(t, err, code, "BAD_REQUEST")
		if count.Load() != 1 || len(env.clock.Sleeps()) != 0 {
			t.Errorf("HTTP %d: a create was retried (%d requests, waits %v)", code, count.Load(), env.clock.Sleeps())
		}
	}
}

func TestRetry_createRetriedWhenRateLimited(t *testing.T) {
	env := setup(t)
	var count atomic.Int32
	var bodies []url.Values
	env.handle("/realm/filters", sequence(&count, func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		bodies = append(bodies, r.PostForm)
		rateLimited("1", "")(w, r)
	}, func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		bodies = append(bodies, r.PostForm)
		success(w, `"id":9`)
	}))
	id, err := env.client.CreateLinkifier(context.Background(), LinkifierRequest{Pattern: "p", URLTemplate: "u"})
	if err != nil || id != 9 {
		t.Fatalf("CreateLinkifier = %d, %v", id, err)
	}
	if count.Load() != 2 || len(bodies) != 2 || !reflect.DeepEqual(bodies[0], bodies[1]) || bodies[1].Get("pattern") != "p" {
		t.Errorf("retried request differs or is missing: %v", bodies)
	}
}

// refuseFirstDial returns a client whose first connection attempt is refused before any
// byte is sent, as when the server is restarting.
func refuseFirstDial() *http.Client {
	var dials atomic.Int32
	dialer := &net.Dialer{}
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if dials.Add(1) == 1 {
				return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("connection refused")}
			}
			return dialer.DialContext(ctx, network, addr)
		},
	}}
}

func TestRetry_createRetriedWhenConnectionRefused(t *testing.T) {
	env := setup(t, func(c *Config) { c.HTTPClient = refuseFirstDial() })
	var count atomic.Int32
	env.handle("/realm/filters", sequence(&count, func(w http.ResponseWriter, r *http.Request) {
		success(w, `"id":9`)
	}))
	id, err := env.client.CreateLinkifier(context.Background(), LinkifierRequest{Pattern: "p", URLTemplate: "u"})
	if err != nil || id != 9 {
		t.Fatalf("CreateLinkifier = %d, %v", id, err)
	}
	if count.Load() != 1 || len(env.clock.Sleeps()) != 1 {
		t.Errorf("%d requests reached the server, waits %v", count.Load(), env.clock.Sleeps())
	}
}

// dropConnection reads the request and closes the connection without an answer: the
// server may have processed it.
func dropConnection(t *testing.T) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("hijack: %v", err)
			return
		}
		if err := conn.Close(); err != nil {
			t.Errorf("closing the hijacked connection: %v", err)
		}
	}
}

func TestRetry_createNotRetriedWhenConnectionDropsAfterSending(t *testing.T) {
	env := setup(t)
	var count atomic.Int32
	env.handle("/users", sequence(&count, dropConnection(t), func(w http.ResponseWriter, r *http.Request) {
		success(w, `"user_id":9`)
	}))
	_, err := env.client.CreateUser(context.Background(), CreateUserRequest{Email: "a@b.c", Password: "pw", FullName: "A"})
	if err == nil {
		t.Fatal("no error")
	}
	if count.Load() != 1 || len(env.clock.Sleeps()) != 0 {
		t.Errorf("a create was retried after it may have been processed (%d requests)", count.Load())
	}
	if _, ok := AsAPIError(err); ok {
		t.Errorf("a transport failure became an *APIError: %v", err)
	}
}

func TestRetry_readRetriedWhenConnectionDrops(t *testing.T) {
	env := setup(t)
	var count atomic.Int32
	env.handle("/realm/linkifiers", sequence(&count, dropConnection(t), linkifiersOK))
	if _, err := env.client.ListLinkifiers(context.Background()); err != nil {
		t.Fatal(err)
	}
	if count.Load() != 2 {
		t.Errorf("%d requests, want 2", count.Load())
	}
}

// rateLimitHeaders sets Zulip's rate-limit headers relative to the server clock serverNow.
func rateLimitHeaders(w http.ResponseWriter, serverNow time.Time, remaining int, resetIn time.Duration) {
	w.Header().Set("Date", serverNow.UTC().Format(http.TimeFormat))
	w.Header().Set("X-RateLimit-Limit", "200")
	w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(serverNow.Add(resetIn).Unix(), 10))
}

func TestPacing_waitsForResetWhenBudgetIsSpent(t *testing.T) {
	for _, skew := range []time.Duration{0, -time.Hour, time.Hour} {
		t.Run("skew "+skew.String(), func(t *testing.T) {
			env := setup(t)
			var count atomic.Int32
			env.handle("/realm/linkifiers", func(w http.ResponseWriter, r *http.Request) {
				n := int(count.Add(1))
				// The server's clock differs from the client's by skew; only the difference
				// between Date and X-RateLimit-Reset should matter.
				serverNow := env.clock.Now().Add(skew)
				switch n {
				case 1:
					rateLimitHeaders(w, serverNow, 1, 10*time.Second)
				case 2:
					rateLimitHeaders(w, serverNow, 0, 10*time.Second)
				default:
					rateLimitHeaders(w, serverNow, 199, 60*time.Second)
				}
				linkifiersOK(w, r)
			})
			for i := range 3 {
				if _, err := env.client.ListLinkifiers(context.Background()); err != nil {
					t.Fatalf("request %d: %v", i+1, err)
				}
			}
			// The second request uses the last unit of budget; the third waits for the reset.
			if sleeps := env.clock.Sleeps(); !reflect.DeepEqual(sleeps, []time.Duration{10 * time.Second}) {
				t.Errorf("waits = %v, want [10s]", sleeps)
			}
		})
	}
}

func TestPacing_countsRequestsInFlight(t *testing.T) {
	var p pacer
	now := time.Unix(1000, 0)
	h := http.Header{}
	h.Set("X-RateLimit-Limit", "20")
	h.Set("X-RateLimit-Remaining", "2")
	h.Set("X-RateLimit-Reset", "1030")
	p.finish(p.force(&pacerTurn{}, now), h, now)
	first, d, _ := p.reserve(now, &pacerTurn{})
	if d != 0 || first == 0 {
		t.Errorf("first reserve waits %s", d)
	}
	if _, d, _ := p.reserve(now, &pacerTurn{}); d != 0 {
		t.Errorf("second reserve waits %s", d)
	}
	if _, d, _ := p.reserve(now.Add(5*time.Second), &pacerTurn{}); d != 25*time.Second {
		t.Errorf("third reserve waits %s, want 25s", d)
	}
	// The first answer reports one request left: the server has not counted the second,
	// still in flight, so the estimate stays at none.
	h.Set("X-RateLimit-Remaining", "1")
	p.finish(first, h, now.Add(6*time.Second))
	if _, d, _ := p.reserve(now.Add(6*time.Second), &pacerTurn{}); d != 24*time.Second {
		t.Errorf("after a stale answer, reserve waits %s, want 24s", d)
	}
	if _, d, _ := p.reserve(now.Add(31*time.Second), &pacerTurn{}); d != 0 {
		t.Errorf("after the reset, reserve waits %s", d)
	}
	// Headers that are missing, malformed or absurd leave pacing off.
	for _, hdr := range []map[string]string{
		{},
		{"X-RateLimit-Remaining": "x", "X-RateLimit-Reset": "1030"},
		{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "soon"},
		{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "99999999"},
		{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "10"},
	} {
		var q pacer
		h := http.Header{}
		for k, v := range hdr {
			h.Set(k, v)
		}
		q.finish(q.force(&pacerTurn{}, now), h, now)
		if _, d, answered := q.reserve(now, &pacerTurn{}); d != 0 || answered != nil {
			t.Errorf("headers %v: reserve waits %s", hdr, d)
		}
	}
}

func TestPacing_skippedWhenBeyondWaitBudget(t *testing.T) {
	env := setup(t, func(c *Config) { c.MaxRetryWait = Set(5 * time.Second) })
	var count atomic.Int32
	env.handle("/realm/linkifiers", func(w http.ResponseWriter, r *http.Request) {
		count.Add(1)
		rateLimitHeaders(w, env.clock.Now(), 0, 50*time.Second)
		linkifiersOK(w, r)
	})
	for range 2 {
		if _, err := env.client.ListLinkifiers(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if len(env.clock.Sleeps()) != 0 || count.Load() != 2 {
		t.Errorf("waits %v, %d requests", env.clock.Sleeps(), count.Load())
	}
}

func TestBackoff(t *testing.T) {
	c := &Client{rand: func() float64 { return 0 }}
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 7500 * time.Millisecond, 7500 * time.Millisecond}
	for i, w := range want {
		if got := c.backoff(i + 1); got != w {
			t.Errorf("backoff(%d) with no jitter = %s, want %s", i+1, got, w)
		}
	}
	c.rand = func() float64 { return 0.999999 }
	for n := 1; n <= 10; n++ {
		nominal := min(backoffBase<<(n-1), backoffCap)
		if got := c.backoff(n); got < nominal/2 || got > nominal {
			t.Errorf("backoff(%d) = %s, outside [%s, %s]", n, got, nominal/2, nominal)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"3", 3 * time.Second},
		{" 1.5 ", 1500 * time.Millisecond},
		{"28.706807374954224", 28706807374 * time.Nanosecond},
		{"-4", 0},
		{"soon", 0},
		{now.Add(7 * time.Second).Format(http.TimeFormat), 7 * time.Second},
		{now.Add(-7 * time.Second).Format(http.TimeFormat), 0},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestPacing_noExtraWaitAfterRateLimit(t *testing.T) {
	env := setup(t)
	var count atomic.Int32
	env.handle("/realm/linkifiers", sequence(&count, func(w http.ResponseWriter, r *http.Request) {
		// Zulip: the next request is allowed in 2s, the full budget is back in 60s.
		rateLimitHeaders(w, env.clock.Now(), 0, 60*time.Second)
		rateLimited("2", `,"retry-after":2`)(w, r)
	}, func(w http.ResponseWriter, r *http.Request) {
		rateLimitHeaders(w, env.clock.Now(), 150, 60*time.Second)
		linkifiersOK(w, r)
	}))
	if _, err := env.client.ListLinkifiers(context.Background()); err != nil {
		t.Fatal(err)
	}
	if sleeps := env.clock.Sleeps(); !reflect.DeepEqual(sleeps, []time.Duration{2 * time.Second}) {
		t.Errorf("waits = %v, want only the 2s the server asked for", sleeps)
	}
}

func TestClient_concurrentUse(t *testing.T) {
	env := setup(t)
	var count atomic.Int32
	env.handle("/realm/linkifiers", func(w http.ResponseWriter, r *http.Request) {
		n := int(count.Add(1))
		if n%7 == 0 {
			rateLimited("1", "")(w, r)
			return
		}
		rateLimitHeaders(w, env.clock.Now(), max(0, 40-n), 10*time.Second)
		linkifiersOK(w, r)
	})
	const workers = 32
	errs := make(chan error, workers)
	for range workers {
		go func() {
			_, err := env.client.ListLinkifiers(context.Background())
			errs <- err
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// nxdomainResolver returns a resolver whose every query a DNS server in the test answers
// NXDOMAIN, so that "no such host" comes from Go's real resolver without depending on the
// machine's DNS.
func nxdomainResolver(t *testing.T) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, addr, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			// The header (12 bytes), then the question: a name as labels, type and class.
			end := 12
			for end < n && buf[end] != 0 {
				end += int(buf[end]) + 1
			}
			end += 5
			if n < 12 || end > n {
				continue
			}
			resp := append([]byte(nil), buf[:end]...)
			resp[2] = 0x84 | buf[2]&0x01 // a response, authoritative, recursion desired as asked
			resp[3] = 0x80 | 3           // recursion available, NXDOMAIN
			resp[4], resp[5] = 0, 1      // one question
			for i := 6; i < 12; i++ {    // no answer, authority or additional records
				resp[i] = 0
			}
			_, _ = pc.WriteTo(resp, addr)
		}
	}()
	server := pc.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "udp", server)
	}}
}

// countingDials returns a client that counts its connection attempts and resolves names
// with resolver.
func countingDials(dials *atomic.Int32, resolver *net.Resolver, proxy string) *http.Client {
	dialer := &net.Dialer{Resolver: resolver}
	transport := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return dialer.DialContext(ctx, network, addr)
	}}
	if proxy != "" {
		u, _ := url.Parse(proxy)
		transport.Proxy = http.ProxyURL(u)
	}
	return &http.Client{Transport: transport}
}

// TestRetry_unknownHostFailsAtOnce: "no such host" is the resolver's final word, so the
// call fails on its first attempt, without backoff, naming the host that does not resolve.
func TestRetry_unknownHostFailsAtOnce(t *testing.T) {
	tests := []struct {
		name, proxy string
		want        []string
	}{
		{"site URL", "", []string{"zulip: GET /realm/linkifiers: the site URL's host zulip.example.invalid does not resolve",
			"no such host", "check the site URL (`url`, ZULIP_SITE"}},
		{"proxy", "http://proxy.example.invalid:3128", []string{"the host proxy.example.invalid does not resolve",
			"not the site URL's host zulip.example.invalid", "check the proxy settings"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dials atomic.Int32
			resolver := nxdomainResolver(t)
			env := setup(t, func(c *Config) {
				c.SiteURL = "https://zulip.example.invalid"
				c.HTTPClient = countingDials(&dials, resolver, tt.proxy)
			})
			_, err := env.client.ListLinkifiers(context.Background())
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			var dnsErr *net.DNSError
			if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
				t.Errorf("the DNS error is not in the chain: %#v", err)
			}
			if dials.Load() != 1 || len(env.clock.Sleeps()) != 0 {
				t.Errorf("%d connection attempts, waits %v; want 1 attempt and no wait", dials.Load(), env.clock.Sleeps())
			}
		})
	}
}

// TestRetry_temporaryDNSFailureRetried: a resolver that failed or timed out may answer next
// time, so those lookups are retried like any connection failure.
func TestRetry_temporaryDNSFailureRetried(t *testing.T) {
	for _, dnsErr := range []*net.DNSError{
		{Err: "server misbehaving", Name: "zulip.example", IsTemporary: true},
		{Err: "i/o timeout", Name: "zulip.example", IsTimeout: true, IsTemporary: true},
		{Err: "no such host", Name: "zulip.example", IsNotFound: true, IsTemporary: true},
	} {
		t.Run(dnsErr.Err, func(t *testing.T) {
			var dials atomic.Int32
			dialer := &net.Dialer{}
			env := setup(t, func(c *Config) {
				c.HTTPClient = &http.Client{Transport: &http.Transport{
					DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
						if dials.Add(1) == 1 {
							return nil, &net.OpError{Op: "dial", Net: network, Err: dnsErr}
						}
						return dialer.DialContext(ctx, network, addr)
					},
				}}
			})
			var count atomic.Int32
			env.handle("/realm/linkifiers", sequence(&count, linkifiersOK))
			got, err := env.client.ListLinkifiers(context.Background())
			if err != nil || len(got) != 1 {
				t.Fatalf("ListLinkifiers = %v, %v", got, err)
			}
			if dials.Load() != 2 || count.Load() != 1 || len(env.clock.Sleeps()) != 1 {
				t.Errorf("%d connection attempts, %d requests, waits %v; want 2, 1 and one wait",
					dials.Load(), count.Load(), env.clock.Sleeps())
			}
		})
	}
}
