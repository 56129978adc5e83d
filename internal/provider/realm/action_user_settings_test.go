package realm_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccApplyUserSettingsAction_example applies the action's example: the
// members of backend (Mark and Ellen) get the settings, except a setting
// Mark changed himself; nobody else's change.
func TestAccApplyUserSettingsAction_example(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) { selfEdited(r, refserver.SeedMemberID, "color_scheme", 3) })
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+acctest.ReadExample(t, "examples/actions/zulip_apply_user_settings/action.tf")).
			OnServer(userSettingsOnServer(srv, map[int]map[string]string{
				refserver.SeedMemberID:  {"color_scheme": "3", "web_home_view": "recent", "enter_sends": "true"},
				refserver.SeedMember3ID: {"color_scheme": "2", "web_home_view": "recent", "enter_sends": "true"},
				refserver.SeedMember2ID: {"color_scheme": "", "web_home_view": "", "enter_sends": ""},
			})).Step(),
	))
}

// TestAccApplyUserSettingsAction_overrides: without skip_if_already_edited,
// a user's own choice is overridden too; users are listed by id.
func TestAccApplyUserSettingsAction_overrides(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) { selfEdited(r, refserver.SeedMemberID, "emojiset", "twitter") })
	body := "    users = [5, 6]\n    skip_if_already_edited = false\n    settings = { emojiset = \"text\", web_font_size_px = 14 }"
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedOwnerID)+acctest.TriggeredAction("zulip_apply_user_settings", body)).
			OnServer(userSettingsOnServer(srv, map[int]map[string]string{
				refserver.SeedMemberID:  {"emojiset": "text", "web_font_size_px": "14"},
				refserver.SeedMember2ID: {"emojiset": "text", "web_font_size_px": "14"},
				refserver.SeedMember3ID: {"emojiset": ""},
			})).Step(),
	))
}

// TestAccApplyUserSettingsAction_planChecks: the plan refuses bad arguments
// naming the attribute, a server older than feature level 444, and an
// account that is not an administrator.
func TestAccApplyUserSettingsAction_planChecks(t *testing.T) {
	srv := acctest.NewServer(t)
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 443 })
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	config := func(provider, body string) string {
		return provider + acctest.TriggeredAction("zulip_apply_user_settings", body)
	}
	steps := []resource.TestStep{
		acctest.PlanFails(config(srv.ProviderConfig(t, refserver.SeedMemberID), "    users = [6]\n    settings = { enter_sends = true }"),
			"Insufficient Role", "Changing other users' settings needs an organization administrator"),
		acctest.PlanFails(config(old.ProviderConfig(t, refserver.SeedAdminID), "    users = [6]\n    settings = { enter_sends = true }"),
			"Zulip Server Too Old", "zulip_apply_user_settings needs Zulip feature level 444", "has feature level 443"),
	}
	for _, bad := range userSettingsBadInput {
		steps = append(steps, acctest.PlanFails(config(admin, bad.body), bad.phrases...))
	}
	acctest.ParallelTest(t, acctest.ActionCase(steps...))
}

// userSettingsBadInput are arguments the plan refuses, with what it says.
var userSettingsBadInput = []struct {
	body    string
	phrases []string
}{
	{"    users = [6]\n    group = 9\n    settings = { enter_sends = true }", []string{"Invalid Attribute Combination", "users", "Exactly one of users and group"}},
	{"    settings = { enter_sends = true }", []string{"Invalid Attribute Combination", "Exactly one of users and group"}},
	{"    users = [6]\n    settings = {}", []string{"No Settings to Apply", "settings", "Set at least one setting"}},
	{"    users = [6]\n    settings = { color_scheme = \"purple\" }", []string{"settings.color_scheme", "value must be one of"}},
	{"    users = [6]\n    settings = { presence_enabled = false }", []string{"presence_enabled"}},
	{"    users = []\n    settings = { enter_sends = true }", []string{"users", "at least 1"}},
	{"    users = [6]\n    settings = { notification_sound = \"beep\" }", []string{"Unknown Notification Sound", "notification_sound",
		"Invalid notification sound 'beep'"}},
}

// selfEdited records a setting a user changed themselves.
func selfEdited(r *refserver.Realm, uid int, name string, v any) {
	if r.UserSettings == nil {
		r.UserSettings = map[int]*refserver.UserSettings{}
	}
	r.UserSettings[uid] = &refserver.UserSettings{Values: map[string]any{name: v}, SelfEdited: map[string]bool{name: true}}
}

// userSettingsOnServer checks users' settings on the server: want maps a
// user to settings and their values as fmt prints them, "" for a setting
// the user never had changed.
func userSettingsOnServer(srv *acctest.Server, want map[int]map[string]string) func() error {
	return func() error {
		var err error
		srv.Do(func(r *refserver.Realm) {
			for uid, settings := range want {
				for name, value := range settings {
					got := ""
					if us := r.UserSettings[uid]; us != nil {
						if v, ok := us.Values[name]; ok {
							got = fmt.Sprint(v)
						}
					}
					if got != value && err == nil {
						err = fmt.Errorf("user %d's %s is %q, want %q", uid, name, got, value)
					}
				}
			}
		})
		return err
	}
}
