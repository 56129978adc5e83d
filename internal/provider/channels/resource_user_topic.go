package channels

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*userTopicResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*userTopicResource)(nil)
)

// Feature levels of the user topic API (digest §5, §10).
const (
	featureUserTopics       = 170 // POST /user_topics, policy unmuted
	featureUserTopicFollows = 219 // policy followed
)

// defaultMaxTopicLength is the limit of servers older than feature level 53,
// which did not report max_topic_length.
const defaultMaxTopicLength = 60

// userTopicPolicies maps the configuration's policy names to Zulip's values.
var userTopicPolicies = map[string]int{
	"muted":    zulip.VisibilityPolicyMuted,
	"unmuted":  zulip.VisibilityPolicyUnmuted,
	"followed": zulip.VisibilityPolicyFollowed,
}

// NewUserTopicResource returns the zulip_user_topic resource.
func NewUserTopicResource() resource.Resource {
	return &userTopicResource{ResourceBase: kit.ResourceBase{Name: "user_topic"}}
}

// userTopicResource manages the caller's visibility policy for one topic.
type userTopicResource struct {
	kit.ResourceBase
}

// userTopicResourceModel is the zulip_user_topic state.
type userTopicResourceModel struct {
	ID               types.String `tfsdk:"id"`
	ChannelID        types.Int64  `tfsdk:"channel_id"`
	Topic            types.String `tfsdk:"topic"`
	VisibilityPolicy types.String `tfsdk:"visibility_policy"`
}

// Schema describes the resource.
func (r *userTopicResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The provider account's own visibility policy for one topic of a channel: muted, " +
			"unmuted (in a muted channel) or followed. Destroying the resource sets the policy back to none, so the " +
			"topic follows the channel's settings again. The topic need not have any messages yet. Needs Zulip " +
			"feature level 170 (Zulip 7.0), and 219 (Zulip 8.0) for `followed`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`<channel_id>:<topic>`, the import id.",
			},
			"channel_id": schema.Int64Attribute{
				Required: true,
				MarkdownDescription: "The id of the channel the topic belongs to. The account must be able to read " +
					"the channel. Changing it replaces the resource.",
				Validators:    []validator.Int64{int64validator.AtLeast(1)},
				PlanModifiers: kit.RequiresReplaceInt64(),
			},
			"topic": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The topic name, at most the server's `max_topic_length` characters (60 on " +
					"current Zulip). Zulip matches topic names case-insensitively: a different spelling of the same " +
					"name changes only the recorded spelling, any other change replaces the resource. For the " +
					"empty topic use the organization's display name for it (`realm_empty_topic_display_name`).",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(
					func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
						resp.RequiresReplace = !strings.EqualFold(req.StateValue.ValueString(), req.PlanValue.ValueString())
					},
					"Replaces the resource unless the new topic name differs only in case.",
					"Replaces the resource unless the new topic name differs only in case.",
				)},
			},
			"visibility_policy": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "`muted` (no notifications, hidden from unread counts), `unmuted` (shown although " +
					"the channel is muted; like none in an unmuted channel) or `followed` (notifications for every " +
					"message). Changed in place.",
				Validators: []validator.String{stringvalidator.OneOf("muted", "unmuted", "followed")},
			},
		},
	}
}

// ModifyPlan computes the id and applies the server's limits: its feature
// level, and the length of a topic name that is being set.
func (r *userTopicResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, ok := kit.Planned[userTopicResourceModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	planUserTopicID(ctx, plan, resp)
	if !r.Data.KnowsServer() || !r.checkLevels(plan, &resp.Diagnostics) || !r.Data.HasCreds {
		return
	}
	r.checkChannelChange(ctx, req, plan, &resp.Diagnostics)
	if kit.Known(plan.Topic) {
		r.checkTopicLength(ctx, req, plan, &resp.Diagnostics)
	}
}

// planUserTopicID plans the id. It follows the configured spelling, so that a
// change of case (an in-place update) plans the new id rather than an unknown
// one.
func planUserTopicID(ctx context.Context, plan userTopicResourceModel, resp *resource.ModifyPlanResponse) {
	if kit.Known(plan.ChannelID) && kit.Known(plan.Topic) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), userTopicID(plan.ChannelID.ValueInt64(), plan.Topic.ValueString()))...)
	} else {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), types.StringUnknown())...)
	}
}

