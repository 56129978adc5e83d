package zulip

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"
)

const (
	// DefaultMaxRetries is the number of retries after the first attempt when Config leaves
	// MaxRetries at zero.
	DefaultMaxRetries = 5
	// DefaultMaxRetryWait caps the total time one call spends waiting (rate-limit pacing,
	// Retry-After and backoff together) when Config leaves MaxRetryWait at zero. Zulip's
	// rate limit is a window of a minute: a call can wait for the window to end, be refused
	// once because another client shares the account, and wait for the next one. With one
	// minute, a burst against a 20-requests-a-minute server failed on the first refusal.
	DefaultMaxRetryWait = 5 * time.Minute
	// DefaultRequestTimeout bounds one HTTP exchange when Config leaves RequestTimeout at
	// zero: long enough for the largest answers Zulip gives (a register or user list of a
	// large organization), short enough that a server that never answers fails a run in
	// about a minute rather than hanging it.
	DefaultRequestTimeout = 60 * time.Second

	// maxResponseBytes bounds how much of an answer is read. A register answer for a large
	// organization is a few megabytes; anything beyond this is not a Zulip answer.
	maxResponseBytes = 64 << 20
)

// Config configures a Client. Only SiteURL is required: a client without Email and APIKey
// can still call the endpoints that need no authentication (GetServerSettings,
// DevFetchAPIKey); the others then fail with ErrMissingCredentials.
type Config struct {
	// SiteURL is the Zulip server, with or without /api/v1 and a trailing slash; a bare
	// host name means https.
	SiteURL string
	// Email is the API e-mail of the account (the "email" of a zuliprc).
	Email string
	// APIKey is the account's API key. It is sent only in the Authorization header and
	// never logged or put into an error.
	APIKey string
	// UserAgent is sent with every request; see UserAgent. Empty means UserAgent("dev").
	UserAgent string
	// HTTPClient replaces the default client (see newHTTPClient). Insecure cannot be
	// combined with it, since the client's transport is the caller's to configure.
	HTTPClient *http.Client
	// MaxRetries is how many times a failed request may be retried: unset means
	// DefaultMaxRetries, Set(0) (or Off) disables retries.
	MaxRetries Setting[int]
	// MaxRetryWait caps the total waiting of one call, across all its retries and rate-limit
	// pacing: unset means DefaultMaxRetryWait, Set(0) (or Off) means never wait.
	MaxRetryWait Setting[time.Duration]
	// RequestTimeout bounds each HTTP exchange (connecting, sending, and reading the whole
	// answer): unset means DefaultRequestTimeout, Set(0) (or Off) means no bound. A request
	// that times out is not retried (see ErrRequestTimeout).
	RequestTimeout Setting[time.Duration]
	// Insecure skips TLS certificate verification (self-signed development servers).
	Insecure bool
	// CertBundle is a PEM file of the certificate authorities trusted for the server,
	// replacing the system's (a private CA), as Zulip's clients' cert_bundle does.
	CertBundle string
	// ClientCert is a PEM file with a client certificate for servers that require one;
	// its key is in ClientCertKey, or in the same file when ClientCertKey is empty.
	ClientCert    string
	ClientCertKey string
	// Logf, when set, receives one entry per HTTP attempt and per retry decision, with
	// fields such as method, path, status, duration_ms, attempt and retry_in_ms. It never
	// receives the API key or any header.
	Logf func(ctx context.Context, msg string, fields map[string]any)
	// Warnf, when set, receives the entries a person watching the run should see, in the
	// same form: every wait longer than a second (rate-limit pacing and retries), saying
	// why, so that a slow apply explains itself. Without it they go to Logf.
	Warnf func(ctx context.Context, msg string, fields map[string]any)

	// Sleep, Now and Rand replace the real clock and randomness; tests use them so that
	// retries and pacing take no real time. Sleep must return ctx.Err() when ctx ends first.
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time
	Rand  func() float64
}

