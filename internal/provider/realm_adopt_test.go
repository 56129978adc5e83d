package provider_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// adoptedOrganization is the configuration of the seeded organization's
// settings, defaults, default channels, orders, custom profile fields and a
// code playground, written from what the server holds, with the changes of
// one step applied (change) and, when imports is set, an import block for
// every resource.
type adoptedOrganization struct {
	srv     *acctest.Server
	changed bool
}

func (a adoptedOrganization) config(imports bool) string {
	var b strings.Builder
	imp := func(to, id string) {
		if imports {
			fmt.Fprintf(&b, "import {\n  to = %s\n  id = %q\n}\n", to, id)
		}
	}
	ids := func(list []int) string {
		s := make([]string, len(list))
		for i, id := range list {
			s[i] = fmt.Sprint(id)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	a.srv.Do(func(r *refserver.Realm) {
		name, scheme, creators := r.Name, "automatic", "role:members"
		var defaults []int
		for id, ch := range r.Channels {
			if ch.IsDefault && !ch.IsArchived && id != refserver.SeedChannelRandom {
				defaults = append(defaults, id)
			}
		}
		sort.Ints(defaults)
		if a.changed {
			name, scheme, creators = "Adopted", "dark", "role:administrators"
			defaults = append(defaults, refserver.SeedChannelRandom)
		}
		imp("zulip_realm.this", a.srv.URL)
		fmt.Fprintf(&b, "resource \"zulip_realm\" \"this\" {\n  name = %q\n  message_retention_days = \"unlimited\"\n"+
			"  can_create_groups = { groups = [%q] }\n}\n", name, creators)
		imp("zulip_realm_user_defaults.this", a.srv.URL)
		fmt.Fprintf(&b, "resource \"zulip_realm_user_defaults\" \"this\" {\n  color_scheme = %q\n  enter_sends = false\n}\n", scheme)
		imp("zulip_default_channels.all", "default_channels")
		fmt.Fprintf(&b, "resource \"zulip_default_channels\" \"all\" {\n  channel_ids = %s\n}\n", ids(defaults))
		var linkifiers []int
		for _, l := range r.Linkifiers {
			linkifiers = append(linkifiers, l.ID)
		}
		imp("zulip_linkifier_order.all", "linkifiers")
		fmt.Fprintf(&b, "resource \"zulip_linkifier_order\" \"all\" {\n  linkifiers = %s\n}\n", ids(linkifiers))

		fields := slices.Clone(r.ProfileFields)
		slices.SortStableFunc(fields, func(x, y *refserver.ProfileField) int { return x.Order - y.Order })
		var order []int
		for _, f := range fields {
			order = append(order, f.ID)
			addr := fmt.Sprintf("zulip_custom_profile_field.f%d", f.ID)
			imp(addr, fmt.Sprint(f.ID))
			b.WriteString(adoptedField(f, a.changed))
		}
		if a.changed {
			slices.Reverse(order)
		}
		imp("zulip_custom_profile_field_order.all", "custom_profile_fields")
		fmt.Fprintf(&b, "resource \"zulip_custom_profile_field_order\" \"all\" {\n  fields = %s\n}\n", ids(order))

		template := "https://play.rust-lang.org/?code={code}"
		if a.changed {
			template = "https://play.rust-lang.org/?edition=2021&code={code}"
		}
		imp("zulip_code_playground.rust", "Rust/Rust playground")
		fmt.Fprintf(&b, "resource \"zulip_code_playground\" \"rust\" {\n  name = \"Rust playground\"\n  pygments_language = \"Rust\"\n  url_template = %q\n}\n", template)
	})
	return b.String()
}

// adoptedField is a seeded custom profile field's configuration; changed
// gives the Team field another hint and a renamed option.
func adoptedField(f *refserver.ProfileField, changed bool) string {
	types := map[int]string{refserver.FieldShortText: "short_text", refserver.FieldLongText: "long_text", refserver.FieldSelect: "select",
		refserver.FieldDate: "date", refserver.FieldURL: "url", refserver.FieldUser: "users",
		refserver.FieldExternalAccount: "external_account", refserver.FieldPronouns: "pronouns"}
	hint := f.Hint
	var extra string
	switch f.Type {
	case refserver.FieldSelect:
		var data map[string]struct{ Text, Order string }
		_ = json.Unmarshal([]byte(f.FieldData), &data)
		keys := make([]string, 0, len(data))
		for k := range data {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return data[keys[i]].Order < data[keys[j]].Order })
		var opts []string
		for _, k := range keys {
			text := data[k].Text
			if changed && text == "Sales" {
				text = "Sales and marketing"
			}
			opts = append(opts, fmt.Sprintf("{ key = %q, text = %q }", k, text))
		}
		extra = "  options = [" + strings.Join(opts, ", ") + "]\n"
		if changed {
			hint = "The team you belong to"
		}
	case refserver.FieldExternalAccount:
		var data struct{ Subtype string }
		_ = json.Unmarshal([]byte(f.FieldData), &data)
		extra = fmt.Sprintf("  external_account_subtype = %q\n", data.Subtype)
	}
	return fmt.Sprintf("resource \"zulip_custom_profile_field\" \"f%d\" {\n  name = %q\n  type = %q\n  hint = %q\n%s}\n",
		f.ID, f.Name, types[f.Type], hint, extra)
}

// TestAccRealm_adopt is issue 15's acceptance: the seeded organization's
// settings, defaults, default channels, orders, custom profile fields and a
// playground are adopted with import blocks (the plan only imports, the next
// is empty); one setting of each kind changes; out-of-band changes are undone;
// a member's and an administrator's keys get the plan-time refusals of their
// roles.
func TestAccRealm_adopt(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) {
		acctest.AddPlayground(r, "Rust playground", "Rust", "https://play.rust-lang.org/?code={code}")
	})
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	before, after := adoptedOrganization{srv: srv}, adoptedOrganization{srv: srv, changed: true}
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: owner + before.config(true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{acctest.ExpectOnlyImports()},
					PostApplyPostRefresh: empty,
				},
			},
			{
				// One change of each kind.
				Config:           owner + after.config(false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
				Check: func(*terraform.State) error {
					var problems []string
					srv.Do(func(r *refserver.Realm) {
						if r.Name != "Adopted" || r.Settings.UserDefaults["color_scheme"] != 2 || !r.Channels[refserver.SeedChannelRandom].IsDefault {
							problems = append(problems, "settings, defaults or default channels")
						}
						if len(r.Playgrounds) != 1 || !strings.Contains(r.Playgrounds[0].URLTemplate, "edition") {
							problems = append(problems, "the playground")
						}
					})
					if len(problems) > 0 {
						return fmt.Errorf("not applied: %s", strings.Join(problems, "; "))
					}
					return nil
				},
			},
			{
				// Out of band: each kind changed again behind Terraform's back.
				PreConfig: func() {
					srv.Do(func(r *refserver.Realm) {
						r.Name = "Renamed by hand"
						r.SetSetting("message_retention_days", 30)
						r.Settings.UserDefaults["color_scheme"] = 3
						r.Channels[refserver.SeedChannelRandom].IsDefault = false
						for _, f := range r.ProfileFields {
							if f.Name == "Team" {
								f.Hint = "Edited by hand"
							}
						}
					})
				},
				Config:           owner + after.config(false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
				Check: func(*terraform.State) error {
					var name string
					var retention any
					srv.Do(func(r *refserver.Realm) { name, retention = r.Name, r.Setting("message_retention_days") })
					if name != "Adopted" || retention != -1 {
						return fmt.Errorf("out-of-band changes not undone: name %q, retention %v", name, retention)
					}
					return nil
				},
			},
			{
				// An administrator cannot change an owner's setting.
				Config: srv.ProviderConfig(t, refserver.SeedAdminID) + strings.Replace(after.config(false),
					"message_retention_days = \"unlimited\"", "message_retention_days = \"90\"", 1),
				PlanOnly: true, ExpectError: acctest.ExpectErr("Insufficient Role", "owner"),
			},
			{
				// A member can change none of it.
				Config: srv.ProviderConfig(t, refserver.SeedMemberID) + strings.Replace(after.config(false),
					"name = \"Adopted\"", "name = \"Mine now\"", 1),
				PlanOnly: true, ExpectError: acctest.ExpectErr("Insufficient Role", "administrator"),
			},
			// The owner's configuration again: nothing to do, and the destroy after
			// the test runs with the owner's key.
			{Config: owner + after.config(false), PlanOnly: true},
		},
	})
}
