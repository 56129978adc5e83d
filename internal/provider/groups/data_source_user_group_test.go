package groups_test

import (
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

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
			acctest.Apply(cfg + `data "zulip_user_group" "x" { name = "no-such-group" }`).
				Fails(acctest.ExpectErr("User Group Not Found", `no user group named "no-such-group"`)).Step(),
			acctest.Apply(cfg + `data "zulip_user_group" "x" {}`).Fails(acctest.ExpectErr("Missing Attribute Configuration")).Step(),
			// The documentation's example.
			acctest.Apply(cfg + acctest.ReadExample(t, "examples/data-sources/zulip_user_group/data-source.tf")).State(
				statecheck.ExpectKnownOutputValue("leads_managers", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"groups": knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("role:administrators")}),
					"users":  knownvalue.SetExact([]knownvalue.Check{knownvalue.Int64Exact(refserver.SeedOwnerID)}),
				})),
			).Step(),
			acctest.Apply(cfg+`
data "zulip_user_group" "leads" {
  name = "leads"
}
data "zulip_user_group" "members" {
  name = "role:members"
}
data "zulip_user_group" "retired" {
  id = `+strconv.Itoa(refserver.GroupRetired)+`
}
`).State(
				acctest.Value(leads, "id", knownvalue.Int64Exact(int64(refserver.GroupLeads))),
				acctest.Value(leads, "members", knownvalue.SetExact([]knownvalue.Check{
					knownvalue.Int64Exact(refserver.SeedOwnerID)})),
				acctest.Value(leads, "subgroups", knownvalue.SetExact([]knownvalue.Check{
					knownvalue.StringExact("backend")})),
				acctest.Value(leads, "can_manage_group", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"groups": knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("role:administrators")}),
					"users":  knownvalue.SetExact([]knownvalue.Check{knownvalue.Int64Exact(refserver.SeedOwnerID)}),
				})),
				// A named group reads as that one group and no users.
				acctest.Value(leads, "can_join_group", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"groups": knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("role:nobody")}),
					"users":  knownvalue.SetExact([]knownvalue.Check{}),
				})),
				acctest.Value(members, "is_system_group", knownvalue.Bool(true)),
				acctest.Value(members, "subgroups", knownvalue.SetExact([]knownvalue.Check{
					knownvalue.StringExact("role:fullmembers")})),
				acctest.Value(retired, "name", knownvalue.StringExact("retired-team")),
				acctest.Value(retired, "deactivated", knownvalue.Bool(true)),
			).Step(),
		},
	})
}