// Client calls the Zulip REST API. It is safe for concurrent use, and meant to be shared:
// its connection pool and rate-limit pacing are per Client.
type Client struct {
	base         *url.URL
	email        string
	apiKey       string
	userAgent    string
	httpClient   *http.Client
	maxRetries   int
	maxRetryWait time.Duration
	timeout      time.Duration
	logf         func(ctx context.Context, msg string, fields map[string]any)
	warnf        func(ctx context.Context, msg string, fields map[string]any)
	sleep        func(ctx context.Context, d time.Duration) error
	now          func() time.Time
	rand         func() float64
	pacer        pacer
}

// UserAgent returns the User-Agent this project sends, naming the provider and its version
// so that server administrators can tell its traffic apart.
func UserAgent(version string) string {
	if version == "" {
		version = "dev"
	}
	return "terraform-provider-zulip/" + version
}

// New returns a Client for cfg. It checks the configuration but does not contact the server.
func New(cfg Config) (*Client, error) {
	base, err := NormalizeSiteURL(cfg.SiteURL)
	if err != nil {
		return nil, err
	}
	baseURL, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("zulip: site URL: %w", err)
	}
	switch {
	case cfg.Email != "" && cfg.APIKey == "":
		return nil, errors.New("zulip: an API e-mail was given without an API key")
	case cfg.Email == "" && cfg.APIKey != "":
		return nil, errors.New("zulip: an API key was given without an API e-mail")
	}
	httpClient, err := configHTTPClient(cfg)
	if err != nil {
		return nil, err
	}
	c := &Client{
		base:         baseURL,
		email:        cfg.Email,
		apiKey:       cfg.APIKey,
		userAgent:    cfg.UserAgent,
		httpClient:   httpClient,
		maxRetries:   cfg.MaxRetries.or(DefaultMaxRetries),
		maxRetryWait: cfg.MaxRetryWait.or(DefaultMaxRetryWait),
		timeout:      cfg.RequestTimeout.or(DefaultRequestTimeout),
		logf:         cfg.Logf,
		warnf:        cfg.Warnf,
		sleep:        cfg.Sleep,
		now:          cfg.Now,
		rand:         cfg.Rand,
	}
	if c.userAgent == "" {
		c.userAgent = UserAgent("")
	}
	if c.sleep == nil {
		c.sleep = sleepContext
	}
	if c.now == nil {
		c.now = time.Now
	}
	if c.rand == nil {
		c.rand = rand.Float64
	}
	return c, nil
}

// configHTTPClient returns the HTTP client cfg asks for: its own, which
// cannot be combined with the TLS settings, or one built with those
// settings.
func configHTTPClient(cfg Config) (*http.Client, error) {
	if cfg.HTTPClient != nil {
		if cfg.Insecure || cfg.CertBundle != "" || cfg.ClientCert != "" || cfg.ClientCertKey != "" {
			return nil, errors.New("zulip: Insecure, CertBundle and ClientCert cannot be combined with a custom HTTPClient; configure its transport instead")
		}
		return cfg.HTTPClient, nil
	}
	tlsConfig, err := newTLSConfig(cfg)
	if err != nil {
		return nil, err
	}
	return newHTTPClient(tlsConfig), nil
}

// Setting is a count or duration of Config that a caller may leave to its
// default or turn off, each said in so many words: the zero Setting is the
// default, Set(v) is v, and Set(0), like Off, turns the feature off (no
// retries, no waiting, no bound). A negative v is off too.
type Setting[T int | time.Duration] struct {
	value T
	set   bool
}

// Set is the Setting v.
func Set[T int | time.Duration](v T) Setting[T] { return Setting[T]{value: max(v, 0), set: true} }

// Off is the Setting that turns the feature off.
func Off[T int | time.Duration]() Setting[T] { return Setting[T]{set: true} }

// or is the setting's value, or def when it was left to its default.
func (s Setting[T]) or(def T) T {
	if !s.set {
		return def
	}
	return s.value
}

// BaseURL returns the normalized API base URL, ending in /api/v1/.
func (c *Client) BaseURL() string { return c.base.String() }

// HasCredentials reports whether the client can call endpoints that need authentication.
func (c *Client) HasCredentials() bool { return c.email != "" && c.apiKey != "" }

