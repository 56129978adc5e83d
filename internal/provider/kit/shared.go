package kit

// Small helpers that more than one area uses: sets of ids, durations, the
// users a permission or membership names, and Zulip's notion of white space.

import (
	"context"
	"fmt"
	"slices"
	"time"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// IsPythonSpace reports whether Zulip's str.strip() removes r: Unicode
// whitespace plus the ASCII separators U+001C..U+001F that Python counts too.
func IsPythonSpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// UserDescribe names a user in messages: id, name and address.
func UserDescribe(u zulip.User) string {
	email := u.Email
	if u.DeliveryEmail != nil && *u.DeliveryEmail != "" {
		email = *u.DeliveryEmail
	}
	return fmt.Sprintf("user %d (%s, %s)", u.UserID, u.FullName, email)
}

// CheckDuration accepts a non-negative Go duration.
func CheckDuration(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("%q is not a duration such as 30s or 2m", s)
	}
	return nil
}

// FormatDuration writes a duration the way people write it in configuration
// ("5m" rather than Go's "5m0s"), for documentation.
func FormatDuration(d time.Duration) string {
	switch {
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}

// CheckGroupsAndUsers fails a plan that names a group or a user the
// organization does not have.
func CheckGroupsAndUsers(ctx context.Context, d *ProviderData, groupsAt, usersAt path.Path, groups []string, users []int64, diags *diag.Diagnostics) {
	g := make([]attr.Value, len(groups))
	for i, n := range groups {
		g[i] = types.StringValue(n)
	}
	u := make([]attr.Value, len(users))
	for i, id := range users {
		u[i] = types.Int64Value(id)
	}
	var parts diag.Diagnostics
	if len(groups) > 0 {
		d.checkPermission(ctx, groupsAt, types.ObjectValueMust(PermissionAttrTypes, map[string]attr.Value{
			"groups": types.SetValueMust(types.StringType, g), "users": types.SetValueMust(types.Int64Type, []attr.Value{}),
		}), &parts)
	}
	if len(users) > 0 {
		d.checkPermission(ctx, usersAt, types.ObjectValueMust(PermissionAttrTypes, map[string]attr.Value{
			"groups": types.SetValueMust(types.StringType, []attr.Value{}), "users": types.SetValueMust(types.Int64Type, u),
		}), &parts)
	}
	// The check words its errors for a permission's groups and users; here
	// they belong to the resource's own attributes.
	for _, e := range parts.Errors() {
		at := usersAt
		if e.Summary() == "Unknown User Group" {
			at = groupsAt
		}
		diags.AddAttributeError(at, e.Summary(), e.Detail())
	}
}

// ByID indexes list by each element's id.
func ByID[T any](list []T, id func(T) int64) map[int64]T {
	out := make(map[int64]T, len(list))
	for _, v := range list {
		out[id(v)] = v
	}
	return out
}

// MissingFrom lists the ids of a that b lacks.
func MissingFrom(a, b []int64) []int64 {
	var out []int64
	for _, v := range a {
		if !slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

// Intersect lists the ids of a that b has.
func Intersect(a, b []int64) []int64 {
	var out []int64
	for _, v := range a {
		if slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

// SortedUnion is a and b, sorted, without repeats.
func SortedUnion(a, b []int64) []int64 {
	return append([]int64{}, slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(a), b...))))...)
}

// Int64Set is a set of ids.
func Int64Set(ids []int64) types.Set {
	v := make([]attr.Value, len(ids))
	for i, id := range ids {
		v[i] = types.Int64Value(id)
	}
	return types.SetValueMust(types.Int64Type, v)
}
