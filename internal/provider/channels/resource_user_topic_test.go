package channels_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func TestAccUserTopic_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	addr := "zulip_user_topic.test"
	general := refserver.SeedChannelGeneral
	policy := func(topic string, want int) statecheck.StateCheck {
		return acctest.Value(addr, "visibility_policy", knownvalue.StringFunc(func(string) error {
			return userTopicOnServer(srv, refserver.SeedAdminID, general, topic, want)
		}))
	}
	adminTopics := func(change func(*refserver.UserTopic)) func(*refserver.Realm) {
		return func(r *refserver.Realm) {
			for _, ut := range r.UserTopics {
				if ut.UserID == refserver.SeedAdminID {
					change(ut)
				}
			}
		}
	}
	followed := admin + testAccUserTopicConfig(general, "deploys", "followed")
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: userTopicDestroyed(srv, refserver.SeedAdminID, general, "deploys"),
		Steps: []resource.TestStep{
			acctest.Apply(admin+testAccUserTopicConfig(general, "Deploys", "muted")).Clean().State(
				acctest.Value(addr, "id", knownvalue.StringExact("1:Deploys")),
				acctest.Value(addr, "channel_id", knownvalue.Int64Exact(1)),
				acctest.Value(addr, "topic", knownvalue.StringExact("Deploys")),
				policy("Deploys", refserver.PolicyMuted),
			).Step(),
			acctest.ImportVerify(addr, "1:Deploys"),
			// In place: another policy.
			acctest.Apply(admin+testAccUserTopicConfig(general, "Deploys", "followed")).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(
				acctest.Value(addr, "visibility_policy", knownvalue.StringExact("followed")), policy("Deploys", refserver.PolicyFollowed),
			).Step(),
			// The server spells the topic differently: Zulip matches topics
			// case-insensitively, so nothing changes and the configured case stays.
			acctest.Apply(admin+testAccUserTopicConfig(general, "Deploys", "followed")).OutOfBand(srv, adminTopics(func(ut *refserver.UserTopic) {
				if ut.TopicName == "Deploys" {
					ut.TopicName = "DEPLOYS"
				}
			})).Plan(plancheck.ExpectEmptyPlan()).State(acctest.Value(addr, "topic", knownvalue.StringExact("Deploys"))).Step(),
			// A change of case only is an update in place, not a replacement.
			acctest.Apply(followed).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(
				acctest.Value(addr, "id", knownvalue.StringExact("1:deploys")),
				acctest.Value(addr, "topic", knownvalue.StringExact("deploys")),
			).Step(),
			// Changed outside Terraform: the plan puts it back.
			acctest.Apply(followed).OutOfBand(srv, adminTopics(func(ut *refserver.UserTopic) {
				if strings.EqualFold(ut.TopicName, "deploys") {
					ut.VisibilityPolicy = refserver.PolicyMuted
				}
			})).Planned(addr, plancheck.ResourceActionUpdate).State(policy("deploys", refserver.PolicyFollowed)).Step(),
			// Removed outside Terraform: dropped from state and created again.
			acctest.Apply(followed).OutOfBand(srv, func(r *refserver.Realm) {
				r.UserTopics = slices.DeleteFunc(r.UserTopics, func(ut *refserver.UserTopic) bool { return ut.UserID == refserver.SeedAdminID })
			}).Planned(addr, plancheck.ResourceActionCreate).Clean().State(policy("deploys", refserver.PolicyFollowed)).Step(),
			// Another topic replaces the resource.
			acctest.Apply(admin+testAccUserTopicConfig(general, "deploys-eu", "followed")).Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).State(
				acctest.Value(addr, "id", knownvalue.StringFunc(func(string) error {
					if err := userTopicOnServer(srv, refserver.SeedAdminID, general, "deploys", refserver.PolicyInherit); err != nil {
						return fmt.Errorf("the replaced topic keeps its policy: %w", err)
					}
					return userTopicOnServer(srv, refserver.SeedAdminID, general, "deploys-eu", refserver.PolicyFollowed)
				})),
			).Step(),
			// Back to the topic the destroy check looks for.
			acctest.Apply(admin + testAccUserTopicConfig(general, "deploys", "unmuted")).State(policy("deploys", refserver.PolicyUnmuted)).Step(),
		},
	})
}