// checkLevels checks the server's feature level for topic preferences and, for
// a followed topic, for following. It reports false when the server has no
// topic preferences at all.
func (r *userTopicResource) checkLevels(plan userTopicResourceModel, diags *diag.Diagnostics) bool {
	if err := r.Data.RequireFeatureLevel(featureUserTopics, "zulip_user_topic (POST /user_topics)"); err != nil {
		diags.AddAttributeError(path.Root("visibility_policy"), "Zulip Server Too Old", err.Error())
		return false
	}
	if plan.VisibilityPolicy.ValueString() == "followed" {
		if err := r.Data.RequireFeatureLevel(featureUserTopicFollows, `visibility_policy "followed"`); err != nil {
			diags.AddAttributeError(path.Root("visibility_policy"), "Zulip Server Too Old", err.Error())
		}
	}
	return true
}

// checkChannelChange checks the channel, when it is set or changes.
func (r *userTopicResource) checkChannelChange(ctx context.Context, req resource.ModifyPlanRequest, plan userTopicResourceModel, diags *diag.Diagnostics) {
	var priorChannel types.Int64
	if !req.State.Raw.IsNull() {
		diags.Append(req.State.GetAttribute(ctx, path.Root("channel_id"), &priorChannel)...)
	}
	if kit.Known(plan.ChannelID) && (priorChannel.IsNull() || !priorChannel.Equal(plan.ChannelID)) {
		r.checkChannel(ctx, plan.ChannelID.ValueInt64(), diags)
	}
}

// checkTopicLength checks the topic against the server's max_topic_length.
// Only a topic that is being set needs the limit: refreshing a settled
// resource must not cost the register call that reads it.
func (r *userTopicResource) checkTopicLength(ctx context.Context, req resource.ModifyPlanRequest, plan userTopicResourceModel, diags *diag.Diagnostics) {
	var prior types.String
	if !req.State.Raw.IsNull() {
		diags.Append(req.State.GetAttribute(ctx, path.Root("topic"), &prior)...)
	}
	if prior.ValueString() == plan.Topic.ValueString() && !prior.IsNull() {
		return
	}
	limits, err := userTopicRealm(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read the Topic Length Limit", "read max_topic_length through POST /register", kit.RoleAny, err)
		return
	}
	if n := utf8.RuneCountInString(plan.Topic.ValueString()); n > limits.maxTopicLength {
		diags.AddAttributeError(path.Root("topic"), "Topic Too Long",
			fmt.Sprintf("The topic is %d characters long; the server's limit (max_topic_length) is %d characters.", n, limits.maxTopicLength))
	}
}

// Create sets the visibility policy.
func (r *userTopicResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.put(ctx, req.Plan, &resp.State, "Unable to Create User Topic", &resp.Diagnostics)
}

// put sets the planned policy and stores the plan as the new state. Zulip's
// answer is only "success", and every value in state is the configuration's:
// the policy is set, and nothing needs reading back.
func (r *userTopicResource) put(ctx context.Context, p tfsdk.Plan, state *tfsdk.State, summary string, diags *diag.Diagnostics) {
	plan, ok := kit.Load[userTopicResourceModel](ctx, r.Data, p, diags)
	if !ok {
		return
	}
	r.set(ctx, plan, summary, diags)
	if diags.HasError() {
		return
	}
	plan.ID = types.StringValue(userTopicID(plan.ChannelID.ValueInt64(), plan.Topic.ValueString()))
	diags.Append(state.Set(ctx, &plan)...)
}

// Read refreshes the policy from the account's user topics.
func (r *userTopicResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	kit.Refresh(ctx, r.Data, req, resp, "the user topic has no visibility policy any more", kit.Found(r.read))
}

// Update changes the policy, or only the recorded spelling of the topic.
func (r *userTopicResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.put(ctx, req.Plan, &resp.State, "Unable to Update User Topic", &resp.Diagnostics)
}

