package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// testAccChannelConfig is a zulip_channel "test" with extra attributes.
func testAccChannelConfig(name, description, extra string) string {
	return fmt.Sprintf("resource \"zulip_channel\" \"test\" {\n  name        = %q\n  description = %q\n%s}\n", name, description, extra)
}

// testAccAddChannel adds a public channel behind the provider's back.
func testAccAddChannel(r *refserver.Realm, name, description string) *refserver.Channel {
	r.NextID["channel"]++
	id := r.NextID["channel"]
	ch := &refserver.Channel{ID: id, Name: name, Description: description, DateCreated: 1700000000, HistoryPublicToSubscribers: true,
		StreamPostPolicy: 1, TopicsPolicy: "inherit", GroupSettings: map[string]refserver.GroupSetting{}, Subscribers: map[int]int{}}
	r.Channels[id] = ch
	return ch
}

// channelByName finds a channel on the server.
func channelByName(srv *acctest.Server, name string) (ch refserver.Channel, ok bool) {
	srv.Do(func(r *refserver.Realm) {
		for _, c := range r.Channels {
			if c.Name == name {
				ch, ok = *c, true
			}
		}
	})
	return ch, ok
}

func TestAccChannel_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	addr := "zulip_channel.test"
	perms := `  can_send_message_group = { groups = ["backend"], users = [1] }
`
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: admin + testAccChannelConfig("ops", "Operations", perms),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("privacy"), knownvalue.StringExact("public")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("history_public_to_subscribers"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("message_retention_days"), knownvalue.StringExact("realm_default")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("can_send_message_group"), permissionOf([]string{"backend"}, 1)),
					// Not configured: Zulip's defaults (the creator administers it).
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("can_administer_channel_group"), permissionOf(nil, refserver.SeedAdminID)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: "OPS", ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"announce"}},
			{
				// Renamed, made private (history follows), a permission changed.
				Config: admin + testAccChannelConfig("operations", "Operations", `  privacy = "private"
  can_send_message_group = { groups = ["role:members"] }
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("history_public_to_subscribers"), knownvalue.Bool(false)),
				},
				Check: func(*terraform.State) error {
					if c, ok := channelByName(srv, "operations"); !ok || !c.InviteOnly || c.HistoryPublicToSubscribers {
						return fmt.Errorf("on the server: %+v", c)
					}
					return nil
				},
			},
			{
				// Changed outside Terraform: put back.
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) {
						for _, c := range r.Channels {
							if c.Name == "operations" {
								c.Description = "changed"
								c.GroupSettings["can_send_message_group"] = refserver.GroupSetting{GroupID: refserver.GroupNobody}
							}
						}
					})
				},
				Config: admin + testAccChannelConfig("operations", "Operations", `  privacy = "private"
  can_send_message_group = { groups = ["role:members"] }
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// Archived outside Terraform: declared again, it is unarchived.
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) {
						for _, c := range r.Channels {
							if c.Name == "operations" {
								c.IsArchived = true
							}
						}
					})
				},
				Config: admin + testAccChannelConfig("operations", "Operations", `  privacy = "private"
  can_send_message_group = { groups = ["role:members"] }
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					if c, _ := channelByName(srv, "operations"); c.IsArchived {
						return fmt.Errorf("not unarchived: %+v", c)
					}
					return nil
				},
			},
			{
				// Destroy archives.
				Config: admin,
				Check: func(*terraform.State) error {
					if c, ok := channelByName(srv, "operations"); !ok || !c.IsArchived {
						return fmt.Errorf("destroy did not archive: %+v", c)
					}
					return nil
				},
			},
		},
	})
}

func TestAccChannel_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	step := func(hcl string, want ...string) resource.TestStep {
		return resource.TestStep{Config: admin + hcl, PlanOnly: true, ExpectError: expectErr(want...)}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step(testAccChannelConfig("x", "", "  privacy = \"secret\"\n"), "privacy"),
			step(testAccChannelConfig("x", "", "  history_public_to_subscribers = false\n"), "Invalid Channel History"),
			step(testAccChannelConfig("x", "", "  message_retention_days = \"0\"\n"), "message_retention_days"),
			step(testAccChannelConfig("x", "", "  message_retention_days = \"30\"\n"), "Insufficient Role", "owner"),
			step(testAccChannelConfig(" x", "", ""), "whitespace"),
			step(testAccChannelConfig("x", "a\nb", ""), "one line"),
			step(testAccChannelConfig("x", "", "  can_subscribe_group = { groups = [\"nope\"] }\n"), "Unknown User Group"),
			step(testAccChannelConfig("GENERAL", "", ""), "Channel Already Exists", "import {"),
		},
	})
}

// TestAccChannel_serverTooOld: before POST /channels/create the resource is
// refused at plan, naming the level.
func TestAccChannel_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 400 })
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      srv.ProviderConfig(t, refserver.SeedAdminID) + testAccChannelConfig("x", "", ""),
			PlanOnly:    true,
			ExpectError: expectErr("Zulip Server Too Old", "417"),
		}},
	})
}

// TestAccChannel_example applies the documentation's example, whose channels
// name a group the same configuration creates.
func TestAccChannel_example(t *testing.T) {
	srv := acctest.NewServer(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { acctest.PreCheck(t) },
		ProtoV6ProviderFactories: acctest.ProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:           srv.ProviderConfig(t, refserver.SeedOwnerID) + readExample(t, "examples/resources/zulip_channel/resource.tf"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("zulip_channel.security", tfjsonpath.New("privacy"), knownvalue.StringExact("private")),
				statecheck.ExpectKnownValue("zulip_channel.releases", tfjsonpath.New("can_send_message_group"), permissionOf([]string{"release-managers"})),
			},
		}},
	})
}
