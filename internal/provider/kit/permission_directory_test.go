package kit

import (
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// TestGroupDirectoryRenames: the run's renames are applied to a directory
// read before them and to one read after them alike, and a prior value's name
// is the group that had it when the plan read the groups, even when the
// renames swapped two names.
func TestGroupDirectoryRenames(t *testing.T) {
	renames := []groupRename{{id: 1, from: "x", to: "tmp"}, {id: 2, from: "y", to: "x"}, {id: 1, from: "tmp", to: "y"}}
	before := []zulip.UserGroup{{ID: 1, Name: "x"}, {ID: 2, Name: "y"}, {ID: 3, Name: "z"}}
	after := []zulip.UserGroup{{ID: 1, Name: "y"}, {ID: 2, Name: "x"}, {ID: 3, Name: "z"}}
	for what, list := range map[string][]zulip.UserGroup{"read before the renames": before, "read after them": after} {
		dir := NewGroupDirectory(list)
		dir.applyRenames(renames)
		for name, want := range map[string]int64{"x": 2, "y": 1, "z": 3} {
			if id, ok := dir.ID(name); !ok || id != want {
				t.Errorf("%s: id(%q) = %d, %v; want %d", what, name, id, ok, want)
			}
		}
		for name, want := range map[string]int64{"x": 1, "y": 2, "z": 3, "tmp": 1} {
			if id, ok := dir.priorID(name); !ok || id != want {
				t.Errorf("%s: priorID(%q) = %d, %v; want %d", what, name, id, ok, want)
			}
		}
		if _, ok := dir.ID("tmp"); ok {
			t.Errorf("%s: id(\"tmp\") found a name no group has", what)
		}
		if got := dir.Name(1); got != "y" {
			t.Errorf("%s: name(1) = %q, want y", what, got)
		}
	}
}
