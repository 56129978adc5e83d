package messages_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

const messageAddr = "zulip_message.test"

// testAccMessageConfig is a channel message in #general.
func testAccMessageConfig(topic, content string) string {
	return fmt.Sprintf("resource \"zulip_message\" \"test\" {\n  channel_id = %d\n  topic      = %q\n  content    = %q\n}\n",
		refserver.SeedChannelGeneral, topic, content)
}

// testAccDirectMessageConfig is a direct message to users (HCL list items).
func testAccDirectMessageConfig(users, content string) string {
	return fmt.Sprintf("resource \"zulip_message\" \"test\" {\n  to_users = [%s]\n  content  = %q\n}\n", users, content)
}

// findMessage is the server's message with the id, nil when there is none.
func findMessage(r *refserver.Realm, id int) *refserver.Message {
	for _, m := range r.Messages {
		if m.ID == id {
			return m
		}
	}
	return nil
}

// messageOnServer checks the message the state's id names: sent by sender
// in #general's topic with the content.
func messageOnServer(srv *acctest.Server, id *int, sender int, topic, content string) statecheck.StateCheck {
	return acctest.Value(messageAddr, "id", knownvalue.Int64Func(func(v int64) error {
		*id = int(v)
		var err error
		srv.Do(func(r *refserver.Realm) {
			switch m := findMessage(r, int(v)); {
			case m == nil:
				err = fmt.Errorf("message %d is not on the server", v)
			case m.SenderID != sender || m.ChannelID != refserver.SeedChannelGeneral || m.Topic != topic || m.Content != content:
				err = fmt.Errorf("message %d on the server is %+v", v, *m)
			}
		})
		return err
	}))
}

// messageGone checks that the server has no message with the id.
func messageGone(srv *acctest.Server, id *int) func() error {
	return func() error {
		var err error
		srv.Do(func(r *refserver.Realm) {
			if findMessage(r, *id) != nil {
				err = fmt.Errorf("message %d is still on the server", *id)
			}
		})
		return err
	}
}

func TestAccMessage_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	sameID, sameResent := statecheck.CompareValue(compare.ValuesSame()), statecheck.CompareValue(compare.ValuesSame())
	var id, first int
	acctest.ParallelSteps(t,
		acctest.Apply(member+testAccMessageConfig("deploys", "Deploying **now**.")).Clean().State(
			messageOnServer(srv, &id, refserver.SeedMemberID, "deploys", "Deploying **now**."),
			acctest.Value(messageAddr, "url", knownvalue.StringRegexp(acctest.ExpectErrRE(`/#narrow/near/\d+$`))),
			acctest.Value(messageAddr, "timestamp", knownvalue.NotNull()),
			sameID.AddStateValue(messageAddr, tfjsonpath.New("id")),
		).Step(),
		acctest.ImportVerify(messageAddr, ""),
		// A changed content edits the message in place.
		acctest.Apply(member+testAccMessageConfig("deploys", "Deploy done.")).Planned(messageAddr, plancheck.ResourceActionUpdate).Clean().State(
			messageOnServer(srv, &id, refserver.SeedMemberID, "deploys", "Deploy done."), sameID.AddStateValue(messageAddr, tfjsonpath.New("id")),
		).Step(),
		// Edited in the web app: the plan puts the content back, in place.
		acctest.Apply(member+testAccMessageConfig("deploys", "Deploy done.")).OutOfBand(srv, func(r *refserver.Realm) {
			findMessage(r, id).Content = "Edited by hand"
		}).Planned(messageAddr, plancheck.ResourceActionUpdate).Clean().State(
			messageOnServer(srv, &id, refserver.SeedMemberID, "deploys", "Deploy done."), sameID.AddStateValue(messageAddr, tfjsonpath.New("id")),
		).Step(),
		// Deleted in the web app: dropped from state and sent again.
		acctest.Apply(member+testAccMessageConfig("deploys", "Deploy done.")).Before(func() { first = id }).OutOfBand(srv, func(r *refserver.Realm) {
			r.Messages = slicesDeleteMessage(r.Messages, id)
		}).Planned(messageAddr, plancheck.ResourceActionCreate).Clean().State(
			messageOnServer(srv, &id, refserver.SeedMemberID, "deploys", "Deploy done."),
			acctest.Value(messageAddr, "id", knownvalue.Int64Func(func(v int64) error {
				if int(v) == first {
					return fmt.Errorf("the message sent again kept the deleted id %d", v)
				}
				return nil
			})), sameResent.AddStateValue(messageAddr, tfjsonpath.New("id")),
		).Step(),
		// A changed topic moves the message in place, with no notices.
		acctest.Apply(member+testAccMessageConfig("releases", "Deploy done.")).
			Planned(messageAddr, plancheck.ResourceActionUpdate).Clean().State(
			messageOnServer(srv, &id, refserver.SeedMemberID, "releases", "Deploy done."), sameResent.AddStateValue(messageAddr, tfjsonpath.New("id")),
		).OnServer(noNotices(srv)).Step(),
		// Moved in the web app: the plan moves it back, and a content change rides along in one edit.
		acctest.Apply(member+testAccMessageConfig("releases", "Deploy finished.")).OutOfBand(srv, func(r *refserver.Realm) {
			findMessage(r, id).Topic = "elsewhere"
		}).Planned(messageAddr, plancheck.ResourceActionUpdate).Clean().State(
			messageOnServer(srv, &id, refserver.SeedMemberID, "releases", "Deploy finished."), sameResent.AddStateValue(messageAddr, tfjsonpath.New("id")),
		).Step(),
	)
}

