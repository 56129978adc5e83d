package realm_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// profileFieldCheck describes one expected element of fields; unset parts
// take the value most seeded fields have.
type profileFieldCheck struct {
	id                    int64
	name, typ             string
	typeID                int64
	hint                  string
	order                 int64
	required, notEditable bool
	summary, matching     bool
	options               knownvalue.Check
	subtype, urlPattern   knownvalue.Check
	fieldData             string
}

// check builds the object check of a field.
func (f profileFieldCheck) check() knownvalue.Check {
	orNull := func(c knownvalue.Check) knownvalue.Check {
		if c == nil {
			return knownvalue.Null()
		}
		return c
	}
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"id":                           knownvalue.Int64Exact(f.id),
		"name":                         knownvalue.StringExact(f.name),
		"type":                         knownvalue.StringExact(f.typ),
		"type_id":                      knownvalue.Int64Exact(f.typeID),
		"hint":                         knownvalue.StringExact(f.hint),
		"order":                        knownvalue.Int64Exact(f.order),
		"required":                     knownvalue.Bool(f.required),
		"editable_by_user":             knownvalue.Bool(!f.notEditable),
		"display_in_profile_summary":   knownvalue.Bool(f.summary),
		"use_for_user_matching":        knownvalue.Bool(f.matching),
		"options":                      orNull(f.options),
		"external_account_subtype":     orNull(f.subtype),
		"external_account_url_pattern": orNull(f.urlPattern),
		"field_data":                   knownvalue.StringExact(f.fieldData),
	})
}

// option builds the check of a Dropdown option.
func option(key, text string, order int64) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"key": knownvalue.StringExact(key), "text": knownvalue.StringExact(text), "order": knownvalue.Int64Exact(order),
	})
}

// seededTeamField is the seeded Dropdown field.
var seededTeamField = profileFieldCheck{
	id: refserver.FieldIDTeam, name: "Team", typ: "select", typeID: 3, hint: "Your team", order: 3,
	options: knownvalue.ListExact([]knownvalue.Check{
		option("0", "Engineering", 1), option("1", "Design", 2), option("2", "Sales", 3),
	}),
	fieldData: `{"0":{"text":"Engineering","order":"1"},"1":{"text":"Design","order":"2"},"2":{"text":"Sales","order":"3"}}`,
}

// seededProfileFields are the seeded realm's fields, one of every type.
func seededProfileFields() []knownvalue.Check {
	fields := []profileFieldCheck{
		{id: refserver.FieldIDPhone, name: "Phone number", typ: "short_text", typeID: 1, hint: "Including the country code", order: 1, summary: true},
		{id: refserver.FieldIDBiography, name: "Biography", typ: "long_text", typeID: 2, hint: "What do you do?", order: 2},
		seededTeamField,
		{id: refserver.FieldIDBirthday, name: "Birthday", typ: "date", typeID: 4, hint: "", order: 4},
		{id: refserver.FieldIDWebsite, name: "Website", typ: "url", typeID: 5, hint: "Or your blog", order: 5},
		{id: refserver.FieldIDMentor, name: "Mentor", typ: "users", typeID: 6, hint: "Who helps you", order: 6},
		{id: refserver.FieldIDGitHub, name: "GitHub username", typ: "external_account", typeID: 7, hint: "Your GitHub username", order: 7,
			matching: true, subtype: knownvalue.StringExact("github"), fieldData: `{"subtype":"github"}`},
		{id: refserver.FieldIDPronouns, name: "Pronouns", typ: "pronouns", typeID: 8, hint: "What pronouns should people use for you?", order: 8},
		{id: refserver.FieldIDEmployeeID, name: "Employee ID", typ: "short_text", typeID: 1, hint: "Set by HR", order: 9, required: true, notEditable: true},
	}
	out := make([]knownvalue.Check, len(fields))
	for i, f := range fields {
		out[i] = f.check()
	}
	return out
}

