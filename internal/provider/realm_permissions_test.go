package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestAccRealmPermissions_plan: what the organization's permissions and the
// server's rules for each permission setting forbid fails at plan, naming the
// permission and who holds it; what they allow plans.
func TestAccRealmPermissions_plan(t *testing.T) {
	// Web-public channels enabled on the server and in the organization, so
	// that the member's refusal is the permission's (with them disabled, Zulip
	// says "Web-public channels are not enabled." first).
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.WebPublicStreamsEnabled = true })
	srv.Do(func(r *refserver.Realm) {
		r.SetSetting("enable_spectator_access", true)
		r.Settings.GroupSettings["can_create_groups"] = refserver.GroupSetting{GroupID: refserver.GroupAdministrators}
		r.Settings.GroupSettings["can_create_private_channel_group"] = refserver.GroupSetting{GroupID: refserver.GroupAdministrators}
		r.Settings.GroupSettings["can_add_subscribers_group"] = refserver.GroupSetting{GroupID: refserver.GroupModerators}
	})
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	refused := func(cfg string, want ...string) resource.TestStep {
		return resource.TestStep{Config: cfg, PlanOnly: true, ExpectError: acctest.ExpectErr(want...)}
	}
	allowed := func(cfg string) resource.TestStep {
		return resource.TestStep{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true}
	}
	membership := func(user int) string {
		return fmt.Sprintf("resource \"zulip_user_group_membership\" \"x\" {\n  group_id = %d\n  user_id  = %d\n}\n", refserver.GroupBackend, user)
	}
	subscribers := fmt.Sprintf("resource \"zulip_channel_subscribers\" \"x\" {\n  channel_id  = %d\n  subscribers = [%d, %d]\n}\n",
		refserver.SeedChannelRandom, refserver.SeedMemberID, refserver.SeedMember2ID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			// The organization's permissions.
			refused(member+acctest.UserGroupConfig("x", "", ""), "Insufficient Permission", "Creating a user group",
				"can_create_groups", "role:administrators"),
			allowed(admin + acctest.UserGroupConfig("x", "", "")),
			refused(member+acctest.ChannelConfig("x", "", "  privacy = \"private\"\n"), "Insufficient Permission",
				"can_create_private_channel_group", "role:administrators"),
			allowed(member + acctest.ChannelConfig("x", "", "")),
			refused(member+acctest.ChannelConfig("x", "", "  privacy = \"web_public\"\n"), "Insufficient Permission",
				"can_create_web_public_channel_group", "role:owners"),
			refused(member+subscribers, "Insufficient Permission", "Subscribing other users", "can_add_subscribers_group",
				"role:moderators"),
			allowed(srv.ProviderConfig(t, refserver.SeedModeratorID) + subscribers),
			// The group's own permissions: backend's creator (an administrator) manages it.
			refused(member+membership(refserver.SeedMember2ID), "Insufficient Permission", "Adding members", "backend",
				"can_manage_all_groups", "can_add_members_group"),
			allowed(admin + membership(refserver.SeedMember2ID)),
			// The server's rules for each setting.
			refused(admin+acctest.ChannelConfig("x", "", "  can_administer_channel_group = { groups = [\"role:everyone\"] }\n"),
				"Permission Value Not Allowed", "'can_administer_channel_group' setting cannot be set to 'role:everyone' group."),
			refused(admin+acctest.UserGroupConfig("x", "", "  can_manage_group = { groups = [\"role:internet\"] }\n"),
				"Permission Value Not Allowed", "cannot be set to 'role:internet' group."),
			allowed(admin + acctest.UserGroupConfig("x", "", "  can_manage_group = { groups = [\"role:members\"], users = [2] }\n")),
		},
	})
}