// noNotices checks that Notification Bot posted nothing about a move.
func noNotices(srv *acctest.Server) func() error {
	return func() error {
		var err error
		srv.Do(func(r *refserver.Realm) {
			for _, m := range r.Messages {
				if strings.Contains(m.Content, "moved") {
					err = fmt.Errorf("a notice was posted: %q in %q", m.Content, m.Topic)
				}
			}
		})
		return err
	}
}

// TestAccMessage_moveRefused: a move Zulip would refuse fails the plan: the
// account lacks the permission to move messages between topics, or the
// organization's time limit for moves passed; the target topic's rules
// apply too.
func TestAccMessage_moveRefused(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	var id int
	acctest.ParallelSteps(t,
		acctest.Apply(member+testAccMessageConfig("deploys", "Deploying.")).State(
			messageOnServer(srv, &id, refserver.SeedMemberID, "deploys", "Deploying.")).Step(),
		acctest.Apply(member+testAccMessageConfig("releases", "Deploying.")).Before(func() {
			srv.Do(func(r *refserver.Realm) {
				r.Settings.GroupSettings["can_move_messages_between_topics_group"] = refserver.GroupSetting{GroupID: refserver.GroupAdministrators}
			})
		}).Fails(acctest.ExpectErr("Insufficient Permission", "topic", "can_move_messages_between_topics_group")).Step(),
		acctest.Apply(member+testAccMessageConfig("releases", "Deploying.")).Before(func() {
			srv.Do(func(r *refserver.Realm) {
				r.Settings.GroupSettings["can_move_messages_between_topics_group"] = refserver.GroupSetting{GroupID: refserver.GroupMembers}
				r.SetSetting("move_messages_within_stream_limit_seconds", 60)
				findMessage(r, id).Timestamp -= 3600
			})
		}).Fails(acctest.ExpectErr("Move Time Limit Passed", "topic", "move_messages_within_stream_limit_seconds")).Step(),
		acctest.Apply(member+testAccMessageConfig("", "Deploying.")).Before(func() {
			srv.Do(func(r *refserver.Realm) {
				r.SetSetting("move_messages_within_stream_limit_seconds", nil)
				findMessage(r, id).Timestamp += 3600 // young again, so that the destroy may delete it
				r.Channels[refserver.SeedChannelGeneral].TopicsPolicy = "disable_empty_topic"
			})
		}).Fails(acctest.ExpectErr("Topic Required", "topic")).Step(),
	)
}

