package realm_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// linkifierPatterns lists the server's linkifiers in processing order.
func linkifierPatterns(srv *acctest.Server) string {
	var out []string
	srv.Do(func(r *refserver.Realm) {
		for _, l := range r.Linkifiers {
			out = append(out, l.Pattern)
		}
	})
	return fmt.Sprint(out)
}

// linkifiersInOrder checks that the server's linkifiers, in processing
// order, have the patterns want (as linkifierPatterns writes them).
func linkifiersInOrder(srv *acctest.Server, want string) func() error {
	return func() error {
		if got := linkifierPatterns(srv); got != want {
			return fmt.Errorf("order on the server: %s, want %s", got, want)
		}
		return nil
	}
}

// testAccLinkifierPair is two linkifiers whose patterns overlap, in an
// organization that has no others.
const testAccLinkifierPair = `
resource "zulip_linkifier" "tickets" {
  pattern      = "#(?P<id>[0-9]+)"
  url_template = "https://tickets.example.com/{id}"
}

resource "zulip_linkifier" "incidents" {
  pattern      = "#(?P<id>9[0-9]+)"
  url_template = "https://incidents.example.com/{id}"
}
`

// TestAccLinkifierOrder_lifecycle: the order is set, planned empty, imported,
// and put back after an out-of-band reorder.
func TestAccLinkifierOrder_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) { r.Linkifiers = nil })
	order := func(list string) string {
		return srv.ProviderConfig(t, refserver.SeedAdminID) + testAccLinkifierPair +
			fmt.Sprintf("resource \"zulip_linkifier_order\" \"test\" {\n  linkifiers = %s\n}\n", list)
	}
	incidentsFirst := "[#(?P<id>9[0-9]+) #(?P<id>[0-9]+)]"
	addr := "zulip_linkifier_order.test"
	acctest.ParallelSteps(t,
		acctest.Apply(order("[zulip_linkifier.incidents.id, zulip_linkifier.tickets.id]")).Clean().OnServer(linkifiersInOrder(srv, incidentsFirst)).Step(),
		acctest.ImportVerify(addr, "linkifiers"),
		acctest.Apply(order("[zulip_linkifier.incidents.id, zulip_linkifier.tickets.id]")).OutOfBand(srv, func(r *refserver.Realm) {
			r.Linkifiers[0], r.Linkifiers[1] = r.Linkifiers[1], r.Linkifiers[0]
		}).Planned(addr, plancheck.ResourceActionUpdate).OnServer(linkifiersInOrder(srv, incidentsFirst)).Step(),
	)
}

// TestAccLinkifierOrder_validation: an order that lacks a linkifier, or names
// an id no linkifier has, fails at plan naming them; a member is refused.
func TestAccLinkifierOrder_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	var first, second int
	srv.Do(func(r *refserver.Realm) {
		for _, p := range []string{"A-(?P<id>[0-9]+)", "B-(?P<id>[0-9]+)"} {
			r.NextID["linkifier"]++
			r.Linkifiers = append(r.Linkifiers, &refserver.Linkifier{ID: r.NextID["linkifier"], Pattern: p, URLTemplate: "https://x.example/{id}"})
		}
		r.Linkifiers = r.Linkifiers[len(r.Linkifiers)-2:]
		first, second = r.Linkifiers[0].ID, r.Linkifiers[1].ID
	})
	step := func(user int, list string, want ...string) resource.TestStep {
		return acctest.PlanFails(srv.ProviderConfig(t, user)+fmt.Sprintf("resource \"zulip_linkifier_order\" \"x\" {\n  linkifiers = %s\n}\n", list), want...)
	}
	acctest.ParallelSteps(t,
		step(refserver.SeedAdminID, fmt.Sprintf("[%d, 999]", first), "Incomplete Linkifier Order", fmt.Sprintf("(id %d)", second), "ids 999"),
		step(refserver.SeedMemberID, fmt.Sprintf("[%d, %d]", second, first), "Insufficient Role", "administrator"),
	)
}

