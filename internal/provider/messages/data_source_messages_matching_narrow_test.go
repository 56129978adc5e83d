package messages_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// narrowCheckedIDs are the seeded messages the tests ask about: #general
// (1-4, 13), #announce (5), #leadership (8, which Mark never received),
// #random (10) and #design (12).
const narrowCheckedIDs = "[1, 2, 3, 4, 5, 8, 10, 12, 13]"

// testAccNarrowConfig declares a zulip_messages_matching_narrow over
// narrowCheckedIDs; terms are HCL objects.
func testAccNarrowConfig(name string, terms ...string) string {
	return fmt.Sprintf(`
data "zulip_messages_matching_narrow" %q {
  message_ids = %s
  narrow      = [%s]
}
`, name, narrowCheckedIDs, strings.Join(terms, ", "))
}

// expectMatchIDs checks the set of matching message ids of a data source.
func expectMatchIDs(name string, ids ...string) statecheck.StateCheck {
	keys := map[string]knownvalue.Check{}
	for _, id := range ids {
		keys[id] = knownvalue.NotNull()
	}
	return statecheck.ExpectKnownValue("data.zulip_messages_matching_narrow."+name, tfjsonpath.New("matches"), knownvalue.MapExact(keys))
}

// TestAccMessagesMatchingNarrowDataSource_operators checks each operator on the
// seeded messages, as Mark Member: every term narrows the unfiltered result.
func TestAccMessagesMatchingNarrowDataSource_operators(t *testing.T) {
	srv := acctest.NewServer(t)
	mark := srv.ProviderConfig(t, refserver.SeedMemberID)
	config := mark + strings.Join([]string{
		testAccNarrowConfig("all"),
		testAccNarrowConfig("channel_name", `{ operator = "channel", operand = "general" }`),
		testAccNarrowConfig("channel_id", `{ operator = "channel", operand = "3" }`),
		testAccNarrowConfig("stream_alias", `{ operator = "stream", operand = "announce" }`),
		testAccNarrowConfig("topic", `{ operator = "channel", operand = "general" }`, `{ operator = "topic", operand = "releases" }`),
		testAccNarrowConfig("sender_id", `{ operator = "sender", operand = "2" }`),
		testAccNarrowConfig("sender_email", `{ operator = "sender", operand = "mei@zulip.example.com" }`),
		testAccNarrowConfig("starred", `{ operator = "is", operand = "starred" }`),
		testAccNarrowConfig("mentioned", `{ operator = "is", operand = "mentioned" }`),
		testAccNarrowConfig("not_general", `{ operator = "channel", operand = "general", negated = true }`),
		testAccNarrowConfig("not_negated", `{ operator = "channel", operand = "general", negated = false }`),
		testAccNarrowConfig("message_id", `{ operator = "id", operand = "4" }`),
		testAccNarrowConfig("search", `{ operator = "search", operand = "release" }`),
		testAccNarrowConfig("phrase", `{ operator = "search", operand = "\"notes are\"" }`),
		// Mark follows general > releases (NarrowBuilder.by_is "followed").
		testAccNarrowConfig("followed", `{ operator = "is", operand = "followed" }`),
		// with: the conversation of message 3 (general > lunch), whatever
		// channel and topic terms say (update_narrow_terms_containing_with_operator).
		testAccNarrowConfig("with", `{ operator = "with", operand = "3" }`, `{ operator = "channel", operand = "random" }`),
	}, "")
	ds := func(name string) string { return "data.zulip_messages_matching_narrow." + name }
	acctest.ParallelSteps(t,
		acctest.Apply(config).State(
			// Without terms: every message Mark received (not 8).
			expectMatchIDs("all", "1", "2", "3", "4", "5", "10", "12", "13"),
			expectMatchIDs("channel_name", "1", "2", "3", "4", "13"),
			// "3" is sent as a number: channel 3, #design.
			expectMatchIDs("channel_id", "12"),
			expectMatchIDs("stream_alias", "5"),
			expectMatchIDs("topic", "4", "13"),
			expectMatchIDs("sender_id", "4"),
			expectMatchIDs("sender_email", "3", "13"),
			expectMatchIDs("starred", "1"),
			expectMatchIDs("mentioned", "4"),
			expectMatchIDs("not_general", "5", "10", "12"),
			expectMatchIDs("not_negated", "1", "2", "3", "4", "13"),
			expectMatchIDs("message_id", "4"),
			expectMatchIDs("search", "4", "13"),
			expectMatchIDs("phrase", "13"),
			expectMatchIDs("followed", "4", "13"),
			expectMatchIDs("with", "3"),
			// Without a search term, the message as rendered.
			statecheck.ExpectKnownValue(ds("channel_name"), tfjsonpath.New("matches").AtMapKey("3"), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"match_content": knownvalue.StringExact("<p>Pizza on Friday?</p>"),
				"match_subject": knownvalue.StringExact("lunch"),
			})),
			// With one, the hits highlighted in content and topic.
			statecheck.ExpectKnownValue(ds("search"), tfjsonpath.New("matches").AtMapKey("4"), knownvalue.ObjectExact(map[string]knownvalue.Check{
				"match_content": knownvalue.StringExact(`<p><span class="highlight">Release</span> 1.0 is out. ` +
					`<span class="user-mention" data-user-id="5">@Mark Member</span> please check the deploy.</p>`),
				"match_subject": knownvalue.StringExact(`<span class="highlight">releases</span>`),
			})),
			statecheck.ExpectKnownValue(ds("phrase"), tfjsonpath.New("matches").AtMapKey("13").AtMapKey("match_content"),
				knownvalue.StringExact(`<p>Release <span class="highlight">notes are</span> in the wiki.</p>`)),
			// The configuration is kept as written.
			statecheck.ExpectKnownValue(ds("not_general"), tfjsonpath.New("narrow"), knownvalue.ListExact([]knownvalue.Check{
				knownvalue.ObjectExact(map[string]knownvalue.Check{
					"operator": knownvalue.StringExact("channel"), "operand": knownvalue.StringExact("general"), "negated": knownvalue.Bool(true),
				}),
			})),
		).Step(),
		// Flags changed outside Terraform: the next read sees them.
		acctest.Apply(config).OutOfBand(srv, func(r *refserver.Realm) {
			for _, m := range r.Messages {
				if m.ID == 5 || m.ID == 12 {
					m.Flags[refserver.SeedMemberID] = append(m.Flags[refserver.SeedMemberID], "starred")
				}
			}
		}).State(expectMatchIDs("starred", "1", "5", "12")).Step(),
	)
}