// TestAccUserTopic_topicWithColon imports a topic whose name contains ':'.
func TestAccUserTopic_topicWithColon(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	addr := "zulip_user_topic.test"
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: userTopicDestroyed(srv, refserver.SeedMemberID, refserver.SeedChannelRandom, "release: 2.0 :: notes"),
		Steps: []resource.TestStep{
			acctest.Apply(member + testAccUserTopicConfig(refserver.SeedChannelRandom, "release: 2.0 :: notes", "muted")).
				State(acctest.Value(addr, "id", knownvalue.StringExact("7:release: 2.0 :: notes"))).Step(),
			acctest.ImportVerify(addr, "7:release: 2.0 :: notes"),
			// A topic with no policy cannot be imported.
			acctest.ImportFails("", addr, "7:no such topic", acctest.ExpectErrRE(`Cannot import non-existent remote object`)),
			acctest.ImportFails("", addr, "random:cats", acctest.ExpectErrRE(`imported by "<channel_id>:<topic>"`)),
		},
	})
}

// TestAccUserTopic_seededTopic adopts a seeded policy by import, changes it and
// destroys it, which sets it back to none on the server.
func TestAccUserTopic_seededTopic(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	config := member + testAccUserTopicConfig(refserver.SeedChannelGeneral, "Releases", "muted")
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: userTopicDestroyed(srv, refserver.SeedMemberID, refserver.SeedChannelGeneral, "releases"),
		Steps: []resource.TestStep{
			// The seeded row is "releases", followed; the import id's spelling is kept.
			acctest.ImportChecked(config, "zulip_user_topic.test", "1:Releases", true, func(states []*terraform.InstanceState) error {
				if len(states) != 1 || states[0].Attributes["visibility_policy"] != "followed" || states[0].Attributes["topic"] != "Releases" {
					return fmt.Errorf("imported %v, want topic Releases followed", states)
				}
				return nil
			}),
			acctest.Apply(config).Planned("zulip_user_topic.test", plancheck.ResourceActionUpdate).Clean().State(
				acctest.Value("zulip_user_topic.test", "visibility_policy", knownvalue.StringFunc(func(string) error {
					return userTopicOnServer(srv, refserver.SeedMemberID, refserver.SeedChannelGeneral, "releases", refserver.PolicyMuted)
				})),
			).Step(),
		},
	})
}

func TestAccUserTopic_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	// A limit other than Zulip's usual 60 proves the plan uses the server's.
	srv.Do(func(r *refserver.Realm) { r.Settings.MaxTopicLength = 20 })
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	step := func(hcl string, want string) resource.TestStep {
		return acctest.PlanFailsWith(admin+hcl, acctest.ExpectErrRE(want))
	}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			step(testAccUserTopicConfig(1, strings.Repeat("x", 21), "muted"),
				`Topic Too Long.*topic\s+=.*`+acctest.ReWrapped("The topic is 21 characters long; the server's limit (max_topic_length) is 20 characters.")),
			// Characters, not bytes: 20 two-byte letters fit.
			{
				Config:             admin + testAccUserTopicConfig(1, strings.Repeat("é", 20), "muted"),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			step(testAccUserTopicConfig(1, "deploys", "hidden"), `visibility_policy.*value must be one of`),
			step(testAccUserTopicConfig(0, "deploys", "muted"), `channel_id.*must be at least 1`),
			step(testAccUserTopicConfig(1, "", "muted"), `topic.*string length must be at least 1`),
		},
	})
}

func TestAccUserTopic_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 200 })
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.PlanFailsWith(admin+testAccUserTopicConfig(1, "deploys", "followed"),
				acctest.ExpectErrRE(`visibility_policy "followed" needs Zulip feature level 219 or\s+newer.*feature level 200`)),
			acctest.Apply(admin + testAccUserTopicConfig(1, "deploys", "muted")).Clean().Step(),
		},
	})
}

