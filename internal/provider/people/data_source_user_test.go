package people_test

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccUserDataSource_byID reads seeded users of every role by id, as an
// administrator, and checks every attribute against the seeded realm.
func TestAccUserDataSource_byID(t *testing.T) {
	srv := acctest.NewServer(t)
	config := srv.ProviderConfig(t, refserver.SeedAdminID) + testAccUserDSByIDConfig
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(config).State(testAccUserDSChecks()...).Step(),
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

// testAccUserDSWant is what TestAccUserDataSource_byID reads of each seeded
// user, by data source name and attribute.
var testAccUserDSWant = map[string]map[string]knownvalue.Check{
	// A member whose address only administrators may see: every attribute.
	"mark": {
		"user_id":                       knownvalue.Int64Exact(5),
		"email":                         knownvalue.StringExact("user5@zulip.example.com"),
		"api_email":                     knownvalue.StringExact("user5@zulip.example.com"),
		"delivery_email":                knownvalue.StringExact("mark@zulip.example.com"),
		"full_name":                     knownvalue.StringExact("Mark Member"),
		"date_joined":                   knownvalue.StringExact("2024-01-20T09:00:00+00:00"),
		"is_active":                     knownvalue.Bool(true),
		"is_owner":                      knownvalue.Bool(false),
		"is_admin":                      knownvalue.Bool(false),
		"is_guest":                      knownvalue.Bool(false),
		"is_bot":                        knownvalue.Bool(false),
		"bot_type":                      knownvalue.Null(),
		"bot_owner_id":                  knownvalue.Null(),
		"role":                          knownvalue.Int64Exact(400),
		"role_name":                     knownvalue.StringExact("member"),
		"timezone":                      knownvalue.StringExact("Europe/Berlin"),
		"avatar_version":                knownvalue.Int64Exact(1),
		"is_imported_stub":              knownvalue.Bool(false),
		"client_gravatar":               knownvalue.Bool(true),
		"include_custom_profile_fields": knownvalue.Bool(true),
		"profile_data": knownvalue.MapExact(map[string]knownvalue.Check{
			"2": testAccUserDSProfile("Backend engineer.", knownvalue.StringExact("<p>Backend engineer.</p>")),
			"4": testAccUserDSProfile("1990-04-01", knownvalue.Null()),
			"5": testAccUserDSProfile("https://mark.example.org", knownvalue.Null()),
			"6": testAccUserDSProfile("[2]", knownvalue.Null()),
			"7": testAccUserDSProfile("markm", knownvalue.Null()),
		}),
	},
	// The owner, whose address is public: with client_gravatar (the
	// default) her Gravatar URL is left to the client.
	"olivia": {
		"role":                          knownvalue.Int64Exact(100),
		"role_name":                     knownvalue.StringExact("owner"),
		"is_owner":                      knownvalue.Bool(true),
		"is_admin":                      knownvalue.Bool(true),
		"api_email":                     knownvalue.StringExact("olivia@zulip.example.com"),
		"delivery_email":                knownvalue.StringExact("olivia@zulip.example.com"),
		"avatar_url":                    knownvalue.Null(),
		"client_gravatar":               knownvalue.Bool(true),
		"include_custom_profile_fields": knownvalue.Bool(false),
		"profile_data":                  knownvalue.Null(),
	},
	"olivia_gravatar": {
		"avatar_url": knownvalue.StringRegexp(regexp.MustCompile(`^https://secure\.gravatar\.com/avatar/[0-9a-f]{32}\?`)),
		"profile_data": knownvalue.MapExact(map[string]knownvalue.Check{
			"1": testAccUserDSProfile("+1-555-0100", knownvalue.StringExact("<p>+1-555-0100</p>")),
			"3": testAccUserDSProfile("0", knownvalue.Null()),
			"8": testAccUserDSProfile("she/her", knownvalue.Null()),
			"9": testAccUserDSProfile("E-0001", knownvalue.StringExact("<p>E-0001</p>")),
		}),
	},
	// A moderator whose address moderators and up may see.
	"mona": {
		"role":           knownvalue.Int64Exact(300),
		"role_name":      knownvalue.StringExact("moderator"),
		"is_admin":       knownvalue.Bool(false),
		"api_email":      knownvalue.StringExact("user4@zulip.example.com"),
		"delivery_email": knownvalue.StringExact("mona@zulip.example.com"),
	},
	// Visible to nobody: hidden even from an administrator.
	"maria": {
		"api_email":      knownvalue.StringExact("user6@zulip.example.com"),
		"delivery_email": knownvalue.Null(),
		"timezone":       knownvalue.Null(),
	},
	"gus": {
		"role":      knownvalue.Int64Exact(600),
		"role_name": knownvalue.StringExact("guest"),
		"is_guest":  knownvalue.Bool(true),
	},
	// A bot: its owner and type, no profile data even when asked.
	"bot": {
		"is_bot":       knownvalue.Bool(true),
		"bot_type":     knownvalue.Int64Exact(1),
		"bot_owner_id": knownvalue.Int64Exact(refserver.SeedMemberID),
		"api_email":    knownvalue.StringExact("build-bot@zulip.example.com"),
		"role_name":    knownvalue.StringExact("member"),
		"profile_data": knownvalue.Null(),
	},
	"dan": {
		"is_active": knownvalue.Bool(false),
		"full_name": knownvalue.StringExact("Dan Departed"),
	},
	// An uploaded avatar is served whatever client_gravatar says.
	"mei": {
		"avatar_url":     knownvalue.StringRegexp(regexp.MustCompile(`/user_avatars/.*\?version=2$`)),
		"avatar_version": knownvalue.Int64Exact(2),
		"timezone":       knownvalue.StringExact("Asia/Tokyo"),
		"profile_data": knownvalue.MapExact(map[string]knownvalue.Check{
			"3": testAccUserDSProfile("1", knownvalue.Null()),
			"6": testAccUserDSProfile("[1,5]", knownvalue.Null()),
		}),
	},
}

// testAccUserDSChecks checks every attribute testAccUserDSWant names, in
// the order of names and attributes.
func testAccUserDSChecks() []statecheck.StateCheck {
	var checks []statecheck.StateCheck
	for _, name := range slices.Sorted(maps.Keys(testAccUserDSWant)) {
		for _, attr := range slices.Sorted(maps.Keys(testAccUserDSWant[name])) {
			checks = append(checks, testAccUserDS(name, attr, testAccUserDSWant[name][attr]))
		}
	}
	return checks
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
			acctest.Apply(member+`
data "zulip_user" "aaron" {
  email = "aaron@zulip.example.com"
}

data "zulip_user" "alice" {
  email = "alice@zulip.example.com"
}

data "zulip_user" "mark" {
  email = "user5@zulip.example.com"
}
`).State(
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
			).Step(),
			// Mark's real address is hidden from a member: Zulip says "No
			// such user", and the diagnostic explains why.
			acctest.Apply(member + `
data "zulip_user" "mark" {
  email = "mark@zulip.example.com"
}
`).Fails(acctest.ExpectErr(`User Not Found`, `data.zulip_user.mark`,
				`No user with the e-mail address "mark@zulip.example.com" is visible`,
				`e-mail visibility setting hides it`, `user_id`, `No such user`)).Step(),
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
	acctest.ReadsExample(t, refserver.SeedAdminID, "examples/data-sources/zulip_user/data-source.tf",
		statecheck.ExpectKnownOutputValue("mark_role", knownvalue.StringExact("member")),
		statecheck.ExpectKnownOutputValue("mark_github", knownvalue.StringExact("markm")),
		statecheck.ExpectKnownOutputValue("mark_mentors", knownvalue.ListExact([]knownvalue.Check{
			knownvalue.Int64Exact(refserver.SeedAdminID),
		})),
		statecheck.ExpectKnownOutputValue("aaron_is_admin", knownvalue.Bool(true)),
		acctest.Value("data.zulip_user.aaron", "user_id", knownvalue.Int64Func(func(v int64) error {
			if v != refserver.SeedAdminID {
				return fmt.Errorf("aaron@ resolved to user %d, want %d", v, refserver.SeedAdminID)
			}
			return nil
		})),
	)
}

// TestAccUserDataSource_serverTooOld checks that a lookup by e-mail on a
// server without GET /users/{email} fails before any request, while a lookup
// by id still works there.
func TestAccUserDataSource_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 30 })
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(admin + `
data "zulip_user" "x" {
  email = "user5@zulip.example.com"
}
`).Fails(acctest.ExpectErr(`Zulip Server Too Old`, `looking a user up by email needs Zulip feature level 39`,
				`has feature level 30`, `by user_id instead`)).Step(),
			acctest.Apply(admin+`
data "zulip_user" "x" {
  user_id = 5
}
`).State(
				acctest.Value("data.zulip_user.x", "full_name", knownvalue.StringExact("Mark Member")),
				acctest.Value("data.zulip_user.x", "is_imported_stub", knownvalue.Bool(false)),
			).Step(),
		},
	})
	if got := srv.Requests("GET", "/api/v1/users/user5@zulip.example.com"); got != 0 {
		t.Errorf("the e-mail lookup reached the server %d times; want none on a server without it", got)
	}
}

