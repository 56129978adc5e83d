package zulip

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// errorHelpers says which of the error helpers (and their sentinels) answer true.
type errorHelpers struct{ notFound, unauthorized, principal, rateLimited, badQueue, lastUser bool }

// errorShape is one error answer of digest §0.3 and what the client makes of it.
type errorShape struct {
	name    string
	status  int
	header  map[string]string
	body    string
	code    string
	msg     string
	helpers errorHelpers
	check   func(t *testing.T, e *APIError)
}

// errorShapes lists every error shape of digest §0.3.
var errorShapes = []errorShape{
	{
		name: "400 BAD_REQUEST linkifier not found", status: 400,
		body: `{"result":"error","msg":"Linkifier not found.","code":"BAD_REQUEST"}`,
		code: "BAD_REQUEST", msg: "Linkifier not found.", helpers: errorHelpers{notFound: true},
	},
	{
		name: "404 BAD_REQUEST saved snippet", status: 404,
		body: `{"result":"error","msg":"Saved snippet does not exist.","code":"BAD_REQUEST"}`,
		code: "BAD_REQUEST", msg: "Saved snippet does not exist.", helpers: errorHelpers{notFound: true},
	},
	{
		name: "400 no such user", status: 400,
		body: `{"result":"error","msg":"No such user","code":"BAD_REQUEST"}`,
		code: "BAD_REQUEST", msg: "No such user", helpers: errorHelpers{notFound: true},
	},
	{
		name: "400 no entry for domain", status: 400,
		body: `{"result":"error","msg":"No entry found for domain example.com.","code":"BAD_REQUEST"}`,
		code: "BAD_REQUEST", msg: "No entry found for domain example.com.", helpers: errorHelpers{notFound: true},
	},
	{
		name: "400 invalid channel id", status: 400,
		body: `{"result":"error","msg":"Invalid channel ID","code":"BAD_REQUEST"}`,
		code: "BAD_REQUEST", msg: "Invalid channel ID", helpers: errorHelpers{notFound: true},
	},
	{
		name: "400 profile field gone", status: 400,
		body: `{"result":"error","msg":"Field id 7 not found.","code":"BAD_REQUEST"}`,
		code: "BAD_REQUEST", msg: "Field id 7 not found.", helpers: errorHelpers{notFound: true},
	},
	{
		name: "400 STREAM_DOES_NOT_EXIST", status: 400,
		body: `{"result":"error","msg":"Channel with ID '9' does not exist","code":"STREAM_DOES_NOT_EXIST","stream_id":9}`,
		code: "STREAM_DOES_NOT_EXIST", helpers: errorHelpers{notFound: true},
	},
	{
		name: "400 generic validation is not not-found", status: 400,
		body: `{"result":"error","msg":"Invalid domain: Domain can't be empty.","code":"BAD_REQUEST"}`,
		code: "BAD_REQUEST", msg: "Invalid domain: Domain can't be empty.",
	},
	{
		name: "400 model validation with field errors", status: 400,
		body: `{"result":"error","msg":"Bad regular expression: missing )","code":"BAD_REQUEST","errors":{"pattern":["Bad regular expression: missing )"]}}`,
		code: "BAD_REQUEST",
		check: func(t *testing.T, e *APIError) {
			if got := e.FieldErrors()["pattern"]; len(got) != 1 || got[0] != "Bad regular expression: missing )" {
				t.Errorf("FieldErrors = %v", e.FieldErrors())
			}
		},
	},
	{
		name: "REQUEST_VARIABLE_MISSING", status: 400,
		body: `{"result":"error","msg":"Missing 'pattern' argument","code":"REQUEST_VARIABLE_MISSING","var_name":"pattern"}`,
		code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'pattern' argument",
		check: func(t *testing.T, e *APIError) {
			if e.VarName() != "pattern" {
				t.Errorf("VarName = %q", e.VarName())
			}
		},
	},
	{
		name: "UNAUTHORIZED_PRINCIPAL", status: 400,
		body: `{"result":"error","msg":"Must be an organization administrator","code":"UNAUTHORIZED_PRINCIPAL"}`,
		code: "UNAUTHORIZED_PRINCIPAL", helpers: errorHelpers{principal: true},
	},
	{
		name: "BAD_EVENT_QUEUE_ID", status: 400,
		body: `{"result":"error","msg":"Bad event queue ID: fb67bf8a","code":"BAD_EVENT_QUEUE_ID","queue_id":"fb67bf8a"}`,
		code: "BAD_EVENT_QUEUE_ID", helpers: errorHelpers{badQueue: true},
		check: func(t *testing.T, e *APIError) {
			if e.QueueID() != "fb67bf8a" {
				t.Errorf("QueueID = %q", e.QueueID())
			}
		},
	},
	{
		name: "CANNOT_DEACTIVATE_LAST_USER", status: 400,
		body: `{"result":"error","msg":"Cannot deactivate the only organization owner.","code":"CANNOT_DEACTIVATE_LAST_USER","entity":"organization owner","is_last_owner":true}`,
		code: "CANNOT_DEACTIVATE_LAST_USER", helpers: errorHelpers{lastUser: true},
		check: func(t *testing.T, e *APIError) {
			if e.Entity() != "organization owner" || !e.IsLastOwner() {
				t.Errorf("Entity = %q, IsLastOwner = %v", e.Entity(), e.IsLastOwner())
			}
		},
	},
	{
		name: "CANNOT_DEACTIVATE_LAST_USER not owner", status: 400,
		body: `{"result":"error","msg":"Cannot deactivate the only user.","code":"CANNOT_DEACTIVATE_LAST_USER","entity":"user","is_last_owner":false}`,
		code: "CANNOT_DEACTIVATE_LAST_USER", helpers: errorHelpers{lastUser: true},
		check: func(t *testing.T, e *APIError) {
			if e.Entity() != "user" || e.IsLastOwner() {
				t.Errorf("Entity = %q, IsLastOwner = %v", e.Entity(), e.IsLastOwner())
			}
		},
	},
	{
		name: "401 INVALID_API_KEY", status: 401,
		header: map[string]string{"WWW-Authenticate": `Basic realm="zulip"`},
		body:   `{"result":"error","msg":"Invalid API key","code":"INVALID_API_KEY"}`,
		code:   "INVALID_API_KEY", msg: "Invalid API key", helpers: errorHelpers{unauthorized: true},
	},
	{
		name: "401 UNAUTHORIZED deactivated account", status: 401,
		header: map[string]string{"WWW-Authenticate": `Basic realm="zulip"`},
		body:   `{"result":"error","msg":"Account is deactivated","code":"UNAUTHORIZED"}`,
		code:   "UNAUTHORIZED", msg: "Account is deactivated", helpers: errorHelpers{unauthorized: true},
		check: func(t *testing.T, e *APIError) {
			if e.AuthFailure() != AuthUserDeactivated {
				t.Errorf("AuthFailure = %v", e.AuthFailure())
			}
		},
	},
	{
		name: "401 UNAUTHORIZED", status: 401,
		header: map[string]string{"WWW-Authenticate": `Basic realm="zulip"`},
		body:   `{"result":"error","msg":"Not logged in: API authentication or user session required","code":"UNAUTHORIZED"}`,
		code:   "UNAUTHORIZED", helpers: errorHelpers{unauthorized: true},
	},
	{
		name: "403 USER_DEACTIVATED before FL76", status: 403,
		body: `{"result":"error","msg":"Account is deactivated","code":"USER_DEACTIVATED"}`,
		code: "USER_DEACTIVATED", helpers: errorHelpers{unauthorized: true},
	},
	{
		name: "429 RATE_LIMIT_HIT", status: 429,
		header: map[string]string{"Retry-After": "28.7"},
		body:   `{"result":"error","msg":"API usage exceeded rate limit","code":"RATE_LIMIT_HIT","retry-after":28.706807374954224}`,
		code:   "RATE_LIMIT_HIT", msg: "API usage exceeded rate limit", helpers: errorHelpers{rateLimited: true},
		check: func(t *testing.T, e *APIError) {
			if got := e.RetryAfter(); got < 28706*time.Millisecond || got > 28707*time.Millisecond {
				t.Errorf("RetryAfter = %s", got)
			}
		},
	},
	{
		name: "404 NONEXISTENT_SUBDOMAIN is a configuration error", status: 404,
		body: `{"result":"error","msg":"Invalid subdomain","code":"NONEXISTENT_SUBDOMAIN"}`,
		code: "NONEXISTENT_SUBDOMAIN",
	},
	{
		name: "404 JSON Not Found (endpoint unknown to an old server)", status: 404,
		body: `{"result":"error","msg":"Not Found","code":"BAD_REQUEST"}`,
		code: "BAD_REQUEST", msg: "Not Found",
	},
	{
		// Typed-parameter errors are BAD_REQUEST like the not-found answers
		// (zerver/lib/typed_endpoint.py ERROR_TEMPLATES: literal_error "Invalid
		// {var_name}", int_type); a parameter's name has no space, so none
		// reads as an object that is gone.
		name: "typed-parameter error about a group id is not not-found", status: 400,
		body: `{"result":"error","msg":"Invalid user_group_id","code":"BAD_REQUEST"}`,
		code: "BAD_REQUEST", msg: "Invalid user_group_id",
	},
	{
		name: "typed-parameter error about a channel id is not not-found", status: 400,
		body: `{"result":"error","msg":"channel_id is not an integer","code":"BAD_REQUEST"}`,
		code: "BAD_REQUEST", msg: "channel_id is not an integer",
	},
	{
		name: "404 HTML page is not not-found", status: 404,
		body: `<html><head><title>404 Not Found</title></head><body>nginx</body></html>`,
		msg:  "404 Not Found",
	},
	{
		name: "502 HTML body", status: 502,
		body: "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>",
		msg:  "502 Bad Gateway",
	},
	{
		name: "500 empty body", status: 500, body: "", msg: "Internal Server Error",
	},
	{
		name: "500 long text body is capped", status: 500, body: strings.Repeat("x", 5000),
		check: func(t *testing.T, e *APIError) {
			if n := utf8.RuneCountInString(e.Msg); n > maxErrorExcerpt+1 {
				t.Errorf("message is %d characters long", n)
			}
		},
	},
}

