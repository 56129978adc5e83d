package people_test

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

const inviteLinkAddr = "zulip_invite_link.test"

// inviteLinkConfig is a link with the given arguments' lines.
func inviteLinkConfig(lines ...string) string {
	return "resource \"zulip_invite_link\" \"test\" {\n  " + strings.Join(lines, "\n  ") + "\n}\n"
}

// activeLinks are the links of user that are not revoked.
func activeLinks(srv *acctest.Server, user int) []refserver.Invite {
	var out []refserver.Invite
	srv.Do(func(r *refserver.Realm) {
		for _, inv := range r.Invites {
			if inv.Multiuse && !inv.Revoked && inv.ReferredBy == user {
				out = append(out, *inv)
			}
		}
	})
	return out
}

// oneLink checks that user has exactly one active link and that it passes check.
func oneLink(srv *acctest.Server, user int, check func(refserver.Invite) error) func() error {
	return func() error {
		links := activeLinks(srv, user)
		if len(links) != 1 {
			return fmt.Errorf("%d active links of user %d, want 1: %+v", len(links), user, links)
		}
		return check(links[0])
	}
}

func TestAccInviteLink_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	first := admin + inviteLinkConfig(`channel_ids = [7]`, `expires_in_minutes = 60`, `welcome_message_custom_text = "Hi!"`)
	second := admin + inviteLinkConfig(`role = "moderator"`, `channel_ids = [7]`, `expires_in_minutes = 60`, `welcome_message_custom_text = "Hi!"`)
	var firstID int
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			if links := activeLinks(srv, refserver.SeedAdminID); len(links) != 0 {
				return fmt.Errorf("links left after destroy: %+v", links)
			}
			return nil
		},
		Steps: []resource.TestStep{
			acctest.Apply(first).Clean().State(statecheck.ExpectSensitiveValue(inviteLinkAddr, tfjsonpath.New("link")),
				acctest.Value(inviteLinkAddr, "role", knownvalue.StringExact("member")),
				acctest.Value(inviteLinkAddr, "expiry_date", knownvalue.NotNull()),
				acctest.Value(inviteLinkAddr, "link", knownvalue.StringRegexp(regexp.MustCompile(`/join/[a-z0-9]{24}/$`))),
			).OnServer(oneLink(srv, refserver.SeedAdminID, func(inv refserver.Invite) error {
				firstID = inv.ID
				if inv.InvitedAs != refserver.RoleMember || !slices.Equal(inv.ChannelIDs, []int{7}) || inv.Expiry == nil ||
					*inv.Expiry-inv.Invited != 3600 || inv.WelcomeText == nil || *inv.WelcomeText != "Hi!" {
					return fmt.Errorf("link on the server: %+v", inv)
				}
				return nil
			})).Step(),
			acctest.ImportFails(first, inviteLinkAddr, "1", acctest.ExpectErr("Import Not Supported", "channels and groups")),
			// A new role: a new link, the old one revoked.
			acctest.Apply(second).Planned(inviteLinkAddr, plancheck.ResourceActionDestroyBeforeCreate).Clean().
				OnServer(oneLink(srv, refserver.SeedAdminID, func(inv refserver.Invite) error {
					if inv.ID == firstID || inv.InvitedAs != refserver.RoleModerator {
						return fmt.Errorf("link on the server: %+v (first %d)", inv, firstID)
					}
					return nil
				})).Step(),
			// Revoked in the web app: created again.
			acctest.Apply(second).OutOfBand(srv, func(r *refserver.Realm) {
				for _, inv := range r.Invites {
					inv.Revoked = inv.Revoked || inv.Multiuse && inv.ReferredBy == refserver.SeedAdminID
				}
			}).Planned(inviteLinkAddr, plancheck.ResourceActionCreate).Clean().
				OnServer(oneLink(srv, refserver.SeedAdminID, func(refserver.Invite) error { return nil })).Step(),
		},
	})
}

