package people_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

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

func TestAccProfileData_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	maria := srv.ProviderConfig(t, refserver.SeedMember2ID)
	p := testAccProfileDataLifecycle{srv: srv, addr: "zulip_profile_data.test", maria: maria, configB: maria + testAccProfileDataConfig(
		pdText(`name = "Pronouns"`, "they/them"),
		pdText(`id = 3`, "1"),
		pdUsers(`name = "Mentor"`, refserver.SeedMember3ID),
		pdText(`name = "Website"`, "https://maria.example.org/blog"),
	)}
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: profileDataDestroyed(srv, refserver.SeedMember2ID, refserver.FieldIDPronouns, refserver.FieldIDTeam,
			refserver.FieldIDMentor, refserver.FieldIDWebsite, refserver.FieldIDBirthday),
		Steps: append(p.createSteps(), p.changeSteps()...),
	})
}

// testAccProfileDataLifecycle is TestAccProfileData_lifecycle's profile data
// (Maria's), whose steps come in phases.
type testAccProfileDataLifecycle struct {
	srv                  *acctest.Server
	addr, maria, configB string
}

// value checks attr of the i-th field block.
func (p testAccProfileDataLifecycle) value(i int, attr string, want knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(p.addr, tfjsonpath.New("field").AtSliceIndex(i).AtMapKey(attr), want)
}

// afterB checks that the server has configB's values.
func (p testAccProfileDataLifecycle) afterB() error {
	return profileValuesOnServer(p.srv, refserver.SeedMember2ID, map[int]string{
		refserver.FieldIDPronouns: "they/them", refserver.FieldIDTeam: "1", refserver.FieldIDMentor: "[11]",
		refserver.FieldIDWebsite: "https://maria.example.org/blog", refserver.FieldIDBirthday: "",
	})
}

// createSteps: fields named by name and by id, read back in the
// configuration's order, then imported by the same references.
func (p testAccProfileDataLifecycle) createSteps() []resource.TestStep {
	return []resource.TestStep{
		acctest.Apply(p.maria+testAccProfileDataConfig(
			pdText(`name = "Pronouns"`, "she/her"),
			pdText(`id = 3`, "1"),
			pdUsers(`name = "Mentor"`, refserver.SeedMemberID, refserver.SeedMember3ID),
			pdText(`name = "Birthday"`, "1991-02-03"),
		)).State(
			acctest.Value(p.addr, "id", knownvalue.StringExact("6")),
			p.value(0, "id", knownvalue.Int64Exact(refserver.FieldIDPronouns)),
			p.value(0, "value", knownvalue.StringExact("she/her")),
			p.value(1, "name", knownvalue.StringExact("Team")),
			p.value(2, "id", knownvalue.Int64Exact(refserver.FieldIDMentor)),
			p.value(2, "value", knownvalue.Null()),
			p.value(2, "users", knownvalue.ListExact([]knownvalue.Check{
				knownvalue.Int64Exact(refserver.SeedMemberID), knownvalue.Int64Exact(refserver.SeedMember3ID),
			})),
			p.value(3, "id", knownvalue.Int64Func(func(int64) error {
				return profileValuesOnServer(p.srv, refserver.SeedMember2ID, map[int]string{
					refserver.FieldIDPronouns: "she/her", refserver.FieldIDTeam: "1",
					refserver.FieldIDMentor: "[5,11]", refserver.FieldIDBirthday: "1991-02-03",
				})
			})),
		).Clean().Step(),
		acctest.ImportVerify(p.addr, "Pronouns,3,Mentor, Birthday"),
	}
}

