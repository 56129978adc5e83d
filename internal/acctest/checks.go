package acctest

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// SecretAbsent fails when a secret appears anywhere in the state or the
// plan (values, sensitive values, prior state, configuration).
type SecretAbsent struct {
	Secret string
	What   string
}

// CheckState implements statecheck.StateCheck.
func (c SecretAbsent) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = c.check("state", req.State)
}

// CheckPlan implements plancheck.PlanCheck.
func (c SecretAbsent) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = c.check("plan", req.Plan)
}

// check looks for the secret in the JSON form of v.
func (c SecretAbsent) check(where string, v any) error {
	if c.Secret == "" {
		return fmt.Errorf("SecretAbsent: empty secret for %s", c.What)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if strings.Contains(string(raw), c.Secret) {
		return fmt.Errorf("%s found in the %s", c.What, where)
	}
	return nil
}

// ExpectNames checks that the list attr of a data source holds objects with
// exactly these names, in this order.
func ExpectNames(addr, attr string, names ...string) statecheck.StateCheck {
	checks := make([]knownvalue.Check, 0, len(names))
	for _, n := range names {
		checks = append(checks, knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact(n)}))
	}
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), knownvalue.ListExact(checks))
}

// PermissionOf checks a permission: these groups by name and users by id.
func PermissionOf(groups []string, users ...int64) knownvalue.Check {
	g := make([]knownvalue.Check, 0, len(groups))
	for _, name := range groups {
		g = append(g, knownvalue.StringExact(name))
	}
	u := make([]knownvalue.Check, 0, len(users))
	for _, id := range users {
		u = append(u, knownvalue.Int64Exact(id))
	}
	return knownvalue.ObjectExact(map[string]knownvalue.Check{"groups": knownvalue.SetExact(g), "users": knownvalue.SetExact(u)})
}

// RequestCountAtMost is a plan check on the number of requests the plan made.
type RequestCountAtMost struct {
	Server       *Server
	Method, Path string
	Max          int
	Resources    int
}

// CheckPlan fails when the plan made more than max such requests.
func (c RequestCountAtMost) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	if got := c.Server.Requests(c.Method, c.Path); got > c.Max || got == 0 {
		resp.Error = fmt.Errorf("refreshing %d resources made %d %s %s requests; want between 1 and %d", c.Resources, got, c.Method, c.Path, c.Max)
	}
}

// RFC3339 matches performed_at.
var RFC3339 = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// ReWrapped matches text as Terraform prints it in a diagnostic, where any
// space may have become a line break.
func ReWrapped(text string) string {
	return strings.ReplaceAll(regexp.QuoteMeta(text), " ", `\s+`)
}

// LogsWithout drops the log entries (a timestamped line and its
// continuation lines) whose first line contains marker.
func LogsWithout(logs, marker string) string {
	entryStart := regexp.MustCompile(`^\d{4}-\d\d-\d\dT`)
	var b strings.Builder
	skip := false
	for _, line := range strings.SplitAfter(logs, "\n") {
		if entryStart.MatchString(line) {
			skip = strings.Contains(line, marker)
		}
		if !skip {
			b.WriteString(line)
		}
	}
	return b.String()
}
