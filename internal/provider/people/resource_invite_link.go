package people

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*inviteLinkResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*inviteLinkResource)(nil)
)

// inviteAttrLevels are the feature levels of the invitation arguments that
// are sent only when set.
var inviteAttrLevels = map[string]int{
	"group_ids":                           zulip.InviteGroupsFeatureLevel,
	"include_realm_default_subscriptions": zulip.InviteDefaultsFeatureLevel,
	"welcome_message_custom_text":         zulip.InviteWelcomeTextFeatureLevel,
}

// NewInviteLinkResource returns the zulip_invite_link resource.
func NewInviteLinkResource() resource.Resource {
	return &inviteLinkResource{ResourceBase: kit.ResourceBase{Name: "invite_link"}}
}

// inviteLinkResource manages one reusable invitation link.
type inviteLinkResource struct {
	kit.ResourceBase
}

// inviteArgs are the arguments of an invitation, for the link and the
// e-mail invitations alike.
type inviteArgs struct {
	Role               types.String `tfsdk:"role"`
	ChannelIDs         types.Set    `tfsdk:"channel_ids"`
	GroupIDs           types.Set    `tfsdk:"group_ids"`
	ExpiresInMinutes   types.Int64  `tfsdk:"expires_in_minutes"`
	IncludeDefaults    types.Bool   `tfsdk:"include_realm_default_subscriptions"`
	WelcomeMessageText types.String `tfsdk:"welcome_message_custom_text"`
}

// inviteLinkModel is the zulip_invite_link state.
type inviteLinkModel struct {
	inviteArgs
	ID         types.Int64  `tfsdk:"id"`
	Link       types.String `tfsdk:"link"`
	ExpiryDate types.String `tfsdk:"expiry_date"`
}

// inviteLinks is the run's one list of pending invitations (GET /invites),
// which the links' creates and revokes forget.
func inviteLinks(d *kit.ProviderData) *kit.Collection[zulip.Invitation] {
	return &kit.Collection[zulip.Invitation]{Name: "invitations", Cache: d.Cache, Fetch: d.Client.ListInvitations}
}

// Schema describes the resource.
func (r *inviteLinkResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := kit.RequiresReplaceSet()
	resp.Schema = schema.Schema{
		MarkdownDescription: "A reusable invitation link (`POST /invites/multiuse`): anyone holding it can join the " +
			"organization with the role, channels and groups it gives, until it expires or is revoked. Zulip " +
			"cannot read a link's channels and groups back and cannot edit a link, so every change replaces it " +
			"(a new link; the old one is revoked). A link that expired is planned for replacement; one revoked " +
			"outside Terraform is created again. Destroying the resource revokes the link " +
			"(`DELETE /invites/multiuse/{id}`). Who may create links is the organization's " +
			"`create_multiuse_invite_group` (administrators by default); links for administrators and " +
			"moderators need an administrator, links for owners an owner. The resource **cannot be imported**: " +
			"Zulip does not return a link's channels and groups, so an imported link could not be compared with " +
			"its configuration.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableInt64("The link's id (Zulip numbers links apart from e-mail invitations)."),
			"role": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("member"),
				MarkdownDescription: "The role of the users who join with the link: one of " + kit.QuoteAllCode(zulip.RoleNames()) + ". Default `member`.",
				Validators:          []validator.String{stringvalidator.OneOf(zulip.RoleNames()...)},
				PlanModifiers:       kit.RequiresReplaceString()},
			"channel_ids": schema.SetAttribute{ElementType: types.Int64Type, Optional: true,
				MarkdownDescription: "The ids of the channels new users are subscribed to (besides the default channels " +
					"when `include_realm_default_subscriptions` is set). Each must be a default channel or one the " +
					"provider's account may subscribe others to. Default none.",
				PlanModifiers: replace},
			"group_ids": schema.SetAttribute{ElementType: types.Int64Type, Optional: true,
				MarkdownDescription: "The ids of the user groups new users join; the provider's account must be allowed to " +
					"add members to each, and system groups cannot be given. Needs feature level 322.",
				PlanModifiers: replace},
			"expires_in_minutes": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "How long the link works, in minutes from its creation; null (the default): it never expires.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
				PlanModifiers:       kit.RequiresReplaceInt64()},
			"include_realm_default_subscriptions": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Whether new users are also subscribed to the organization's default channels " +
					"(Zulip's default: false). Needs feature level 261.",
				PlanModifiers: kit.RequiresReplaceBool()},
			"welcome_message_custom_text": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The message Welcome Bot sends users who join with the link, in Zulip Markdown, at most " +
					"8000 characters; empty sends none; null: the organization's. Zulip keeps it only from administrators. " +
					"Needs feature level 416.",
				Validators:    []validator.String{stringvalidator.LengthAtMost(zulip.InviteWelcomeTextMaxLength)},
				PlanModifiers: kit.RequiresReplaceString()},
			"link": schema.StringAttribute{Computed: true, Sensitive: true,
				MarkdownDescription: "The link itself. A secret: anyone holding it can join the organization.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"expiry_date": kit.StableString("When the link expires (RFC 3339, UTC); null when it never does."),
		},
	}
}

