package groups_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/groups"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// contract is the area's test contract (acctest.Contract).
var contract = acctest.Contract{Area: groups.Area(), Types: map[string]acctest.TypeContract{
	"zulip_user_group": {Name: "UserGroup", Scale: &acctest.ScaleCase{User: refserver.SeedOwnerID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_user_group\" \"many%d\" {\n  name        = \"many-%d\"\n  description = \"\"\n}\n", i, i)
	}}, Kit: &acctest.KitCase{
		User:   refserver.SeedOwnerID,
		Config: "resource \"zulip_user_group\" \"test\" {\n  name        = \"kit-group\"\n  description = \"Made by the kit's tests.\"\n}\n", ImportID: "kit-group",
		Create: "POST /api/v1/user_groups/create", List: "GET /api/v1/user_groups",
		Count: func(r *refserver.Realm) int {
			return acctest.CountInMap(r.Groups, func(g *refserver.UserGroup) bool {
				return g.Name == "kit-group" && g.Description == "Made by the kit's tests." && !g.Deactivated
			})
		},
		Twin:     func(r *refserver.Realm) { acctest.AddGroup(r, "kit-group", "Made by the kit's tests.") },
		Stranger: func(r *refserver.Realm) { acctest.AddGroup(r, "kit-group", "Someone else's group.") },
	}, Renamed: &acctest.RenamedCase{
		Name: "ren-team",
		Config: `
resource "zulip_user_group" "ref" {
  name        = "ren-team"
  description = "Ships releases"
}

resource "zulip_channel" "referrer" {
  name                   = "ren-releases"
  description            = ""
  can_send_message_group = { groups = [zulip_user_group.ref.name] }
}
`,
		Referrer: "zulip_channel.referrer", At: tfjsonpath.New("can_send_message_group"), Want: acctest.PermissionOf([]string{"ren-team"}),
		Rename: acctest.RenameIn(func(r *refserver.Realm) map[int]*refserver.UserGroup { return r.Groups },
			func(g *refserver.UserGroup) *string { return &g.Name }),
	}, Import: &acctest.ImportCase{User: refserver.SeedOwnerID, Config: `
resource "zulip_user_group" "backend" {
  name        = "backend"
  description = "Backend engineers"
}`, Setup: func(r *refserver.Realm) {
		// The seeded backend group is in use, which would refuse the
		// test's final destroy: an unused one takes its name.
		r.Groups[refserver.GroupBackend].Name = "backend-seeded"
		acctest.AddGroup(r, "backend", "Backend engineers")
	}}, Example: &acctest.ExampleCase{User: refserver.SeedOwnerID,
		// The example's names are new in this organization; a group named in a
		// permission before it exists is known to the plan through the reference.
		Setup: func(r *refserver.Realm) {
			r.Groups[refserver.GroupBackend].Name = "backend-old"
			r.Groups[refserver.GroupLeads].Name = "leads-old"
		},
		Vars:   config.Variables{"head_of_engineering_id": config.IntegerVariable(refserver.SeedMemberID)},
		Checks: []statecheck.StateCheck{acctest.Value("zulip_user_group.backend", "can_manage_group", acctest.PermissionOf([]string{"leads"}))},
	}},
	"zulip_user_group_members": {Name: "UserGroupMembers", Scale: &acctest.ScaleCase{User: refserver.SeedOwnerID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_user_group\" \"members%d\" {\n  name        = \"members-%d\"\n  description = \"\"\n}\nresource \"zulip_user_group_members\" \"many%d\" {\n  group_id = zulip_user_group.members%d.id\n  members  = [5, 11]\n}\n", i, i, i, i)
	}}, HalfExempt: "one request for the difference (POST /user_groups/{id}/members)",
		Import: &acctest.ImportCase{User: refserver.SeedOwnerID, Config: `
resource "zulip_user_group_members" "backend" {
  group_id  = 9
  members   = [5, 11]
  subgroups = []
}`}, Example: &acctest.ExampleCase{User: refserver.SeedOwnerID, Vars: config.Variables{
			"primary_id": config.IntegerVariable(refserver.SeedMemberID), "secondary_id": config.IntegerVariable(refserver.SeedMember3ID),
		}, Checks: []statecheck.StateCheck{acctest.Value("zulip_user_group_members.oncall", "members", knownvalue.SetExact([]knownvalue.Check{
			knownvalue.Int64Exact(refserver.SeedMemberID), knownvalue.Int64Exact(refserver.SeedMember3ID)}))}}},
	"zulip_user_group_membership": {Name: "UserGroupMembership", Scale: &acctest.ScaleCase{User: refserver.SeedOwnerID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_user_group\" \"membership%d\" {\n  name        = \"membership-%d\"\n  description = \"\"\n}\nresource \"zulip_user_group_membership\" \"many%d\" {\n  group_id = zulip_user_group.membership%d.id\n  user_id  = 11\n}\n", i, i, i, i)
	}}, HalfExempt: "one request (POST /user_groups/{id}/members)",
		Import: &acctest.ImportCase{User: refserver.SeedOwnerID, Config: `
resource "zulip_user_group_membership" "mia_in_backend" {
  group_id = 9
  user_id  = 11
}`, Apart: "it manages a member of the group that zulip_user_group_members' example manages wholly"}},
}, DataSources: map[string]acctest.DataContract{
	"zulip_user_groups": {Scale: acctest.DataBlocks(refserver.SeedOwnerID, "zulip_user_groups", "")},
	"zulip_user_group":  {Scale: acctest.DataBlocks(refserver.SeedOwnerID, "zulip_user_group", "  name = \"backend\"\n")},
}}

func TestContract(t *testing.T)              { contract.Check(t) }
func TestAccContract(t *testing.T)           { contract.Run(t) }
func TestAccContract_versioned(t *testing.T) { contract.RunVersioned(t) }