// slicesDeleteMessage removes the message with the id, as a deletion in the
// web app does.
func slicesDeleteMessage(ms []*refserver.Message, id int) []*refserver.Message {
	out := ms[:0]
	for _, m := range ms {
		if m.ID != id {
			out = append(out, m)
		}
	}
	return out
}

// TestAccMessage_direct: a direct message by e-mail address keeps the
// configured spelling; changed recipients send a new message.
func TestAccMessage_direct(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	var id, first int
	// recipients records the state's id and checks the message on the server.
	recipients := func(want ...int) statecheck.StateCheck {
		return acctest.Value(messageAddr, "id", knownvalue.Int64Func(func(v int64) error {
			id = int(v)
			var err error
			srv.Do(func(r *refserver.Realm) {
				m := findMessage(r, id)
				if m == nil || fmt.Sprint(m.DirectRecipients) != fmt.Sprint(want) || m.Content != "Lunch?" {
					err = fmt.Errorf("message %d on the server is %+v, want recipients %v", id, m, want)
				}
			})
			return err
		}))
	}
	acctest.ParallelSteps(t,
		acctest.Apply(member+testAccDirectMessageConfig(`"MEI@zulip.example.com"`, "Lunch?")).Clean().State(recipients(refserver.SeedMemberID, refserver.SeedMember3ID),
			acctest.Value(messageAddr, "to_users", knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("MEI@zulip.example.com")})),
			acctest.Value(messageAddr, "channel_id", knownvalue.Null()), acctest.Value(messageAddr, "topic", knownvalue.Null()),
		).Step(),
		acctest.ImportVerify(messageAddr, "", "to_users"),
		acctest.Apply(member+testAccDirectMessageConfig(fmt.Sprintf(`"%d", "%d"`, refserver.SeedMember3ID, refserver.SeedOwnerID), "Lunch?")).
			Before(func() { first = id }).Planned(messageAddr, plancheck.ResourceActionDestroyBeforeCreate).Clean().
			State(recipients(refserver.SeedOwnerID, refserver.SeedMemberID, refserver.SeedMember3ID)).OnServer(messageGone(srv, &first)).Step(),
	)
}

