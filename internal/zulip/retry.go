package zulip

import (
	"context"
	"net/http"
	"slices"
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
// 429, using the X-RateLimit-Limit, -Remaining and -Reset headers Zulip puts on every
// authenticated answer. Zulip's limit is a sliding window (200 requests in any minute by
// default, zerver/lib/rate_limiter.py): each request counted gives its unit of budget back
// when it leaves the window, a minute after it was counted, and Reset is when the newest
// counted request leaves it, so the whole budget is back.
//
// Four things make it more than "wait when Remaining is 0":
//   - With Terraform's parallelism several requests are in flight before any answer reports
//     the new count, and the server counts them in whatever order they reach it, which is
//     not the order they were sent or answered. So the pacer keeps its own estimate, a
//     lower bound of what is left: an answer's Remaining, less every other request that
//     was in flight at some point while that one was (the server may have counted any of
//     them after it), less each request sent since. Every answer gives such a bound, and
//     the best one is kept.
//   - The budget comes back one unit at a time, not all at Reset: the pacer learns bounds
//     of the window's length from the answers (Reset is at least the window after the
//     request was sent, and at most the window after it was answered), and gives back the
//     unit of each of its own requests that its estimate counts once that request has
//     surely left the window (answered + the window's upper bound). Requests are then
//     spread over the window as slots free up, instead of waiting for the last request of
//     a burst to leave it. The units that other clients of the same account spent are not
//     given back before Reset.
//   - Calls that must wait queue in order, and the budget that comes back is handed out in
//     that order, so that ten waiting calls do not race for each freed slot, the losers
//     going back to wait (or meeting 429s).
//   - After the reset nothing is known until an answer arrives, so at most the remembered
//     limit's worth of requests go, and calls beyond that wait for an answer instead of a
//     clock. After a 429 (another client spending the same account's budget, which no
//     estimate here sees), answers to requests sent before it no longer count, nothing goes
//     until its Retry-After is over, then one request goes and the others wait for its
//     answer.
//
// The estimate is conservative; a wait longer than the call's remaining MaxRetryWait is
// skipped instead, and the server's 429 (whose Retry-After is exact, and which is safe to
// retry) takes over.
type pacer struct {
	mu sync.Mutex
	// known says the fields below describe the server's budget; without it requests go.
	known bool
	// remaining is how many more requests may go before reset.
	remaining int
	// reset is when the budget is back; zero while the next answer is awaited.
	reset time.Time
	// refill is the budget assumed once reset passes: the limit, or 1 after a 429.
	refill int
	// probing says the state came from a 429 rather than from rate-limit headers.
	probing bool

	lastTicket uint64 // last ticket issued; tickets count up from 1
	ended      uint64 // how many ticketed requests have ended
	// inflight maps the tickets of requests not yet ended to when they were sent and the
	// value of ended then: the requests that overlapped one are those issued before it
	// ended, less those that had ended before it started.
	inflight map[uint64]pacedFlight
	// stale is the last ticket issued before a 429: answers to it and older ones describe a
	// budget the 429 showed to be gone.
	stale uint64
	queue []*pacerTurn // calls waiting for budget, in arrival order
	// answered is closed, and replaced, whenever a request in flight ends or a call leaves
	// the queue: what calls that wait for an answer rather than a time wait on.
	answered chan struct{}

	// winLo and winUp bound the length of the server's window, as the answers show it
	// (winUp zero: not known, and no unit comes back before reset).
	winLo, winUp time.Duration
	// recent holds this client's answered requests that may still be in the server's
	// window, oldest first.
	recent []pacedRequest
	// returns holds, in order, when each unit of budget the estimate counts as spent by
	// this client comes back: when its request has surely left the window.
	returns []time.Time
}

// pacedFlight is a request in flight: when it was sent, and how many had ended then.
type pacedFlight struct {
	sent        time.Time
	endedAtSend uint64
}

// pacedRequest is an answered request: when it was sent and answered.
type pacedRequest struct{ sent, answered time.Time }

// windowSlack covers the whole seconds of X-RateLimit-Reset and Date.
const windowSlack = time.Second

// pacerTurn identifies one call in the pacer's queue. It has a field because pointers to
// distinct zero-size values may be equal.
type pacerTurn struct{ _ byte }

// answerPoll bounds a wait for an answer, as a safety net: a call re-examines the pacer at
// least this often even if no notification reaches it.
const answerPoll = time.Second

// waitForAnswer waits until the pacer reports an answer, ctx ends, or answerPoll passes.
func waitForAnswer(ctx context.Context, answered <-chan struct{}) error {
	t := time.NewTimer(answerPoll)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-answered:
	case <-t.C:
	}
	return nil
}

