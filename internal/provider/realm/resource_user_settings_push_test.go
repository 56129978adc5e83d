package realm_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// testAccUserSettingsPushConfig pushes emojiset to the members of backend
// (Mark and Ellen), with a trigger.
func testAccUserSettingsPushConfig(emojiset, round string) string {
	return fmt.Sprintf(`
resource "zulip_user_settings_push" "test" {
  group    = %d
  settings = { emojiset = %q }
  triggers = { round = %q }
}
`, refserver.GroupBackend, emojiset, round)
}

// TestAccUserSettingsPush_performsOnce: created, the push applies the
// settings once, leaving out a user's own choice; a second plan is empty;
// a changed trigger or argument applies them again; destroying forgets.
func TestAccUserSettingsPush_performsOnce(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	addr := "zulip_user_settings_push.test"
	emojisets := func(mark, ellen string) func() error {
		return userSettingsOnServer(srv, map[int]map[string]string{
			refserver.SeedMemberID: {"emojiset": mark}, refserver.SeedMember3ID: {"emojiset": ellen},
			refserver.SeedMember2ID: {"emojiset": ""},
		})
	}
	acctest.ParallelSteps(t,
		acctest.Apply(admin+testAccUserSettingsPushConfig("text", "1")).Planned(addr, plancheck.ResourceActionCreate).Clean().
			Before(func() {
				srv.Do(func(r *refserver.Realm) { selfEdited(r, refserver.SeedMemberID, "emojiset", "twitter") })
			}).
			State(acctest.Value(addr, "performed_at", knownvalue.StringRegexp(acctest.RFC3339)),
				acctest.Value(addr, "skip_if_already_edited", knownvalue.Null())).
			OnServer(emojisets("twitter", "text")).Step(),
		// Ellen changes it back; nothing is applied until a trigger changes.
		acctest.Apply(admin+testAccUserSettingsPushConfig("text", "1")).Plan(plancheck.ExpectEmptyPlan()).
			OutOfBand(srv, func(r *refserver.Realm) { r.UserSettings[refserver.SeedMember3ID].Values["emojiset"] = "google" }).
			OnServer(emojisets("twitter", "google")).Step(),
		acctest.Apply(admin+testAccUserSettingsPushConfig("text", "2")).Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).Clean().
			OnServer(emojisets("twitter", "text")).Step(),
		acctest.Apply(admin+testAccUserSettingsPushConfig("google", "2")).Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).
			OnServer(emojisets("twitter", "google")).Step(),
		// Destroying only forgets: the settings stay.
		acctest.Apply(admin).Planned(addr, plancheck.ResourceActionDestroy).OnServer(emojisets("twitter", "google")).Step(),
	)
}

// TestAccUserSettingsPush_planChecks: bad arguments, a server older than
// feature level 444 and an account that is not an administrator are
// refused at plan.
func TestAccUserSettingsPush_planChecks(t *testing.T) {
	srv := acctest.NewServer(t)
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 443 })
	steps := []resource.TestStep{
		acctest.PlanFails(srv.ProviderConfig(t, refserver.SeedModeratorID)+testAccUserSettingsPushConfig("text", "1"),
			"Insufficient Role", "Changing other users' settings"),
		acctest.PlanFails(old.ProviderConfig(t, refserver.SeedAdminID)+testAccUserSettingsPushConfig("text", "1"),
			"Zulip Server Too Old", "zulip_user_settings_push needs Zulip feature level 444"),
	}
	// An administrator bot: Zulip lets only humans change others' settings.
	bots := acctest.NewServer(t)
	bots.Do(func(r *refserver.Realm) { r.Users[refserver.SeedBotID].Role = refserver.RoleAdministrator })
	steps = append(steps, acctest.PlanFails(bots.ProviderConfig(t, refserver.SeedBotID)+testAccUserSettingsPushConfig("text", "1"),
		"Insufficient Role", "needs a human account"))
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	for _, bad := range userSettingsBadInput {
		steps = append(steps, acctest.PlanFails(admin+"\nresource \"zulip_user_settings_push\" \"test\" {\n"+bad.body+"\n}\n", bad.phrases...))
	}
	acctest.ParallelSteps(t, steps...)
}

// TestAccUserSettingsPush_refused: what only the server knows is refused at
// apply on the attribute at fault, and nothing is recorded.
func TestAccUserSettingsPush_refused(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	push := func(target string) string {
		return admin + "\nresource \"zulip_user_settings_push\" \"test\" {\n  " + target + "\n  settings = { enter_sends = false }\n}\n"
	}
	acctest.ParallelSteps(t,
		acctest.Apply(push("users = [5, 999]")).Fails(acctest.ExpectErr("Unable to Apply User Settings", "users",
			"A user does not exist", "Invalid user ID: 999")).Step(),
		acctest.Apply(push("group = 999")).Fails(acctest.ExpectErr("Unable to Apply User Settings", "group",
			"The user group does not exist", "Invalid user group ID: 999")).Step(),
		// Nothing was changed, nothing recorded.
		resource.TestStep{Config: push("users = [5, 999]"), PlanOnly: true, ExpectNonEmptyPlan: true, PreConfig: func() {
			if err := userSettingsOnServer(srv, map[int]map[string]string{refserver.SeedMemberID: {"enter_sends": ""}})(); err != nil {
				t.Error(err)
			}
		}},
	)
}

func TestAccUserSettingsPush_example(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelSteps(t,
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+acctest.ReadExample(t, "examples/resources/zulip_user_settings_push/resource.tf")).
			OnServer(userSettingsOnServer(srv, map[int]map[string]string{
				refserver.SeedMemberID:  {"emojiset": "text", "web_mark_read_on_scroll_policy": "2"},
				refserver.SeedMember2ID: {"emojiset": "text", "web_mark_read_on_scroll_policy": "2"},
			})).Clean().Step(),
	)
}