// changeSteps: changes in place, by the configuration and outside
// Terraform, and blocks reordered.
func (p testAccProfileDataLifecycle) changeSteps() []resource.TestStep {
	member2 := func(change func(map[int]string)) func(*refserver.Realm) {
		return func(r *refserver.Realm) { change(r.Users[refserver.SeedMember2ID].ProfileData) }
	}
	return []resource.TestStep{
		// In place: a changed value, a changed user list, a field no longer
		// named (cleared) and a new one.
		acctest.Apply(p.configB).Planned(p.addr, plancheck.ResourceActionUpdate).Clean().
			State(p.value(3, "id", knownvalue.Int64Func(func(int64) error { return p.afterB() }))).Step(),
		// Changed outside Terraform: the plan puts it back.
		acctest.Apply(p.configB).OutOfBand(p.srv, member2(func(d map[int]string) { d[refserver.FieldIDTeam] = "2" })).
			Planned(p.addr, plancheck.ResourceActionUpdate).
			State(p.value(1, "value", knownvalue.StringFunc(func(string) error { return p.afterB() }))).Step(),
		// One value cleared outside Terraform: set again in place.
		acctest.Apply(p.configB).OutOfBand(p.srv, member2(func(d map[int]string) { delete(d, refserver.FieldIDMentor) })).
			Planned(p.addr, plancheck.ResourceActionUpdate).State(p.value(2, "users", knownvalue.ListSizeExact(1))).Step(),
		// Every managed value cleared outside Terraform, as a destroy would:
		// dropped from state and created again.
		acctest.Apply(p.configB).OutOfBand(p.srv, member2(func(d map[int]string) {
			for _, id := range []int{refserver.FieldIDPronouns, refserver.FieldIDTeam, refserver.FieldIDMentor, refserver.FieldIDWebsite} {
				delete(d, id)
			}
		})).Planned(p.addr, plancheck.ResourceActionCreate).Clean().
			State(p.value(0, "value", knownvalue.StringFunc(func(string) error { return p.afterB() }))).Step(),
		// Blocks reordered, and fields named the other way: nothing to write.
		acctest.Apply(p.maria+testAccProfileDataConfig(
			pdText(`id = 5`, "https://maria.example.org/blog"),
			pdUsers(`id = 6`, refserver.SeedMember3ID),
			pdText(`name = "Team"`, "1"),
			pdText(`id = 8`, "they/them"),
		)).Before(p.srv.ResetRequests).Planned(p.addr, plancheck.ResourceActionUpdate).Clean().State(
			p.value(0, "name", knownvalue.StringExact("Website")),
			p.value(2, "id", knownvalue.Int64Exact(refserver.FieldIDTeam)),
			p.value(3, "name", knownvalue.StringFunc(func(string) error {
				if n := p.srv.Requests("PATCH", "/api/v1/users/me/profile_data") + p.srv.Requests("DELETE", "/api/v1/users/me/profile_data"); n != 0 {
					return fmt.Errorf("reordering the blocks wrote the profile data %d times, want 0", n)
				}
				return p.afterB()
			})),
		).Step(),
	}
}

// TestAccProfileData_onlyNamedFields: the account's other values are left
// alone by create and destroy; "*" imports every field with a value.
func TestAccProfileData_onlyNamedFields(t *testing.T) {
	srv := acctest.NewServer(t)
	mark := srv.ProviderConfig(t, refserver.SeedMemberID)
	untouched := map[int]string{
		refserver.FieldIDBiography: "Backend engineer.", refserver.FieldIDWebsite: "https://mark.example.org",
		refserver.FieldIDMentor: "[2]", refserver.FieldIDGitHub: "markm",
	}
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(s *terraform.State) error {
			if err := profileDataDestroyed(srv, refserver.SeedMemberID, refserver.FieldIDPronouns, refserver.FieldIDBirthday)(s); err != nil {
				return err
			}
			return profileValuesOnServer(srv, refserver.SeedMemberID, untouched)
		},
		Steps: []resource.TestStep{
			acctest.Apply(mark + testAccProfileDataConfig(
				pdText(`name = "Pronouns"`, "he/him"),
				pdText(`name = "Birthday"`, "1990-04-01"), // the seeded value
			)).State(
				acctest.Value("zulip_profile_data.test", "id", knownvalue.StringFunc(func(string) error {
					return profileValuesOnServer(srv, refserver.SeedMemberID, untouched)
				})),
			).Clean().Step(),
			acctest.ImportChecked("", "zulip_profile_data.test", "*", false, func(states []*terraform.InstanceState) error {
				if len(states) != 1 {
					return fmt.Errorf("imported %d resources, want 1", len(states))
				}
				a := states[0].Attributes
				want := []string{"Biography", "Birthday", "Website", "Mentor", "GitHub username", "Pronouns"}
				if a["field.#"] != fmt.Sprint(len(want)) {
					return fmt.Errorf("imported %s fields, want %d: %v", a["field.#"], len(want), a)
				}
				for i, name := range want {
					if got := a[fmt.Sprintf("field.%d.name", i)]; got != name {
						return fmt.Errorf("field %d is %q, want %q", i, got, name)
					}
				}
				if a["field.3.users.#"] != "1" || a["field.3.users.0"] != "2" || a["field.5.value"] != "he/him" || a["id"] != "5" {
					return fmt.Errorf("unexpected imported values: %v", a)
				}
				return nil
			}),
		},
	})
}

