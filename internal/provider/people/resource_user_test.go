package people_test

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

const (
	testAccUserEmail    = "jane.doe@zulip.example.com"
	testAccUserPassword = "correct-horse-battery"
	// testAccUserUpdatedProfile is the lifecycle's profile_data after its update.
	testAccUserUpdatedProfile = `
    "1" = { value = "+1-555-0123" }
    "6" = { user_ids = [11] }
    "8" = { value = "they/them" }`
)

// testAccUserNeedsWriteOnly skips a test below Terraform 1.11: the password
// is a write-only argument.
var testAccUserNeedsWriteOnly = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)}

// testAccUserSteps runs steps that set a password, as a parallel test.
func testAccUserSteps(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	acctest.ParallelTest(t, resource.TestCase{TerraformVersionChecks: testAccUserNeedsWriteOnly, Steps: steps})
}

// testAccUserLifecycle is TestAccUser_lifecycle's user: its steps, in phases,
// share the id the create gave it.
type testAccUserLifecycle struct {
	srv           *acctest.Server
	addr          string
	full, updated string
	id            int
}

func TestAccUser_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	u := &testAccUserLifecycle{srv: srv, addr: "zulip_user.test", full: admin + testAccUserConfigFull(),
		updated: admin + testAccUserConfig("Jane Q. Doe", "administrator", "", testAccUserUpdatedProfile)}
	deactivated := admin + testAccUserConfig("Jane Q. Doe", "administrator", "active = false", testAccUserUpdatedProfile)
	steps := append(u.createSteps(), u.updateSteps(deactivated)...)
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: testAccUserNeedsWriteOnly,
		CheckDestroy:           testAccUserDeactivated(srv, testAccUserEmail),
		Steps:                  append(steps, u.outOfBandSteps()...),
	})
}

// onServer checks the server's copy of the user.
func (u *testAccUserLifecycle) onServer(check func(*refserver.User) error) acctest.ServerCheck {
	return func() error { return testAccUserOnServer(u.srv, u.id, check) }
}

// createSteps: every argument set, every attribute read back; a refresh with
// one list read; imports by id and by e-mail.
func (u *testAccUserLifecycle) createSteps() []resource.TestStep {
	addr := u.addr
	return []resource.TestStep{
		acctest.Apply(u.full).Plan(plancheck.ExpectKnownValue(addr, tfjsonpath.New("role"), knownvalue.StringExact("moderator"))).Clean().State(
			acctest.Value(addr, "email", knownvalue.StringExact(testAccUserEmail)),
			acctest.Value(addr, "full_name", knownvalue.StringExact("Jane Doe")),
			acctest.Value(addr, "password", knownvalue.Null()),
			acctest.Value(addr, "role", knownvalue.StringExact("moderator")),
			acctest.Value(addr, "active", knownvalue.Bool(true)),
			acctest.Value(addr, "allow_self_or_last_owner_change", knownvalue.Bool(false)),
			acctest.Value(addr, "profile_data", knownvalue.MapExact(map[string]knownvalue.Check{
				"1": testAccUserText("+1-555-0199"),
				"2": testAccUserText("Writes the API documentation."),
				"3": testAccUserText("1"),
				"4": testAccUserText("1992-07-14"),
				"5": testAccUserText("https://jane.example.org"),
				"6": testAccUserUsers(2, 11),
				"7": testAccUserText("janedoe"),
				"8": testAccUserText("she/her"),
				"9": testAccUserText("E-0042"),
			})),
			acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
				u.id = int(v)
				return u.onServer(testAccUserCreated)()
			})),
		).Step(),
		// A refresh reads the users as one list, shared by every zulip_user
		// and the plan-time checks.
		acctest.Apply(u.full).Before(u.srv.ResetRequests).Plan(
			plancheck.ExpectEmptyPlan(),
			testAccUserRequests{srv: u.srv, method: "GET", path: "/api/v1/users", min: 1, max: 1},
			testAccUserRequests{srv: u.srv, method: "GET", path: "/api/v1/users/13", min: 0, max: 0},
		).Step(),
		// An import manages none of the profile values (only the
		// configuration's are managed, once it names them): profile_data
		// differs from the state made by the create.
		acctest.ImportVerify(addr, "", "password", "profile_data"),
		acctest.ImportVerify(addr, testAccUserEmail, "password", "profile_data"),
	}
}

// testAccUserCreated checks the server's copy of the user testAccUserConfigFull made.
func testAccUserCreated(u *refserver.User) error {
	switch {
	case u.Email != testAccUserEmail || u.FullName != "Jane Doe" || u.Role != refserver.RoleModerator || !u.IsActive:
		return fmt.Errorf("server has %q %q role %d active %v", u.Email, u.FullName, u.Role, u.IsActive)
	case u.Password != testAccUserPassword:
		return fmt.Errorf("server has password %q, want the configured one", u.Password)
	case u.ProfileData[refserver.FieldIDMentor] != "[2,11]" || u.ProfileData[refserver.FieldIDTeam] != "1" ||
		u.ProfileData[refserver.FieldIDEmployeeID] != "E-0042" || len(u.ProfileData) != 9:
		return fmt.Errorf("server has profile data %v", u.ProfileData)
	}
	return nil
}

