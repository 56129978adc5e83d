//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAdoptWholeOrganization is issue 17's path for Terraform before 1.14,
// with the real CLI and the built provider: zulip_import_blocks writes the
// import blocks of the seeded organization, `terraform plan
// -generate-config-out` writes the configuration, the apply imports
// everything, and the next plan is empty.
func TestAdoptWholeOrganization(t *testing.T) {
	tf := terraformPath(t)
	dir, rc, _ := devOverride(t)
	srv := acctest.NewServer(t)
	head := `terraform {
  required_providers {
    zulip = { source = "zulip-terraform/zulip" }
  }
}
` + srv.ProviderConfig(t, refserver.SeedOwnerID)
	run := func(cfg string, args ...string) (string, error) {
		t.Helper()
		cmd := terraformCommand(tf, rc, cfg, nil, args[0], args[1:]...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(cfg string, args ...string) string {
		t.Helper()
		out, err := run(cfg, args...)
		if err != nil {
			t.Fatalf("terraform %v: %v\n%s", args, err, out)
		}
		return out
	}

	lister := filepath.Join(dir, "lister")
	writeFile(t, filepath.Join(lister, "main.tf"), head+`
data "zulip_import_blocks" "all" {}

output "text" {
  value = data.zulip_import_blocks.all.text
}
`, 0o644)
	must(lister, "apply", "-auto-approve")
	cmd := exec.Command(tf, "output", "-raw", "text")
	cmd.Dir, cmd.Env = lister, append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc)
	blocks, err := cmd.Output()
	if err != nil {
		t.Fatalf("terraform output: %v", err)
	}
	for _, want := range []string{"zulip_realm.this", "zulip_channel.general", "zulip_user_group.backend", "zulip_user.mark", "zulip_bot.build_bot", "zulip_custom_emoji.green_tick"} {
		if !strings.Contains(string(blocks), "to = "+want+"\n") {
			t.Errorf("no import block for %s in:\n%s", want, blocks)
		}
	}

	adopt := filepath.Join(dir, "adopt")
	writeFile(t, filepath.Join(adopt, "main.tf"), head, 0o644)
	writeFile(t, filepath.Join(adopt, "imports.tf"), string(blocks), 0o644)
	must(adopt, "plan", "-generate-config-out=generated.tf", "-out=adopt.tfplan")
	applied := must(adopt, "apply", "adopt.tfplan")
	if m := regexp.MustCompile(`Resources: (\d+) imported`).FindStringSubmatch(applied); m == nil || len(m[1]) < 2 {
		t.Fatalf("the apply did not import the organization (at least ten resources):\n%s", applied)
	} else {
		t.Logf("%s resources imported", m[1])
	}
	out, err := run(adopt, "plan", "-detailed-exitcode")
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 {
		generated, _ := os.ReadFile(filepath.Join(adopt, "generated.tf"))
		t.Fatalf("the adopted organization does not plan empty:\n%s\n\ngenerated configuration:\n%s", out, generated)
	}
	if err != nil {
		t.Fatalf("terraform plan: %v\n%s", err, out)
	}
}
