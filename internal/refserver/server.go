// Package refserver is the bundled reference server: an in-memory, faithful model
// of a Zulip organization for the operations this provider covers, written from
// Zulip's API documentation independently of the provider's API client.
package refserver

import (
	"log"
	"net/http"
	"strings"
	"sync"
	"time"
)

// DefaultFeatureLevel is the API feature level the server advertises by default:
// Zulip 12.0-dev, which has every behaviour this server implements.
const DefaultFeatureLevel = 497

// DefaultVersion is the zulip_version the server advertises by default.
const DefaultVersion = "12.0-dev-refserver"

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
	// Production makes /dev_fetch_api_key fail as on a production server.
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
	// SMSUsername and SMSPassword are the credentials of the SMS conversations API
	// served under /a1/; defaults "sms-user" / "sms-password".
	SMSUsername string
	SMSPassword string
	// HTTPClient is used for outgoing webhook calls (SMS replies).
	HTTPClient *http.Client
	// Logger, when set, receives one line per request.
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
	// with it held, which keeps the model simple and race-free.
	mu    sync.Mutex
	realm *Realm

	mux *http.ServeMux
	ext serverExt
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
	s := &Server{opts: opts, mux: http.NewServeMux()}
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
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Logger != nil {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			note := ""
			if rec.note != "" {
				note = " [" + rec.note + "]"
			}
			s.opts.Logger.Printf("%s %s -> %d (%s)%s", r.Method, r.URL.Path, rec.status, time.Since(start).Round(time.Microsecond), note)
		}()
		w = rec
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
	s.mux.Handle(method+" /api/v1"+path, s.wrap(auth, h))
	// Zulip's web client uses /json/ with the same views; serving it costs nothing.
	s.mux.Handle(method+" /json"+path, s.wrap(auth, h))
}

// statusRecorder remembers the status written, for the request log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	note   string // an injected fault, if any
}

// WriteHeader records the status.
func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the underlying writer (for Hijack).
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