// updateSteps: name, role and profile data changed in place (fields removed
// from the map are cleared on the server); deactivation and reactivation
// are in-place changes too.
func (u *testAccUserLifecycle) updateSteps(deactivated string) []resource.TestStep {
	addr := u.addr
	active := func(want bool) acctest.ServerCheck {
		return u.onServer(func(su *refserver.User) error {
			if su.IsActive != want {
				return fmt.Errorf("user %d is active %v on the server, want %v", u.id, su.IsActive, want)
			}
			return nil
		})
	}
	return []resource.TestStep{
		acctest.Apply(u.updated).Planned(addr, plancheck.ResourceActionUpdate).
			Plan(plancheck.ExpectKnownValue(addr, tfjsonpath.New("role"), knownvalue.StringExact("administrator"))).Clean().State(
			acctest.Value(addr, "full_name", knownvalue.StringExact("Jane Q. Doe")),
			acctest.Value(addr, "role", knownvalue.StringExact("administrator")),
			acctest.Value(addr, "profile_data", knownvalue.MapExact(map[string]knownvalue.Check{
				"1": testAccUserText("+1-555-0123"),
				"6": testAccUserUsers(11),
				"8": testAccUserText("they/them"),
			})),
			u.onServer(func(su *refserver.User) error {
				want := map[int]string{refserver.FieldIDPhone: "+1-555-0123", refserver.FieldIDMentor: "[11]", refserver.FieldIDPronouns: "they/them"}
				if su.FullName != "Jane Q. Doe" || su.Role != refserver.RoleAdministrator || fmt.Sprint(su.ProfileData) != fmt.Sprint(want) {
					return fmt.Errorf("server has %q role %d profile data %v", su.FullName, su.Role, su.ProfileData)
				}
				return nil
			}),
		).Step(),
		acctest.Apply(deactivated).Planned(addr, plancheck.ResourceActionUpdate).Clean().
			State(acctest.Value(addr, "active", knownvalue.Bool(false)), active(false)).Step(),
		acctest.Apply(u.updated).Planned(addr, plancheck.ResourceActionUpdate).Clean().
			State(acctest.Value(addr, "active", knownvalue.Bool(true)), active(true)).Step(),
	}
}

// outOfBandSteps: changes made outside Terraform are put back; a user
// deactivated outside is reactivated in place, not recreated; one gone from
// the server is dropped from state and created again.
func (u *testAccUserLifecycle) outOfBandSteps() []resource.TestStep {
	addr := u.addr
	return []resource.TestStep{
		acctest.Apply(u.updated).OutOfBand(u.srv, func(r *refserver.Realm) {
			su := r.Users[u.id]
			su.Role, su.FullName = refserver.RoleMember, "Someone Else"
			delete(su.ProfileData, refserver.FieldIDPhone)
			su.ProfileData[refserver.FieldIDBiography] = "Unmanaged, and left alone."
		}).Planned(addr, plancheck.ResourceActionUpdate).
			Plan(plancheck.ExpectKnownValue(addr, tfjsonpath.New("role"), knownvalue.StringExact("administrator"))).Clean().
			State(u.onServer(func(su *refserver.User) error {
				if su.FullName != "Jane Q. Doe" || su.Role != refserver.RoleAdministrator ||
					su.ProfileData[refserver.FieldIDPhone] != "+1-555-0123" ||
					su.ProfileData[refserver.FieldIDBiography] != "Unmanaged, and left alone." {
					return fmt.Errorf("server has %q role %d profile data %v", su.FullName, su.Role, su.ProfileData)
				}
				return nil
			})).Step(),
		acctest.Apply(u.updated).OutOfBand(u.srv, func(r *refserver.Realm) { r.Users[u.id].IsActive = false }).
			Planned(addr, plancheck.ResourceActionUpdate).
			Plan(plancheck.ExpectKnownValue(addr, tfjsonpath.New("active"), knownvalue.Bool(true))).Clean().
			State(acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
				if int(v) != u.id {
					return fmt.Errorf("user was recreated as %d, want %d reactivated", v, u.id)
				}
				return u.onServer(func(su *refserver.User) error {
					if !su.IsActive {
						return fmt.Errorf("user %d was not reactivated", u.id)
					}
					return nil
				})()
			}))).Step(),
		acctest.Apply(u.updated).OutOfBand(u.srv, func(r *refserver.Realm) { delete(r.Users, u.id) }).
			Planned(addr, plancheck.ResourceActionCreate).Clean().
			State(acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
				if int(v) == u.id {
					return fmt.Errorf("expected a new user id, got the old one %d", v)
				}
				return nil
			}))).Step(),
	}
}

// TestAccUser_example applies the documentation's example and imports it the
// ways its import.sh shows.
func TestAccUser_example(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	example := acctest.ReadExample(t, "examples/resources/zulip_user/resource.tf")
	script := acctest.ReadExample(t, "examples/resources/zulip_user/import.sh")
	vars := config.Variables{"jane_initial_password": config.StringVariable("an-example-password")}
	addr := "zulip_user.jane"
	steps := []resource.TestStep{acctest.Apply(admin+example).Vars(vars).State(
		acctest.Value(addr, "role", knownvalue.StringExact("moderator")),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("profile_data").AtMapKey("6"), testAccUserUsers(2, 11)),
		statecheck.ExpectKnownOutputValue("jane_user_id", knownvalue.Int64Exact(13)),
	).Clean().Step()}
	imports := 0
	for _, line := range strings.Split(script, "\n") {
		f := strings.Fields(line)
		if len(f) != 4 || f[0] != "terraform" || f[1] != "import" || f[2] != addr {
			continue
		}
		imports++
		// An import manages none of the profile values until the
		// configuration names them.
		step := acctest.ImportVerify(addr, f[3], "password", "profile_data")
		step.Config, step.ConfigVariables = admin+example, vars
		steps = append(steps, step)
	}
	if imports != 2 {
		t.Fatalf("import.sh has %d `terraform import %s` lines, want 2 (by id and by e-mail)", imports, addr)
	}
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: testAccUserNeedsWriteOnly,
		CheckDestroy:           testAccUserDeactivated(srv, "jane.doe@zulip.example.com"),
		Steps:                  steps,
	})
}

