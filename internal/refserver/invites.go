package refserver

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Invitations (POST and GET /invites, POST /invites/multiuse, DELETE
// /invites/{invite_id}, DELETE /invites/multiuse/{invite_id}, POST
// /invites/{invite_id}/resend, the invites_changed event), after newest
// Zulip's zerver/views/invite.py (invite_users_backend,
// generate_multiuse_invite_backend, check_role_based_permissions,
// access_invite_by_id, access_multiuse_invite_by_id,
// access_streams_for_invite, access_user_groups_for_invite) and
// zerver/actions/invites.py (do_invite_users,
// do_get_invites_controlled_by_user, do_revoke_user_invite,
// do_revoke_multi_use_invite). Choices:
//   - no e-mail is sent, and no account is created from an invitation;
//   - the daily invitation limits (check_invite_limit) apply only to servers
//     with OPEN_REALM_CREATION, off by default, so they are not modelled;
//   - INVITATION_LINK_VALIDITY_DAYS and INVITES_MIN_USER_AGE_DAYS have Zulip's
//     defaults, 10 and 3 days;
//   - a reusable link's key is 24 lowercase letters and digits, as Zulip's
//     confirmation keys, derived from the invitation rather than random.

func init() {
	registerArea("invites", area{seed: seedInvites, seedStep: 70, routes: (*Server).routesInvites})
}

// Invite is an e-mail invitation (PreregistrationUser) or a reusable link
// (MultiuseInvite); the two are numbered apart, as in Zulip.
type Invite struct {
	ID         int    `json:"id"`
	Multiuse   bool   `json:"multiuse,omitempty"`
	Email      string `json:"email,omitempty"`
	ReferredBy int    `json:"referred_by"`
	InvitedAs  int    `json:"invited_as"`
	Invited    int64  `json:"invited"`
	// Expiry is the UNIX time it expires; nil: never.
	Expiry               *int64 `json:"expiry,omitempty"`
	NotifyReferrerOnJoin bool   `json:"notify_referrer_on_join,omitempty"`
	ChannelIDs           []int  `json:"channel_ids,omitempty"`
	GroupIDs             []int  `json:"group_ids,omitempty"`
	IncludeDefaults      bool   `json:"include_defaults,omitempty"`
	// WelcomeText is welcome_message_custom_text; nil: the organization's.
	WelcomeText *string `json:"welcome_text,omitempty"`
	Revoked     bool    `json:"revoked,omitempty"`
	Key         string  `json:"key,omitempty"`
	// Sent counts the invitation e-mails "sent" (resends included).
	Sent int `json:"sent,omitempty"`
}

// Feature levels of invitation parameters.
const (
	inviteDefaultsFL       = 261 // include_realm_default_subscriptions
	inviteNotifyFL         = 267 // notify_referrer_on_join
	inviteGroupsFL         = 322 // group_ids
	inviteWelcomeTextFL    = 416 // welcome_message_custom_text
	invitationValidityMins = 10 * 24 * 60
	invitesMinUserAgeDays  = 3
	maxWelcomeTextLength   = 8000
)

// inviteRoles are PreregistrationUser.INVITE_AS's values.
var inviteRoles = map[int]bool{RoleOwner: true, RoleAdministrator: true, RoleModerator: true, RoleMember: true, RoleGuest: true}

// seedInvites gives the organization a pending e-mail invitation of a
// member, one of an administrator, and a reusable link, none expiring.
func seedInvites(r *Realm, base, day int64) {
	r.Invites = []*Invite{
		{ID: 1, Email: "newbie@example.org", ReferredBy: SeedMemberID, InvitedAs: RoleMember, Invited: base + 30*day,
			NotifyReferrerOnJoin: true, ChannelIDs: []int{SeedChannelGeneral}, Sent: 1},
		{ID: 2, Email: "new.moderator@example.org", ReferredBy: SeedAdminID, InvitedAs: RoleModerator, Invited: base + 31*day,
			NotifyReferrerOnJoin: true, Sent: 1},
		{ID: 1, Multiuse: true, ReferredBy: SeedOwnerID, InvitedAs: RoleMember, Invited: base + 32*day,
			ChannelIDs: []int{SeedChannelGeneral, SeedChannelRandom}},
	}
	r.Invites[2].Key = inviteKey(r.Invites[2])
	r.NextID["invite"], r.NextID["multiuse_invite"] = 2, 1
}

// routesInvites registers the endpoints.
func (s *Server) routesInvites() {
	s.handle("GET /invites", authUser, s.getInvites)
	s.handle("POST /invites", authUser, s.withInviteEvents(s.sendInvites))
	s.handle("POST /invites/multiuse", authUser, s.withInviteEvents(s.createInviteLink))
	s.handle("DELETE /invites/{invite_id}", authUser, s.withInviteEvents(s.revokeInvite))
	s.handle("DELETE /invites/multiuse/{invite_id}", authUser, s.withInviteEvents(s.revokeInviteLink))
	s.handle("POST /invites/{invite_id}/resend", authUser, s.resendInvite)
}

// inviteKey is a reusable link's confirmation key.
func inviteKey(inv *Invite) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("refserver-invite-%d-%d", inv.ID, inv.Invited)))
	const digits = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b strings.Builder
	for i := 0; i < 24; i++ {
		b.WriteByte(digits[int(sum[i])%len(digits)])
	}
	return b.String()
}

