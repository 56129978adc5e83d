package acctest

import (
	"context"

	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// ServerCheck is a state check that inspects the reference server
// rather than the state: what an apply did there.
type ServerCheck func() error

// CheckState runs the check.
func (c ServerCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = c()
}
