package zulip

import (
	"context"
	"net/http"
	"strconv"
	"strings"
)

// Feature levels of the invitation parameters.
const (
	// InviteDefaultsFeatureLevel added include_realm_default_subscriptions.
	InviteDefaultsFeatureLevel = 261
	// InviteNotifyFeatureLevel added notify_referrer_on_join.
	InviteNotifyFeatureLevel = 267
	// InviteGroupsFeatureLevel added group_ids.
	InviteGroupsFeatureLevel = 322
	// InviteWelcomeTextFeatureLevel added welcome_message_custom_text.
	InviteWelcomeTextFeatureLevel = 416
	// InviteWelcomeTextMaxLength is the longest welcome_message_custom_text, in
	// Unicode code points.
	InviteWelcomeTextMaxLength = 8000
)

// Invitation is one pending invitation of GET /invites: an e-mail invitation
// or a reusable link (IsMultiuse); the two kinds are numbered apart.
type Invitation struct {
	ID              int64 `json:"id"`
	InvitedByUserID int64 `json:"invited_by_user_id"`
	// Invited is when it was made, in UNIX seconds.
	Invited int64 `json:"invited"`
	// ExpiryDate is when it expires, in UNIX seconds; nil: never.
	ExpiryDate *int64 `json:"expiry_date"`
	// InvitedAs is the role the new user gets (RoleMember, ...).
	InvitedAs  int  `json:"invited_as"`
	IsMultiuse bool `json:"is_multiuse"`
	// Email is the invited address (e-mail invitations only).
	Email string `json:"email,omitempty"`
	// NotifyReferrerOnJoin is sent for e-mail invitations only.
	NotifyReferrerOnJoin *bool `json:"notify_referrer_on_join,omitempty"`
	// LinkURL is the link itself (links only): a bearer secret.
	LinkURL string `json:"link_url,omitempty"`
}

// InviteOptions are the parameters both kinds of invitation share. A nil
// pointer or a zero InviteAs is not sent (Zulip's default applies).
type InviteOptions struct {
	// InviteAs is the role (RoleMember, ...); 0: Zulip's default, member.
	InviteAs int
	// ChannelIDs are the channels the new user is subscribed to.
	ChannelIDs []int64
	// GroupIDs are the user groups the new user joins (feature level 322).
	GroupIDs []int64
	// ExpiresInMinutes is the lifetime; nil with NeverExpires false: Zulip's
	// default (10 days).
	ExpiresInMinutes *int64
	// NeverExpires sends invite_expires_in_minutes as null.
	NeverExpires bool
	// IncludeRealmDefaultSubscriptions adds the default channels (feature level 261).
	IncludeRealmDefaultSubscriptions *bool
	// WelcomeMessageCustomText is Welcome Bot's message (feature level 416;
	// administrators); "" sends none.
	WelcomeMessageCustomText *string
}

// params encodes the options.
func (o InviteOptions) params() *params {
	p := newParams()
	if o.InviteAs != 0 {
		p.json("invite_as", o.InviteAs)
	}
	switch {
	case o.NeverExpires:
		p.json("invite_expires_in_minutes", nil)
	case o.ExpiresInMinutes != nil:
		p.json("invite_expires_in_minutes", *o.ExpiresInMinutes)
	}
	p.optJSONList("group_ids", o.GroupIDs)
	p.optJSONBool("include_realm_default_subscriptions", o.IncludeRealmDefaultSubscriptions)
	p.optStr("welcome_message_custom_text", o.WelcomeMessageCustomText)
	return p
}

// SendInvitationsRequest is the body of SendInvitations.
type SendInvitationsRequest struct {
	InviteOptions
	// Emails are the addresses to invite.
	Emails []string
	// NotifyReferrerOnJoin: a direct message to the sender when one joins
	// (feature level 267; Zulip's default true).
	NotifyReferrerOnJoin *bool
}

// SendInvitations sends e-mail invitations (POST /invites; the
// can_invite_users_group permission). Zulip refuses the whole request when an
// address does not validate, and invites the others when some already have
// an account (an *APIError with code INVITATION_FAILED and sent_invitations
// true). Not idempotent: a repeat sends the e-mails again.
func (c *Client) SendInvitations(ctx context.Context, req SendInvitationsRequest) error {
	p := req.params()
	p.str("invitee_emails", strings.Join(req.Emails, ","))
	p.jsonList("stream_ids", req.ChannelIDs)
	p.optJSONBool("notify_referrer_on_join", req.NotifyReferrerOnJoin)
	return c.do(ctx, request{method: http.MethodPost, path: "invites", params: p, idempotent: false}, nil)
}

// CreateInviteLink makes a reusable invitation link (POST /invites/multiuse;
// the create_multiuse_invite_group permission) and returns it. Its id is not
// in the answer: ListInvitations has it. Not idempotent: a repeat makes a
// second link.
func (c *Client) CreateInviteLink(ctx context.Context, opts InviteOptions) (string, error) {
	p := opts.params()
	p.optJSONList("stream_ids", opts.ChannelIDs)
	var out struct {
		InviteLink string `json:"invite_link"`
	}
	if err := c.do(ctx, request{method: http.MethodPost, path: "invites/multiuse", params: p, idempotent: false}, &out); err != nil {
		return "", err
	}
	return out.InviteLink, nil
}

// ListInvitations lists the pending invitations (GET /invites): an
// administrator's lists every one, anyone else's their own; revoked and
// expired ones are left out. The channels and groups are not listed.
func (c *Client) ListInvitations(ctx context.Context) ([]Invitation, error) {
	var out struct {
		Invites []Invitation `json:"invites"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, path: "invites", idempotent: true}, &out); err != nil {
		return nil, err
	}
	if out.Invites == nil {
		out.Invites = []Invitation{}
	}
	return out.Invites, nil
}

// RevokeInvitation revokes an e-mail invitation (DELETE /invites/{id}).
func (c *Client) RevokeInvitation(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "invites/" + strconv.FormatInt(id, 10), idempotent: true}, nil)
}

// RevokeInviteLink revokes a reusable link (DELETE /invites/multiuse/{id});
// Zulip refuses a link already revoked ("Invitation has already been
// revoked") or unknown ("No such invitation") with a 400.
func (c *Client) RevokeInviteLink(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "invites/multiuse/" + strconv.FormatInt(id, 10), idempotent: true}, nil)
}