// requireMemberOrAdminDecorator is zerver/decorator.py require_member_or_admin,
// which the invitation views wear: no guests, no bots.
func (c *call) requireMemberOrAdminDecorator() error {
	if c.user.IsGuest() {
		return errBadRequest("Not allowed for guest users")
	}
	if c.user.IsBot {
		return errBadRequest("This endpoint does not accept bot requests.")
	}
	return nil
}

// valid is filter_to_valid_prereg_users and the multiuse filter of
// do_get_invites_controlled_by_user: not revoked, not expired.
func (inv *Invite) valid(now int64) bool {
	return !inv.Revoked && (inv.Expiry == nil || *inv.Expiry >= now)
}

// wire is the invitation in GET /invites.
func (inv *Invite) wire(base string) obj {
	var expiry any
	if inv.Expiry != nil {
		expiry = *inv.Expiry
	}
	out := obj{"id": inv.ID, "invited_by_user_id": inv.ReferredBy, "invited": inv.Invited, "expiry_date": expiry,
		"invited_as": inv.InvitedAs, "is_multiuse": inv.Multiuse}
	if inv.Multiuse {
		out["link_url"] = base + "/join/" + inv.Key + "/"
	} else {
		out["email"] = inv.Email
		out["notify_referrer_on_join"] = inv.NotifyReferrerOnJoin
	}
	return out
}

// getInvites is get_user_invites: administrators see every valid
// invitation, others their own; e-mail invitations first.
func (s *Server) getInvites(c *call) (obj, error) {
	if err := c.requireMemberOrAdminDecorator(); err != nil {
		return nil, err
	}
	now := s.now().Unix()
	var mails, links []obj
	for _, inv := range c.realm().Invites {
		if !inv.valid(now) || !c.user.IsAdmin() && inv.ReferredBy != c.user.ID {
			continue
		}
		if inv.Multiuse {
			links = append(links, inv.wire(realmURL(c.r)))
		} else {
			mails = append(mails, inv.wire(realmURL(c.r)))
		}
	}
	return obj{"invites": nonNilObjs(append(mails, links...))}, nil
}

// inviteOptions are the parameters both kinds of invitation share.
type inviteOptions struct {
	groupIDs        []int
	includeDefaults bool
	invitedAs       int
	expiresMinutes  *int
	notify          bool
	channelIDs      []int
	welcomeText     *string
}

