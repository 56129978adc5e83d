package provider_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	goversion "github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

const examplesDir = "../../examples"

// TestExamplesAreAppliedByTests keeps the documentation honest: every
// Terraform file under examples/ must be applied by some acceptance test, so
// each one names its example file by path. (The demo is applied by
// TestAccExamples_demo; the provider example by TestAccExamples_provider.)
func TestExamplesAreAppliedByTests(t *testing.T) {
	var tests bytes.Buffer
	matches, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	areas, err := filepath.Glob("*/*_test.go") // the areas' tests
	if err != nil {
		t.Fatal(err)
	}
	matches = append(matches, areas...)
	root, err := filepath.Glob("../../*_test.go") // the tests that run the real CLI
	if err != nil {
		t.Fatal(err)
	}
	matches = append(matches, root...)
	for _, m := range matches {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		tests.Write(b)
	}
	err = filepath.WalkDir(examplesDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".tf" && !strings.HasSuffix(path, ".tfquery.hcl") {
			return err
		}
		rel := strings.TrimPrefix(filepath.ToSlash(path), "../../")
		switch base := filepath.Base(path); {
		case base == "import-by-string-id.tf" || base == "import-by-identity.tf",
			base == "resource.tf" && filepath.Base(filepath.Dir(filepath.Dir(path))) == "resources":
			return nil // applied by the type's area contract (acctest.Contract), which requires its case
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		if !bytes.Contains(tests.Bytes(), []byte(rel)) && !bytes.Contains(tests.Bytes(), []byte(`"`+dir+`"`)) {
			t.Errorf("%s is not applied by any acceptance test (no test names it)", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAccExamples_formatted checks every example with terraform fmt.
func TestAccExamples_formatted(t *testing.T) {
	acctest.PreCheck(t)
	out, err := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "fmt", "-check", "-recursive", "-list=true", examplesDir).CombinedOutput()
	if err != nil {
		t.Fatalf("terraform fmt -check found unformatted examples (run make fmt):\n%s", out)
	}
}

// TestAccExamples_provider applies the provider example with its placeholder
// server and account replaced by the reference server's.
func TestAccExamples_provider(t *testing.T) {
	srv := acctest.NewServer(t)
	admin, _ := srv.User(refserver.SeedAdminID)
	example := acctest.ReadExample(t, "examples/provider/provider.tf")
	example = strings.ReplaceAll(example, "https://chat.example.com", srv.URL)
	example = strings.ReplaceAll(example, "terraform-bot@chat.example.com", admin.Email)
	// The terraform block names the registry source, which the in-process
	// provider stands in for: apply what follows it.
	example = example[strings.Index(example, `provider "zulip"`):]
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:          example + testAccProviderLinkifier,
			ConfigVariables: config.Variables{"zulip_api_key": config.StringVariable(admin.APIKey)},
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
}

// TestAccExamples_demo runs `make demo`'s script: the demo uses two
// configurations of the provider with different accounts, which needs the
// real plugin binary (in-process, every alias shares one provider instance).
func TestAccExamples_demo(t *testing.T) {
	acctest.PreCheck(t)
	_ = acctest.ReadExample(t, "examples/demo/main.tf")
	if v := terraformVersion(t); v.LessThan(goversion.Must(goversion.NewVersion("1.11.0"))) {
		t.Skipf("the demo uses ephemeral resources and write-only arguments, which need Terraform 1.11 or newer; this is %s", v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "../../scripts/demo.sh")
	// The CLI under test runs the demo, also when it is OpenTofu (TERRAFORM
	// names it for the script).
	cmd.Env = append(os.Environ(), "TERRAFORM="+os.Getenv("TF_ACC_TERRAFORM_PATH"))
	// At the timeout the script is killed; what it printed until then is
	// reported even when a process it started still holds the output open.
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the demo failed: %v\n%s", err, out)
	}
	for _, want := range []string{"No changes: the realm matches the configuration.", "Destroy complete!", "Demo finished"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("the demo's output lacks %q:\n%s", want, out)
		}
	}
}

// terraformVersion asks the Terraform binary under test for its version.
func terraformVersion(t *testing.T) *goversion.Version {
	t.Helper()
	out, err := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "version", "-json").Output()
	if err != nil {
		t.Fatalf("terraform version: %v", err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("terraform version -json: %v", err)
	}
	return goversion.Must(goversion.NewVersion(v.Version))
}
