package realm_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// seededDomain is the allowed domain of the seeded realm (its host name).
const seededDomain = "zulip.example.com"

func TestAccAllowedDomain_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	addr := "zulip_allowed_domain.test"
	onServer := func(domain string, subdomains bool) statecheck.StateCheck {
		return acctest.Value(addr, "domain", knownvalue.StringFunc(func(string) error {
			return acctest.DomainOnServer(srv, domain, subdomains)
		}))
	}
	kept := owner + testAccAllowedDomainConfig("example.org", "")
	acctest.ParallelSteps(t,
		acctest.Apply(owner+testAccAllowedDomainConfig("example.org", "true")).Clean().State(
			acctest.Value(addr, "domain", knownvalue.StringExact("example.org")),
			acctest.Value(addr, "allow_subdomains", knownvalue.Bool(true)),
			onServer("example.org", true),
		).Step(),
		acctest.ImportVerifyBy(addr, "example.org", "domain"),
		// In place: allow_subdomains left out falls back to false.
		acctest.Apply(kept).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(
			acctest.Value(addr, "allow_subdomains", knownvalue.Bool(false)), onServer("example.org", false)).Step(),
		// Changed outside Terraform: the plan puts it back.
		acctest.Apply(kept).OutOfBand(srv, func(r *refserver.Realm) {
			for _, d := range r.Domains {
				if d.Domain == "example.org" {
					d.AllowSubdomains = true
				}
			}
		}).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(onServer("example.org", false)).Step(),
		// Deleted outside Terraform: dropped from state and created again.
		acctest.Apply(kept).OutOfBand(srv, func(r *refserver.Realm) {
			r.Domains = slices.DeleteFunc(r.Domains, func(d *refserver.RealmDomain) bool { return d.Domain == "example.org" })
		}).Planned(addr, plancheck.ResourceActionCreate).Clean().State(onServer("example.org", false)).Step(),
		// A new domain replaces the old one.
		acctest.Apply(owner+testAccAllowedDomainConfig("example.net", "false")).Planned(addr, plancheck.ResourceActionReplace).Clean().State(
			acctest.Value(addr, "domain", knownvalue.StringFunc(func(string) error {
				if acctest.DomainOnServer(srv, "example.org", false) == nil {
					return fmt.Errorf("the replaced domain example.org is still allowed")
				}
				return acctest.DomainOnServer(srv, "example.net", false)
			})),
		).Step(),
	)
}

// TestAccAllowedDomain_example applies the documentation's example.
func TestAccAllowedDomain_example(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	acctest.ParallelSteps(t,
		acctest.Apply(owner+acctest.ReadExample(t, "examples/resources/zulip_allowed_domain/resource.tf")).State(
			acctest.Value("zulip_allowed_domain.example_org", "allow_subdomains", knownvalue.Bool(true)),
			acctest.Value("zulip_allowed_domain.partners", "allow_subdomains", knownvalue.Bool(false)),
			acctest.Value("zulip_allowed_domain.partners", "domain", knownvalue.StringFunc(func(string) error {
				if err := acctest.DomainOnServer(srv, "example.org", true); err != nil {
					return err
				}
				if err := acctest.DomainOnServer(srv, "partners.example.net", false); err != nil {
					return err
				}
				return acctest.DomainOnServer(srv, seededDomain, false)
			})),
		).Clean().Step(),
	)
}

func TestAccAllowedDomain_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	step := func(domain string, want string) resource.TestStep {
		return acctest.PlanFailsRE(owner+testAccAllowedDomainConfig(domain, ""), want)
	}
	acctest.ParallelSteps(t,
		step("Example.org", `domain: must be written in lower case \("example.org"\)`),
		step(" example.org", `domain: must not have leading or trailing whitespace`),
		step("localhost", `domain: Domain must have at least one dot`),
		step("", `domain: Domain can't be empty`),
		step("example..org", `domain: Consecutive '.' are not allowed`),
		step("-corp.example.org", `domain: Subdomains cannot start or end with a '-'`),
		step("ex_ample.org", `domain: Domain can only have letters, numbers, '.' and '-'s`),
		step("example.org.", `domain: Domain cannot start or end with a dot`),
	)
}

// TestAccAllowedDomain_needsOwner checks that members and administrators are
// told at plan time that the resource needs an owner.
func TestAccAllowedDomain_needsOwner(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	want := acctest.ExpectErr(`Insufficient Role`, `allowed domains needs an organization owner`)
	acctest.ParallelSteps(t,
		acctest.PlanFailsWith(member+testAccAllowedDomainConfig("example.org", ""), want),
		acctest.PlanFailsWith(admin+testAccAllowedDomainConfig("example.org", ""), want),
		resource.TestStep{
			// Nothing was added by the refused plans.
			Config: owner + testAccAllowedDomainConfig("example.org", ""),
			PreConfig: func() {
				if acctest.DomainOnServer(srv, "example.org", false) == nil {
					t.Error("a refused create added example.org")
				}
			},
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
	)
}

// TestAccAllowedDomain_existing checks that creating a domain the organization
// already allows fails at plan with an import block, and that import adopts it.
func TestAccAllowedDomain_existing(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	addr := "zulip_allowed_domain.test"
	seeded := owner + testAccAllowedDomainConfig(seededDomain, "")
	acctest.ParallelSteps(t,
		acctest.PlanFails(seeded, `Allowed Domain Already Exists`, `import {`, `to = zulip_allowed_domain.<name>`, `id = "zulip.example.com"`),
		acctest.ImportFails(seeded, addr, "nowhere.example.com", acctest.ExpectErrRE(`Allowed Domain Not Found.*No allowed domain matches the import id "nowhere.example.com"`)),
		acctest.ImportFails(seeded, addr, "not a domain", acctest.ExpectErrRE(`Invalid Import ID.*imported by its domain name`)),
		// Zulip's domains are lower case, so the import id is read as such.
		acctest.ImportKept(seeded, addr, "Zulip.Example.COM"),
		acctest.Apply(seeded).Plan(plancheck.ExpectEmptyPlan()).State(
			acctest.Value(addr, "domain", knownvalue.StringExact(seededDomain)),
			acctest.Value(addr, "allow_subdomains", knownvalue.Bool(false)),
		).Step(),
	)
}

// testAccAllowedDomainConfig returns a zulip_allowed_domain; an empty
// allowSubdomains leaves the argument out.
func testAccAllowedDomainConfig(domain, allowSubdomains string) string {
	extra := ""
	if allowSubdomains != "" {
		extra = "\n  allow_subdomains = " + allowSubdomains
	}
	return fmt.Sprintf(`
resource "zulip_allowed_domain" "test" {
  domain = %q%s
}
`, domain, extra)
}
