package refserver

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// rateWindow is the window of Zulip's default API rule: N requests per minute.
const rateWindow = time.Minute

// rateLimiter is a sliding-window limiter like Zulip's: a key (a user, or a
// client address for unauthenticated endpoints) may make limit requests in any
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
	return l.decide(key, now, true)
}

// peek reports the key's state at now without counting a request: the
// headers of answers that are not charged (failed authentication, unknown
// endpoints).
func (l *rateLimiter) peek(key string, now time.Time) rateDecision {
	return l.decide(key, now, false)
}

// decide is take (count true) and peek (count false).
func (l *rateLimiter) decide(key string, now time.Time, count bool) rateDecision {
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
		d.remaining = 0
		d.reset = hits[len(hits)-1].Add(rateWindow)
		d.retryAfter = hits[0].Add(rateWindow).Sub(now).Seconds()
		l.hits[key] = hits
		return d
	}
	d.allowed = true
	if !count {
		l.hits[key] = hits
		d.remaining = l.limit - len(hits)
		d.reset = now
		if len(hits) > 0 {
			d.reset = hits[len(hits)-1].Add(rateWindow)
		}
		return d
	}
	hits = append(hits, now)
	l.hits[key] = hits
	d.remaining = l.limit - len(hits)
	d.reset = now.Add(rateWindow)
	return d
}

// setHeaders writes the X-RateLimit-* headers Zulip sends with every answer.
func (d rateDecision) setHeaders(h http.Header) {
	h.Set("X-RateLimit-Limit", strconv.Itoa(d.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(d.remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(ceilUnix(d.reset), 10))
}

// ceilUnix is t in UNIX seconds, rounded up.
func ceilUnix(t time.Time) int64 {
	s := t.Unix()
	if t.Nanosecond() > 0 {
		s++
	}
	return s
}

// errRateLimited is RateLimitedError: 429 RATE_LIMIT_HIT with a (possibly
// fractional) retry-after in the body; the caller also sets the Retry-After header.
func errRateLimited(retryAfter float64) *apiError {
	return errCode(http.StatusTooManyRequests, "RATE_LIMIT_HIT", "API usage exceeded rate limit",
		obj{"retry-after": retryAfter})
}

// writeRateLimited answers 429 with the Retry-After header carrying the same
// value as the body, as Zulip does.
func writeRateLimited(w http.ResponseWriter, retryAfter float64) {
	if retryAfter < 0 {
		retryAfter = 0
	}
	// Keep the body and header identical and free of float noise.
	retryAfter = math.Round(retryAfter*1e6) / 1e6
	w.Header().Set("Retry-After", strconv.FormatFloat(retryAfter, 'f', -1, 64))
	writeError(w, errRateLimited(retryAfter))
}
