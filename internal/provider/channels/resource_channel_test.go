package channels_test

import (
	"fmt"
	"net/http"
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

func TestAccChannel_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	addr := "zulip_channel.test"
	perms := `  can_send_message_group = { groups = ["backend"], users = [1] }
`
	private := admin + acctest.ChannelConfig("operations", "Operations", `  privacy = "private"
  can_send_message_group = { groups = ["role:members"] }
`)
	operations := func(change func(*refserver.Channel)) func(*refserver.Realm) {
		return func(r *refserver.Realm) {
			for _, c := range r.Channels {
				if c.Name == "operations" {
					change(c)
				}
			}
		}
	}
	diags := &acctest.DiagRecorder{}
	acctest.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: diags.Factories(),
		Steps: []resource.TestStep{
			acctest.Apply(admin+acctest.ChannelConfig("ops", "Operations", perms)).Clean().State(
				acctest.Value(addr, "privacy", knownvalue.StringExact("public")),
				acctest.Value(addr, "history_public_to_subscribers", knownvalue.Bool(true)),
				acctest.Value(addr, "message_retention_days", knownvalue.StringExact("realm_default")),
				acctest.Value(addr, "can_send_message_group", acctest.PermissionOf([]string{"backend"}, 1)),
				// Not configured: not in state; Zulip's default on the server
				// (the creator administers it).
				acctest.Value(addr, "can_administer_channel_group", knownvalue.Null()),
			).OnServer(func() error {
				c, _ := acctest.ChannelByName(srv, "ops")
				if s := c.GroupSettings["can_administer_channel_group"]; !slices.Equal(s.DirectMembers, []int{refserver.SeedAdminID}) {
					return fmt.Errorf("can_administer_channel_group on the server: %+v", s)
				}
				return nil
			}).Step(),
			// The import reads every permission; the configuration's plan is empty.
			acctest.ImportVerify(addr, "OPS", append(acctest.PermissionsLeftOut(realmspec.ChannelPermissions, "can_send_message_group"), "announce")...),
			// Renamed, made private (history follows), a permission changed.
			acctest.Apply(private).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(
				acctest.Value(addr, "history_public_to_subscribers", knownvalue.Bool(false)),
			).OnServer(func() error {
				if c, ok := acctest.ChannelByName(srv, "operations"); !ok || !c.InviteOnly || c.HistoryPublicToSubscribers {
					return fmt.Errorf("on the server: %+v", c)
				}
				return nil
			}).Step(),
			// Changed outside Terraform: put back.
			acctest.Apply(private).OutOfBand(srv, operations(func(c *refserver.Channel) {
				c.Description = "changed"
				c.GroupSettings["can_send_message_group"] = refserver.GroupSetting{GroupID: refserver.GroupNobody}
			})).Planned(addr, plancheck.ResourceActionUpdate).Clean().Step(),
			// Archived outside Terraform: declared again, it is unarchived.
			// Zulip unarchives a private channel only if it has a subscriber
			// (do_unarchive_stream: "Channel is private and have no
			// subscribers"), so someone joined it before.
			acctest.Apply(private).OutOfBand(srv, operations(func(c *refserver.Channel) {
				c.Subscribers[refserver.SeedAdminID] = 0
				c.IsArchived = true
			})).Planned(addr, plancheck.ResourceActionCreate).Plan(acctest.DiagCheck{Diags: diags,
				Pattern: `Archived Channel Will Be Unarchived: The organization has an archived channel named "operations"`,
			}).Clean().OnServer(func() error {
				if c, _ := acctest.ChannelByName(srv, "operations"); c.IsArchived {
					return fmt.Errorf("not unarchived: %+v", c)
				}
				return nil
			}).Step(),
			// Destroy archives.
			acctest.Apply(admin).OnServer(func() error {
				if c, ok := acctest.ChannelByName(srv, "operations"); !ok || !c.IsArchived {
					return fmt.Errorf("destroy did not archive: %+v", c)
				}
				return nil
			}).Step(),
		},
	})
}

func TestAccChannel_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	step := acctest.PlanFailsAs(admin)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			step(acctest.ChannelConfig("x", "", "  privacy = \"secret\"\n"), "privacy"),
			step(acctest.ChannelConfig("x", "", "  history_public_to_subscribers = false\n"), "Invalid Channel History"),
			step(acctest.ChannelConfig("x", "", "  message_retention_days = \"0\"\n"), "message_retention_days"),
			step(acctest.ChannelConfig("x", "", "  message_retention_days = \"30\"\n"), "Insufficient Role", "owner"),
			step(acctest.ChannelConfig(" x", "", ""), "whitespace"),
			step(acctest.ChannelConfig("x", "a\nb", ""), "one line"),
			step(acctest.ChannelConfig("x", "", "  can_subscribe_group = { groups = [\"nope\"] }\n"), "Unknown User Group"),
			step(acctest.ChannelConfig("GENERAL", "", ""), "Channel Already Exists", "import {"),
		},
	})
}

// TestAccChannel_beforeChannelCreate: a server older than POST
// /channels/create gets its channels through the subscription endpoint, with
// every setting, a plan warning, the provider's account subscribed, and an
// empty second plan; a lost answer is adopted, and a channel someone else
// made between plan and apply is not.
func TestAccChannel_beforeChannelCreate(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 400 })
	cfg := srv.ProviderConfig(t, refserver.SeedAdminID)
	extra := "  privacy = \"private\"\n  topics_policy = \"disable_empty_topic\"\n" +
		"  can_send_message_group = { groups = [\"role:administrators\"], users = [5] }\n"
	subscribed := func(name string, user int) func() error {
		return func() error {
			var ok bool
			srv.Do(func(r *refserver.Realm) {
				for _, ch := range r.Channels {
					if ch.Name == name {
						_, ok = ch.Subscribers[user]
					}
				}
			})
			if !ok {
				return fmt.Errorf("user %d is not subscribed to %q", user, name)
			}
			return nil
		}
	}
	lost := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/users/me/subscriptions" {
			return acctest.Fault{Status: http.StatusBadGateway, Process: true}
		}
		return acctest.Fault{}
	})
	raced := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/users/me/subscriptions" {
			return acctest.Fault{Before: func() { srv.Do(func(r *refserver.Realm) { acctest.AddChannel(r, "raced", "") }) }}
		}
		return acctest.Fault{}
	})
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(cfg+acctest.ChannelConfig("old-server", "Made by subscribing", extra)).State(
				acctest.Value("zulip_channel.test", "privacy", knownvalue.StringExact("private")),
				acctest.Value("zulip_channel.test", "history_public_to_subscribers", knownvalue.Bool(false)),
				acctest.Value("zulip_channel.test", "topics_policy", knownvalue.StringExact("disable_empty_topic")),
				acctest.Value("zulip_channel.test", "can_send_message_group", acctest.PermissionOf([]string{"role:administrators"}, 5)),
			).OnServer(subscribed("old-server", refserver.SeedAdminID)).Clean().Step(),
			acctest.Apply(lost + acctest.ChannelConfig("lost-answer", "", "")).OnServer(subscribed("lost-answer", refserver.SeedAdminID)).Clean().Step(),
			acctest.Apply(raced + strings.Replace(acctest.ChannelConfig("raced", "", ""), `"test"`, `"raced"`, 1)).
				Fails(acctest.ExpectErr("Channel Already Exists", "after this plan", "import {")).Step(),
		},
	})
}
