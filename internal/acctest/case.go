package acctest

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// ParallelTest runs c in parallel with the other parallel tests, with the
// project's setup filled in: the local Terraform binary (PreCheck) and the
// in-process provider (ProtoV6ProviderFactories), unless c sets its own.
func ParallelTest(t *testing.T, c resource.TestCase) {
	t.Helper()
	resource.ParallelTest(t, withSetup(t, c))
}

// Test runs c on its own (for a test that changes the process's environment),
// with the setup ParallelTest fills in.
func Test(t *testing.T, c resource.TestCase) {
	t.Helper()
	resource.Test(t, withSetup(t, c))
}

// withSetup fills in the project's PreCheck and provider factories.
func withSetup(t *testing.T, c resource.TestCase) resource.TestCase {
	if c.PreCheck == nil {
		c.PreCheck = func() { PreCheck(t) }
	}
	if c.ProtoV6ProviderFactories == nil && c.ProviderFactories == nil && c.ProtoV5ProviderFactories == nil && c.ExternalProviders == nil {
		c.ProtoV6ProviderFactories = ProtoV6ProviderFactories
	}
	return c
}
