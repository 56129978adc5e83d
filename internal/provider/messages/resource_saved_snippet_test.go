package messages_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func TestAccSavedSnippet_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	addr := "zulip_saved_snippet.test"
	sameID := statecheck.CompareValue(compare.ValuesSame())
	var id int
	const content = "Deploying **now**.\nExpect a short outage in #**general**."
	const title, text = "Deploy finished", "Deploy done, all clear."
	onServer := func() statecheck.StateCheck {
		return acctest.Value(addr, "id", knownvalue.Int64Func(func(int64) error {
			return snippetOnServer(srv, id, refserver.SeedAdminID, title, text)
		}))
	}
	acctest.ParallelSteps(t,
		acctest.Apply(admin+testAccSavedSnippetConfig("Deploy notice", content)).Clean().State(
			acctest.Value(addr, "title", knownvalue.StringExact("Deploy notice")),
			acctest.Value(addr, "content", knownvalue.StringExact(content)),
			acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
				id = int(v)
				return snippetOnServer(srv, id, refserver.SeedAdminID, "Deploy notice", content)
			})),
			// After the id check, which records id.
			acctest.Value(addr, "date_created", knownvalue.Int64Func(func(v int64) error {
				return snippetDateOnServer(srv, id, v)
			})),
			sameID.AddStateValue(addr, tfjsonpath.New("id")),
		).Step(),
		acctest.ImportVerify(addr, ""),
		// In place: both fields change, the id stays.
		acctest.Apply(admin+testAccSavedSnippetConfig(title, text)).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(
			acctest.Value(addr, "title", knownvalue.StringExact(title)),
			acctest.Value(addr, "content", knownvalue.StringExact(text)),
			onServer(), sameID.AddStateValue(addr, tfjsonpath.New("id")),
		).Step(),
		// Changed outside Terraform: the plan puts it back, in place.
		acctest.Apply(admin+testAccSavedSnippetConfig(title, text)).OutOfBand(srv, func(r *refserver.Realm) {
			r.Snippets[id].Title = "Edited in the web app"
		}).Planned(addr, plancheck.ResourceActionUpdate).Clean().State(onServer(), sameID.AddStateValue(addr, tfjsonpath.New("id"))).Step(),
		// Deleted outside Terraform: dropped from state and created again.
		acctest.Apply(admin+testAccSavedSnippetConfig(title, text)).OutOfBand(srv, func(r *refserver.Realm) {
			delete(r.Snippets, id)
		}).Planned(addr, plancheck.ResourceActionCreate).Clean().State(
			acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
				if int(v) == id {
					return fmt.Errorf("re-created snippet kept the deleted id %d", id)
				}
				return snippetOnServer(srv, int(v), refserver.SeedAdminID, title, text)
			})),
		).Step(),
	)
}

// TestAccSavedSnippet_example applies the documentation's example.
func TestAccSavedSnippet_example(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	addr := "zulip_saved_snippet.release_checklist"
	content := "Before tagging a release:\n- [ ] Changelog updated\n- [ ] Migrations reviewed\n- [ ] Announced in #**announce**"
	acctest.ParallelSteps(t,
		acctest.Apply(member+acctest.ReadExample(t, "examples/resources/zulip_saved_snippet/resource.tf")).State(
			acctest.Value(addr, "title", knownvalue.StringExact("Release checklist")),
			acctest.Value(addr, "content", knownvalue.StringExact(content)),
			acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
				return snippetOnServer(srv, int(v), refserver.SeedMemberID, "Release checklist", content)
			})),
		).Clean().Step(),
	)
}

func TestAccSavedSnippet_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	step := func(title, content string, want string) resource.TestStep {
		return acctest.PlanFailsRE(admin+testAccSavedSnippetConfig(title, content), want)
	}
	acctest.ParallelSteps(t,
		step("", "Hello", `title: must not be empty or only whitespace`),
		step("Greeting", " \n\t", `content: must not be empty or only whitespace`),
		step(" Greeting", "Hello", `title: must not start or end with whitespace`),
		step("Greeting", "Hello\n", `content: must not start or end with whitespace.*chomp`),
		step(strings.Repeat("t", 61), "Hello", `title: must be at most 60 characters.*got 61`),
		step("Greeting", strings.Repeat("x", 10001), `content: must be at most 10000 characters.*got 10001`),
		resource.TestStep{
			// The limit counts characters, not bytes: 60 two-byte letters are fine.
			Config:             admin + testAccSavedSnippetConfig(strings.Repeat("é", 60), strings.Repeat("x", 10000)),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
	)
}

