package zulip

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	// backoffBase and backoffCap shape the exponential backoff for 5xx answers and
	// connection failures: 0.5s, 1s, 2s, ... up to 15s, each with jitter.
	backoffBase = 500 * time.Millisecond
	backoffCap  = 15 * time.Second
	// rateLimitJitterCap bounds the random delay added to a server-requested wait, so that
	// Terraform's parallel operations, all told to wait the same time, do not return at the
	// same instant and trip the limit again.
	rateLimitJitterCap = time.Second
	// maxPacingWait ignores reset times implausibly far away (a broken clock or header).
	maxPacingWait = 5 * time.Minute
)

// backoff returns the wait before the n-th backoff retry (n ≥ 1): exponential, capped, with
// "equal jitter" (half fixed, half random) so that waits never collapse to zero.
func (c *Client) backoff(n int) time.Duration {
	d := backoffBase
	for i := 1; i < n && d < backoffCap; i++ {
		d *= 2
	}
	d = min(d, backoffCap)
	half := d / 2
	return half + time.Duration(c.rand()*float64(half))
}

// jitter returns a small random addition to a server-requested wait: up to a tenth of it,
// at most rateLimitJitterCap.
func (c *Client) jitter(d time.Duration) time.Duration {
	limit := min(d/10, rateLimitJitterCap)
	return time.Duration(c.rand() * float64(limit))
}

// sleepContext waits for d or until ctx ends, whichever comes first.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// parseRetryAfter reads a Retry-After header: a number of seconds (Zulip sends a fractional
// one, although HTTP only defines integers) or an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return secondsToDuration(s)
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// pacer spreads requests so that the client slows down before Zulip's rate limit answers
// 429, using the X-RateLimit-Remaining and X-RateLimit-Reset headers Zulip puts on every
// answer. It keeps its own count of the remaining budget, decremented for each request sent,
// because with Terraform's parallelism several requests are in flight before any answer
// reports the new count. When the count reaches zero, requests wait until the reset time.
// Zulip's reset is when the whole budget is back, so this is conservative; a wait longer
// than the call's remaining MaxRetryWait is skipped instead, and the server's 429 (whose
// Retry-After is exact, and which is safe to retry) takes over.
type pacer struct {
	mu        sync.Mutex
	known     bool
	remaining int
	reset     time.Time
}

// reserve accounts for one request about to be sent and returns how long to wait first.
func (p *pacer) reserve(now time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.known {
		return 0
	}
	if !now.Before(p.reset) {
		// The window is over; the next answer reports the new budget.
		p.known = false
		return 0
	}
	if p.remaining > 0 {
		p.remaining--
		return 0
	}
	return p.reset.Sub(now)
}

// forget drops what the pacer knows, until the next answer reports the budget again.
func (p *pacer) forget() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.known = false
}

// observe records the rate-limit headers of an answer. X-RateLimit-Reset is an absolute
// UNIX time on the server's clock; when the answer has a Date header the reset is taken
// relative to it, so that a skewed local clock does not make the client wait too long or
// not at all.
func (p *pacer) observe(h http.Header, now time.Time) {
	remainingText := h.Get("X-RateLimit-Remaining")
	resetText := h.Get("X-RateLimit-Reset")
	if remainingText == "" || resetText == "" {
		return
	}
	remaining, err := strconv.Atoi(strings.TrimSpace(remainingText))
	if err != nil {
		return
	}
	resetUnix, err := strconv.ParseFloat(strings.TrimSpace(resetText), 64)
	if err != nil {
		return
	}
	resetServer := time.Unix(0, int64(resetUnix*float64(time.Second)))
	serverNow := now
	if date, err := http.ParseTime(h.Get("Date")); err == nil {
		serverNow = date
	}
	until := resetServer.Sub(serverNow)
	p.mu.Lock()
	defer p.mu.Unlock()
	if until <= 0 || until > maxPacingWait {
		p.known = false
		return
	}
	p.known = true
	p.remaining = max(remaining, 0)
	p.reset = now.Add(until)
}
