package groups_test

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// seededGroupNames are the active seeded groups, in id order.
var seededGroupNames = []string{
	"role:owners", "role:administrators", "role:moderators", "role:fullmembers", "role:members",
	"role:everyone", "role:internet", "role:nobody", "backend", "frontend", "leads",
}

// memberLookups reads the groups as a member: all of them, with the
// deactivated ones, and one by name.
const memberLookups = `
data "zulip_user_groups" "all" {}

data "zulip_user_groups" "with_deactivated" {
  include_deactivated_groups = true
}

data "zulip_user_groups" "backend" {
  name = "Backend"
}

data "zulip_user_groups" "leads" {
  name = "leads"
}

data "zulip_user_groups" "administrators" {
  name = "role:administrators"
}

data "zulip_user_groups" "retired" {
  name = "retired-team"
}

data "zulip_user_groups" "retired_included" {
  name                       = "retired-team"
  include_deactivated_groups = true
}
`

// seededBackendGroup is the list of one group, every field of the seeded
// backend group.
func seededBackendGroup() knownvalue.Check {
	return knownvalue.ListExact([]knownvalue.Check{
		knownvalue.ObjectExact(map[string]knownvalue.Check{
			"id":                       knownvalue.Int64Exact(refserver.GroupBackend),
			"name":                     knownvalue.StringExact("backend"),
			"description":              knownvalue.StringExact("Backend engineers"),
			"members":                  int64List(refserver.SeedMemberID, refserver.SeedMember3ID),
			"direct_subgroup_ids":      int64List(),
			"is_system_group":          knownvalue.Bool(false),
			"date_created":             knownvalue.Int64Exact(acctest.SeedTime.Add(refserver.GroupBackend * time.Hour).Unix()),
			"creator_id":               knownvalue.Int64Exact(refserver.SeedAdminID),
			"deactivated":              knownvalue.Bool(false),
			"can_add_members_group":    acctest.PermissionOf([]string{"role:administrators"}),
			"can_join_group":           acctest.PermissionOf([]string{"role:nobody"}),
			"can_leave_group":          acctest.PermissionOf([]string{"role:everyone"}),
			"can_manage_group":         acctest.PermissionOf([]string{"role:nobody"}),
			"can_mention_group":        acctest.PermissionOf([]string{"role:everyone"}),
			"can_remove_members_group": acctest.PermissionOf([]string{"role:administrators"}),
		}),
	})
}

func TestAccUserGroups_member(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	config := member + memberLookups
	withRetired := append(append(append([]string{}, seededGroupNames[:10]...), "retired-team"), seededGroupNames[10:]...)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(config).State(
				acctest.ExpectNames("data.zulip_user_groups.all", "user_groups", seededGroupNames...),
				acctest.Value("data.zulip_user_groups.all", "include_deactivated_groups", knownvalue.Bool(false)),
				// The deactivated group appears only when asked for.
				acctest.ExpectNames("data.zulip_user_groups.with_deactivated", "user_groups", withRetired...),
				acctest.ExpectNames("data.zulip_user_groups.retired", "user_groups"),
				acctest.Value("data.zulip_user_groups.retired_included", "user_groups", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"id":          knownvalue.Int64Exact(refserver.GroupRetired),
						"deactivated": knownvalue.Bool(true),
						"creator_id":  knownvalue.Int64Exact(refserver.SeedOwnerID),
						// Its only member is deactivated, and members lists active users only.
						"members": knownvalue.ListSizeExact(0),
					}),
				})),
				acctest.Value("data.zulip_user_groups.backend", "user_groups", seededBackendGroup()),
				// leads: a subgroup, and an anonymous group may manage it.
				statecheck.ExpectKnownValue("data.zulip_user_groups.leads", tfjsonpath.New("user_groups").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"members":             int64List(refserver.SeedOwnerID),
					"direct_subgroup_ids": int64List(refserver.GroupBackend),
					"can_manage_group":    acctest.PermissionOf([]string{"role:administrators"}, refserver.SeedOwnerID),
				})),
				statecheck.ExpectKnownValue("data.zulip_user_groups.administrators", tfjsonpath.New("user_groups").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"id":                  knownvalue.Int64Exact(refserver.GroupAdministrators),
					"is_system_group":     knownvalue.Bool(true),
					"members":             int64List(refserver.SeedAdminID, refserver.SeedAdmin2ID),
					"direct_subgroup_ids": int64List(refserver.GroupOwners),
					"date_created":        knownvalue.Null(),
					"creator_id":          knownvalue.Null(),
				})),
			).Step(),
			// Changed outside Terraform: the next read sees it.
			acctest.Apply(config).OutOfBand(srv, func(r *refserver.Realm) {
				r.Groups[refserver.GroupFrontend].Deactivated = true
				r.Groups[refserver.GroupBackend].Members = []int{refserver.SeedMember3ID}
			}).State(
				acctest.ExpectNames("data.zulip_user_groups.all", "user_groups", append(append([]string{}, seededGroupNames[:9]...), "leads")...),
				statecheck.ExpectKnownValue("data.zulip_user_groups.backend", tfjsonpath.New("user_groups").AtSliceIndex(0).AtMapKey("members"), int64List(refserver.SeedMember3ID)),
			).Step(),
		},
	})
}

