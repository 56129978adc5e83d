package channels

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*channelSubscribersResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*channelSubscribersResource)(nil)
	_ resource.ResourceWithImportState = (*channelSubscriptionResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*channelSubscriptionResource)(nil)
)

// featureQuietSubscriptions: send_new_subscription_messages (FL397). Before
// it, Notification Bot sent every new subscriber a direct message.
const featureQuietSubscriptions = 397

// cacheSubscribers is the cache key of every visible channel's subscribers.
const cacheSubscribers = "channel subscribers"

// subscribers returns the subscribers of every channel the account can see,
// read once per run (one register request for all channels).
func subscribers(ctx context.Context, d *kit.ProviderData) (map[int64][]int64, error) {
	return kit.CachedAs(ctx, d.Cache, cacheSubscribers, d.Client.ListAllSubscribers)
}

// subscribersAfterWrite is subscribers for a write that has just ended.
func subscribersAfterWrite(ctx context.Context, d *kit.ProviderData) (map[int64][]int64, error) {
	v, err := d.Cache.ReadBack(ctx, cacheSubscribers, func(ctx context.Context) (any, error) { return d.Client.ListAllSubscribers(ctx) })
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[int64][]int64)
	if !ok {
		return nil, fmt.Errorf("internal error: the cache holds a %T under %q", v, cacheSubscribers)
	}
	return m, nil
}

// activeChannel finds a channel by id for a subscription change, by its
// current name: Zulip's subscription endpoints address channels by name and
// create missing ones, so a channel that is gone or archived is an error,
// never a name to subscribe to.
func activeChannel(ctx context.Context, d *kit.ProviderData, id int64, diags *diag.Diagnostics, summary string) (zulip.Channel, bool) {
	list, err := kit.ChannelCollection(d).ReadBack(ctx)
	if err != nil {
		kit.AddAPIError(diags, summary, "list the channels", kit.RoleAny, err)
		return zulip.Channel{}, false
	}
	i := slices.IndexFunc(list, func(c zulip.Channel) bool { return c.StreamID == id })
	switch {
	case i < 0:
		diags.AddAttributeError(path.Root("channel_id"), summary,
			fmt.Sprintf("The organization has no channel with id %d that the provider's account can see. Subscribing "+
				"by name would create a new channel, so the provider does not.", id))
	case list[i].IsArchived:
		diags.AddAttributeError(path.Root("channel_id"), summary,
			fmt.Sprintf("Channel %q (id %d) is archived: unarchive it first (declare it with zulip_channel).", list[i].Name, id))
	default:
		return list[i], true
	}
	return zulip.Channel{}, false
}

// changeSubscribers subscribes add to and unsubscribes remove from channel
// ch, quietly where the server allows, and records the change in the cached
// subscribers.
func changeSubscribers(ctx context.Context, d *kit.ProviderData, ch zulip.Channel, add, remove []int64, notify bool) error {
	w := d.Cache.BeginWrite(cacheSubscribers)
	defer w.End()
	if len(add) > 0 {
		req := zulip.SubscribeRequest{Subscriptions: []zulip.ChannelByName{{Name: ch.Name}}, Principals: add}
		if d.FeatureLevel() >= featureQuietSubscriptions {
			req.SendNewSubscriptionMessages = &notify
		}
		res, err := d.Client.Subscribe(ctx, req)
		if err != nil {
			return err
		}
		if len(res.Unauthorized) > 0 {
			return fmt.Errorf("the server refused to subscribe users to %s", strings.Join(res.Unauthorized, ", "))
		}
	}
	if len(remove) > 0 {
		if _, err := d.Client.Unsubscribe(ctx, zulip.UnsubscribeRequest{Subscriptions: []string{ch.Name}, Principals: remove}); err != nil {
			return err
		}
	}
	w.EndKnown(func(old any) (any, bool) {
		m, ok := old.(map[int64][]int64)
		if !ok {
			return nil, false
		}
		m = maps.Clone(m)
		m[ch.StreamID] = kit.SortedUnion(kit.MissingFrom(m[ch.StreamID], remove), add)
		return m, true
	})
	return nil
}

// NewChannelSubscribersResource returns the zulip_channel_subscribers resource.
func NewChannelSubscribersResource() resource.Resource {
	return &channelSubscribersResource{ResourceBase: kit.ResourceBase{Name: "channel_subscribers"}}
}

// channelSubscribersResource manages all the subscribers of one channel.
type channelSubscribersResource struct {
	kit.ResourceBase
}

// channelSubscribersModel is the zulip_channel_subscribers state.
type channelSubscribersModel struct {
	ID          types.String `tfsdk:"id"`
	ChannelID   types.Int64  `tfsdk:"channel_id"`
	Subscribers types.Set    `tfsdk:"subscribers"`
	Notify      types.Bool   `tfsdk:"notify"`
}

