// Package validators holds the provider's plan-time checks. Each one mirrors a
// rule the Zulip server enforces, so that a mistake shows in `terraform plan`
// with the attribute's path instead of failing half-way through an apply.
package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// stringCheck adapts a plain check function to validator.String.
type stringCheck struct {
	description string
	check       func(string) error
	// summary, when set, is the error's title, and the check's error its
	// whole detail (Titled).
	summary string
}

var _ validator.String = stringCheck{}

// Description describes the check in plain text.
func (v stringCheck) Description(_ context.Context) string { return v.description }

// MarkdownDescription describes the check in Markdown.
func (v stringCheck) MarkdownDescription(_ context.Context) string { return v.description }

// ValidateString runs the check on known, non-null values.
func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	err := v.check(req.ConfigValue.ValueString())
	switch {
	case err == nil:
	case v.summary != "":
		resp.Diagnostics.AddAttributeError(req.Path, v.summary, err.Error())
	default:
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Attribute Value",
			fmt.Sprintf("%s: %s", req.Path, err))
	}
}

// String returns a validator.String from a check function; description says
// what a valid value is.
func String(description string, check func(string) error) validator.String {
	return stringCheck{description: description, check: check}
}

// Titled is String for a rule whose error deserves a title of its own
// ("Invalid User Group Name"): the check's error is the whole detail.
func Titled(summary, description string, check func(string) error) validator.String {
	return stringCheck{description: description, check: check, summary: summary}
}