// TestAPIError_shapes sends every error shape of digest §0.3 through a real round trip and
// checks the decoded error and each helper.
func TestAPIError_shapes(t *testing.T) {
	for _, tt := range errorShapes {
		t.Run(tt.name, func(t *testing.T) {
			env := setup(t, func(c *Config) { c.MaxRetries = Off[int]() })
			env.handle("/realm/linkifiers", serveErrorShape(tt))
			_, err := env.client.ListLinkifiers(context.Background())
			apiErr := mustAPIError(t, err, tt.status, tt.code)
			if tt.msg != "" && apiErr.Msg != tt.msg {
				t.Errorf("Msg = %q, want %q", apiErr.Msg, tt.msg)
			}
			checkErrorHelpers(t, err, apiErr, tt.helpers)
			checkErrorText(t, err, tt.status)
			if tt.check != nil {
				tt.check(t, apiErr)
			}
		})
	}
}

// serveErrorShape answers with the shape's status, headers and body, typed as JSON when
// the body is an object and as an HTML page otherwise.
func serveErrorShape(tt errorShape) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for k, v := range tt.header {
			w.Header().Set(k, v)
		}
		if strings.HasPrefix(tt.body, "{") {
			w.Header().Set("Content-Type", "application/json")
		} else {
			w.Header().Set("Content-Type", "text/html")
		}
		w.WriteHeader(tt.status)
		_, _ = io.WriteString(w, tt.body) // a failed write shows in the client's answer
	}
}