func TestAccUser_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	step := func(hcl string, want string) resource.TestStep {
		return resource.TestStep{Config: admin + hcl, PlanOnly: true, ExpectError: acctest.ExpectErrRE(want)}
	}
	user := func(attrs string) string {
		return fmt.Sprintf(`
resource "zulip_user" "test" {
  email     = %q
  full_name = "Jane Doe"
  password  = %q
  %s
}
`, testAccUserEmail, testAccUserPassword, attrs)
	}
	profile := func(key, elem string) string {
		return user(fmt.Sprintf("profile_data = { %q = %s }", key, elem))
	}
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: testAccUserNeedsWriteOnly,
		Steps: []resource.TestStep{
			step(user(`role = "superuser"`), `(?s)role.*value must be one of:.*"owner".*"guest"`),
			step(`
resource "zulip_user" "test" {
  email     = "jane.doe"
  full_name = "Jane Doe"
  password  = "secret-enough"
}`, `(?s)email.*"jane.doe" is not a valid e-mail address`),
			step(`
resource "zulip_user" "test" {
  email     = "jane.doe@zulip.example.com"
  full_name = " Jane Doe"
  password  = "secret-enough"
}`, `(?s)full_name.*must not start or end with whitespace`),
			step(`
resource "zulip_user" "test" {
  email     = "jane.doe@zulip.example.com"
  full_name = "Jane @Doe"
  password  = "secret-enough"
}`, `(?s)full_name.*Invalid characters in name`),
			step(`
resource "zulip_user" "test" {
  email     = "jane.doe@zulip.example.com"
  full_name = "Jane Doe"
}`, `(?s)Missing Password.*Creating a user needs an initial password`),
			step(profile("phone", `{ value = "+1-555" }`), `(?s)profile_data.*must be a custom profile field id`),
			step(profile("1", `{ value = "+1-555", user_ids = [2] }`), `(?s)profile_data\["1"\]: set exactly one of .value. \(for every field type but Users\) and .user_ids.`),
			step(profile("1", `{}`), `(?s)profile_data\["1"\]: set exactly one of`),
			step(profile("99", `{ value = "x" }`), `(?s)profile_data\["99"\].*no custom profile field with id 99.*1 \(Phone number\)`),
			step(profile("6", `{ value = "[2]" }`), `(?s)profile_data\["6"\].*"Mentor" \(field 6\) is a Users field: set its user ids with user_ids`),
			step(profile("1", `{ user_ids = [2] }`), `(?s)profile_data\["1"\].*"Phone number" \(field 1\) is not a Users field`),
			step(profile("4", `{ value = "1992-13-01" }`), `(?s)profile_data\["4"\].*Birthday is not a date`),
			step(profile("3", `{ value = "Design" }`), `(?s)profile_data\["3"\].*'Design' is not a valid choice for 'Team'.*"1" \(Design\)`),
			step(profile("5", `{ value = "jane.example.org" }`), `(?s)profile_data\["5"\].*Website is not a URL`),
			step(profile("6", `{ user_ids = [11, 10] }`), `(?s)profile_data\["6"\].user_ids.*User with ID 10 is deactivated \(Dan Departed\)`),
			step(profile("6", `{ user_ids = [8] }`), `(?s)profile_data\["6"\].user_ids.*User with ID 8 is a bot`),
			step(profile("6", `{ user_ids = [99, 98] }`), `(?s)profile_data\["6"\].user_ids.*Invalid user IDs: 98, 99`),
			step(profile("1", fmt.Sprintf(`{ value = %q }`, strings.Repeat("9", 51))), `(?s)profile_data\["1"\].*Phone number is too long \(limit: 50`),
		},
	})
}

// TestAccUser_guestBecomesAdministrator: Zulip lets a guest be made an
// administrator in one step (zerver/views/users.py update_user_backend has no
// rule for guests), and so does the provider's plan.
func TestAccUser_guestBecomesAdministrator(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	testAccUserSteps(t,
		acctest.Apply(admin+testAccUserConfig("Jane Doe", "guest", "", "")).
			State(acctest.Value("zulip_user.test", "role", knownvalue.StringExact("guest"))).Step(),
		// Straight from guest to administrator, in one apply.
		acctest.Apply(admin+testAccUserConfig("Jane Doe", "administrator", "", "")).State(
			acctest.Value("zulip_user.test", "role", knownvalue.StringExact("administrator")),
		).OnServer(func() error {
			var err error
			srv.Do(func(r *refserver.Realm) {
				for _, u := range r.Users {
					if u.Email == testAccUserEmail && u.Role != refserver.RoleAdministrator {
						err = fmt.Errorf("server has role %d, want administrator", u.Role)
					}
				}
			})
			return err
		}).Step(),
	)
}

// TestAccUser_needsCanCreateUsers: an administrator without the special
// permission, and a member, are refused with a message naming it.
func TestAccUser_needsCanCreateUsers(t *testing.T) {
	srv := acctest.NewServer(t)
	testAccUserSteps(t,
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdmin2ID)+testAccUserConfig("Jane Doe", "", "", "")).
			Fails(acctest.ExpectErrRE(`(?s)administrator who also holds the can_create_users special\s+permission.*User not authorized to create users`)).Step(),
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedMemberID)+testAccUserConfig("Jane Doe", "", "", "")).
			Fails(acctest.ExpectErrRE(`(?s)can_create_users.*Must be an organization administrator`)).Step(),
	)
	srv.Do(func(r *refserver.Realm) {
		for _, u := range r.Users {
			if u.Email == testAccUserEmail {
				t.Errorf("user %d was created despite the refusals", u.ID)
			}
		}
	})
}

