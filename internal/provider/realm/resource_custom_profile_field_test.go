package realm_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// profileFieldOnServer finds a field by name.
func profileFieldOnServer(srv *acctest.Server, name string) *refserver.ProfileField {
	var out *refserver.ProfileField
	srv.Do(func(r *refserver.Realm) {
		for _, f := range r.ProfileFields {
			if f.Name == name {
				c := *f
				out = &c
			}
		}
	})
	return out
}

// TestAccCustomProfileField_lifecycle: a select field is made with its
// options, renamed and given a new option in place, imported, and deleted.
func TestAccCustomProfileField_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	config := func(name, extra string) string {
		return admin + fmt.Sprintf(`
resource "zulip_custom_profile_field" "test" {
  name    = %q
  type    = "select"
  options = [
    { key = "eng", text = "Engineering" },
%s  ]
}
`, name, extra)
	}
	addr := "zulip_custom_profile_field.test"
	value := func(attr string, v knownvalue.Check) statecheck.StateCheck { return acctest.Value(addr, attr, v) }
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			if profileFieldOnServer(srv, "Department") != nil {
				return fmt.Errorf("the field outlived its resource")
			}
			return nil
		},
		Steps: []resource.TestStep{
			acctest.Apply(config("Squad", "")).State(value("editable_by_user", knownvalue.Bool(true)), value("hint", knownvalue.StringExact(""))).
				OnServer(func() error {
					f := profileFieldOnServer(srv, "Squad")
					if f == nil || !strings.Contains(f.FieldData, `"eng":{"order":"1","text":"Engineering"}`) {
						return fmt.Errorf("field on the server: %+v", f)
					}
					return nil
				}).Clean().Step(),
			acctest.Apply(config("Department", "    { key = \"design\", text = \"Design\" },\n")).Planned(addr, plancheck.ResourceActionUpdate).Clean().Step(),
			acctest.ImportVerify(addr, "Department"),
		},
	})
}

// TestAccCustomProfileField_validation: shapes Zulip refuses fail at plan;
// a third summary field is refused across the configuration.
func TestAccCustomProfileField_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	field := func(label, body string) string {
		return fmt.Sprintf("resource \"zulip_custom_profile_field\" %q {\n%s\n}\n", label, body)
	}
	step := acctest.PlanFailsAs(admin)
	acctest.ParallelSteps(t,
		step(field("a", `  name = "A"
  type = "select"`), "Missing Options"),
		step(field("a", `  name = "A"
  type = "short_text"
  options = [{ key = "x", text = "X" }]`), "Options Without a Select Field"),
		step(field("a", `  type = "external_account"
  external_account_subtype = "custom"
  name = "A"`), "Missing URL Pattern"),
		step(field("a", `  type = "external_account"
  external_account_subtype = "github"
  name = "Mine"`), "Label of a Built-in Subtype"),
		step(field("a", `  name = "A"
  type = "date"
  use_for_user_matching = true`), "Not a Matching Field"),
		step(field("a", `  name = "A"
  type = "colour"`), "type", "short_text"),
		step(field("a", `  name = "S1"
  type = "short_text"
  display_in_profile_summary = true`)+field("b", `  name = "S2"
  type = "short_text"
  display_in_profile_summary = true`)+field("c", `  name = "S3"
  type = "short_text"
  display_in_profile_summary = true`), "Too Many Summary Fields"),
	)
}

// TestAccCustomProfileField_selectOptions: options Zulip would collapse (two
// of one key, which the apply made into a field of one option and then failed
// as an inconsistent result) or refuse (two of one text, a key or text of only
// whitespace) fail the plan, at the offending option, before any request: the
// provider here points at a server that does not exist.
func TestAccCustomProfileField_selectOptions(t *testing.T) {
	nowhere := `
provider "zulip" {
  url     = "http://127.0.0.1:9"
  email   = "admin@zulip.example.com"
  api_key = "nowhere"
}
`
	step := func(options string, want ...string) resource.TestStep {
		return acctest.PlanFails(nowhere+fmt.Sprintf(`
resource "zulip_custom_profile_field" "office" {
  name    = "Office"
  type    = "select"
  options = [
%s
  ]
}
`, options), want...)
	}
	acctest.ParallelSteps(t,
		step(`    { key = "ber", text = "Berlin" },
    { key = "lis", text = "Lisbon" },
    { key = "ber", text = "Berlin (the other office)" },`,
			"Error: Duplicate Option Key", `options[2].key is "ber", as options[0].key is`),
		step(`    { key = "ber", text = "Berlin" },
    { key = "lis", text = "Berlin" },`,
			"Error: Duplicate Option Text", `options[1].text is "Berlin", as options[0].text is`,
			"Field must not have duplicate choices."),
		step(`    { key = "  ", text = "Berlin" },`, "Error: Blank Option Key", "options[0].key is only whitespace"),
		step(`    { key = "ber", text = "\t" },`, "Error: Blank Option Text", "options[0].text is only whitespace"),
	)
}