// checkErrorHelpers checks each helper against want, and that the sentinels and errors.As
// agree with them, also through extra wrapping.
func checkErrorHelpers(t *testing.T, err error, apiErr *APIError, want errorHelpers) {
	t.Helper()
	got := errorHelpers{IsNotFound(err), IsUnauthorized(err), IsUnauthorizedPrincipal(err), IsRateLimited(err), IsBadEventQueue(err), IsCannotDeactivateLastUser(err)}
	if got != want {
		t.Errorf("helpers = %+v, want %+v", got, want)
	}
	wrapped := fmt.Errorf("reading linkifier: %w", err)
	if errors.Is(wrapped, ErrNotFound) != want.notFound || errors.Is(wrapped, ErrUnauthorized) != want.unauthorized ||
		errors.Is(wrapped, ErrRateLimited) != want.rateLimited || errors.Is(wrapped, ErrBadEventQueue) != want.badQueue ||
		errors.Is(wrapped, ErrCannotDeactivateLastUser) != want.lastUser || errors.Is(wrapped, ErrUnauthorizedPrincipal) != want.principal {
		t.Errorf("errors.Is disagrees with the helpers for %v", wrapped)
	}
	var target *APIError
	if !errors.As(wrapped, &target) || target != apiErr {
		t.Errorf("errors.As did not find the same *APIError")
	}
}

// checkErrorText checks that Error() names the request and status and never the API key.
func checkErrorText(t *testing.T, err error, status int) {
	t.Helper()
	if !strings.Contains(err.Error(), "GET /realm/linkifiers") || !strings.Contains(err.Error(), fmt.Sprintf("HTTP %d", status)) {
		t.Errorf("Error() = %q lacks the request or status", err)
	}
	if strings.Contains(err.Error(), testAPIKey) {
		t.Errorf("Error() contains the API key")
	}
}