// reserve asks to send one request for turn at now. It returns either a ticket (the request
// may go; pass the ticket to finish or refused), a time to wait before asking again, or a
// channel to wait on for an answer before asking again.
func (p *pacer) reserve(now time.Time, turn *pacerTurn) (ticket uint64, wait time.Duration, answered <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.known && !p.reset.IsZero() && !now.Before(p.reset) {
		// The window is over. What is known is the budget then; how much of it the server
		// counts now is learned from the next answer.
		p.remaining = max(p.refill-len(p.inflight), 0)
		p.reset = time.Time{}
		p.returns = nil
	}
	p.takeReturnsLocked(now)
	if !p.known {
		p.removeLocked(turn)
		return p.issueLocked(now), 0, nil
	}
	pos := p.positionLocked(turn)
	if pos < p.remaining {
		p.removeLocked(turn)
		p.remaining--
		return p.issueLocked(now), 0, nil
	}
	// The call goes when enough units have come back for the calls before it and itself.
	if need := pos - p.remaining; need < len(p.returns) && (p.reset.IsZero() || p.returns[need].Before(p.reset)) {
		return 0, p.returns[need].Sub(now), nil
	}
	if !p.reset.IsZero() {
		return 0, p.reset.Sub(now), nil
	}
	if len(p.inflight) == 0 && p.remaining == 0 {
		// Nothing in flight will answer: let one request find out.
		p.removeLocked(turn)
		return p.issueLocked(now), 0, nil
	}
	return 0, 0, p.answeredLocked()
}

// force lets turn's request go without waiting (its call cannot wait as long as the pacer
// asks), and returns its ticket.
func (p *pacer) force(turn *pacerTurn, now time.Time) uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.removeLocked(turn)
	return p.issueLocked(now)
}

// leave takes turn out of the queue, if it is there.
func (p *pacer) leave(turn *pacerTurn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.removeLocked(turn) {
		p.notifyLocked()
	}
}

// finish records the end of ticket's request: h holds the answer's headers, or is nil when
// there was no answer or it says nothing about the account's budget. X-RateLimit-Reset is
// an absolute UNIX time on the server's clock; when the answer has a Date header the reset
// is taken relative to it, so that a skewed local clock does not make the client wait too
// long or not at all.
func (p *pacer) finish(ticket uint64, h http.Header, now time.Time) {
	limit, remaining, until, ok := parseRateLimit(h, now)
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.notifyLocked()
	flight, tracked := p.inflight[ticket]
	delete(p.inflight, ticket)
	p.ended++
	if tracked {
		p.recordAnswerLocked(flight.sent, now)
	}
	switch {
	case h == nil || !tracked:
	case !ok:
		// An answer without the headers: rate limiting is off, or this endpoint is exempt.
		// What a 429 taught is then not worth holding everyone back for.
		if p.probing && ticket > p.stale {
			p.known, p.probing = false, false
		}
	case ticket <= p.stale:
	case until <= 0 || until > maxPacingWait:
		// A broken clock or header: better to let the server's 429s pace the client.
		p.known, p.probing = false, false
	default:
		p.learnWindowLocked(until, now.Sub(flight.sent))
		overlapping := int(p.lastTicket - 1 - flight.endedAtSend)
		bound := max(remaining-overlapping, 0)
		reset := now.Add(until)
		rebase := true
		if p.known && !p.probing && !p.reset.IsZero() {
			rebase = bound > p.remaining
			bound = max(bound, p.remaining)
			reset = later(reset, p.reset)
		}
		p.known, p.probing = true, false
		p.remaining, p.reset, p.refill = bound, reset, max(limit, 1)
		if rebase {
			p.rebaseReturnsLocked(now)
		}
	}
}

// recordAnswerLocked records that a request sent at sent was answered (or failed) at now. If
// the estimate counts its unit, the unit comes back once the request has surely left the
// window.
func (p *pacer) recordAnswerLocked(sent, now time.Time) {
	if p.winUp > 0 {
		for len(p.recent) > 0 && !p.recent[0].answered.Add(p.winUp).After(now) {
			p.recent = p.recent[1:]
		}
	}
	if len(p.recent) >= maxRecent {
		p.recent = p.recent[1:]
	}
	p.recent = append(p.recent, pacedRequest{sent: sent, answered: now})
	if p.known && !p.probing && p.winUp > 0 {
		// In order: the window's bound may have narrowed since the last unit was listed.
		at := now.Add(p.winUp)
		i, _ := slices.BinarySearchFunc(p.returns, at, time.Time.Compare)
		p.returns = slices.Insert(p.returns, i, at)
	}
}

// maxRecent bounds the answered requests remembered: more than any real limit's budget.
const maxRecent = 4096

