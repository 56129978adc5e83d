package refserver_test

import (
	"strings"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func init() { confAreas["invites"] = confCasesInvites }

// confCasesInvites are the conformance requests of invitations.
func confCasesInvites(add func(confGroup)) {
	add(confGroup{op: "get-invites", steps: []confStep{
		confOK("an administrator sees all", "get-invites", confAdmin, confGET, "/invites", nil),
		confOK("a member sees their own", "get-invites", confMember, confGET, "/invites", nil),
		confBad("a guest", "get-invites", confGuest, confGET, "/invites", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "send-invites", steps: []confStep{
		confOK("a member invites members", "send-invites", confMember, confPOST, "/invites", confP("invitee_emails", "ann@example.org, Bo <bo@example.org>",
			"stream_ids", "[1]", "invite_expires_in_minutes", "60", "notify_referrer_on_join", "false", "include_realm_default_subscriptions", "true")),
		confOK("an administrator, a moderator never expiring, with a group and a welcome", "send-invites", confAdmin, confPOST, "/invites",
			confP("invitee_emails", "mod@example.org", "stream_ids", "[]", "invite_as", "300", "invite_expires_in_minutes", "null",
				"group_ids", "[9]", "welcome_message_custom_text", "Welcome aboard!")),
		confBad("some already have accounts", "send-invites", confAdmin, confPOST, "/invites", confP("invitee_emails", confEmail("mei")+",carl@example.org",
			"stream_ids", "[]"), 400, "INVITATION_FAILED"),
		confBad("an invalid address", "send-invites", confAdmin, confPOST, "/invites", confP("invitee_emails", "not-an-address", "stream_ids", "[]"), 400, "INVITATION_FAILED"),
		confBad("a member invites a moderator", "send-invites", confMember, confPOST, "/invites", confP("invitee_emails", "x@example.org", "stream_ids", "[]",
			"invite_as", "300"), 400, "BAD_REQUEST"),
		confBad("an administrator invites an owner", "send-invites", confAdmin, confPOST, "/invites", confP("invitee_emails", "x@example.org", "stream_ids", "[]",
			"invite_as", "100"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("no address", "send-invites", confMember, confPOST, "/invites", confP("invitee_emails", "", "stream_ids", "[]"), 400, "BAD_REQUEST"),
		confBad("an unknown channel", "send-invites", confMember, confPOST, "/invites", confP("invitee_emails", "x@example.org", "stream_ids", "[99]"), 400, "BAD_REQUEST"),
		confBad("missing stream_ids", "send-invites", confMember, confPOST, "/invites", confP("invitee_emails", "x@example.org"), 400, "REQUEST_VARIABLE_MISSING"),
		confBad("welcome text too long", "send-invites", confAdmin, confPOST, "/invites", confP("invitee_emails", "x@example.org", "stream_ids", "[]",
			"welcome_message_custom_text", strings.Repeat("w", 8001)), 400, "BAD_REQUEST"),
		confBefore(confBad("not allowed to invite", "send-invites", confMember, confPOST, "/invites", confP("invitee_emails", "x@example.org", "stream_ids", "[]"), 400, "BAD_REQUEST"),
			func(s *refserver.Server) {
				s.Do(func(r *refserver.Realm) {
					r.Settings.GroupSettings["can_invite_users_group"] = refserver.GroupSetting{GroupID: refserver.GroupAdministrators}
				})
			}),
	}})
	add(confGroup{op: "create-invite-link", steps: []confStep{
		confOK("an administrator", "create-invite-link", confAdmin, confPOST, "/invites/multiuse", confP("invite_as", "600", "stream_ids", "[1,7]",
			"invite_expires_in_minutes", "1440", "include_realm_default_subscriptions", "false", "group_ids", "[]", "welcome_message_custom_text", "Hi")),
		confOK("no options", "create-invite-link", confOwner, confPOST, "/invites/multiuse", nil),
		confBad("a member by default", "create-invite-link", confMember, confPOST, "/invites/multiuse", nil, 400, "BAD_REQUEST"),
		confBad("an invalid role", "create-invite-link", confAdmin, confPOST, "/invites/multiuse", confP("invite_as", "500"), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "revoke-email-invite", steps: []confStep{
		confBad("another member's", "revoke-email-invite", confMember2, confDELETE, "/invites/1", nil, 400, "BAD_REQUEST"),
		confOK("one's own", "revoke-email-invite", confMember, confDELETE, "/invites/1", nil),
		confOK("an administrator, another's", "revoke-email-invite", confAdmin2, confDELETE, "/invites/2", nil),
		confBad("unknown", "revoke-email-invite", confAdmin, confDELETE, "/invites/99", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "revoke-invite-link", steps: []confStep{
		confBad("a member", "revoke-invite-link", confMember, confDELETE, "/invites/multiuse/1", nil, 400, "BAD_REQUEST"),
		confOK("an administrator", "revoke-invite-link", confAdmin, confDELETE, "/invites/multiuse/1", nil),
		confBad("revoked already", "revoke-invite-link", confAdmin, confDELETE, "/invites/multiuse/1", nil, 400, "BAD_REQUEST"),
		confBad("unknown", "revoke-invite-link", confAdmin, confDELETE, "/invites/multiuse/99", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "resend-email-invite", steps: []confStep{
		confOK("one's own", "resend-email-invite", confMember, confPOST, "/invites/1/resend", nil),
		confBad("another's, as a member", "resend-email-invite", confMember3, confPOST, "/invites/1/resend", nil, 400, "BAD_REQUEST"),
		confBad("unknown", "resend-email-invite", confAdmin, confPOST, "/invites/99/resend", nil, 400, "BAD_REQUEST"),
	}})
}
