package refserver

import (
	"errors"
	"net/http"
)

// serverExt holds the server's machinery beyond the realm: rate limiter state,
// fault injection, the SMS API. (Owned by the core; extended as features land.)
type serverExt struct{}

// init seeds the realm or loads it from the state file.
func (s *Server) init() error {
	s.realm = seedRealm(s.opts.Host, s.now())
	return nil
}

// persistLocked writes the state file, if any. The caller holds s.mu.
func (s *Server) persistLocked() {}

// wrap turns a handlerFunc into an http.Handler: authentication, parameter
// parsing, the lock, the envelope and ignored_parameters_unsupported.
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
		if auth == authUser {
			user, aerr := s.authenticate(r)
			if aerr != nil {
				writeError(w, aerr)
				return
			}
			c.user = user
		}
		payload, err := h(c)
		if err != nil {
			var ae *apiError
			if !errors.As(err, &ae) {
				ae = errCode(http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "Internal server error", nil)
			}
			writeError(w, ae)
			return
		}
		if r.Method != http.MethodGet {
			s.persistLocked()
		}
		c.writeSuccess(payload)
	})
}

// authenticate checks HTTP Basic credentials (API e-mail + API key).
func (s *Server) authenticate(r *http.Request) (*User, *apiError) {
	email, key, ok := r.BasicAuth()
	if !ok {
		return nil, errCode(http.StatusUnauthorized, "UNAUTHORIZED",
			"Not logged in: API authentication or user session required", nil)
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