// TestAccCustomProfileFieldsDataSource_all reads every seeded field, as a
// member (any user may), then fields added outside Terraform.
func TestAccCustomProfileFieldsDataSource_all(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	config := member + `
data "zulip_custom_profile_fields" "all" {}

data "zulip_custom_profile_fields" "team" {
  name = "Team"
}
`
	all := tfjsonpath.New("fields")
	fields := func(addr string, at tfjsonpath.Path, want knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, at, want)
	}
	acctest.ParallelSteps(t,
		acctest.Apply(config).State(
			fields("data.zulip_custom_profile_fields.all", all, knownvalue.ListExact(seededProfileFields())),
			acctest.Value("data.zulip_custom_profile_fields.all", "name", knownvalue.Null()),
			fields("data.zulip_custom_profile_fields.team", all, knownvalue.ListExact([]knownvalue.Check{seededTeamField.check()})),
		).Step(),
		// Fields added outside Terraform: a Dropdown whose options'
		// order differs from their keys', placed first, and a custom
		// external account.
		acctest.Apply(config).OutOfBand(srv, func(r *refserver.Realm) {
			r.ProfileFields = append(r.ProfileFields,
				&refserver.ProfileField{ID: 20, Type: refserver.FieldSelect, Order: 0, Name: "Office", Hint: "",
					FieldData: `{"a":{"text":"Berlin","order":"3"},"b":{"text":"Tokyo","order":"1"},"c":{"text":"Remote","order":"2"}}`},
				&refserver.ProfileField{ID: 21, Type: refserver.FieldExternalAccount, Order: 10, Name: "Forge", Hint: "Your forge user",
					EditableByUser: true, FieldData: `{"subtype":"custom","url_pattern":"https://forge.example.com/%(username)s"}`},
			)
		}).State(
			fields("data.zulip_custom_profile_fields.all", all, knownvalue.ListSizeExact(11)),
			fields("data.zulip_custom_profile_fields.all", all.AtSliceIndex(0), profileFieldCheck{
				id: 20, name: "Office", typ: "select", typeID: 3, order: 0, notEditable: true,
				options: knownvalue.ListExact([]knownvalue.Check{
					option("b", "Tokyo", 1), option("c", "Remote", 2), option("a", "Berlin", 3),
				}),
				fieldData: `{"a":{"text":"Berlin","order":"3"},"b":{"text":"Tokyo","order":"1"},"c":{"text":"Remote","order":"2"}}`,
			}.check()),
			fields("data.zulip_custom_profile_fields.all", all.AtSliceIndex(10), profileFieldCheck{
				id: 21, name: "Forge", typ: "external_account", typeID: 7, hint: "Your forge user", order: 10,
				subtype: knownvalue.StringExact("custom"), urlPattern: knownvalue.StringExact("https://forge.example.com/%(username)s"),
				fieldData: `{"subtype":"custom","url_pattern":"https://forge.example.com/%(username)s"}`,
			}.check()),
		).Step(),
	)
}

// TestAccCustomProfileFieldsDataSource_unknownName checks that a name filter
// without a match fails, naming the organization's fields.
func TestAccCustomProfileFieldsDataSource_unknownName(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	named := func(name string) string {
		return member + "\ndata \"zulip_custom_profile_fields\" \"x\" {\n  name = \"" + name + "\"\n}\n"
	}
	acctest.ParallelSteps(t,
		acctest.Apply(named("team")).Fails(acctest.ExpectErr(`Custom Profile Field Not Found`, `no custom profile field named "team"`,
			`compared exactly`, `"Phone number", "Biography", "Team"`, `"Employee ID"`)).Step(),
		acctest.Apply(named("")).Fails(acctest.ExpectErr(`name`, `string length must be at least 1`)).Step(),
	)
}

// TestAccCustomProfileFieldsDataSource_example applies the documentation's example.
func TestAccCustomProfileFieldsDataSource_example(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelSteps(t,
		acctest.Apply(member+acctest.ReadExample(t, "examples/data-sources/zulip_custom_profile_fields/data-source.tf")).State(
			statecheck.ExpectKnownOutputValue("phone_field_id", knownvalue.Int64Exact(refserver.FieldIDPhone)),
			statecheck.ExpectKnownOutputValue("design_team_key", knownvalue.StringExact("1")),
			statecheck.ExpectKnownOutputValue("field_types", knownvalue.MapExact(map[string]knownvalue.Check{
				"Phone number":    knownvalue.StringExact("short_text"),
				"Biography":       knownvalue.StringExact("long_text"),
				"Team":            knownvalue.StringExact("select"),
				"Birthday":        knownvalue.StringExact("date"),
				"Website":         knownvalue.StringExact("url"),
				"Mentor":          knownvalue.StringExact("users"),
				"GitHub username": knownvalue.StringExact("external_account"),
				"Pronouns":        knownvalue.StringExact("pronouns"),
				"Employee ID":     knownvalue.StringExact("short_text"),
			})),
		).Step(),
	)
}