// TestAccLinkifierOrder_example applies the documentation's example.
func TestAccLinkifierOrder_example(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) { r.Linkifiers = nil })
	acctest.ParallelSteps(t,
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+acctest.ReadExample(t, "examples/resources/zulip_linkifier_order/resource.tf")).
			Clean().OnServer(linkifiersInOrder(srv, "[#(?P<id>9[0-9]+) #(?P<id>[0-9]+)]")).Step(),
	)
}

// TestAccLinkifierOrder_generatedConfig: the generated configuration of the
// imported order is accepted as it is.
func TestAccLinkifierOrder_generatedConfig(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: acctest.GeneratedConfigSteps(srv.ProviderConfig(t, refserver.SeedAdminID), "", "zulip_linkifier_order.test", "linkifiers"),
	})
}

// TestAccLinkifierOrder_newInSameApply: an order already applied names a
// linkifier the same apply creates (its id unknown at plan); one apply
// creates it and orders it, and the next plan is empty.
func TestAccLinkifierOrder_newInSameApply(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) { r.Linkifiers = nil })
	extra := `
resource "zulip_linkifier" "new" {
  pattern      = "#(?P<id>99[0-9]+)"
  url_template = "https://new.example.com/{id}"
}
`
	order := func(more, list string) string {
		return srv.ProviderConfig(t, refserver.SeedAdminID) + testAccLinkifierPair + more +
			fmt.Sprintf("resource \"zulip_linkifier_order\" \"test\" {\n  linkifiers = %s\n}\n", list)
	}
	acctest.ParallelSteps(t,
		resource.TestStep{Config: order("", "[zulip_linkifier.incidents.id, zulip_linkifier.tickets.id]")},
		acctest.Apply(order(extra, "[zulip_linkifier.new.id, zulip_linkifier.incidents.id, zulip_linkifier.tickets.id]")).Clean().
			OnServer(linkifiersInOrder(srv, "[#(?P<id>99[0-9]+) #(?P<id>9[0-9]+) #(?P<id>[0-9]+)]")).Step(),
	)
}

// TestAccLinkifierOrder_lacksWithNewLinkifiers: an order naming only
// linkifiers the same apply creates, in an organization that has another (the
// seeded one), fails at plan naming it, before anything is created; a new
// order naming it too plans, applies and then plans empty.
func TestAccLinkifierOrder_lacksWithNewLinkifiers(t *testing.T) {
	srv := acctest.NewServer(t)
	var seeded int
	srv.Do(func(r *refserver.Realm) {
		r.Linkifiers[0].Pattern = "ZUL-(?P<id>[0-9]+)"
		seeded = r.Linkifiers[0].ID
	})
	order := func(list string) string {
		return srv.ProviderConfig(t, refserver.SeedAdminID) + testAccLinkifierPair +
			fmt.Sprintf("resource \"zulip_linkifier_order\" \"test\" {\n  linkifiers = %s\n}\n", list)
	}
	acctest.ParallelSteps(t,
		acctest.PlanFails(order("[zulip_linkifier.incidents.id, zulip_linkifier.tickets.id]"),
			"Incomplete Linkifier Order", fmt.Sprintf("(id %d)", seeded), "this apply creates"),
		acctest.PlanFails(order("[zulip_linkifier.incidents.id, 999, zulip_linkifier.tickets.id]"), "Incomplete Linkifier Order", "ids 999"),
		acctest.Apply(order(fmt.Sprintf("[zulip_linkifier.incidents.id, zulip_linkifier.tickets.id, %d]", seeded))).Clean().
			OnServer(linkifiersInOrder(srv, "[#(?P<id>9[0-9]+) #(?P<id>[0-9]+) ZUL-(?P<id>[0-9]+)]")).Step(),
	)
}
