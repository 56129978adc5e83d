//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestLogsOnlyWhenAsked runs a real `terraform plan` with the built provider
// (through dev_overrides), capturing the provider's stderr, where its log lines
// go: without any TF_LOG* variable the SDK and the provider produce none (only
// go-plugin's handshake lines remain); with TF_LOG=debug the framework's, the
// protocol's and the provider's own lines are all there.
func TestLogsOnlyWhenAsked(t *testing.T) {
	tf := terraformPath(t)
	dir, rc, stderrLog := devOverride(t)
	srv := acctest.NewServer(t)
	cfg := filepath.Join(dir, "cfg")
	writeFile(t, filepath.Join(cfg, "main.tf"), mainTF(t, srv, refserver.SeedOwnerID)+`
resource "zulip_linkifier" "a" {
  pattern      = "LOG-(?P<id>[0-9]+)"
  url_template = "https://log.example.com/{id}"
}
`, 0o644)

	plan := func(extra ...string) map[string]int {
		t.Helper()
		if err := os.WriteFile(stderrLog, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(tf, "plan", "-no-color", "-input=false")
		cmd.Dir = cfg
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "TF_LOG") {
				env = append(env, kv)
			}
		}
		cmd.Env = append(env, append([]string{"TF_CLI_CONFIG_FILE=" + rc, "TF_IN_AUTOMATION=1"}, extra...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("terraform plan %v: %v\n%s", extra, err, out)
		}
		raw, err := os.ReadFile(stderrLog)
		if err != nil {
			t.Fatal(err)
		}
		modules := map[string]int{}
		for _, line := range strings.Split(string(raw), "\n") {
			if _, rest, ok := strings.Cut(line, `"@module":"`); ok {
				module, _, _ := strings.Cut(rest, `"`)
				modules[module]++
			}
		}
		return modules
	}
	if quiet := plan(); len(quiet) != 0 {
		t.Errorf("without TF_LOG the provider logged %v", quiet)
	}
	loud := plan("TF_LOG=debug")
	for _, module := range []string{"sdk.framework", "sdk.proto", "zulip"} {
		if loud[module] == 0 {
			t.Errorf("with TF_LOG=debug no %s lines: %v", module, loud)
		}
	}
}

// devOverride builds the provider into a temporary directory, behind a
// wrapper that appends its stderr (where its log lines go) to stderrLog, and
// writes a CLI configuration (rc) whose dev_overrides point Terraform at it.
func devOverride(t *testing.T) (dir, rc, stderrLog string) {
	t.Helper()
	dir = t.TempDir()
	binary := buildProvider(t, filepath.Join(dir, "real", "terraform-provider-zulip"))
	stderrLog = filepath.Join(dir, "provider-stderr.log")
	wrapper := filepath.Join(dir, "bin", "terraform-provider-zulip")
	writeFile(t, wrapper, fmt.Sprintf("#!/bin/sh\nexec %q \"$@\" 2>>%q\n", binary, stderrLog), 0o755)
	rc = filepath.Join(dir, "terraformrc")
	writeFile(t, rc, fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/zulip-terraform/zulip\" = %q\n  }\n  direct {}\n}\n",
		filepath.Dir(wrapper)), 0o644)
	return dir, rc, stderrLog
}

// terraformCommand is `terraform <command> -no-color -input=false <args>` in
// dir, with the CLI configuration rc, without the caller's TF_LOG* variables
// and with env added.
func terraformCommand(tf, rc, dir string, env []string, command string, args ...string) *exec.Cmd {
	flags := []string{command, "-no-color", "-input=false"}
	if command == "query" { // it asks for no input, and has no such flag
		flags = flags[:2]
	}
	cmd := exec.Command(tf, append(flags, args...)...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_LOG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, append([]string{"TF_CLI_CONFIG_FILE=" + rc, "TF_IN_AUTOMATION=1"}, env...)...)
	return cmd
}

// mainTF is the head of a configuration for the built provider (through
// dev_overrides) acting as a seeded user.
func mainTF(t *testing.T, srv *acctest.Server, user int) string {
	return `terraform {
  required_providers {
    zulip = { source = "zulip-terraform/zulip" }
  }
}
` + srv.ProviderConfig(t, user)
}

// writeFile writes a file, creating its directory.
func writeFile(t testing.TB, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// terraformPath is the Terraform binary the tests run: TF_ACC_TERRAFORM_PATH,
// or terraform on PATH; without either the test is skipped.
func terraformPath(t testing.TB) string {
	t.Helper()
	if tf := os.Getenv("TF_ACC_TERRAFORM_PATH"); tf != "" {
		return tf
	}
	tf, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("no terraform binary (TF_ACC_TERRAFORM_PATH or PATH)")
	}
	return tf
}