// Schema describes the resource.
func (r *channelSubscribersResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "All the subscribers of a channel (**authoritative**: users not listed are " +
			"unsubscribed). For one user without touching the others, use `zulip_channel_subscription`; do not use " +
			"both for one channel. The channel is addressed by id: Zulip's subscription endpoints take names and " +
			"create a channel whose name is missing, so the provider reads the current name first and refuses a " +
			"channel that is gone or archived. Destroying the resource unsubscribes the users it manages. " +
			"Subscribing others needs the channel's or the organization's `can_add_subscribers_group`; " +
			"unsubscribing them, an administrator or `can_remove_subscribers_group`.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableString("The channel's id, as a string."),
			"channel_id": schema.Int64Attribute{
				Required: true, MarkdownDescription: "The channel's id, e.g. `zulip_channel.ops.id`. Changing it replaces the resource.",
				PlanModifiers: kit.RequiresReplaceInt64(),
			},
			"subscribers": schema.SetAttribute{
				ElementType: types.Int64Type, Required: true,
				MarkdownDescription: "The ids of the channel's subscribers, exactly (active users).",
			},
			"notify": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Whether Notification Bot tells each new subscriber, in a direct message. " +
					"Default `false` (Zulip feature level 397 or newer; older servers always send it).",
			},
		},
	}
}

// ModifyPlan checks the users and notes the channel (see noteSubscription).
func (r *channelSubscribersResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, ok := kit.Planned[channelSubscribersModel](ctx, req, &resp.Diagnostics)
	if !ok || !r.Data.KnowsServer() {
		return
	}
	if kit.Known(plan.ChannelID) {
		noteSubscription(r.Data, plan.ChannelID.ValueInt64(), true, &resp.Diagnostics)
	}
	if kit.Known(plan.Subscribers) && r.Data.HasCreds {
		users := kit.KnownInt64s(plan.Subscribers)
		kit.CheckGroupsAndUsers(ctx, r.Data, path.Root("channel_id"), path.Root("subscribers"), nil, users, &resp.Diagnostics)
		if kit.Known(plan.ChannelID) && !resp.Diagnostics.HasError() {
			var prior []int64
			if !req.State.Raw.IsNull() {
				var state channelSubscribersModel
				resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
				prior = kit.KnownInt64s(state.Subscribers)
			}
			add, remove := kit.MissingFrom(users, prior), kit.MissingFrom(prior, users)
			kit.RequireSubscriberChange(ctx, r.Data, plan.ChannelID.ValueInt64(), add, remove, path.Root("subscribers"), &resp.Diagnostics)
		}
	}
}

// Create sets the subscribers.
func (r *channelSubscribersResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.put(ctx, req.Plan, &resp.State, "Unable to Set Channel Subscribers", &resp.Diagnostics)
}

// Update sets the subscribers.
func (r *channelSubscribersResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.put(ctx, req.Plan, &resp.State, "Unable to Update Channel Subscribers", &resp.Diagnostics)
}

// put makes the subscribers those planned, with one subscribe and one
// unsubscribe request for the difference from a fresh read.
func (r *channelSubscribersResource) put(ctx context.Context, p tfsdk.Plan, state *tfsdk.State, summary string, diags *diag.Diagnostics) {
	plan, ok := kit.Load[channelSubscribersModel](ctx, r.Data, p, diags)
	if !ok {
		return
	}
	ch, ok := activeChannel(ctx, r.Data, plan.ChannelID.ValueInt64(), diags, summary)
	if !ok {
		return
	}
	current, err := subscribersAfterWrite(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(diags, summary, "list the channels' subscribers through POST /register", kit.RoleAny, err)
		return
	}
	var want []int64
	diags.Append(plan.Subscribers.ElementsAs(ctx, &want, false)...)
	have := current[ch.StreamID]
	if err := changeSubscribers(ctx, r.Data, ch, kit.MissingFrom(want, have), kit.MissingFrom(have, want), plan.Notify.ValueBool()); err != nil {
		kit.AddAPIError(diags, summary, fmt.Sprintf("change the subscribers of channel %q", ch.Name), kit.RoleAny, err)
		return
	}
	plan.ID = types.StringValue(strconv.FormatInt(ch.StreamID, 10))
	diags.Append(state.Set(ctx, &plan)...)
}

// Read refreshes the subscribers; a channel that is gone or archived removes
// the resource from state.
func (r *channelSubscribersResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	kit.Refresh(ctx, r.Data, req, resp, "the channel is gone or archived",
		func(ctx context.Context, state *channelSubscribersModel, diags *diag.Diagnostics) bool {
			subs, ok := readSubscribers(ctx, r.Data, state.ChannelID.ValueInt64(), diags)
			state.Subscribers = kit.Int64Set(subs)
			return ok
		})
}