func TestAccMessage_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) {
		r.Channels[refserver.SeedChannelRandom].TopicsPolicy = "disable_empty_topic"
		r.Channels[refserver.SeedChannelAnnounce].TopicsPolicy = "empty_topic_only"
	})
	short := acctest.NewServer(t)
	short.Do(func(r *refserver.Realm) { r.Settings.MaxMessageLength = 20 })
	step := acctest.PlanFailsAs(srv.ProviderConfig(t, refserver.SeedMemberID))
	in := func(channel int, topic string) string {
		return fmt.Sprintf("resource \"zulip_message\" \"test\" {\n  channel_id = %d\n  topic = %q\n  content = \"hi\"\n}\n", channel, topic)
	}
	acctest.ParallelSteps(t,
		step(testAccMessageConfig("t", ""), "content", "must not be empty"),
		step(testAccMessageConfig("t", "hi\n"), "content", "must not end with whitespace", "chomp"),
		step(testAccMessageConfig("t", "\nhi"), "content", "must not start with a newline"),
		step(testAccMessageConfig("t", strings.Repeat("x", 10001)), "Message Too Long", "content", "10001", "at most 10000"),
		// A server whose administrators lowered MAX_MESSAGE_LENGTH says so in register.
		acctest.PlanFails(short.ProviderConfig(t, refserver.SeedMemberID)+testAccMessageConfig("t", strings.Repeat("x", 30)),
			"Message Too Long", "content", "at most 20"),
		step(testAccMessageConfig(" t", "hi"), "topic", "must not start or end with whitespace"),
		step(testAccMessageConfig(strings.Repeat("t", 61), "hi"), "Topic Too Long", "topic", "at most 60"),
		step("resource \"zulip_message\" \"test\" {\n  content = \"hi\"\n}\n", "Missing Attribute Configuration", "channel_id,to_users"),
		step("resource \"zulip_message\" \"test\" {\n  channel_id = 1\n  to_users = [\"5\"]\n  topic = \"t\"\n  content = \"hi\"\n}\n", "Invalid Attribute Combination", "channel_id,to_users"),
		step("resource \"zulip_message\" \"test\" {\n  channel_id = 1\n  content = \"hi\"\n}\n", "Missing Topic", "topic"),
		step("resource \"zulip_message\" \"test\" {\n  to_users = [\"5\"]\n  topic = \"t\"\n  content = \"hi\"\n}\n", "Topic of a Direct Message", "topic"),
		step(testAccDirectMessageConfig(`"5", "mei@zulip.example.com"`, "hi"), "Mixed Recipients", "to_users"),
		step(testAccDirectMessageConfig(`"mei"`, "hi"), "to_users", "neither a user id nor an e-mail address"),
		step(in(9999, "t"), "Channel Not Found", "channel_id"),
		step(in(refserver.SeedChannelArchived, "t"), "Channel Is Archived", "channel_id"),
		// The administrator sees frontend-ops (private) but is not subscribed to it.
		acctest.PlanFails(srv.ProviderConfig(t, refserver.SeedAdminID)+in(refserver.SeedChannelFrontendOps, "t"),
			"Not Subscribed to the Private Channel", "channel_id", "frontend-ops"),
		// design is private, and the member is subscribed to it.
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedMemberID)+in(refserver.SeedChannelDesign, "t")).Clean().Step(),
		step(in(refserver.SeedChannelRandom, ""), "Topic Required", "topic", "disable_empty_topic"),
		step(in(refserver.SeedChannelAnnounce, "news"), "Only the General Chat Allowed", "topic"),
	)
}

// TestAccMessage_editRefused: with message editing turned off, a changed
// content fails the plan instead of the apply.
func TestAccMessage_editRefused(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelSteps(t,
		acctest.Apply(member+testAccMessageConfig("deploys", "Deploying.")).Step(),
		acctest.Apply(member+testAccMessageConfig("deploys", "Deployed.")).Before(func() {
			srv.Do(func(r *refserver.Realm) { r.SetSetting("allow_message_editing", false) })
		}).Fails(acctest.ExpectErr("Message Editing Is Off", "content")).Step(),
	)
}

// TestAccMessage_generatedConfig: configuration generated for a seeded
// message is accepted as it is and plans no change.
func TestAccMessage_generatedConfig(t *testing.T) {
	acctest.GeneratedConfigTest(t, refserver.SeedMemberID, nil, messageAddr, "2")
}

// TestAccMessage_answerLost: the message is posted but the answer lost; the
// provider finds it among the account's newest messages instead of sending it
// again: one message on the server, and an empty plan.
func TestAccMessage_answerLost(t *testing.T) {
	srv := acctest.NewServer(t)
	lost := 0
	proxy := srv.FaultyProviderConfig(t, refserver.SeedMemberID, func(r *http.Request) acctest.Fault {
		if r.Method+" "+r.URL.Path == "POST /api/v1/messages" && lost == 0 {
			lost++
			return acctest.Fault{Status: http.StatusBadGateway, Process: true}
		}
		return acctest.Fault{}
	})
	var id int
	acctest.ParallelSteps(t,
		acctest.Apply(proxy+testAccMessageConfig("deploys", "Deploying.")).Clean().State(
			messageOnServer(srv, &id, refserver.SeedMemberID, "deploys", "Deploying."),
		).OnServer(func() error {
			if lost != 1 {
				return fmt.Errorf("the send's answer was not lost (%d)", lost)
			}
			return sentMessages(srv, refserver.SeedMemberID, refserver.SeedChannelGeneral, "deploys", "Deploying.", 1)()
		}).Step(),
	)
}