// inviteParams reads the shared parameters before invitee_emails, in the
// views' (alphabetical) order.
func (c *call) inviteParams() (*inviteOptions, error) {
	fl := c.s.opts.FeatureLevel
	o := &inviteOptions{invitedAs: RoleMember, notify: true}
	if fl >= inviteGroupsFL {
		if _, err := c.optJSON("group_ids", &o.groupIDs); err != nil {
			return nil, err
		}
	}
	if fl >= inviteDefaultsFL {
		var err error
		if o.includeDefaults, err = c.optBool("include_realm_default_subscriptions", false); err != nil {
			return nil, err
		}
	}
	if ok, err := c.optJSON("invite_as", &o.invitedAs); err != nil {
		return nil, err
	} else if ok && !inviteRoles[o.invitedAs] {
		return nil, errBadRequest("Invalid invite_as")
	}
	minutes := invitationValidityMins
	o.expiresMinutes = &minutes
	if ok, err := c.optJSON("invite_expires_in_minutes", &o.expiresMinutes); err != nil {
		return nil, err
	} else if !ok {
		o.expiresMinutes = &minutes
	}
	return o, nil
}

// inviteTail reads the parameters after invitee_emails.
func (c *call) inviteTail(o *inviteOptions, channelsRequired bool) error {
	fl := c.s.opts.FeatureLevel
	if fl >= inviteNotifyFL {
		var err error
		if o.notify, err = c.optBool("notify_referrer_on_join", true); err != nil {
			return err
		}
	}
	if channelsRequired {
		if err := c.reqJSON("stream_ids", &o.channelIDs); err != nil {
			return err
		}
	} else if _, err := c.optJSON("stream_ids", &o.channelIDs); err != nil {
		return err
	}
	if fl >= inviteWelcomeTextFL {
		if text, ok := c.optString("welcome_message_custom_text"); ok {
			if utf8.RuneCountInString(text) > maxWelcomeTextLength {
				return errBadRequest("welcome_message_custom_text is too long (limit: %d characters)", maxWelcomeTextLength)
			}
			o.welcomeText = &text
		}
	}
	return nil
}

// checkInviteRole is check_role_based_permissions: only owners invite
// owners; administrators, moderators and owners need an administrator.
func checkInviteRole(u *User, invitedAs int, requireAdmin bool) error {
	if invitedAs == RoleOwner && !u.IsOwner() {
		return errPrincipal("owner")
	}
	if requireAdmin && !u.IsAdmin() {
		return errBadRequest("Must be an organization administrator")
	}
	return nil
}

// inviteNeedsAdmin is the views' require_admin.
func inviteNeedsAdmin(invitedAs int) bool {
	return invitedAs == RoleOwner || invitedAs == RoleAdministrator || invitedAs == RoleModerator
}

// accessChannelsForInvite is access_streams_for_invite: every channel must
// be one the user can access (active), and the user must be allowed to add
// subscribers to each, default channels excepted
// (get_streams_to_which_user_cannot_add_subscribers, allow_default_streams).
func (s *Server) accessChannelsForInvite(u *User, ids []int) error {
	r := s.realm
	var channels []*Channel
	for _, id := range ids {
		ch := r.Channels[id]
		if ch == nil || ch.IsArchived || !s.canAccessChannelContent(u, ch) {
			return errBadRequest("Invalid channel ID %d. No invites were sent.", id)
		}
		channels = append(channels, ch)
	}
	for _, ch := range channels {
		if u.IsAdmin() || ch.IsDefault || r.hasRealmPermission("can_add_subscribers_group", u) ||
			s.hasChannelPermission(ch, "can_add_subscribers_group", u) || s.hasChannelPermission(ch, "can_administer_channel_group", u) {
			continue
		}
		return errBadRequest("You do not have permission to subscribe other users to channels.")
	}
	return nil
}