func TestAccProfileData_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	maria := srv.ProviderConfig(t, refserver.SeedMember2ID)
	step := func(hcl string, want string) resource.TestStep {
		return resource.TestStep{Config: maria + hcl, PlanOnly: true, ExpectError: regexp.MustCompile(want)}
	}
	one := func(block string) string { return testAccProfileDataConfig(block) }
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			// Each type's rule, named at the block's value.
			step(one(pdText(`name = "Phone number"`, strings.Repeat("1", 51))),
				`(?s)value\s+=.*`+acctest.ReWrapped(`"Phone number" is a Short text field, limited to 50 characters; the value has 51`)),
			step(one(pdText(`name = "Biography"`, strings.Repeat("b", 501))),
				acctest.ReWrapped(`"Biography" is a Paragraph field, limited to 500 characters; the value has 501`)),
			step(one(pdText(`name = "Pronouns"`, strings.Repeat("p", 51))),
				acctest.ReWrapped(`"Pronouns" is a Pronouns field, limited to 50 characters`)),
			step(one(pdText(`name = "GitHub username"`, strings.Repeat("g", 51))),
				acctest.ReWrapped(`"GitHub username" is a External account field, limited to 50 characters`)),
			step(one(pdText(`name = "Birthday"`, "1990-4-1")),
				acctest.ReWrapped(`"Birthday" is a Date field: "1990-4-1" is not a date in YYYY-MM-DD form`)),
			step(one(pdText(`name = "Birthday"`, "1990-02-30")), acctest.ReWrapped(`"1990-02-30" is not a date in YYYY-MM-DD form`)),
			step(one(pdText(`name = "Website"`, "https://intranet/docs")),
				acctest.ReWrapped(`"https://intranet/docs" is not a URL Zulip accepts for a Link field`)),
			step(one(pdText(`name = "Website"`, "maria.example.org")), acctest.ReWrapped(`must start with http://, https://, ftp:// or ftps://`)),
			step(one(pdText(`name = "Team"`, "Design")),
				acctest.ReWrapped(`The options are, by key (text): "0" (Engineering), "1" (Design), "2" (Sales). "Design" is the text of option "1": use the key.`)),
			step(one(pdUsers(`name = "Team"`, 5)), `(?s)users\s+=.*`+acctest.ReWrapped(`"Team" is a Dropdown field: set value; users is only for Users fields.`)),
			step(one(pdText(`name = "Mentor"`, "5")), acctest.ReWrapped(`"Mentor" is a Users field: give its user ids as users = [...] instead of value.`)),
			// A Users field's ids, checked against the one user list of the run.
			step(one(pdUsers(`name = "Mentor"`, 8)), `(?s)Invalid Users Field Value.*`+acctest.ReWrapped(`User with ID 8 is a bot (Build Bot)`)),
			step(one(pdUsers(`name = "Mentor"`, 10)), `(?s)Invalid Users Field Value.*`+acctest.ReWrapped(`User with ID 10 is deactivated (Dan Departed)`)),
			step(one(pdUsers(`name = "Mentor"`, 4, 999)), `(?s)Invalid Users Field Value.*`+acctest.ReWrapped(`Invalid user IDs: 999`)),
			// Field references.
			step(one(pdText(`name = "Shoe size"`, "44")),
				`(?s)name\s+=.*`+acctest.ReWrapped(`No custom profile field is named "Shoe size" (names are matched exactly). The organization's fields are: "Phone number" (id 1, Short text), "Biography" (id 2, Paragraph)`)),
			step(one(pdText(`name = "pronouns"`, "she/her")), acctest.ReWrapped(`No custom profile field is named "pronouns"`)),
			step(one(pdText(`id = 99`, "x")), `(?s)id\s+=.*`+acctest.ReWrapped(`No custom profile field has id 99.`)),
			// Both may be given when they agree (generated configuration has both).
			step(one(pdText("id = 8\n    name = \"Team\"", "she/her")),
				`(?s)Conflicting Field Reference.*`+acctest.ReWrapped(`This block names field id 8 and the name "Team", but field 8 is named "Pronouns".`)),
			step(one(pdText("", "she/her")), `(?s)Missing Field Reference.*line \d+.*field \{.*by\s+.id.\s+or\s+by\s+.name.`),
			step(one(`  field {
    name = "Pronouns"
  }
`), `Missing Field Value`),
			step(one(`  field {
    name  = "Pronouns"
    value = "she/her"
    users = [5]
  }
`), `Conflicting Field Values`),
			step(testAccProfileDataConfig(pdText(`name = "Team"`, "1"), pdText(`id = 3`, "2")),
				acctest.ReWrapped(`field[0] and field[1] both set field "Team" (id 3).`)),
			step(testAccProfileDataConfig(pdText(`name = "Team"`, "1"), pdText(`name = "Team"`, "2")),
				acctest.ReWrapped(`Field "Team" is already set by field[0].`)),
			step(one(pdUsers(`name = "Mentor"`, 0)), `(?s)users\[0\].*must be at least 1`),
			step(one(pdUsers(`name = "Mentor"`, 5, 5)), `(?s)Duplicate List Value.*users\s+= \[5, 5\].*duplicate values of: 5`),
			step(one(pdText(`name = "Pronouns"`, "")), `(?s)value.*string length must be at least 1`),
			step(`resource "zulip_profile_data" "test" {}`, `(?s)Invalid Block.*`+acctest.ReWrapped("Block field must have a configuration value")),
		},
	})
}