func TestAPIError_Error(t *testing.T) {
	e := &APIError{HTTPStatus: 400, Code: "BAD_REQUEST", Msg: "Linkifier not found.", Method: "PATCH", Path: "realm/filters/5"}
	if got, want := e.Error(), "zulip: PATCH /realm/filters/5: HTTP 400 BAD_REQUEST: Linkifier not found."; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e = &APIError{HTTPStatus: 502, Msg: "502 Bad Gateway"}
	if got, want := e.Error(), "zulip: HTTP 502: 502 Bad Gateway"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestAPIError_RetryAfter(t *testing.T) {
	tests := []struct {
		header time.Duration
		extra  map[string]any
		want   time.Duration
	}{
		{0, nil, 0},
		{3 * time.Second, nil, 3 * time.Second},
		{0, map[string]any{"retry-after": 2.5}, 2500 * time.Millisecond},
		{4 * time.Second, map[string]any{"retry-after": 2.5}, 4 * time.Second},
		{time.Second, map[string]any{"retry-after": 7.25}, 7250 * time.Millisecond},
		{0, map[string]any{"retry-after": "soon"}, 0},
	}
	for _, tt := range tests {
		e := &APIError{RetryAfterHeader: tt.header, Extra: tt.extra}
		if got := e.RetryAfter(); got != tt.want {
			t.Errorf("RetryAfter(header %s, body %v) = %s, want %s", tt.header, tt.extra, got, tt.want)
		}
	}
}

func TestIsHelpers_nonAPIErrors(t *testing.T) {
	for _, err := range []error{nil, errors.New("boom"), context.Canceled, ErrMissingCredentials} {
		if IsNotFound(err) || IsUnauthorized(err) || IsRateLimited(err) || IsBadEventQueue(err) || IsCannotDeactivateLastUser(err) || IsUnauthorizedPrincipal(err) {
			t.Errorf("a helper matched %v", err)
		}
		if _, ok := AsAPIError(err); ok {
			t.Errorf("AsAPIError matched %v", err)
		}
		if ErrorMsg(err) != "" || ErrorCode(err) != "" {
			t.Errorf("ErrorMsg or ErrorCode found something in %v", err)
		}
	}
}

func TestErrorMsgAndCode(t *testing.T) {
	err := fmt.Errorf("creating the channel: %w", &APIError{HTTPStatus: http.StatusBadRequest, Code: CodeBadRequest, Msg: "Invalid channel name"})
	if got := ErrorMsg(err); got != "Invalid channel name" {
		t.Errorf("ErrorMsg = %q", got)
	}
	if got := ErrorCode(err); got != CodeBadRequest {
		t.Errorf("ErrorCode = %q", got)
	}
}

func TestExcerptBody(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<html><body><h1>Service   Unavailable</h1>\n<p>try later</p></body></html>", "Service Unavailable try later"},
		{"<TITLE>504 Gateway Time-out</TITLE><body>x</body>", "504 Gateway Time-out"},
		{"plain text", "plain text"},
		{"bad \xff utf8", "bad ? utf8"},
	}
	for _, tt := range tests {
		if got := excerptBody([]byte(tt.in)); got != tt.want {
			t.Errorf("excerptBody(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestAuthFailure pins how authentication failures are told apart: on the REST
// API Zulip answers every validate_api_key failure with 401 UNAUTHORIZED and
// the exception's message (zerver/decorator.py authenticated_rest_api_view:
// json_unauthorized(e.msg)); the fetch_api_key views and servers before
// feature level 76 (403) use the specific codes.
func TestAuthFailure(t *testing.T) {
	cases := []struct {
		status    int
		code, msg string
		want      AuthFailure
	}{
		{401, "UNAUTHORIZED", "Invalid API key", AuthInvalidAPIKey},
		{401, "UNAUTHORIZED", "Malformed API key", AuthInvalidAPIKey},
		{401, "UNAUTHORIZED", "Account is deactivated", AuthUserDeactivated},
		{401, "UNAUTHORIZED", "This organization has been deactivated", AuthRealmDeactivated},
		{401, "UNAUTHORIZED", "Not logged in: API authentication or user session required", AuthOther},
		{401, "UNAUTHORIZED", "Invalid authorization header for basic auth", AuthOther},
		{401, "INVALID_API_KEY", "Invalid API key", AuthInvalidAPIKey},
		{401, "USER_DEACTIVATED", "Account is deactivated", AuthUserDeactivated},
		{403, "USER_DEACTIVATED", "Account is deactivated", AuthUserDeactivated},
		{401, "REALM_DEACTIVATED", "This organization has been deactivated", AuthRealmDeactivated},
		{400, "BAD_REQUEST", "Account is deactivated", AuthOK},
		{400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator", AuthOK},
	}
	for _, tc := range cases {
		e := &APIError{HTTPStatus: tc.status, Code: tc.code, Msg: tc.msg}
		for how, got := range map[string]AuthFailure{"AuthFailure": e.AuthFailure(), "AuthFailureOf": AuthFailureOf(fmt.Errorf("wrapped: %w", e))} {
			if got != tc.want {
				t.Errorf("%d %s %q: %s = %v, want %v", tc.status, tc.code, tc.msg, how, got, tc.want)
			}
		}
	}
	if AuthFailureOf(errors.New("x")) != AuthOK {
		t.Error("a plain error is an authentication failure")
	}
}