// ModifyPlan checks a new link (the account may create it, its channels and
// groups exist) and replaces a link that has expired.
func (r *inviteLinkResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !r.Data.CanAsk() || resp.Diagnostics.HasError() {
		return
	}
	var plan inviteLinkModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !req.State.Raw.IsNull() {
		if kit.Unchanged(req) && inviteLinkExpired(plan) {
			plan.ID, plan.Link, plan.ExpiryDate = types.Int64Unknown(), types.StringUnknown(), types.StringUnknown()
			resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root("expiry_date"))
		}
		if kit.Unchanged(req) {
			return
		}
	}
	kit.RequirePermission(ctx, r.Data, "Creating a reusable invitation link", path.Empty(), &resp.Diagnostics,
		kit.RealmPermission(ctx, r.Data, "create_multiuse_invite_group"))
	checkInvitation(ctx, r.Data, plan.inviteArgs, &resp.Diagnostics)
}

// inviteLinkExpired reports a link whose expiry date has passed.
func inviteLinkExpired(m inviteLinkModel) bool {
	if !kit.Known(m.ExpiryDate) {
		return false
	}
	at, err := time.Parse(time.RFC3339, m.ExpiryDate.ValueString())
	return err == nil && !at.After(time.Now())
}

// checkInvitation is the plan-time check of an invitation's role, channels
// and groups, for the link and the e-mail invitations alike.
func checkInvitation(ctx context.Context, d *kit.ProviderData, a inviteArgs, diags *diag.Diagnostics) {
	role, channels, groups := a.Role, a.ChannelIDs, a.GroupIDs
	if kit.Known(role) {
		switch role.ValueString() {
		case "owner":
			d.RequireRole(ctx, kit.RoleOwner, "Inviting an organization owner", path.Root("role"), diags)
		case "administrator", "moderator":
			d.RequireRole(ctx, kit.RoleAdministrator, "Inviting "+role.ValueString()+"s", path.Root("role"), diags)
		}
	}
	if kit.Known(channels) {
		checkInviteChannels(ctx, d, kit.KnownInt64s(channels), diags)
	}
	if kit.Known(groups) {
		checkInviteGroups(ctx, d, kit.KnownInt64s(groups), diags)
	}
}

// checkInviteChannels refuses channels that are unknown or archived, as Zulip
// would ("Invalid channel ID %d. No invites were sent.").
func checkInviteChannels(ctx context.Context, d *kit.ProviderData, ids []int64, diags *diag.Diagnostics) {
	if len(ids) == 0 {
		return
	}
	all, err := kit.ChannelCollection(d).LastSeen(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Channels", "list the channels", kit.RoleAny, err)
		return
	}
	for _, id := range ids {
		i := slices.IndexFunc(all, func(c zulip.Channel) bool { return c.StreamID == id })
		switch {
		case i < 0:
			diags.AddAttributeError(path.Root("channel_ids"), "Unknown Channel",
				fmt.Sprintf("No channel the provider's account can see has the id %d (Zulip: \"Invalid channel ID %d. No invites were sent.\").", id, id))
		case all[i].IsArchived:
			diags.AddAttributeError(path.Root("channel_ids"), "Archived Channel",
				fmt.Sprintf("The channel %q (id %d) is archived; Zulip refuses it in an invitation.", all[i].Name, id))
		default:
			requireInviteInto(ctx, d, all[i], diags)
		}
	}
}

