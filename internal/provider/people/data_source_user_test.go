package people_test

import (
	"fmt"
	"os"
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
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	config := admin + `
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
	str := knownvalue.StringExact
	i64 := knownvalue.Int64Exact
	b := knownvalue.Bool
	null := knownvalue.Null
	attr := func(addr, name string, v knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectKnownValue("data.zulip_user."+addr, tfjsonpath.New(name), v)
	}
	profileValue := func(value string, rendered knownvalue.Check) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"value": str(value), "rendered_value": rendered})
	}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					// A member whose address only administrators may see.
					attr("mark", "user_id", i64(5)),
					attr("mark", "email", str("user5@zulip.example.com")),
					attr("mark", "api_email", str("user5@zulip.example.com")),
					attr("mark", "delivery_email", str("mark@zulip.example.com")),
					attr("mark", "full_name", str("Mark Member")),
					attr("mark", "date_joined", str("2024-01-20T09:00:00+00:00")),
					attr("mark", "is_active", b(true)),
					attr("mark", "is_owner", b(false)),
					attr("mark", "is_admin", b(false)),
					attr("mark", "is_guest", b(false)),
					attr("mark", "is_bot", b(false)),
					attr("mark", "bot_type", null()),
					attr("mark", "bot_owner_id", null()),
					attr("mark", "role", i64(400)),
					attr("mark", "role_name", str("member")),
					attr("mark", "timezone", str("Europe/Berlin")),
					attr("mark", "avatar_version", i64(1)),
					attr("mark", "is_imported_stub", b(false)),
					attr("mark", "client_gravatar", b(true)),
					attr("mark", "include_custom_profile_fields", b(true)),
					attr("mark", "profile_data", knownvalue.MapExact(map[string]knownvalue.Check{
						"2": profileValue("Backend engineer.", str("<p>Backend engineer.</p>")),
						"4": profileValue("1990-04-01", null()),
						"5": profileValue("https://mark.example.org", null()),
						"6": profileValue("[2]", null()),
						"7": profileValue("markm", null()),
					})),

					// The owner, whose address is public: with client_gravatar
					// (the default) her Gravatar URL is left to the client.
					attr("olivia", "role", i64(100)),
					attr("olivia", "role_name", str("owner")),
					attr("olivia", "is_owner", b(true)),
					attr("olivia", "is_admin", b(true)),
					attr("olivia", "api_email", str("olivia@zulip.example.com")),
					attr("olivia", "delivery_email", str("olivia@zulip.example.com")),
					attr("olivia", "avatar_url", null()),
					attr("olivia", "client_gravatar", b(true)),
					attr("olivia", "include_custom_profile_fields", b(false)),
					attr("olivia", "profile_data", null()),
					attr("olivia_gravatar", "avatar_url", knownvalue.StringRegexp(regexp.MustCompile(`^https://secure\.gravatar\.com/avatar/[0-9a-f]{32}\?`))),
					attr("olivia_gravatar", "profile_data", knownvalue.MapExact(map[string]knownvalue.Check{
						"1": profileValue("+1-555-0100", str("<p>+1-555-0100</p>")),
						"3": profileValue("0", null()),
						"8": profileValue("she/her", null()),
						"9": profileValue("E-0001", str("<p>E-0001</p>")),
					})),

					// A moderator whose address moderators and up may see.
					attr("mona", "role", i64(300)),
					attr("mona", "role_name", str("moderator")),
					attr("mona", "is_admin", b(false)),
					attr("mona", "api_email", str("user4@zulip.example.com")),
					attr("mona", "delivery_email", str("mona@zulip.example.com")),

					// Visible to nobody: hidden even from an administrator.
					attr("maria", "api_email", str("user6@zulip.example.com")),
					attr("maria", "delivery_email", null()),
					attr("maria", "timezone", null()),

					attr("gus", "role", i64(600)),
					attr("gus", "role_name", str("guest")),
					attr("gus", "is_guest", b(true)),

					// A bot: its owner and type, no profile data even when asked.
					attr("bot", "is_bot", b(true)),
					attr("bot", "bot_type", i64(1)),
					attr("bot", "bot_owner_id", i64(refserver.SeedMemberID)),
					attr("bot", "api_email", str("build-bot@zulip.example.com")),
					attr("bot", "role_name", str("member")),
					attr("bot", "profile_data", null()),

					attr("dan", "is_active", b(false)),
					attr("dan", "full_name", str("Dan Departed")),

					// An uploaded avatar is served whatever client_gravatar says.
					attr("mei", "avatar_url", knownvalue.StringRegexp(regexp.MustCompile(`/user_avatars/.*\?version=2$`))),
					attr("mei", "avatar_version", i64(2)),
					attr("mei", "timezone", str("Asia/Tokyo")),
					attr("mei", "profile_data", knownvalue.MapExact(map[string]knownvalue.Check{
						"3": profileValue("1", null()),
						"6": profileValue("[1,5]", null()),
					})),
				},
			},
			{
				// Changed outside Terraform: the next read shows it.
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) {
						r.Users[refserver.SeedMemberID].FullName = "Mark M. Member"
						r.Users[refserver.SeedMemberID].Role = refserver.RoleModerator
						delete(r.Users[refserver.SeedMemberID].ProfileData, refserver.FieldIDGitHub)
					})
				},
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					attr("mark", "full_name", str("Mark M. Member")),
					attr("mark", "role", i64(300)),
					attr("mark", "role_name", str("moderator")),
					attr("mark", "profile_data", knownvalue.MapSizeExact(4)),
				},
			},
		},
	})
}

// TestAccUserDataSource_byEmail looks users up by e-mail as a member: real
// addresses visible to members work, hidden ones fail with an explanation, and
// the API (dummy) address always works.
func TestAccUserDataSource_byEmail(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMember3ID)
	str := knownvalue.StringExact
	attr := func(addr, name string, v knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectKnownValue("data.zulip_user."+addr, tfjsonpath.New(name), v)
	}
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
	example, err := os.ReadFile(acctest.RepoPath("examples/data-sources/zulip_user/data-source.tf"))
	if err != nil {
		t.Fatal(err)
	}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: admin + string(example),
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
