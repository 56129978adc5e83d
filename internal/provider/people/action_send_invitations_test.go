package people_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// sendInvitationsConfig is the action with body, triggered once.
func sendInvitationsConfig(body string) string {
	return acctest.TriggeredAction("zulip_send_invitations", body)
}

// emailInvites are the pending e-mail invitations by address.
func emailInvites(srv *acctest.Server) map[string]refserver.Invite {
	out := map[string]refserver.Invite{}
	srv.Do(func(r *refserver.Realm) {
		for _, inv := range r.Invites {
			if !inv.Multiuse && !inv.Revoked {
				out[inv.Email] = *inv
			}
		}
	})
	return out
}

// TestAccSendInvitationsAction_example applies the action's example as an
// administrator: creating the channel invites both addresses to it, for a week.
func TestAccSendInvitationsAction_example(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+acctest.ReadExample(t, "examples/actions/zulip_send_invitations/action.tf")).
			OnServer(func() error {
				platform, ok := acctest.ChannelByName(srv, "platform")
				invites := emailInvites(srv)
				for _, email := range []string{"ada@example.org", "grace@example.org"} {
					inv, found := invites[email]
					if !ok || !found || inv.ReferredBy != refserver.SeedAdminID || inv.InvitedAs != refserver.RoleMember ||
						!slices.Equal(inv.ChannelIDs, []int{platform.ID}) || inv.Expiry == nil || *inv.Expiry-inv.Invited != 7*24*3600 ||
						!inv.NotifyReferrerOnJoin {
						return fmt.Errorf("invitation of %s: %+v (found %v; channel %v)", email, inv, found, ok)
					}
				}
				return nil
			}).Step(),
	))
}

// TestAccSendInvitationsAction_skipped: an address with an account is
// skipped with a warning, the others are invited.
func TestAccSendInvitationsAction_skipped(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	member, _ := srv.User(refserver.SeedMember3ID)
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(admin+sendInvitationsConfig(fmt.Sprintf(`    emails = ["new.one@example.org", %q]
    role = "guest"
    notify_referrer_on_join = false`, member.Email))).OnServer(func() error {
			invites := emailInvites(srv)
			if inv, ok := invites["new.one@example.org"]; !ok || inv.InvitedAs != refserver.RoleGuest || inv.NotifyReferrerOnJoin || inv.Expiry != nil {
				return fmt.Errorf("new.one's invitation: %+v (%v)", inv, ok)
			}
			if _, ok := invites[member.Email]; ok {
				return fmt.Errorf("%s has an account and was invited", member.Email)
			}
			return nil
		}).Step(),
	))
}

// TestAccSendInvitationsAction_refused: an address Zulip refuses fails the
// action, and nobody is invited.
func TestAccSendInvitationsAction_refused(t *testing.T) {
	refused := acctest.NewServer(t)
	refused.Do(func(r *refserver.Realm) { r.Settings.DisallowDisposableEmail = true })
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.Apply(refused.ProviderConfig(t, refserver.SeedAdminID)+sendInvitationsConfig(`    emails = ["a@example.org", "b@mailinator.com"]`)).
			Fails(acctest.ExpectErr("Unable to Send Invitations", "b@mailinator.com", "real email address")).Step(),
	))
	if invites := emailInvites(refused); len(invites) != 2 {
		t.Errorf("invitations after a refused action: %+v, want only the two seeded", invites)
	}
}

func TestAccSendInvitationsAction_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	srv.Do(func(r *refserver.Realm) {
		r.Settings.GroupSettings["can_invite_users_group"] = refserver.GroupSetting{GroupID: refserver.GroupAdministrators}
	})
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 400 })
	emails := `    emails = ["x@example.org"]
`
	acctest.ParallelTest(t, acctest.ActionCase(
		acctest.PlanFails(admin+sendInvitationsConfig(`    emails = []`), "emails", "at least 1"),
		acctest.PlanFails(admin+sendInvitationsConfig(`    emails = ["Someone <x@example.org>"]`), "emails", "not a valid e-mail address"),
		acctest.PlanFails(admin+sendInvitationsConfig(emails+`    role = "boss"`), "role", "value must be one of"),
		acctest.PlanFails(admin+sendInvitationsConfig(emails+`    expires_in_minutes = 0`), "expires_in_minutes", "at least 1"),
		acctest.PlanFails(admin+sendInvitationsConfig(emails+`    channel_ids = [999]`), "Unknown Channel", "999"),
		acctest.PlanFails(admin+sendInvitationsConfig(emails+`    group_ids = [999]`), "Unknown User Group", "999"),
		acctest.PlanFails(admin+sendInvitationsConfig(emails+`    role = "owner"`), "Insufficient Role", "organization owner"),
		acctest.PlanFails(srv.ProviderConfig(t, refserver.SeedMemberID)+sendInvitationsConfig(emails), "Insufficient Permission", "can_invite_users_group"),
		acctest.PlanFails(old.ProviderConfig(t, refserver.SeedAdminID)+sendInvitationsConfig(emails+`    welcome_message_custom_text = ""`),
			"Zulip Server Too Old", "welcome_message_custom_text", "416"),
	))
}
