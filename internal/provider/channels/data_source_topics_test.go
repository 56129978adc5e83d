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

func TestAccTopics_member(t *testing.T) {
	srv := acctest.NewServer(t)
	config := `
data "zulip_topics" "general" {
  channel_id = 1
}

data "zulip_topics" "random" {
  channel_id = 7
}

data "zulip_topics" "random_raw" {
  channel_id             = 7
  allow_empty_topic_name = true
}

data "zulip_topics" "design" {
  channel_id = 3
}
`
	member := srv.ProviderConfig(t, refserver.SeedMemberID) + config
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(member).State(
				// Newest first.
				expectTopics("data.zulip_topics.general", topicWant("releases", 13), topicWant("lunch", 3), topicWant("welcome", 2)),
				acctest.Value("data.zulip_topics.general", "allow_empty_topic_name", knownvalue.Bool(false)),
				// The empty topic under the realm's display name for it, unless asked for raw.
				expectTopics("data.zulip_topics.random", topicWant("general chat", 14), topicWant("cats", 11)),
				expectTopics("data.zulip_topics.random_raw", topicWant("", 14), topicWant("cats", 11)),
				// Mark joined the protected-history channel after the "logo" messages.
				expectTopics("data.zulip_topics.design", topicWant("colors", 12)),
			).Step(),
			// The owner, subscribed from the start, sees every design topic.
			acctest.Apply(srv.ProviderConfig(t, refserver.SeedOwnerID) + config).State(
				expectTopics("data.zulip_topics.design", topicWant("colors", 12), topicWant("logo", 7)),
			).Step(),
			// A new message outside Terraform moves its topic to the front.
			acctest.Apply(member).OutOfBand(srv, func(r *refserver.Realm) {
				flags := map[int][]string{}
				for uid := range r.Channels[refserver.SeedChannelGeneral].Subscribers {
					flags[uid] = nil
				}
				r.Messages = append(r.Messages, &refserver.Message{
					ID: 100, ChannelID: refserver.SeedChannelGeneral, Topic: "lunch", SenderID: refserver.SeedMember3ID,
					Content: "Sushi instead?", Timestamp: acctest.SeedTime.Unix() + 100*3600, Flags: flags,
				})
				r.NextID["message"] = 100
			}).State(
				expectTopics("data.zulip_topics.general", topicWant("lunch", 100), topicWant("releases", 13), topicWant("welcome", 2)),
			).Step(),
		},
	})
}

func TestAccTopics_badChannel(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(member + `data "zulip_topics" "x" { channel_id = 999 }`).
				Fails(acctest.ExpectErr("Channel Not Found", "Channel 999 does not exist", "Invalid channel ID")).Step(),
			// Archived: Mark is subscribed, but Zulip lists no topics of it.
			acctest.Apply(member + `data "zulip_topics" "x" { channel_id = 5 }`).
				Fails(acctest.ExpectErr("Channel 5 does not exist, is archived")).Step(),
			// A guest may not read a private channel it is not subscribed to.
			acctest.Apply(srv.ProviderConfig(t, refserver.SeedGuestID) + `data "zulip_topics" "x" { channel_id = 3 }`).
				Fails(acctest.ExpectErr("Channel 3 does not exist, is archived, or the provider's account may not read it")).Step(),
			acctest.Apply(member + `data "zulip_topics" "x" { channel_id = 0 }`).
				Fails(acctest.ExpectErr("channel_id", "value must be at least 1")).Step(),
		},
	})
}

func TestAccTopics_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 330 })
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(member + `
data "zulip_topics" "x" {
  channel_id             = 7
  allow_empty_topic_name = true
}`).Fails(acctest.ExpectErr("allow_empty_topic_name needs Zulip feature level 334 or newer", "has feature level 330")).Step(),
			acctest.Apply(member + `data "zulip_topics" "x" { channel_id = 7 }`).State(
				expectTopics("data.zulip_topics.x", topicWant("general chat", 14), topicWant("cats", 11)),
			).Step(),
		},
	})
}

func TestAccTopics_example(t *testing.T) {
	acctest.ReadsExample(t, refserver.SeedMemberID, "examples/data-sources/zulip_topics/data-source.tf",
		statecheck.ExpectKnownOutputValue("latest_topic", knownvalue.StringExact("releases")),
		statecheck.ExpectKnownOutputValue("topic_names", knownvalue.ListExact([]knownvalue.Check{
			knownvalue.StringExact("releases"), knownvalue.StringExact("lunch"), knownvalue.StringExact("welcome"),
		})),
	)
}

// wantTopic is an expected topic: its name and latest message id.
type wantTopic struct {
	name  string
	maxID int64
}

// topicWant builds a wantTopic.
func topicWant(name string, maxID int64) wantTopic { return wantTopic{name, maxID} }

// expectTopics checks a topic list, in order.
func expectTopics(addr string, topics ...wantTopic) statecheck.StateCheck {
	checks := make([]knownvalue.Check, 0, len(topics))
	for _, tp := range topics {
		checks = append(checks, knownvalue.ObjectExact(map[string]knownvalue.Check{
			"name":   knownvalue.StringExact(tp.name),
			"max_id": knownvalue.Int64Exact(tp.maxID),
		}))
	}
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New("topics"), knownvalue.ListExact(checks))
}
