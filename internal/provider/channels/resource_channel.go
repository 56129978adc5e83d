package channels

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*channelResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*channelResource)(nil)
)

// featureChannelCreate is POST /channels/create. Older servers create
// channels only through the subscription endpoint (createBySubscribing).
const featureChannelCreate = 417

// featureChannelCreator is the channels' creator_id.
const featureChannelCreator = 254

// maxChannelNameLength is Zulip's Stream.MAX_NAME_LENGTH.
const maxChannelNameLength = 60

var (
	// noNewline matches a one-line value.
	noNewline = regexp.MustCompile(`^[^\n]*$`)
	// retentionPattern matches message_retention_days' values.
	retentionPattern = regexp.MustCompile(`^(realm_default|unlimited|[1-9][0-9]*)$`)
)

// NewChannelResource returns the zulip_channel resource.
func NewChannelResource() resource.Resource {
	return &channelResource{ObjectResource: kit.ObjectResourceOf(&channels)}
}

// channelResource manages one channel's properties and permissions (not its
// subscribers).
type channelResource struct {
	kit.ObjectResource[channelResourceModel, zulip.Channel]
}

// channelResourceModel is the zulip_channel state.
type channelResourceModel struct {
	channelFields
	Announce types.Bool `tfsdk:"announce"`
	channelPermissions
}

// channelFields are the channel's values that the zulip_channel resource and
// data source both hold.
type channelFields struct {
	ID                         types.Int64  `tfsdk:"id"`
	Name                       types.String `tfsdk:"name"`
	Description                types.String `tfsdk:"description"`
	Privacy                    types.String `tfsdk:"privacy"`
	HistoryPublicToSubscribers types.Bool   `tfsdk:"history_public_to_subscribers"`
	MessageRetentionDays       types.String `tfsdk:"message_retention_days"`
	TopicsPolicy               types.String `tfsdk:"topics_policy"`
	FolderID                   types.Int64  `tfsdk:"folder_id"`
	DateCreated                types.Int64  `tfsdk:"date_created"`
	CreatorID                  types.Int64  `tfsdk:"creator_id"`
}

// Channel privacy values.
const (
	PrivacyPublic    = "public"
	PrivacyPrivate   = "private"
	PrivacyWebPublic = "web_public"
)