// NormalizeSiteURL turns the forms in which people write a Zulip site ("chat.example.com",
// "https://chat.example.com/", ".../api", ".../api/v1/") into the API base URL
// "https://chat.example.com/api/v1/". A URL carrying a user name or password is refused, so
// that credentials only ever travel in the Authorization header.
func NormalizeSiteURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", errors.New("zulip: the site URL is empty")
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		// The parser's message quotes the offending part of the input, which may be a
		// password typed into the URL, so only the fact is reported.
		return "", errors.New("zulip: the site URL is not a valid URL (expected https://host[:port][/path])")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "https" && u.Scheme != "http" {
		return "", fmt.Errorf("zulip: the site URL must use http or https, not %q", u.Scheme)
	}
	if u.User != nil {
		return "", errors.New("zulip: the site URL must not contain a user name or password; use the e-mail and API key settings")
	}
	if u.Host == "" {
		return "", errors.New("zulip: the site URL has no host name")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", errors.New("zulip: the site URL must not have a query string or fragment")
	}
	path := strings.TrimRight(u.Path, "/")
	path = strings.TrimSuffix(path, "/api/v1")
	path = strings.TrimSuffix(path, "/api")
	path = strings.TrimRight(path, "/")
	u.Path = path + "/api/v1/"
	u.RawPath = ""
	return u.String(), nil
}

// TLSFileError is a CA bundle or client certificate that cannot be used. Setting is the
// zuliprc key of Zulip's clients ("cert_bundle", "client_cert", "client_cert_key"), so that a
// caller can name where the path came from.
type TLSFileError struct {
	Setting string
	Path    string
	Err     error
}

// Error describes the problem.
func (e *TLSFileError) Error() string {
	return fmt.Sprintf("zulip: %s %s: %v", e.Setting, e.Path, e.Err)
}

// Unwrap returns the underlying error (fs.ErrNotExist for a missing file, for instance).
func (e *TLSFileError) Unwrap() error { return e.Err }

// newTLSConfig builds the TLS settings of cfg. The files are read once, here, so that a
// wrong path fails the configuration rather than every request.
func newTLSConfig(cfg Config) (*tls.Config, error) {
	t := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: cfg.Insecure, //nolint:gosec // opt-in, for self-signed development servers
	}
	if cfg.CertBundle != "" {
		pem, err := os.ReadFile(cfg.CertBundle)
		if err != nil {
			return nil, &TLSFileError{Setting: "cert_bundle", Path: cfg.CertBundle, Err: err}
		}
		// The bundle replaces the system's authorities, as in Zulip's clients (requests'
		// verify=path): a private CA is then the only one trusted for this server.
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, &TLSFileError{Setting: "cert_bundle", Path: cfg.CertBundle, Err: errors.New("the file holds no PEM certificate")}
		}
		t.RootCAs = pool
	}
	switch {
	case cfg.ClientCert != "":
		keyFile := cfg.ClientCertKey
		if keyFile == "" {
			keyFile = cfg.ClientCert
		}
		for setting, path := range map[string]string{"client_cert": cfg.ClientCert, "client_cert_key": cfg.ClientCertKey} {
			if path == "" {
				continue
			}
			if _, err := os.Stat(path); err != nil {
				return nil, &TLSFileError{Setting: setting, Path: path, Err: err}
			}
		}
		pair, err := tls.LoadX509KeyPair(cfg.ClientCert, keyFile)
		if err != nil {
			if cfg.ClientCertKey != "" {
				err = fmt.Errorf("with the key in %s: %w", cfg.ClientCertKey, err)
			}
			return nil, &TLSFileError{Setting: "client_cert", Path: cfg.ClientCert, Err: err}
		}
		t.Certificates = []tls.Certificate{pair}
	case cfg.ClientCertKey != "":
		return nil, &TLSFileError{Setting: "client_cert_key", Path: cfg.ClientCertKey,
			Err: errors.New("a client certificate key was given without a client certificate (client_cert)")}
	}
	return t, nil
}