// TestAccUserDataSource_readsShareTheUserList: the zulip_user data sources of
// a plan, by id and by address, answer from the run's one user list (which
// the resources share too): one GET /users, no user read alone. A lookup
// without the Gravatar shortcut is still asked for alone (the list has the
// shortcut).
func TestAccUserDataSource_readsShareTheUserList(t *testing.T) {
	srv := acctest.NewServer(t)
	config := srv.ProviderConfig(t, refserver.SeedAdminID) + `
data "zulip_user" "by_id" {
  count   = 6
  user_id = [1, 2, 3, 4, 5, 6][count.index]
}

data "zulip_user" "by_email" {
  email = "alice@zulip.example.com"
}
`
	acctest.ParallelTest(t, resource.TestCase{Steps: []resource.TestStep{{
		PreConfig: srv.ResetRequests,
		Config:    config,
		Check: func(*terraform.State) error {
			alone := 0
			for k, n := range srv.RequestCounts() {
				if strings.HasPrefix(k, "GET /api/v1/users/") && k != "GET /api/v1/users/me" {
					alone += n
				}
			}
			if lists := srv.Requests("GET", "/api/v1/users"); lists != 1 || alone != 0 {
				return fmt.Errorf("seven zulip_user data sources sent %d GET /api/v1/users and %d reads of one user; want 1 and 0", lists, alone)
			}
			return nil
		},
	}}})
}