// Schema describes the resource.
func (r *channelResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computedInt := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc,
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}}
	}
	attrs := map[string]schema.Attribute{
		"id": computedInt("The channel's id."),
		"name": schema.StringAttribute{
			Required: true,
			MarkdownDescription: fmt.Sprintf("The channel's name, unique in the organization regardless of case "+
				"(archived channels included), at most %d characters. Renaming keeps the channel.", maxChannelNameLength),
			Validators: []validator.String{stringvalidator.LengthBetween(1, maxChannelNameLength),
				validators.String("must not start or end with whitespace (Zulip strips it)", kit.CheckNoOuterSpace)},
		},
		"description": schema.StringAttribute{
			Optional: true, Computed: true, Default: stringdefault.StaticString(""),
			MarkdownDescription: "What the channel is for (Zulip markdown, one line). Default empty.",
			Validators:          []validator.String{stringvalidator.LengthAtMost(1024), stringvalidator.RegexMatches(noNewline, "must be one line (Zulip turns line breaks into spaces)")},
		},
		"privacy": schema.StringAttribute{
			Optional: true, Computed: true, Default: stringdefault.StaticString(PrivacyPublic),
			MarkdownDescription: "`public` (default: every member can find and join it), `private` (invitation " +
				"only) or `web_public` (readable by anyone on the internet, where the organization allows it).",
			Validators: []validator.String{stringvalidator.OneOf(PrivacyPublic, PrivacyPrivate, PrivacyWebPublic)},
		},
		"history_public_to_subscribers": schema.BoolAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Whether new subscribers can read the messages sent before they joined. Public " +
				"and web-public channels always share their history; for a private channel the default is `false`.",
			PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
		},
		"message_retention_days": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "How long messages are kept: `realm_default` (the organization's policy), " +
				"`unlimited`, or a number of days such as `\"365\"`. Changing it needs an organization owner and a " +
				"Zulip plan with message retention.",
			Validators:    []validator.String{stringvalidator.RegexMatches(retentionPattern, "must be realm_default, unlimited or a positive number of days")},
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"topics_policy": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "Whether messages may go to the empty topic: `inherit` (the organization's " +
				"setting), `allow_empty_topic`, `disable_empty_topic` or `empty_topic_only`.",
			Validators:    []validator.String{stringvalidator.OneOf("inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only")},
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"folder_id": schema.Int64Attribute{
			Optional: true, Computed: true,
			MarkdownDescription: "The channel folder the channel is in, e.g. `zulip_channel_folder.teams.id`; `0` for " +
				"none. Left out, the channel stays where it is. Needs Zulip feature level 389 (Zulip 11.0).",
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
		},
		"announce": schema.BoolAttribute{
			Optional: true, Computed: true, Default: booldefault.StaticBool(false),
			MarkdownDescription: "Whether Notification Bot announces the new channel (in the organization's " +
				"new-channel announcements channel) when Terraform creates it. Default `false`: creating is quiet.",
		},
		"date_created": computedInt("When the channel was created (UNIX seconds)."),
		"creator_id":   computedInt("The id of the user who created the channel; null when unknown."),
	}
	channelSettings.Attributes(attrs)
	resp.Schema = schema.Schema{
		MarkdownDescription: "A channel: its name, description, privacy, history, retention and who may do what " +
			"in it. Subscribers are managed separately. Zulip never deletes a channel: destroying this resource " +
			"**archives** it (taking it out of its folder first, since Zulip keeps counting archived channels in " +
			"their folder), and its name stays taken; declaring the name of an archived channel unarchives that " +
			"channel (with a plan warning). Servers before feature level 417 (Zulip 11.0) create channels through " +
			"the subscription endpoint, which leaves the provider's account subscribed (with a plan warning). " +
			"Creating needs the organization's permission to create channels of that kind; changing one needs an administrator or " +
			"`can_administer_channel_group`.",
		Attributes: attrs,
	}
}