// Delete sets the policy back to none; a channel that is gone is not an error.
func (r *userTopicResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[userTopicResourceModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	err := kit.UserTopicCollection(r.Data).Write(ctx, func(ctx context.Context) error {
		return r.Data.Client.SetUserTopic(ctx, state.ChannelID.ValueInt64(), state.Topic.ValueString(), zulip.VisibilityPolicyNone)
	})
	if err != nil && !zulip.IsNotFound(err) {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Delete User Topic", "set the topic's visibility policy back to none", kit.RoleAny, err)
	}
}

// ImportState adopts a policy by "<channel_id>:<topic>"; the topic may
// contain ':', so only the first one separates.
func (r *userTopicResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	channel, topic, ok := strings.Cut(req.ID, ":")
	id, err := strconv.ParseInt(channel, 10, 64)
	if !ok || err != nil || id <= 0 || topic == "" {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("A zulip_user_topic is imported by \"<channel_id>:<topic>\", e.g. \"1:releases\" (the topic may "+
				"contain ':'; the first one separates), got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), userTopicID(id, topic))...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("channel_id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("topic"), topic)...)
}

// set writes the planned policy; summary titles a failure.
func (r *userTopicResource) set(ctx context.Context, m userTopicResourceModel, summary string, diags *diag.Diagnostics) {
	policy := userTopicToAPI(m)
	tflog.Debug(ctx, "setting topic visibility policy", map[string]any{
		"channel_id": m.ChannelID.ValueInt64(), "topic": m.Topic.ValueString(), "visibility_policy": policy,
	})
	channel, topic := m.ChannelID.ValueInt64(), m.Topic.ValueString()
	err := kit.UserTopicCollection(r.Data).WriteKnown(ctx, func(ctx context.Context) (func([]zulip.UserTopic) []zulip.UserTopic, error) {
		if err := r.Data.Client.SetUserTopic(ctx, channel, topic, policy); err != nil {
			return nil, err
		}
		// The answer is only "success": the server now holds this policy for
		// the topic (matched case-insensitively, so an existing row keeps its
		// spelling), which the cached list can say without reading it again.
		return func(list []zulip.UserTopic) []zulip.UserTopic {
			for i, t := range list {
				if t.StreamID == channel && strings.EqualFold(t.TopicName, topic) {
					list = slices.Clone(list)
					list[i].VisibilityPolicy = policy
					return list
				}
			}
			return append(list, zulip.UserTopic{StreamID: channel, TopicName: topic, VisibilityPolicy: policy})
		}, nil
	})
	switch {
	case err == nil:
	case zulip.IsNotFound(err):
		diags.AddAttributeError(path.Root("channel_id"), summary,
			fmt.Sprintf("Channel %d does not exist, is archived, or the provider's account cannot read it (a private "+
				"channel it is not subscribed to). Server said: %s", m.ChannelID.ValueInt64(), err))
	default:
		kit.AddAPIError(diags, summary, "set the topic's visibility policy", kit.RoleAny, err)
	}
}

// read fills m from the account's user topics; gone is called when the topic
// has no policy. A row matches case-insensitively, as Zulip matches topics.
func (r *userTopicResource) read(ctx context.Context, m *userTopicResourceModel, diags *diag.Diagnostics, gone func()) {
	list, err := kit.UserTopicCollection(r.Data).List(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read User Topics", "list the account's user topics through POST /register", kit.RoleAny, err)
		return
	}
	channel, topic := m.ChannelID.ValueInt64(), m.Topic.ValueString()
	var emptyTopicRow *zulip.UserTopic
	for i, t := range list {
		if t.StreamID != channel {
			continue
		}
		if strings.EqualFold(t.TopicName, topic) {
			userTopicFromAPI(t, m)
			return
		}
		if t.TopicName == "" {
			emptyTopicRow = &list[i]
		}
	}
	// A server that answers with the empty topic's real name ("") rather than
	// its display name still holds the policy the configuration names.
	if emptyTopicRow != nil {
		limits, err := userTopicRealm(ctx, r.Data)
		if err != nil {
			kit.AddAPIError(diags, "Unable to Read User Topics", "read realm_empty_topic_display_name through POST /register", kit.RoleAny, err)
			return
		}
		if limits.emptyTopicName != "" && strings.EqualFold(limits.emptyTopicName, topic) {
			userTopicFromAPI(*emptyTopicRow, m)
			return
		}
	}
	gone()
}

// checkChannel fails the plan of a policy in a channel the account cannot set
// one in: one it cannot see (it does not exist, or is private and the account
// is not subscribed) or one that is archived. The channels are read once per
// run, and only for policies whose channel is being set.
func (r *userTopicResource) checkChannel(ctx context.Context, id int64, diags *diag.Diagnostics) {
	channels, err := kit.CachedAs(ctx, r.Data.Cache, cacheUserTopicChannels, func(ctx context.Context) ([]zulip.Channel, error) {
		includeArchived := false
		return r.Data.Client.ListChannels(ctx, zulip.ListChannelsOptions{ExcludeArchived: &includeArchived})
	})
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Channels", "list the channels the account can see, to check channel_id", kit.RoleAny, err)
		return
	}
	for _, c := range channels {
		if c.StreamID != id {
			continue
		}
		if c.IsArchived {
			diags.AddAttributeError(path.Root("channel_id"), "Channel Is Archived",
				fmt.Sprintf("Channel %d (%q) is archived: Zulip does not let anyone set a topic's visibility policy in an "+
					"archived channel. Unarchive it first, or remove this resource.", id, c.Name))
		}
		return
	}
	diags.AddAttributeError(path.Root("channel_id"), "Channel Not Accessible",
		fmt.Sprintf("The provider's account cannot see a channel with id %d: it does not exist, or it is private and the "+
			"account is not subscribed to it. A topic's visibility policy can be set only in a channel the account can "+
			"access (see the zulip_channels data source).", id))
}