// TestAccUserTopic_inaccessibleChannel: a private channel the account cannot
// read is refused, and the error names channel_id.
func TestAccUserTopic_inaccessibleChannel(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMember2ID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			// Private, and the account is not subscribed: refused at plan.
			acctest.PlanFailsWith(member+testAccUserTopicConfig(refserver.SeedChannelDesign, "logo", "muted"),
				acctest.ExpectErrRE(acctest.ReWrapped("Channel Not Accessible")+`.*channel_id\s+= 3.*`+acctest.ReWrapped("cannot see a channel with id 3"))),
			acctest.PlanFailsWith(member+testAccUserTopicConfig(refserver.SeedChannelArchived, "old", "muted"),
				acctest.ExpectErr("Channel Is Archived", "Channel 5", "archived")),
			acctest.PlanFailsWith(member+testAccUserTopicConfig(404, "nowhere", "muted"), acctest.ExpectErr("cannot see a channel with id 404")),
			// Archived behind Terraform's back after the policy was set: the
			// plan to create it again says why it cannot.
			acctest.Apply(member + testAccUserTopicConfig(refserver.SeedChannelRandom, "cats", "muted")).Step(),
			acctest.Apply(member+testAccUserTopicConfig(refserver.SeedChannelRandom, "cats", "muted")).OutOfBand(srv, func(r *refserver.Realm) {
				r.Channels[refserver.SeedChannelRandom].IsArchived = true
				r.UserTopics = slices.DeleteFunc(r.UserTopics, func(ut *refserver.UserTopic) bool { return ut.StreamID == refserver.SeedChannelRandom })
			}).Fails(acctest.ExpectErr("Channel Is Archived")).Step(),
		},
	})
}

// TestAccUserTopic_example applies the documentation's example.
func TestAccUserTopic_example(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	example := acctest.ReadExample(t, "examples/resources/zulip_user_topic/resource.tf")
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(s *terraform.State) error {
			if err := userTopicDestroyed(srv, refserver.SeedAdminID, 1, "releases")(s); err != nil {
				return err
			}
			return userTopicDestroyed(srv, refserver.SeedAdminID, 1, "lunch")(s)
		},
		Steps: []resource.TestStep{
			acctest.Apply(admin+example).State(
				acctest.Value("zulip_user_topic.releases", "id", knownvalue.StringFunc(func(string) error {
					return userTopicOnServer(srv, refserver.SeedAdminID, 1, "releases", refserver.PolicyFollowed)
				})),
				acctest.Value("zulip_user_topic.lunch", "id", knownvalue.StringFunc(func(string) error {
					return userTopicOnServer(srv, refserver.SeedAdminID, 1, "lunch", refserver.PolicyMuted)
				})),
			).Clean().Step(),
			acctest.ImportVerify("zulip_user_topic.releases", "1:releases"),
		},
	})
}

// userTopicOnServer checks the user's policy for a topic on the reference
// server; PolicyInherit means no row.
func userTopicOnServer(srv *acctest.Server, userID, channelID int, topic string, policy int) error {
	got := refserver.PolicyInherit
	srv.Do(func(r *refserver.Realm) {
		for _, ut := range r.UserTopics {
			if ut.UserID == userID && ut.StreamID == channelID && strings.EqualFold(ut.TopicName, topic) {
				got = ut.VisibilityPolicy
			}
		}
	})
	if got != policy {
		return fmt.Errorf("user %d's policy for topic %q in channel %d is %d on the server, want %d", userID, topic, channelID, got, policy)
	}
	return nil
}

// userTopicDestroyed checks that destroy set the policy back to none.
func userTopicDestroyed(srv *acctest.Server, userID, channelID int, topic string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		return userTopicOnServer(srv, userID, channelID, topic, refserver.PolicyInherit)
	}
}

func testAccUserTopicConfig(channelID int, topic, policy string) string {
	return fmt.Sprintf(`
resource "zulip_user_topic" "test" {
  channel_id        = %d
  topic             = %q
  visibility_policy = %q
}
`, channelID, topic, policy)
}

// TestAccUserTopic_generatedConfig: configuration generated for a seeded
// topic preference is accepted as it is and plans no change.
func TestAccUserTopic_generatedConfig(t *testing.T) {
	acctest.GeneratedConfigTest(t, refserver.SeedMemberID, nil, "zulip_user_topic.test", "1:Releases")
}