// learnWindowLocked narrows the bounds of the window's length with an answer that came
// latency after its request was sent and said the budget is whole again in until. The
// newest request counted is at most now, so the window is at least until; it is at least
// this one, sent latency ago, so the window is at most until + latency. Bounds that
// contradict (a server whose window changed, or a limit that is not a sliding window)
// stop units from coming back before reset.
func (p *pacer) learnWindowLocked(until, latency time.Duration) {
	lo, up := until-windowSlack, until+latency+windowSlack
	if p.winUp == 0 {
		p.winLo, p.winUp = lo, up
	} else {
		p.winLo, p.winUp = max(p.winLo, lo), min(p.winUp, up)
	}
	if p.winLo > p.winUp {
		p.winLo, p.winUp, p.returns = 0, 0, nil
	}
}

// rebaseReturnsLocked lists again the units that come back, for an estimate based on an
// answer received at now: the server counted its own requests that were still in the
// window then (sent less than the window's lower bound before now); those that may have
// left it before are not in the count and give nothing back.
func (p *pacer) rebaseReturnsLocked(now time.Time) {
	p.returns = p.returns[:0]
	if p.winUp == 0 {
		return
	}
	for _, r := range p.recent {
		if r.sent.Add(p.winLo).After(now) {
			p.returns = append(p.returns, r.answered.Add(p.winUp))
		}
	}
}

// takeReturnsLocked adds to the budget the units that have come back by now.
func (p *pacer) takeReturnsLocked(now time.Time) {
	n := 0
	for n < len(p.returns) && !now.Before(p.returns[n]) {
		n++
	}
	if n == 0 {
		return
	}
	p.returns = p.returns[n:]
	if p.known && !p.probing {
		p.remaining = min(p.remaining+n, p.refill)
	}
}

// later returns the later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// refused records that ticket's request was answered 429 with the given Retry-After: the
// budget is spent until then, and then only one request goes to find out how much is back.
func (p *pacer) refused(ticket uint64, retryAfter time.Duration, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	defer p.notifyLocked()
	delete(p.inflight, ticket)
	p.ended++
	p.returns = nil
	if retryAfter <= 0 {
		// No time to wait for: the retry's backoff paces the client.
		p.known, p.probing = false, false
		return
	}
	p.known, p.probing, p.stale = true, true, p.lastTicket
	p.remaining, p.refill = 0, 1
	p.reset = now.Add(retryAfter)
}

// issueLocked hands out a ticket for a request that goes now.
func (p *pacer) issueLocked(now time.Time) uint64 {
	p.lastTicket++
	if p.inflight == nil {
		p.inflight = map[uint64]pacedFlight{}
	}
	p.inflight[p.lastTicket] = pacedFlight{sent: now, endedAtSend: p.ended}
	return p.lastTicket
}

// positionLocked returns turn's place in the queue, adding it at the end if absent.
func (p *pacer) positionLocked(turn *pacerTurn) int {
	for i, t := range p.queue {
		if t == turn {
			return i
		}
	}
	p.queue = append(p.queue, turn)
	return len(p.queue) - 1
}

// removeLocked takes turn out of the queue and reports whether it was there.
func (p *pacer) removeLocked(turn *pacerTurn) bool {
	for i, t := range p.queue {
		if t == turn {
			p.queue = append(p.queue[:i], p.queue[i+1:]...)
			return true
		}
	}
	return false
}

// answeredLocked returns the channel closed at the next notification.
func (p *pacer) answeredLocked() <-chan struct{} {
	if p.answered == nil {
		p.answered = make(chan struct{})
	}
	return p.answered
}

// notifyLocked wakes the calls waiting for an answer.
func (p *pacer) notifyLocked() {
	if p.answered != nil {
		close(p.answered)
		p.answered = nil
	}
}

// parseRateLimit reads Zulip's rate-limit headers: the limit (0 when not sent), the
// remaining budget and the time until it is whole again, measured on the server's clock.
func parseRateLimit(h http.Header, now time.Time) (limit, remaining int, until time.Duration, ok bool) {
	if h == nil {
		return 0, 0, 0, false
	}
	remainingText := h.Get("X-RateLimit-Remaining")
	resetText := h.Get("X-RateLimit-Reset")
	if remainingText == "" || resetText == "" {
		return 0, 0, 0, false
	}
	remaining, err := strconv.Atoi(strings.TrimSpace(remainingText))
	if err != nil {
		return 0, 0, 0, false
	}
	resetUnix, err := strconv.ParseFloat(strings.TrimSpace(resetText), 64)
	if err != nil {
		return 0, 0, 0, false
	}
	limit, _ = strconv.Atoi(strings.TrimSpace(h.Get("X-RateLimit-Limit")))
	resetServer := time.Unix(0, int64(resetUnix*float64(time.Second)))
	serverNow := now
	if date, err := http.ParseTime(h.Get("Date")); err == nil {
		serverNow = date
	}
	return max(limit, 0), max(remaining, 0), resetServer.Sub(serverNow), true
}