// ModifyPlan fills what follows from the configuration, and checks at plan
// time what the apply would fail on.
func (r *channelResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || kit.Unchanged(req) {
		return
	}
	var plan, config channelResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if config.HistoryPublicToSubscribers.IsNull() && kit.Known(plan.Privacy) {
		planHistoryDefault(ctx, req, &plan, &resp.Diagnostics)
	}
	checkHistoryShared(plan, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
	if !r.Data.KnowsServer() || resp.Diagnostics.HasError() {
		return
	}
	r.checkSettings(ctx, plan, &resp.Diagnostics)
	if !config.MessageRetentionDays.IsNull() && r.Data.HasCreds {
		r.checkRetentionRole(ctx, req, plan, &resp.Diagnostics)
	}
	if req.State.Raw.IsNull() && kit.Known(plan.Name) && r.Data.HasCreds && !resp.Diagnostics.HasError() {
		r.checkCreation(ctx, plan, &resp.Diagnostics)
	}
}

// planHistoryDefault plans history_public_to_subscribers when the
// configuration leaves it out: shared for public channels; for a private one,
// what it was when the channel was already private, else Zulip's default for
// a new private channel (not shared).
func planHistoryDefault(ctx context.Context, req resource.ModifyPlanRequest, plan *channelResourceModel, diags *diag.Diagnostics) {
	var prior channelResourceModel
	if !req.State.Raw.IsNull() {
		diags.Append(req.State.Get(ctx, &prior)...)
	}
	switch {
	case plan.Privacy.ValueString() != PrivacyPrivate:
		plan.HistoryPublicToSubscribers = types.BoolValue(true)
	case !req.State.Raw.IsNull() && prior.Privacy.ValueString() == PrivacyPrivate:
		plan.HistoryPublicToSubscribers = prior.HistoryPublicToSubscribers
	default:
		plan.HistoryPublicToSubscribers = types.BoolValue(false)
	}
}

// checkHistoryShared refuses a public or web-public channel that hides its
// history: only a private channel can.
func checkHistoryShared(plan channelResourceModel, diags *diag.Diagnostics) {
	if kit.Known(plan.Privacy) && plan.Privacy.ValueString() != PrivacyPrivate && kit.Known(plan.HistoryPublicToSubscribers) && !plan.HistoryPublicToSubscribers.ValueBool() {
		diags.AddAttributeError(path.Root("history_public_to_subscribers"), "Invalid Channel History",
			"A public or web-public channel shares its history with new subscribers; only a private channel can hide it.")
	}
}

// checkSettings checks each permission setting the plan sets: the server's
// feature level for it, then its value.
func (r *channelResource) checkSettings(ctx context.Context, plan channelResourceModel, diags *diag.Diagnostics) {
	channelSettings.Check(ctx, r.Data, &plan.channelPermissions, diags)
}

// checkRetentionRole requires an owner's credentials to change a configured
// message retention.
func (r *channelResource) checkRetentionRole(ctx context.Context, req resource.ModifyPlanRequest, plan channelResourceModel, diags *diag.Diagnostics) {
	var prior types.String
	if !req.State.Raw.IsNull() {
		diags.Append(req.State.GetAttribute(ctx, path.Root("message_retention_days"), &prior)...)
	}
	if !prior.Equal(plan.MessageRetentionDays) {
		r.Data.RequireRole(ctx, kit.RoleOwner, "Setting a channel's message retention", path.Root("message_retention_days"), diags)
	}
}

// checkCreation checks a channel to create: its name free, then, on a server
// that predates POST /channels/create, a warning that the provider's account
// stays subscribed, and the permission to create a channel of its privacy.
func (r *channelResource) checkCreation(ctx context.Context, plan channelResourceModel, diags *diag.Diagnostics) {
	if !r.checkName(ctx, plan.Name.ValueString(), diags) || !kit.Known(plan.Privacy) {
		return
	}
	if r.Data.FeatureLevel() < featureChannelCreate {
		diags.AddWarning("Channel Created Through the Subscription Endpoint",
			fmt.Sprintf("This server (Zulip %s, feature level %d) predates POST /channels/create (feature level %d), so "+
				"the channel is created by subscribing the provider's account to it, and that account stays subscribed. "+
				"Declare zulip_channel_subscribers to manage who is subscribed.", r.Data.ServerVersion(), r.Data.FeatureLevel(),
				featureChannelCreate))
	}
	r.requireCreation(ctx, plan.Privacy.ValueString(), diags)
}

// requireCreation fails the plan of a new channel that the provider's account
// may not create: the organization's can_create_public_channel_group or
// can_create_private_channel_group, and for a web-public channel also
// can_create_web_public_channel_group.
func (r *channelResource) requireCreation(ctx context.Context, privacy string, diags *diag.Diagnostics) {
	at := path.Root("privacy")
	if privacy == PrivacyPrivate {
		kit.RequirePermission(ctx, r.Data, "Creating a private channel", at, diags, kit.RealmPermission(ctx, r.Data, "can_create_private_channel_group"))
		return
	}
	kit.RequirePermission(ctx, r.Data, "Creating a public channel", at, diags, kit.RealmPermission(ctx, r.Data, "can_create_public_channel_group"))
	if privacy == PrivacyWebPublic {
		kit.RequirePermission(ctx, r.Data, "Creating a web-public channel", at, diags, kit.RealmPermission(ctx, r.Data, "can_create_web_public_channel_group"))
	}
}

// checkName fails the plan of a new channel whose name an active channel
// has (with an import block), and warns when it belongs to an archived one
// or to this configuration's own, which the apply unarchives (Zulip keeps
// archived names). It reports whether the apply creates a new channel.
func (r *channelResource) checkName(ctx context.Context, name string, diags *diag.Diagnostics) bool {
	all, err := kit.ChannelCollection(r.Data).LastSeen(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Channels", "list the channels to check the name", kit.RoleAny, err)
		return false
	}
	for _, c := range all {
		if strings.EqualFold(c.Name, name) {
			channelRetirement.Check(ctx, r.Data, path.Root("name"), c.StreamID, c.Name, c.IsArchived, diags)
			return false
		}
	}
	return true
}

// Create makes the channel, or unarchives the archived channel of that name.
func (r *channelResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[channelResourceModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	dir, err := r.Data.Groups(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Create Channel", "list the user groups", kit.RoleAny, err)
		return
	}
	all, err := kit.ChannelCollection(r.Data).LastSeen(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Create Channel", "list the channels", kit.RoleAny, err)
		return
	}
	for _, c := range all {
		if c.IsArchived && strings.EqualFold(c.Name, plan.Name.ValueString()) {
			r.unarchive(ctx, plan, c, dir, resp)
			return
		}
	}
	apiReq, err := channelCreateRequest(ctx, plan, dir)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Create Channel", err.Error())
		return
	}
	var key string
	if r.Data.FeatureLevel() >= featureChannelCreate {
		key, ok = channelCreation(r.Data, apiReq).Create(ctx, r.Data, &resp.Diagnostics)
	} else {
		key, ok = r.createBySubscribing(ctx, apiReq, all, &resp.Diagnostics)
	}
	if !ok {
		return
	}
	channels.FinishCreate(ctx, r.Data, &plan, key, resp)
}

// createBySubscribing creates a channel the way servers before POST
// /channels/create do: by subscribing the provider's account to a name no
// channel has (POST /users/me/subscriptions creates it, with the channel
// settings of the request). The answer names no channel id, so the channel
// is found by name in the list read afterwards; one that was in the list
// seen before (made by someone else since the plan) is not adopted, since the
// request only subscribed the account to it.
func (r *channelResource) createBySubscribing(ctx context.Context, req zulip.CreateChannelRequest, before []zulip.Channel, diags *diag.Diagnostics) (string, bool) {
	coll := kit.ChannelCollection(r.Data)
	sub := zulip.SubscribeRequest{
		Subscriptions: []zulip.ChannelByName{{Name: req.Name, Description: req.Description}},
		Announce:      req.Announce, InviteOnly: req.InviteOnly, IsWebPublic: req.IsWebPublic,
		HistoryPublicToSubscribers: req.HistoryPublicToSubscribers, MessageRetentionDays: req.MessageRetentionDays,
		TopicsPolicy: req.TopicsPolicy, FolderID: req.FolderID, Permissions: req.Permissions,
	}
	err := coll.Write(ctx, func(ctx context.Context) error {
		_, err := r.Data.Client.Subscribe(ctx, sub)
		return err
	})
	if kit.NothingDone(err) { // a refusal, or never sent: nothing was created
		kit.AddAPIError(diags, "Unable to Create Channel", "create the channel through the subscription endpoint", kit.RoleAny, err)
		return "", false
	}
	// Also after an uncertain failure: the list says whether the channel exists.
	lctx, cancel := kit.Settling(ctx)
	defer cancel()
	after, lerr := coll.ReadBack(lctx)
	if lerr != nil {
		kit.AddAPIError(diags, "Unable to Create Channel", "list the channels to find the channel just created", kit.RoleAny, lerr)
		return "", false
	}
	i := slices.IndexFunc(after, func(c zulip.Channel) bool { return !c.IsArchived && strings.EqualFold(c.Name, req.Name) })
	switch {
	case i < 0 && err != nil:
		kit.AddAPIError(diags, "Unable to Create Channel", "create the channel through the subscription endpoint (no channel "+
			"of that name exists afterwards)", kit.RoleAny, err)
		return "", false
	case i < 0:
		diags.AddError("Unable to Create Channel", fmt.Sprintf("The server accepted the subscription that creates the "+
			"channel %q, but no channel of that name is listed afterwards.", req.Name))
		return "", false
	}
	ch := after[i]
	// Someone else's: listed before, or made by another account (creator_id,
	// FL254; a channel made by this very request has the account as creator).
	me, merr := r.Data.Caller(lctx)
	othersCreator := merr == nil && ch.CreatorID != nil && *ch.CreatorID != me.UserID
	if slices.ContainsFunc(before, func(c zulip.Channel) bool { return c.StreamID == ch.StreamID }) || othersCreator ||
		(r.Data.FeatureLevel() >= featureChannelCreator && ch.CreatorID == nil) {
		diags.AddAttributeError(path.Root("name"), "Channel Already Exists",
			fmt.Sprintf("A channel named %q (id %d) was made by someone else after this plan, so the request only "+
				"subscribed the provider's account to it. To manage it with this resource, import it (with <name> this "+
				"resource's name):\n\n%s\n\nor choose another name.", ch.Name, ch.StreamID, kit.ImportBlock("zulip_channel", ch.Name)))
		return "", false
	}
	if err != nil {
		tflog.Warn(ctx, "the server did not confirm the subscription, but a new channel of the configured name exists; adopting it",
			map[string]any{"id": ch.StreamID, "error": err.Error()})
	}
	return strconv.FormatInt(ch.StreamID, 10), true
}

// channelCreateRequest is the request that creates the planned channel.
func channelCreateRequest(ctx context.Context, plan channelResourceModel, dir kit.GroupDirectory) (zulip.CreateChannelRequest, error) {
	description := plan.Description.ValueString()
	privacy := plan.Privacy.ValueString()
	private, webPublic := privacy == PrivacyPrivate, privacy == PrivacyWebPublic
	req := zulip.CreateChannelRequest{
		Name: plan.Name.ValueString(), Description: &description, Subscribers: []int64{},
		Announce: plan.Announce.ValueBoolPointer(), InviteOnly: &private, IsWebPublic: &webPublic,
		HistoryPublicToSubscribers: plan.HistoryPublicToSubscribers.ValueBoolPointer(),
	}
	if kit.Known(plan.MessageRetentionDays) {
		ret, err := retentionFromString(plan.MessageRetentionDays.ValueString())
		if err != nil {
			return req, err
		}
		req.MessageRetentionDays = &ret
	}
	if kit.Known(plan.TopicsPolicy) {
		req.TopicsPolicy = plan.TopicsPolicy.ValueStringPointer()
	}
	if kit.Known(plan.FolderID) && plan.FolderID.ValueInt64() > 0 {
		req.FolderID = plan.FolderID.ValueInt64Pointer()
	}
	if err := channelSettings.Values(ctx, &plan.channelPermissions, dir, &req.Permissions); err != nil {
		return req, err
	}
	return req, nil
}

// unarchive takes over the archived channel c: unarchives it and applies the
// configuration, in one request.
func (r *channelResource) unarchive(ctx context.Context, plan channelResourceModel, c zulip.Channel, dir kit.GroupDirectory, resp *resource.CreateResponse) {
	var prior channelResourceModel
	channelFromAPI2(kit.ReadAll(ctx), r.Data, c, &prior, &resp.Diagnostics)
	update, err := channelUpdateRequest(ctx, plan, prior, dir)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Unarchive Channel", err.Error())
		return
	}
	update.Unarchive = true
	channels.Revive(ctx, r.Data, channelRetirement, &plan, c.StreamID, c.Name, kit.RoleAdministrator, func(ctx context.Context) error {
		return kit.ChannelCollection(r.Data).Write(ctx, func(ctx context.Context) error {
			return r.Data.Client.UpdateChannel(ctx, c.StreamID, update)
		})
	}, resp)
}

