package refserver

import (
	"errors"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver/smsserver"
)

// serverExt holds the server's machinery beyond the realm: the rate limiter,
// fault injection and the SMS API.
type serverExt struct {
	limiter *rateLimiter         // nil when rate limiting is off
	faults  *faultInjector       // nil when no fault is configured
	sms     *smsserver.Server    // the SMS conversations API under /a1/
	logf    func(string, ...any) // never nil
}

// init seeds the realm or loads it from the state file, restores the SMS API's
// state, and writes the state file once so that it exists from the start.
func (s *Server) init() error {
	s.ext.logf = func(string, ...any) {}
	if s.opts.Logger != nil {
		s.ext.logf = s.opts.Logger.Printf
	}
	s.ext.limiter = newRateLimiter(s.opts.RateLimit)
	s.ext.faults = newFaultInjector(s.opts.Faults, s.opts.Seed)
	s.ext.sms = smsserver.New(smsserver.Options{
		Username:   s.opts.SMSUsername,
		Password:   s.opts.SMSPassword,
		Clock:      s.opts.Clock,
		HTTPClient: s.opts.HTTPClient,
		Logf:       s.ext.logf,
		OnChange:   s.smsChanged,
	})
	var realm *Realm
	if s.opts.StateFile != "" {
		r, ok, err := loadState(s.opts.StateFile)
		if err != nil {
			return err
		}
		if ok {
			realm = r
			if err := s.restoreSMS(r); err != nil {
				return err
			}
		}
	}
	if realm == nil {
		realm = seedRealm(s.opts.Host, s.now())
		seedCoreArea(realm)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.realm = realm
	return s.persistLocked()
}

// smsChanged persists the SMS API's state after each of its changes. The SMS
// server calls it synchronously, before it answers the request that made the
// change, so an acknowledged SMS change is on disk too.
func (s *Server) smsChanged() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.realm == nil { // during init
		return
	}
	if err := s.persistLocked(); err != nil {
		s.ext.logf("refserver: %v", err)
	}
}

// wrap turns a handlerFunc into an http.Handler: parameter parsing, the lock,
// authentication, rate limiting, the envelope, ignored_parameters_unsupported,
// and persistence before the answer.
func (s *Server) wrap(auth authMode, h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		params, err := parseParams(r)
		if err != nil {
			writeError(w, errBadRequest("Malformed request body"))
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		c := &call{s: s, r: r, w: w, params: params, used: map[string]bool{}, header: http.Header{}}
		key := "addr:" + clientAddr(r)
		if auth == authUser {
			user, aerr := s.authenticate(r)
			if aerr != nil {
				s.peekRateLimit(w, r)
				writeError(w, aerr)
				return
			}
			c.user = user
			key = "user:" + strconv.Itoa(user.ID)
		}
		if s.ext.limiter != nil {
			d := s.ext.limiter.take(key, s.now())
			d.setHeaders(w.Header())
			if !d.allowed {
				writeRateLimited(w, d.retryAfter)
				return
			}
		}
		payload, err := h(c)
		mutating := r.Method != http.MethodGet && r.Method != http.MethodHead
		if err != nil {
			var ae *apiError
			if !errors.As(err, &ae) {
				s.ext.logf("refserver: %s %s: internal error: %v", r.Method, r.URL.Path, err)
				ae = errCode(http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "Internal server error", nil)
			}
			if mutating {
				// Handlers validate before they change anything, so this is
				// normally a no-op rewrite; it keeps the file equal to memory
				// should one ever change something and then fail.
				if perr := s.persistLocked(); perr != nil {
					s.ext.logf("refserver: %v", perr)
				}
			}
			writeError(w, ae)
			return
		}
		if mutating {
			if perr := s.persistLocked(); perr != nil {
				s.ext.logf("refserver: %v", perr)
				writeError(w, errCode(http.StatusInternalServerError, "INTERNAL_SERVER_ERROR",
					"Internal server error: the change could not be saved", nil))
				return
			}
		}
		c.writeSuccess(payload)
	})
}

// authenticate checks HTTP Basic credentials: the user's e-mail address (the
// delivery address, case-insensitively) and API key, as Zulip's
// validate_api_key does.
func (s *Server) authenticate(r *http.Request) (*User, *apiError) {
	email, key, ok := r.BasicAuth()
	if !ok {
		return nil, errCode(http.StatusUnauthorized, "UNAUTHORIZED",
			"Not logged in: API authentication or user session required", nil)
	}
	email, key = strings.TrimSpace(email), strings.TrimSpace(key)
	if !validAPIKeyFormat(key) {
		return nil, errCode(http.StatusUnauthorized, "INVALID_API_KEY", "Malformed API key", nil)
	}
	u := s.realm.userByEmail(email)
	if u == nil || u.APIKey != key {
		return nil, errCode(http.StatusUnauthorized, "INVALID_API_KEY", "Invalid API key", nil)
	}
	if s.realm.Deactivated {
		return nil, errCode(http.StatusUnauthorized, "REALM_DEACTIVATED", "This organization has been deactivated", nil)
	}
	if !u.IsActive {
		return nil, errCode(http.StatusUnauthorized, "USER_DEACTIVATED", "Account is deactivated", nil)
	}
	return u, nil
}

// validAPIKeyFormat reports whether key looks like a Zulip API key: 32 letters
// and digits (Zulip answers "Malformed API key" otherwise).
func validAPIKeyFormat(key string) bool {
	if len(key) != 32 {
		return false
	}
	for i := 0; i < len(key); i++ {
		if !isASCIILetterOrDigit(key[i]) {
			return false
		}
	}
	return true
}

// isASCIILetterOrDigit reports whether ch is an ASCII letter or digit.
func isASCIILetterOrDigit(ch byte) bool {
	return 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9'
}

// clientAddr is the client's IP address, the rate-limit key of unauthenticated requests.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// peekRateLimit sets the rate-limit headers of the client's address on an
// answer that is not charged to anyone (failed authentication, unknown endpoint),
// so that every API answer carries them when rate limiting is on.
func (s *Server) peekRateLimit(w http.ResponseWriter, r *http.Request) {
	if s.ext.limiter != nil {
		s.ext.limiter.peek("addr:"+clientAddr(r), s.now()).setHeaders(w.Header())
	}
}

// serveUnknown answers API paths no route matches with a JSON error instead of
// Go's plain-text 404: 405 (with Allow and allowed_methods) when the path
// exists for other methods, else 404 "Invalid API endpoint".
func (s *Server) serveUnknown(w http.ResponseWriter, r *http.Request) {
	s.peekRateLimit(w, r)
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "" && !isCatchAll(pattern) {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) > 0 {
		sort.Strings(allowed)
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		writeError(w, errCode(http.StatusMethodNotAllowed, "BAD_REQUEST", "Method Not Allowed",
			obj{"allowed_methods": allowed}))
		return
	}
	writeError(w, errCode(http.StatusNotFound, "BAD_REQUEST", "Invalid API endpoint", nil))
}

// catchAllPatterns are the mux patterns of serveUnknown.
var catchAllPatterns = []string{"/api/v1/", "/json/"}

// isCatchAll reports whether a mux pattern is one of serveUnknown's.
func isCatchAll(pattern string) bool {
	for _, p := range catchAllPatterns {
		if pattern == p {
			return true
		}
	}
	return false
}
