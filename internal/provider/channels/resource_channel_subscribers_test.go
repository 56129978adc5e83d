package channels_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// subscribersOnServer checks a channel's subscribers.
func subscribersOnServer(srv *acctest.Server, id int, want ...int) func() error {
	return func() error {
		var got []int
		srv.Do(func(r *refserver.Realm) {
			for uid := range r.Channels[id].Subscribers {
				got = append(got, uid)
			}
		})
		slices.Sort(got)
		if !slices.Equal(got, want) {
			return fmt.Errorf("channel %d's subscribers on the server: %v, want %v", id, got, want)
		}
		return nil
	}
}

func TestAccChannelSubscribers_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	random := refserver.SeedChannelRandom // subscribers 5, 6, 7, 11
	cfg := admin + fmt.Sprintf("resource \"zulip_channel_subscribers\" \"test\" {\n  channel_id  = %d\n  subscribers = [1, 5, 11]\n}\n", random)
	addr := "zulip_channel_subscribers.test"
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(cfg).Clean().OnServer(subscribersOnServer(srv, random, 1, 5, 11)).Step(),
			acctest.ImportVerify(addr, "random"),
			// Subscribed outside Terraform: unsubscribed again.
			acctest.Apply(cfg).OutOfBand(srv, func(r *refserver.Realm) { r.Channels[random].Subscribers[4] = 0 }).
				Planned(addr, plancheck.ResourceActionUpdate).OnServer(subscribersOnServer(srv, random, 1, 5, 11)).Step(),
			// Archived outside Terraform: the resource is gone, and the apply
			// refuses to subscribe by name (which would create a new channel).
			acctest.Apply(cfg).OutOfBand(srv, func(r *refserver.Realm) { r.Channels[random].IsArchived = true }).
				Fails(acctest.ExpectErr("is archived", "unarchive it first")).Step(),
			acctest.Apply(admin).OutOfBand(srv, func(r *refserver.Realm) { r.Channels[random].IsArchived = false }).
				OnServer(subscribersOnServer(srv, random, 1, 5, 11)).Step(),
		},
	})
}

func TestAccChannelSubscribers_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	rec := &acctest.DiagRecorder{}
	acctest.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{
			acctest.PlanFailsWith(admin+"resource \"zulip_channel_subscribers\" \"x\" {\n  channel_id  = 7\n  subscribers = [10]\n}\n",
				acctest.ExpectErr("Unknown User", "10")),
			// Both kinds for one channel: a warning.
			acctest.PlanWarns(admin+"resource \"zulip_channel_subscribers\" \"x\" {\n  channel_id  = 7\n  subscribers = [5]\n}\n"+
				"resource \"zulip_channel_subscription\" \"y\" {\n  channel_id = 7\n  user_id    = 6\n}\n", rec, "Channel Managed Twice"),
		},
	})
	if err := rec.Has("Channel Managed Twice"); err != nil {
		t.Error(err)
	}
}

func TestAccChannelSubscribers_generatedConfig(t *testing.T) {
	acctest.GeneratedConfigTest(t, refserver.SeedAdminID, nil, "zulip_channel_subscribers.test", "design")
}

func TestAccChannelSubscription_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	cfg := admin + fmt.Sprintf("resource \"zulip_channel_subscription\" \"test\" {\n  channel_id = %d\n  user_id    = 5\n}\n", refserver.SeedChannelDesign)
	addr := "zulip_channel_subscription.test"
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			// Subscribed already (seeded): adopted; the others stay.
			acctest.Apply(cfg).Clean().OnServer(subscribersOnServer(srv, refserver.SeedChannelDesign, 1, 2, 5)).Step(),
			acctest.ImportVerify(addr, "design:5"),
			// Unsubscribed outside Terraform: subscribed again.
			acctest.Apply(cfg).OutOfBand(srv, func(r *refserver.Realm) { delete(r.Channels[refserver.SeedChannelDesign].Subscribers, 5) }).
				Planned(addr, plancheck.ResourceActionCreate).OnServer(subscribersOnServer(srv, refserver.SeedChannelDesign, 1, 2, 5)).Step(),
			// Destroy unsubscribes this user only.
			acctest.Apply(admin).OnServer(subscribersOnServer(srv, refserver.SeedChannelDesign, 1, 2)).Step(),
		},
	})
}

func TestAccChannelSubscription_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(admin + "resource \"zulip_channel_subscription\" \"x\" {\n  channel_id = 999\n  user_id    = 5\n}\n").
				Fails(acctest.ExpectErr("no channel with id 999", "would create a new channel")).Step(),
		},
	})
}

func TestAccChannelSubscription_generatedConfig(t *testing.T) {
	acctest.GeneratedConfigTest(t, refserver.SeedAdminID, nil, "zulip_channel_subscription.test", "random:11")
}
