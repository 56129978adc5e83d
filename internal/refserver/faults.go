package refserver

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Fault injection applies to the Zulip API (/api/v1/ and /json/), including the
// unauthenticated endpoints (/server_settings, /dev_fetch_api_key, ...) and
// unknown paths, so that a client's handling of every failure can be tested on
// any call. It does not apply to the SMS API under /a1/, a different product.
//
// Each request draws one number from a math/rand source seeded with
// Options.Seed (guarded by a mutex), so a given seed yields the same sequence
// of outcomes; which request gets which outcome depends only on arrival order.

// faultKind is the outcome drawn for one request.
type faultKind int

const (
	faultNone      faultKind = iota
	faultDrop                // connection closed before processing, no answer
	faultLost                // processed (and persisted), then connection closed: the lost-answer case
	faultError               // 503 without processing
	faultRateLimit           // 429 RATE_LIMIT_HIT without processing
)

// String names the outcome, for the request log.
func (k faultKind) String() string {
	switch k {
	case faultDrop:
		return "dropped"
	case faultLost:
		return "processed, answer dropped"
	case faultError:
		return "injected 503"
	case faultRateLimit:
		return "injected 429"
	default:
		return "none"
	}
}

// faultInjector draws outcomes deterministically.
type faultInjector struct {
	f Faults

	mu  sync.Mutex
	rng *rand.Rand
}

// newFaultInjector returns an injector, or nil when f injects nothing.
func newFaultInjector(f Faults, seed int64) *faultInjector {
	if f.Latency <= 0 && f.ErrorRate <= 0 && f.DropRate <= 0 && f.LostAnswerRate <= 0 && f.RateLimitRate <= 0 {
		return nil
	}
	if f.RetryAfterSecs <= 0 {
		f.RetryAfterSecs = 0.5
	}
	s := uint64(seed)
	return &faultInjector{f: f, rng: rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))}
}

// draw picks the outcome of the next request.
func (fi *faultInjector) draw() faultKind {
	fi.mu.Lock()
	u := fi.rng.Float64()
	fi.mu.Unlock()
	for _, c := range []struct {
		rate float64
		kind faultKind
	}{
		{fi.f.DropRate, faultDrop},
		{fi.f.LostAnswerRate, faultLost},
		{fi.f.ErrorRate, faultError},
		{fi.f.RateLimitRate, faultRateLimit},
	} {
		if c.rate <= 0 {
			continue
		}
		if u < c.rate {
			return c.kind
		}
		u -= c.rate
	}
	return faultNone
}

// isAPIPath reports whether the path belongs to the Zulip API.
func isAPIPath(p string) bool {
	return strings.HasPrefix(p, "/api/v1/") || strings.HasPrefix(p, "/json/")
}

// serveWithFaults serves r through next, first applying latency and the drawn fault.
func (s *Server) serveWithFaults(w http.ResponseWriter, r *http.Request, next http.Handler) {
	fi := s.ext.faults
	if fi.f.Latency > 0 {
		t := time.NewTimer(fi.f.Latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	kind := fi.draw()
	if rec, ok := w.(*statusRecorder); ok {
		rec.fault = kind
	}
	switch kind {
	case faultDrop:
		dropConnection(w)
	case faultLost:
		dw := &discardWriter{header: http.Header{}}
		next.ServeHTTP(dw, r)
		if rec, ok := w.(*statusRecorder); ok {
			rec.lostStatus = dw.status
		}
		dropConnection(w)
	case faultError:
		s.send(w, &response{status: http.StatusServiceUnavailable, header: http.Header{"Content-Type": {"text/html"}},
			body: []byte("<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n" +
				"<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n</body>\r\n</html>\r\n")})
	case faultRateLimit:
		s.send(w, rateLimitedResponse(fi.f.RetryAfterSecs))
	default:
		next.ServeHTTP(w, r)
	}
}

// dropConnection closes the client's connection without an answer: the
// connection is hijacked and closed (HTTP/1.x); where that is impossible
// (HTTP/2), the handler is aborted, which resets the stream.
func dropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		_ = conn.Close()
		return
	}
	panic(http.ErrAbortHandler)
}

// discardWriter swallows an answer (for the lost-answer fault), remembering
// its status for the request log.
type discardWriter struct {
	header http.Header
	status int
}

func (d *discardWriter) Header() http.Header { return d.header }

func (d *discardWriter) Write(p []byte) (int, error) {
	if d.status == 0 {
		d.status = http.StatusOK
	}
	return len(p), nil
}

func (d *discardWriter) WriteHeader(code int) {
	if d.status == 0 {
		d.status = code
	}
}
