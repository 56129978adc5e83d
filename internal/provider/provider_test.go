package provider_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// isolateEnv clears every variable the provider reads and points HOME at an
// empty directory, so that only what the test sets counts. (t.Setenv makes
// these tests sequential, which they must be since they change the process.)
func isolateEnv(t *testing.T) string {
	t.Helper()
	for _, k := range []string{"ZULIP_SITE", "ZULIP_URL", "ZULIP_EMAIL", "ZULIP_API_KEY", "ZULIP_CONFIG",
		"ZULIP_SMS_API_URL", "ZULIP_SMS_USERNAME", "ZULIP_SMS_PASSWORD"} {
		t.Setenv(k, "")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	return home
}

// writeZuliprc writes a zuliprc file and returns its path.
func writeZuliprc(t *testing.T, dir, content string) string {
	t.Helper()
	p := filepath.Join(dir, "zuliprc")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// testAccProviderLinkifier needs administrator credentials to apply, so a
// successful apply proves the credentials the provider resolved are right.
const testAccProviderLinkifier = `
resource "zulip_linkifier" "probe" {
  pattern      = "PROBE-(?P<id>[0-9]+)"
  url_template = "https://probe.example.com/{id}"
}
`

func applies(config string) resource.TestStep {
	return resource.TestStep{
		Config: config + testAccProviderLinkifier,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
	}
}

func TestAccProvider_environmentVariables(t *testing.T) {
	isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	t.Setenv("ZULIP_SITE", srv.URL+"/api/v1/")
	t.Setenv("ZULIP_EMAIL", admin.Email)
	t.Setenv("ZULIP_API_KEY", admin.APIKey)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    []resource.TestStep{applies(`provider "zulip" {}`)},
	})
}

func TestAccProvider_zuliprcFile(t *testing.T) {
	home := isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	rc := writeZuliprc(t, home, fmt.Sprintf("[api]\nemail=%s\nkey=%s\nsite=%s\n", admin.Email, admin.APIKey, srv.URL))
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			applies(fmt.Sprintf(`provider "zulip" { zuliprc = %q }`, rc)),
		},
	})
}

func TestAccProvider_defaultZuliprcAndConfigVariable(t *testing.T) {
	home := isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	content := fmt.Sprintf("[api]\nemail = %s\nkey = %s\nsite = %s\n", admin.Email, admin.APIKey, srv.URL)
	writeZuliprc(t, home, content)
	if err := os.Rename(filepath.Join(home, "zuliprc"), filepath.Join(home, ".zuliprc")); err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps:                    []resource.TestStep{applies(`provider "zulip" {}`)},
	})
}

func TestAccProvider_precedence(t *testing.T) {
	home := isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	member, _ := srv.User(refserver.SeedMemberID)
	// The zuliprc names a member (who may not create linkifiers) with a wrong
	// key; the environment overrides the e-mail, the argument the key. Only
	// the right precedence yields the administrator's working credentials.
	rc := writeZuliprc(t, home, fmt.Sprintf("[api]\nemail=%s\nkey=wrong-key-from-file\nsite=%s\n", member.Email, srv.URL))
	t.Setenv("ZULIP_EMAIL", admin.Email)
	t.Setenv("ZULIP_API_KEY", "wrong-key-from-environment")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			applies(fmt.Sprintf(`provider "zulip" {
  zuliprc = %q
  api_key = %q
}`, rc, admin.APIKey)),
		},
	})
}

func TestAccProvider_missingValues(t *testing.T) {
	home := isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      fmt.Sprintf(`provider "zulip" { email = %q }`, admin.Email) + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Missing Zulip URL.*ZULIP_SITE.*zuliprc`),
			},
			{
				Config: fmt.Sprintf(`provider "zulip" {
  url   = %q
  email = %q
}`, srv.URL, admin.Email) + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Missing Zulip API Key.*api_key.*ZULIP_API_KEY.*key.*zuliprc`),
			},
			{
				// A URL alone is a valid provider (for the development API key),
				// but managing a linkifier needs an account.
				Config:      fmt.Sprintf(`provider "zulip" { url = %q }`, srv.URL) + testAccProviderLinkifier,
				ExpectError: regexp.MustCompile(`(?s)Missing Zulip Credentials.*ZULIP_EMAIL`),
			},
			{
				Config:      fmt.Sprintf(`provider "zulip" { zuliprc = %q }`, filepath.Join(home, "absent")) + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Unreadable zuliprc File.*absent`),
			},
		},
	})
}

func TestAccProvider_malformedZuliprc(t *testing.T) {
	home := isolateEnv(t)
	acctest.NewServer(t)
	rc := writeZuliprc(t, home, "[api]\nemail=a@example.com\nthis line is not ini\nkey=secret-key-value\n")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      fmt.Sprintf(`provider "zulip" { zuliprc = %q }`, rc) + testAccProviderLinkifier,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)zuliprc.*` + regexp.QuoteMeta(rc) + `.*line 3`),
		}},
	})
}

func TestAccProvider_wrongKeyIsRejectedClearly(t *testing.T) {
	isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`provider "zulip" {
  url     = %q
  email   = %q
  api_key = "not-the-right-key"
}`, srv.URL, admin.Email) + testAccProviderLinkifier,
			ExpectError: expectErr("rejected its credentials", "INVALID_API_KEY"),
		}},
	})
}

func TestAccProvider_invalidArguments(t *testing.T) {
	isolateEnv(t)
	srv := acctest.NewServer(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: srv.ProviderConfig(t, refserver.SeedAdminID) + `
provider "zulip" {
  alias          = "bad"
  url            = "http://127.0.0.1:1"
  max_retry_wait = "soon"
}
resource "zulip_linkifier" "x" {
  provider     = zulip.bad
  pattern      = "X(?P<id>[0-9]+)"
  url_template = "https://x.example.com/{id}"
}`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)max_retry_wait.*duration`),
			},
		},
	})
}

// TestAccProvider_apiKeyNotLogged captures Terraform's and the provider's logs
// at TRACE level through a create, a refresh, an update and a destroy, and
// checks that the API key appears neither in them nor in the state.
func TestAccProvider_apiKeyNotLogged(t *testing.T) {
	isolateEnv(t)
	logFile := filepath.Join(t.TempDir(), "acc.log")
	t.Setenv("TF_ACC_LOG_PATH", logFile)
	t.Setenv("TF_LOG", "TRACE")
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	providerBlock := srv.ProviderConfig(t, refserver.SeedAdminID)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: providerBlock + testAccProviderLinkifier,
				ConfigStateChecks: []statecheck.StateCheck{
					testAccSecretAbsent{secret: admin.APIKey, what: "the API key"},
				},
			},
			{
				Config: providerBlock + strings.Replace(testAccProviderLinkifier, "probe.example.com", "probe2.example.com", 1),
			},
		},
	})
	logs, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatalf("reading the logs: %v", err)
	}
	// The harness logs each step's configuration, provider block included: that
	// is the test's own text, not what the provider or Terraform wrote.
	logs = []byte(testAccLogsWithout(string(logs), "sdk.helper_resource:"))
	if !bytes.Contains(logs, []byte("configuring Zulip client")) || !bytes.Contains(logs, []byte("api_key_source")) {
		t.Fatalf("the log file does not hold the provider's logs (%d bytes)", len(logs))
	}
	if i := bytes.Index(logs, []byte(admin.APIKey)); i >= 0 {
		t.Errorf("the API key appears in the logs: %q", logs[max(0, i-200):i])
	}
}