// TestAccProfileData_generatedConfig: the configuration that terraform plan
// -generate-config-out writes for imported profile data, which names every
// field by both id and name, is accepted unchanged and plans empty.
func TestAccProfileData_generatedConfig(t *testing.T) {
	srv := acctest.NewServer(t)
	mark := srv.ProviderConfig(t, refserver.SeedMemberID)
	for _, id := range []string{"*", "Biography,6"} {
		t.Run(id, func(t *testing.T) {
			acctest.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_5_0)},
				Steps:                  acctest.GeneratedConfigSteps(mark, "", "zulip_profile_data.test", id),
			})
		})
	}
}

// TestAccProfileData_importStarWarnsBeforeClearing: importing "*" adopts every
// value the account has. A configuration that names fewer fields clears the
// others, as removing a block does: the plan says so for each, by name, and
// gives the import id that would have adopted only the named fields.
func TestAccProfileData_importStarWarnsBeforeClearing(t *testing.T) {
	srv := acctest.NewServer(t)
	mark := srv.ProviderConfig(t, refserver.SeedMemberID)
	diags := &acctest.DiagRecorder{}
	addr := "zulip_profile_data.test"
	two := mark + testAccProfileDataConfig(pdText(`name = "Biography"`, "Backend engineer."), pdText(`id = 7`, "markm"))
	one := mark + testAccProfileDataConfig(pdText(`name = "Biography"`, "Backend engineer."))
	acctest.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: diags.Factories(),
		Steps: []resource.TestStep{
			acctest.ImportChecked(two, addr, "*", true, nil),
			acctest.Apply(two).Planned(addr, plancheck.ResourceActionUpdate).Plan(
				acctest.DiagCheck{Diags: diags, Pattern: `(?s)Imported Field Will Be Cleared: Field "Birthday" \(id 4\), which an import adopted, is named by no field block.*"Biography,GitHub username"`},
				acctest.DiagCheck{Diags: diags, Pattern: `Imported Field Will Be Cleared: Field "Website" \(id 5\)`},
				acctest.DiagCheck{Diags: diags, Pattern: `Imported Field Will Be Cleared: Field "Mentor" \(id 6\)`},
			).Clean().State(
				acctest.Value(addr, "id", knownvalue.StringFunc(func(string) error {
					return profileValuesOnServer(srv, refserver.SeedMemberID, map[int]string{
						refserver.FieldIDBiography: "Backend engineer.", refserver.FieldIDGitHub: "markm",
						refserver.FieldIDBirthday: "", refserver.FieldIDWebsite: "", refserver.FieldIDMentor: "",
					})
				})),
			).Step(),
			// After the first apply, the fields are the configuration's:
			// removing a block is no longer an import's doing.
			acctest.Apply(one).Before(diags.Reset).Planned(addr, plancheck.ResourceActionUpdate).
				Plan(testAccProfileDataNoDiag{diags: diags, pattern: `Imported Field`}).Step(),
		},
	})
}