// TestAccUser_ownerRoleNeedsOwner: an administrator cannot make anyone an
// owner; the plan says so. An owner can.
func TestAccUser_ownerRoleNeedsOwner(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	owner := testAccUserAliasedProvider(t, srv, "owner", refserver.SeedOwnerID)
	testAccUserSteps(t,
		acctest.PlanFailsWith(admin+testAccUserConfig("Jane Doe", "owner", "", ""),
			acctest.ExpectErrRE(`(?s)role.*from "member" to "owner" needs an organization owner's\s+credentials.*aaron@zulip.example.com, who is an\s+administrator`)),
		resource.TestStep{Config: admin + testAccUserConfig("Jane Doe", "", "", "")},
		acctest.PlanFailsWith(admin+testAccUserConfig("Jane Doe", "owner", "", ""), acctest.ExpectErrRE(`Organization Owner Required`)),
		// The same account, managed with an owner's credentials: the
		// promotion works.
		acctest.Apply(admin+owner+testAccUserConfig("Jane Doe", "owner", "provider = zulip.owner", "")).State(
			acctest.Value("zulip_user.test", "role", knownvalue.StringExact("owner")),
			acctest.Value("zulip_user.test", "id", knownvalue.Int64Func(func(v int64) error {
				return testAccUserOnServer(srv, int(v), func(u *refserver.User) error {
					if u.Role != refserver.RoleOwner {
						return fmt.Errorf("server has role %d", u.Role)
					}
					return nil
				})
			})),
		).Step(),
	)
}

// TestAccUser_memberChangesRoleOrName: a member's credentials cannot change
// another user's role or name (Zulip answers only "Insufficient
// permission"): the plan refuses both, naming the attribute and the role
// needed.
func TestAccUser_memberChangesRoleOrName(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	member := testAccUserAliasedProvider(t, srv, "member", refserver.SeedMemberID)
	testAccUserSteps(t,
		resource.TestStep{Config: admin + testAccUserConfig("Jane Doe", "member", "", "")},
		acctest.PlanFailsWith(admin+member+testAccUserConfig("Jane Doe", "moderator", "provider = zulip.member", ""),
			acctest.ExpectErrRE(`Insufficient Role.*role = "moderator".*Changing the role of `+testAccUserEmail+` from "member" to "moderator" needs an organization administrator`)),
		acctest.PlanFailsWith(admin+member+testAccUserConfig("Jane Q. Doe", "member", "provider = zulip.member", ""),
			acctest.ExpectErrRE(`Insufficient Role.*full_name = "Jane Q. Doe".*Changing the name of `+testAccUserEmail+`.*needs an organization administrator`)),
		resource.TestStep{
			// The same changes with an administrator's credentials are planned.
			Config:             admin + testAccUserConfig("Jane Q. Doe", "moderator", "", ""),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
	)
}

// TestAccUser_changeEmail: an owner or administrator holding
// can_change_user_emails changes an adopted user's address in place; an
// administrator without it is refused with a message naming the permission.
func TestAccUser_changeEmail(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	moderator := srv.ProviderConfig(t, refserver.SeedModeratorID)
	addr := "zulip_user.mei"
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.ImportChecked(owner+testAccUserMei("mei@zulip.example.com"), addr, "mei@zulip.example.com", true,
				func(states []*terraform.InstanceState) error {
					if len(states) != 1 || states[0].Attributes["id"] != "11" || states[0].Attributes["role"] != "member" {
						return fmt.Errorf("imported %v", states)
					}
					return nil
				}),
			// The import managed no profile value; the configured ones are
			// now set (to what the server has already).
			acctest.Apply(owner+testAccUserMei("mei@zulip.example.com")).Planned(addr, plancheck.ResourceActionUpdate).Clean().Step(),
			// Below administrator the plan refuses, naming the role.
			acctest.PlanFailsWith(moderator+testAccUserMei("mei.member@zulip.example.com"),
				acctest.ExpectErrRE(`(?s)Insufficient Role.*email.*Changing a user's e-mail address needs an\s+organization administrator`)),
			acctest.Apply(admin + testAccUserMei("mei.member@zulip.example.com")).
				Fails(acctest.ExpectErrRE(`(?s)email.*only an organization administrator who holds the\s+can_change_user_emails special permission`)).Step(),
			// An administrator (not only an owner) holding the permission
			// may change it (zerver/views/users.py update_user_backend).
			acctest.Apply(admin+testAccUserMei("mei.admin@zulip.example.com")).
				OutOfBand(srv, func(r *refserver.Realm) { r.Users[refserver.SeedAdminID].CanChangeUserEmails = true }).
				State(acctest.Value(addr, "email", knownvalue.StringExact("mei.admin@zulip.example.com")),
					acctest.ServerCheck(func() error {
						return testAccUserOnServer(srv, 11, func(u *refserver.User) error {
							if u.Email != "mei.admin@zulip.example.com" {
								return fmt.Errorf("server has e-mail %q", u.Email)
							}
							return nil
						})
					})).Step(),
			acctest.Apply(owner+testAccUserMei("mei.member@zulip.example.com")).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(
				acctest.Value(addr, "email", knownvalue.StringExact("mei.member@zulip.example.com")),
				acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
					return testAccUserOnServer(srv, int(v), func(u *refserver.User) error {
						if u.Email != "mei.member@zulip.example.com" {
							return fmt.Errorf("server has e-mail %q", u.Email)
						}
						return nil
					})
				})),
			).Step(),
			// A difference of case only is no change (Zulip compares addresses
			// case-insensitively).
			acctest.Apply(owner+testAccUserMei("Mei.Member@zulip.example.com")).Planned(addr, plancheck.ResourceActionUpdate).Step(),
		},
	})
}

// testAccUserMei is Mei (user 11) with the given address and her seeded
// profile values.
func testAccUserMei(email string) string {
	return fmt.Sprintf(`
resource "zulip_user" "mei" {
  email     = %q
  full_name = "Mei Member"
  profile_data = {
    "3" = { value = "1" }
    "6" = { user_ids = [1, 5] }
  }
}
`, email)
}