// accessGroupsForInvite is access_user_groups_for_invite: each group as
// access_user_group_for_update with can_add_members_group.
func (s *Server) accessGroupsForInvite(u *User, ids []int) error {
	r := s.realm
	for _, id := range ids {
		g := r.Groups[id]
		switch {
		case g == nil:
			return errBadRequest("Invalid user group")
		case g.Deactivated:
			return errBadRequest("User group is deactivated.")
		case g.IsSystemGroup:
			return errInsufficientPermission()
		case r.hasRealmPermission("can_manage_all_groups", u),
			r.userHasPermission(g.setting("can_manage_group"), groupPermissionConfigs["can_manage_group"], u),
			r.userHasPermission(g.setting("can_add_members_group"), groupPermissionConfigs["can_add_members_group"], u):
			continue
		}
		return errInsufficientPermission()
	}
	return nil
}

// inviteeNameRE finds the address of "Name <address>".
var inviteeNameRE = regexp.MustCompile(`<(.*)>`)

// inviteeEmails is get_invitee_emails_set: split on commas and newlines,
// "Name <address>" reduced to the address, stripped, deduplicated.
func inviteeEmails(raw string) []string {
	seen := map[string]bool{}
	var out []string
	for _, part := range regexp.MustCompile(`[,\n]`).Split(raw, -1) {
		if m := inviteeNameRE.FindStringSubmatch(part); m != nil {
			part = m[1]
		}
		part = strings.TrimSpace(part)
		if !seen[part] {
			seen[part] = true
			out = append(out, part)
		}
	}
	sort.Strings(out)
	return out
}

// errInvitation is InvitationError (code INVITATION_FAILED).
func errInvitation(msg string, errs [][3]any, sent bool) *apiError {
	list := make([]any, 0, len(errs))
	for _, e := range errs {
		list = append(list, []any{e[0], e[1], e[2]})
	}
	return errCode(400, "INVITATION_FAILED", msg, obj{"errors": list, "sent_invitations": sent,
		"license_limit_reached": false, "daily_limit_reached": false})
}

// inviteEmailError is validate_email_is_valid with the realm's validator
// (get_realm_email_validator).
func (r *Realm) inviteEmailError(email string) string {
	if !validEmail(email) {
		return "Invalid address."
	}
	at := strings.LastIndexByte(email, '@')
	local, domain := email[:at], strings.ToLower(email[at+1:])
	if r.Settings.EmailsRestrictedToDomains {
		allowed := false
		for _, d := range r.Domains {
			allowed = allowed || domain == d.Domain || d.AllowSubdomains && strings.HasSuffix(domain, "."+d.Domain)
		}
		if !allowed {
			return "Outside your domain."
		}
		if strings.Contains(local, "+") {
			return "Email addresses containing + are not allowed."
		}
		return ""
	}
	if r.Settings.DisallowDisposableEmail && disposableDomains[domain] {
		return "Please use your real email address."
	}
	if r.Settings.DisallowPlusInEmail && strings.Contains(local, "+") {
		return "Email addresses containing + are not allowed."
	}
	return ""
}

