package channels_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// defaultChannelsOnServer checks the server's default channels.
func defaultChannelsOnServer(srv *acctest.Server, want ...int) func() error {
	return func() error {
		var ids []int
		srv.Do(func(r *refserver.Realm) {
			for _, id := range []int{refserver.SeedChannelGeneral, refserver.SeedChannelAnnounce, refserver.SeedChannelRandom} {
				if r.Channels[id].IsDefault {
					ids = append(ids, id)
				}
			}
		})
		if got := fmt.Sprint(ids); got != fmt.Sprint(want) {
			return fmt.Errorf("default channels on the server: %s, want %v", got, want)
		}
		return nil
	}
}

// TestAccDefaultChannels_lifecycle: the set is made exactly the configured
// one, changed, imported, restored after out-of-band changes, and left as it
// is on destroy.
func TestAccDefaultChannels_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	list := func(ids ...int) string {
		s := "["
		for i, id := range ids {
			if i > 0 {
				s += ", "
			}
			s += fmt.Sprint(id)
		}
		return admin + "resource \"zulip_default_channels\" \"test\" {\n  channel_ids = " + s + "]\n}\n"
	}
	general, announce, random := refserver.SeedChannelGeneral, refserver.SeedChannelAnnounce, refserver.SeedChannelRandom
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error { return defaultChannelsOnServer(srv, announce, random)() },
		Steps: []resource.TestStep{
			acctest.Apply(list(general, random)).OnServer(defaultChannelsOnServer(srv, general, random)).Clean().Step(),
			acctest.Apply(list(announce, random)).OnServer(defaultChannelsOnServer(srv, announce, random)).Clean().Step(),
			acctest.ImportVerify("zulip_default_channels.test", "default_channels"),
			acctest.Apply(list(announce, random)).OutOfBand(srv, func(r *refserver.Realm) {
				r.Channels[general].IsDefault = true
				r.Channels[random].IsDefault = false
			}).Planned("zulip_default_channels.test", plancheck.ResourceActionUpdate).OnServer(defaultChannelsOnServer(srv, announce, random)).Step(),
		},
	})
}

// TestAccDefaultChannels_validation: private, archived and unknown channels
// and a member's key fail at plan.
func TestAccDefaultChannels_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	step := func(user int, ids string, want ...string) resource.TestStep {
		return acctest.PlanFailsWith(srv.ProviderConfig(t, user)+"resource \"zulip_default_channels\" \"x\" {\n  channel_ids = "+ids+"\n}\n",
			acctest.ExpectErr(want...))
	}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			step(refserver.SeedAdminID, fmt.Sprintf("[%d]", refserver.SeedChannelDesign), "Private Channel", "cannot be made default"),
			step(refserver.SeedAdminID, fmt.Sprintf("[%d]", refserver.SeedChannelArchived), "Archived Channel"),
			step(refserver.SeedAdminID, "[999]", "Unknown Channel", "999"),
			step(refserver.SeedMemberID, fmt.Sprintf("[%d]", refserver.SeedChannelGeneral), "Insufficient Role", "administrator"),
		},
	})
}

// TestAccDefaultChannels_lostAnswer: a change whose answer was lost converges
// on the next plain apply.
func TestAccDefaultChannels_lostAnswer(t *testing.T) {
	srv := acctest.NewServer(t)
	lost := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/default_streams" {
			return acctest.Fault{Status: http.StatusBadGateway, Process: true}
		}
		return acctest.Fault{}
	})
	cfg := fmt.Sprintf("resource \"zulip_default_channels\" \"test\" {\n  channel_ids = [%d]\n}\n", refserver.SeedChannelRandom)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(lost + cfg).Fails(acctest.ExpectErr("Unable to Set Default Channels")).Step(),
			acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID) + cfg).OnServer(defaultChannelsOnServer(srv, refserver.SeedChannelRandom)).Clean().Step(),
		},
	})
}

// TestAccDefaultChannels_generatedConfig: the generated configuration of the
// imported set is accepted as it is.
func TestAccDefaultChannels_generatedConfig(t *testing.T) {
	acctest.GeneratedConfigTest(t, refserver.SeedAdminID, nil, "zulip_default_channels.test", "default_channels")
}