// testAccProfileDataNoDiag is a plan check that no diagnostic matching
// pattern was returned.
type testAccProfileDataNoDiag struct {
	diags   *acctest.DiagRecorder
	pattern string
}

// CheckPlan fails when such a diagnostic was returned.
func (c testAccProfileDataNoDiag) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	if c.diags.Has(c.pattern) == nil {
		resp.Error = fmt.Errorf("a diagnostic matches %s", c.pattern)
	}
}

// TestAccProfileData_notEditableByUsers: a field that only administrators may
// change is refused at plan time for a member, and works for an administrator.
func TestAccProfileData_notEditableByUsers(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMember2ID)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	config := testAccProfileDataConfig(pdText(`name = "Employee ID"`, "E-0042"))
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: profileDataDestroyed(srv, refserver.SeedAdminID, refserver.FieldIDEmployeeID),
		Steps: []resource.TestStep{
			acctest.PlanFailsWith(member+config,
				acctest.ExpectErrRE(`Custom Profile Field Not Editable.*name = "Employee ID".*`+acctest.ReWrapped(`Field "Employee ID" is not editable by users (editable_by_user is false): `+
					`only organization administrators can change it, and the provider's account user6@`))),
			acctest.Apply(admin + config).State(
				acctest.Value("zulip_profile_data.test", "id", knownvalue.StringFunc(func(string) error {
					return profileValuesOnServer(srv, refserver.SeedAdminID, map[int]string{refserver.FieldIDEmployeeID: "E-0042"})
				})),
			).Clean().Step(),
		},
	})
}

