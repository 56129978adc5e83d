package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccIdentity_followsTheObject: a channel's identity is its name, stored
// at create, changed by a rename (Zulip renames in place), and still there on
// the refresh that finds the channel archived behind Terraform's back, which
// the next apply unarchives.
func TestAccIdentity_followsTheObject(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	named := func(name string) []statecheck.StateCheck {
		return []statecheck.StateCheck{statecheck.ExpectIdentity("zulip_channel.test", map[string]knownvalue.Check{
			"name": knownvalue.StringExact(name)})}
	}
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: acctest.IdentityVersions,
		Steps: []resource.TestStep{
			{Config: admin + acctest.ChannelConfig("ops", "Operations", ""), ConfigStateChecks: named("ops")},
			{Config: admin + acctest.ChannelConfig("operations", "Operations", ""), ConfigStateChecks: named("operations")},
			{
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) {
						for _, c := range r.Channels {
							if c.Name == "operations" {
								c.IsArchived = true
							}
						}
					})
				},
				Config:            admin + acctest.ChannelConfig("operations", "Operations", ""),
				ConfigStateChecks: named("operations"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("zulip_channel.test", plancheck.ResourceActionCreate)},
				},
			},
		},
	})
}
