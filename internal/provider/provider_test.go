package provider_test

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// isolateEnv clears every variable the provider reads and points HOME at an
// empty directory, so that only what the test sets counts. (t.Setenv makes
// these tests sequential, which they must be since they change the process.)
func isolateEnv(t *testing.T) string {
	t.Helper()
	for _, k := range []string{"ZULIP_SITE", "ZULIP_URL", "ZULIP_EMAIL", "ZULIP_API_KEY", "ZULIP_CONFIG",
		"ZULIP_ALLOW_INSECURE", "ZULIP_CERT_BUNDLE", "ZULIP_CERT", "ZULIP_CERT_KEY", "ZULIP_REQUEST_TIMEOUT",
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
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{applies(`provider "zulip" {}`)},
	})
}

func TestAccProvider_zuliprcFile(t *testing.T) {
	home := isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	rc := writeZuliprc(t, home, fmt.Sprintf("[api]\nemail=%s\nkey=%s\nsite=%s\n", admin.Email, admin.APIKey, srv.URL))
	acctest.Test(t, resource.TestCase{
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
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{applies(`provider "zulip" {}`)},
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
	acctest.Test(t, resource.TestCase{
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
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      fmt.Sprintf(`provider "zulip" { email = %q }`, admin.Email) + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErrRE(`Missing Zulip URL.*ZULIP_SITE.*zuliprc`),
			},
			{
				Config: fmt.Sprintf(`provider "zulip" {
  url   = %q
  email = %q
}`, srv.URL, admin.Email) + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErrRE(`Missing Zulip API Key.*api_key.*ZULIP_API_KEY.*key.*zuliprc`),
			},
			{
				// A URL alone is a valid provider (for the development API key),
				// but managing a linkifier needs an account: the plan fails,
				// saying where the provider looked (a "plan on pull request"
				// job must not go green with every server check skipped).
				Config:      fmt.Sprintf(`provider "zulip" { url = %q }`, srv.URL) + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErrRE(`Missing Zulip Credentials.*ZULIP_EMAIL.*ZULIP_API_KEY.*zuliprc`),
			},
			{
				Config:      fmt.Sprintf(`provider "zulip" { zuliprc = %q }`, filepath.Join(home, "absent")) + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErrRE(`Unreadable zuliprc File.*absent`),
			},
		},
	})
}

func TestAccProvider_malformedZuliprc(t *testing.T) {
	home := isolateEnv(t)
	acctest.NewServer(t)
	rc := writeZuliprc(t, home, "[api]\nemail=a@example.com\nthis line is not ini\nkey=secret-key-value\n")
	acctest.Test(t, resource.TestCase{
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
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`provider "zulip" {
  url     = %q
  email   = %q
  api_key = "not-the-right-key"
}`, srv.URL, admin.Email) + testAccProviderLinkifier,
			ExpectError: acctest.ExpectErr("rejected its credentials", "Malformed API key"),
		}},
	})
}

