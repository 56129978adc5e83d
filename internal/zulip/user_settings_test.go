package zulip

import (
	"context"
	"net/http"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
)

var _ = methodGroup(methodCasesUserSettings)

// methodCasesUserSettings: other users' settings.
func methodCasesUserSettings() []methodCase {
	return []methodCase{
		{"ChangeUserSettingsOf", "PATCH", "/settings", func(ctx context.Context, c *Client) error {
			return c.ChangeUserSettingsOf(ctx, &RealmUserDefaults{EnterSends: ptr(true)}, TargetUsers{UserIDs: []int64{5}})
		}},
	}
}

// TestChangeUserSettingsOf: the settings go as the defaults' endpoint takes
// them, and target_users as JSON with both lists, empty or not.
func TestChangeUserSettingsOf(t *testing.T) {
	env := setup(t)
	env.handle("/settings", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		expectForm(t, r, map[string]string{"web_home_view": "inbox", "enter_sends": "false", "color_scheme": "2",
			"target_users": `{"user_ids":[],"group_ids":[9],"skip_if_already_edited":true}`})
		writeJSON(w, http.StatusOK, `{"result":"success","msg":""}`)
	})
	var s RealmUserDefaults
	for name, v := range map[string]any{"web_home_view": "inbox", "enter_sends": false, "color_scheme": int64(2)} {
		if err := s.Set(name, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := env.client.ChangeUserSettingsOf(context.Background(), &s, TargetUsers{GroupIDs: []int64{9}, SkipIfAlreadyEdited: true}); err != nil {
		t.Fatal(err)
	}
}

// TestRealmUserDefaults_Set: every default for new users can be set by its
// name, with the Go type its kind has; a wrong type or name is refused.
func TestRealmUserDefaults_Set(t *testing.T) {
	for _, sp := range realmspec.UserDefaults {
		var v any
		switch sp.Kind {
		case realmspec.Bool:
			v = true
		case realmspec.Count, realmspec.IntEnum:
			v = int64(1)
		default:
			v = "x"
		}
		var s RealmUserDefaults
		if err := s.Set(sp.Name, v); err != nil {
			t.Errorf("%s: %v", sp.Name, err)
			continue
		}
		p, _ := s.params()
		if len(p.values) != 1 || p.values.Get(sp.Name) == "" {
			t.Errorf("%s: sends %v", sp.Name, p.values)
		}
	}
	var s RealmUserDefaults
	if err := s.Set("enter_sends", "yes"); err == nil {
		t.Error("a string for a bool was accepted")
	}
	if err := s.Set("timezone", "UTC"); err == nil {
		t.Error("an unknown setting was accepted")
	}
}
