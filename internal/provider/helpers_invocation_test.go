package provider_test

import (
	"context"

	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// testAccServerCheck is a state check that inspects the reference server
// rather than the state: what an apply did there.
type testAccServerCheck func() error

// CheckState runs the check.
func (c testAccServerCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = c()
}
