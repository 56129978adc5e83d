package kit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// RequiredRole names the Zulip role an operation needs, for error messages.
type RequiredRole string

const (
	RoleAny           RequiredRole = ""
	RoleAdministrator RequiredRole = "an organization administrator"
	RoleOwner         RequiredRole = "an organization owner"
)

// AddAPIError reports a failed API call. action completes "The provider could
// not ..."; when the server refused for lack of a role, the detail says which
// role the resource needs, since Zulip's own message names only the role.
func AddAPIError(diags *diag.Diagnostics, summary, action string, role RequiredRole, err error) {
	detail := fmt.Sprintf("The provider could not %s: %s", action, err)
	switch {
	case zulip.IsUnauthorizedPrincipal(err) && role != RoleAny:
		detail = fmt.Sprintf("The provider could not %s because its credentials are not those of %s, which this "+
			"needs. Configure the provider with the API key of %s (or a bot they own with that role). Server said: %s",
			action, role, role, err)
	case zulip.IsUnauthorized(err):
		detail = fmt.Sprintf("The provider could not %s: the server rejected its credentials (check email and "+
			"api_key, and that the account is active). Server said: %s", action, err)
	case zulip.IsRateLimited(err):
		detail = fmt.Sprintf("The provider could not %s: the server's rate limit was still in force after the "+
			"provider's retries (see max_retries and max_retry_wait). Server said: %s", action, err)
	}
	diags.AddError(summary, detail)
}

// IsClientError reports whether err is a definite refusal by the server (a 4xx
// answer), after which nothing was changed.
func IsClientError(err error) bool {
	var apiErr *zulip.APIError
	return errors.As(err, &apiErr) && apiErr.HTTPStatus >= 400 && apiErr.HTTPStatus < 500
}

// NothingDone reports a failed write the server surely did not carry out: a
// refusal (4xx), or a request that never left the process (interrupted while it
// waited for the rate limit, or unable to connect). Only other failures need a
// look at the server before the next step.
func NothingDone(err error) bool { return IsClientError(err) || zulip.IsNotSent(err) }

// Known reports whether a value is neither null nor unknown.
func Known(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

// StringOrNull converts an optional API string; nil and "" are null.
func StringOrNull(s *string) types.String {
	if s == nil || *s == "" {
		return types.StringNull()
	}
	return types.StringValue(*s)
}

// CheckNoOuterSpace rejects values that the server would strip, which would
// otherwise show as a change on every plan.
func CheckNoOuterSpace(s string) error {
	if strings.TrimSpace(s) != s {
		return errors.New("must not start or end with whitespace: Zulip strips it, so the plan would never settle")
	}
	return nil
}

// QuoteAllCode formats names as code, joined.
func QuoteAllCode(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, ", ")
}
