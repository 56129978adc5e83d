// Package sms is a small client for 46elks' SMS "Conversations" API (beta):
// send a question to a phone number and read the conversation back; the
// recipient's replies arrive on a webhook, for which ParseReply and
// WebhookAnswer are provided.
//
// The package knows nothing of Terraform. It is deliberately independent of
// the reference server in internal/refserver/smsserver: both implement the
// same contract from the documentation, so a shared misreading cannot pass
// both test suites.
package sms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultAPIURL is 46elks' production API root, used when Config.APIURL is
// empty. The "/a1" version prefix is added by the client.
const DefaultAPIURL = "https://api.46elks.com"

// defaultUserAgent identifies the client when Config.UserAgent is empty, so
// that a server operator can tell where requests come from.
const defaultUserAgent = "terraform-provider-zulip-sms"

// defaultTimeout bounds a request when the caller supplies no HTTP client:
// http.DefaultClient has no timeout at all, and a hung API must not hang a
// Terraform run forever.
const defaultTimeout = 30 * time.Second

// maxErrorBody caps how much of an error body is read. 46elks documents its
// errors as short plain-text sentences; anything longer is a proxy's HTML
// page and is not worth carrying into a diagnostic.
const maxErrorBody = 1 << 10

// maxSuccessBody caps a successful JSON body. A conversation record is a few
// hundred bytes; the cap only guards against a misbehaving server.
const maxSuccessBody = 1 << 20

// Config configures a Client.
type Config struct {
	// APIURL is the API root, such as "https://api.46elks.com". A trailing
	// slash and a trailing "/a1" are both accepted. Empty means DefaultAPIURL.
	APIURL string
	// Username is the 46elks API username (Basic auth user).
	Username string
	// Password is the 46elks API password (Basic auth password). It is never
	// included in errors.
	Password string
	// UserAgent is sent as the User-Agent header; empty means a default.
	UserAgent string
	// HTTPClient sends the requests; nil means a client with a 30 s timeout.
	HTTPClient *http.Client
}

// Client talks to the Conversations API. It is safe for concurrent use.
type Client struct {
	base       *url.URL // API root including the "/a1" prefix, no trailing slash
	username   string
	password   string
	userAgent  string
	httpClient *http.Client
}

// New validates cfg and returns a Client. It performs no network I/O.
func New(cfg Config) (*Client, error) {
	if cfg.Username == "" {
		return nil, errors.New("sms: username is required")
	}
	if cfg.Password == "" {
		return nil, errors.New("sms: password is required")
	}
	base, err := normalizeAPIURL(cfg.APIURL)
	if err != nil {
		return nil, err
	}
	c := &Client{
		base:       base,
		username:   cfg.Username,
		password:   cfg.Password,
		userAgent:  cfg.UserAgent,
		httpClient: cfg.HTTPClient,
	}
	if c.userAgent == "" {
		c.userAgent = defaultUserAgent
	}
	if c.httpClient == nil {
		c.httpClient = &http.Client{Timeout: defaultTimeout}
	}
	return c, nil
}

// normalizeAPIURL turns the accepted spellings of the API root into one URL
// ending in "/a1", so that request paths can simply be appended.
func normalizeAPIURL(raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		raw = DefaultAPIURL
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		// The parse error quotes the input, which may hold credentials.
		return nil, errors.New("sms: api_url is not a valid URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errors.New("sms: api_url must be an http or https URL")
	}
	if u.Host == "" {
		return nil, errors.New("sms: api_url has no host")
	}
	if u.User != nil {
		// 46elks accepts https://USER:PASS@host, but credentials in a URL end
		// up in logs and state; insist on the dedicated fields instead.
		return nil, errors.New("sms: api_url must not contain credentials; set username and password instead")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("sms: api_url must not have a query or fragment")
	}
	p := strings.TrimRight(u.Path, "/")
	if strings.HasSuffix(strings.ToLower(p), "/a1") {
		p = p[:len(p)-len("/a1")]
	}
	u.Path = p + "/a1"
	u.RawPath = ""
	return u, nil
}

// APIError is returned for any response outside 2xx. 46elks documents
// neither its error codes nor its error texts, so callers should branch on
// HTTPStatus and show Message to the user.
type APIError struct {
	// HTTPStatus is the response status code.
	HTTPStatus int
	// Message is the server's explanation: the plain-text body (trimmed and
	// capped), the "error" or "message" key of a JSON body, or the status
	// text when the body is empty or an HTML page.
	Message string
}

// Error implements error.
func (e *APIError) Error() string {
	return fmt.Sprintf("sms: HTTP %d: %s", e.HTTPStatus, e.Message)
}

// IsNotFound reports whether err is an *APIError with status 404, for
// callers that treat an unknown conversation as gone rather than failed.
func IsNotFound(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.HTTPStatus == http.StatusNotFound
}

// IsUnauthorized reports whether err is an *APIError with status 401, which
// 46elks returns for wrong credentials.
func IsUnauthorized(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.HTTPStatus == http.StatusUnauthorized
}

// do sends one request to the API root joined with the already-escaped path
// elements, and decodes a 2xx JSON body into out. form, when not nil, is sent
// form-encoded. Every non-2xx becomes an *APIError.
func (c *Client) do(ctx context.Context, method string, elems []string, form url.Values, out any) error {
	u := c.base.JoinPath(elems...)
	path := "/a1/" + strings.Join(elems, "/") // for error messages only
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return fmt.Errorf("sms: building %s %s: %w", method, path, err)
	}
	req.SetBasicAuth(c.username, c.password)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}

	resp, err := c.httpClient.Do(req)
	if err != nil {
		// *url.Error redacts passwords in URLs, and ours carry none anyway:
		// the credentials travel only in the Authorization header.
		return fmt.Errorf("sms: %s %s: %w", method, path, err)
	}
	defer func() {
		// Drain a little so the connection can be reused, then close.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		_ = resp.Body.Close()
	}()

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return newAPIError(resp)
	}
	if out == nil {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxSuccessBody))
	if err != nil {
		return fmt.Errorf("sms: %s %s: reading response: %w", method, path, err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("sms: %s %s: decoding response: %w", method, path, err)
	}
	return nil
}

// newAPIError reads a capped error body as text. The official spec declares
// errors as text/plain, but a third-party source claims JSON {"error": ...};
// both are handled, and an HTML page from a proxy is reduced to the status
// text rather than pasted into a diagnostic.
func newAPIError(resp *http.Response) *APIError {
	data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &APIError{HTTPStatus: resp.StatusCode}
	text := strings.TrimSpace(string(data))

	if strings.HasPrefix(text, "{") {
		var payload struct {
			Error   any `json:"error"`
			Message any `json:"message"`
		}
		if json.Unmarshal(data, &payload) == nil {
			if s := jsonText(payload.Error); s != "" {
				text = s
			} else if s := jsonText(payload.Message); s != "" {
				text = s
			}
		}
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	lower := strings.ToLower(text)
	if mediaType == "text/html" || strings.HasPrefix(lower, "<!doctype") || strings.HasPrefix(lower, "<html") {
		text = ""
	}
	// One line, so the message reads well inside a Terraform diagnostic.
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		text = http.StatusText(resp.StatusCode)
		if text == "" {
			text = "unexpected response"
		}
	}
	e.Message = text
	return e
}

// jsonText renders the value of an "error"/"message" key: strings as they
// are, anything else (an object, a number) as compact JSON.
func jsonText(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return strings.TrimSpace(t)
	default:
		b, err := json.Marshal(t)
		if err != nil {
			return ""
		}
		return string(b)
	}
}
