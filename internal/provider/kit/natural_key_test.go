package kit

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// TestRetirement_Check: the holder of a planned name is classified (this
// configuration's own object before a retired one, a retired one before an
// active one) and the plan says what the apply does with it, in the type's
// words.
func TestRetirement_Check(t *testing.T) {
	ctx := context.Background()
	r := Retirement{TypeName: "zulip_user_group", What: "user group", Short: "group", Retired: "deactivated",
		Revived: "reactivated", Keeps: ", with its members,"}
	d := &ProviderData{}
	d.noteReplaced("zulip_user_group", []string{"12"}) // deleted by this run's replacement
	d.noteHeld("zulip_user_group", []string{"15"})     // a state holds it, and someone deactivated it
	cases := []struct {
		id       int64
		retired  bool
		want     Holding
		severity diag.Severity
		summary  string
		detail   string
	}{
		{12, true, KeyReplaced, diag.SeverityWarning, "Replacing a User Group Reactivates It",
			`Zulip keeps the name of a deactivated group, so replacing the group "ops" (id 12) deactivates it and then ` +
				`reactivates the same group, with its members, and gives it this configuration: no new group is made.`},
		{13, true, KeyRetired, diag.SeverityWarning, "Deactivated User Group Will Be Reactivated",
			`The organization has a deactivated user group named "ops" (id 13). Zulip keeps the names of deactivated ` +
				`groups, so this apply reactivates that group, with its members, and gives it the configuration here.`},
		{15, true, KeyRetired, diag.SeverityWarning, "Deactivated User Group Will Be Reactivated",
			`The organization has a deactivated user group named "ops" (id 15).`},
		{14, false, KeyTaken, diag.SeverityError, "User Group Already Exists",
			"The organization already has a user group named \"ops\" (id 14). To manage it with this resource, import it " +
				"(with <name> this resource's name):\n\nimport {\n  to = zulip_user_group.<name>\n  id = \"ops\"\n}"},
	}
	for _, c := range cases {
		var diags diag.Diagnostics
		if got := r.Check(ctx, d, path.Root("name"), c.id, "ops", c.retired, &diags); got != c.want {
			t.Errorf("id %d: holding %d, want %d", c.id, got, c.want)
		}
		if len(diags) != 1 || diags[0].Severity() != c.severity || diags[0].Summary() != c.summary ||
			!strings.HasPrefix(diags[0].Detail(), c.detail) {
			t.Errorf("id %d: diagnostics %v, want %s %q: %q", c.id, diags, c.severity, c.summary, c.detail)
		}
	}
	var diags diag.Diagnostics
	if got := (Retirement{TypeName: "zulip_channel", What: "channel", Retired: "archived", Revived: "unarchived"}).
		Check(ctx, nil, path.Root("name"), 12, "ops", true, &diags); got != KeyRetired ||
		diags[0].Summary() != "Archived Channel Will Be Unarchived" {
		t.Errorf("another type's own object: %d %v", got, diags)
	}
}