// requireInviteInto refuses, for an account that is not an administrator, a
// channel it may not subscribe others to (get_streams_to_which_user_cannot_add_subscribers
// with allow_default_streams): Zulip lets anyone who may invite put new users
// in the default channels, and otherwise wants the organization's or the
// channel's can_add_subscribers_group, or the channel's
// can_administer_channel_group.
func requireInviteInto(ctx context.Context, d *kit.ProviderData, ch zulip.Channel, diags *diag.Diagnostics) {
	me, err := d.Caller(ctx)
	if err != nil || me.Role <= zulip.RoleAdministrator {
		return
	}
	if state, err := kit.State(ctx, d, zulip.EventTypeDefaultStreams); err == nil {
		if defaults, err := state.DefaultChannelIDs(); err == nil && slices.Contains(defaults, ch.StreamID) {
			return
		}
	}
	kit.RequirePermission(ctx, d, fmt.Sprintf("Inviting users into the channel %q", ch.Name), path.Root("channel_ids"), diags,
		kit.RealmPermission(ctx, d, "can_add_subscribers_group"),
		kit.HeldBy{What: "the channel's can_add_subscribers_group", Kind: kit.PermissionOfChannel, Setting: "can_add_subscribers_group",
			Value: ch.CanAddSubscribersGroup},
		kit.HeldBy{What: "the channel's can_administer_channel_group", Kind: kit.PermissionOfChannel,
			Setting: "can_administer_channel_group", Value: ch.CanAdministerChannelGroup})
}

// checkInviteGroups refuses groups that are unknown, deactivated or system
// groups, which Zulip refuses in an invitation, and groups the provider's
// account may not add members to (access_user_groups_for_invite).
func checkInviteGroups(ctx context.Context, d *kit.ProviderData, ids []int64, diags *diag.Diagnostics) {
	if len(ids) == 0 {
		return
	}
	all, err := kit.UserGroupCollection(d).LastSeen(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read User Groups", "list the user groups", kit.RoleAny, err)
		return
	}
	for _, id := range ids {
		i := slices.IndexFunc(all, func(g zulip.UserGroup) bool { return g.ID == id })
		switch {
		case i < 0:
			diags.AddAttributeError(path.Root("group_ids"), "Unknown User Group",
				fmt.Sprintf("The organization has no user group with the id %d (Zulip: \"Invalid user group\").", id))
		case all[i].Deactivated:
			diags.AddAttributeError(path.Root("group_ids"), "Deactivated User Group",
				fmt.Sprintf("The user group %q (id %d) is deactivated (Zulip: \"User group is deactivated.\").", all[i].Name, id))
		case all[i].IsSystemGroup:
			diags.AddAttributeError(path.Root("group_ids"), "System Group",
				fmt.Sprintf("The group %s (id %d) is a system group, whose members follow their role: Zulip refuses it in an "+
					"invitation (\"Insufficient permission\"). Give the role instead.", all[i].Name, id))
		}
		if i >= 0 && !all[i].Deactivated && !all[i].IsSystemGroup {
			g := all[i]
			kit.RequirePermission(ctx, d, fmt.Sprintf("Inviting users into the user group %q", g.Name), path.Root("group_ids"), diags,
				kit.RealmPermission(ctx, d, "can_manage_all_groups"),
				kit.HeldBy{What: "the group's can_manage_group", Kind: kit.PermissionOfGroup, Setting: "can_manage_group", Value: g.CanManageGroup},
				kit.HeldBy{What: "the group's can_add_members_group", Kind: kit.PermissionOfGroup, Setting: "can_add_members_group", Value: g.CanAddMembersGroup})
		}
	}
}