// TestAccUser_import covers the import id forms and their errors.
func TestAccUser_import(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	cfg := admin + testAccUserNamed("mark", "mark@zulip.example.com", "Mark Member")
	imp := func(id, want string) resource.TestStep {
		return acctest.ImportFails(cfg, "zulip_user.mark", id, acctest.ExpectErrRE(want))
	}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			imp("mark", `(?s)imported by its numeric user id or by its e-mail address, got "mark"`),
			imp("999", `Cannot import user 999: the server has no such user`),
			imp("nobody@zulip.example.com", `(?s)Cannot import "nobody@zulip.example.com"`),
			acctest.ImportChecked(cfg, "zulip_user.mark", "5", false, func(states []*terraform.InstanceState) error {
				a := states[0].Attributes
				// No profile value is adopted: they stay unmanaged until the
				// configuration names them.
				want := map[string]string{
					"email": "mark@zulip.example.com", "full_name": "Mark Member", "role": "member",
					"profile_data.%": "", "active": "true",
					"allow_self_or_last_owner_change": "false",
				}
				for k, v := range want {
					if a[k] != v {
						return fmt.Errorf("imported %s = %q, want %q (all: %v)", k, a[k], v, a)
					}
				}
				return nil
			}),
		},
	})
}

// TestAccUser_hiddenEmail: Maria's address is visible to nobody, not even
// administrators. She is imported by id; the configured address is kept, and
// nothing is sent to change it.
func TestAccUser_hiddenEmail(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	cfg := admin + testAccUserNamed("maria", "maria@zulip.example.com", "Maria Member")
	addr := "zulip_user.maria"
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.ImportFails(cfg, addr, "maria@zulip.example.com",
				acctest.ExpectErrRE(`(?s)Cannot import "maria@zulip.example.com".*a hidden address can still be imported by the user's id`)),
			acctest.ImportChecked(cfg, addr, "6", true, func(states []*terraform.InstanceState) error {
				a := states[0].Attributes
				if a["email"] != "" || a["id"] != "6" || a["full_name"] != "Maria Member" {
					return fmt.Errorf("imported %v", a)
				}
				return nil
			}),
			acctest.Apply(cfg).Before(srv.ResetRequests).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(
				acctest.Value(addr, "email", knownvalue.StringExact("maria@zulip.example.com")),
				acctest.ServerCheck(func() error {
					if n := srv.Requests("PATCH", "/api/v1/users/6"); n != 0 {
						return fmt.Errorf("adopting the hidden address sent %d PATCH requests, want none", n)
					}
					return nil
				}),
			).Step(),
		},
	})
}

// TestAccUser_createAnswerLost: POST /users is processed but its answer is
// lost (a 502 from a proxy). The provider finds the new user by e-mail and
// adopts it instead of failing, or leaving an account Terraform does not know.
func TestAccUser_createAnswerLost(t *testing.T) {
	srv := acctest.NewServer(t)
	lost := 0
	proxy := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/users" && lost == 0 {
			lost++
			return acctest.Fault{Status: http.StatusBadGateway, Process: true}
		}
		return acctest.Fault{}
	})
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: testAccUserNeedsWriteOnly,
		CheckDestroy:           testAccUserDeactivated(srv, testAccUserEmail),
		Steps: []resource.TestStep{acctest.Apply(proxy + testAccUserConfigFull()).Clean().State(
			acctest.Value("zulip_user.test", "id", knownvalue.Int64Func(func(v int64) error {
				if lost != 1 {
					return fmt.Errorf("the answer of POST /users was not lost (%d)", lost)
				}
				return testAccUserOnServer(srv, int(v), func(u *refserver.User) error {
					if u.Email != testAccUserEmail || u.Role != refserver.RoleModerator || len(u.ProfileData) != 9 {
						return fmt.Errorf("server has %q role %d profile data %v", u.Email, u.Role, u.ProfileData)
					}
					return nil
				})
			})),
		).Step()},
	})
}

// TestAccUser_createIncompleteConverges: POST /users succeeds but setting the
// role fails. The create does not fail (Terraform would taint the resource, and
// replacing a user deactivates it): it warns and keeps the account in state as
// the plan claimed; the next refresh reads the real values, so the next plan
// shows the remaining steps as an in-place update, and the next plain apply
// converges, with no deactivation.
func TestAccUser_createIncompleteConverges(t *testing.T) {
	srv := acctest.NewServer(t)
	failed, deactivations := 0, 0
	proxy := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		if r.Method == http.MethodDelete && r.URL.Path == "/api/v1/users/13" {
			deactivations++
		}
		if r.Method == http.MethodPatch && r.URL.Path == "/api/v1/users/13" && failed == 0 {
			failed++
			return acctest.Fault{Status: http.StatusBadRequest}
		}
		return acctest.Fault{}
	})
	diags := &acctest.DiagRecorder{}
	cfg := proxy + testAccUserConfig("Jane Doe", "moderator", "", `
    "1" = { value = "+1-555-0199" }`)
	addr := "zulip_user.test"
	incomplete := resource.TestStep{
		Config: cfg,
		// The refresh after the apply finds the role and the profile
		// value missing.
		ExpectNonEmptyPlan: true,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
		},
		ConfigStateChecks: []statecheck.StateCheck{
			acctest.Value(addr, "role", knownvalue.StringExact("moderator")),
			acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
				if err := diags.Has(`(?s)User Created Incompletely: Unable to Set User Role.*Injected failure.*User 13 exists.*not tainted`); err != nil {
					return err
				}
				return testAccUserOnServer(srv, int(v), func(u *refserver.User) error {
					if v != 13 || !u.IsActive || u.Role != refserver.RoleMember || len(u.ProfileData) != 0 {
						return fmt.Errorf("user %d: active %v role %d profile data %v", v, u.IsActive, u.Role, u.ProfileData)
					}
					return nil
				})
			})),
		},
	}
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   testAccUserNeedsWriteOnly,
		ProtoV6ProviderFactories: diags.Factories(),
		CheckDestroy:             testAccUserDeactivated(srv, testAccUserEmail),
		Steps: []resource.TestStep{
			incomplete,
			// A plain apply finishes the job in place: no replacement, no
			// deactivation.
			acctest.Apply(cfg).Planned(addr, plancheck.ResourceActionUpdate).
				Plan(plancheck.ExpectKnownValue(addr, tfjsonpath.New("role"), knownvalue.StringExact("moderator"))).Clean().State(
				acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
					if deactivations != 0 {
						return fmt.Errorf("user 13 was deactivated %d times", deactivations)
					}
					return testAccUserJaneModerator(srv, v)
				})),
			).Step(),
		},
	})
}