// TestAccInviteLink_expired: a link past its expiry date, which Zulip no
// longer lists, is planned for replacement (not merely for create). The
// server's clock runs two hours behind while the link is made, so that the
// link has expired by the provider's clock already, and catches up after.
func TestAccInviteLink_expired(t *testing.T) {
	var behind atomic.Int64
	srv := acctest.NewServer(t, func(o *refserver.Options) {
		o.Clock = func() time.Time { return time.Now().Add(-time.Duration(behind.Load())) }
	})
	cfg := srv.ProviderConfig(t, refserver.SeedAdminID) + inviteLinkConfig(`expires_in_minutes = 60`)
	acctest.ParallelTest(t, resource.TestCase{Steps: []resource.TestStep{
		// Still listed by the server, but expired by the provider's clock:
		// the plan after the apply replaces it.
		{PreConfig: func() { behind.Store(int64(2 * time.Hour)) }, Config: cfg, ExpectNonEmptyPlan: true},
		acctest.Apply(cfg).Before(func() { behind.Store(0) }).Planned(inviteLinkAddr, plancheck.ResourceActionDestroyBeforeCreate).Clean().
			OnServer(oneLink(srv, refserver.SeedAdminID, func(inv refserver.Invite) error {
				if inv.Expiry == nil || *inv.Expiry <= time.Now().Unix() {
					return fmt.Errorf("the replacement has expired: %+v", inv)
				}
				return nil
			})).Step(),
	}})
}

// TestAccInviteLink_neverExpires: without expires_in_minutes the link never
// expires, and the organization's default channels and a group an
// administrator may add members to come with it.
func TestAccInviteLink_neverExpires(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	var mentors int
	srv.Do(func(r *refserver.Realm) { mentors = acctest.AddGroup(r, "Mentors", "").ID })
	acctest.ParallelTest(t, resource.TestCase{Steps: []resource.TestStep{
		acctest.Apply(admin + inviteLinkConfig(`role = "guest"`, fmt.Sprintf(`group_ids = [%d]`, mentors), `include_realm_default_subscriptions = true`)).Clean().State(
			acctest.Value(inviteLinkAddr, "expiry_date", knownvalue.Null()),
		).OnServer(oneLink(srv, refserver.SeedAdminID, func(inv refserver.Invite) error {
			if inv.Expiry != nil || inv.InvitedAs != refserver.RoleGuest || !inv.IncludeDefaults || !slices.Equal(inv.GroupIDs, []int{mentors}) {
				return fmt.Errorf("link on the server: %+v", inv)
			}
			return nil
		})).Step(),
	}})
}

func TestAccInviteLink_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	moderator := srv.ProviderConfig(t, refserver.SeedModeratorID)
	var group, managed int
	srv.Do(func(r *refserver.Realm) {
		group = acctest.AddGroup(r, "Interns", "").ID
		r.Groups[group].Deactivated = true
		managed = acctest.AddGroup(r, "Mentors", "").ID
	})
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 400 })
	acctest.ParallelTest(t, resource.TestCase{Steps: []resource.TestStep{
		acctest.PlanFails(admin+inviteLinkConfig(`role = "boss"`), "role", "value must be one of"),
		acctest.PlanFails(admin+inviteLinkConfig(`expires_in_minutes = 0`), "expires_in_minutes", "at least 1"),
		acctest.PlanFails(admin+inviteLinkConfig(`channel_ids = [999]`), "Unknown Channel", "999"),
		acctest.PlanFails(admin+inviteLinkConfig(`channel_ids = [5]`), "Archived Channel", "old-projects"),
		acctest.PlanFails(admin+inviteLinkConfig(`group_ids = [999]`), "Unknown User Group", "999"),
		acctest.PlanFails(admin+inviteLinkConfig(fmt.Sprintf(`group_ids = [%d]`, group)), "Deactivated User Group", "Interns"),
		acctest.PlanFails(admin+inviteLinkConfig(fmt.Sprintf(`group_ids = [%d]`, refserver.GroupModerators)), "System Group"),
		acctest.PlanFails(admin+inviteLinkConfig(`role = "owner"`), "Insufficient Role", "organization owner"),
		acctest.PlanFails(member+inviteLinkConfig(), "Insufficient Permission", "create_multiuse_invite_group"),
		acctest.PlanFails(old.ProviderConfig(t, refserver.SeedAdminID)+inviteLinkConfig(`welcome_message_custom_text = ""`), "welcome_message_custom_text", "416"),
		// Members may create links, but not for moderators.
		acctest.Apply(moderator+inviteLinkConfig(`role = "moderator"`)).OutOfBand(srv, func(r *refserver.Realm) {
			r.Settings.GroupSettings["create_multiuse_invite_group"] = refserver.GroupSetting{GroupID: refserver.GroupMembers}
		}).Fails(acctest.ExpectErr("Insufficient Role", "organization administrator")).Step(),
		// Nor into a group they may not add members to.
		acctest.PlanFails(moderator+inviteLinkConfig(fmt.Sprintf(`group_ids = [%d]`, managed)), "Insufficient Permission", "Mentors", "can_add_members_group"),
		// Nor into a channel they may not subscribe others to; a default
		// channel is always allowed.
		{PreConfig: func() {
			srv.Do(func(r *refserver.Realm) {
				r.Settings.GroupSettings["can_add_subscribers_group"] = refserver.GroupSetting{GroupID: refserver.GroupAdministrators}
			})
		}, Config: moderator + inviteLinkConfig(fmt.Sprintf(`channel_ids = [%d]`, refserver.SeedChannelRandom)), PlanOnly: true,
			ExpectError: acctest.ExpectErr("Insufficient Permission", "random", "can_add_subscribers_group")},
		acctest.Apply(moderator + inviteLinkConfig(fmt.Sprintf(`channel_ids = [%d]`, refserver.SeedChannelGeneral))).Clean().Step(),
	}})
}

