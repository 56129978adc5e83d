package people_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccInvitations_example applies the data source's example as an
// administrator: the seeded e-mail invitations by address and the seeded
// link, which never expires, by id; no link is in the state.
func TestAccInvitations_example(t *testing.T) {
	srv := acctest.NewServer(t)
	var seededLink string
	srv.Do(func(r *refserver.Realm) {
		for _, inv := range r.Invites {
			if inv.Multiuse {
				seededLink = inv.Key
			}
		}
	})
	acctest.ParallelTest(t, resource.TestCase{Steps: []resource.TestStep{
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+acctest.ReadExample(t, "examples/data-sources/zulip_invitations/data-source.tf")).Clean().State(
			statecheck.ExpectKnownOutputValue("invited_addresses", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringExact("newbie@example.org"), knownvalue.StringExact("new.moderator@example.org")})),
			statecheck.ExpectKnownOutputValue("links_that_never_expire", knownvalue.ListExact([]knownvalue.Check{knownvalue.Int64Exact(1)})),
			acctest.Value("data.zulip_invitations.pending", "invitations", knownvalue.ListPartial(map[int]knownvalue.Check{
				1: knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id": knownvalue.Int64Exact(2), "kind": knownvalue.StringExact("email"), "is_multiuse": knownvalue.Bool(false),
					"email": knownvalue.StringExact("new.moderator@example.org"), "invited_as": knownvalue.StringExact("moderator"),
					"invited_by": knownvalue.Int64Exact(refserver.SeedAdminID), "invited_at": knownvalue.StringRegexp(acctest.RFC3339),
					"expiry_date": knownvalue.Null()}),
				2: knownvalue.ObjectPartial(map[string]knownvalue.Check{"kind": knownvalue.StringExact("link"), "email": knownvalue.Null(),
					"invited_as": knownvalue.StringExact("member"), "invited_by": knownvalue.Int64Exact(refserver.SeedOwnerID)}),
			})),
			acctest.SecretAbsent{Secret: seededLink, What: "the seeded link's key"},
		).Step(),
	}})
}

// TestAccInvitations_readOnce: a guest may not list invitations; a member lists only their own invitations; a
// link the same configuration makes is listed with its expiry; and the plan
// of two data sources and the link reads the invitations once.
func TestAccInvitations_readOnce(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	twice := `
data "zulip_invitations" "a" {}
data "zulip_invitations" "b" {}
`
	withLink := admin + twice + inviteLinkConfig(`expires_in_minutes = 60`) + `
data "zulip_invitations" "after" {
  depends_on = [zulip_invite_link.test]
}
`
	acctest.ParallelTest(t, resource.TestCase{Steps: []resource.TestStep{
		acctest.PlanFails(srv.ProviderConfig(t, refserver.SeedGuestID)+twice, "Unable to Read Invitations", "Not allowed for guest users"),
		acctest.Apply(member + twice).State(
			acctest.Value("data.zulip_invitations.a", "invitations", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.ObjectPartial(map[string]knownvalue.Check{"email": knownvalue.StringExact("newbie@example.org"),
					"invited_by": knownvalue.Int64Exact(refserver.SeedMemberID)})})),
		).Step(),
		acctest.Apply(withLink).State(
			acctest.Value("data.zulip_invitations.after", "invitations", knownvalue.ListPartial(map[int]knownvalue.Check{
				3: knownvalue.ObjectPartial(map[string]knownvalue.Check{"kind": knownvalue.StringExact("link"),
					"invited_by": knownvalue.Int64Exact(refserver.SeedAdminID), "expiry_date": knownvalue.StringRegexp(acctest.RFC3339)})})),
		).Step(),
		{PreConfig: srv.ResetRequests, Config: withLink, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectEmptyPlan(),
			acctest.RequestCountAtMost{Server: srv, Method: "GET", Path: "/api/v1/invites", Max: 1, Resources: 4},
		}}},
	}})
}
