package people_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccUserDataSource_byID reads seeded users of every role by id, as an
// administrator, and checks every attribute against the seeded realm.
func TestAccUserDataSource_byID(t *testing.T) {
	srv := acctest.NewServer(t)
	config := srv.ProviderConfig(t, refserver.SeedAdminID) + testAccUserDSByIDConfig
	checks := append(testAccUserDSMarkChecks(), testAccUserDSOwnerChecks()...)
	checks = append(checks, testAccUserDSOtherChecks()...)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(config).State(checks...).Step(),
			// Changed outside Terraform: the next read shows it.
			acctest.Apply(config).OutOfBand(srv, func(r *refserver.Realm) {
				r.Users[refserver.SeedMemberID].FullName = "Mark M. Member"
				r.Users[refserver.SeedMemberID].Role = refserver.RoleModerator
				delete(r.Users[refserver.SeedMemberID].ProfileData, refserver.FieldIDGitHub)
			}).State(
				testAccUserDS("mark", "full_name", knownvalue.StringExact("Mark M. Member")),
				testAccUserDS("mark", "role", knownvalue.Int64Exact(300)),
				testAccUserDS("mark", "role_name", knownvalue.StringExact("moderator")),
				testAccUserDS("mark", "profile_data", knownvalue.MapSizeExact(4)),
			).Step(),
		},
	})
}

// testAccUserDSByIDConfig reads seeded users of every role by id.
const testAccUserDSByIDConfig = `
data "zulip_user" "mark" {
  user_id                       = 5
  include_custom_profile_fields = true
}

data "zulip_user" "olivia" {
  user_id = 1
}

data "zulip_user" "olivia_gravatar" {
  user_id                       = 1
  client_gravatar               = false
  include_custom_profile_fields = true
}

data "zulip_user" "mona" {
  user_id = 4
}

data "zulip_user" "maria" {
  user_id = 6
}

data "zulip_user" "gus" {
  user_id = 7
}

data "zulip_user" "bot" {
  user_id                       = 8
  include_custom_profile_fields = true
}

data "zulip_user" "dan" {
  user_id = 10
}

data "zulip_user" "mei" {
  user_id                       = 11
  include_custom_profile_fields = true
}
`

// testAccUserDS checks an attribute of data.zulip_user.<name>.
func testAccUserDS(name, attr string, want knownvalue.Check) statecheck.StateCheck {
	return acctest.Value("data.zulip_user."+name, attr, want)
}

// testAccUserDSProfile checks a profile_data element of the data source.
func testAccUserDSProfile(value string, rendered knownvalue.Check) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{"value": knownvalue.StringExact(value), "rendered_value": rendered})
}

// testAccUserDSMarkChecks: every attribute of a member whose address only
// administrators may see.
func testAccUserDSMarkChecks() []statecheck.StateCheck {
	str, i64, b, null := knownvalue.StringExact, knownvalue.Int64Exact, knownvalue.Bool, knownvalue.Null
	return []statecheck.StateCheck{
		testAccUserDS("mark", "user_id", i64(5)),
		testAccUserDS("mark", "email", str("user5@zulip.example.com")),
		testAccUserDS("mark", "api_email", str("user5@zulip.example.com")),
		testAccUserDS("mark", "delivery_email", str("mark@zulip.example.com")),
		testAccUserDS("mark", "full_name", str("Mark Member")),
		testAccUserDS("mark", "date_joined", str("2024-01-20T09:00:00+00:00")),
		testAccUserDS("mark", "is_active", b(true)),
		testAccUserDS("mark", "is_owner", b(false)),
		testAccUserDS("mark", "is_admin", b(false)),
		testAccUserDS("mark", "is_guest", b(false)),
		testAccUserDS("mark", "is_bot", b(false)),
		testAccUserDS("mark", "bot_type", null()),
		testAccUserDS("mark", "bot_owner_id", null()),
		testAccUserDS("mark", "role", i64(400)),
		testAccUserDS("mark", "role_name", str("member")),
		testAccUserDS("mark", "timezone", str("Europe/Berlin")),
		testAccUserDS("mark", "avatar_version", i64(1)),
		testAccUserDS("mark", "is_imported_stub", b(false)),
		testAccUserDS("mark", "client_gravatar", b(true)),
		testAccUserDS("mark", "include_custom_profile_fields", b(true)),
		testAccUserDS("mark", "profile_data", knownvalue.MapExact(map[string]knownvalue.Check{
			"2": testAccUserDSProfile("Backend engineer.", str("<p>Backend engineer.</p>")),
			"4": testAccUserDSProfile("1990-04-01", null()),
			"5": testAccUserDSProfile("https://mark.example.org", null()),
			"6": testAccUserDSProfile("[2]", null()),
			"7": testAccUserDSProfile("markm", null()),
		})),
	}
}

