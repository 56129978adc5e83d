package provider_test

import (
	"context"
	"path/filepath"
	"regexp"
	"sort"
	"testing"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// identityExamples are the import-by-identity examples that have no
// import-by-string-id twin in importExamples.
var identityExamples = []importExample{
	{"examples/resources/zulip_user/import-by-identity.tf", `
resource "zulip_user" "jane" {
  email     = "jane.doe@zulip.example.com"
  full_name = "Jane Doe"
}`, refserver.SeedOwnerID, func(r *refserver.Realm) {
		r.NextID["user"]++
		id := r.NextID["user"]
		r.Users[id] = &refserver.User{ID: id, Email: "jane.doe@zulip.example.com", FullName: "Jane Doe",
			Role: refserver.RoleMember, IsActive: true, Timezone: "Europe/Berlin", EmailVisibility: 1}
	}},
	{"examples/resources/zulip_custom_profile_field/import-by-identity.tf", `
resource "zulip_custom_profile_field" "team" {
  name = "Team"
  hint = "Your team"
  type = "select"
  options = [
    { key = "0", text = "Engineering" },
    { key = "1", text = "Design" },
    { key = "2", text = "Sales" },
  ]
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_linkifier_order/import-by-identity.tf", `
resource "zulip_linkifier_order" "all" {
  linkifiers = [1]
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_custom_profile_field_order/import-by-identity.tf", `
resource "zulip_custom_profile_field_order" "all" {
  fields = [1, 2, 3, 4, 5, 6, 7, 8, 9]
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_default_channels/import-by-identity.tf", `
resource "zulip_default_channels" "all" {
  channel_ids = [1, 2]
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_channel_folder_order/import-by-identity.tf", `
resource "zulip_channel_folder_order" "all" {
  folders = [1, 2]
}`, refserver.SeedAdminID, func(r *refserver.Realm) {
		acctest.AddFolder(r, "Teams", "")
		acctest.AddFolder(r, "Projects", "")
	}},
}

// identityTwins names the import-by-identity example beside each
// import-by-string-id example of importExamples, which adopts the same object.
var identityTwins = map[string]string{
	"examples/resources/zulip_linkifier/import-by-string-id.tf":             "examples/resources/zulip_linkifier/import-by-identity.tf",
	"examples/resources/zulip_saved_snippet/import-by-string-id.tf":         "examples/resources/zulip_saved_snippet/import-by-identity.tf",
	"examples/resources/zulip_allowed_domain/import-by-string-id.tf":        "examples/resources/zulip_allowed_domain/import-by-identity.tf",
	"examples/resources/zulip_user_topic/import-by-string-id.tf":            "examples/resources/zulip_user_topic/import-by-identity.tf",
	"examples/resources/zulip_user_group/import-by-string-id.tf":            "examples/resources/zulip_user_group/import-by-identity.tf",
	"examples/resources/zulip_user_group_members/import-by-string-id.tf":    "examples/resources/zulip_user_group_members/import-by-identity.tf",
	"examples/resources/zulip_user_group_membership/import-by-string-id.tf": "examples/resources/zulip_user_group_membership/import-by-identity.tf",
	"examples/resources/zulip_channel/import-by-string-id.tf":               "examples/resources/zulip_channel/import-by-identity.tf",
	"examples/resources/zulip_channel_subscribers/import-by-string-id.tf":   "examples/resources/zulip_channel_subscribers/import-by-identity.tf",
	"examples/resources/zulip_channel_subscription/import-by-string-id.tf":  "examples/resources/zulip_channel_subscription/import-by-identity.tf",
	"examples/resources/zulip_channel_folder/import-by-string-id.tf":        "examples/resources/zulip_channel_folder/import-by-identity.tf",
	"examples/resources/zulip_realm/import-by-string-id.tf":                 "examples/resources/zulip_realm/import-by-identity.tf",
	"examples/resources/zulip_realm_user_defaults/import-by-string-id.tf":   "examples/resources/zulip_realm_user_defaults/import-by-identity.tf",
	"examples/resources/zulip_code_playground/import-by-string-id.tf":       "examples/resources/zulip_code_playground/import-by-identity.tf",
	"examples/resources/zulip_custom_emoji/import-by-string-id.tf":          "examples/resources/zulip_custom_emoji/import-by-identity.tf",
	"examples/resources/zulip_bot/import-by-string-id.tf":                   "examples/resources/zulip_bot/import-by-identity.tf",
	"examples/resources/zulip_message_flags/import-by-string-id.tf":         "examples/resources/zulip_message_flags/import-by-identity.tf",
}

// TestAccExamples_importByIdentity applies every import-by-identity example
// with the configuration of the object it adopts: the import plans nothing
// else, the stored identity holds the state's values, and the next plan is
// empty. Every resource type with an identity has such an example.
func TestAccExamples_importByIdentity(t *testing.T) {
	identities := identityAttributes(t)
	covered := map[string]bool{}
	examples := append([]importExample{}, identityExamples...)
	for _, c := range importExamples {
		twin, ok := identityTwins[c.example]
		if !ok {
			t.Errorf("%s has no import-by-identity twin in identityTwins", c.example)
			continue
		}
		c.example = twin
		examples = append(examples, c)
	}
	for _, c := range examples {
		typ := filepath.Base(filepath.Dir(c.example))
		covered[typ] = true
		t.Run(typ, func(t *testing.T) {
			example := acctest.ReadExample(t, c.example)
			m := regexp.MustCompile(`to\s*=\s*(\S+)`).FindStringSubmatch(example)
			if m == nil {
				t.Fatalf("%s has no import target", c.example)
			}
			var checks []statecheck.StateCheck
			for _, attr := range identities[typ] {
				checks = append(checks, statecheck.ExpectIdentityValueMatchesState(m[1], tfjsonpath.New(attr)))
			}
			srv := acctest.NewServer(t)
			if c.setup != nil {
				srv.Do(c.setup)
			}
			acctest.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks: acctest.IdentityVersions,
				Steps: []resource.TestStep{{
					Config:            srv.ProviderConfig(t, c.user) + example + c.config,
					ConfigStateChecks: checks,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply:             []plancheck.PlanCheck{expectOnlyImports()},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				}},
			})
		})
	}
	for typ := range identities {
		if !covered[typ] {
			t.Errorf("%s has an identity but no import-by-identity example in this test", typ)
		}
	}
}

// identityAttributes are the identity attributes of every resource type that
// has an identity.
func identityAttributes(t *testing.T) map[string][]string {
	t.Helper()
	ctx := context.Background()
	out := map[string][]string{}
	for _, f := range provider.New("test")().Resources(ctx) {
		r := f()
		withIdentity, ok := r.(fwresource.ResourceWithIdentity)
		if !ok {
			continue
		}
		typ := typeName(r)
		var resp fwresource.IdentitySchemaResponse
		withIdentity.IdentitySchema(ctx, fwresource.IdentitySchemaRequest{}, &resp)
		for name := range resp.IdentitySchema.Attributes {
			out[typ] = append(out[typ], name)
		}
		sort.Strings(out[typ])
	}
	return out
}

// TestAccIdentity_followsTheObject: a channel's identity is its name, stored
// at create, changed by a rename (Zulip renames in place), and still there on
// the refresh that finds the channel archived behind Terraform's back, which
// the next apply unarchives.
func TestAccIdentity_followsTheObject(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	named := func(name string) []statecheck.StateCheck {
		return []statecheck.StateCheck{statecheck.ExpectIdentity("zulip_channel.test", map[string]knownvalue.Check{
			"name": knownvalue.StringExact(name)})}
	}
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.IdentityVersions,
		Steps: []resource.TestStep{
			{Config: admin + testAccChannelConfig("ops", "Operations", ""), ConfigStateChecks: named("ops")},
			{Config: admin + testAccChannelConfig("operations", "Operations", ""), ConfigStateChecks: named("operations")},
			{
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) {
						for _, c := range r.Channels {
							if c.Name == "operations" {
								c.IsArchived = true
							}
						}
					})
				},
				Config:            admin + testAccChannelConfig("operations", "Operations", ""),
				ConfigStateChecks: named("operations"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("zulip_channel.test", plancheck.ResourceActionCreate)},
				},
			},
		},
	})
}
