// Package refserver is the bundled reference server: an in-memory, faithful model
// of a Zulip organization for the operations this provider covers, written from
// Zulip's API documentation independently of the provider's API client.
package refserver

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultFeatureLevel is the API feature level the server advertises by default:
// Zulip 13.0-dev, the level of the newest API description
// (../shared/reference/zulip-openapi-newest.yaml).
const DefaultFeatureLevel = 511

// DefaultVersion is the zulip_version the server advertises by default.
const DefaultVersion = "13.0-dev-refserver"

// Options configure a reference server. The zero value is a usable, deterministic
// development server without rate limiting or faults.
type Options struct {
	// Host is the realm's host name, used for dummy e-mail addresses
	// (user{id}@{Host}). Default "zulip.example.com".
	Host string
	// FeatureLevel advertised in /server_settings and /register; default DefaultFeatureLevel.
	// Endpoints and parameters newer than it behave as on an older server.
	FeatureLevel int
	// Version advertised as zulip_version; default DefaultVersion.
	Version string
	// EventHeartbeat is how long a connected GET /events waits for an event
	// before the queue gets a heartbeat (default 45 s, Zulip's
	// HEARTBEAT_MIN_FREQ_SECS; tests shorten it).
	EventHeartbeat time.Duration
	// WebPublicStreamsEnabled is Zulip's WEB_PUBLIC_STREAMS_ENABLED server
	// setting (default off, as in Zulip): without it no organization may
	// create web-public channels, whatever its enable_spectator_access.
	WebPublicStreamsEnabled bool
	// Production serves as a production server: the development-only endpoints
	// (/dev_fetch_api_key) are not routed and server_settings offers no dev login.
	Production bool
	// RateLimit is the number of API requests a user may make per minute;
	// 0 disables rate limiting. Zulip's default is 200.
	RateLimit int
	// Faults injects latency and failures; see Faults.
	Faults Faults
	// Seed makes fault injection deterministic.
	Seed int64
	// Clock returns the current time; default time.Now. Tests inject a fake one.
	Clock func() time.Time
	// StateFile, when set, is loaded on start (if present) and rewritten
	// atomically after every change.
	StateFile string
	// PushBouncerError, when set to ADMIN_ACTION_REQUIRED, FAILED_TO_CONNECT_BOUNCER
	// or INTERNAL_SERVER_ERROR_ON_BOUNCER, makes end-to-end-encrypted test
	// notifications fail with that error, so clients can be tested on it.
	PushBouncerError string
	// ExportDuration is how long a data export stays pending (default 2 s,
	// measured with Clock; negative: it ends when next looked at), and
	// ExportFailure makes exports fail instead of succeeding (exports.go).
	ExportDuration time.Duration
	ExportFailure  bool
	// SMSUsername and SMSPassword are the credentials of the SMS conversations API
	// served under /a1/; defaults "sms-user" / "sms-password".
	SMSUsername string
	SMSPassword string
	// HTTPClient is used for outgoing webhook calls (SMS replies).
	HTTPClient *http.Client
	// Logger, when set, receives one line per request saying what the client
	// got: "GET /api/v1/users -> 200 (1.2ms)", or that the answer could not be
	// delivered, that the connection was dropped (injected faults), or that
	// the client went away before any answer.
	Logger *log.Logger
}

// Faults describe injected failures of Zulip API requests (/api/v1/ and /json/,
// authenticated or not; not the SMS API). Rates are fractions in [0, 1] whose sum
// should not exceed 1; each request gets at most one fault, drawn from a source
// seeded with Options.Seed, so a seed gives a reproducible sequence.
type Faults struct {
	Latency   time.Duration // added to every request, before anything else
	ErrorRate float64       // fraction answered 503 (an HTML proxy page) without processing
	DropRate  float64       // fraction whose connection is closed without an answer, unprocessed
	// LostAnswerRate is the fraction processed (and persisted) whose connection
	// is then closed without an answer: the case that makes blind retries of
	// non-idempotent requests unsafe.
	LostAnswerRate float64
	RateLimitRate  float64 // fraction answered 429 RATE_LIMIT_HIT without processing
	RetryAfterSecs float64 // retry-after for forced 429s; default 0.5
}

// Server is a reference Zulip server. It is an http.Handler.
type Server struct {
	opts Options

	// mu guards realm and everything reachable from it. Every API handler runs
	// with it held, which keeps the model simple and race-free. Nothing is
	// read from or written to the network with it held: bodies are read
	// before it is taken, answers written after it is released (see wrap).
	mu    sync.Mutex
	realm *Realm

	mux *http.ServeMux
	ext serverExt
	// plainViews holds the mux patterns of the routes that are plain Django
	// views in Zulip rather than REST dispatch (the authNone ones); their 405
	// has Django's shape (see serveUnknown).
	plainViews map[string]bool
	// maxBodyBytes is the body limit (maxBodyBytes; tests lower it).
	maxBodyBytes int64
	// sendTimeout bounds the writing of one answer (defaultSendTimeout; tests lower it).
	sendTimeout time.Duration
	// waiters holds, per queue id, the channel a connected GET /events waits
	// on (guarded by mu); pushEvent and dropQueue close it.
	waiters map[string]chan struct{}
	// offLockJobs holds the work requests do without the lock (offlock.go),
	// by request (guarded by mu).
	offLockJobs map[*call]*offLockJob
	// offLockStarted, when set (by tests), runs in each offLock job before its
	// work, without the lock.
	offLockStarted func()
}

