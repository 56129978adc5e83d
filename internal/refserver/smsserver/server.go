// Package smsserver is an in-memory reference implementation of 46elks' SMS
// "Conversations" API (beta): POST/GET /a1/conversations, expiry, the
// per-recipient limit with delay=allowed queueing, and reply webhooks
// triggered by a test hook.
//
// It is written from the documentation independently of the client in
// internal/sms and shares no code with it, so that a misreading in one is
// caught by the other's tests. Where the documentation is silent, the
// choice made is explained in a comment starting "Undocumented:".
package smsserver

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Default credentials, matching the defaults of the main reference server
// so that a bare smsserver and a mounted one accept the same requests.
const (
	// DefaultUsername is the API username used when Options.Username is empty.
	DefaultUsername = "sms-user"
	// DefaultPassword is the API password used when Options.Password is empty.
	DefaultPassword = "sms-password"
)

// DefaultMaxActivePerRecipient is 46elks' documented default limit of
// active conversations per recipient.
const DefaultMaxActivePerRecipient = 3

// Options configure a Server. The zero value is usable.
type Options struct {
	// Username and Password are the Basic-auth credentials every request
	// must carry; empty means DefaultUsername / DefaultPassword.
	Username string
	Password string
	// Clock returns the current time; default time.Now. Tests inject a fake
	// clock to make conversations expire without waiting.
	Clock func() time.Time
	// HTTPClient posts reply webhooks; default a client with a 10 s timeout.
	HTTPClient *http.Client
	// Numbers is the pool of sender numbers (E.164) the server chooses
	// "from" among. A recipient's active conversations each use a different
	// number, because a reply is matched to its conversation by the pair
	// (recipient, our number): the effective per-recipient limit is therefore
	// min(MaxActivePerRecipient, len(Numbers)). Default: MaxActivePerRecipient
	// numbers (at least 3) starting at +46766861001.
	Numbers []string
	// MaxActivePerRecipient caps the "started" conversations per recipient;
	// default DefaultMaxActivePerRecipient.
	MaxActivePerRecipient int
	// Logf, when set, receives one line per state change and per webhook
	// call. Credentials are never logged.
	Logf func(format string, args ...any)
	// OnChange, when set, is called after every change of the server's
	// state (including a lazy expiry noticed during a read), without the
	// server's lock held, so that an embedding server can persist Snapshot.
	OnChange func()
}

// Server is the reference Conversations API. It is an http.Handler and is
// safe for concurrent use.
type Server struct {
	opts Options

	// mu guards everything below; webhook calls are made without it so
	// that a webhook handler may call back into the server.
	mu sync.Mutex
	// convs holds the conversations in creation order (= created order,
	// since created is kept strictly increasing).
	convs []*Conversation
	byID  map[string]*Conversation
	// lastCreated is the newest created timestamp handed out, so the next
	// one can be made strictly later (see nextCreatedLocked).
	lastCreated time.Time
}

// New returns a Server with opts' defaults filled in.
func New(opts Options) *Server {
	if opts.Username == "" {
		opts.Username = DefaultUsername
	}
	if opts.Password == "" {
		opts.Password = DefaultPassword
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if opts.MaxActivePerRecipient <= 0 {
		opts.MaxActivePerRecipient = DefaultMaxActivePerRecipient
	}
	if len(opts.Numbers) == 0 {
		n := opts.MaxActivePerRecipient
		if n < 3 {
			n = 3
		}
		for i := 1; i <= n; i++ {
			opts.Numbers = append(opts.Numbers, fmt.Sprintf("+46766861%03d", i))
		}
	} else {
		opts.Numbers = append([]string(nil), opts.Numbers...)
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	return &Server{opts: opts, byID: map[string]*Conversation{}}
}

// ServeHTTP serves the API. It accepts paths with the "/a1" prefix (mounted
// at "/a1/" on the main server's mux) and without it (mounted behind
// http.StripPrefix("/a1", ...)). The fixed path parts match
// case-insensitively, as 46elks' do (its samples use /a1/SMS and /a1/sms).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="46elks"`)
		textError(w, http.StatusUnauthorized, "Authentication failed: wrong API username or password.")
		return
	}
	var segs []string
	for _, p := range strings.Split(r.URL.Path, "/") {
		if p != "" {
			segs = append(segs, p)
		}
	}
	if len(segs) > 0 && strings.EqualFold(segs[0], "a1") {
		segs = segs[1:]
	}
	switch {
	case len(segs) == 1 && strings.EqualFold(segs[0], "conversations"):
		switch r.Method {
		case http.MethodPost:
			s.handleCreate(w, r)
		case http.MethodGet:
			s.handleList(w, r)
		default:
			w.Header().Set("Allow", "GET, POST")
			textError(w, http.StatusMethodNotAllowed, "Method not allowed.")
		}
	case len(segs) == 2 && strings.EqualFold(segs[0], "conversations"):
		if r.Method != http.MethodGet {
			w.Header().Set("Allow", "GET")
			textError(w, http.StatusMethodNotAllowed, "Method not allowed.")
			return
		}
		s.handleGet(w, segs[1])
	default:
		textError(w, http.StatusNotFound, "Not found.")
	}
}

// authorized checks Basic auth in constant time, so the reference server
// does not teach timing leaks by example.
func (s *Server) authorized(r *http.Request) bool {
	user, pass, ok := r.BasicAuth()
	if !ok {
		return false
	}
	userOK := subtle.ConstantTimeCompare([]byte(user), []byte(s.opts.Username))
	passOK := subtle.ConstantTimeCompare([]byte(pass), []byte(s.opts.Password))
	return userOK&passOK == 1
}

// textError writes a short plain-text error, the content type 46elks'
// official Swagger declares for every error response.
func textError(w http.ResponseWriter, status int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg))
}

// notify runs the OnChange hook when something changed; callers invoke it
// after releasing mu.
func (s *Server) notify(changed bool) {
	if changed && s.opts.OnChange != nil {
		s.opts.OnChange()
	}
}
