package refserver

import (
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rateWindow is the window of Zulip's default API rule: N requests per minute.
const rateWindow = time.Minute

// rateLimiter is a sliding-window limiter like Zulip's Redis backend
// (zerver/lib/rate_limiter.py): a key (a user) may make limit requests in any
// window of rateWindow. It remembers the times of the requests inside the
// window, so Remaining, Reset and retry-after are exact rather than estimated.
// It reads time from the server's injectable clock.
type rateLimiter struct {
	limit int

	mu   sync.Mutex
	hits map[string][]time.Time // ascending request times within the window
}

// rateDecision is the limiter's verdict on one request.
type rateDecision struct {
	allowed   bool
	limit     int
	remaining int
	// reset is when no limit applies any more: every counted request has left the window.
	reset time.Time
	// retryAfter is the wait, in seconds, before a refused request may be retried.
	retryAfter float64
}

// newRateLimiter returns a limiter of limit requests per minute, or nil when
// limit is not positive (rate limiting off).
func newRateLimiter(limit int) *rateLimiter {
	if limit <= 0 {
		return nil
	}
	return &rateLimiter{limit: limit, hits: map[string][]time.Time{}}
}

// take counts a request by key at now, unless the key is over the limit.
func (l *rateLimiter) take(key string, now time.Time) rateDecision {
	l.mu.Lock()
	defer l.mu.Unlock()
	hits := l.hits[key]
	cut := 0
	for cut < len(hits) && !hits[cut].After(now.Add(-rateWindow)) {
		cut++
	}
	hits = hits[cut:]
	d := rateDecision{limit: l.limit}
	if len(hits) >= l.limit {
		// RedisRateLimiterBackend.is_ratelimited: free when the limit-th
		// newest request leaves the window. rate_limit_request records the
		// refusal with remaining 0 and secs_to_freedom the same wait, so the
		// answer's X-RateLimit-Reset is now + retry-after.
		d.retryAfter = hits[len(hits)-l.limit].Add(rateWindow).Sub(now).Seconds()
		d.reset = now.Add(time.Duration(d.retryAfter * float64(time.Second)))
		l.hits[key] = hits
		return d
	}
	d.allowed = true
	hits = append(hits, now)
	l.hits[key] = hits
	// get_api_calls_left: the requests left in the window, and the reset
	// when the newest (this one) leaves it.
	d.remaining = l.limit - len(hits)
	d.reset = now.Add(rateWindow)
	return d
}

// setHeaders writes the X-RateLimit-* headers of a rate-limited request, as
// zerver/middleware.py's RateLimitMiddleware does for every request a limit
// was applied to (and only those): X-RateLimit-Reset is str(int(reset)), a
// UNIX time rounded down.
func (d rateDecision) setHeaders(h http.Header) {
	h.Set("X-RateLimit-Limit", strconv.Itoa(d.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(d.remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(d.reset.Unix(), 10))
}

// errRateLimited is RateLimitedError (zerver/lib/exceptions.py): 429
// RATE_LIMIT_HIT with the wait in the body's retry-after.
func errRateLimited(retryAfter float64) *apiError {
	return errCode(http.StatusTooManyRequests, "RATE_LIMIT_HIT", "API usage exceeded rate limit",
		obj{"retry-after": json.Number(pythonFloat(retryAfter))})
}

// rateLimitedResponse is the 429 answer. RateLimitedError.extra_headers sets
// Retry-After to secs_to_freedom itself, a float, which Django writes with
// str(): "28.706807374954224", "30.0". The body's retry-after is the same
// float as orjson writes it, which is the same text.
func rateLimitedResponse(retryAfter float64) *response {
	if retryAfter < 0 {
		retryAfter = 0
	}
	resp := errorResponse(errRateLimited(retryAfter))
	resp.header.Set("Retry-After", pythonFloat(retryAfter))
	return resp
}

// pythonFloat formats f as Python's repr (and str) does: the shortest text
// that reads back as f, always with a decimal point or an exponent, in
// scientific notation below 1e-4 and from 1e16 on.
func pythonFloat(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	if a := math.Abs(f); a != 0 && (a < 1e-4 || a >= 1e16) {
		return strconv.FormatFloat(f, 'e', -1, 64) // 5e-05, 1.5e+16: Python's form too
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