// options are the options of a planned invitation.
func (a inviteArgs) options() zulip.InviteOptions {
	inviteAs, _ := zulip.RoleFromName(a.Role.ValueString())
	groups, expires := a.GroupIDs, a.ExpiresInMinutes
	o := zulip.InviteOptions{InviteAs: inviteAs, ChannelIDs: kit.KnownInt64s(a.ChannelIDs), NeverExpires: expires.IsNull(),
		IncludeRealmDefaultSubscriptions: a.IncludeDefaults.ValueBoolPointer(), WelcomeMessageCustomText: a.WelcomeMessageText.ValueStringPointer()}
	if o.ChannelIDs == nil {
		o.ChannelIDs = []int64{}
	}
	if kit.Known(groups) {
		o.GroupIDs = kit.KnownInt64s(groups)
	}
	if kit.Known(expires) {
		o.ExpiresInMinutes = expires.ValueInt64Pointer()
	}
	return o
}

// Create makes the link, reads its id back, and after an answer lost adopts
// the one new link that matches instead of leaving a second.
func (r *inviteLinkResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[inviteLinkModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	coll := inviteLinks(r.Data)
	before, err := coll.List(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Create Invitation Link", "list the pending invitations", kit.RoleAny, err)
		return
	}
	opts := plan.options()
	var link string
	err = coll.Write(ctx, func(ctx context.Context) error {
		link, err = r.Data.Client.CreateInviteLink(ctx, opts)
		return err
	})
	if err != nil && kit.NothingDone(err) {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Create Invitation Link", "create the invitation link", kit.RoleAny, err)
		return
	}
	settle, cancel := kit.Settling(ctx)
	defer cancel()
	after, readErr := coll.ReadBack(settle)
	if err != nil {
		r.adopt(settle, plan, opts, before, after, readErr, err, resp)
		return
	}
	plan.Link = types.StringValue(link)
	if i := slices.IndexFunc(after, func(v zulip.Invitation) bool { return v.IsMultiuse && v.LinkURL == link }); readErr == nil && i >= 0 {
		inviteLinkFromAPI(after[i], &plan)
	} else {
		plan.ID, plan.ExpiryDate = types.Int64Null(), types.StringNull()
		resp.Diagnostics.AddWarning("Invitation Link Created but Not Read Back",
			fmt.Sprintf("The link was created, but the provider could not find it in the pending invitations (%v); "+
				"the next refresh completes its id and expiry date.", readErr))
	}
	tflog.Info(ctx, "created invitation link", map[string]any{"id": plan.ID.ValueInt64()})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// adopt settles a create whose answer was lost: the one link made since the
// list before, by the provider's account, with the planned role and expiry,
// is the one the request made.
func (r *inviteLinkResource) adopt(ctx context.Context, plan inviteLinkModel, opts zulip.InviteOptions, before, after []zulip.Invitation,
	readErr, createErr error, resp *resource.CreateResponse) {
	if readErr != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Create Invitation Link", "create the invitation link (the answer was lost, "+
			"and the pending invitations could not be read to find whether it was made: look for a new link in Zulip and revoke it)", kit.RoleAny, createErr)
		return
	}
	me, err := r.Data.Caller(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Create Invitation Link", "create the invitation link", kit.RoleAny, createErr)
		return
	}
	var found []zulip.Invitation
	for _, v := range after {
		if v.IsMultiuse && !slices.ContainsFunc(before, func(b zulip.Invitation) bool { return b.IsMultiuse && b.ID == v.ID }) &&
			v.InvitedByUserID == me.UserID && inviteMatches(v, opts) {
			found = append(found, v)
		}
	}
	if len(found) != 1 {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Create Invitation Link",
			fmt.Sprintf("create the invitation link (the answer was lost, and %d new links match it, so none was adopted)", len(found)), kit.RoleAny, createErr)
		return
	}
	inviteLinkFromAPI(found[0], &plan)
	tflog.Warn(ctx, "the answer of the link's create was lost; adopted the new link that matches", map[string]any{"id": found[0].ID})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// inviteMatches reports whether a listed invitation has the role and expiry
// of the options (the only options GET /invites shows).
func inviteMatches(v zulip.Invitation, o zulip.InviteOptions) bool {
	role := o.InviteAs
	if role == 0 {
		role = zulip.RoleMember
	}
	switch {
	case v.InvitedAs != role:
		return false
	case o.NeverExpires:
		return v.ExpiryDate == nil
	case o.ExpiresInMinutes != nil:
		return v.ExpiryDate != nil && *v.ExpiryDate-v.Invited == *o.ExpiresInMinutes*60
	}
	return true
}

// inviteLinkFromAPI records a listed link in the model.
func inviteLinkFromAPI(v zulip.Invitation, m *inviteLinkModel) {
	m.ID = types.Int64Value(v.ID)
	m.Link = types.StringValue(v.LinkURL)
	m.ExpiryDate = unixDate(v.ExpiryDate)
}

// unixDate is a UNIX time as RFC 3339 in UTC; null for nil.
func unixDate(t *int64) types.String {
	if t == nil {
		return types.StringNull()
	}
	return types.StringValue(time.Unix(*t, 0).UTC().Format(time.RFC3339))
}

// Read finds the link among the pending invitations (by id, or by the link
// after a create that could not read it back). A link no longer listed was
// revoked (removed from state: planned for create) or expired (kept: planned
// for replacement).
func (r *inviteLinkResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := kit.Load[inviteLinkModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	all, err := inviteLinks(r.Data).List(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read Invitation Link", "list the pending invitations", kit.RoleAny, err)
		return
	}
	i := slices.IndexFunc(all, func(v zulip.Invitation) bool {
		return v.IsMultiuse && (kit.Known(state.ID) && v.ID == state.ID.ValueInt64() || !kit.Known(state.ID) && v.LinkURL == state.Link.ValueString())
	})
	switch {
	case i >= 0:
		inviteLinkFromAPI(all[i], &state)
	case inviteLinkExpired(state):
		tflog.Info(ctx, "invitation link expired; it is planned for replacement", map[string]any{"id": state.ID.ValueInt64()})
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
		return
	default:
		tflog.Info(ctx, "invitation link was revoked; removing it from state", map[string]any{"id": state.ID.ValueInt64()})
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update is never called: every argument requires replacement.
func (r *inviteLinkResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	kit.InvocationUpdate(ctx, req, resp)
}

// Delete revokes the link; one already revoked or gone is not an error.
func (r *inviteLinkResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[inviteLinkModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if !kit.Known(state.ID) && !r.findByLink(ctx, &state, &resp.Diagnostics) {
		return
	}
	err := inviteLinks(r.Data).Write(ctx, func(ctx context.Context) error {
		return r.Data.Client.RevokeInviteLink(ctx, state.ID.ValueInt64())
	})
	if err != nil && kit.IsClientError(err) && inviteGone(err) {
		tflog.Info(ctx, "invitation link was already revoked", map[string]any{"id": state.ID.ValueInt64()})
		return
	}
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Revoke Invitation Link", "revoke the invitation link", kit.RoleAny, err)
	}
}

// findByLink fills the id of a link whose create could not read it back,
// from the pending invitations; false when it is no longer listed (nothing
// to revoke) or the list could not be read.
func (r *inviteLinkResource) findByLink(ctx context.Context, m *inviteLinkModel, diags *diag.Diagnostics) bool {
	all, err := inviteLinks(r.Data).List(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Revoke Invitation Link", "list the pending invitations to find the link", kit.RoleAny, err)
		return false
	}
	i := slices.IndexFunc(all, func(v zulip.Invitation) bool { return v.IsMultiuse && v.LinkURL == m.Link.ValueString() })
	if i < 0 {
		return false
	}
	m.ID = types.Int64Value(all[i].ID)
	return true
}

// inviteGone reports Zulip's refusal of a link already revoked or unknown.
func inviteGone(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "No such invitation") || strings.Contains(msg, "already been revoked")
}

// ImportState refuses: a link's channels and groups cannot be read back.
func (r *inviteLinkResource) ImportState(_ context.Context, _ resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.AddError("Import Not Supported",
		"A zulip_invite_link cannot be imported: Zulip does not return a link's channels and groups, so the provider "+
			"could not tell whether the link matches its configuration. Declare the resource to make a new link, and "+
			"revoke the old one in Zulip (Organization settings > Invitations).")
}
