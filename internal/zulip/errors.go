package zulip

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Error codes that Zulip puts in the "code" field of an error answer and that callers of this
// package may want to compare against APIError.Code.
const (
	CodeBadRequest               = "BAD_REQUEST"
	CodeRequestVariableMissing   = "REQUEST_VARIABLE_MISSING"
	CodeRequestVariableInvalid   = "REQUEST_VARIABLE_INVALID"
	CodeInvalidJSON              = "INVALID_JSON"
	CodeUnauthorizedPrincipal    = "UNAUTHORIZED_PRINCIPAL"
	CodeStreamDoesNotExist       = "STREAM_DOES_NOT_EXIST"
	CodeBadEventQueueID          = "BAD_EVENT_QUEUE_ID"
	CodeCannotDeactivateLastUser = "CANNOT_DEACTIVATE_LAST_USER"
	CodeUnauthorized             = "UNAUTHORIZED"
	CodeInvalidAPIKey            = "INVALID_API_KEY"
	CodeUserDeactivated          = "USER_DEACTIVATED"
	CodeRealmDeactivated         = "REALM_DEACTIVATED"
	CodeAuthenticationFailed     = "AUTHENTICATION_FAILED"
	CodeUnauthenticatedUser      = "UNAUTHENTICATED_USER"
	CodePasswordAuthDisabled     = "PASSWORD_AUTH_DISABLED"
	CodePasswordResetRequired    = "PASSWORD_RESET_REQUIRED"
	CodeNonexistentSubdomain     = "NONEXISTENT_SUBDOMAIN"
	CodeRateLimitHit             = "RATE_LIMIT_HIT"
	// CodeExpectationMismatch: the "old" of a group-setting update does not match the
	// setting's current value; nothing was changed.
	CodeExpectationMismatch = "EXPECTATION_MISMATCH"
	// CodeCannotDeactivateGroupInUse: the user group is still used by a permission setting or
	// as a subgroup (FL298; BAD_REQUEST before). APIError.GroupObjections says where.
	CodeCannotDeactivateGroupInUse = "CANNOT_DEACTIVATE_GROUP_IN_USE"
	// CodeChannelAlreadyExists: POST /channels/create with a name that is taken (HTTP 409).
	CodeChannelAlreadyExists = "CHANNEL_ALREADY_EXISTS"
)

// Sentinel errors for errors.Is. An *APIError matches them through its Is method, so callers
// can write errors.Is(err, zulip.ErrNotFound) even when the error was wrapped.
var (
	// ErrNotFound matches answers that mean "the object does not exist" (see IsNotFound).
	ErrNotFound = errors.New("zulip: not found")
	// ErrUnauthorized matches authentication failures (see IsUnauthorized).
	ErrUnauthorized = errors.New("zulip: unauthorized")
	// ErrUnauthorizedPrincipal matches "authenticated, but the role is too low".
	ErrUnauthorizedPrincipal = errors.New("zulip: insufficient permission")
	// ErrRateLimited matches HTTP 429 answers.
	ErrRateLimited = errors.New("zulip: rate limited")
	// ErrBadEventQueue matches BAD_EVENT_QUEUE_ID (an expired or unknown event queue).
	ErrBadEventQueue = errors.New("zulip: bad event queue id")
	// ErrCannotDeactivateLastUser matches CANNOT_DEACTIVATE_LAST_USER.
	ErrCannotDeactivateLastUser = errors.New("zulip: cannot deactivate the last user or owner")
	// ErrExpectationMismatch matches EXPECTATION_MISMATCH (see IsExpectationMismatch).
	ErrExpectationMismatch = errors.New("zulip: group setting changed since it was read")
	// ErrGroupInUse matches CANNOT_DEACTIVATE_GROUP_IN_USE (see IsGroupInUse).
	ErrGroupInUse = errors.New("zulip: user group in use")
	// ErrRequestTimeout matches a request that got no complete answer within the client's
	// RequestTimeout. Such a request is not retried; whether the server processed it is
	// unknown.
	ErrRequestTimeout = errors.New("zulip: request timed out")
	// ErrMissingCredentials is returned, without contacting the server, by methods that need
	// authentication when the client was built without an e-mail or API key.
	ErrMissingCredentials = errors.New("zulip: missing credentials")
	// ErrNotSent matches a call that failed before any of its requests left the process
	// (see IsNotSent): the server cannot have processed it.
	ErrNotSent = errors.New("zulip: nothing reached the server")
)

