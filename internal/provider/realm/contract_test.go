package realm_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/realm"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// contract is the area's test contract (acctest.Contract).
var contract = acctest.Contract{Area: realm.Area(), Types: map[string]acctest.TypeContract{
	"zulip_realm": {Name: "RealmSettings", HalfExempt: acctest.SingletonHalf, ScaleExempt: acctest.SingletonScale, Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_realm" "this" {
  name = "Zulip Reference Realm"
}`}, Example: &acctest.ExampleCase{User: refserver.SeedOwnerID, Checks: []statecheck.StateCheck{
		acctest.Value("zulip_realm.this", "org_type", knownvalue.StringExact("business")),
		acctest.Value("zulip_realm.this", "can_create_public_channel_group", acctest.PermissionOf([]string{"role:fullmembers"})),
	}}},
	"zulip_realm_user_defaults": {Name: "RealmUserDefaults", HalfExempt: acctest.SingletonHalf, ScaleExempt: acctest.SingletonScale, Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_realm_user_defaults" "this" {
  enter_sends = false
}`}, Example: &acctest.ExampleCase{User: refserver.SeedAdminID, Checks: []statecheck.StateCheck{
		acctest.Value("zulip_realm_user_defaults.this", "email_address_visibility", knownvalue.StringExact("administrators")),
	}}},
	"zulip_realm_branding": {Name: "RealmBranding", ScaleExempt: acctest.SingletonScale, Half: &acctest.HalfCase{
		User: refserver.SeedAdminID, Create: "POST /api/v1/realm/icon",
		Config: brandingConfig("icon", brandingFile("icon.png"), "logo", brandingFile("logo.gif")),
	}, Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_realm_branding" "this" {}`}},
	"zulip_linkifier_order": {Name: "LinkifierOrder", HalfExempt: acctest.SingletonHalf, ScaleExempt: acctest.SingletonScale, Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_linkifier_order" "all" {
  linkifiers = [1]
}`}},
	"zulip_custom_profile_field_order": {Name: "CustomProfileFieldOrder", HalfExempt: acctest.SingletonHalf, ScaleExempt: acctest.SingletonScale, Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_custom_profile_field_order" "all" {
  fields = [1, 2, 3, 4, 5, 6, 7, 8, 9]
}`}},
	"zulip_linkifier": {Name: "Linkifier", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_linkifier\" \"many%d\" {\n  pattern      = \"MANY%d-(?P<id>[0-9]+)\"\n  url_template = \"https://many%d.example/{id}\"\n}\n", i, i, i)
	}}, Kit: &acctest.KitCase{
		User:   refserver.SeedAdminID,
		Config: "resource \"zulip_linkifier\" \"test\" {\n  pattern      = \"KIT-(?P<id>[0-9]+)\"\n  url_template = \"https://kit.example/{id}\"\n}\n",
		Create: "POST /api/v1/realm/filters", List: "GET /api/v1/realm/linkifiers",
		Count: func(r *refserver.Realm) int {
			return acctest.CountIn(r.Linkifiers, func(l *refserver.Linkifier) bool {
				return l.Pattern == `KIT-(?P<id>[0-9]+)` && l.URLTemplate == "https://kit.example/{id}"
			})
		},
		Twin: func(r *refserver.Realm) {
			r.NextID["linkifier"]++
			r.Linkifiers = append(r.Linkifiers, &refserver.Linkifier{ID: r.NextID["linkifier"],
				Pattern: `KIT-(?P<id>[0-9]+)`, URLTemplate: "https://kit.example/{id}"})
		},
		Stranger: func(r *refserver.Realm) {
			r.NextID["linkifier"]++
			r.Linkifiers = append(r.Linkifiers, &refserver.Linkifier{ID: r.NextID["linkifier"],
				Pattern: `KIT-(?P<id>[0-9]+)`, URLTemplate: "https://someone-else.example/{id}"})
		},
		Made: true,
	}, RenameExempt: "nothing refers to a linkifier by its pattern (orders use ids)", Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_linkifier" "issues" {
  pattern      = "#(?P<id>[0-9]+)"
  url_template = "https://github.com/zulip/zulip/issues/{id}"
}`}, Example: &acctest.ExampleCase{User: refserver.SeedAdminID, Checks: []statecheck.StateCheck{
		acctest.Value("zulip_linkifier.issues", "reverse_template", knownvalue.StringExact("ZT-{id}")),
		acctest.Value("zulip_linkifier.pull_requests", "alternative_url_templates",
			knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("https://github.com/{org}/{repo}/pull/{id}/files")})),
	}}},
	"zulip_allowed_domain": {Name: "AllowedDomain", Scale: &acctest.ScaleCase{User: refserver.SeedOwnerID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_allowed_domain\" \"many%d\" {\n  domain = \"many%d.example.org\"\n}\n", i, i)
	}}, Kit: &acctest.KitCase{
		User:   refserver.SeedOwnerID,
		Config: "resource \"zulip_allowed_domain\" \"test\" {\n  domain = \"kit.example.org\"\n  allow_subdomains = true\n}\n", ImportID: "kit.example.org",
		Create: "POST /api/v1/realm/domains", List: "GET /api/v1/realm/domains",
		Count: func(r *refserver.Realm) int {
			return acctest.CountIn(r.Domains, func(d *refserver.RealmDomain) bool { return d.Domain == "kit.example.org" && d.AllowSubdomains })
		},
		Twin: func(r *refserver.Realm) {
			r.NextID["realm_domain"]++
			r.Domains = append(r.Domains, &refserver.RealmDomain{ID: r.NextID["realm_domain"], Domain: "kit.example.org", AllowSubdomains: true})
		},
		Stranger: func(r *refserver.Realm) {
			r.NextID["realm_domain"]++
			r.Domains = append(r.Domains, &refserver.RealmDomain{ID: r.NextID["realm_domain"], Domain: "kit.example.org"})
		},
		Made: true,
	}, Import: &acctest.ImportCase{User: refserver.SeedOwnerID, Config: `