// TestAccMessagesMatchingNarrowDataSource_otherUser checks that results are
// the caller's: another member has other stars and received other messages.
func TestAccMessagesMatchingNarrowDataSource_otherUser(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	acctest.ParallelSteps(t,
		acctest.Apply(owner+testAccNarrowConfig("all")+testAccNarrowConfig("mentioned", `{ operator = "is", operand = "mentioned" }`)+
			testAccNarrowConfig("leadership", `{ operator = "channel", operand = "leadership" }`)).State(
			// The owner is in #leadership but not in #random.
			expectMatchIDs("all", "1", "2", "3", "4", "5", "8", "12", "13"),
			expectMatchIDs("mentioned"),
			expectMatchIDs("leadership", "8"),
		).Step(),
	)
}

// TestAccMessagesMatchingNarrowDataSource_badInput checks plan-time and server
// refusals.
func TestAccMessagesMatchingNarrowDataSource_badInput(t *testing.T) {
	srv := acctest.NewServer(t)
	mark := srv.ProviderConfig(t, refserver.SeedMemberID)
	step := func(config string, want ...string) resource.TestStep {
		return acctest.Apply(mark + config).Fails(acctest.ExpectErr(want...)).Step()
	}
	acctest.ParallelSteps(t,
		// Unknown operator: the server refuses; the error points at the term.
		step(testAccNarrowConfig("x", `{ operator = "topic", operand = "lunch" }`, `{ operator = "colour", operand = "blue" }`),
			`Invalid Narrow`, `narrow[1].operator`, `unknown operator colour`),
		// Malformed operator: refused at plan time.
		step(testAccNarrowConfig("x", `{ operator = "Channel", operand = "general" }`),
			`narrow[0].operator`, `must be a narrow operator`),
		step(testAccNarrowConfig("x", `{ operator = "channel", operand = "no-such-channel" }`),
			`Invalid Narrow`, `unknown channel no-such-channel`),
		// A numeric operand is an id: there is no channel 99.
		step(testAccNarrowConfig("x", `{ operator = "channel", operand = "99" }`),
			`Invalid Narrow`, `unknown channel 99`),
		step(testAccNarrowConfig("x", `{ operator = "sender", operand = "nobody@zulip.example.com" }`),
			`Invalid Narrow`, `unknown user nobody@zulip.example.com`),
		step(testAccNarrowConfig("x", `{ operator = "is", operand = "sleepy" }`),
			`Invalid Narrow`, `unknown 'is' operand sleepy`),
		step(testAccNarrowConfig("x", `{ operator = "search", operand = "  " }`),
			`Invalid Narrow`, `operand cannot be blank`),
		step(`
data "zulip_messages_matching_narrow" "x" {
  message_ids = [1, 0]
  narrow      = []
}
`, `message_ids[1]`, `value must be at least 1`),
		step(`
data "zulip_messages_matching_narrow" "x" {
  message_ids = [1]
  narrow      = [{ operand = "general" }]
}
`, `Incorrect attribute value type`, `attribute "operator" is required`),
	)
}

// TestAccMessagesMatchingNarrowDataSource_example applies the documentation's example.
func TestAccMessagesMatchingNarrowDataSource_example(t *testing.T) {
	srv := acctest.NewServer(t)
	mark := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelSteps(t,
		acctest.Apply(mark+acctest.ReadExample(t, "examples/data-sources/zulip_messages_matching_narrow/data-source.tf")).State(
			statecheck.ExpectKnownOutputValue("release_message_ids", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.StringExact("13"), knownvalue.StringExact("4"),
			})),
			statecheck.ExpectKnownOutputValue("release_notes_html",
				knownvalue.StringExact(`<p><span class="highlight">Release</span> notes are in the wiki.</p>`)),
			expectMatchIDs("release_notes", "13"),
			expectMatchIDs("elsewhere", "5", "10"),
		).Step(),
	)
}
