package kit

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// TestImportPair: the user id follows the last colon, so a container's name
// may hold colons; a malformed id names the format and an example.
func TestImportPair(t *testing.T) {
	for _, tc := range []struct {
		id, container string
		user          int64
		ok            bool
	}{
		{"backend:12", "backend", 12, true},
		{"release: 2.0:7", "release: 2.0", 7, true},
		{"5:9", "5", 9, true},
		{"backend", "", 0, false},
		{":12", "", 0, false},
		{"backend:", "", 0, false},
		{"backend:ann", "", 0, false},
	} {
		var diags diag.Diagnostics
		container, user, ok := ImportPair("zulip_user_group_membership", "<group name or id>:<user id>", "backend:12", tc.id, &diags)
		if container != tc.container || user != tc.user || ok != tc.ok || diags.HasError() == tc.ok {
			t.Errorf("ImportPair(%q) = %q, %d, %v (%v); want %q, %d, %v", tc.id, container, user, ok, diags, tc.container, tc.user, tc.ok)
		}
		if !tc.ok && (len(diags) != 1 || diags[0].Summary() != "Invalid Import ID") {
			t.Errorf("ImportPair(%q): diagnostics %v; want one Invalid Import ID", tc.id, diags)
		}
	}
}