// newHTTPClient builds the shared HTTP client. Terraform runs up to ten operations at once
// (more with -parallelism), all against the same host; Go's default transport keeps only two
// idle connections per host, so most requests would pay a new TCP and TLS handshake. The pool
// here keeps enough idle connections for that parallelism. Connecting has its own timeouts,
// so a dead address fails an attempt (which the retry logic may then repeat) quickly; the
// whole exchange is bounded by the client's request timeout, applied per attempt through
// the request's context, so the transport sets no overall timeout of its own that would
// override a longer request_timeout. Redirects are not followed: Zulip's API does not
// redirect, and following one would turn a POST into a GET or drop the credentials, so a
// redirect is reported (usually an http:// site URL that should be https://).
func newHTTPClient(tlsConfig *tls.Config) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		TLSClientConfig:       tlsConfig,
	}
	return &http.Client{
		Transport: transport,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// request describes one API call for do.
type request struct {
	method string
	// path is relative to the API base, without a leading slash, with every path parameter
	// already escaped by the caller (url.PathEscape).
	path string
	// params is the form body of a POST, PATCH or DELETE, or the query string of a GET.
	params *params
	// query holds query parameters of a non-GET request (DELETE /users/{id} "actions").
	query *params
	// noAuth marks the endpoints that need no authentication; no credentials are sent.
	noAuth bool
	// idempotent allows retries after the request may have reached the server (5xx,
	// timeouts, dropped connections). Each method sets it explicitly.
	idempotent bool
	// file, when set, makes the body multipart/form-data: params and this file.
	file *fileUpload
	// contentType is the body's type; empty means url-encoded.
	contentType string
}

// fileUpload is a file sent in a multipart body.
type fileUpload struct {
	field, filename, contentType string
	data                         []byte
}

// envelope is the part of every answer that do inspects.
type envelope struct {
	Result  string   `json:"result"`
	Msg     string   `json:"msg"`
	Code    string   `json:"code"`
	Ignored []string `json:"ignored_parameters_unsupported"`
}

// attemptResult is what one HTTP attempt produced.
type attemptResult struct {
	err error
	// sent says a complete request head left the process: the server may have
	// processed the request.
	sent bool
	// retry says the error is worth retrying; wait is the server's requested delay (zero
	// means use backoff) and reason says why, for the give-up message.
	retry  bool
	wait   time.Duration
	reason string
	// backoff selects exponential backoff rather than a server-requested delay.
	backoff bool
}

// do sends r, retrying as its idempotency allows, and decodes a success answer into out
// (which may be nil). Every non-success becomes an *APIError, possibly wrapped with what the
// retry logic did.
func (c *Client) do(ctx context.Context, r request, out any) error {
	err := c.doRetry(ctx, r, out)
	return c.scrub(err)
}

// doRetry is do before the scrubbing of secrets: it builds the request's URL and body once,
// then attempts it, pacing each attempt and waiting between them as retryWait decides.
func (c *Client) doRetry(ctx context.Context, r request, out any) (err error) {
	// A call none of whose requests left the process says so (ErrNotSent), so that a
	// create interrupted while it waited is not looked for on the server.
	sent := false
	defer func() {
		if err != nil && !sent && !errors.Is(err, ErrMissingCredentials) {
			err = fmt.Errorf("%w (%w)", err, ErrNotSent)
		}
	}()
	if !r.noAuth && !c.HasCredentials() {
		return fmt.Errorf("%w: %s /%s needs an API e-mail and API key, and the client has none", ErrMissingCredentials, r.method, r.path)
	}
	target, body, err := c.encodeRequest(&r)
	if err != nil {
		return err
	}
	var waited time.Duration
	backoffs := 0
	turn := &pacerTurn{}
	for attempt := 1; ; attempt++ {
		ticket, err := c.pace(ctx, r, turn, &waited)
		if err != nil {
			return err
		}
		res := c.attempt(ctx, r, target, body, attempt, ticket, out)
		sent = sent || res.sent
		if res.err == nil {
			return nil
		}
		wait, err := c.retryWait(res, attempt, &backoffs, waited)
		if err != nil {
			return err
		}
		c.logWait(ctx, wait, "zulip: retrying request", map[string]any{
			"method": r.method, "path": r.path, "attempt": attempt, "reason": res.reason, "retry_in_ms": wait.Milliseconds(),
		})
		if err := c.sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s; stopped waiting to retry: %w (last error: %w)", res.reason, err, res.err)
		}
		waited += wait
	}
}

