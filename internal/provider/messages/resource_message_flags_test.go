package messages_test

import (
	"fmt"
	"strings"
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

func TestAccMessageFlags_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	addr := "zulip_message_flags.test"
	mark := refserver.SeedMemberID
	starred := member + testAccMessageFlagsConfig("starred", 1, 2)
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			// Destroying removes the flag from every message the resource names.
			if err := testAccMessageFlagsOnServer(srv, mark, "starred", map[int]bool{1: false, 2: false, 3: false}); err != nil {
				return err
			}
			return testAccMessageFlagsOnServer(srv, mark, "collapsed", map[int]bool{1: false, 2: false})
		},
		Steps: []resource.TestStep{
			acctest.Apply(member+testAccMessageFlagsConfig("starred", 2, 3)).Plan(
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact("starred:2,3")),
			).Clean().State(
				acctest.Value(addr, "id", knownvalue.StringExact("starred:2,3")),
				acctest.Value(addr, "ignored_because_not_subscribed_channels", testAccInt64Set()),
				testAccMessageFlagsCheck(srv, mark, "starred", map[int]bool{2: true, 3: true, 4: false}),
			).Step(),
			acctest.ImportVerifyBy(addr, "starred:3,2", "id", "ignored_because_not_subscribed_channels"),
			acctest.ImportFails("", addr, "mentioned:4", acctest.ExpectErr("Invalid Import ID", `"mentioned" is read-only: set by the server`)),
			// In place: 1 joins the set (Mark starred it already in the seed,
			// so the server changes nothing, and says nothing about it: Zulip
			// echoes the ids it was sent), 3 leaves it.
			acctest.Apply(starred).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(
				acctest.Value(addr, "id", knownvalue.StringExact("starred:1,2")),
				acctest.Value(addr, "ignored_because_not_subscribed_channels", testAccInt64Set()),
				testAccMessageFlagsCheck(srv, mark, "starred", map[int]bool{1: true, 2: true, 3: false}),
			).Step(),
			// Unstarred outside Terraform: the plan stars it again.
			acctest.Apply(starred).Before(func() { testAccSetMessageFlag(srv, mark, 2, "starred", false) }).
				Planned(addr, plancheck.ResourceActionUpdate).Clean().
				State(testAccMessageFlagsCheck(srv, mark, "starred", map[int]bool{1: true, 2: true})).Step(),
			// Every flag removed outside Terraform: gone, and created again.
			acctest.Apply(starred).Before(func() {
				testAccSetMessageFlag(srv, mark, 1, "starred", false)
				testAccSetMessageFlag(srv, mark, 2, "starred", false)
			}).Planned(addr, plancheck.ResourceActionCreate).Clean().
				State(testAccMessageFlagsCheck(srv, mark, "starred", map[int]bool{1: true, 2: true})).Step(),
			// Another flag is another resource.
			acctest.Apply(member+testAccMessageFlagsConfig("collapsed", 1, 2)).Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).State(
				testAccMessageFlagsCheck(srv, mark, "starred", map[int]bool{1: false, 2: false}),
				testAccMessageFlagsCheck(srv, mark, "collapsed", map[int]bool{1: true, 2: true}),
			).Step(),
		},
	})
}

