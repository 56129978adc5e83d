package provider_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// testAccRenamedGroupConfig is a group release-team named, through its
// reference, by a permission of a channel, of another group and of the
// organization; extra is added to each permission's groups.
func testAccRenamedGroupConfig(provider, extra string) string {
	return testAccGroupNamedByConfig(provider, "zulip_user_group.release.name"+extra)
}

// testAccGroupNamedByConfig is the configuration of testAccRenamedGroupConfig
// with groups as each permission's list of groups.
func testAccGroupNamedByConfig(provider, groups string) string {
	return provider + fmt.Sprintf(`
resource "zulip_user_group" "release" {
  name        = "release-team"
  description = "Ships releases"
}

resource "zulip_user_group" "qa" {
  name             = "qa"
  description      = ""
  can_manage_group = { groups = [%[1]s] }
}

resource "zulip_channel" "test" {
  name                   = "releases"
  description            = ""
  can_send_message_group = { groups = [%[1]s] }
}

# The account is not in release-team: once the organization lets only that
# group create groups, the account could not create qa.
resource "zulip_realm" "test" {
  can_create_groups = { groups = [%[1]s] }
  depends_on        = [zulip_user_group.qa]
}
`, groups)
}

// renameGroupOutOfBand renames a group on the server, as the web app would.
func renameGroupOutOfBand(t *testing.T, srv *acctest.Server, from, to string) {
	t.Helper()
	renamed := false
	srv.Do(func(r *refserver.Realm) {
		for _, g := range r.Groups {
			if g.Name == from {
				g.Name, renamed = to, true
			}
		}
	})
	if !renamed {
		t.Fatalf("no group %q to rename", from)
	}
}

// releaseTeamOnServer checks the group release-team's name, that it stays
// the group *release (recorded on the first check), and that each permission
// is the group, with the system group moderators when withModerators.
func releaseTeamOnServer(srv *acctest.Server, release *int, withModerators bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		g, ok := acctest.GroupByName(srv, "release-team")
		if !ok {
			return fmt.Errorf("no group named release-team on the server")
		}
		if *release == 0 {
			*release = g.ID
		} else if g.ID != *release {
			return fmt.Errorf("release-team is group %d, not %d", g.ID, *release)
		}
		// want is the value as the server keeps it: the group's id, or the
		// anonymous group of it and moderators, in any order.
		want := fmt.Sprint([]int{*release})
		if withModerators {
			want = fmt.Sprint([]int{min(*release, refserver.GroupModerators), max(*release, refserver.GroupModerators)})
		}
		var errs []error
		check := func(what string, got refserver.GroupSetting) {
			ids := slices.Sorted(slices.Values(got.DirectSubgroups))
			if got.GroupID != 0 {
				ids = append(ids, got.GroupID)
			}
			if fmt.Sprint(ids) != want || len(got.DirectMembers) > 0 {
				errs = append(errs, fmt.Errorf("%s is %+v, want the groups %s", what, got, want))
			}
		}
		qa, _ := acctest.GroupByName(srv, "qa")
		check("qa's can_manage_group", qa.Settings["can_manage_group"])
		ch, _ := acctest.ChannelByName(srv, "releases")
		check("the channel's can_send_message_group", ch.GroupSettings["can_send_message_group"])
		srv.Do(func(r *refserver.Realm) {
			check("the organization's can_create_groups", r.Settings.GroupSettings["can_create_groups"])
		})
		if len(errs) > 0 {
			return fmt.Errorf("%v", errs)
		}
		return nil
	}
}