// readSubscribers is a channel's subscribers from the run's one read, and
// whether the channel is there and active.
func readSubscribers(ctx context.Context, d *kit.ProviderData, id int64, diags *diag.Diagnostics) ([]int64, bool) {
	channels, err := kit.ChannelCollection(d).List(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Channel Subscribers", "list the channels", kit.RoleAny, err)
		return nil, false
	}
	i := slices.IndexFunc(channels, func(c zulip.Channel) bool { return c.StreamID == id })
	if i < 0 || channels[i].IsArchived {
		return nil, false
	}
	all, err := subscribers(ctx, d)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Channel Subscribers", "list the channels' subscribers through POST /register", kit.RoleAny, err)
		return nil, false
	}
	return all[id], true
}

// Delete unsubscribes the users the resource manages.
func (r *channelSubscribersResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[channelSubscribersModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	var users []int64
	resp.Diagnostics.Append(state.Subscribers.ElementsAs(ctx, &users, false)...)
	unsubscribeManaged(ctx, r.Data, state.ChannelID.ValueInt64(), users, &resp.Diagnostics)
}

// unsubscribeManaged unsubscribes users from a channel on destroy; a channel
// that is gone or archived has nothing to undo.
func unsubscribeManaged(ctx context.Context, d *kit.ProviderData, id int64, users []int64, diags *diag.Diagnostics) {
	var probe diag.Diagnostics
	ch, ok := activeChannel(ctx, d, id, &probe, "Unable to Unsubscribe")
	if !ok {
		return
	}
	current, err := subscribersAfterWrite(ctx, d)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Unsubscribe", "list the channels' subscribers", kit.RoleAny, err)
		return
	}
	if err := changeSubscribers(ctx, d, ch, nil, kit.Intersect(users, current[id]), false); err != nil {
		kit.AddAPIError(diags, "Unable to Unsubscribe", fmt.Sprintf("unsubscribe users from channel %q", ch.Name), kit.RoleAny, err)
	}
}

// ImportState adopts a channel's subscribers by the channel's name or id.
func (r *channelSubscribersResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	ch, ok := channelByNameOrID(ctx, r.Data, req.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), strconv.FormatInt(ch.StreamID, 10))...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("channel_id"), ch.StreamID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("notify"), false)...)
}

// channelByNameOrID finds an active channel by import id.
func channelByNameOrID(ctx context.Context, d *kit.ProviderData, id string, diags *diag.Diagnostics) (zulip.Channel, bool) {
	list, err := kit.ChannelCollection(d).List(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Import", "list the channels", kit.RoleAny, err)
		return zulip.Channel{}, false
	}
	for _, c := range list {
		if !c.IsArchived && (strings.EqualFold(c.Name, id) || strconv.FormatInt(c.StreamID, 10) == id) {
			return c, true
		}
	}
	diags.AddError("Channel Not Found", fmt.Sprintf("No active channel is named %q or has that id (GET /api/v1/streams lists them).", id))
	return zulip.Channel{}, false
}

// noteSubscription records a channel whose subscribers resources of this plan
// manage, and warns when both kinds manage one channel.
func noteSubscription(d *kit.ProviderData, channelID int64, authoritative bool, diags *diag.Diagnostics) {
	d.NoteMembers("subscribers of "+strconv.FormatInt(channelID, 10), authoritative, "Channel Managed Twice",
		fmt.Sprintf("Channel %d has both a zulip_channel_subscribers resource (all subscribers) and "+
			"zulip_channel_subscription resources (one subscriber each) in this configuration. The authoritative "+
			"one unsubscribes everyone it does not list, so a subscriber added only by a subscription resource "+
			"is removed again on the next apply. Use one kind per channel.", channelID), diags)
}

// NewChannelSubscriptionResource returns the zulip_channel_subscription resource.
func NewChannelSubscriptionResource() resource.Resource {
	return &channelSubscriptionResource{ResourceBase: kit.ResourceBase{Name: "channel_subscription"}}
}

// channelSubscriptionResource manages one user's subscription to one channel.
type channelSubscriptionResource struct {
	kit.ResourceBase
}

// channelSubscriptionModel is the zulip_channel_subscription state.
type channelSubscriptionModel struct {
	ID        types.String `tfsdk:"id"`
	ChannelID types.Int64  `tfsdk:"channel_id"`
	UserID    types.Int64  `tfsdk:"user_id"`
	Notify    types.Bool   `tfsdk:"notify"`
}