func TestAccProvider_invalidArguments(t *testing.T) {
	isolateEnv(t)
	srv := acctest.NewServer(t)
	acctest.Test(t, resource.TestCase{
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
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: providerBlock + testAccProviderLinkifier,
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.SecretAbsent{Secret: admin.APIKey, What: "the API key"},
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
	logs = []byte(acctest.LogsWithout(string(logs), "sdk.helper_resource:"))
	if !bytes.Contains(logs, []byte("configuring Zulip client")) || !bytes.Contains(logs, []byte("api_key_source")) {
		t.Fatalf("the log file does not hold the provider's logs (%d bytes)", len(logs))
	}
	if i := bytes.Index(logs, []byte(admin.APIKey)); i >= 0 {
		t.Errorf("the API key appears in the logs: %q", logs[max(0, i-200):i])
	}
}

// wrongKey is a well-formed API key that belongs to nobody: Zulip checks the format
// first, so a malformed key would not test the credentials check.
const wrongKey = "WrongWrongWrongWrongWrongWrong00"

// hangingServer accepts connections and never answers, until the test ends.
func hangingServer(t *testing.T) string {
	t.Helper()
	stop := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hs.Close)
	t.Cleanup(func() { close(stop) }) // runs first: lets Close finish
	return hs.URL
}

// TestAccProvider_credentialsCheckedAtPlan: wrong credentials, an unreachable or hanging
// server fail the plan, at configure time, naming where each value came from.
func TestAccProvider_credentialsCheckedAtPlan(t *testing.T) {
	home := isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	gone, _ := srv.User(refserver.SeedDeactivatedID)
	rc := writeZuliprc(t, home, fmt.Sprintf("[api]\nemail=nobody@zulip.example.com\nkey=%s\nsite=%s\n", admin.APIKey, srv.URL))
	hanging := hangingServer(t)
	step := func(config string, want *regexp.Regexp) resource.TestStep {
		return resource.TestStep{Config: config + testAccProviderLinkifier, PlanOnly: true, ExpectError: want}
	}
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{
			step(fmt.Sprintf(`provider "zulip" {
  url     = %q
  email   = %q
  api_key = %q
}`, srv.URL, admin.Email, wrongKey), acctest.ExpectErr("Invalid Zulip Credentials", "rejected its credentials",
				"no account on this server has that e-mail address",
				"url "+srv.URL+" from the `url` argument", "email "+admin.Email+" from the `email` argument",
				"api_key (not shown) from the `api_key` argument", "Invalid API key")),
			// An unknown e-mail, with everything from a zuliprc file.
			step(fmt.Sprintf(`provider "zulip" { zuliprc = %q }`, rc), acctest.ExpectErr("Invalid Zulip Credentials",
				"email nobody@zulip.example.com from zuliprc file "+rc, "api_key (not shown) from zuliprc file "+rc)),
			{
				// A deactivated account is a warning at configure time (the state of
				// zulip_own_account_deactivation must still plan), and any read fails.
				Config: fmt.Sprintf(`provider "zulip" {
  url     = %q
  email   = %q
  api_key = %q
}
data "zulip_user" "me" { email = %q }`, srv.URL, gone.Email, gone.APIKey, gone.Email),
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("rejected its credentials", "Account is deactivated"),
			},
			step(`provider "zulip" {
  url         = "http://127.0.0.1:1"
  email       = "a@example.com"
  api_key     = "`+wrongKey+`"
  max_retries = 0
}`, acctest.ExpectErr("Unable to Reach the Zulip Server", "url http://127.0.0.1:1 from the `url` argument")),
			step(fmt.Sprintf(`provider "zulip" {
  url             = %q
  email           = "a@example.com"
  api_key         = %q
  request_timeout = "1s"
}`, hanging, wrongKey), acctest.ExpectErr("Unable to Reach the Zulip Server", "no complete answer within 1s (request_timeout)")),
		},
	})
}

// TestAccProvider_wrongKeyFromEnvironment names the environment variables.
func TestAccProvider_wrongKeyFromEnvironment(t *testing.T) {
	isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	t.Setenv("ZULIP_SITE", srv.URL)
	t.Setenv("ZULIP_EMAIL", admin.Email)
	t.Setenv("ZULIP_API_KEY", wrongKey)
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:   `provider "zulip" {}` + testAccProviderLinkifier,
			PlanOnly: true,
			ExpectError: acctest.ExpectErr("Invalid Zulip Credentials", "url "+srv.URL+" from environment variable ZULIP_SITE",
				"email "+admin.Email+" from environment variable ZULIP_EMAIL", "api_key (not shown) from environment variable ZULIP_API_KEY"),
		}},
	})
}

// TestAccProvider_urlOnlyMakesNoAccountRequest: a provider with only a URL stays valid
// and does not ask the server who it is.
func TestAccProvider_urlOnlyMakesNoAccountRequest(t *testing.T) {
	isolateEnv(t)
	srv := acctest.NewServer(t)
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{{
			// Configured, and then refused for want of an account.
			Config:      fmt.Sprintf(`provider "zulip" { url = %q }`, srv.URL) + testAccProviderLinkifier,
			ExpectError: acctest.ExpectErr("Missing Zulip Credentials"),
		}},
	})
	if n := srv.Requests("GET", "/api/v1/users/me"); n != 0 {
		t.Errorf("%d GET /users/me requests without credentials", n)
	}
	if n := srv.Requests("GET", "/api/v1/server_settings"); n == 0 {
		t.Error("the provider was never configured")
	}
}