// sendInvites is invite_users_backend with do_invite_users.
func (s *Server) sendInvites(c *call) (obj, error) {
	if err := c.requireMemberOrAdminDecorator(); err != nil {
		return nil, err
	}
	o, err := c.inviteParams()
	if err != nil {
		return nil, err
	}
	raw, err := c.reqString("invitee_emails")
	if err != nil {
		return nil, err
	}
	if err := c.inviteTail(o, true); err != nil {
		return nil, err
	}
	emails, err := s.checkInviter(c, o, raw)
	if err != nil {
		return nil, err
	}
	r := c.realm()
	invalid, skipped, good := r.sortInvitees(emails)
	if len(invalid) > 0 {
		return nil, errInvitation("Some emails did not validate, so we didn't send any invitations.", append(invalid, skipped...), false)
	}
	if len(skipped) > 0 && len(skipped) == len(emails) {
		return nil, errInvitation("We weren't able to invite anyone.", skipped, false)
	}
	now := s.now().Unix()
	for _, email := range good {
		inv := &Invite{ID: r.newID("invite"), Email: email, ReferredBy: c.user.ID, InvitedAs: o.invitedAs, Invited: now,
			Expiry: inviteExpiry(now, o.expiresMinutes), NotifyReferrerOnJoin: o.notify, ChannelIDs: o.channelIDs,
			GroupIDs: o.groupIDs, IncludeDefaults: o.includeDefaults, WelcomeText: o.welcomeText, Sent: 1}
		r.Invites = append(r.Invites, inv)
	}
	if len(skipped) > 0 {
		return nil, errInvitation("Some of those addresses are already using Zulip, so we didn't send them an invitation. "+
			"We did send invitations to everyone else!", skipped, true)
	}
	return obj{}, nil
}

// checkInviter runs the checks of POST /invites on the caller in Zulip's
// order (permission to invite, the role invited as, at least one address,
// the channels and groups, the caller's account age) and returns the
// addresses listed in raw.
func (s *Server) checkInviter(c *call, o *inviteOptions, raw string) ([]string, error) {
	r := c.realm()
	if !r.hasRealmPermission("can_invite_users_group", c.user) {
		return nil, errInsufficientPermission()
	}
	if err := checkInviteRole(c.user, o.invitedAs, inviteNeedsAdmin(o.invitedAs)); err != nil {
		return nil, err
	}
	if raw == "" {
		return nil, errBadRequest("You must specify at least one email address.")
	}
	emails := inviteeEmails(raw)
	if err := s.accessChannelsForInvite(c.user, o.channelIDs); err != nil {
		return nil, err
	}
	if err := s.accessGroupsForInvite(c.user, o.groupIDs); err != nil {
		return nil, err
	}
	if required, _ := r.Setting("invite_required").(bool); !required && !c.user.IsAdmin() &&
		c.user.DateJoined > s.now().Unix()-invitesMinUserAgeDays*24*3600 {
		return nil, errInvitation("Your account is too new to send invites for this organization. "+
			"Ask an organization admin, or a more experienced user.", nil, false)
	}
	return emails, nil
}

// sortInvitees sorts invited addresses as do_invite_users does: those that
// do not validate (with why), those skipped because an account has them
// (with whether it is deactivated), and the good ones.
func (r *Realm) sortInvitees(emails []string) (invalid, skipped [][3]any, good []string) {
	for _, email := range emails {
		if msg := r.inviteEmailError(email); msg != "" {
			invalid = append(invalid, [3]any{email, msg, false})
			continue
		}
		if u := r.userByEmail(email); u != nil {
			if u.IsActive {
				skipped = append(skipped, [3]any{email, "Already has an account.", false})
			} else {
				skipped = append(skipped, [3]any{email, "Account has been deactivated.", true})
			}
			continue
		}
		good = append(good, email)
	}
	return invalid, skipped, good
}

// inviteExpiry is create_confirmation_object's expiry: nil for no limit.
func inviteExpiry(now int64, minutes *int) *int64 {
	if minutes == nil {
		return nil
	}
	at := now + int64(*minutes)*60
	return &at
}