// channelUpdateRequest is the request that takes a channel from prior to plan.
func channelUpdateRequest(ctx context.Context, plan, prior channelResourceModel, dir kit.GroupDirectory) (zulip.UpdateChannelRequest, error) {
	var req zulip.UpdateChannelRequest
	if !plan.Name.Equal(prior.Name) {
		req.NewName = plan.Name.ValueStringPointer()
	}
	if kit.Known(plan.Description) && !plan.Description.Equal(prior.Description) {
		req.Description = plan.Description.ValueStringPointer()
	}
	if kit.Known(plan.Privacy) && !plan.Privacy.Equal(prior.Privacy) {
		private, webPublic := plan.Privacy.ValueString() == PrivacyPrivate, plan.Privacy.ValueString() == PrivacyWebPublic
		req.IsPrivate, req.IsWebPublic = &private, &webPublic
	}
	if kit.Known(plan.HistoryPublicToSubscribers) && (!plan.HistoryPublicToSubscribers.Equal(prior.HistoryPublicToSubscribers) || req.IsPrivate != nil) {
		req.HistoryPublicToSubscribers = plan.HistoryPublicToSubscribers.ValueBoolPointer()
	}
	if kit.Known(plan.MessageRetentionDays) && !plan.MessageRetentionDays.Equal(prior.MessageRetentionDays) {
		ret, err := retentionFromString(plan.MessageRetentionDays.ValueString())
		if err != nil {
			return req, err
		}
		req.MessageRetentionDays = &ret
	}
	if kit.Known(plan.TopicsPolicy) && !plan.TopicsPolicy.Equal(prior.TopicsPolicy) {
		req.TopicsPolicy = plan.TopicsPolicy.ValueStringPointer()
	}
	if kit.Known(plan.FolderID) && !plan.FolderID.Equal(prior.FolderID) {
		if plan.FolderID.ValueInt64() > 0 {
			req.FolderID = plan.FolderID.ValueInt64Pointer()
		} else {
			req.ClearFolder = true
		}
	}
	if err := channelSettings.Changes(ctx, &plan.channelPermissions, &prior.channelPermissions, dir, &req.Permissions); err != nil {
		return req, err
	}
	return req, nil
}

