package acctest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// ReadExample returns an example file's text; path is relative to the repository.
func ReadExample(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(RepoPath(path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// EphemeralFactories serves the provider and, for tests that must look
// at an ephemeral resource's values, the echo provider, which copies its
// configuration into the state of its `echo` resource.
var EphemeralFactories = func() map[string]func() (tfprotov6.ProviderServer, error) {
	f := map[string]func() (tfprotov6.ProviderServer, error){"echo": echoprovider.NewProviderServer()}
	for name, p := range ProtoV6ProviderFactories {
		f[name] = p
	}
	return f
}()

// URLOnlyProvider is a provider block with the server's URL and no credentials.
func URLOnlyProvider(srv *Server) string {
	return fmt.Sprintf(`
provider "zulip" {
  url = %q
}
`, srv.URL)
}

// GeneratedConfigSteps are the steps of a generated-configuration test: setup
// (a configuration that makes the object, or "" when the realm has it
// already), then `terraform plan -generate-config-out` over an import block
// for importID, which must write configuration the provider accepts unchanged
// and that plans no change.
func GeneratedConfigSteps(providerCfg, setup, addr, importID string) []resource.TestStep {
	var steps []resource.TestStep
	if setup != "" {
		steps = append(steps, resource.TestStep{Config: providerCfg + setup})
	}
	return append(steps, resource.TestStep{
		Config:          providerCfg,
		ResourceName:    addr,
		ImportState:     true,
		ImportStateId:   importID,
		ImportStateKind: resource.ImportBlockWithID,
		GenerateConfig:  true,
	})
}

// RepoPath is the path of a file given relative to the repository's root,
// from the package directory a test runs in (the nearest directory above it
// with a go.mod).
func RepoPath(rel string) string {
	dir, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, filepath.FromSlash(rel))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			panic("acctest.RepoPath: no go.mod above " + dir)
		}
		dir = parent
	}
}