// encodeRequest returns the URL and body of r: a GET's parameters in the query string,
// other methods' in the body (multipart with a file, which sets r's content type) and
// their query parameters in the query string.
func (c *Client) encodeRequest(r *request) (target, body string, err error) {
	encoded, err := r.params.encode()
	if err != nil {
		return "", "", err
	}
	target = c.base.String() + r.path
	if r.method == http.MethodGet {
		if encoded != "" {
			target += "?" + encoded
		}
		return target, "", nil
	}
	body = encoded
	if r.file != nil {
		if body, r.contentType, err = multipartBody(r.params, r.file); err != nil {
			return "", "", err
		}
	}
	extra, err := r.query.encode()
	if err != nil {
		return "", "", err
	}
	if extra != "" {
		target += "?" + extra
	}
	return target, body, nil
}

// retryWait returns how long to wait before retrying a failed attempt: the server's delay
// with jitter, or exponential backoff (counted in backoffs). It returns the error to give
// up with when the attempt is not worth retrying, the retries are spent, or the wait would
// exceed max_retry_wait counting what the call has waited already.
func (c *Client) retryWait(res attemptResult, attempt int, backoffs *int, waited time.Duration) (time.Duration, error) {
	if !res.retry {
		return 0, res.err
	}
	wait := res.wait
	if res.backoff {
		*backoffs++
		wait = max(wait, c.backoff(*backoffs))
	} else {
		wait += c.jitter(wait)
	}
	if attempt > c.maxRetries {
		return 0, fmt.Errorf("%s; gave up after %d attempts (max_retries %d): %w", res.reason, attempt, c.maxRetries, res.err)
	}
	if waited+wait > c.maxRetryWait {
		return 0, fmt.Errorf("%s; gave up after waiting %s in total (max_retry_wait %s; the next wait would be %s): %w",
			res.reason, roundDuration(waited), roundDuration(c.maxRetryWait), roundDuration(wait), res.err)
	}
	return wait, nil
}

// pace waits, if the rate-limit budget is spent, until the pacer lets the request go, and
// returns the pacer's ticket for it. Unauthenticated requests are limited per address, not
// per account, so they neither wait for nor inform the account's budget.
func (c *Client) pace(ctx context.Context, r request, turn *pacerTurn, waited *time.Duration) (uint64, error) {
	if r.noAuth {
		return 0, nil
	}
	// A call that stops waiting (cancelled, or beyond its budget) must not keep its place
	// in the queue, where it would hold back the calls behind it.
	defer c.pacer.leave(turn)
	for {
		ticket, wait, answer := c.pacer.reserve(c.now(), turn)
		switch {
		case answer != nil:
			start := c.now()
			if err := waitForAnswer(ctx, answer); err != nil {
				return 0, fmt.Errorf("zulip: %s /%s: waiting for the rate limit: %w", r.method, r.path, err)
			}
			*waited += c.now().Sub(start)
		case wait <= 0:
			return ticket, nil
		case *waited+wait > c.maxRetryWait:
			// The server's 429, whose Retry-After is exact and which is safe to retry,
			// takes over from the pacer's conservative estimate.
			c.log(ctx, "zulip: not pacing: the wait for the rate limit would exceed max_retry_wait", map[string]any{
				"method": r.method, "path": r.path, "wait_ms": wait.Milliseconds(),
			})
			return c.pacer.force(turn, c.now()), nil
		default:
			c.logWait(ctx, wait, "zulip: rate limit budget spent; waiting for it to come back before sending", map[string]any{
				"method": r.method, "path": r.path, "wait_ms": wait.Milliseconds(),
			})
			if err := c.sleep(ctx, wait); err != nil {
				return 0, fmt.Errorf("zulip: %s /%s: waiting for the rate limit budget: %w", r.method, r.path, err)
			}
			*waited += wait
		}
	}
}