// TestAccUserGroups_needsMemberOrAdministrator checks that a guest's
// credentials, and a bot's on a server before feature level 496, give an
// error saying what the data source needs, not an empty list; from feature
// level 496 Zulip lists the groups to bots (require_non_guest_user).
func TestAccUserGroups_needsMemberOrAdministrator(t *testing.T) {
	srv := acctest.NewServer(t)
	before496 := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 495 })
	want := acctest.ExpectErr("may list user groups: Zulip does not list user groups to guests.", "Not allowed for guest users")
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(srv.ProviderConfig(t, refserver.SeedGuestID) + `data "zulip_user_groups" "x" {}`).Fails(want).Step(),
			acctest.Apply(before496.ProviderConfig(t, refserver.SeedBotID) + `data "zulip_user_groups" "x" {}`).
				Fails(acctest.ExpectErr("to guests or (before feature level 496; this server has 495) bots", "does not accept bot requests")).Step(),
			acctest.Apply(srv.ProviderConfig(t, refserver.SeedBotID) + `data "zulip_user_groups" "x" {}`).State(
				acctest.ExpectNames("data.zulip_user_groups.x", "user_groups", seededGroupNames...),
			).Step(),
			// A moderator is a member: allowed.
			acctest.Apply(srv.ProviderConfig(t, refserver.SeedModeratorID) + `data "zulip_user_groups" "x" {}`).State(
				acctest.ExpectNames("data.zulip_user_groups.x", "user_groups", seededGroupNames...),
			).Step(),
		},
	})
}

func TestAccUserGroups_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 290 })
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(member + `data "zulip_user_groups" "x" { include_deactivated_groups = true }`).
				Fails(acctest.ExpectErr("include_deactivated_groups needs Zulip feature level 294 or newer", "has feature level 290")).Step(),
			// Without it, it works; settings newer than the server are null.
			acctest.Apply(member + `data "zulip_user_groups" "x" { name = "backend" }`).State(
				statecheck.ExpectKnownValue("data.zulip_user_groups.x", tfjsonpath.New("user_groups").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"can_mention_group":        acctest.PermissionOf([]string{"role:everyone"}),
					"can_manage_group":         acctest.PermissionOf([]string{"role:nobody"}),
					"can_join_group":           knownvalue.Null(),
					"can_remove_members_group": knownvalue.Null(),
					"date_created":             knownvalue.Null(),
				})),
			).Step(),
		},
	})
}

func TestAccUserGroups_example(t *testing.T) {
	acctest.ReadsExample(t, refserver.SeedMemberID, "examples/data-sources/zulip_user_groups/data-source.tf",
		statecheck.ExpectKnownOutputValue("custom_groups", knownvalue.ListExact([]knownvalue.Check{
			knownvalue.StringExact("backend"), knownvalue.StringExact("frontend"), knownvalue.StringExact("leads"),
		})),
		statecheck.ExpectKnownOutputValue("backend_members", int64List(refserver.SeedMemberID, refserver.SeedMember3ID)),
	)
}

// int64List checks a list of numbers.
func int64List(ids ...int64) knownvalue.Check {
	checks := make([]knownvalue.Check, 0, len(ids))
	for _, id := range ids {
		checks = append(checks, knownvalue.Int64Exact(id))
	}
	return knownvalue.ListExact(checks)
}