resource "zulip_allowed_domain" "company" {
  domain = "zulip.example.com"
}`}},
	"zulip_custom_profile_field": {Name: "CustomProfileField", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_custom_profile_field\" \"many%d\" {\n  name = \"Many %d\"\n  type = \"short_text\"\n}\n", i, i)
	}}, Kit: &acctest.KitCase{
		User:   refserver.SeedAdminID,
		Config: "resource \"zulip_custom_profile_field\" \"test\" {\n  name = \"Kit field\"\n  type = \"short_text\"\n  hint = \"Made by the kit's tests.\"\n}\n",
		Create: "POST /api/v1/realm/profile_fields", List: "GET /api/v1/realm/profile_fields", ImportID: "Kit field",
		Count: func(r *refserver.Realm) int {
			return acctest.CountIn(r.ProfileFields, func(f *refserver.ProfileField) bool {
				return f.Name == "Kit field" && f.Hint == "Made by the kit's tests."
			})
		},
		Twin:     func(r *refserver.Realm) { acctest.AddProfileField(r, "Kit field", "Made by the kit's tests.") },
		Stranger: func(r *refserver.Realm) { acctest.AddProfileField(r, "Kit field", "Someone else's field.") },
	}, Renamed: &acctest.RenamedCase{
		Name: "Ren desk",
		Config: `
resource "zulip_custom_profile_field" "ref" {
  name = "Ren desk"
  type = "short_text"
}

resource "zulip_profile_data" "referrer" {
  field {
    name  = zulip_custom_profile_field.ref.name
    value = "B-12"
  }
}
`,
		Referrer: "zulip_profile_data.referrer", At: tfjsonpath.New("field").AtSliceIndex(0).AtMapKey("name"),
		Want: knownvalue.StringExact("Ren desk"),
		Rename: func(r *refserver.Realm, from, to string) bool {
			for _, f := range r.ProfileFields {
				if f.Name == from {
					f.Name = to
					return true
				}
			}
			return false
		},
	}, Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_custom_profile_field" "team" {
  name = "Team"
  hint = "Your team"
  type = "select"
  options = [
    { key = "0", text = "Engineering" },
    { key = "1", text = "Design" },
    { key = "2", text = "Sales" },
  ]
}`}, Example: &acctest.ExampleCase{User: refserver.SeedAdminID,
		Setup: func(r *refserver.Realm) { r.ProfileFields = nil }, // an organization without fields yet
		Checks: []statecheck.StateCheck{
			acctest.Value("zulip_custom_profile_field.github", "name", knownvalue.StringExact("GitHub username")),
		}}},
	"zulip_code_playground": {Name: "CodePlayground", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_code_playground\" \"many%d\" {\n  name              = \"Many %d\"\n  pygments_language = \"Go\"\n  url_template      = \"https://many%d.example/?code={code}\"\n}\n", i, i, i)
	}}, Kit: &acctest.KitCase{
		User:     refserver.SeedAdminID,
		Config:   "resource \"zulip_code_playground\" \"test\" {\n  name              = \"Kit playground\"\n  pygments_language = \"Go\"\n  url_template      = \"https://go.dev/play/?code={code}\"\n}\n",
		ImportID: "Go/Kit playground",
		Create:   "POST /api/v1/realm/playgrounds", List: "POST /api/v1/register",
		Count: func(r *refserver.Realm) int {
			return acctest.CountIn(r.Playgrounds, func(p *refserver.Playground) bool {
				return p.Name == "Kit playground" && p.PygmentsLanguage == "Go" && p.URLTemplate == "https://go.dev/play/?code={code}"
			})
		},
		Twin: func(r *refserver.Realm) {
			acctest.AddPlayground(r, "Kit playground", "Go", "https://go.dev/play/?code={code}")
		},
		Stranger: func(r *refserver.Realm) {
			acctest.AddPlayground(r, "Kit playground", "Go", "https://elsewhere.example/?code={code}")
		},
		Made: true,
	}, Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_code_playground" "rust" {
  name              = "Rust playground"
  pygments_language = "Rust"
  url_template      = "https://play.rust-lang.org/?code={code}"
}`, Setup: func(r *refserver.Realm) {
		acctest.AddPlayground(r, "Rust playground", "Rust", "https://play.rust-lang.org/?code={code}")
	}}, Example: &acctest.ExampleCase{User: refserver.SeedAdminID}},
	"zulip_user_settings_push": {Name: "UserSettingsPush"},
}, DataSources: map[string]acctest.DataContract{
	"zulip_custom_profile_fields": {Scale: acctest.DataBlocks(refserver.SeedAdminID, "zulip_custom_profile_fields", "")},
	"zulip_realm":                 {Scale: acctest.DataBlocks(refserver.SeedAdminID, "zulip_realm", "")},
	"zulip_server":                {Scale: acctest.DataBlocks(refserver.SeedAdminID, "zulip_server", "")},
	"zulip_code_playgrounds":      {Scale: acctest.DataBlocks(refserver.SeedAdminID, "zulip_code_playgrounds", "")},
}}

func TestContract(t *testing.T)              { contract.Check(t) }
func TestAccContract(t *testing.T)           { contract.Run(t) }
func TestAccContract_versioned(t *testing.T) { contract.RunVersioned(t) }