// APIError is a non-success answer from the Zulip server. Extra holds every top-level field
// of the error body other than result, msg and code (for example var_name, queue_id,
// retry-after); typed accessors below read the common ones.
type APIError struct {
	// HTTPStatus is the HTTP status code of the answer.
	HTTPStatus int
	// Code is Zulip's machine-readable error code; empty when the body was not a Zulip error
	// (an HTML page from a proxy, say).
	Code string
	// Msg is the human-readable message, or a short excerpt of a non-JSON body.
	Msg string
	// Extra holds the remaining top-level fields of the error body.
	Extra map[string]any
	// Method and Path name the request, for messages; Path is relative to /api/v1 and never
	// carries credentials.
	Method string
	Path   string
	// RetryAfterHeader is the parsed Retry-After header, zero when absent.
	RetryAfterHeader time.Duration
}

// Error describes the failure. It is built only from the request line and the server's
// answer; credentials are sent in a header and never appear here.
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString("zulip: ")
	if e.Method != "" {
		b.WriteString(e.Method)
		b.WriteString(" ")
		b.WriteString("/" + strings.TrimPrefix(e.Path, "/"))
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "HTTP %d", e.HTTPStatus)
	if e.Code != "" {
		b.WriteString(" ")
		b.WriteString(e.Code)
	}
	if e.Msg != "" {
		b.WriteString(": ")
		b.WriteString(e.Msg)
	}
	return b.String()
}

// Is lets errors.Is match the sentinel values against this error's status and code.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.isNotFound()
	case ErrUnauthorized:
		return e.isUnauthorized()
	case ErrUnauthorizedPrincipal:
		return e.Code == CodeUnauthorizedPrincipal
	case ErrRateLimited:
		return e.HTTPStatus == http.StatusTooManyRequests || e.Code == CodeRateLimitHit
	case ErrBadEventQueue:
		return e.Code == CodeBadEventQueueID
	case ErrCannotDeactivateLastUser:
		return e.Code == CodeCannotDeactivateLastUser
	case ErrExpectationMismatch:
		return e.Code == CodeExpectationMismatch
	case ErrGroupInUse:
		return e.Code == CodeCannotDeactivateGroupInUse
	}
	return false
}

// notFoundMessages lists the texts with which Zulip reports a missing object under the
// generic code BAD_REQUEST and HTTP 400, since those views raise a plain JsonableError rather
// than a 404. Message matching is a last resort (codes are the contract, and messages can be
// translated; the client asks for English with Accept-Language), so the list is kept in this
// one place. Each entry is a prefix and an optional suffix of the message.
var notFoundMessages = []struct{ prefix, suffix string }{
	{"Linkifier not found", ""},          // PATCH/DELETE /realm/filters/{id}
	{"No such user", ""},                 // GET/PATCH/DELETE /users/{id}, /users/{email}, /users/{id}/status
	{"No entry found for domain", ""},    // PATCH/DELETE /realm/domains/{domain}
	{"Invalid channel ID", ""},           // GET /streams/{id}, topics, POST /user_topics
	{"Saved snippet does not exist", ""}, // older servers answered 400 rather than 404
	{"Invalid user group", ""},           // user group endpoints
	{"Invalid message(s)", ""},           // message ids that are gone or inaccessible
	{"Token does not exist", ""},         // DELETE /users/me/apns_device_token
	{"Field id ", " not found."},         // profile data for a deleted custom profile field
	{"Invalid playground", ""},           // DELETE /realm/playgrounds/{id}
	{"Emoji '", "' does not exist"},      // DELETE /realm/emoji/{name} before feature level 190
}