// testAccUserJaneModerator checks that user v is Jane, user 13, active, a
// moderator with her phone number.
func testAccUserJaneModerator(srv *acctest.Server, v int64) error {
	return testAccUserOnServer(srv, int(v), func(u *refserver.User) error {
		if v != 13 || !u.IsActive || u.Role != refserver.RoleModerator || u.ProfileData[refserver.FieldIDPhone] != "+1-555-0199" {
			return fmt.Errorf("user %d: active %v role %d profile data %v", v, u.IsActive, u.Role, u.ProfileData)
		}
		return nil
	})
}

// TestAccUser_importLeavesUnnamedProfileValues: a user with five profile
// values is adopted with a configuration that names one of them and a new
// role. The import manages no value, so the apply changes the named one and
// the role, and leaves the four others as they were; the next plan is empty.
func TestAccUser_importLeavesUnnamedProfileValues(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	addr := "zulip_user.mark"
	cfg := admin + `
resource "zulip_user" "mark" {
  email     = "mark@zulip.example.com"
  full_name = "Mark Member"
  role      = "moderator"
  profile_data = {
    "7" = { value = "mark-m" }
  }
}
`
	want := map[int]string{
		refserver.FieldIDBiography: "Backend engineer.", refserver.FieldIDBirthday: "1990-04-01",
		refserver.FieldIDWebsite: "https://mark.example.org", refserver.FieldIDMentor: "[2]",
		refserver.FieldIDGitHub: "mark-m", // the one the configuration names, changed
	}
	onlyGitHub := testAccUserPlannedProfile{addr: addr, before: nil, after: []string{"7"}}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				// With an import block, the plan shows the import and only the
				// named value being set: nothing is removed.
				Config:             cfg,
				ResourceName:       addr,
				ImportState:        true,
				ImportStateKind:    resource.ImportBlockWithID,
				ImportStateId:      "mark@zulip.example.com",
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate), onlyGitHub},
				},
			},
			acctest.ImportChecked(cfg, addr, "mark@zulip.example.com", true, nil),
			acctest.Apply(cfg).Planned(addr, plancheck.ResourceActionUpdate).Plan(onlyGitHub).Clean().State(
				acctest.Value(addr, "profile_data", knownvalue.MapExact(map[string]knownvalue.Check{"7": testAccUserText("mark-m")})),
				acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
					return testAccUserOnServer(srv, int(v), func(u *refserver.User) error {
						if u.Role != refserver.RoleModerator || fmt.Sprint(u.ProfileData) != fmt.Sprint(want) {
							return fmt.Errorf("server has role %d profile data %v, want moderator and %v", u.Role, u.ProfileData, want)
						}
						return nil
					})
				})),
			).Step(),
		},
	})
}

// TestAccUser_reapplyAfterDestroy: destroy deactivates the users, and Zulip
// never lets a new account take their addresses. Applying the configuration
// again reactivates the same accounts (the plan warns, naming each, and knows
// their ids), and applies the configuration to them. The plan looks the
// addresses up with one list read for all users. An address that belongs to an
// active account fails the plan with an import block to copy.
func TestAccUser_reapplyAfterDestroy(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	diags := &acctest.DiagRecorder{}
	cfg := admin + testAccUserConfig("Jane Doe", "moderator", "", `
    "1" = { value = "+1-555-0199" }`) + fmt.Sprintf(`
resource "zulip_user" "john" {
  email     = "john.roe@zulip.example.com"
  full_name = "John Roe"
  password  = %q

  depends_on = [zulip_user.test] # Jane is user 13, John 14
}
`, testAccUserPassword)
	jane, john := "zulip_user.test", "zulip_user.john"
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   testAccUserNeedsWriteOnly,
		ProtoV6ProviderFactories: diags.Factories(),
		CheckDestroy:             testAccUserDeactivated(srv, testAccUserEmail),
		Steps: []resource.TestStep{
			acctest.Apply(cfg).State(
				acctest.Value(jane, "id", knownvalue.Int64Exact(13)),
				acctest.Value(john, "id", knownvalue.Int64Exact(14)),
			).Step(),
			{Config: cfg, Destroy: true},
			acctest.Apply(cfg).Before(func() { testAccUserInactiveAfterDestroy(t, srv, diags) }).
				Planned(jane, plancheck.ResourceActionCreate).Plan(
				plancheck.ExpectKnownValue(jane, tfjsonpath.New("id"), knownvalue.Int64Exact(13)),
				plancheck.ExpectKnownValue(john, tfjsonpath.New("id"), knownvalue.Int64Exact(14)),
				// John's role is not configured: the account keeps its own.
				plancheck.ExpectKnownValue(john, tfjsonpath.New("role"), knownvalue.StringExact("member")),
				testAccUserRequests{srv: srv, method: "GET", path: "/api/v1/users", min: 1, max: 1},
				testAccUserRequests{srv: srv, method: "GET", path: "/api/v1/users/13", min: 0, max: 0},
				acctest.DiagCheck{Diags: diags, Pattern: `(?s)Deactivated User Will Be Reactivated.*"jane.doe@zulip.example.com" belongs to the deactivated user 13 \(Jane Doe, jane.doe@zulip.example.com\).*reactivates it`},
				acctest.DiagCheck{Diags: diags, Pattern: `(?s)Deactivated User Will Be Reactivated.*deactivated user 14 \(John Roe, john.roe@zulip.example.com\)`},
			).Clean().State(
				acctest.Value(jane, "role", knownvalue.StringExact("moderator")),
				acctest.Value(jane, "id", knownvalue.Int64Func(func(v int64) error { return testAccUserReactivated(srv, v) })),
			).Step(),
			// An active account's address: the plan fails, with the block
			// that imports it.
			acctest.PlanFailsWith(cfg+`
resource "zulip_user" "mark" {
  email     = "MARK@zulip.example.com"
  full_name = "Mark Member"
  password  = "whatever-it-is"
}
`, acctest.ExpectErrRE(`(?s)E-mail Address Already in Use.*belongs to the active user 5 \(Mark Member,`+
				`.*mark@zulip.example.com\).*import \{\n\s+to = zulip_user.<name>\n\s+id = "MARK@zulip.example.com"\n\}`)),
		},
	})
}