// TestAccProvider_certBundle: a server whose certificate a private CA signed is refused
// with a hint, and trusted with the CA bundle from each source.
func TestAccProvider_certBundle(t *testing.T) {
	home := isolateEnv(t)
	srv := acctest.NewTLSServer(t, acctest.TLSOptions{})
	admin, _ := srv.User(refserver.SeedAdminID)
	account := fmt.Sprintf("  url     = %q\n  email   = %q\n  api_key = %q\n", srv.URL, admin.Email, admin.APIKey)
	rc := writeZuliprc(t, home, fmt.Sprintf("[api]\nemail=%s\nkey=%s\nsite=%s\ncert_bundle=%s\n", admin.Email, admin.APIKey, srv.URL, srv.CABundle))
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      "provider \"zulip\" {\n" + account + "}\n" + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("Unable to Reach the Zulip Server", "does not trust the server's certificate", "cert_bundle", "ZULIP_CERT_BUNDLE"),
			},
			{
				Config:      "provider \"zulip\" {\n" + account + fmt.Sprintf("  cert_bundle = %q\n}\n", srv.OtherCABundle) + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("trusts only the authorities in " + srv.OtherCABundle + " (from the `cert_bundle` argument)"),
			},
			applies("provider \"zulip\" {\n" + account + fmt.Sprintf("  cert_bundle = %q\n}\n", srv.CABundle)),
			func() resource.TestStep {
				s := applies("provider \"zulip\" {\n" + account + "}\n")
				s.PreConfig = func() { t.Setenv("ZULIP_CERT_BUNDLE", srv.CABundle) }
				return s
			}(),
			func() resource.TestStep {
				s := applies(fmt.Sprintf("provider \"zulip\" { zuliprc = %q }\n", rc))
				s.PreConfig = func() { t.Setenv("ZULIP_CERT_BUNDLE", "") }
				return s
			}(),
		},
	})
}

// TestAccProvider_insecure: insecure from each source; anything but true or false is an
// error naming the source.
func TestAccProvider_insecure(t *testing.T) {
	home := isolateEnv(t)
	srv := acctest.NewTLSServer(t, acctest.TLSOptions{})
	admin, _ := srv.User(refserver.SeedAdminID)
	account := fmt.Sprintf("  url     = %q\n  email   = %q\n  api_key = %q\n", srv.URL, admin.Email, admin.APIKey)
	rc := writeZuliprc(t, home, fmt.Sprintf("[api]\nemail=%s\nkey=%s\nsite=%s\ninsecure=True\n", admin.Email, admin.APIKey, srv.URL))
	setenv := func(step resource.TestStep, value string) resource.TestStep {
		step.PreConfig = func() { t.Setenv("ZULIP_ALLOW_INSECURE", value) }
		return step
	}
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{
			applies("provider \"zulip\" {\n" + account + "  insecure = true\n}\n"),
			setenv(applies("provider \"zulip\" {\n"+account+"}\n"), "true"),
			setenv(resource.TestStep{
				Config:      "provider \"zulip\" {\n" + account + "}\n" + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("Invalid Zulip Setting", "insecure (from environment variable ZULIP_ALLOW_INSECURE): it must be true or false"),
			}, "yes"),
			{
				// The argument wins over the environment.
				PreConfig:   func() { t.Setenv("ZULIP_ALLOW_INSECURE", "true") },
				Config:      "provider \"zulip\" {\n" + account + "  insecure = false\n}\n" + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("does not trust the server's certificate"),
			},
			setenv(applies(fmt.Sprintf("provider \"zulip\" { zuliprc = %q }\n", rc)), ""),
		},
	})
}