// TestAccPermission_groupRenamedOutOfBand: a group renamed outside Terraform
// is renamed back, and the permissions that name it (a channel's, another
// group's, the organization's) are repaired in the same apply, also when the
// apply changes them: the old value sent with each update is the group the
// state named, whatever its name is when the update is sent.
func TestAccPermission_groupRenamedOutOfBand(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	var release int
	onServer := func(withModerators bool) resource.TestCheckFunc {
		return releaseTeamOnServer(srv, &release, withModerators)
	}
	states := func(groups ...string) []statecheck.StateCheck {
		return []statecheck.StateCheck{
			statecheck.ExpectKnownValue("zulip_user_group.qa", tfjsonpath.New("can_manage_group"), acctest.PermissionOf(groups)),
			statecheck.ExpectKnownValue("zulip_channel.test", tfjsonpath.New("can_send_message_group"), acctest.PermissionOf(groups)),
			statecheck.ExpectKnownValue("zulip_realm.test", tfjsonpath.New("can_create_groups"), acctest.PermissionOf(groups)),
		}
	}
	empty := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config:            testAccRenamedGroupConfig(owner, ""),
				ConfigStateChecks: states("release-team"),
				ConfigPlanChecks:  empty,
				Check:             onServer(false),
			},
			{
				// Renamed in the web app; the same configuration renames it back
				// and repairs each permission (whose refreshed value names the
				// group by its new name) in one apply.
				PreConfig: func() { renameGroupOutOfBand(t, srv, "release-team", "release-crew") },
				Config:    testAccRenamedGroupConfig(owner, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("zulip_user_group.release", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("zulip_user_group.qa", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("zulip_channel.test", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("zulip_realm.test", plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: states("release-team"),
				Check:             onServer(false),
			},
			{
				// Renamed again, and this time the apply also changes the
				// permissions: each update's new value names the group by the
				// name the apply gives it, the old by the name it had.
				PreConfig:         func() { renameGroupOutOfBand(t, srv, "release-team", "release-crew") },
				Config:            testAccRenamedGroupConfig(owner, `, "role:moderators"`),
				ConfigPlanChecks:  empty,
				ConfigStateChecks: states("release-team", "role:moderators"),
				Check:             onServer(true),
			},
			{
				// The organization's setting no longer names the group, so that
				// the group can be deactivated when the test destroys it.
				Config:            testAccGroupNamedByConfig(owner, `"role:administrators"`),
				ConfigStateChecks: states("role:administrators"),
				ConfigPlanChecks:  empty,
			},
		},
	})
}

// TestAccPermission_renamedGroupChangedSincePlan: resolving the old value of
// a permission through the apply's own rename keeps Zulip's check of it: a
// permission that someone changed between the plan and the update is refused
// (EXPECTATION_MISMATCH), not overwritten.
func TestAccPermission_renamedGroupChangedSincePlan(t *testing.T) {
	srv := acctest.NewServer(t)
	var armed atomic.Bool
	proxy := srv.FaultyProviderConfig(t, refserver.SeedOwnerID, func(r *http.Request) acctest.Fault {
		if !armed.Load() || r.Method != http.MethodPatch || !strings.Contains(r.URL.Path, "/streams/") {
			return acctest.Fault{}
		}
		armed.Store(false)
		// Someone lets nobody post, just before the provider's update arrives.
		return acctest.Fault{Before: func() {
			srv.Do(func(r *refserver.Realm) {
				for _, c := range r.Channels {
					if c.Name == "releases" {
						c.GroupSettings["can_send_message_group"] = refserver.GroupSetting{GroupID: refserver.GroupNobody}
					}
				}
			})
		}}
	})
	cfg := proxy + `
resource "zulip_user_group" "release" {
  name        = "release-team"
  description = ""
}

resource "zulip_channel" "test" {
  name                   = "releases"
  description            = ""
  can_send_message_group = { groups = [zulip_user_group.release.name] }
}
`
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					renameGroupOutOfBand(t, srv, "release-team", "release-crew")
					armed.Store(true)
				},
				Config:      cfg,
				ExpectError: acctest.ExpectErr("Channel Changed Since the Plan", "EXPECTATION_MISMATCH"),
			},
			{
				// The other change was kept; a new plan sees it, and puts the
				// configured value back.
				PreConfig: func() {
					if ch, _ := acctest.ChannelByName(srv, "releases"); ch.GroupSettings["can_send_message_group"].GroupID != refserver.GroupNobody {
						t.Errorf("overwritten: %+v", ch.GroupSettings["can_send_message_group"])
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("zulip_channel.test", plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("zulip_channel.test", tfjsonpath.New("can_send_message_group"), acctest.PermissionOf([]string{"release-team"})),
				},
			},
		},
	})
}
