//go:build unix

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
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
	srv.Do(withEveryType)
	head := mainTF(t, srv, refserver.SeedOwnerID)
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

// TestQueryWholeOrganization is issue 17's path for Terraform 1.14 and newer,
// with the real CLI and the built provider: `terraform query
// -generate-config-out` over one list block per type writes the configuration
// and the import blocks (by identity) of the seeded organization, the apply
// imports everything, and the next plan is empty.
func TestQueryWholeOrganization(t *testing.T) {
	tf := terraformPath(t)
	skipBelowTerraform(t, tf, 1, 14, "terraform query")
	dir, rc, _ := devOverride(t)
	srv := acctest.NewServer(t)
	srv.Do(withEveryType)
	adopt := filepath.Join(dir, "adopt")
	writeFile(t, filepath.Join(adopt, "main.tf"), mainTF(t, srv, refserver.SeedOwnerID), 0o644)
	lists, err := os.ReadFile(organizationQuery)
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range listTypes() {
		if additive[typ] {
			continue
		}
		if !strings.Contains(string(lists), fmt.Sprintf("list %q", typ)) {
			t.Errorf("%s has no list block of %s", organizationQuery, typ)
		}
	}
	writeFile(t, filepath.Join(adopt, "organization.tfquery.hcl"), string(lists), 0o644)
	run := func(args ...string) (string, error) {
		t.Helper()
		out, err := terraformCommand(tf, rc, adopt, nil, args[0], args[1:]...).CombinedOutput()
		return string(out), err
	}
	must := func(args ...string) string {
		t.Helper()
		out, err := run(args...)
		if err != nil {
			t.Fatalf("terraform %v: %v\n%s", args, err, out)
		}
		return out
	}
	listed := must("query", "-generate-config-out=generated.tf")
	generated, err := os.ReadFile(filepath.Join(adopt, "generated.tf"))
	if err != nil {
		t.Fatalf("terraform query wrote no configuration: %v\n%s", err, listed)
	}
	for _, typ := range listTypes() {
		if additive[typ] {
			continue
		}
		if !strings.Contains(string(generated), fmt.Sprintf("resource %q", typ)) {
			t.Errorf("the generated configuration has no %s:\n%s", typ, generated)
		}
	}
	if !strings.Contains(string(generated), "identity = {") {
		t.Errorf("the generated configuration imports nothing by identity:\n%s", generated)
	}
	must("plan", "-out=adopt.tfplan")
	applied := must("apply", "adopt.tfplan")
	if m := regexp.MustCompile(`Resources: (\d+) imported`).FindStringSubmatch(applied); m == nil || len(m[1]) < 2 {
		t.Fatalf("the apply did not import the organization (at least ten resources):\n%s", applied)
	} else {
		t.Logf("%s resources imported", m[1])
	}
	out, err := run("plan", "-detailed-exitcode")
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 {
		t.Fatalf("the adopted organization does not plan empty:\n%s\n\ngenerated configuration:\n%s", out, generated)
	}
	if err != nil {
		t.Fatalf("terraform plan: %v\n%s", err, out)
	}
}

// withEveryType adds to the seeded organization what it lacks of the types an
// organization is adopted by: two channel folders (one holding a channel) and
// a code playground.
func withEveryType(r *refserver.Realm) {
	for _, name := range []string{"Teams", "Projects"} {
		r.NextID["channel_folder"]++
		r.ChannelFolders = append(r.ChannelFolders, &refserver.ChannelFolder{ID: r.NextID["channel_folder"], Name: name,
			Description: name + " of the company", DateCreated: 1700000000})
	}
	folder := r.ChannelFolders[0].ID
	r.Channels[refserver.SeedChannelDesign].FolderID = &folder
	r.NextID["playground"]++
	r.Playgrounds = append(r.Playgrounds, &refserver.Playground{ID: r.NextID["playground"], Name: "Rust playground",
		PygmentsLanguage: "Rust", URLTemplate: "https://play.rust-lang.org/?code={code}"})
}

// additive are the list types of one user's subscriptions and memberships,
// which a whole organization adopts through the authoritative subscribers and
// members instead (both in one configuration would fight).
var additive = map[string]bool{"zulip_channel_subscription": true, "zulip_user_group_membership": true}

// organizationQuery is the example that adopts a whole organization.
const organizationQuery = "examples/adopt/organization.tfquery.hcl"

// listTypes are the provider's list resource types.
func listTypes() []string {
	p, ok := provider.New("test")().(fwprovider.ProviderWithListResources)
	if !ok {
		return nil
	}
	var out []string
	for _, f := range p.ListResources(context.Background()) {
		var meta fwresource.MetadataResponse
		f().Metadata(context.Background(), fwresource.MetadataRequest{ProviderTypeName: "zulip"}, &meta)
		out = append(out, meta.TypeName)
	}
	return out
}

// skipBelowTerraform skips a test that needs a Terraform newer than tf.
func skipBelowTerraform(t *testing.T, tf string, major, minor int, what string) {
	t.Helper()
	out, err := exec.Command(tf, "version", "-json").Output()
	if err != nil {
		t.Fatalf("terraform version: %v", err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("terraform version: %v\n%s", err, out)
	}
	var gotMajor, gotMinor int
	if _, err := fmt.Sscanf(v.Version, "%d.%d", &gotMajor, &gotMinor); err != nil {
		t.Fatalf("terraform version %q: %v", v.Version, err)
	}
	if gotMajor < major || gotMajor == major && gotMinor < minor {
		t.Skipf("%s needs Terraform %d.%d or newer; %s is %s (make testacc-newest runs it)", what, major, minor, tf, v.Version)
	}
}
