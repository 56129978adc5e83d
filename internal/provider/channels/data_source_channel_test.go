package channels_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccChannelDataSource reads a channel by name (the example), an archived
// one by id, and fails on a name nobody has.
func TestAccChannelDataSource(t *testing.T) {
	srv := acctest.NewServer(t)
	cfg := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:      cfg + `data "zulip_channel" "x" { name = "nope" }`,
				ExpectError: acctest.ExpectErr("Channel Not Found"),
			},
			{
				Config: cfg + acctest.ReadExample(t, "examples/data-sources/zulip_channel/data-source.tf") + `
data "zulip_channel" "archived" {
  id = 5
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("general_channel_id", knownvalue.Int64Exact(refserver.SeedChannelGeneral)),
					statecheck.ExpectKnownOutputValue("general_posters", acctest.PermissionOf([]string{"role:everyone"})),
					statecheck.ExpectKnownValue("data.zulip_channel.archived", tfjsonpath.New("is_archived"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.zulip_channel.archived", tfjsonpath.New("name"), knownvalue.StringExact("old-projects")),
					statecheck.ExpectKnownValue("data.zulip_channel.archived", tfjsonpath.New("subscribers"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.Int64Exact(refserver.SeedOwnerID), knownvalue.Int64Exact(refserver.SeedMemberID)})),
				},
			},
		},
	})
}