// TestAccProfileData_serverRefusals covers the server's refusals, all found
// at plan time: user ids that are bots or deactivated (checked against the
// run's one user list), and a bot's own profile.
func TestAccProfileData_serverRefusals(t *testing.T) {
	srv := acctest.NewServer(t)
	maria := srv.ProviderConfig(t, refserver.SeedMember2ID)
	bot := srv.ProviderConfig(t, refserver.SeedBotID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.PlanFailsWith(maria+testAccProfileDataConfig(pdUsers(`name = "Mentor"`, refserver.SeedBotID)),
				acctest.ExpectErrRE(`Invalid Users Field Value.*User with ID 8 is a bot`)),
			acctest.PlanFailsWith(maria+testAccProfileDataConfig(pdUsers(`name = "Mentor"`, refserver.SeedDeactivatedID)),
				acctest.ExpectErrRE(`Invalid Users Field Value.*User with ID 10 is deactivated`)),
			acctest.PlanFailsWith(bot+testAccProfileDataConfig(pdText(`name = "Pronouns"`, "it/its")),
				acctest.ExpectErrRE(`Bots Have No Profile Data.*`+acctest.ReWrapped("is a bot, and Zulip keeps custom profile field values only for human users"))),
		},
	})
}

// TestAccProfileData_example applies the documentation's example.
func TestAccProfileData_example(t *testing.T) {
	srv := acctest.NewServer(t)
	maria := srv.ProviderConfig(t, refserver.SeedMember2ID)
	example := acctest.ReadExample(t, "examples/resources/zulip_profile_data/resource.tf")
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: profileDataDestroyed(srv, refserver.SeedMember2ID, refserver.FieldIDPronouns, refserver.FieldIDTeam,
			refserver.FieldIDBirthday, refserver.FieldIDWebsite, refserver.FieldIDMentor, refserver.FieldIDPhone),
		Steps: []resource.TestStep{
			acctest.Apply(maria + example).State(
				acctest.Value("zulip_profile_data.me", "id", knownvalue.StringFunc(func(string) error {
					return profileValuesOnServer(srv, refserver.SeedMember2ID, map[int]string{
						refserver.FieldIDPronouns: "she/her", refserver.FieldIDTeam: "1", refserver.FieldIDBirthday: "1992-06-15",
						refserver.FieldIDWebsite: "https://maria.example.org", refserver.FieldIDMentor: "[5,11]",
						refserver.FieldIDPhone: "+1-555-0142",
					})
				})),
			).Clean().Step(),
			// The import id of the example's import.sh.
			acctest.ImportVerify("zulip_profile_data.me", "Pronouns,Team,Birthday,Website,Mentor,1"),
			acctest.ImportFails("", "zulip_profile_data.me", "Pronouns,Shoe size",
				acctest.ExpectErrRE(`Invalid Import ID.*"Shoe size" in\s+"Pronouns,Shoe size" is not a field`)),
		},
	})
}

// profileValuesOnServer checks a user's values on the reference server; ""
// means no value.
func profileValuesOnServer(srv *acctest.Server, userID int, want map[int]string) error {
	var errs []string
	srv.Do(func(r *refserver.Realm) {
		u := r.Users[userID]
		for id, v := range want {
			if got, ok := u.ProfileData[id]; got != v || ok != (v != "") {
				errs = append(errs, fmt.Sprintf("field %d is %q (set: %t), want %q", id, got, ok, v))
			}
		}
	})
	if len(errs) > 0 {
		return fmt.Errorf("user %d on the server: %s", userID, strings.Join(errs, "; "))
	}
	return nil
}

// profileDataDestroyed checks that destroy cleared the fields.
func profileDataDestroyed(srv *acctest.Server, userID int, fieldIDs ...int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		want := map[int]string{}
		for _, id := range fieldIDs {
			want[id] = ""
		}
		return profileValuesOnServer(srv, userID, want)
	}
}

// pdText is a field block with a string value; ref names the field.
func pdText(ref, value string) string {
	return fmt.Sprintf("  field {\n    %s\n    value = %q\n  }\n", ref, value)
}

// pdUsers is a field block with a list of user ids.
func pdUsers(ref string, ids ...int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprint(id)
	}
	return fmt.Sprintf("  field {\n    %s\n    users = [%s]\n  }\n", ref, strings.Join(parts, ", "))
}

func testAccProfileDataConfig(blocks ...string) string {
	return "\nresource \"zulip_profile_data\" \"test\" {\n" + strings.Join(blocks, "") + "}\n"
}