// TestAccProvider_clientCertificate: a server that requires a client certificate is
// refused with a hint, and accepts the certificate from each source.
func TestAccProvider_clientCertificate(t *testing.T) {
	home := isolateEnv(t)
	srv := acctest.NewTLSServer(t, acctest.TLSOptions{RequireClientCert: true})
	admin, _ := srv.User(refserver.SeedAdminID)
	t.Setenv("ZULIP_CERT_BUNDLE", srv.CABundle)
	account := fmt.Sprintf("  url     = %q\n  email   = %q\n  api_key = %q\n", srv.URL, admin.Email, admin.APIKey)
	rc := writeZuliprc(t, home, fmt.Sprintf("[api]\nemail=%s\nkey=%s\nsite=%s\nclient_cert=%s\nclient_cert_key=%s\n",
		admin.Email, admin.APIKey, srv.URL, srv.ClientCert, srv.ClientKey))
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      "provider \"zulip\" {\n" + account + "}\n" + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("Unable to Reach the Zulip Server", "requires a client certificate", "client_cert", "ZULIP_CERT"),
			},
			applies("provider \"zulip\" {\n" + account + fmt.Sprintf("  client_cert     = %q\n  client_cert_key = %q\n}\n", srv.ClientCert, srv.ClientKey)),
			func() resource.TestStep {
				s := applies("provider \"zulip\" {\n" + account + "}\n")
				s.PreConfig = func() { t.Setenv("ZULIP_CERT", srv.ClientCertAndKey) }
				return s
			}(),
			{
				Config:      "provider \"zulip\" {\n" + account + fmt.Sprintf("  client_cert = %q\n}\n", filepath.Join(home, "absent.pem")) + testAccProviderLinkifier,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("Unusable Zulip TLS File", "client_cert (from the `client_cert` argument)", "absent.pem"),
			},
			func() resource.TestStep {
				s := applies(fmt.Sprintf("provider \"zulip\" { zuliprc = %q }\n", rc))
				s.PreConfig = func() { t.Setenv("ZULIP_CERT", "") }
				return s
			}(),
		},
	})
}

// configureDiagnostics configures a fresh provider through the plugin protocol, as
// Terraform does, with the given string and number arguments, and returns the
// diagnostics' text.
func configureDiagnostics(t *testing.T, args map[string]any) string {
	t.Helper()
	ctx := context.Background()
	server, err := providerserver.NewProtocol6WithError(provider.New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	schemaResp, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	typ, ok := schemaResp.Provider.ValueType().(tftypes.Object)
	if !ok {
		t.Fatalf("provider schema type %T", schemaResp.Provider.ValueType())
	}
	values := map[string]tftypes.Value{}
	for name, attrType := range typ.AttributeTypes {
		values[name] = tftypes.NewValue(attrType, args[name])
	}
	config, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, values))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.11.0", Config: &config})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range resp.Diagnostics {
		fmt.Fprintf(&b, "%s: %s\n%s\n", d.Severity, d.Summary, d.Detail)
	}
	return b.String()
}

// configureErrorCase is a configuration whose configure fails: the
// environment, the provider block's arguments, the phrases the diagnostics
// hold, and the API key they must not hold.
type configureErrorCase struct {
	name   string
	env    map[string]string
	args   map[string]any
	want   []string
	secret string
}

// run configures the provider with the case's environment and arguments and
// checks the diagnostics' text.
func (tt configureErrorCase) run(t *testing.T) {
	for k, v := range tt.env {
		t.Setenv(k, v)
	}
	args := map[string]any{}
	for k, v := range tt.args {
		if n, ok := v.(int); ok {
			v = big.NewFloat(float64(n))
		}
		args[k] = v
	}
	text := configureDiagnostics(t, args)
	for _, w := range tt.want {
		if !strings.Contains(text, w) {
			t.Errorf("the diagnostics lack %q:\n%s", w, text)
		}
	}
	if tt.secret != "" && strings.Contains(text, tt.secret) {
		t.Errorf("the diagnostics hold the API key:\n%s", text)
	}
}