// Update changes the channel in place.
func (r *channelResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	kit.UpdateWithPermissions(ctx, channels, r.Data, req, resp, func(m *channelResourceModel) string { return m.Name.ValueString() },
		channelUpdateRequest, func(ctx context.Context, state channelResourceModel, update zulip.UpdateChannelRequest) error {
			return r.Data.Client.UpdateChannel(ctx, state.ID.ValueInt64(), update)
		})
}

// Delete archives the channel: Zulip has no way to delete one.
func (r *channelResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var folder types.Int64
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("folder_id"), &folder)...)
	channels.Delete(ctx, r.Data, req, resp, func(ctx context.Context, id string) error {
		n, _ := strconv.ParseInt(id, 10, 64)
		// Zulip counts archived channels as in their folder, so a folder could
		// never be archived after its channels: take the channel out first.
		if folder.ValueInt64() > 0 {
			if err := r.Data.Client.UpdateChannel(ctx, n, zulip.UpdateChannelRequest{ClearFolder: true}); err != nil {
				return err
			}
		}
		err := r.Data.Client.ArchiveChannel(ctx, n)
		if err == nil {
			tflog.Info(ctx, "archived the channel (Zulip keeps archived channels and their names)", map[string]any{"id": n})
		}
		return err
	})
}