// Schema describes the resource.
func (r *channelSubscriptionResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := kit.RequiresReplaceInt64()
	resp.Schema = schema.Schema{
		MarkdownDescription: "One user's subscription to a channel (**additive**: the channel's other subscribers " +
			"are left alone). For all of a channel's subscribers, use `zulip_channel_subscribers`; do not use both for " +
			"one channel. Destroying the resource unsubscribes the user. A channel that is gone or archived is " +
			"refused, never recreated by name.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableString("`<channel_id>:<user_id>`."),
			"channel_id": schema.Int64Attribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The channel's id, e.g. `zulip_channel.ops.id`."},
			"user_id": schema.Int64Attribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The user's id, e.g. `zulip_user.ann.id`."},
			"notify": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Whether Notification Bot tells the user, in a direct message. Default `false`.",
			},
		},
	}
}

// ModifyPlan checks the user and notes the channel.
func (r *channelSubscriptionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, ok := kit.Planned[channelSubscriptionModel](ctx, req, &resp.Diagnostics)
	if !ok || !r.Data.KnowsServer() {
		return
	}
	if kit.Known(plan.ChannelID) {
		noteSubscription(r.Data, plan.ChannelID.ValueInt64(), false, &resp.Diagnostics)
	}
	if kit.Known(plan.UserID) && r.Data.HasCreds {
		kit.CheckGroupsAndUsers(ctx, r.Data, path.Root("channel_id"), path.Root("user_id"), nil, []int64{plan.UserID.ValueInt64()}, &resp.Diagnostics)
		if kit.Known(plan.ChannelID) && req.State.Raw.IsNull() && !resp.Diagnostics.HasError() {
			kit.RequireSubscriberChange(ctx, r.Data, plan.ChannelID.ValueInt64(), []int64{plan.UserID.ValueInt64()}, nil, path.Root("user_id"), &resp.Diagnostics)
		}
	}
}

// Create subscribes the user; one subscribed already is adopted.
func (r *channelSubscriptionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[channelSubscriptionModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	ch, ok := activeChannel(ctx, r.Data, plan.ChannelID.ValueInt64(), &resp.Diagnostics, "Unable to Subscribe")
	if !ok {
		return
	}
	current, err := subscribersAfterWrite(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Subscribe", "list the channels' subscribers", kit.RoleAny, err)
		return
	}
	user := plan.UserID.ValueInt64()
	if !slices.Contains(current[ch.StreamID], user) {
		if err := changeSubscribers(ctx, r.Data, ch, []int64{user}, nil, plan.Notify.ValueBool()); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "Unable to Subscribe", fmt.Sprintf("subscribe user %d to channel %q", user, ch.Name), kit.RoleAny, err)
			return
		}
	}
	plan.ID = types.StringValue(strconv.FormatInt(ch.StreamID, 10) + ":" + strconv.FormatInt(user, 10))
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read removes the resource from state when the user is no longer subscribed.
func (r *channelSubscriptionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := kit.Load[channelSubscriptionModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	subs, ok := readSubscribers(ctx, r.Data, state.ChannelID.ValueInt64(), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !ok || !slices.Contains(subs, state.UserID.ValueInt64()) {
		tflog.Info(ctx, "the user is no longer subscribed; removing the subscription from state", map[string]any{"id": state.ID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update is never called: every attribute but notify replaces the resource,
// and notify matters only when subscribing.
func (r *channelSubscriptionResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.Append(resp.State.Set(ctx, req.Plan)...)
}

// Delete unsubscribes the user.
func (r *channelSubscriptionResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[channelSubscriptionModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	unsubscribeManaged(ctx, r.Data, state.ChannelID.ValueInt64(), []int64{state.UserID.ValueInt64()}, &resp.Diagnostics)
}

// ImportState adopts a subscription by `<channel name or id>:<user id>`.
func (r *channelSubscriptionResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	channel, user, ok := kit.ImportPair("zulip_channel_subscription", "<channel name or id>:<user id>", "general:12", req.ID, &resp.Diagnostics)
	if !ok || !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	ch, ok := channelByNameOrID(ctx, r.Data, channel, &resp.Diagnostics)
	if !ok {
		return
	}
	subs, _ := readSubscribers(ctx, r.Data, ch.StreamID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !slices.Contains(subs, user) {
		resp.Diagnostics.AddError("Subscription Not Found", fmt.Sprintf("User %d is not subscribed to channel %q.", user, ch.Name))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &channelSubscriptionModel{
		ID:        types.StringValue(strconv.FormatInt(ch.StreamID, 10) + ":" + strconv.FormatInt(user, 10)),
		ChannelID: types.Int64Value(ch.StreamID), UserID: types.Int64Value(user), Notify: types.BoolValue(false),
	})...)
}
