package groups_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func TestAccUserGroup_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	addr := "zulip_user_group.test"
	managers := `  can_manage_group  = { groups = ["role:administrators", "leads"], users = [5] }
  can_mention_group = { groups = ["role:members"] }
`
	team := owner + acctest.UserGroupConfig("platform-team", "", `  can_manage_group = { groups = ["leads"] }
`)
	platformTeam := func(change func(r *refserver.Realm, g *refserver.UserGroup)) func(*refserver.Realm) {
		return func(r *refserver.Realm) {
			for _, g := range r.Groups {
				if g.Name == "platform-team" {
					change(r, g)
				}
			}
		}
	}
	diags := &acctest.DiagRecorder{}
	acctest.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: diags.Factories(),
		Steps: []resource.TestStep{
			acctest.Apply(owner+acctest.UserGroupConfig("platform", "The platform team", managers)).Clean().State(
				acctest.Value(addr, "can_manage_group", acctest.PermissionOf([]string{"role:administrators", "leads"}, 5)),
				acctest.Value(addr, "can_mention_group", acctest.PermissionOf([]string{"role:members"})),
				// Not configured: not in state; Zulip's defaults on the server.
				acctest.Value(addr, "can_join_group", knownvalue.Null()),
				acctest.Value(addr, "can_add_members_group", knownvalue.Null()),
				acctest.Value(addr, "creator_id", knownvalue.Int64Exact(refserver.SeedOwnerID)),
			).OnServer(func() error {
				g, ok := acctest.GroupByName(srv, "platform")
				if !ok || g.Description != "The platform team" || g.Deactivated {
					return fmt.Errorf("on the server: %+v", g)
				}
				if s := g.Settings["can_join_group"]; s.GroupID != refserver.GroupNobody {
					return fmt.Errorf("can_join_group on the server: %+v", s)
				}
				if s := g.Settings["can_add_members_group"]; !slices.Equal(s.DirectMembers, []int{refserver.SeedOwnerID}) {
					return fmt.Errorf("can_add_members_group on the server: %+v", s)
				}
				return nil
			}).Step(),
			// The import reads every permission; the configuration's plan is empty.
			acctest.ImportVerify(addr, "platform", acctest.PermissionsLeftOut(realmspec.GroupPermissions, "can_manage_group", "can_mention_group")...),
			// In place: renamed, a permission changed, another now unmanaged.
			acctest.Apply(team).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(
				acctest.Value(addr, "can_manage_group", acctest.PermissionOf([]string{"leads"})),
				acctest.Value(addr, "can_mention_group", acctest.PermissionOf([]string{"role:members"})),
			).Step(),
			// A managed permission changed outside Terraform is put back (the
			// update's old value is the refreshed one, so Zulip accepts it).
			acctest.Apply(team).OutOfBand(srv, platformTeam(func(_ *refserver.Realm, g *refserver.UserGroup) {
				g.Settings["can_manage_group"] = refserver.GroupSetting{DirectMembers: []int{refserver.SeedMemberID}}
			})).Planned(addr, plancheck.ResourceActionUpdate).OnServer(func() error {
				if g, _ := acctest.GroupByName(srv, "platform-team"); g.Settings["can_manage_group"].GroupID != refserver.GroupLeads {
					return fmt.Errorf("can_manage_group on the server: %+v", g.Settings["can_manage_group"])
				}
				return nil
			}).Step(),
			// Deactivated outside Terraform: the plan creates it again, which
			// reactivates the group of that name, and says so.
			acctest.Apply(team).OutOfBand(srv, platformTeam(func(_ *refserver.Realm, g *refserver.UserGroup) {
				g.Deactivated = true
			})).Planned(addr, plancheck.ResourceActionCreate).Plan(acctest.DiagCheck{Diags: diags,
				Pattern: `Deactivated User Group Will Be Reactivated: The organization has a deactivated user group named "platform-team"`,
			}).Clean().OnServer(func() error {
				if g, _ := acctest.GroupByName(srv, "platform-team"); g.Deactivated {
					return fmt.Errorf("not reactivated: %+v", g)
				}
				return nil
			}).Step(),
			// In use by a setting outside this configuration: destroy is
			// refused, naming the use.
			acctest.Apply(owner).OutOfBand(srv, platformTeam(func(r *refserver.Realm, g *refserver.UserGroup) {
				r.Groups[refserver.GroupFrontend].Settings["can_mention_group"] = refserver.GroupSetting{GroupID: g.ID}
			})).Fails(acctest.ExpectErr("User Group In Use", `user group "frontend"`, "can_mention_group")).Step(),
			acctest.Apply(owner).OutOfBand(srv, func(r *refserver.Realm) {
				r.Groups[refserver.GroupFrontend].Settings["can_mention_group"] = refserver.GroupSetting{GroupID: refserver.GroupEveryone}
			}).OnServer(func() error {
				if g, ok := acctest.GroupByName(srv, "platform-team"); !ok || !g.Deactivated {
					return fmt.Errorf("destroy did not deactivate the group: %+v", g)
				}
				return nil
			}).Step(),
		},
	})
}