// readBackFault fails the first read of the invitations after the link's create.
func readBackFault(seen map[string]int, r *http.Request) acctest.Fault {
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/invites/multiuse"):
		seen["post"]++
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/invites") && seen["post"] == 1 && seen["failed"] == 0:
		seen["failed"]++
		return acctest.Fault{Status: http.StatusInternalServerError}
	}
	return acctest.Fault{}
}

// TestAccInviteLink_readBackFailedThenDestroyed: a link whose id the create
// could not read is found by its URL (by the refresh of the destroy that
// follows at once; Delete looks for it too when that refresh is skipped) and
// revoked.
func TestAccInviteLink_readBackFailedThenDestroyed(t *testing.T) {
	srv := acctest.NewServer(t)
	seen := map[string]int{}
	cfg := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault { return readBackFault(seen, r) }) +
		inviteLinkConfig()
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			if links := activeLinks(srv, refserver.SeedAdminID); len(links) != 0 || seen["failed"] != 1 {
				return fmt.Errorf("links left after destroy: %+v (read-backs failed: %d)", links, seen["failed"])
			}
			return nil
		},
		Steps: []resource.TestStep{
			acctest.Apply(cfg).State(acctest.Value(inviteLinkAddr, "id", knownvalue.Null())).Step(),
			{Config: cfg, Destroy: true},
		},
	})
}

// TestAccInviteLink_lostAnswer: a create whose answer is lost adopts the one
// new link that matches, leaving no second; a create whose read-back fails
// warns, and the next refresh completes the id.
func TestAccInviteLink_lostAnswer(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault func(seen map[string]int, r *http.Request) acctest.Fault
	}{
		{"answer lost", func(seen map[string]int, r *http.Request) acctest.Fault {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/invites/multiuse") && seen["post"] == 0 {
				seen["post"]++
				return acctest.Fault{Status: http.StatusGatewayTimeout, Process: true}
			}
			return acctest.Fault{}
		}},
		{"read-back failed", readBackFault},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := acctest.NewServer(t)
			seen := map[string]int{}
			faulty := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault { return tc.fault(seen, r) })
			cfg := faulty + inviteLinkConfig(`role = "moderator"`, `expires_in_minutes = 120`)
			acctest.ParallelTest(t, resource.TestCase{Steps: []resource.TestStep{
				acctest.Apply(cfg).OnServer(oneLink(srv, refserver.SeedAdminID, func(refserver.Invite) error { return nil })).Step(),
				acctest.Apply(cfg).Plan(plancheck.ExpectEmptyPlan()).State(
					acctest.Value(inviteLinkAddr, "id", knownvalue.NotNull()),
					acctest.Value(inviteLinkAddr, "expiry_date", knownvalue.NotNull()),
				).OnServer(oneLink(srv, refserver.SeedAdminID, func(refserver.Invite) error { return nil })).Step(),
			}})
		})
	}
}