// testAccUserInactiveAfterDestroy checks that destroy deactivated Jane and
// John (users 13 and 14), then forgets the diagnostics and requests so far.
func testAccUserInactiveAfterDestroy(t *testing.T, srv *acctest.Server, diags *acctest.DiagRecorder) {
	for _, id := range []int{13, 14} {
		if err := testAccUserOnServer(srv, id, func(u *refserver.User) error {
			if u.IsActive {
				return fmt.Errorf("user %d is active after destroy", id)
			}
			return nil
		}); err != nil {
			t.Error(err)
		}
	}
	diags.Reset()
	srv.ResetRequests()
}

// testAccUserReactivated checks that Jane's second apply reactivated user 13
// (v) with the configuration, and created no user.
func testAccUserReactivated(srv *acctest.Server, v int64) error {
	if n := srv.Requests("POST", "/api/v1/users"); n != 0 {
		return fmt.Errorf("the apply sent POST /users %d times, want none", n)
	}
	if err := testAccUserOnServer(srv, 15, func(*refserver.User) error { return nil }); err == nil {
		return fmt.Errorf("a new user 15 was created")
	}
	return testAccUserJaneModerator(srv, v)
}

// TestAccUser_protectedAccounts: the provider's own account and the
// organization's last active owner cannot be demoted, deactivated or destroyed
// unless allow_self_or_last_owner_change says so; the plan fails first. A
// removed block lets Terraform forget them without deactivating them.
func TestAccUser_protectedAccounts(t *testing.T) {
	srv := acctest.NewServer(t)
	// Oscar steps down: Olivia is the organization's only owner.
	srv.Do(func(r *refserver.Realm) { r.Users[refserver.SeedOwner2ID].Role = refserver.RoleAdministrator })
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	cfg := func(me, olivia string) string { return admin + testAccUserMeAndOlivia(me, olivia) }
	unchanged := func() error { return testAccUserProtectedUnchanged(srv) }
	acctest.ParallelTest(t, resource.TestCase{
		// removed blocks need Terraform 1.7 or newer.
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_7_0)},
		Steps: []resource.TestStep{
			acctest.ImportChecked(cfg("", ""), "zulip_user.me", "2", true, nil),
			acctest.ImportChecked(cfg("", ""), "zulip_user.olivia", "1", true, nil),
			{Config: cfg("", ""), PlanOnly: true},
			acctest.PlanFailsWith(cfg(`role = "member"`, ""),
				acctest.ExpectErrRE(`(?s)Protected User Account.*would demote \(from "administrator" to "member"\) user 2 \(Aaron Admin, `+
					`aaron@zulip.example.com\), which is the provider's own account.*allow_self_or_last_owner_change = true`)),
			acctest.PlanFailsWith(cfg(`active = false`, ""),
				acctest.ExpectErrRE(`(?s)Protected User Account.*would deactivate user 2 .*the provider's own account`)),
			acctest.PlanFailsWith(cfg("", `active = false`),
				acctest.ExpectErrRE(`(?s)Protected User Account.*would deactivate user 1 \(Olivia Owner, olivia@zulip.example.com\), which is the organization's last active owner`)),
			{
				Config:  cfg("", ""),
				Destroy: true,
				ExpectError: acctest.ExpectErrRE(`(?s)Protected User Account.*Destroying this zulip_user would deactivate user [12] .*` +
					`removed.*destroy = false.*allow_self_or_last_owner_change = true`),
			},
			{
				// The opt-in: the plan goes through (it is not applied here).
				Config:             cfg("allow_self_or_last_owner_change = true\n  role = \"member\"", "allow_self_or_last_owner_change = true\n  active = false"),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			// Forgotten without being deactivated.
			acctest.Apply(admin + `
removed {
  from = zulip_user.me
  lifecycle {
    destroy = false
  }
}

removed {
  from = zulip_user.olivia
  lifecycle {
    destroy = false
  }
}
`).OnServer(unchanged).Step(),
		},
	})
	if err := unchanged(); err != nil {
		t.Error(err)
	}
}

// testAccUserMeAndOlivia is the provider's own account (Aaron) and the
// organization's owner (Olivia), each with extra attributes.
func testAccUserMeAndOlivia(me, olivia string) string {
	return fmt.Sprintf(`
resource "zulip_user" "me" {
  email     = "aaron@zulip.example.com"
  full_name = "Aaron Admin"
  %s
}

resource "zulip_user" "olivia" {
  email     = "olivia@zulip.example.com"
  full_name = "Olivia Owner"
  %s
}
`, me, olivia)
}