// testAccUserDSOwnerChecks: the owner, whose address is public: with
// client_gravatar (the default) her Gravatar URL is left to the client.
func testAccUserDSOwnerChecks() []statecheck.StateCheck {
	str, i64, b, null := knownvalue.StringExact, knownvalue.Int64Exact, knownvalue.Bool, knownvalue.Null
	return []statecheck.StateCheck{
		testAccUserDS("olivia", "role", i64(100)),
		testAccUserDS("olivia", "role_name", str("owner")),
		testAccUserDS("olivia", "is_owner", b(true)),
		testAccUserDS("olivia", "is_admin", b(true)),
		testAccUserDS("olivia", "api_email", str("olivia@zulip.example.com")),
		testAccUserDS("olivia", "delivery_email", str("olivia@zulip.example.com")),
		testAccUserDS("olivia", "avatar_url", null()),
		testAccUserDS("olivia", "client_gravatar", b(true)),
		testAccUserDS("olivia", "include_custom_profile_fields", b(false)),
		testAccUserDS("olivia", "profile_data", null()),
		testAccUserDS("olivia_gravatar", "avatar_url", knownvalue.StringRegexp(regexp.MustCompile(`^https://secure\.gravatar\.com/avatar/[0-9a-f]{32}\?`))),
		testAccUserDS("olivia_gravatar", "profile_data", knownvalue.MapExact(map[string]knownvalue.Check{
			"1": testAccUserDSProfile("+1-555-0100", str("<p>+1-555-0100</p>")),
			"3": testAccUserDSProfile("0", null()),
			"8": testAccUserDSProfile("she/her", null()),
			"9": testAccUserDSProfile("E-0001", str("<p>E-0001</p>")),
		})),
	}
}

// testAccUserDSOtherChecks: a moderator, a hidden address, a guest, a bot, a
// deactivated user and an uploaded avatar.
func testAccUserDSOtherChecks() []statecheck.StateCheck {
	str, i64, b, null := knownvalue.StringExact, knownvalue.Int64Exact, knownvalue.Bool, knownvalue.Null
	return []statecheck.StateCheck{
		// A moderator whose address moderators and up may see.
		testAccUserDS("mona", "role", i64(300)),
		testAccUserDS("mona", "role_name", str("moderator")),
		testAccUserDS("mona", "is_admin", b(false)),
		testAccUserDS("mona", "api_email", str("user4@zulip.example.com")),
		testAccUserDS("mona", "delivery_email", str("mona@zulip.example.com")),

		// Visible to nobody: hidden even from an administrator.
		testAccUserDS("maria", "api_email", str("user6@zulip.example.com")),
		testAccUserDS("maria", "delivery_email", null()),
		testAccUserDS("maria", "timezone", null()),

		testAccUserDS("gus", "role", i64(600)),
		testAccUserDS("gus", "role_name", str("guest")),
		testAccUserDS("gus", "is_guest", b(true)),

		// A bot: its owner and type, no profile data even when asked.
		testAccUserDS("bot", "is_bot", b(true)),
		testAccUserDS("bot", "bot_type", i64(1)),
		testAccUserDS("bot", "bot_owner_id", i64(refserver.SeedMemberID)),
		testAccUserDS("bot", "api_email", str("build-bot@zulip.example.com")),
		testAccUserDS("bot", "role_name", str("member")),
		testAccUserDS("bot", "profile_data", null()),

		testAccUserDS("dan", "is_active", b(false)),
		testAccUserDS("dan", "full_name", str("Dan Departed")),

		// An uploaded avatar is served whatever client_gravatar says.
		testAccUserDS("mei", "avatar_url", knownvalue.StringRegexp(regexp.MustCompile(`/user_avatars/.*\?version=2$`))),
		testAccUserDS("mei", "avatar_version", i64(2)),
		testAccUserDS("mei", "timezone", str("Asia/Tokyo")),
		testAccUserDS("mei", "profile_data", knownvalue.MapExact(map[string]knownvalue.Check{
			"3": testAccUserDSProfile("1", null()),
			"6": testAccUserDSProfile("[1,5]", null()),
		})),
	}
}

