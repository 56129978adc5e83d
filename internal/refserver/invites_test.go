package refserver

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// inviteList is GET /invites as "e:<id>:<email>" and "m:<id>" entries.
func inviteList(e *chatEnv, user int) string {
	e.t.Helper()
	var out []string
	for _, x := range e.chatOK(user, http.MethodGet, "/invites", nil)["invites"].([]any) {
		inv := x.(map[string]any)
		if inv["is_multiuse"] == true {
			out = append(out, "m:"+chatItoa(int(inv["id"].(float64))))
		} else {
			out = append(out, "e:"+chatItoa(int(inv["id"].(float64)))+":"+inv["email"].(string))
		}
	}
	return strings.Join(out, " ")
}

// GET /invites is do_get_invites_controlled_by_user (zerver/actions/invites.py):
// administrators see every valid invitation, others their own; revoked and
// expired ones are left out (filter_to_valid_prereg_users), e-mail
// invitations before links.
func TestInvites_list(t *testing.T) {
	clock := newMsgClock()
	e := chatNew(t, clock.opt())
	if got := inviteList(e, SeedAdminID); got != "e:1:newbie@example.org e:2:new.moderator@example.org m:1" {
		t.Errorf("administrator: %s", got)
	}
	if got := inviteList(e, SeedMemberID); got != "e:1:newbie@example.org" {
		t.Errorf("member: %s", got)
	}
	e.chatOK(SeedMemberID, http.MethodPost, "/invites", chatForm("invitee_emails", "soon@example.org", "stream_ids", "[]", "invite_expires_in_minutes", "10"))
	body := e.chatOK(SeedMemberID, http.MethodGet, "/invites", nil)["invites"].([]any)
	last := body[len(body)-1].(map[string]any)
	if last["expiry_date"].(float64) != float64(clock.get().Unix()+600) || last["invited_as"].(float64) != RoleMember {
		t.Errorf("new invitation: %v", last)
	}
	clock.add(11 * time.Minute)
	if got := inviteList(e, SeedMemberID); got != "e:1:newbie@example.org" {
		t.Errorf("after expiry: %s", got)
	}
	e.chatOK(SeedMemberID, http.MethodDelete, "/invites/1", nil)
	if got := inviteList(e, SeedMemberID); got != "" {
		t.Errorf("after revoking: %q", got)
	}
	// access_invite_by_id does not look at the status: revoking again succeeds.
	e.chatOK(SeedMemberID, http.MethodDelete, "/invites/1", nil)
	e.chatFail(SeedBotID, http.MethodGet, "/invites", nil, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
}

// invite_users_backend (zerver/views/invite.py) and do_invite_users: the
// permission, then the role (owners by owners; administrators and
// moderators by administrators), then the addresses. An invalid address
// stops everything; existing users are skipped, and when others were
// invited the answer is still INVITATION_FAILED with sent_invitations.
func TestInvites_send(t *testing.T) {
	e := chatNew(t)
	send := func(user int, kv ...string) (int, map[string]any) {
		return e.chatDo(user, http.MethodPost, "/invites", chatForm(kv...))
	}
	e.chatFail(SeedMemberID, http.MethodPost, "/invites", chatForm("invitee_emails", "x@example.org", "stream_ids", "[]", "invite_as", "200"),
		400, "BAD_REQUEST", "Must be an organization administrator")
	e.chatFail(SeedAdminID, http.MethodPost, "/invites", chatForm("invitee_emails", "x@example.org", "stream_ids", "[]", "invite_as", "100"),
		400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner")
	e.chatOK(SeedOwnerID, http.MethodPost, "/invites", chatForm("invitee_emails", "boss@example.org", "stream_ids", "[]", "invite_as", "100"))

	_, body := send(SeedAdminID, "invitee_emails", "ok@example.org\nbad address,"+"mei@zulip.example.com", "stream_ids", "[]")
	if body["code"] != "INVITATION_FAILED" || body["msg"] != "Some emails did not validate, so we didn't send any invitations." ||
		chatJSON(body["errors"]) != `[["bad address","Invalid address.",false],["mei@zulip.example.com","Already has an account.",false]]` ||
		body["sent_invitations"] != false {
		t.Fatalf("invalid address: %v", body)
	}
	if got := inviteList(e, SeedAdminID); strings.Contains(got, "ok@example.org") {
		t.Errorf("an invitation was created: %s", got)
	}
	_, body = send(SeedAdminID, "invitee_emails", "dan@zulip.example.com", "stream_ids", "[]")
	if body["msg"] != "We weren't able to invite anyone." || chatJSON(body["errors"]) != `[["dan@zulip.example.com","Account has been deactivated.",true]]` {
		t.Fatalf("all skipped: %v", body)
	}
	_, body = send(SeedAdminID, "invitee_emails", "fresh@example.org, mei@zulip.example.com", "stream_ids", "[1]")
	if body["code"] != "INVITATION_FAILED" || body["sent_invitations"] != true {
		t.Fatalf("partly skipped: %v", body)
	}
	if got := inviteList(e, SeedAdminID); !strings.Contains(got, "fresh@example.org") {
		t.Errorf("the others were not invited: %s", got)
	}
	// Channels: one's access, then adding subscribers (default channels excepted).
	e.chatFail(SeedMember2ID, http.MethodPost, "/invites", chatForm("invitee_emails", "x@example.org", "stream_ids", "[3]"),
		400, "BAD_REQUEST", "Invalid channel ID 3. No invites were sent.")
	e.srv.Do(func(r *Realm) {
		r.Settings.GroupSettings["can_add_subscribers_group"] = GroupSetting{GroupID: GroupAdministrators}
	})
	e.chatFail(SeedMemberID, http.MethodPost, "/invites", chatForm("invitee_emails", "x@example.org", "stream_ids", "[7]"),
		400, "BAD_REQUEST", "You do not have permission to subscribe other users to channels.")
	e.chatOK(SeedMemberID, http.MethodPost, "/invites", chatForm("invitee_emails", "y@example.org", "stream_ids", "[1]"))
	// Restricted domains (get_realm_email_validator).
	e.srv.Do(func(r *Realm) { r.Settings.EmailsRestrictedToDomains = true })
	_, body = send(SeedAdminID, "invitee_emails", "z@elsewhere.example", "stream_ids", "[]")
	if chatJSON(body["errors"]) != `[["z@elsewhere.example","Outside your domain.",false]]` {
		t.Errorf("restricted domains: %v", body)
	}
	// In an open organization, accounts younger than three days may not invite.
	e.srv.Do(func(r *Realm) {
		r.Settings.EmailsRestrictedToDomains = false
		r.SetSetting("invite_required", false)
		r.Users[SeedMember3ID].DateJoined = time.Now().Unix()
	})
	_, body = send(SeedMember3ID, "invitee_emails", "w@example.org", "stream_ids", "[]")
	if body["code"] != "INVITATION_FAILED" || !strings.HasPrefix(body["msg"].(string), "Your account is too new") {
		t.Errorf("new account: %v", body)
	}
}

// Reusable links (generate_multiuse_invite_backend): the organization's
// create_multiuse_invite_group, the role rules, then the link; revoking
// twice is "Invitation has already been revoked"
// (access_multiuse_invite_by_id). Changes send invites_changed to the
// administrators and the creator (notify_invites_changed).
func TestInvites_links(t *testing.T) {
	e := chatNew(t)
	adminEvents := msgEvents(e, SeedAdmin2ID, `["invites_changed"]`)
	memberEvents := msgEvents(e, SeedMember3ID, `["invites_changed"]`)
	e.chatFail(SeedMemberID, http.MethodPost, "/invites/multiuse", nil, 400, "BAD_REQUEST", "Insufficient permission")
	e.srv.Do(func(r *Realm) {
		r.Settings.GroupSettings["create_multiuse_invite_group"] = GroupSetting{GroupID: GroupMembers}
	})
	body := e.chatOK(SeedMember3ID, http.MethodPost, "/invites/multiuse", chatForm("invite_expires_in_minutes", "null"))
	link := body["invite_link"].(string)
	if !strings.HasPrefix(link, e.ts.URL+"/join/") || len(strings.TrimPrefix(link, e.ts.URL+"/join/")) != 25 {
		t.Errorf("link: %s", link)
	}
	if got := inviteList(e, SeedMember3ID); got != "m:2" {
		t.Errorf("the member's links: %s", got)
	}
	invites := e.chatOK(SeedMember3ID, http.MethodGet, "/invites", nil)["invites"].([]any)
	if inv := invites[0].(map[string]any); inv["link_url"] != link || inv["expiry_date"] != nil {
		t.Errorf("listed: %v", inv)
	}
	if got := len(adminEvents()); got != 1 {
		t.Errorf("administrator's events: %d", got)
	}
	if got := len(memberEvents()); got != 1 {
		t.Errorf("creator's events: %d", got)
	}
	e.chatFail(SeedMemberID, http.MethodDelete, "/invites/multiuse/2", nil, 400, "BAD_REQUEST", "Must be an organization administrator")
	e.chatOK(SeedMember3ID, http.MethodDelete, "/invites/multiuse/2", nil)
	e.chatFail(SeedMember3ID, http.MethodDelete, "/invites/multiuse/2", nil, 400, "BAD_REQUEST", "Invitation has already been revoked")
	e.chatFail(SeedAdminID, http.MethodDelete, "/invites/multiuse/7", nil, 400, "BAD_REQUEST", "No such invitation")
	var sent int
	e.chatOK(SeedAdminID, http.MethodPost, "/invites/1/resend", nil)
	e.srv.Do(func(r *Realm) { sent = r.findInvite(false, 1).Sent })
	if !reflect.DeepEqual(sent, 2) {
		t.Errorf("resent %d times", sent)
	}
}
