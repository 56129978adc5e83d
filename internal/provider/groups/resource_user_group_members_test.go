package groups_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// groupMembersOnServer checks a group's direct members and subgroups.
func groupMembersOnServer(srv *acctest.Server, id int, members, subgroups []int) func() error {
	return func() error {
		var g refserver.UserGroup
		srv.Do(func(r *refserver.Realm) { g = *r.Groups[id] })
		m, s := slices.Sorted(slices.Values(g.Members)), slices.Sorted(slices.Values(g.DirectSubgroupIDs))
		if !slices.Equal(m, members) || !slices.Equal(s, subgroups) {
			return fmt.Errorf("group %d on the server: members %v, subgroups %v; want %v, %v", id, m, s, members, subgroups)
		}
		return nil
	}
}

func testAccGroupMembersConfig(members, extra string) string {
	return fmt.Sprintf("resource \"zulip_user_group_members\" \"test\" {\n  group_id = %d\n  members  = %s\n%s}\n", refserver.GroupFrontend, members, extra)
}

func TestAccUserGroupMembers_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	addr := "zulip_user_group_members.test"
	frontend := refserver.GroupFrontend
	eleven := owner + testAccGroupMembersConfig("[11]", "")
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			// The seeded member 6 is removed, 5 and 11 added; subgroups set.
			acctest.Apply(owner + testAccGroupMembersConfig("[5, 11]", "  subgroups = [\"backend\"]\n")).Clean().
				OnServer(groupMembersOnServer(srv, frontend, []int{5, 11}, []int{refserver.GroupBackend})).Step(),
			acctest.ImportVerify(addr, "frontend"),
			// Subgroups left out: no longer managed, kept as they are.
			acctest.Apply(eleven).Planned(addr, plancheck.ResourceActionUpdate).Clean().
				State(acctest.Value(addr, "subgroups", knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("backend")}))).
				OnServer(groupMembersOnServer(srv, frontend, []int{11}, []int{refserver.GroupBackend})).Step(),
			// Someone added outside Terraform is removed again.
			acctest.Apply(eleven).OutOfBand(srv, func(r *refserver.Realm) { r.Groups[frontend].Members = append(r.Groups[frontend].Members, 4) }).
				Planned(addr, plancheck.ResourceActionUpdate).OnServer(groupMembersOnServer(srv, frontend, []int{11}, []int{refserver.GroupBackend})).Step(),
			{
				// The group deactivated outside Terraform: the resource is gone from
				// state; reactivated, the next apply sets the members again.
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) { r.Groups[frontend].Deactivated = true })
				},
				Config:             eleven,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			acctest.Apply(eleven).OutOfBand(srv, func(r *refserver.Realm) {
				r.Groups[frontend].Deactivated = false
				r.Groups[frontend].Members = []int{6}
			}).OnServer(groupMembersOnServer(srv, frontend, []int{11}, []int{refserver.GroupBackend})).Step(),
			// Destroy removes what the resource manages.
			acctest.Apply(owner).OnServer(groupMembersOnServer(srv, frontend, []int{}, []int{})).Step(),
		},
	})
}

func TestAccUserGroupMembers_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	step := acctest.PlanFailsAs(owner)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			step(testAccGroupMembersConfig("[5, 999]", ""), "Unknown User", "999"),
			step(testAccGroupMembersConfig("[5]", "  subgroups = [\"nope\"]\n"), "Unknown User Group", `"nope"`),
			step(`resource "zulip_user_group_members" "test" {
  group_id = 5
  members  = []
}
`, "system group"),
		},
	})
}

// TestAccUserGroupMembers_bothKinds: an authoritative and an additive
// resource for one group warn at plan.
func TestAccUserGroupMembers_bothKinds(t *testing.T) {
	srv := acctest.NewServer(t)
	rec := &acctest.DiagRecorder{}
	acctest.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{
			acctest.PlanWarns(srv.ProviderConfig(t, refserver.SeedOwnerID)+testAccGroupMembersConfig("[5]", "")+fmt.Sprintf(`
resource "zulip_user_group_membership" "test" {
  group_id = %d
  user_id  = 11
}
`, refserver.GroupFrontend), rec, "Group Managed Twice"),
		},
	})
	if err := rec.Has("Group Managed Twice"); err != nil {
		t.Error(err)
	}
}

func TestAccUserGroupMembers_generatedConfig(t *testing.T) {
	acctest.GeneratedConfigTest(t, refserver.SeedOwnerID, nil, "zulip_user_group_members.test", "leads")
}

func TestAccUserGroupMembership_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	addr := "zulip_user_group_membership.test"
	frontend := refserver.GroupFrontend
	cfg := owner + fmt.Sprintf("resource \"zulip_user_group_membership\" \"test\" {\n  group_id = %d\n  user_id  = 11\n}\n", frontend)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			// The seeded member stays: the resource is additive.
			acctest.Apply(cfg).Clean().State(acctest.Value(addr, "id", knownvalue.StringExact(fmt.Sprintf("%d:11", frontend)))).
				OnServer(groupMembersOnServer(srv, frontend, []int{6, 11}, []int{})).Step(),
			acctest.ImportVerify(addr, "frontend:11"),
			// Removed outside Terraform: added again.
			acctest.Apply(cfg).OutOfBand(srv, func(r *refserver.Realm) { r.Groups[frontend].Members = []int{6} }).
				Planned(addr, plancheck.ResourceActionCreate).OnServer(groupMembersOnServer(srv, frontend, []int{6, 11}, []int{})).Step(),
			// Destroy removes this user only.
			acctest.Apply(owner).OnServer(groupMembersOnServer(srv, frontend, []int{6}, []int{})).Step(),
			// A member already (added by someone else, or by an attempt whose
			// answer was lost): adopted, not refused.
			acctest.Apply(cfg).OutOfBand(srv, func(r *refserver.Realm) { r.Groups[frontend].Members = []int{6, 11} }).
				OnServer(groupMembersOnServer(srv, frontend, []int{6, 11}, []int{})).Step(),
		},
	})
}

func TestAccUserGroupMembership_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.PlanFailsWith(owner+"resource \"zulip_user_group_membership\" \"x\" {\n  group_id = 10\n  user_id  = 10\n}\n",
				acctest.ExpectErr("Unknown User", "10")),
			acctest.ImportFails(owner+"resource \"zulip_user_group_membership\" \"x\" {\n  group_id = 10\n  user_id  = 6\n}\n",
				"zulip_user_group_membership.x", "frontend", acctest.ExpectErr("Invalid Import ID", "<group name or id>:<user id>")),
		},
	})
}

func TestAccUserGroupMembership_example(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(srv.ProviderConfig(t, refserver.SeedOwnerID) + acctest.ReadExample(t, "examples/resources/zulip_user_group_membership/resource.tf")).
				Vars(config.Variables{"ann_id": config.IntegerVariable(refserver.SeedMember2ID)}).Clean().
				OnServer(groupMembersOnServer(srv, refserver.GroupBackend, []int{5, 6, 11}, []int{})).Step(),
		},
	})
}

func TestAccUserGroupMembership_generatedConfig(t *testing.T) {
	acctest.GeneratedConfigTest(t, refserver.SeedOwnerID, nil, "zulip_user_group_membership.test", "backend:11")
}
