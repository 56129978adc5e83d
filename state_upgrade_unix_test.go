//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// userStateV0Only are the attributes a zulip_user held in state at schema
// version 0 and no longer does (version 1 keeps what a configuration sets;
// the zulip_user data source shows the rest).
var userStateV0Only = map[string]any{
	"api_email": "user5@zulip.example.com", "delivery_email": "mark@zulip.example.com",
	"is_owner": false, "is_admin": false, "is_guest": false, "is_bot": false, "bot_type": nil, "bot_owner_id": nil,
	"date_joined": "2024-01-15T09:00:00+00:00", "timezone": "Europe/Berlin",
	"avatar_url": "https://secure.gravatar.com/avatar/x", "avatar_version": 1, "is_imported_stub": false,
}

// TestUserStateFromVersion0 is the upgrade path of zulip_user's lean state:
// a state written by a provider at schema version 0 (which held the server's
// reports of the account too) plans empty with this one, and the next apply
// stores it at version 1 without them.
func TestUserStateFromVersion0(t *testing.T) {
	tf := terraformPath(t)
	dir, rc, _ := devOverride(t)
	srv := acctest.NewServer(t)
	w := opsWork{tf: tf, rc: rc, dir: filepath.Join(dir, "upgrade")}
	writeFile(t, filepath.Join(w.dir, "main.tf"), mainTF(t, srv, refserver.SeedAdminID)+`
import {
  to = zulip_user.mark
  id = "mark@zulip.example.com"
}
resource "zulip_user" "mark" {
  email     = "mark@zulip.example.com"
  full_name = "Mark Member"
}
`, 0o644)
	w.must(t, "apply", "-auto-approve")

	file := filepath.Join(w.dir, "terraform.tfstate")
	editUserInstance(t, file, func(inst map[string]any, attrs map[string]any) {
		inst["schema_version"] = 0
		for k, v := range userStateV0Only {
			attrs[k] = v
		}
	})
	w.emptyPlan(t, "the state was written at schema version 0")
	w.must(t, "apply", "-auto-approve")
	editUserInstance(t, file, func(inst map[string]any, attrs map[string]any) {
		if v, _ := inst["schema_version"].(float64); v != 1 {
			t.Errorf("after the apply, the state's schema_version is %v, want 1", inst["schema_version"])
		}
		for k := range userStateV0Only {
			if _, ok := attrs[k]; ok {
				t.Errorf("after the apply, the state still holds %s", k)
			}
		}
		for _, k := range []string{"id", "email", "full_name", "role", "active"} {
			if attrs[k] == nil {
				t.Errorf("after the apply, the state lost %s: %v", k, attrs)
			}
		}
	})
}

// editUserInstance passes the state file's one zulip_user instance, and its
// attributes, to edit, and writes back what edit changed.
func editUserInstance(t *testing.T, file string, edit func(inst, attrs map[string]any)) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	resources, _ := st["resources"].([]any)
	i := slices.IndexFunc(resources, func(r any) bool { m, _ := r.(map[string]any); return m["type"] == "zulip_user" })
	if i < 0 {
		t.Fatalf("the state holds no zulip_user:\n%s", raw)
	}
	inst := resources[i].(map[string]any)["instances"].([]any)[0].(map[string]any)
	edit(inst, inst["attributes"].(map[string]any))
	out, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
