package channels_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

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
			acctest.Apply(cfg + `data "zulip_channel" "x" { name = "nope" }`).Fails(acctest.ExpectErr("Channel Not Found")).Step(),
			acctest.Apply(cfg+acctest.ReadExample(t, "examples/data-sources/zulip_channel/data-source.tf")+`
data "zulip_channel" "archived" {
  id = 5
}
`).State(
				statecheck.ExpectKnownOutputValue("general_channel_id", knownvalue.Int64Exact(refserver.SeedChannelGeneral)),
				statecheck.ExpectKnownOutputValue("general_posters", acctest.PermissionOf([]string{"role:everyone"})),
				acctest.Value("data.zulip_channel.archived", "is_archived", knownvalue.Bool(true)),
				acctest.Value("data.zulip_channel.archived", "name", knownvalue.StringExact("old-projects")),
				acctest.Value("data.zulip_channel.archived", "subscribers", knownvalue.SetExact([]knownvalue.Check{
					knownvalue.Int64Exact(refserver.SeedOwnerID), knownvalue.Int64Exact(refserver.SeedMemberID)})),
			).Step(),
		},
	})
}