// testAccUserProtectedUnchanged checks that Aaron and Olivia are active with
// their roles.
func testAccUserProtectedUnchanged(srv *acctest.Server) error {
	for id, role := range map[int]int{refserver.SeedAdminID: refserver.RoleAdministrator, refserver.SeedOwnerID: refserver.RoleOwner} {
		if err := testAccUserOnServer(srv, id, func(u *refserver.User) error {
			if !u.IsActive || u.Role != role {
				return fmt.Errorf("user %d: active %v role %d", id, u.IsActive, u.Role)
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// TestAccUser_generatedConfig: the configuration that terraform plan
// -generate-config-out writes for an imported user is accepted unchanged and
// plans empty.
func TestAccUser_generatedConfig(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	for _, id := range []string{"mark@zulip.example.com", "10"} { // a member with profile values; a deactivated user
		t.Run(id, func(t *testing.T) {
			acctest.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_5_0)},
				Steps:                  acctest.GeneratedConfigSteps(admin, "", "zulip_user.test", id),
			})
		})
	}
}

// testAccUserConfig is a user with the given name and role ("" leaves it
// unmanaged), extra attributes, and profile_data elements ("" for none).
func testAccUserConfig(fullName, role, extra, profile string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nresource \"zulip_user\" \"test\" {\n  email     = %q\n  full_name = %q\n  password  = %q\n", testAccUserEmail, fullName, testAccUserPassword)
	if role != "" {
		fmt.Fprintf(&b, "  role      = %q\n", role)
	}
	if extra != "" {
		fmt.Fprintf(&b, "  %s\n", extra)
	}
	if profile != "" {
		fmt.Fprintf(&b, "  profile_data = {%s\n  }\n", profile)
	}
	b.WriteString("}\n")
	return b.String()
}

// testAccUserNamed is a user resource with only an address and a name, as
// for adopting a seeded user.
func testAccUserNamed(name, email, fullName string) string {
	return fmt.Sprintf("\nresource \"zulip_user\" %q {\n  email     = %q\n  full_name = %q\n}\n", name, email, fullName)
}

// testAccUserConfigFull sets every argument, with a value for every seeded
// custom profile field type.
func testAccUserConfigFull() string {
	return testAccUserConfig("Jane Doe", "moderator", "active = true", `
    "1" = { value = "+1-555-0199" }
    "2" = { value = "Writes the API documentation." }
    "3" = { value = "1" }
    "4" = { value = "1992-07-14" }
    "5" = { value = "https://jane.example.org" }
    "6" = { user_ids = [2, 11] }
    "7" = { value = "janedoe" }
    "8" = { value = "she/her" }
    "9" = { value = "E-0042" }`)
}

// testAccUserAliasedProvider is a provider block with an alias, acting as a seeded user.
func testAccUserAliasedProvider(t *testing.T, srv *acctest.Server, alias string, userID int) string {
	t.Helper()
	u, ok := srv.User(userID)
	if !ok {
		t.Fatalf("no user %d in the reference server", userID)
	}
	return fmt.Sprintf(`
provider "zulip" {
  alias   = %q
  url     = %q
  email   = %q
  api_key = %q
}
`, alias, srv.URL, u.Email, u.APIKey)
}

// testAccUserText checks a profile_data element holding a value.
func testAccUserText(v string) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{"value": knownvalue.StringExact(v), "user_ids": knownvalue.Null()})
}

// testAccUserUsers checks a profile_data element holding user ids.
func testAccUserUsers(ids ...int64) knownvalue.Check {
	checks := make([]knownvalue.Check, 0, len(ids))
	for _, id := range ids {
		checks = append(checks, knownvalue.Int64Exact(id))
	}
	return knownvalue.ObjectExact(map[string]knownvalue.Check{"value": knownvalue.Null(), "user_ids": knownvalue.SetExact(checks)})
}

// testAccUserOnServer runs check on the reference server's copy of a user.
func testAccUserOnServer(srv *acctest.Server, id int, check func(*refserver.User) error) error {
	err := fmt.Errorf("user %d not on the server", id)
	srv.Do(func(r *refserver.Realm) {
		if u := r.Users[id]; u != nil {
			err = check(u)
		}
	})
	return err
}

// testAccUserDeactivated is a CheckDestroy: destroying deactivates, so the
// user with the address is still on the server, inactive.
func testAccUserDeactivated(srv *acctest.Server, email string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		err := fmt.Errorf("no user %s on the server after destroy (Zulip never deletes users)", email)
		srv.Do(func(r *refserver.Realm) {
			for _, u := range r.Users {
				if strings.EqualFold(u.Email, email) {
					err = nil
					if u.IsActive {
						err = fmt.Errorf("user %d (%s) is still active after destroy", u.ID, email)
					}
				}
			}
		})
		return err
	}
}

// testAccUserRequests is a plan check that the plan made between min and max
// requests of a method and path (counted since the last ResetRequests).
type testAccUserRequests struct {
	srv          *acctest.Server
	method, path string
	min, max     int
}

// CheckPlan counts the requests.
func (c testAccUserRequests) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	if got := c.srv.Requests(c.method, c.path); got < c.min || got > c.max {
		resp.Error = fmt.Errorf("the plan made %d %s %s requests; want between %d and %d", got, c.method, c.path, c.min, c.max)
	}
}

// testAccUserPlannedProfile is a plan check of the profile_data keys a
// resource change has before and after (nil before: not managed).
type testAccUserPlannedProfile struct {
	addr          string
	before, after []string
}

// CheckPlan compares the keys.
func (c testAccUserPlannedProfile) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	keys := func(v any) []string {
		obj, _ := v.(map[string]any)
		m, ok := obj["profile_data"].(map[string]any)
		if !ok {
			return nil
		}
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.addr || rc.Change == nil {
			continue
		}
		if b, a := keys(rc.Change.Before), keys(rc.Change.After); fmt.Sprint(b) != fmt.Sprint(c.before) || fmt.Sprint(a) != fmt.Sprint(c.after) {
			resp.Error = fmt.Errorf("%s: profile_data keys go from %v to %v, want %v to %v", c.addr, b, a, c.before, c.after)
		}
		return
	}
	resp.Error = fmt.Errorf("no change planned for %s", c.addr)
}