// TestAccMessageFlags_unreadInUnsubscribedChannel marks messages read and
// unread as Maria, who can read #announce without being subscribed to it:
// Zulip will not mark its messages unread, and the resource records the
// channel it ignored.
func TestAccMessageFlags_unreadInUnsubscribedChannel(t *testing.T) {
	srv := acctest.NewServer(t)
	maria := refserver.SeedMember2ID
	cfg := srv.ProviderConfig(t, maria)
	addr := "zulip_message_flags.test"

	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			return testAccMessageFlagsOnServer(srv, maria, "read", map[int]bool{2: false})
		},
		Steps: []resource.TestStep{
			// Message 5 in #announce was never delivered to Maria, so Zulip
			// counts it read already: only message 2 changes (the answer
			// does not say so: it echoes both ids).
			acctest.Apply(cfg+testAccMessageFlagsConfig("read", 2, 5)).State(
				acctest.Value(addr, "message_ids", testAccInt64Set(2, 5)),
				acctest.Value(addr, "ignored_because_not_subscribed_channels", testAccInt64Set()),
				testAccMessageFlagsCheck(srv, maria, "read", map[int]bool{2: true}),
			).Clean().Step(),
			// Taking 5 out marks it unread, which Zulip refuses for a channel
			// Maria is not subscribed to.
			acctest.Apply(cfg+testAccMessageFlagsConfig("read", 2)).Planned(addr, plancheck.ResourceActionUpdate).State(
				acctest.Value(addr, "ignored_because_not_subscribed_channels", testAccInt64Set(refserver.SeedChannelAnnounce)),
				// Still read: there is no unread message outside one's subscriptions.
				acctest.ServerCheck(func() error { return testAccNoRow(srv, maria, 5) }),
			).Step(),
			// Marked unread outside Terraform: the plan marks it read again.
			acctest.Apply(cfg+testAccMessageFlagsConfig("read", 2)).Before(func() { testAccSetMessageFlag(srv, maria, 2, "read", false) }).
				Planned(addr, plancheck.ResourceActionCreate).Clean().State(testAccMessageFlagsCheck(srv, maria, "read", map[int]bool{2: true})).Step(),
		},
	})
}

func TestAccMessageFlags_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	step := acctest.PlanFailsAs(member)
	acctest.ParallelSteps(t,
		step(testAccMessageFlagsConfig("mentioned", 1), "flag", `"mentioned" is read-only: set by the server`),
		step(testAccMessageFlagsConfig("stream_wildcard_mentioned", 1), "flag", "read-only: set by the server"),
		step(testAccMessageFlagsConfig("topic_wildcard_mentioned", 1), "flag", "read-only: set by the server"),
		step(testAccMessageFlagsConfig("has_alert_word", 1), "flag", "read-only: set by the server"),
		step(testAccMessageFlagsConfig("historical", 1), "flag", "read-only: set by the server"),
		step(testAccMessageFlagsConfig("wildcard_mentioned", 1), "flag", "read-only: set by the server"),
		step(testAccMessageFlagsConfig("important", 1), "flag", `"important" is not a message flag a user can change`),
		step(testAccMessageFlagsConfig("starred"), "message_ids", "at least 1"),
		step(testAccMessageFlagsConfig("starred", 0), "message_ids", "at least 1"),
	)
}

func TestAccMessageFlags_inaccessibleMessage(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelSteps(t,
		// 9999 does not exist.
		acctest.Apply(member+testAccMessageFlagsConfig("starred", 2, 9999)).
			Fails(acctest.ExpectErr("message_ids", "does not exist or is not accessible", "Invalid message(s)")).Step(),
		// 8 is in #leadership, a private channel Mark is not in.
		acctest.Apply(member+testAccMessageFlagsConfig("starred", 8)).
			Fails(acctest.ExpectErr("message_ids", "does not exist or is not accessible", "Invalid message(s)")).Step(),
		// Nothing was changed by the refused requests.
		acctest.Apply(member+testAccMessageFlagsConfig("starred", 3)).
			State(testAccMessageFlagsCheck(srv, refserver.SeedMemberID, "starred", map[int]bool{2: false, 3: true, 8: false})).Step(),
	)
}

// TestAccMessageFlags_messageDeletedBeforeDestroy checks that destroying
// unread flags on a message that has since been deleted does not fail.
func TestAccMessageFlags_messageDeletedBeforeDestroy(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	mark := refserver.SeedMemberID
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			return testAccMessageFlagsOnServer(srv, mark, "read", map[int]bool{3: false})
		},
		Steps: []resource.TestStep{
			acctest.Apply(member + testAccMessageFlagsConfig("read", 3, 13)).
				State(testAccMessageFlagsCheck(srv, mark, "read", map[int]bool{3: true, 13: true})).Step(),
			{
				// Message 13 disappears; the refresh still sees 3 read.
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) {
						kept := r.Messages[:0]
						for _, m := range r.Messages {
							if m.ID != 13 {
								kept = append(kept, m)
							}
						}
						r.Messages = kept
					})
				},
				RefreshState: true,
			},
		},
	})
}

