package provider_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// scaleGroup and scaleChannel find a group or channel by name.
func scaleGroup(r *refserver.Realm, name string) *refserver.UserGroup {
	for _, g := range r.Groups {
		if g.Name == name {
			return g
		}
	}
	return nil
}

func scaleChannel(r *refserver.Realm, name string) *refserver.Channel {
	for _, c := range r.Channels {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// TestAccRealm_scale: the organization applies from empty, plans empty,
// survives an out-of-band change of each kind, imports back from an empty
// state, and destroys cleanly (channels archived, groups deactivated).
func TestAccRealm_scale(t *testing.T) {
	if testing.Short() {
		t.Skip("the scale test applies 140 resources")
	}
	srv := acctest.NewServer(t)
	srv.Do(acctest.ScaleRealmSeed)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	cfg := owner + acctest.ScaleRealmConfig(false)
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: cfg, ConfigPlanChecks: empty},
			{
				// One out-of-band change of each kind; the next apply undoes them all.
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) {
						scaleGroup(r, "team-03").Description = "changed"
						scaleGroup(r, "team-05").Settings["can_manage_group"] = refserver.GroupSetting{GroupID: refserver.GroupNobody}
						g := scaleGroup(r, "team-07")
						g.Members = append(g.Members, refserver.SeedMemberID)
						scaleGroup(r, "team-09").DirectSubgroupIDs = []int{}
						scaleGroup(r, "team-11").Deactivated = true
						c := scaleChannel(r, "project-04")
						c.Name = "renamed-04"
						scaleChannel(r, "project-06").GroupSettings["can_send_message_group"] = refserver.GroupSetting{GroupID: refserver.GroupEveryone}
						delete(scaleChannel(r, "project-08").Subscribers, acctest.ScaleFirstUserID+56)
						scaleChannel(r, "project-10").Subscribers[refserver.SeedMemberID] = 0
						scaleChannel(r, "project-12").IsArchived = true
					})
				},
				Config:           cfg,
				ConfigPlanChecks: empty,
				Check: func(*terraform.State) error {
					var problems []string
					srv.Do(func(r *refserver.Realm) {
						if g := scaleGroup(r, "team-11"); g.Deactivated {
							problems = append(problems, "team-11 still deactivated")
						}
						if c := scaleChannel(r, "project-04"); c == nil {
							problems = append(problems, "project-04 not renamed back")
						}
						if c := scaleChannel(r, "project-12"); c.IsArchived {
							problems = append(problems, "project-12 still archived")
						}
						if _, ok := scaleChannel(r, "project-10").Subscribers[refserver.SeedMemberID]; ok {
							problems = append(problems, "project-10 keeps an extra subscriber")
						}
					})
					if len(problems) > 0 {
						return fmt.Errorf("after the apply: %s", strings.Join(problems, "; "))
					}
					return nil
				},
			},
		},
		CheckDestroy: func(*terraform.State) error {
			var problems []string
			srv.Do(func(r *refserver.Realm) {
				for g := range acctest.ScaleGroups {
					if x := scaleGroup(r, fmt.Sprintf("team-%02d", g)); x == nil || !x.Deactivated {
						problems = append(problems, fmt.Sprintf("team-%02d not deactivated", g))
					}
				}
				for c := range acctest.ScaleChannels {
					if x := scaleChannel(r, fmt.Sprintf("project-%02d", c)); x == nil || !x.IsArchived {
						problems = append(problems, fmt.Sprintf("project-%02d not archived", c))
					}
				}
			})
			if len(problems) > 0 {
				return fmt.Errorf("after destroy: %s", strings.Join(problems, "; "))
			}
			return nil
		},
	})
}

// scaleRemoved forgets every resource of the configuration without
// destroying it (removed blocks, Terraform 1.7 or newer).
func scaleRemoved() string {
	var b strings.Builder
	forget := func(addr string) {
		fmt.Fprintf(&b, "removed {\n  from = %s\n  lifecycle {\n    destroy = false\n  }\n}\n", addr)
	}
	for g := range acctest.ScaleGroups {
		forget(fmt.Sprintf("zulip_user_group.g%d", g))
		forget(fmt.Sprintf("zulip_user_group_members.g%d", g))
	}
	for c := range acctest.ScaleChannels {
		forget(fmt.Sprintf("zulip_channel.c%d", c))
		forget(fmt.Sprintf("zulip_channel_subscribers.c%d", c))
	}
	return b.String()
}

// TestAccRealm_scaleImport: the organization, made and then forgotten by
// Terraform, is adopted from an empty state by import blocks: the plan only
// imports, and the next plan is empty.
func TestAccRealm_scaleImport(t *testing.T) {
	if testing.Short() {
		t.Skip("the scale test imports 140 resources")
	}
	srv := acctest.NewServer(t)
	srv.Do(acctest.ScaleRealmSeed)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	acctest.Test(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_7_0)},
		Steps: []resource.TestStep{
			{Config: owner + acctest.ScaleRealmConfig(false)},
			{Config: owner + scaleRemoved()},
			{
				Config: owner + acctest.ScaleRealmConfig(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{acctest.ExpectOnlyImports()},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}