// TestAccSavedSnippet_import imports a seeded snippet as its owner by its
// title, and shows that another user's snippet cannot be imported.
func TestAccSavedSnippet_import(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	addr := "zulip_saved_snippet.test"
	const welcome = "Welcome to the team! Please read #**general>rules**."
	acctest.ParallelSteps(t,
		// Snippet 1 is the owner's: to the administrator it does not exist.
		acctest.ImportFails(admin+testAccSavedSnippetConfig("Welcome", welcome), addr, "1",
			acctest.ExpectErrRE(`Saved Snippet Not Found.*No saved snippet matches the import id "1".*private to the user`)),
		acctest.ImportFails(admin+testAccSavedSnippetConfig("Welcome", welcome), addr, "Welcome",
			acctest.ExpectErrRE(`Saved Snippet Not Found.*No saved snippet matches the import id "Welcome"`)),
		// By its title, the human key.
		acctest.ImportKept(owner+testAccSavedSnippetConfig("Welcome", welcome), addr, "Welcome"),
		// The imported state matches the seeded snippet: nothing to change.
		acctest.Apply(owner+testAccSavedSnippetConfig("Welcome", welcome)).Plan(plancheck.ExpectEmptyPlan()).State(
			acctest.Value(addr, "id", knownvalue.Int64Exact(1)),
			acctest.Value(addr, "title", knownvalue.StringExact("Welcome")),
			acctest.Value(addr, "content", knownvalue.StringExact(welcome)),
			acctest.Value(addr, "date_created", knownvalue.Int64Func(func(v int64) error {
				return snippetDateOnServer(srv, 1, v)
			})),
		).Step(),
	)
}

// TestAccSavedSnippet_olderServer checks that a server without the edit
// endpoint (feature level < 368) gets a replacement instead of an edit.
func TestAccSavedSnippet_olderServer(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 300 })
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	addr := "zulip_saved_snippet.test"
	differentID := statecheck.CompareValue(compare.ValuesDiffer())
	var oldID int
	acctest.ParallelSteps(t,
		acctest.Apply(admin+testAccSavedSnippetConfig("On call", "Page the on-call engineer.")).State(
			acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
				oldID = int(v)
				return nil
			})),
			differentID.AddStateValue(addr, tfjsonpath.New("id")),
		).Clean().Step(),
		acctest.Apply(admin+testAccSavedSnippetConfig("On call", "Page the on-call engineer, then the lead.")).
			Planned(addr, plancheck.ResourceActionReplace).Clean().State(
			differentID.AddStateValue(addr, tfjsonpath.New("id")),
			acctest.Value(addr, "id", knownvalue.Int64Func(func(v int64) error {
				if err := snippetOnServer(srv, int(v), refserver.SeedAdminID, "On call", "Page the on-call engineer, then the lead."); err != nil {
					return err
				}
				if snippetOnServer(srv, oldID, refserver.SeedAdminID, "On call", "Page the on-call engineer.") == nil {
					return fmt.Errorf("the replaced snippet %d is still on the server", oldID)
				}
				if n := srv.Requests("PATCH", fmt.Sprintf("/api/v1/saved_snippets/%d", oldID)); n != 0 {
					return fmt.Errorf("the provider sent %d PATCH requests to a server without the edit endpoint", n)
				}
				return nil
			})),
		).Step(),
	)
}

// TestAccSavedSnippet_serverWithoutSnippets checks the plan-time error on a
// server older than saved snippets.
func TestAccSavedSnippet_serverWithoutSnippets(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 250 })
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{acctest.PlanFailsRE(admin+testAccSavedSnippetConfig("On call", "Page the on-call engineer."),
			`zulip_saved_snippet needs Zulip feature level 297 or newer.*feature level 250`)},
	})
}

// snippetOnServer checks the reference server's copy of a snippet.
func snippetOnServer(srv *acctest.Server, id, ownerID int, title, content string) error {
	var err error
	srv.Do(func(r *refserver.Realm) {
		s := r.Snippets[id]
		switch {
		case s == nil:
			err = fmt.Errorf("saved snippet %d not on the server", id)
		case s.OwnerID != ownerID:
			err = fmt.Errorf("saved snippet %d belongs to user %d, want %d", id, s.OwnerID, ownerID)
		case s.Title != title || s.Content != content:
			err = fmt.Errorf("server has snippet %d as (%q, %q), want (%q, %q)", id, s.Title, s.Content, title, content)
		}
	})
	return err
}

// snippetDateOnServer checks date_created against the server's record.
func snippetDateOnServer(srv *acctest.Server, id int, got int64) error {
	var err error
	srv.Do(func(r *refserver.Realm) {
		switch s := r.Snippets[id]; {
		case s == nil:
			err = fmt.Errorf("saved snippet %d not on the server", id)
		case s.DateCreated != got || got <= 0:
			err = fmt.Errorf("date_created is %d, server has %d", got, s.DateCreated)
		}
	})
	return err
}

func testAccSavedSnippetConfig(title, content string) string {
	return fmt.Sprintf(`
resource "zulip_saved_snippet" "test" {
  title   = %q
  content = %q
}
`, title, content)
}