// createInviteLink is generate_multiuse_invite_backend.
func (s *Server) createInviteLink(c *call) (obj, error) {
	if err := c.requireMemberOrAdminDecorator(); err != nil {
		return nil, err
	}
	o, err := c.inviteParams()
	if err != nil {
		return nil, err
	}
	if err := c.inviteTail(o, false); err != nil {
		return nil, err
	}
	r := c.realm()
	if !r.hasRealmPermission("create_multiuse_invite_group", c.user) {
		return nil, errInsufficientPermission()
	}
	if err := checkInviteRole(c.user, o.invitedAs, inviteNeedsAdmin(o.invitedAs)); err != nil {
		return nil, err
	}
	if err := s.accessChannelsForInvite(c.user, o.channelIDs); err != nil {
		return nil, err
	}
	if err := s.accessGroupsForInvite(c.user, o.groupIDs); err != nil {
		return nil, err
	}
	now := s.now().Unix()
	inv := &Invite{ID: r.newID("multiuse_invite"), Multiuse: true, ReferredBy: c.user.ID, InvitedAs: o.invitedAs, Invited: now,
		Expiry: inviteExpiry(now, o.expiresMinutes), ChannelIDs: o.channelIDs, GroupIDs: o.groupIDs,
		IncludeDefaults: o.includeDefaults, WelcomeText: o.welcomeText}
	inv.Key = inviteKey(inv)
	r.Invites = append(r.Invites, inv)
	return obj{"invite_link": realmURL(c.r) + "/join/" + inv.Key + "/"}, nil
}

// findInvite finds an invitation by kind and id.
func (r *Realm) findInvite(multiuse bool, id int) *Invite {
	for _, inv := range r.Invites {
		if inv.Multiuse == multiuse && inv.ID == id {
			return inv
		}
	}
	return nil
}

// accessInvite is access_invite_by_id (multiuse false) and
// access_multiuse_invite_by_id: another's invitation needs an
// administrator (an owner's invitation an owner); a revoked link is
// refused, a revoked e-mail invitation is not (Zulip's code does not look).
func (c *call) accessInvite(multiuse bool) (*Invite, error) {
	if err := c.requireMemberOrAdminDecorator(); err != nil {
		return nil, err
	}
	id, err := c.pathInt("invite_id")
	if err != nil {
		return nil, err
	}
	inv := c.realm().findInvite(multiuse, id)
	if inv == nil {
		return nil, errBadRequest("No such invitation")
	}
	if inv.ReferredBy != c.user.ID {
		if err := checkInviteRole(c.user, inv.InvitedAs, true); err != nil {
			return nil, err
		}
	}
	if multiuse && inv.Revoked {
		return nil, errBadRequest("Invitation has already been revoked")
	}
	return inv, nil
}

// revokeInvite is revoke_user_invite.
func (s *Server) revokeInvite(c *call) (obj, error) {
	inv, err := c.accessInvite(false)
	if err != nil {
		return nil, err
	}
	inv.Revoked = true
	return obj{}, nil
}

// revokeInviteLink is revoke_multiuse_invite.
func (s *Server) revokeInviteLink(c *call) (obj, error) {
	inv, err := c.accessInvite(true)
	if err != nil {
		return nil, err
	}
	inv.Revoked = true
	return obj{}, nil
}

// resendInvite is resend_user_invite_email: the e-mail goes again (an
// expired invitation is resent as it is; its link stays expired).
func (s *Server) resendInvite(c *call) (obj, error) {
	inv, err := c.accessInvite(false)
	if err != nil {
		return nil, err
	}
	inv.Sent++
	return obj{}, nil
}

// withInviteEvents sends invites_changed (notify_invites_changed) to the
// administrators and the invitation's creator after a successful change.
func (s *Server) withInviteEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		before := len(c.realm().Invites)
		revoked := map[*Invite]bool{}
		for _, inv := range c.realm().Invites {
			revoked[inv] = inv.Revoked
		}
		payload, err := h(c)
		if err != nil {
			return payload, err
		}
		referrers := map[int]bool{}
		for i, inv := range c.realm().Invites {
			if i >= before || inv.Revoked != revoked[inv] {
				referrers[inv.ReferredBy] = true
			}
		}
		if len(referrers) > 0 {
			s.emit(obj{"type": "invites_changed"}, func(u *User) bool { return u.IsAdmin() || referrers[u.ID] })
		}
		return payload, nil
	}
}