// channels is the kit's skeleton for zulip_channel: an archived channel is
// not the resource's object.
var channels = kit.Objects[channelResourceModel, zulip.Channel]{
	TypeName: "zulip_channel", What: "channel", Role: kit.RoleAdministrator,
	Coll: func(d *kit.ProviderData) *kit.Collection[zulip.Channel] {
		c := kit.ChannelCollection(d)
		c.Filter = func(ch zulip.Channel) bool { return !ch.IsArchived }
		return c
	},
	IDOf: func(c zulip.Channel) int64 { return c.StreamID },
	ID:   func(m *channelResourceModel) *types.Int64 { return &m.ID },
	Archived: func(c zulip.Channel) zulip.Channel {
		c.IsArchived, c.FolderID = true, nil // Delete takes it out of its folder first
		return c
	},
	FromAPI: channelFromAPI2,
	ImportHint: "A channel is imported by its name or its numeric id (GET /api/v1/streams lists them). Archived " +
		"channels are unarchived by declaring them, not imported.",
	Lookup: kit.ByNameOrID("zulip_channel", func(c zulip.Channel) int64 { return c.StreamID },
		func(c zulip.Channel) string { return c.Name }, true),
}

// channelRetirement words what a create does with the channel that holds
// its name: Zulip archives channels and keeps their names.
var channelRetirement = kit.Retirement{TypeName: "zulip_channel", What: "channel", Retired: "archived", Revived: "unarchived",
	Keeps: ", with its subscribers and history,"}