// attempt performs one HTTP exchange. ticket is the pacer's, released with what the answer
// says about the rate limit.
func (c *Client) attempt(ctx context.Context, r request, target, body string, attempt int, ticket uint64, out any) (res attemptResult) {
	var answer *http.Response
	defer func() { c.releaseTicket(r, ticket, answer, res.wait) }()

	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, c.timeout, errAttemptTimeout)
		defer cancel()
	}
	// wroteHeaders records whether any complete request head left this process. If not, the
	// server cannot have processed the request, which makes even a create safe to resend.
	var wroteHeaders atomic.Bool
	defer func() { res.sent = wroteHeaders.Load() }()
	trace := &httptrace.ClientTrace{WroteHeaders: func() { wroteHeaders.Store(true) }}
	req, err := c.newHTTPRequest(httptrace.WithClientTrace(ctx, trace), r, target, body)
	if err != nil {
		return attemptResult{err: err}
	}

	start := c.now()
	resp, err := c.httpClient.Do(req)
	fields := map[string]any{"method": r.method, "path": r.path, "attempt": attempt}
	if err != nil {
		fields["duration_ms"] = c.now().Sub(start).Milliseconds()
		fields["error"] = c.scrub(err).Error()
		c.log(ctx, "zulip: request failed", fields)
		return c.failedExchange(ctx, r, err, wroteHeaders.Load())
	}
	answer = resp
	// The body is read in full below; an error closing it changes nothing.
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	fields["status"] = resp.StatusCode
	fields["duration_ms"] = c.now().Sub(start).Milliseconds()
	c.log(ctx, "zulip: request", fields)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return attemptResult{err: c.attemptCancelled(ctx, r, ctxErr)}
		}
		err = fmt.Errorf("zulip: %s /%s: reading the answer: %w", r.method, r.path, err)
		return attemptResult{err: err, retry: r.idempotent, backoff: true, reason: "the connection to the Zulip server broke"}
	}
	if len(data) > maxResponseBytes {
		return attemptResult{err: fmt.Errorf("zulip: %s /%s: the answer is larger than %d bytes", r.method, r.path, maxResponseBytes)}
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return attemptResult{err: c.decodeSuccess(ctx, r, resp, data, out)}
	}
	return c.failedAnswer(r, resp, data)
}

// releaseTicket gives the pacer back an attempt's ticket with what the answer (nil: none)
// says about the rate limit; wait is a 429's delay. Unauthenticated requests hold no ticket.
func (c *Client) releaseTicket(r request, ticket uint64, answer *http.Response, wait time.Duration) {
	switch {
	case r.noAuth:
	case answer == nil:
		c.pacer.finish(ticket, nil, c.now())
	case answer.StatusCode == http.StatusTooManyRequests:
		c.pacer.refused(ticket, wait, c.now())
	case answer.StatusCode == http.StatusUnauthorized:
		// A refused authentication is not charged to the account, and Zulip may
		// report another budget (the address's) on it.
		c.pacer.finish(ticket, nil, c.now())
	default:
		c.pacer.finish(ticket, answer.Header, c.now())
	}
}

// newHTTPRequest builds the HTTP request of an attempt: its body, the headers every request
// carries, its content type and, unless the endpoint needs none, its credentials.
func (c *Client) newHTTPRequest(ctx context.Context, r request, target, body string) (*http.Request, error) {
	var bodyReader io.Reader
	if r.method != http.MethodGet {
		bodyReader = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, target, bodyReader)
	if err != nil {
		return nil, fmt.Errorf("zulip: building %s /%s: %w", r.method, r.path, err)
	}
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "application/json")
	// Error messages are matched in a few places (see notFoundMessages); asking for English
	// keeps them stable whatever language the server would otherwise pick.
	req.Header.Set("Accept-Language", "en")
	if r.method != http.MethodGet {
		ct := r.contentType
		if ct == "" {
			ct = "application/x-www-form-urlencoded"
		}
		req.Header.Set("Content-Type", ct)
	}
	if !r.noAuth {
		req.SetBasicAuth(c.email, c.apiKey)
	}
	return req, nil
}

// attemptCancelled words an attempt ended by its context: its own deadline
// (request_timeout) apart from the caller's cancellation.
func (c *Client) attemptCancelled(ctx context.Context, r request, parent error) error {
	if errors.Is(context.Cause(ctx), errAttemptTimeout) {
		return fmt.Errorf("zulip: %s /%s: no complete answer within %s (request_timeout): %w",
			r.method, r.path, roundDuration(c.timeout), ErrRequestTimeout)
	}
	return fmt.Errorf("zulip: %s /%s: %w", r.method, r.path, parent)
}

