package people_test

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

// TestAccUserStatus_seeded reads the seeded statuses as a member, from the
// organization's statuses that the run's register holds (no status is read
// alone), and as a guest, who may not see every user, each alone.
func TestAccUserStatus_seeded(t *testing.T) {
	t.Run("member", func(t *testing.T) { testUserStatusSeeded(t, refserver.SeedMemberID, false) })
	t.Run("guest", func(t *testing.T) { testUserStatusSeeded(t, refserver.SeedGuestID, true) })
}

func testUserStatusSeeded(t *testing.T, account int, readAlone bool) {
	srv := acctest.NewServer(t)
	config := srv.ProviderConfig(t, account) + `
data "zulip_user_status" "mark" {
  user_id = 5
}

data "zulip_user_status" "mei" {
  user_id = 11
}

data "zulip_user_status" "olivia" {
  user_id = 1
}

data "zulip_user_status" "maria" {
  user_id = 6
}
`
	null := knownvalue.Null()
	check := func(addr string, userID int64, text, name, code, kind knownvalue.Check, away bool) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("user_id"), knownvalue.Int64Exact(userID)),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("status_text"), text),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("emoji_name"), name),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("emoji_code"), code),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("reaction_type"), kind),
			statecheck.ExpectKnownValue(addr, tfjsonpath.New("away"), knownvalue.Bool(away)),
		}
	}
	var first, second []statecheck.StateCheck
	first = append(first, check("data.zulip_user_status.mark", refserver.SeedMemberID, knownvalue.StringExact("In a meeting"),
		knownvalue.StringExact("calendar"), knownvalue.StringExact("1f4c5"), knownvalue.StringExact("unicode_emoji"), false)...)
	first = append(first, check("data.zulip_user_status.mei", refserver.SeedMember3ID, null, null, null, null, true)...)
	first = append(first, check("data.zulip_user_status.olivia", refserver.SeedOwnerID, knownvalue.StringExact("Working remotely"), null, null, null, false)...)
	// No status is not an error: everything is empty.
	first = append(first, check("data.zulip_user_status.maria", refserver.SeedMember2ID, null, null, null, null, false)...)
	second = append(second, check("data.zulip_user_status.maria", refserver.SeedMember2ID, knownvalue.StringExact("On vacation"),
		knownvalue.StringExact("palm_tree"), knownvalue.StringExact("1f334"), knownvalue.StringExact("unicode_emoji"), false)...)
	second = append(second, check("data.zulip_user_status.mark", refserver.SeedMemberID, null, null, null, null, false)...)

	aloneReads := func() error {
		n := 0
		for req, count := range srv.RequestCounts() {
			if strings.HasPrefix(req, "GET /api/v1/users/") && strings.HasSuffix(req, "/status") {
				n += count
			}
		}
		if (n > 0) != readAlone {
			return fmt.Errorf("%d statuses read alone (GET /users/{id}/status), want them read alone: %v", n, readAlone)
		}
		return nil
	}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(config).State(first...).OnServer(aloneReads).Step(),
			// Changed outside Terraform: Maria sets a status, Mark clears his.
			acctest.Apply(config).OutOfBand(srv, func(r *refserver.Realm) {
				r.Users[refserver.SeedMember2ID].Status = &refserver.UserStatus{
					StatusText: "On vacation", EmojiName: "palm_tree", EmojiCode: "1f334", ReactionType: "unicode_emoji",
				}
				r.Users[refserver.SeedMemberID].Status = nil
			}).State(second...).Step(),
		},
	})
}

func TestAccUserStatus_badInput(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(member + `data "zulip_user_status" "x" { user_id = 999 }`).
				Fails(acctest.ExpectErr("User Not Found", "no user with id 999", "No such user")).Step(),
			// A bot has no status: Zulip answers as for an unknown user.
			acctest.Apply(member + `data "zulip_user_status" "x" { user_id = 8 }`).Fails(acctest.ExpectErr("no user with id 8")).Step(),
			acctest.Apply(member + `data "zulip_user_status" "x" { user_id = 10 }`).
				Fails(acctest.ExpectErr("status of user 10", "User is deactivated")).Step(),
			acctest.Apply(member + `data "zulip_user_status" "x" { user_id = 0 }`).
				Fails(acctest.ExpectErr("user_id", "value must be at least 1")).Step(),
		},
	})
}

func TestAccUserStatus_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 250 })
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config:      srv.ProviderConfig(t, refserver.SeedMemberID) + `data "zulip_user_status" "x" { user_id = 5 }`,
			ExpectError: acctest.ExpectErr("zulip_user_status needs Zulip feature level 262 or newer", "has feature level 250"),
		}},
	})
}

func TestAccUserStatus_example(t *testing.T) {
	acctest.ReadsExample(t, refserver.SeedAdminID, "examples/data-sources/zulip_user_status/data-source.tf",
		statecheck.ExpectKnownOutputValue("mark_status", knownvalue.StringExact("In a meeting")),
		statecheck.ExpectKnownOutputValue("mark_is_away", knownvalue.Bool(false)),
	)
}