// TestAccUserDataSource_byEmail looks users up by e-mail as a member: real
// addresses visible to members work, hidden ones fail with an explanation, and
// the API (dummy) address always works.
func TestAccUserDataSource_byEmail(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMember3ID)
	str, attr := knownvalue.StringExact, testAccUserDS
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: member + `
data "zulip_user" "aaron" {
  email = "aaron@zulip.example.com"
}

data "zulip_user" "alice" {
  email = "alice@zulip.example.com"
}

data "zulip_user" "mark" {
  email = "user5@zulip.example.com"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					// Visible to everyone: the real address is the API address.
					attr("aaron", "user_id", knownvalue.Int64Exact(refserver.SeedAdminID)),
					attr("aaron", "email", str("aaron@zulip.example.com")),
					attr("aaron", "api_email", str("aaron@zulip.example.com")),
					attr("aaron", "role_name", str("administrator")),
					// Visible to members: found by the real address, which
					// differs from her API address.
					attr("alice", "user_id", knownvalue.Int64Exact(refserver.SeedAdmin2ID)),
					attr("alice", "email", str("alice@zulip.example.com")),
					attr("alice", "api_email", str("user3@zulip.example.com")),
					attr("alice", "delivery_email", str("alice@zulip.example.com")),
					// Visible to administrators only: the dummy address finds
					// him, and his real address stays hidden from a member.
					attr("mark", "user_id", knownvalue.Int64Exact(refserver.SeedMemberID)),
					attr("mark", "email", str("user5@zulip.example.com")),
					attr("mark", "full_name", str("Mark Member")),
					attr("mark", "delivery_email", knownvalue.Null()),
				},
			},
			{
				// Mark's real address is hidden from a member: Zulip says "No
				// such user", and the diagnostic explains why.
				Config: member + `
data "zulip_user" "mark" {
  email = "mark@zulip.example.com"
}
`,
				ExpectError: acctest.ExpectErr(`User Not Found`, `data.zulip_user.mark`,
					`No user with the e-mail address "mark@zulip.example.com" is visible`,
					`e-mail visibility setting hides it`, `user_id`, `No such user`),
			},
		},
	})
}

// TestAccUserDataSource_validation checks plan-time and server-side errors.
func TestAccUserDataSource_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	step := func(body string, want *regexp.Regexp) resource.TestStep {
		return resource.TestStep{Config: admin + "data \"zulip_user\" \"x\" {\n" + body + "\n}\n", ExpectError: want}
	}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			step(`user_id = 5
email = "user5@zulip.example.com"`, acctest.ExpectErr(`Invalid Attribute Combination`, `Exactly one of these attributes must be configured: [user_id,email]`)),
			step(`include_custom_profile_fields = true`, acctest.ExpectErr(`Missing Attribute Configuration`, `Exactly one of these attributes must be configured: [user_id,email]`)),
			step(`user_id = 0`, acctest.ExpectErr(`user_id`, `value must be at least 1`)),
			step(`email = "Mark Member <mark@zulip.example.com>"`, acctest.ExpectErr(`email`, `is not a valid e-mail address`)),
			step(`user_id = 999`, acctest.ExpectErr(`User Not Found`, `No user with id 999 exists`, `No such user`)),
			step(`email = "nobody@zulip.example.com"`, acctest.ExpectErr(`User Not Found`, `"nobody@zulip.example.com"`, `e-mail visibility`)),
		},
	})
	// The plan-time combination errors come before any request to the server.
	if got := srv.Requests("GET", "/api/v1/users/5"); got != 0 {
		t.Errorf("the user_id+email step read user 5 %d times; want a plan-time error without a request", got)
	}
}

// TestAccUserDataSource_example applies the documentation's example.
func TestAccUserDataSource_example(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	example := acctest.ReadExample(t, "examples/data-sources/zulip_user/data-source.tf")
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: admin + example,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("mark_role", knownvalue.StringExact("member")),
				statecheck.ExpectKnownOutputValue("mark_github", knownvalue.StringExact("markm")),
				statecheck.ExpectKnownOutputValue("mark_mentors", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.Int64Exact(refserver.SeedAdminID),
				})),
				statecheck.ExpectKnownOutputValue("aaron_is_admin", knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.zulip_user.aaron", tfjsonpath.New("user_id"), knownvalue.Int64Func(func(v int64) error {
					if v != refserver.SeedAdminID {
						return fmt.Errorf("aaron@ resolved to user %d, want %d", v, refserver.SeedAdminID)
					}
					return nil
				})),
			},
		}},
	})
}

// TestAccUserDataSource_serverTooOld checks that a lookup by e-mail on a
// server without GET /users/{email} fails before any request, while a lookup
// by id still works there.
func TestAccUserDataSource_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 30 })
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: admin + `
data "zulip_user" "x" {
  email = "user5@zulip.example.com"
}
`,
				ExpectError: acctest.ExpectErr(`Zulip Server Too Old`, `looking a user up by email needs Zulip feature level 39`,
					`has feature level 30`, `by user_id instead`),
			},
			{
				Config: admin + `
data "zulip_user" "x" {
  user_id = 5
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.zulip_user.x", tfjsonpath.New("full_name"), knownvalue.StringExact("Mark Member")),
					statecheck.ExpectKnownValue("data.zulip_user.x", tfjsonpath.New("is_imported_stub"), knownvalue.Bool(false)),
				},
			},
		},
	})
	if got := srv.Requests("GET", "/api/v1/users/user5@zulip.example.com"); got != 0 {
		t.Errorf("the e-mail lookup reached the server %d times; want none on a server without it", got)
	}
}
