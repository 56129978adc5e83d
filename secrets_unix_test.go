//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestBotSecretsNeverWritten runs real `terraform apply`s at TRACE level with
// the built provider: a generic bot and an outgoing webhook bot, their key
// and token read by zulip_bot_api_key (which reads a webhook's token with its
// key), their keys handed to aliased providers, then
// a key rotation. Neither key (before and after the rotation) nor the token
// appears in the state, a saved plan, Terraform's TRACE log or the provider's
// own output (issue 16).
func TestBotSecretsNeverWritten(t *testing.T) {
	tf := terraformPath(t)
	if out, err := exec.Command(tf, "version").Output(); err != nil || !ephemeralCapable(string(out)) {
		t.Skipf("ephemeral resources need Terraform 1.10 or newer (%s)", strings.SplitN(string(out), "\n", 2)[0])
	}
	dir, rc, stderrLog := devOverride(t)
	srv := acctest.NewServer(t)
	cfg := filepath.Join(dir, "cfg")
	run := func(args ...string) {
		t.Helper()
		cmd := terraformCommand(tf, rc, cfg, []string{"TF_LOG=trace", "TF_LOG_PATH=" + filepath.Join(dir, "terraform-trace.log")}, args[0], args[1:]...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("terraform %v: %v\n%s", args, err, out)
		}
	}
	var secrets []string
	writeFile(t, filepath.Join(cfg, "main.tf"), botSecretsConfig(t, srv, "2026-10"), 0o644)
	run("apply", "-auto-approve")
	secrets = append(secrets, botSecrets(srv)...)
	writeFile(t, filepath.Join(cfg, "main.tf"), botSecretsConfig(t, srv, "2026-11"), 0o644)
	run("plan", "-out=rotate.tfplan")
	run("apply", "rotate.tfplan")
	secrets = append(secrets, botSecrets(srv)...)
	run("plan", "-out=after.tfplan")
	if len(secrets) < 4 {
		t.Fatalf("only %d secrets found on the server", len(secrets))
	}
	places := secretPlaces(t, tf, rc, dir, cfg, stderrLog)
	if len(places["Terraform's TRACE log"]) < 10000 {
		t.Fatalf("the TRACE log is nearly empty (%d bytes): logging did not happen", len(places["Terraform's TRACE log"]))
	}
	for i, secret := range secrets {
		for where, data := range places {
			if strings.Contains(string(data), secret) {
				t.Errorf("secret %d found in %s", i, where)
			}
		}
	}
}

// botSecretsConfig is the test's configuration: the two bots, their keys read
// ephemerally and handed to aliased providers, with the generic bot's
// key_rotation set to rotation.
func botSecretsConfig(t *testing.T, srv *acctest.Server, rotation string) string {
	return `terraform {
  required_providers {
    zulip = { source = "zulip-terraform/zulip" }
  }
}
` + srv.ProviderConfig(t, refserver.SeedAdminID) + fmt.Sprintf(`
resource "zulip_bot" "ci" {
  full_name    = "CI"
  short_name   = "ci"
  key_rotation = %q
}

resource "zulip_bot" "hook" {
  full_name            = "Hook"
  short_name           = "hook"
  bot_type             = "outgoing_webhook"
  outgoing_webhook_url = "https://hooks.example.com/z"
}

ephemeral "zulip_bot_api_key" "ci" {
  bot_id = zulip_bot.ci.id
}

ephemeral "zulip_bot_api_key" "hook" {
  bot_id = zulip_bot.hook.id
}

provider "zulip" {
  alias   = "ci"
  url     = %q
  email   = ephemeral.zulip_bot_api_key.ci.email
  api_key = ephemeral.zulip_bot_api_key.ci.api_key
}

data "zulip_user" "ci" {
  provider = zulip.ci
  user_id  = zulip_bot.ci.id
}

provider "zulip" {
  alias   = "hook"
  url     = %q
  email   = ephemeral.zulip_bot_api_key.hook.email
  api_key = ephemeral.zulip_bot_api_key.hook.api_key
}

data "zulip_user" "hook" {
  provider = zulip.hook
  user_id  = zulip_bot.hook.id
}
`, rotation, srv.URL, srv.URL)
}

// botSecrets are the API keys of the test's bots on the server, and the
// outgoing webhook bot's token.
func botSecrets(srv *acctest.Server) []string {
	var secrets []string
	srv.Do(func(r *refserver.Realm) {
		for id, u := range r.Users {
			if u.IsBot && (strings.HasPrefix(u.Email, "ci-bot@") || strings.HasPrefix(u.Email, "hook-bot@")) {
				secrets = append(secrets, u.APIKey)
				if b := r.Bots[id]; b != nil && b.Service != nil {
					secrets = append(secrets, b.Service.Token)
				}
			}
		}
	})
	return secrets
}

// secretPlaces are the places a secret must not be, by name: the JSON of the
// plan saved as after.tfplan in cfg, that saved plan, the state, Terraform's
// TRACE log in dir, and the provider's output.
func secretPlaces(t *testing.T, tf, rc, dir, cfg, stderrLog string) map[string][]byte {
	t.Helper()
	show := exec.Command(tf, "show", "-json", "after.tfplan")
	show.Dir, show.Env = cfg, append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc)
	planJSON, err := show.Output()
	if err != nil {
		t.Fatalf("terraform show: %v", err)
	}
	places := map[string][]byte{"the plan's JSON": planJSON}
	for name, file := range map[string]string{"the state": filepath.Join(cfg, "terraform.tfstate"), "Terraform's TRACE log": filepath.Join(dir, "terraform-trace.log"),
		"the provider's output": stderrLog, "the saved plan": filepath.Join(cfg, "after.tfplan")} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		places[name] = data
	}
	return places
}

// ephemeralCapable reports whether `terraform version` names 1.10 or newer.
func ephemeralCapable(version string) bool {
	m := regexp.MustCompile(`Terraform v(\d+)\.(\d+)`).FindStringSubmatch(version)
	if m == nil {
		return false
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	return major > 1 || minor >= 10
}
