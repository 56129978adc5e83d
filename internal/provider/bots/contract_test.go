package bots_test

import (
	"fmt"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/bots"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// contract is the area's test contract (acctest.Contract).
var contract = acctest.Contract{Area: bots.Area(), Types: map[string]acctest.TypeContract{
	"zulip_custom_emoji": {Name: "CustomEmoji", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_custom_emoji\" \"many%d\" {\n  name   = \"many_%d\"\n  source = %q\n}\n", i, i, testAccEmojiFile("green.png"))
	}}, Kit: &acctest.KitCase{
		User:     refserver.SeedAdminID,
		Config:   fmt.Sprintf("resource \"zulip_custom_emoji\" \"test\" {\n  name   = \"kit_emoji\"\n  source = %q\n}\n", testAccEmojiFile("green.png")),
		ImportID: "kit_emoji",
		Adopted:  "resource \"zulip_custom_emoji\" \"test\" {\n  name = \"kit_emoji\"\n}\n",
		Create:   "POST /api/v1/realm/emoji/kit_emoji", List: "GET /api/v1/realm/emoji",
		Count: func(r *refserver.Realm) int {
			return acctest.CountIn(r.Emoji, func(e *refserver.CustomEmoji) bool { return e.Name == "kit_emoji" && !e.Deactivated })
		},
		Twin:     func(r *refserver.Realm) { acctest.AddEmoji(r, "kit_emoji", refserver.SeedAdminID) },
		Stranger: func(r *refserver.Realm) { acctest.AddEmoji(r, "kit_emoji", refserver.SeedMemberID) },
	}, Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_custom_emoji" "green_tick" {
  name = "green_tick"
}`}},
	"zulip_bot": {Name: "Bot", Scale: &acctest.ScaleCase{User: refserver.SeedAdminID, Many: func(i int) string {
		return fmt.Sprintf("resource \"zulip_bot\" \"many%d\" {\n  full_name  = \"Many %d\"\n  short_name = \"many%d\"\n}\n", i, i, i)
	}}, Half: &acctest.HalfCase{
		User: refserver.SeedAdminID, Create: "POST /api/v1/bots",
		Config: fmt.Sprintf("resource \"zulip_bot\" \"test\" {\n  full_name  = \"Half\"\n  short_name = \"half\"\n  owner_id = %d\n  role = \"moderator\"\n}\n", refserver.SeedMemberID),
	}, RenameExempt: "resources refer to bots by id (owners, members); the address follows the short name",
		Import: &acctest.ImportCase{User: refserver.SeedAdminID, Config: `
resource "zulip_bot" "alerts" {
  full_name  = "Alerts Hook"
  short_name = "alerts"
  bot_type   = "incoming_webhook"
}`}},
}, DataSources: map[string]acctest.DataContract{
	"zulip_bots":         {Scale: acctest.DataBlocks(refserver.SeedAdminID, "zulip_bots", "")},
	"zulip_custom_emoji": {Scale: acctest.DataBlocks(refserver.SeedAdminID, "zulip_custom_emoji", "")},
}}

func TestContract(t *testing.T)              { contract.Check(t) }
func TestAccContract(t *testing.T)           { contract.Run(t) }
func TestAccContract_versioned(t *testing.T) { contract.RunVersioned(t) }
