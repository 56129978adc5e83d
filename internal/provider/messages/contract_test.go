package messages_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/messages"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// contract is the area's test contract (acctest.Contract).
var contract = acctest.Contract{Area: messages.Area(), Types: map[string]acctest.TypeContract{
	"zulip_saved_snippet": {Name: "SavedSnippet", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_saved_snippet\" \"many%d\" {\n  title   = \"Many %d\"\n  content = \"Snippet %d.\"\n}\n", i, i, i)
	}}, Kit: &acctest.KitCase{
		User:   refserver.SeedAdminID,
		Config: "resource \"zulip_saved_snippet\" \"test\" {\n  title   = \"Kit\"\n  content = \"Made by the kit's tests.\"\n}\n",
		Create: "POST /api/v1/saved_snippets", List: "GET /api/v1/saved_snippets",
		Count: func(r *refserver.Realm) int {
			return acctest.CountInMap(r.Snippets, func(s *refserver.Snippet) bool {
				return s.OwnerID == refserver.SeedAdminID && s.Title == "Kit" && s.Content == "Made by the kit's tests."
			})
		},
		Twin: func(r *refserver.Realm) {
			r.NextID["snippet"]++
			id := r.NextID["snippet"]
			r.Snippets[id] = &refserver.Snippet{ID: id, OwnerID: refserver.SeedAdminID, Title: "Kit",
				Content: "Made by the kit's tests.", DateCreated: 1700000000}
		},
		NoNaturalKey: "Zulip lets two snippets have one title",
	}, Import: &acctest.ImportCase{User: refserver.SeedOwnerID, Config: `
resource "zulip_saved_snippet" "welcome" {
  title   = "Welcome"
  content = "Welcome to the team! Please read #**general>rules**."
}`}},
	"zulip_message_flags": {Name: "MessageFlags", Scale: &acctest.ScaleCase{User: refserver.SeedOwnerID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_message_flags\" \"starred%d\" {\n  message_ids = [%d]\n  flag        = \"starred\"\n}\nresource \"zulip_message_flags\" \"read%d\" {\n  message_ids = [%d]\n  flag        = \"read\"\n}\n", i, i+2, i, i+2)
	},
		// The flags come from the register snapshots read once per run: no message is asked about.
		Never: []string{"GET /api/v1/messages/matches_narrow"}}, HalfExempt: "one request per flag (POST /messages/flags)",
		RenameExempt: "nothing refers to a flag set; its identity is its import id",
		Import: &acctest.ImportCase{User: refserver.SeedMemberID, Config: `
resource "zulip_message_flags" "starred" {
  flag        = "starred"
  message_ids = [1]
}`}},
	"zulip_message": {Name: "Message", ScaleExempt: "Zulip lists no set of messages to read once: a refresh reads them by id, those refreshed together in one GET /messages (TestAccMessage_refreshBatched)",
		Half: &acctest.HalfCase{User: refserver.SeedMemberID, Create: "POST /api/v1/messages",
			SingleRequest: true, Config: "resource \"zulip_message\" \"test\" {\n  channel_id = 1\n  topic      = \"half\"\n  content    = \"Sent once.\"\n}\n"},
		Import: &acctest.ImportCase{User: refserver.SeedMemberID, Setup: func(r *refserver.Realm) {
			// The seeded message is days old: without a time limit its sender may delete it.
			r.SetSetting("message_content_delete_limit_seconds", nil)
		}, Config: `
resource "zulip_message" "thanks" {
  channel_id = 1
  topic      = "welcome"
  content    = "Thanks, glad to be here."
}`},
		Example: &acctest.ExampleCase{User: refserver.SeedMemberID, Checks: []statecheck.StateCheck{
			acctest.Value("zulip_message.office_hours", "topic", knownvalue.StringExact("office hours")),
			acctest.Value("zulip_message.welcome_note", "to_users", knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("mei@zulip.example.com")})),
		}}},
	"zulip_message_report": {Name: "MessageReport"},
	"zulip_message_post": {Name: "MessagePost", Example: &acctest.ExampleCase{User: refserver.SeedMemberID, Checks: []statecheck.StateCheck{
		acctest.Value("zulip_message_post.release", "content", knownvalue.StringExact("Release **2.4.0** is out: see the changelog.")),
		acctest.Value("zulip_message_post.release", "url", knownvalue.StringRegexp(acctest.ExpectErrRE(`/#narrow/near/\d+$`))),
	}}},
}, DataSources: map[string]acctest.DataContract{
	"zulip_messages_matching_narrow": {ScaleExempt: "each block is a query of its own: its narrow, checked against its messages"},
}}

func TestContract(t *testing.T)              { contract.Check(t) }
func TestAccContract(t *testing.T)           { contract.Run(t) }
func TestAccContract_versioned(t *testing.T) { contract.RunVersioned(t) }