func TestAccMessageFlags_example(t *testing.T) {
	srv := acctest.NewServer(t)
	mark := refserver.SeedMemberID
	example := srv.ProviderConfig(t, mark) + acctest.ReadExample(t, "examples/resources/zulip_message_flags/resource.tf")
	acctest.ParallelSteps(t,
		acctest.Apply(example).State(
			testAccMessageFlagsCheck(srv, mark, "starred", map[int]bool{4: true}),
			testAccMessageFlagsCheck(srv, mark, "read", map[int]bool{3: true, 13: true}),
			testAccMessageFlagsCheck(srv, mark, "collapsed", map[int]bool{1: true}),
			acctest.Value("zulip_message_flags.read", "ignored_because_not_subscribed_channels", testAccInt64Set()),
		).Clean().Step(),
		// As documented, a collapsed flag removed outside Terraform goes
		// unnoticed: Zulip cannot report it.
		acctest.Apply(example).Before(func() { testAccSetMessageFlag(srv, mark, 1, "collapsed", false) }).Plan(plancheck.ExpectEmptyPlan()).Step(),
		acctest.ImportVerifyBy("zulip_message_flags.starred", "starred:4", "id", "ignored_because_not_subscribed_channels"),
	)
}

// testAccNoRow fails when the user has a UserMessage row for the message,
// which a message never delivered (so read and historical) lacks.
func testAccNoRow(srv *acctest.Server, userID, messageID int) error {
	var err error
	srv.Do(func(r *refserver.Realm) {
		for _, m := range r.Messages {
			if _, ok := m.Flags[userID]; ok && m.ID == messageID {
				err = fmt.Errorf("user %d has flags %v on message %d", userID, m.Flags[userID], messageID)
			}
		}
	})
	return err
}

func testAccMessageFlagsConfig(flag string, ids ...int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return fmt.Sprintf(`
resource "zulip_message_flags" "test" {
  message_ids = [%s]
  flag        = %q
}
`, strings.Join(parts, ", "), flag)
}

// testAccInt64Set matches a set of exactly these numbers.
func testAccInt64Set(values ...int64) knownvalue.Check {
	checks := make([]knownvalue.Check, len(values))
	for i, v := range values {
		checks[i] = knownvalue.Int64Exact(v)
	}
	return knownvalue.SetExact(checks)
}

// testAccMessageFlagsOnServer checks, for each message, whether the user has
// the flag on the reference server.
func testAccMessageFlagsOnServer(srv *acctest.Server, userID int, flag string, want map[int]bool) error {
	var errs []string
	srv.Do(func(r *refserver.Realm) {
		for _, m := range r.Messages {
			if w, ok := want[m.ID]; ok && m.HasFlag(userID, flag) != w {
				errs = append(errs, fmt.Sprintf("message %d: user %d has %s = %v, want %v", m.ID, userID, flag, !w, w))
			}
		}
	})
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// testAccMessageFlagsCheck is testAccMessageFlagsOnServer as a state check.
func testAccMessageFlagsCheck(srv *acctest.Server, userID int, flag string, want map[int]bool) statecheck.StateCheck {
	return acctest.ServerCheck(func() error { return testAccMessageFlagsOnServer(srv, userID, flag, want) })
}

// testAccSetMessageFlag changes a user's flag on a message out of band.
func testAccSetMessageFlag(srv *acctest.Server, userID, messageID int, flag string, on bool) {
	srv.Do(func(r *refserver.Realm) {
		for _, m := range r.Messages {
			if m.ID != messageID {
				continue
			}
			var kept []string
			for _, f := range m.Flags[userID] {
				if f != flag {
					kept = append(kept, f)
				}
			}
			if on {
				kept = append(kept, flag)
			}
			m.Flags[userID] = kept
		}
	})
}

// TestAccMessageFlags_generatedConfig: configuration generated for starred
// messages is accepted as it is and plans no change.
func TestAccMessageFlags_generatedConfig(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: acctest.GeneratedConfigSteps(srv.ProviderConfig(t, refserver.SeedMemberID), testAccMessageFlagsConfig("starred", 3, 2),
			"zulip_message_flags.test", "starred:3,2"),
	})
}