// isNotFound reports whether the answer means the object does not exist. A 404 counts only
// when it is a Zulip error body about an object: a 404 without a Zulip body (a proxy page,
// or a server too old to have the endpoint) and NONEXISTENT_SUBDOMAIN (a wrong site URL)
// are configuration problems, and treating them as "gone" would make the provider silently
// forget resources.
func (e *APIError) isNotFound() bool {
	if e.Code == CodeStreamDoesNotExist {
		return true
	}
	if e.HTTPStatus == http.StatusNotFound {
		if e.Code == "" || e.Code == CodeNonexistentSubdomain {
			return false
		}
		return !strings.EqualFold(strings.TrimSpace(strings.TrimSuffix(e.Msg, ".")), "not found")
	}
	if e.HTTPStatus != http.StatusBadRequest || e.Code != CodeBadRequest {
		return false
	}
	for _, m := range notFoundMessages {
		if strings.HasPrefix(e.Msg, m.prefix) && strings.HasSuffix(strings.TrimSuffix(e.Msg, "."), strings.TrimSuffix(m.suffix, ".")) {
			return true
		}
	}
	return false
}

// unauthorizedCodes are the authentication failures. They normally come with HTTP 401, but
// older servers used 403 for deactivated users and realms (before FL76) and the API
// description lists INVALID_API_KEY under 400, so the code is checked as well as the status.
var unauthorizedCodes = map[string]bool{
	CodeUnauthorized:          true,
	CodeInvalidAPIKey:         true,
	CodeUserDeactivated:       true,
	CodeRealmDeactivated:      true,
	CodeAuthenticationFailed:  true,
	CodeUnauthenticatedUser:   true,
	CodePasswordAuthDisabled:  true,
	CodePasswordResetRequired: true,
}

func (e *APIError) isUnauthorized() bool {
	return e.HTTPStatus == http.StatusUnauthorized || unauthorizedCodes[e.Code]
}

// AuthFailure says why the server refused the credentials of a request.
type AuthFailure int

// The reasons an authentication failure can have.
const (
	AuthOK               AuthFailure = iota // not an authentication failure
	AuthOther                               // refused for a reason not told apart below
	AuthInvalidAPIKey                       // no account has that e-mail address with that key (or the key is malformed)
	AuthUserDeactivated                     // the account is deactivated
	AuthRealmDeactivated                    // the organization is deactivated
)

// authMessages are validate_api_key's messages (zerver/decorator.py,
// zerver/lib/exceptions.py). On the REST API authenticated_rest_api_view turns
// each into json_unauthorized(e.msg): 401 with code UNAUTHORIZED, so only the
// message tells them apart; the client sends no Accept-Language, so Zulip
// answers in English. The fetch_api_key views keep the specific codes.
var authMessages = map[string]AuthFailure{
	"Invalid API key":                        AuthInvalidAPIKey,
	"Malformed API key":                      AuthInvalidAPIKey,
	"Account is deactivated":                 AuthUserDeactivated,
	"This organization has been deactivated": AuthRealmDeactivated,
}

// AuthFailure classifies an authentication failure by its code (the fetch_api_key
// views and servers before feature level 76) or, for the REST API's UNAUTHORIZED,
// by its message.
func (e *APIError) AuthFailure() AuthFailure {
	switch {
	case !e.isUnauthorized():
		return AuthOK
	case e.Code == CodeInvalidAPIKey:
		return AuthInvalidAPIKey
	case e.Code == CodeUserDeactivated:
		return AuthUserDeactivated
	case e.Code == CodeRealmDeactivated:
		return AuthRealmDeactivated
	case e.Code == CodeUnauthorized || e.Code == "":
		if reason, ok := authMessages[e.Msg]; ok {
			return reason
		}
	}
	return AuthOther
}