// channelCreation is the create of a channel; its natural key is its name.
func channelCreation(d *kit.ProviderData, req zulip.CreateChannelRequest) kit.Creation[channelResourceModel, zulip.Channel] {
	return kit.Creation[channelResourceModel, zulip.Channel]{
		Objects: channels,
		Send: func(ctx context.Context) (string, error) {
			id, err := d.Client.CreateChannel(ctx, req)
			return strconv.FormatInt(id, 10), err
		},
		SameKey: func(c zulip.Channel) bool { return strings.EqualFold(c.Name, req.Name) },
		Matches: func(c zulip.Channel) bool {
			return c.Name == req.Name && c.Description == *req.Description && c.InviteOnly == *req.InviteOnly
		},
	}
}

// channelFromAPI2 copies a channel into the resource model (channelFromAPI
// is the data source's).
func channelFromAPI2(ctx context.Context, d *kit.ProviderData, c zulip.Channel, m *channelResourceModel, diags *diag.Diagnostics) {
	m.ID = types.Int64Value(c.StreamID)
	m.Name = types.StringValue(c.Name)
	m.Description = types.StringValue(c.Description)
	switch {
	case c.IsWebPublic:
		m.Privacy = types.StringValue(PrivacyWebPublic)
	case c.InviteOnly:
		m.Privacy = types.StringValue(PrivacyPrivate)
	default:
		m.Privacy = types.StringValue(PrivacyPublic)
	}
	m.HistoryPublicToSubscribers = types.BoolValue(c.HistoryPublicToSubscribers)
	m.MessageRetentionDays = types.StringValue(c.Retention().String())
	m.TopicsPolicy = types.StringValue(c.TopicsPolicy)
	if c.TopicsPolicy == "" {
		m.TopicsPolicy = types.StringNull()
	}
	if m.Announce.IsNull() || m.Announce.IsUnknown() {
		m.Announce = types.BoolValue(false)
	}
	m.DateCreated = types.Int64Value(c.DateCreated)
	m.CreatorID = types.Int64PointerValue(c.CreatorID)
	m.FolderID = types.Int64Value(0)
	if c.FolderID != nil {
		m.FolderID = types.Int64Value(*c.FolderID)
	}
	dir, err := d.Groups(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read User Groups", "list the user groups to name the groups in permissions", kit.RoleAny, err)
		return
	}
	channelSettings.Read(ctx, &m.channelPermissions, &c, dir)
}

// retentionFromString is the retention the resource's value names.
func retentionFromString(s string) (zulip.MessageRetention, error) {
	switch s {
	case "realm_default":
		return zulip.RetentionRealmDefault, nil
	case "unlimited":
		return zulip.RetentionUnlimited, nil
	}
	days, err := strconv.ParseInt(s, 10, 64)
	if err != nil || days <= 0 {
		return zulip.MessageRetention{}, fmt.Errorf("message_retention_days %q is not realm_default, unlimited or a positive number of days", s)
	}
	return zulip.RetentionDays(days), nil
}
