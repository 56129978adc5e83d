package refserver

import (
	"log"
	"net/http"
	"strings"
	"time"
)

// The server's front: what Zulip's nginx does before a request reaches Django,
// and the timeouts of the HTTP server around it.

// nginx's default large_client_header_buffers (4 8k), which Zulip's nginx
// configuration keeps: a request line or a header line must fit in one 8 KiB
// buffer, and all header lines in four of them.
const (
	nginxHeaderBuffer  = 8 << 10
	nginxHeaderBuffers = 4
)

// Timeouts of the HTTP servers the package builds (NewHTTPServer,
// ConfigureHTTPServer). They protect the server's resources; no client can
// stall others whatever they are, since no answer is written with the realm
// lock held.
const (
	// ReadHeaderTimeout bounds reading a request's headers (slowloris).
	ReadHeaderTimeout = 10 * time.Second
	// ReadTimeout bounds reading a whole request. It also bounds how long a
	// handler can notice the client going away, so it exceeds the longest
	// handler (an event long-poll: Zulip's is 90 s).
	ReadTimeout = 2 * time.Minute
	// WriteTimeout is a backstop for a whole exchange; each answer also gets
	// its own deadline of defaultSendTimeout when it is written.
	WriteTimeout = 3 * time.Minute
	// IdleTimeout is Zulip's nginx keepalive_timeout (65 s).
	IdleTimeout = 65 * time.Second
	// MaxHeaderBytes is Go's default; nginx's smaller limits are applied by
	// the handler (see front), so that oversize headers get nginx's answer.
	// Beyond this, Go answers its own plain-text 431 before any handler runs.
	MaxHeaderBytes = 1 << 20
	// defaultSendTimeout bounds the writing of one answer: nginx's
	// send_timeout default (60 s). A client that does not read its answer
	// loses it after this, and the request log says so.
	defaultSendTimeout = 60 * time.Second
)

// ConfigureHTTPServer gives hs the package's timeouts and header limit where
// it has none set; for servers built elsewhere (httptest's Config, say).
func ConfigureHTTPServer(hs *http.Server) {
	if hs.ReadHeaderTimeout == 0 {
		hs.ReadHeaderTimeout = ReadHeaderTimeout
	}
	if hs.ReadTimeout == 0 {
		hs.ReadTimeout = ReadTimeout
	}
	if hs.WriteTimeout == 0 {
		hs.WriteTimeout = WriteTimeout
	}
	if hs.IdleTimeout == 0 {
		hs.IdleTimeout = IdleTimeout
	}
	if hs.MaxHeaderBytes == 0 {
		hs.MaxHeaderBytes = MaxHeaderBytes
	}
}

// NewHTTPServer returns an http.Server serving s with the package's timeouts;
// errorLog (may be nil) receives the http.Server's own errors.
func (s *Server) NewHTTPServer(errorLog *log.Logger) *http.Server {
	hs := &http.Server{Handler: s, ErrorLog: errorLog}
	ConfigureHTTPServer(hs)
	return hs
}

// front checks a request as Zulip's nginx would before passing it on, and
// normalizes its path. It returns nginx's answer for a request nginx refuses,
// nil for one it passes on.
func (s *Server) front(r *http.Request) *response {
	// ngx_http_parse_request_line: a request line longer than a large header
	// buffer is "414 Request-URI Too Large".
	uri := r.RequestURI
	if uri == "" {
		uri = r.URL.RequestURI()
	}
	if len(r.Method)+1+len(uri)+1+len(r.Proto) > nginxHeaderBuffer {
		return nginxPage(http.StatusRequestURITooLong, "Request-URI Too Large", "")
	}
	// A header line longer than a buffer, or headers filling more than all
	// buffers: "400 Request Header Or Cookie Too Large".
	total := len("Host: ") + len(r.Host) + 2
	tooLong := total > nginxHeaderBuffer
	for name, values := range r.Header {
		for _, v := range values {
			line := len(name) + 2 + len(v) + 2
			total += line
			tooLong = tooLong || line > nginxHeaderBuffer
		}
	}
	if tooLong || total > nginxHeaderBuffer*nginxHeaderBuffers {
		return nginxPage(http.StatusBadRequest, "Bad Request", "Request Header Or Cookie Too Large")
	}
	if strings.HasPrefix(r.URL.Path, "/") {
		clean, ok := normalizePath(r.URL.Path)
		if !ok {
			return nginxPage(http.StatusBadRequest, "Bad Request", "")
		}
		r.URL.Path, r.URL.RawPath = clean, ""
	}
	// client_max_body_size, checked on the announced length; a body sent
	// without one is limited while it is read (parseParams). The SMS API
	// under /a1/ is another product with its own limit.
	if r.ContentLength > s.maxBodyBytes && !strings.HasPrefix(r.URL.Path, "/a1/") {
		return nginxPage(http.StatusRequestEntityTooLarge, "Request Entity Too Large", "")
	}
	return nil
}

// normalizePath normalizes a decoded path as nginx does before it hands the
// request to Django (Zulip's uwsgi_params pass PATH_INFO as $document_uri,
// nginx's normalized URI): repeated slashes are merged (merge_slashes), "."
// segments dropped and ".." segments remove the one before. A path whose ".."
// climbs above the root is refused: ok is false, and nginx answers 400. A
// trailing slash, or a trailing "." or ".." segment, leaves the result ending
// in a slash.
//
// So /api/v1/users/../server_settings is served as /api/v1/server_settings,
// with no redirect (Go's ServeMux would answer a 301 to the clean path, which
// no Zulip server does).
func normalizePath(p string) (clean string, ok bool) {
	segs := strings.Split(p, "/")
	out := make([]string, 0, len(segs))
	trailing := false
	for i, seg := range segs[1:] {
		last := i == len(segs)-2
		switch seg {
		case "", ".":
			trailing = last
		case "..":
			if len(out) == 0 {
				return "", false
			}
			out = out[:len(out)-1]
			trailing = last
		default:
			out = append(out, seg)
			trailing = false
		}
	}
	clean = "/" + strings.Join(out, "/")
	if trailing && len(out) > 0 {
		clean += "/"
	}
	return clean, true
}