// TestAccMessage_permissionsAtPlan: the plan refuses what Zulip would refuse
// the account: posting where the channel's can_send_message_group leaves it
// out, and a destroy (which deletes the message) where neither the
// organization nor the channel lets it delete its own messages.
func TestAccMessage_permissionsAtPlan(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	cfg := member + testAccMessageConfig("deploys", "Deploying.")
	setRealm := func(setting string, group int) func() {
		return func() {
			srv.Do(func(r *refserver.Realm) { r.Settings.GroupSettings[setting] = refserver.GroupSetting{GroupID: group} })
		}
	}
	acctest.ParallelSteps(t,
		acctest.Apply(cfg).Before(func() {
			srv.Do(func(r *refserver.Realm) {
				r.Channels[refserver.SeedChannelGeneral].GroupSettings["can_send_message_group"] = refserver.GroupSetting{GroupID: refserver.GroupAdministrators}
			})
		}).Fails(acctest.ExpectErr("Insufficient Permission", "channel_id", "can_send_message_group")).Step(),
		acctest.Apply(cfg).Before(func() {
			srv.Do(func(r *refserver.Realm) {
				r.Channels[refserver.SeedChannelGeneral].GroupSettings["can_send_message_group"] = refserver.GroupSetting{GroupID: refserver.GroupEveryone}
			})
		}).Step(),
		resource.TestStep{Config: cfg, Destroy: true, PreConfig: setRealm("can_delete_own_message_group", refserver.GroupAdministrators),
			ExpectError: acctest.ExpectErr("Insufficient Permission", "removed block", "can_delete_own_message_group")},
		acctest.Apply(cfg).Before(setRealm("can_delete_own_message_group", refserver.GroupEveryone)).Clean().Step(),
	)
}

// TestAccMessage_refreshBatched: Zulip lists no set of messages a
// configuration holds to read once, so a refresh reads messages by id; those
// refreshed together share one GET /messages (message_ids), and no message is
// read alone: a plan of twelve messages, a channel message and direct ones,
// sends fewer reads than messages, with nothing to change.
func TestAccMessage_refreshBatched(t *testing.T) {
	srv := acctest.NewServer(t)
	const n = 12
	var cfg strings.Builder
	cfg.WriteString(srv.ProviderConfig(t, refserver.SeedMemberID))
	for i := range n {
		to := fmt.Sprintf("channel_id = %d\n  topic      = \"batch\"", refserver.SeedChannelGeneral)
		if i%3 == 0 {
			to = fmt.Sprintf("to_users   = [%d]", refserver.SeedMember3ID)
		}
		fmt.Fprintf(&cfg, "resource \"zulip_message\" \"m%d\" {\n  %s\n  content    = \"Message %d.\"\n}\n", i, to, i)
	}
	acctest.ParallelTest(t, resource.TestCase{Steps: []resource.TestStep{
		{Config: cfg.String()},
		{PreConfig: srv.ResetRequests, Config: cfg.String(), ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan(), messageReads{srv, n}},
		}},
	}})
}

// messageReads checks the requests of a plan that refreshes n messages.
type messageReads struct {
	srv *acctest.Server
	n   int
}

// CheckPlan fails on a message read alone, and on as many batched reads as
// messages.
func (c messageReads) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	batched := 0
	for k, count := range c.srv.RequestCounts() {
		switch {
		case k == "GET /api/v1/messages":
			batched = count
		case strings.HasPrefix(k, "GET /api/v1/messages/"):
			resp.Error = fmt.Errorf("%s was read %d time(s): a refresh reads messages in batches", k, count)
			return
		}
	}
	if batched == 0 || batched >= c.n {
		resp.Error = fmt.Errorf("refreshing %d messages sent %d GET /api/v1/messages; want between 1 and %d", c.n, batched, c.n-1)
	}
}