// failedExchange is the result of an attempt that got no answer: retried (with backoff)
// when the request is idempotent or never left the process (sent false), except for a
// cancellation, a host that does not exist and a TLS failure, which fail at once.
func (c *Client) failedExchange(ctx context.Context, r request, err error, sent bool) attemptResult {
	if ctxErr := ctx.Err(); ctxErr != nil {
		// Not retried, even when the attempt's own timeout ended it: a server that
		// takes longer than request_timeout is not failing transiently, and the user
		// asked for the run to end in about that time.
		return attemptResult{err: c.attemptCancelled(ctx, r, ctxErr)}
	}
	if dnsErr := hostNotFound(err); dnsErr != nil {
		// No such host is the resolver's definitive answer: a typo in the site URL, or
		// a name that no longer exists. Retrying only delays the message.
		return attemptResult{err: c.hostNotFoundError(r, dnsErr)}
	}
	err = fmt.Errorf("zulip: %s /%s: %w", r.method, r.path, err)
	if IsTLSFailure(err) {
		// A certificate the client does not trust, or one the server wants and did
		// not get, fails the same way every time: retrying only delays the message.
		return attemptResult{err: err}
	}
	safe := r.idempotent || !sent
	return attemptResult{err: err, retry: safe, backoff: true, reason: "could not reach the Zulip server"}
}

// failedAnswer is the result of a non-2xx answer: its *APIError, retried for a 429 (after
// its Retry-After, or with backoff) and, when the request is idempotent, for a 502, 503 or
// 504.
func (c *Client) failedAnswer(r request, resp *http.Response, data []byte) attemptResult {
	apiErr := c.decodeError(r, resp, data)
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		// A rate-limited request was not processed, so it is safe to resend whatever it is.
		wait := apiErr.RetryAfter()
		return attemptResult{err: apiErr, retry: true, wait: wait, backoff: wait == 0, reason: "rate limited by the Zulip server"}
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		// The request may or may not have been processed behind the proxy.
		return attemptResult{
			err: apiErr, retry: r.idempotent, wait: apiErr.RetryAfterHeader, backoff: true,
			reason: fmt.Sprintf("the Zulip server answered HTTP %d", resp.StatusCode),
		}
	}
	return attemptResult{err: apiErr}
}

// hostNotFound returns the DNS error in err's chain when it says the name does not exist
// ("no such host"), and nil otherwise: a resolver that timed out or failed (IsTimeout,
// IsTemporary) may answer next time, so those failures stay retried like any connection
// failure.
func hostNotFound(err error) *net.DNSError {
	var dnsErr *net.DNSError
	if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound || dnsErr.IsTemporary || dnsErr.IsTimeout {
		return nil
	}
	return dnsErr
}

// hostNotFoundError words a "no such host" failure, naming the host: the site URL's, or
// another one (a proxy's) the request had to look up on the way.
func (c *Client) hostNotFoundError(r request, dnsErr *net.DNSError) error {
	site := c.base.Hostname()
	if name := strings.TrimSuffix(dnsErr.Name, "."); name == "" || strings.EqualFold(name, site) {
		return fmt.Errorf("zulip: %s /%s: the site URL's host %s does not resolve (%w); check the site URL "+
			"(`url`, ZULIP_SITE, or site in the zuliprc file)", r.method, r.path, site, dnsErr)
	}
	return fmt.Errorf("zulip: %s /%s: the host %s does not resolve (%w); it is not the site URL's host %s, so "+
		"check the proxy settings (HTTPS_PROXY, HTTP_PROXY)", r.method, r.path, dnsErr.Name, dnsErr, site)
}

// errAttemptTimeout is the cause of an attempt's context that reached request_timeout.
var errAttemptTimeout = errors.New("request_timeout reached")