// TestAccUserGroup_botKey: a provider configured with a generic bot's key
// (what administrators are told to use for Terraform) manages a group from
// feature level 496, when Zulip's group endpoints let bots in
// (require_non_guest_user); before it, Zulip refuses the bot.
func TestAccUserGroup_botKey(t *testing.T) {
	srv := acctest.NewServer(t)
	bot := srv.ProviderConfig(t, refserver.SeedBotID)
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 495 })
	addr := "zulip_user_group.test"
	botGroupMembers := func(name string, members, subgroups []int) func() error {
		return func() error {
			g, ok := acctest.GroupByName(srv, name)
			if !ok {
				return fmt.Errorf("the bot's group is not on the server")
			}
			return groupMembersOnServer(srv, g.ID, members, subgroups)()
		}
	}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(old.ProviderConfig(t, refserver.SeedBotID) + acctest.UserGroupConfig("bots-team", "Made by a bot", "")).
				Fails(acctest.ExpectErr("Unable to Read User Groups", "does not accept bot requests")).Step(),
			// Its members and subgroups too: adding a subgroup needs
			// can_add_members_group, which the creator holds.
			acctest.Apply(bot + acctest.UserGroupConfig("bots-team", "Made by a bot", `  can_mention_group = { groups = ["role:members"] }
`) + `resource "zulip_user_group_members" "test" {
  group_id  = zulip_user_group.test.id
  members   = [5]
  subgroups = ["frontend"]
}
`).State(
				acctest.Value(addr, "creator_id", knownvalue.Int64Exact(refserver.SeedBotID)),
			).Clean().OnServer(botGroupMembers("bots-team", []int{5}, []int{refserver.GroupFrontend})).OnServer(func() error {
				// The creator manages the group it made.
				g, _ := acctest.GroupByName(srv, "bots-team")
				if s := g.Settings["can_manage_group"]; !slices.Equal(s.DirectMembers, []int{refserver.SeedBotID}) {
					return fmt.Errorf("can_manage_group on the server: %+v", s)
				}
				return nil
			}).Step(),
			// Removing the subgroup needs can_manage_group, which it holds too.
			acctest.Apply(bot+acctest.UserGroupConfig("bots-team-2", "Renamed by a bot", `  can_mention_group = { groups = ["role:administrators"] }
`)+`resource "zulip_user_group_members" "test" {
  group_id  = zulip_user_group.test.id
  members   = [5, 11]
  subgroups = []
}
`).Planned(addr, plancheck.ResourceActionUpdate).Clean().OnServer(botGroupMembers("bots-team-2", []int{5, 11}, []int{})).Step(),
			acctest.Apply(bot).OnServer(func() error {
				if g, ok := acctest.GroupByName(srv, "bots-team-2"); !ok || !g.Deactivated || g.Description != "Renamed by a bot" {
					return fmt.Errorf("on the server after destroy: %+v", g)
				}
				return nil
			}).Step(),
		},
	})
}

func TestAccUserGroup_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	step := acctest.PlanFailsAs(owner)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			step(acctest.UserGroupConfig("role:x", "", ""), "Invalid User Group Name", "reserved for system groups"),
			step(acctest.UserGroupConfig("@x", "", ""), "Invalid User Group Name"),
			step(acctest.UserGroupConfig(strings.Repeat("g", 101), "", ""), "name", "101"),
			step(acctest.UserGroupConfig("x", "", "  can_join_group = { groups = [] }\n"), "Empty Permission", "role:nobody"),
			step(acctest.UserGroupConfig("x", "", "  can_join_group = { groups = [\"no-such-group\"] }\n"),
				"Unknown User Group", `"no-such-group"`),
			step(acctest.UserGroupConfig("x", "", "  can_join_group = { users = [10, 999] }\n"), "Unknown User", "10, 999"),
			step(acctest.UserGroupConfig("backend", "", ""), "User Group Already Exists", "import {"),
		},
	})
}

// TestAccUserGroup_serverTooOld: before feature level 317 the resource is
// refused at plan, naming the level.
func TestAccUserGroup_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 300 })
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.PlanFailsWith(srv.ProviderConfig(t, refserver.SeedOwnerID)+acctest.UserGroupConfig("x", "", ""),
				acctest.ExpectErr("Zulip Server Too Old", "317")),
		},
	})
}