// cacheUserTopicChannels is the cache key of the channels the account can see.
const cacheUserTopicChannels = "user_topic:channels"

// userTopicRealmLimits is what the resource needs from the realm's settings.
type userTopicRealmLimits struct {
	maxTopicLength int
	emptyTopicName string
}

// userTopicRealm derives max_topic_length and the empty topic's display name
// from the organization settings.
func userTopicRealm(ctx context.Context, d *kit.ProviderData) (userTopicRealmLimits, error) {
	resp, err := d.RealmSettings(ctx)
	if err != nil {
		return userTopicRealmLimits{}, err
	}
	limits := userTopicRealmLimits{maxTopicLength: resp.MaxTopicLength, emptyTopicName: resp.RealmEmptyTopicDisplayName}
	if limits.maxTopicLength <= 0 {
		limits.maxTopicLength = defaultMaxTopicLength
	}
	return limits, nil
}

// userTopicID is the resource id and import id.
func userTopicID(channelID int64, topic string) string {
	return strconv.FormatInt(channelID, 10) + ":" + topic
}

// userTopicToAPI returns the Zulip policy value of the planned policy.
func userTopicToAPI(m userTopicResourceModel) int {
	return userTopicPolicies[m.VisibilityPolicy.ValueString()]
}

// userTopicFromAPI copies the server's row into the model. The topic keeps the
// spelling already in the model (configured or imported): the server's row may
// differ in case, which Zulip treats as the same topic.
func userTopicFromAPI(t zulip.UserTopic, m *userTopicResourceModel) {
	m.ChannelID = types.Int64Value(t.StreamID)
	if m.Topic.IsNull() || m.Topic.IsUnknown() {
		m.Topic = types.StringValue(t.TopicName)
	}
	m.ID = types.StringValue(userTopicID(t.StreamID, m.Topic.ValueString()))
	name := strconv.Itoa(t.VisibilityPolicy) // a policy this provider does not know shows as its number
	for n, v := range userTopicPolicies {
		if v == t.VisibilityPolicy {
			name = n
		}
	}
	m.VisibilityPolicy = types.StringValue(name)
}