// decodeSuccess checks the envelope of a 2xx answer and decodes it into out.
func (c *Client) decodeSuccess(ctx context.Context, r request, resp *http.Response, data []byte, out any) error {
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return fmt.Errorf("zulip: %s /%s: the answer (HTTP %d) is not Zulip JSON; is the site URL a Zulip server? %s",
			r.method, r.path, resp.StatusCode, excerptBody(data))
	}
	if env.Result == "error" {
		return c.decodeError(r, resp, data)
	}
	if len(env.Ignored) > 0 {
		// Zulip accepted the request but ignored these parameters: a typo in this client or
		// a server too old for them. Worth seeing in the logs.
		c.log(ctx, "zulip: server ignored unsupported parameters", map[string]any{
			"method": r.method, "path": r.path, "ignored_parameters_unsupported": strings.Join(env.Ignored, ","),
		})
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("zulip: %s /%s: decoding the answer: %w", r.method, r.path, err)
	}
	return nil
}

// decodeError turns a non-success answer into an *APIError. Zulip error bodies are JSON
// ({"result":"error","msg":...,"code":...,extra...}); anything else (a proxy's HTML page)
// keeps its status and a short excerpt as the message.
func (c *Client) decodeError(r request, resp *http.Response, data []byte) *APIError {
	e := &APIError{
		HTTPStatus:       resp.StatusCode,
		Method:           r.method,
		Path:             r.path,
		RetryAfterHeader: parseRetryAfter(resp.Header.Get("Retry-After"), c.now()),
	}
	var body map[string]any
	if err := json.Unmarshal(data, &body); err == nil && isZulipErrorBody(body) {
		e.Code, _ = body["code"].(string)
		e.Msg, _ = body["msg"].(string)
		delete(body, "result")
		delete(body, "msg")
		delete(body, "code")
		if len(body) > 0 {
			e.Extra = body
		}
	} else {
		e.Msg = excerptBody(data)
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		if loc := resp.Header.Get("Location"); loc != "" {
			e.Msg = "the server redirected to " + loc + "; check the site URL (https?)"
		}
	}
	if e.Msg == "" {
		e.Msg = http.StatusText(resp.StatusCode)
	}
	e.Msg = c.redact(e.Msg)
	return e
}

func isZulipErrorBody(body map[string]any) bool {
	if body == nil {
		return false
	}
	_, hasResult := body["result"]
	_, hasMsg := body["msg"]
	_, hasCode := body["code"]
	return hasResult || hasMsg || hasCode
}

// log forwards to the configured hook, if any.
func (c *Client) log(ctx context.Context, msg string, fields map[string]any) {
	if c.logf != nil {
		c.logf(ctx, msg, fields)
	}
}

// visibleWait is the shortest wait reported through Warnf: shorter ones go unnoticed in a
// run anyway, longer ones make an apply look hung unless it says why.
const visibleWait = time.Second

// logWait reports a wait about to start: through Warnf when it is long enough to notice.
func (c *Client) logWait(ctx context.Context, d time.Duration, msg string, fields map[string]any) {
	if d > visibleWait && c.warnf != nil {
		fields["wait"] = roundDuration(d).String()
		c.warnf(ctx, msg, fields)
		return
	}
	c.log(ctx, msg, fields)
}

// minRedactLength keeps redaction from mangling messages when a (test) key is a short
// common word such as "key"; real Zulip API keys are 32 characters long.
const minRedactLength = 8

// redact removes the API key from a text. The key is never put into a request line or a
// message by this package, but servers and proxies can echo what they receive, and an error
// text ends up in Terraform's output and logs.
func (c *Client) redact(s string) string {
	if len(c.apiKey) < minRedactLength || !strings.Contains(s, c.apiKey) {
		return s
	}
	return strings.ReplaceAll(s, c.apiKey, "[REDACTED]")
}

// scrub applies redact to a whole error chain's text while keeping it unwrappable.
func (c *Client) scrub(err error) error {
	if err == nil || len(c.apiKey) < minRedactLength || !strings.Contains(err.Error(), c.apiKey) {
		return err
	}
	return &redactedError{msg: c.redact(err.Error()), err: err}
}

// redactedError is an error whose text had the API key removed.
type redactedError struct {
	msg string
	err error
}

// Error returns the redacted text.
func (e *redactedError) Error() string { return e.msg }

// Unwrap keeps errors.Is and errors.As working through the redaction.
func (e *redactedError) Unwrap() error { return e.err }

// roundDuration keeps durations in messages readable ("28.7s", not "28.706807374s").
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}