// New returns a server over a freshly seeded realm (or the realm in
// opts.StateFile, when that file exists).
func New(opts Options) (*Server, error) {
	if opts.Host == "" {
		opts.Host = "zulip.example.com"
	}
	if opts.FeatureLevel == 0 {
		opts.FeatureLevel = DefaultFeatureLevel
	}
	if opts.Version == "" {
		opts.Version = DefaultVersion
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.SMSUsername == "" {
		opts.SMSUsername = "sms-user"
	}
	if opts.SMSPassword == "" {
		opts.SMSPassword = "sms-password"
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	s := &Server{opts: opts, mux: http.NewServeMux(), plainViews: map[string]bool{},
		maxBodyBytes: maxBodyBytes, sendTimeout: defaultSendTimeout, waiters: map[string]chan struct{}{}}
	if err := s.init(); err != nil {
		return nil, err
	}
	s.routes()
	for _, p := range catchAllPatterns {
		s.mux.HandleFunc(p, s.serveUnknown)
	}
	return s, nil
}

// ServeHTTP serves the Zulip API under /api/v1 and the SMS API under /a1.
//
// In front of the application it plays the part of Zulip's nginx: oversize
// request lines, headers and bodies get nginx's error pages, and the path is
// normalized as nginx hands it to Django (see normalizePath).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Logger != nil {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		method, path := r.Method, r.URL.Path
		defer func() {
			s.opts.Logger.Printf("%s %s -> %s (%s)%s", method, path, rec.outcome(r.Context()),
				time.Since(start).Round(time.Microsecond), rec.faultNote())
		}()
		w = rec
	}
	if resp := s.front(r); resp != nil {
		s.send(w, resp)
		return
	}
	if s.ext.faults != nil && isAPIPath(r.URL.Path) {
		s.serveWithFaults(w, r, s.mux)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Host returns the realm's host name.
func (s *Server) Host() string { return s.opts.Host }

// now returns the server's current time.
func (s *Server) now() time.Time { return s.opts.Clock() }

// Do runs fn with exclusive access to the realm, for tests that change the realm
// "out of band" or inspect it. Changes are persisted like API changes.
func (s *Server) Do(fn func(r *Realm)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.realm)
	if err := s.persistLocked(); err != nil {
		s.ext.logf("refserver: %v", err)
	}
}

// handle registers an API route. pattern is "METHOD /path" relative to /api/v1.
func (s *Server) handle(pattern string, auth authMode, h handlerFunc) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		panic("refserver: bad route pattern " + pattern)
	}
	for _, prefix := range []string{"/api/v1", "/json"} { // the web client uses /json/ with the same views
		pattern := method + " " + prefix + path
		s.mux.Handle(pattern, s.wrap(auth, h))
		if auth == authNone {
			s.plainViews[pattern] = true
		}
	}
}

// statusRecorder watches an answer being written, so that the request log
// says what the client got: an answer (and whether it could be delivered), a
// dropped connection, or nothing because the client went away.
type statusRecorder struct {
	http.ResponseWriter
	status int   // the status written; 0 while none was
	err    error // the first error writing or flushing the answer
	// fault is the injected fault drawn for the request, if any; lostStatus is
	// the status of the answer a lost-answer fault processed and then dropped.
	fault      faultKind
	lostStatus int
}

// WriteHeader records the status.
func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

// Write records the implicit 200 and any error.
func (r *statusRecorder) Write(p []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(p)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}

// FlushError flushes the answer, recording any error (http.ResponseController
// calls it).
func (r *statusRecorder) FlushError() error {
	err := http.NewResponseController(r.ResponseWriter).Flush()
	if err != nil && r.err == nil {
		r.err = err
	}
	return err
}

// Unwrap lets http.ResponseController reach the underlying writer (for
// Hijack and SetWriteDeadline).
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// outcome describes, for the log, what became of the request's answer.
// ctx is the request's context, done when the client went away.
func (r *statusRecorder) outcome(ctx context.Context) string {
	switch {
	case r.fault == faultDrop:
		return "no answer: connection dropped before processing"
	case r.fault == faultLost:
		return fmt.Sprintf("no answer: processed (%d), then the connection was dropped", r.lostStatus)
	case r.status == 0 && ctx.Err() != nil:
		return "no answer: the client went away (" + context.Cause(ctx).Error() + ")"
	case r.status == 0:
		return "200 (empty)" // net/http answers 200 for a handler that wrote nothing
	case r.err != nil:
		return fmt.Sprintf("%d, not delivered: %v", r.status, r.err)
	default:
		return strconv.Itoa(r.status)
	}
}

// faultNote names an injected fault that produced an answer (503, 429), for the log.
func (r *statusRecorder) faultNote() string {
	if r.fault == faultError || r.fault == faultRateLimit {
		return " [" + r.fault.String() + "]"
	}
	return ""
}
