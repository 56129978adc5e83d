package zulip

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

var _ = methodGroup(methodCasesInvites, "SendInvitations", "CreateInviteLink")

// methodCasesInvites: e-mail invitations and reusable links.
func methodCasesInvites() []methodCase {
	return []methodCase{
		{"ListInvitations", "GET", "/invites", func(ctx context.Context, c *Client) error { return ignore(c.ListInvitations(ctx)) }},
		{"SendInvitations", "POST", "/invites", func(ctx context.Context, c *Client) error {
			return c.SendInvitations(ctx, SendInvitationsRequest{Emails: []string{"a@b.c"}, NotifyReferrerOnJoin: ptr(false)})
		}},
		{"CreateInviteLink", "POST", "/invites/multiuse", func(ctx context.Context, c *Client) error {
			return ignore(c.CreateInviteLink(ctx, InviteOptions{InviteAs: RoleMember, ChannelIDs: []int64{1}, NeverExpires: true}))
		}},
		{"RevokeInvitation", "DELETE", "/invites/1", func(ctx context.Context, c *Client) error { return c.RevokeInvitation(ctx, 1) }},
		{"RevokeInviteLink", "DELETE", "/invites/multiuse/1", func(ctx context.Context, c *Client) error { return c.RevokeInviteLink(ctx, 1) }},
	}
}

// refClient is a client of a fresh reference server acting as the seeded user id.
func refClient(t *testing.T, id int) (*Client, *refserver.Server) {
	t.Helper()
	srv, err := refserver.New(refserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	u, _ := srv.User(id)
	c, err := New(Config{SiteURL: hs.URL, Email: u.Email, APIKey: u.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	return c, srv
}

// TestInviteOptions_encoding: the expiry is Zulip's default when unset, null
// for never, and the optional parameters are sent only when set.
func TestInviteOptions_encoding(t *testing.T) {
	for _, c := range []struct {
		opts InviteOptions
		want url.Values
	}{
		{InviteOptions{}, url.Values{}},
		{InviteOptions{NeverExpires: true}, url.Values{"invite_expires_in_minutes": {"null"}}},
		{InviteOptions{InviteAs: RoleGuest, ExpiresInMinutes: ptr(int64(60)), GroupIDs: []int64{3},
			IncludeRealmDefaultSubscriptions: ptr(true), WelcomeMessageCustomText: ptr("")},
			url.Values{"invite_as": {"600"}, "invite_expires_in_minutes": {"60"}, "group_ids": {"[3]"},
				"include_realm_default_subscriptions": {"true"}, "welcome_message_custom_text": {""}}},
	} {
		got, err := c.opts.params().encode()
		if want := c.want.Encode(); err != nil || got != want {
			t.Errorf("%+v: %q, %v; want %q", c.opts, got, err, want)
		}
	}
}

// TestInviteLink_lifecycle: a link made with options is listed with its role
// and expiry, by the one who made it, and revoking it removes it; a second
// revoke is Zulip's refusal.
func TestInviteLink_lifecycle(t *testing.T) {
	ctx := context.Background()
	c, _ := refClient(t, refserver.SeedAdminID)
	before, err := c.ListInvitations(ctx)
	if err != nil || len(before) != 3 {
		t.Fatalf("seeded invitations = %+v, %v", before, err)
	}
	link, err := c.CreateInviteLink(ctx, InviteOptions{InviteAs: RoleModerator, ChannelIDs: []int64{refserver.SeedChannelRandom},
		GroupIDs: []int64{}, NeverExpires: true, WelcomeMessageCustomText: ptr("Hi")})
	if err != nil || !strings.Contains(link, "/join/") {
		t.Fatalf("CreateInviteLink = %q, %v", link, err)
	}
	var made *Invitation
	after, err := c.ListInvitations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range after {
		if after[i].IsMultiuse && after[i].LinkURL == link {
			made = &after[i]
		}
	}
	if made == nil || made.InvitedAs != RoleModerator || made.ExpiryDate != nil || made.InvitedByUserID != refserver.SeedAdminID {
		t.Fatalf("new link listed as %+v in %+v", made, after)
	}
	if err := c.RevokeInviteLink(ctx, made.ID); err != nil {
		t.Fatal(err)
	}
	var apiErr *APIError
	if err := c.RevokeInviteLink(ctx, made.ID); !errors.As(err, &apiErr) || apiErr.Msg != "Invitation has already been revoked" {
		t.Errorf("second revoke: %v", err)
	}
	if final, _ := c.ListInvitations(ctx); len(final) != len(before) {
		t.Errorf("after revoke %d invitations, want %d", len(final), len(before))
	}
}

// TestInviteLink_expiry: a lifetime in minutes becomes the listed expiry.
func TestInviteLink_expiry(t *testing.T) {
	ctx := context.Background()
	c, _ := refClient(t, refserver.SeedAdminID)
	if _, err := c.CreateInviteLink(ctx, InviteOptions{ExpiresInMinutes: ptr(int64(90))}); err != nil {
		t.Fatal(err)
	}
	list, err := c.ListInvitations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	last := list[len(list)-1]
	if !last.IsMultiuse || last.ExpiryDate == nil || *last.ExpiryDate-last.Invited != 90*60 || last.InvitedAs != RoleMember {
		t.Errorf("link listed as %+v", last)
	}
}

// TestSendInvitations: the invitations are listed by address, and revoking
// one removes it; an address with an account is Zulip's INVITATION_FAILED.
func TestSendInvitations(t *testing.T) {
	ctx := context.Background()
	c, srv := refClient(t, refserver.SeedAdminID)
	err := c.SendInvitations(ctx, SendInvitationsRequest{Emails: []string{"ann@example.org", "bob@example.org"},
		InviteOptions: InviteOptions{InviteAs: RoleGuest, ChannelIDs: []int64{refserver.SeedChannelGeneral}}, NotifyReferrerOnJoin: ptr(false)})
	if err != nil {
		t.Fatal(err)
	}
	list, err := c.ListInvitations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byEmail := map[string]Invitation{}
	for _, inv := range list {
		byEmail[inv.Email] = inv
	}
	ann, ok := byEmail["ann@example.org"]
	if !ok || ann.IsMultiuse || ann.InvitedAs != RoleGuest || ann.NotifyReferrerOnJoin == nil || *ann.NotifyReferrerOnJoin || ann.ExpiryDate == nil {
		t.Fatalf("ann's invitation = %+v (%v)", ann, ok)
	}
	if err := c.RevokeInvitation(ctx, ann.ID); err != nil {
		t.Fatal(err)
	}
	if after, _ := c.ListInvitations(ctx); len(after) != len(list)-1 {
		t.Errorf("after revoke %d invitations, want %d", len(after), len(list)-1)
	}
	owner, _ := srv.User(refserver.SeedOwnerID)
	var apiErr *APIError
	err = c.SendInvitations(ctx, SendInvitationsRequest{Emails: []string{owner.Email}})
	if !errors.As(err, &apiErr) || apiErr.Code != "INVITATION_FAILED" || apiErr.HTTPStatus != http.StatusBadRequest {
		t.Errorf("inviting an account's address: %v", err)
	}
}

// TestListInvitations_member: a member sees only their own invitations.
func TestListInvitations_member(t *testing.T) {
	c, _ := refClient(t, refserver.SeedMemberID)
	list, err := c.ListInvitations(context.Background())
	if err != nil || len(list) != 1 || list[0].Email != "newbie@example.org" || list[0].InvitedByUserID != refserver.SeedMemberID {
		t.Errorf("member's invitations = %+v, %v", list, err)
	}
}
