package groups_test

import (
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccUserGroupDataSource reads a custom group (its anonymous can_manage_group
// in the permission shape, its subgroup by name), a system group by name, a
// deactivated group by id, and fails on a name nobody has.
func TestAccUserGroupDataSource(t *testing.T) {
	srv := acctest.NewServer(t)
	cfg := srv.ProviderConfig(t, refserver.SeedAdminID)
	leads, members, retired := "data.zulip_user_group.leads", "data.zulip_user_group.members", "data.zulip_user_group.retired"
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      cfg + `data "zulip_user_group" "x" { name = "no-such-group" }`,
				ExpectError: acctest.ExpectErr("User Group Not Found", `no user group named "no-such-group"`),
			},
			{
				Config:      cfg + `data "zulip_user_group" "x" {}`,
				ExpectError: acctest.ExpectErr("Missing Attribute Configuration"),
			},
			{
				// The documentation's example.
				Config: cfg + acctest.ReadExample(t, "examples/data-sources/zulip_user_group/data-source.tf"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("leads_managers", knownvalue.ObjectExact(map[string]knownvalue.Check{
						"groups": knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("role:administrators")}),
						"users":  knownvalue.SetExact([]knownvalue.Check{knownvalue.Int64Exact(refserver.SeedOwnerID)}),
					})),
				},
			},
			{
				Config: cfg + `
data "zulip_user_group" "leads" {
  name = "leads"
}
data "zulip_user_group" "members" {
  name = "role:members"
}
data "zulip_user_group" "retired" {
  id = ` + strconv.Itoa(refserver.GroupRetired) + `
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(leads, tfjsonpath.New("id"), knownvalue.Int64Exact(int64(refserver.GroupLeads))),
					statecheck.ExpectKnownValue(leads, tfjsonpath.New("members"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.Int64Exact(refserver.SeedOwnerID)})),
					statecheck.ExpectKnownValue(leads, tfjsonpath.New("subgroups"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("backend")})),
					statecheck.ExpectKnownValue(leads, tfjsonpath.New("can_manage_group"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"groups": knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("role:administrators")}),
						"users":  knownvalue.SetExact([]knownvalue.Check{knownvalue.Int64Exact(refserver.SeedOwnerID)}),
					})),
					// A named group reads as that one group and no users.
					statecheck.ExpectKnownValue(leads, tfjsonpath.New("can_join_group"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"groups": knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("role:nobody")}),
						"users":  knownvalue.SetExact([]knownvalue.Check{}),
					})),
					statecheck.ExpectKnownValue(members, tfjsonpath.New("is_system_group"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(members, tfjsonpath.New("subgroups"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("role:fullmembers")})),
					statecheck.ExpectKnownValue(retired, tfjsonpath.New("name"), knownvalue.StringExact("retired-team")),
					statecheck.ExpectKnownValue(retired, tfjsonpath.New("deactivated"), knownvalue.Bool(true)),
				},
			},
		},
	})
}