// AuthFailureOf classifies err as APIError.AuthFailure does; AuthOK when err is
// not an API error.
func AuthFailureOf(err error) AuthFailure {
	if e, ok := AsAPIError(err); ok {
		return e.AuthFailure()
	}
	return AuthOK
}

// QueueID returns the queue_id of a BAD_EVENT_QUEUE_ID error.
func (e *APIError) QueueID() string { return e.extraString("queue_id") }

// Entity returns the entity ("organization owner" or "user") of CANNOT_DEACTIVATE_LAST_USER.
func (e *APIError) Entity() string { return e.extraString("entity") }

// VarName returns the parameter named by REQUEST_VARIABLE_MISSING or
// REQUEST_VARIABLE_INVALID (which today's Zulip raises only for a few realm
// time-limit settings). Typed-parameter errors are BAD_REQUEST and name the
// parameter only in the message (zerver/lib/typed_endpoint.py).
func (e *APIError) VarName() string { return e.extraString("var_name") }

// IsLastOwner reports the is_last_owner flag of CANNOT_DEACTIVATE_LAST_USER.
func (e *APIError) IsLastOwner() bool {
	v, _ := e.Extra["is_last_owner"].(bool)
	return v
}

// RetryAfter returns how long the server asked the client to wait: the larger of the
// Retry-After header and the body's retry-after field (which may be fractional).
func (e *APIError) RetryAfter() time.Duration {
	d := e.RetryAfterHeader
	if v, ok := e.Extra["retry-after"].(float64); ok && v > 0 {
		if b := secondsToDuration(v); b > d {
			d = b
		}
	}
	return d
}

// FieldErrors returns the per-field validation messages of a model validation failure
// (the "errors" object, e.g. {"pattern": ["Bad regular expression: ..."]}), or nil.
func (e *APIError) FieldErrors() map[string][]string {
	raw, ok := e.Extra["errors"].(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string][]string, len(raw))
	for field, v := range raw {
		list, _ := v.([]any)
		for _, m := range list {
			if s, ok := m.(string); ok {
				out[field] = append(out[field], s)
			}
		}
	}
	return out
}

func (e *APIError) extraString(key string) string {
	s, _ := e.Extra[key].(string)
	return s
}

// IsNotFound reports whether err means the requested object does not exist, whatever
// status and message Zulip used to say so (404 BAD_REQUEST for saved snippets, 400
// BAD_REQUEST "Linkifier not found." and similar, STREAM_DOES_NOT_EXIST).
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// IsNotSent reports a call that ended (interrupted while it waited for the rate limit,
// or unable to connect) before any of its requests left the process: nothing was done on
// the server, so a create need not be looked for, and may simply be tried again.
func IsNotSent(err error) bool { return errors.Is(err, ErrNotSent) }

// IsUnauthorized reports whether err is an authentication failure (bad or missing API key,
// deactivated user or organization). Permission failures of an authenticated user are
// IsUnauthorizedPrincipal instead.
func IsUnauthorized(err error) bool { return errors.Is(err, ErrUnauthorized) }

// IsUnauthorizedPrincipal reports whether err is UNAUTHORIZED_PRINCIPAL: the caller is
// authenticated but lacks the role (member, administrator, owner) the operation needs.
func IsUnauthorizedPrincipal(err error) bool { return errors.Is(err, ErrUnauthorizedPrincipal) }

// IsRateLimited reports whether err is a rate-limit answer (after retries were exhausted).
func IsRateLimited(err error) bool { return errors.Is(err, ErrRateLimited) }

// IsBadEventQueue reports whether err is BAD_EVENT_QUEUE_ID: the queue expired or was deleted.
func IsBadEventQueue(err error) bool { return errors.Is(err, ErrBadEventQueue) }

// IsCannotDeactivateLastUser reports whether err is CANNOT_DEACTIVATE_LAST_USER.
func IsCannotDeactivateLastUser(err error) bool { return errors.Is(err, ErrCannotDeactivateLastUser) }

