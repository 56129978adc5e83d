package bots_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// seedMoreEmoji adds, beside the seeded green_tick (active) and old_logo
// (deactivated), an animated emoji and a new old_logo.
func seedMoreEmoji(r *refserver.Realm) {
	r.Emoji = append(r.Emoji,
		&refserver.CustomEmoji{ID: 3, Name: "party", AuthorID: refserver.SeedMemberID, File: "0b1c2d3e.gif", Animated: true},
		&refserver.CustomEmoji{ID: 10, Name: "old_logo", AuthorID: refserver.SeedAdminID, File: "4f5a6b7c.png"})
	r.NextID["emoji"] = 10
}

// emojiEntry is the data source's element for an emoji.
func emojiEntry(id, name, file string, still knownvalue.Check, author int64, deactivated bool) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"id": knownvalue.StringExact(id), "name": knownvalue.StringExact(name),
		"source_url": knownvalue.StringExact("/user_avatars/2/emoji/images/" + file), "still_url": still,
		"author_id": knownvalue.Int64Exact(author), "deactivated": knownvalue.Bool(deactivated),
	})
}

// The emoji of seedMoreEmoji and the seed.
var (
	emojiGreenTick  = emojiEntry("1", "green_tick", "e3b0c442.png", knownvalue.Null(), refserver.SeedOwnerID, false)
	emojiOldLogo    = emojiEntry("2", "old_logo", "5feceb66.png", knownvalue.Null(), refserver.SeedMemberID, true)
	emojiParty      = emojiEntry("3", "party", "0b1c2d3e.gif", knownvalue.StringExact("/user_avatars/2/emoji/images/still/0b1c2d3e.png"), refserver.SeedMemberID, false)
	emojiNewOldLogo = emojiEntry("10", "old_logo", "4f5a6b7c.png", knownvalue.Null(), refserver.SeedAdminID, false)
)

// TestAccCustomEmojiDataSource_example: a member reads the active emoji by
// name; the deactivated ones only when asked (by name, then by id, which
// compares as a number: 2 before 10), and never in by_name.
func TestAccCustomEmojiDataSource_example(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(seedMoreEmoji)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	const addr = "data.zulip_custom_emoji.all"
	byName := knownvalue.MapExact(map[string]knownvalue.Check{
		"green_tick": knownvalue.StringExact("1"), "old_logo": knownvalue.StringExact("10"), "party": knownvalue.StringExact("3"),
	})
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(member+acctest.ReadExample(t, "examples/data-sources/zulip_custom_emoji/data-source.tf")).Clean().State(
				acctest.Value(addr, "emoji", knownvalue.ListExact([]knownvalue.Check{emojiGreenTick, emojiNewOldLogo, emojiParty})),
				acctest.Value(addr, "by_name", byName),
				statecheck.ExpectKnownOutputValue("green_tick_id", knownvalue.StringExact("1")),
				statecheck.ExpectKnownOutputValue("green_tick_image", knownvalue.StringExact("/user_avatars/2/emoji/images/e3b0c442.png")),
			).Step(),
			acctest.Apply(member+`
data "zulip_custom_emoji" "all" {
  include_deactivated = true
}`).Clean().State(
				acctest.Value(addr, "emoji", knownvalue.ListExact([]knownvalue.Check{emojiGreenTick, emojiOldLogo, emojiNewOldLogo, emojiParty})),
				acctest.Value(addr, "by_name", byName),
			).Step(),
		},
	})
}

// TestAccCustomEmojiDataSource_readOnce: three data sources of the active
// emoji read them with one request.
func TestAccCustomEmojiDataSource_readOnce(t *testing.T) {
	acctest.ReadOnce(t, nil, "zulip_custom_emoji", []string{"", "", "  include_deactivated = false\n"}, "GET", "/api/v1/realm/emoji")
}
