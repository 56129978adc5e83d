// Package zulip is a small client for the Zulip REST API, covering the operations the
// Terraform provider needs. It knows nothing of Terraform.
//
// The shape follows go-github: a Client built by New, one method per API operation with the
// context first, typed request and response structs, and one private do that sends every
// request, so that encoding, authentication, retries, rate limiting, logging and error
// decoding live in exactly one place.
//
// Non-success answers come back as *APIError. Callers branch with the helpers (IsNotFound,
// IsUnauthorized, IsRateLimited, ...) or with errors.Is against the sentinel values
// (ErrNotFound, ...), never by matching message text themselves: Zulip is inconsistent about
// which HTTP status and code it uses for "not found", and that knowledge is kept here.
//
// Every method documents whether it is idempotent. Idempotent requests are retried on
// 502/503/504 and on connection failures; the others are retried only when the server
// certainly did not process them (HTTP 429, or a failure before the request was written),
// so that a create is never performed twice. Callers reconcile an uncertain create by reading.
package zulip