// IsExpectationMismatch reports whether err is EXPECTATION_MISMATCH: a GroupSettingUpdate
// carried an Old value that is no longer the setting's value, so the server changed
// nothing. The caller should read the object again rather than retry.
func IsExpectationMismatch(err error) bool { return errors.Is(err, ErrExpectationMismatch) }

// IsGroupInUse reports whether err is CANNOT_DEACTIVATE_GROUP_IN_USE; GroupObjectionsOf
// returns the uses that prevent the deactivation.
func IsGroupInUse(err error) bool { return errors.Is(err, ErrGroupInUse) }

// AsAPIError returns the *APIError in err's chain, if any.
func AsAPIError(err error) (*APIError, bool) {
	var apiErr *APIError
	ok := errors.As(err, &apiErr)
	return apiErr, ok
}

// ErrorMsg is Zulip's message ("msg") in err, or "" when err carries no
// Zulip error: what the provider matches to tell the attribute at fault.
func ErrorMsg(err error) string {
	if apiErr, ok := AsAPIError(err); ok {
		return apiErr.Msg
	}
	return ""
}

// ErrorCode is Zulip's error code ("code") in err, or "" when err carries no
// Zulip error.
func ErrorCode(err error) string {
	if apiErr, ok := AsAPIError(err); ok {
		return apiErr.Code
	}
	return ""
}

// maxErrorExcerpt caps how much of a non-JSON error body goes into a message: enough to
// recognise a proxy's "502 Bad Gateway" page, not a whole HTML document.
const maxErrorExcerpt = 200

// excerptBody turns a non-JSON body (typically an HTML error page) into a short one-line
// text: the <title> when there is one, otherwise the text with tags removed.
func excerptBody(body []byte) string {
	s := string(body)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "?")
	}
	lower := strings.ToLower(s)
	if i := strings.Index(lower, "<title>"); i >= 0 {
		if j := strings.Index(lower[i:], "</title>"); j > 0 {
			s = s[i+len("<title>") : i+j]
		}
	}
	var b strings.Builder
	inTag := false
	for _, r := range s {
		switch {
		case r == '<':
			inTag = true
		case r == '>' && inTag:
			inTag = false
			b.WriteRune(' ')
		case !inTag:
			b.WriteRune(r)
		}
	}
	text := strings.Join(strings.Fields(b.String()), " ")
	if utf8.RuneCountInString(text) > maxErrorExcerpt {
		runes := []rune(text)
		text = string(runes[:maxErrorExcerpt]) + "…"
	}
	return text
}

// secondsToDuration converts a (possibly fractional) number of seconds.
func secondsToDuration(s float64) time.Duration {
	if s <= 0 {
		return 0
	}
	const maxSeconds = float64(1<<63-1) / float64(time.Second)
	if s >= maxSeconds {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(s * float64(time.Second))
}

// IsTLSFailure reports whether err is a TLS failure that configuration must fix: the
// server's certificate is not trusted (see Config.CertBundle), or the server refused the
// handshake, typically because it requires a client certificate (see Config.ClientCert).
func IsTLSFailure(err error) bool {
	var verify *tls.CertificateVerificationError
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var record tls.RecordHeaderError
	if errors.As(err, &verify) || errors.As(err, &unknownAuthority) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.As(err, &record) {
		return true
	}
	// crypto/tls reports an alert from the server as a *net.OpError "remote error".
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "remote error" {
		return true
	}
	// net/http replaces the RecordHeaderError of a plain HTTP answer with a new error.
	return err != nil && strings.Contains(err.Error(), errPlainHTTP)
}

// errPlainHTTP is net/http's message for an https:// URL answered in plain HTTP.
const errPlainHTTP = "server gave HTTP response to HTTPS client"

// IsPlainHTTPAnswer reports whether err is an https:// request answered in plain HTTP
// (a scheme or port mistake), one of the TLS failures IsTLSFailure reports.
func IsPlainHTTPAnswer(err error) bool {
	var record tls.RecordHeaderError
	return errors.As(err, &record) || (err != nil && strings.Contains(err.Error(), errPlainHTTP))
}