// TestProvider_configureErrorsNameSourcesNotKeys checks the text of every configure-time
// credentials error: it names the sources, and never holds the API key.
func TestProvider_configureErrorsNameSourcesNotKeys(t *testing.T) {
	home := isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	gone, _ := srv.User(refserver.SeedDeactivatedID)
	rc := writeZuliprc(t, home, fmt.Sprintf("[api]\nemail=nobody@zulip.example.com\nkey=%s\n", admin.APIKey))
	hanging := hangingServer(t)
	tests := []configureErrorCase{
		{
			name:   "wrong key",
			args:   map[string]any{"url": srv.URL, "email": admin.Email, "api_key": wrongKey},
			want:   []string{"Invalid Zulip Credentials", "no account on this server has that e-mail address", "Invalid API key", "api_key (not shown) from the `api_key` argument"},
			secret: wrongKey,
		},
		{
			name:   "unknown e-mail",
			args:   map[string]any{"url": srv.URL, "zuliprc": rc},
			want:   []string{"Invalid Zulip Credentials", "email nobody@zulip.example.com from zuliprc file " + rc},
			secret: admin.APIKey,
		},
		{
			name: "deactivated account",
			env:  map[string]string{"ZULIP_SITE": srv.URL, "ZULIP_EMAIL": gone.Email, "ZULIP_API_KEY": gone.APIKey},
			want: []string{"WARNING: Zulip Account Deactivated", "account " + gone.Email + " is deactivated", "401 UNAUTHORIZED", "Account is deactivated",
				"from environment variable ZULIP_API_KEY"},
			secret: gone.APIKey,
		},
		{
			name:   "unreachable server",
			args:   map[string]any{"url": "http://127.0.0.1:1", "email": admin.Email, "api_key": admin.APIKey, "max_retries": 0},
			want:   []string{"Unable to Reach the Zulip Server", "url http://127.0.0.1:1 from the `url` argument"},
			secret: admin.APIKey,
		},
		{
			name:   "hanging server",
			args:   map[string]any{"email": admin.Email, "api_key": admin.APIKey},
			env:    map[string]string{"ZULIP_URL": hanging, "ZULIP_REQUEST_TIMEOUT": "300ms"},
			want:   []string{"no complete answer within 300ms (request_timeout)", "from environment variable ZULIP_URL"},
			secret: admin.APIKey,
		},
		{
			name:   "missing key",
			args:   map[string]any{"url": srv.URL, "email": admin.Email},
			want:   []string{"Missing Zulip API Key", "Found so far", "email " + admin.Email + " from the `email` argument"},
			secret: admin.APIKey,
		},
		{
			name: "bad request_timeout",
			args: map[string]any{"url": srv.URL},
			env:  map[string]string{"ZULIP_REQUEST_TIMEOUT": "soon"},
			want: []string{"request_timeout (from environment variable ZULIP_REQUEST_TIMEOUT)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

// TestProvider_configureChecksCredentialsOnce: a working configuration asks the server who
// it is exactly once, and only with credentials.
func TestProvider_configureChecksCredentialsOnce(t *testing.T) {
	isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	if text := configureDiagnostics(t, map[string]any{"url": srv.URL, "email": admin.Email, "api_key": admin.APIKey}); text != "" {
		t.Fatalf("diagnostics: %s", text)
	}
	if n := srv.Requests("GET", "/api/v1/users/me"); n != 1 {
		t.Errorf("%d GET /users/me, want 1", n)
	}
	srv.ResetRequests()
	if text := configureDiagnostics(t, map[string]any{"url": srv.URL}); text != "" {
		t.Fatalf("URL only: %s", text)
	}
	if n := srv.Requests("GET", "/api/v1/users/me"); n != 0 {
		t.Errorf("URL only: %d GET /users/me, want 0", n)
	}
}

// TestAccProvider_unknownConfigWarns: a provider whose URL is known only at
// apply plans without server checks, and says so once.
func TestAccProvider_unknownConfigWarns(t *testing.T) {
	isolateEnv(t)
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	rec := &acctest.DiagRecorder{}
	acctest.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
resource "terraform_data" "site" {
  input = %q
}

provider "zulip" {
  url     = terraform_data.site.output
  email   = %q
  api_key = %q
}
`, srv.URL, admin.Email, admin.APIKey) + testAccProviderLinkifier,
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}},
	})
	if err := rec.Has(`(?s)WARNING: Server Checks Skipped: .*not known until apply`); err != nil {
		t.Error(err)
	}
}
