package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// typeName is the type name of a resource or list resource.
func typeName(r interface {
	Metadata(context.Context, fwresource.MetadataRequest, *fwresource.MetadataResponse)
}) string {
	var resp fwresource.MetadataResponse
	r.Metadata(context.Background(), fwresource.MetadataRequest{ProviderTypeName: "zulip"}, &resp)
	return resp.TypeName
}

// TestAccKit_stepDownWarning: a plan that takes the owner role from the
// provider's own account and also makes owner-only changes warns that the
// owner-only changes may be applied after the step-down, and fail.
func TestAccKit_stepDownWarning(t *testing.T) {
	srv := acctest.NewServer(t)
	owner, _ := srv.User(refserver.SeedOwnerID)
	rec := &acctest.DiagRecorder{}
	cfg := srv.ProviderConfig(t, refserver.SeedOwnerID) + fmt.Sprintf(`
import {
  to = zulip_user.me
  id = %q
}

resource "zulip_user" "me" {
  email                           = %q
  full_name                       = %q
  role                            = "administrator"
  allow_self_or_last_owner_change = true
}

resource "zulip_allowed_domain" "partner" {
  domain = "partner.example.org"
}
`, owner.Email, owner.Email, owner.FullName)
	acctest.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true},
			{
				PreConfig: func() {
					if err := rec.Has(`(?s)^WARNING: The Provider's Account Steps Down From Owner: .*` + regexp.QuoteMeta(owner.Email) +
						`.*change of the allowed domains`); err != nil {
						t.Error(err)
					}
				},
				Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true,
			},
		},
	})
}

// TestAccProvider_waitsAreShown: when the server's rate limit makes the
// provider wait over a second, the operation says so in a warning, which
// Terraform shows without TF_LOG (its log lines alone would not be seen).
func TestAccProvider_waitsAreShown(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) {
		o.Faults = refserver.Faults{RateLimitRate: 0.5, RetryAfterSecs: 1.2}
		o.Seed = 3
	})
	rec := &acctest.DiagRecorder{}
	acctest.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{{
			Config: srv.ProviderConfig(t, refserver.SeedMemberID) + `
data "zulip_channels" "all" {}
`,
			Check: func(*terraform.State) error {
				return rec.Has(`(?s)^WARNING: Waited for the Zulip Server: This operation waited \d+s for the Zulip server: retrying request after .*rate limit`)
			},
		}},
	})
}