// TestAccCustomProfileField_lostAnswers: removing an option that users chose
// warns with how many hold it, and a new type replaces the field with a
// warning that every answer is deleted.
func TestAccCustomProfileField_lostAnswers(t *testing.T) {
	srv := acctest.NewServer(t)
	rec := &acctest.DiagRecorder{}
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	config := func(typ, options string) string {
		return admin + fmt.Sprintf("resource \"zulip_custom_profile_field\" \"test\" {\n  name = \"Office\"\n  type = %q\n%s}\n", typ, options)
	}
	two := "  options = [{ key = \"ber\", text = \"Berlin\" }, { key = \"lis\", text = \"Lisbon\" }]\n"
	one := "  options = [{ key = \"ber\", text = \"Berlin\" }]\n"
	acctest.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{
			{Config: config("select", two)},
			// Two users answer Lisbon behind Terraform's back.
			acctest.Apply(config("select", one)).Before(func() {
				rec.Reset()
				f := profileFieldOnServer(srv, "Office")
				srv.Do(func(r *refserver.Realm) {
					for _, id := range []int{refserver.SeedMemberID, refserver.SeedMember2ID} {
						r.Users[id].ProfileData[f.ID] = "lis"
					}
				})
			}).OnServer(func() error {
				return rec.Has(`WARNING: Answers Will Be Deleted: Removing the option "Lisbon" \(key "lis"\) of "Office" deletes the answers of the 2 users`)
			}).Step(),
			acctest.Apply(config("short_text", "")).Before(rec.Reset).Planned("zulip_custom_profile_field.test", plancheck.ResourceActionDestroyBeforeCreate).
				OnServer(func() error { return rec.Has(`WARNING: Field Will Be Replaced: Every Answer Is Deleted`) }).Step(),
		},
	})
}

// TestAccCustomProfileField_typeChangeKeepsAnswersApplying: a field answered
// by a zulip_user and by the provider's own zulip_profile_data, both naming it
// by its id, changes type. The field is replaced (its answers go with it), and
// the same apply gives the new field the configured answers: the users' updates
// do not try to clear the old field, which no longer exists. The plan warns
// that the old field's answers are lost, counting the users who gave one.
func TestAccCustomProfileField_typeChangeKeepsAnswersApplying(t *testing.T) {
	srv := acctest.NewServer(t)
	rec := &acctest.DiagRecorder{}
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	var oldID int
	acctest.ParallelTest(t, resource.TestCase{
		// zulip_user's password is write-only, which needs Terraform 1.11.
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{
			{
				Config: admin + deskConfig("short_text", "A12"),
				Check: resource.ComposeTestCheckFunc(deskAnswers(srv, map[int]string{0: "A12", refserver.SeedAdminID: "A12"}),
					func(*terraform.State) error { oldID = profileFieldOnServer(srv, "Desk").ID; return nil }),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				PreConfig: rec.Reset,
				Config:    admin + deskConfig("long_text", "A12, by the window on the second floor"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("zulip_custom_profile_field.desk", plancheck.ResourceActionDestroyBeforeCreate),
						acctest.DiagCheck{Diags: rec, Pattern: `WARNING: Field Will Be Replaced: Every Answer Is Deleted: .*"Desk".*the answers of the 2 users who answered it are lost`},
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(
					deskAnswers(srv, map[int]string{0: "A12, by the window on the second floor", refserver.SeedAdminID: "A12, by the window on the second floor"}),
					func(*terraform.State) error {
						if f := profileFieldOnServer(srv, "Desk"); f.ID == oldID || f.Type != refserver.FieldLongText {
							return fmt.Errorf("the field was not replaced by a long text field: %+v", f)
						}
						return nil
					}),
			},
		},
	})
}

// deskConfig is a field Desk of type typ, answered by a zulip_user and by
// zulip_profile_data with answer, and another user changed in the same apply.
func deskConfig(typ, answer string) string {
	return fmt.Sprintf(`
resource "zulip_custom_profile_field" "desk" {
  name = "Desk"
  type = %[1]q
}

resource "zulip_user" "test" {
  email     = "desk.user@zulip.example.com"
  full_name = "Desk User"
  password  = "correct-horse-battery"
  profile_data = {
    (zulip_custom_profile_field.desk.id) = { value = %[2]q }
  }
}

# Another user, changed in the same apply, whose plan reads the field list
# before the new field exists.
resource "zulip_user" "other" {
  email     = "other.user@zulip.example.com"
  full_name = "Other User (%[3]s)"
  password  = "correct-horse-battery"
  profile_data = {
    "1" = { value = "+1-555-0100" }
  }
}

resource "zulip_profile_data" "me" {
  field {
    id    = zulip_custom_profile_field.desk.id
    value = %[2]q
  }
}
`, typ, answer, typ)
}

// deskAnswers checks the server's values of the field named Desk, by user
// id; the id 0 stands for zulip_user.test.
func deskAnswers(srv *acctest.Server, want map[int]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		f := profileFieldOnServer(srv, "Desk")
		if f == nil {
			return fmt.Errorf("no field Desk on the server")
		}
		user := s.RootModule().Resources["zulip_user.test"].Primary.ID
		got := map[string]string{}
		srv.Do(func(r *refserver.Realm) {
			for id, u := range r.Users {
				if v, ok := u.ProfileData[f.ID]; ok {
					got[strconv.Itoa(id)] = v
				}
			}
		})
		exp := map[string]string{}
		for id, v := range want {
			k := strconv.Itoa(id)
			if id == 0 {
				k = user
			}
			exp[k] = v
		}
		if fmt.Sprint(got) != fmt.Sprint(exp) {
			return fmt.Errorf("answers of field %d (type %d) on the server: %v, want %v", f.ID, f.Type, got, exp)
		}
		return nil
	}
}
