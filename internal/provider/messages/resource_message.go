package messages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.Resource                   = (*messageResource)(nil)
	_ resource.ResourceWithConfigure      = (*messageResource)(nil)
	_ resource.ResourceWithImportState    = (*messageResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*messageResource)(nil)
	_ resource.ResourceWithValidateConfig = (*messageResource)(nil)

	_ resource.ResourceWithConfigValidators = (*messageResource)(nil)
)

// Zulip's limits on a message where the server does not say them
// (settings.MAX_MESSAGE_LENGTH's default, and the topic length before
// max_topic_length), in code points.
const (
	messageMaxContent     = 10000
	messageMaxTopicLegacy = 60
)

// Descriptions of a message's attributes, shared by the resource, the
// action and the invocation resource.
const (
	messageChannelDescription = "The id of the channel to post to (see the `zulip_channel` data source); with `topic`, " +
		"and not with `to_users`. The channel must exist, not be archived, and be one the account can post to."
	messageTopicDescription = "The topic of a channel message; required with `channel_id`. `\"\"` is the general chat " +
		"(the empty topic), which a channel whose topics policy requires topics refuses; a channel that allows only the " +
		"general chat refuses any other topic. At most the server's `max_topic_length` characters, without leading or " +
		"trailing whitespace."
	messageToUsersDescription = "For a direct message: the recipients, all by user id or all by e-mail address (Zulip " +
		"refuses a list that mixes them). Not with `channel_id`."
	messageContentDescription = "The message's text, in Zulip-flavored Markdown: not empty, at most the server's " +
		"`max_message_length` characters (10000 unless its administrators changed it; checked at plan), " +
		"without trailing whitespace or leading newlines (Zulip strips them; wrap a heredoc in `chomp()`)."
)

// messageToUsersValidators check the recipients of a direct message.
func messageToUsersValidators() []validator.Set {
	return []validator.Set{setvalidator.SizeAtLeast(1),
		setvalidator.ValueStringsAre(validators.String("a user id or an e-mail address", checkMessageRecipient))}
}

// NewMessageResource returns the zulip_message resource.
func NewMessageResource() resource.Resource {
	return &messageResource{ResourceBase: kit.ResourceBase{Name: "message"}}
}

// messageResource manages one message the provider's account sends: its
// content is kept as configured.
type messageResource struct {
	kit.ResourceBase
}

// messageResourceModel is the zulip_message state.
type messageResourceModel struct {
	ID        types.Int64  `tfsdk:"id"`
	ChannelID types.Int64  `tfsdk:"channel_id"`
	Topic     types.String `tfsdk:"topic"`
	ToUsers   types.Set    `tfsdk:"to_users"`
	Content   types.String `tfsdk:"content"`
	URL       types.String `tfsdk:"url"`
	Timestamp types.Int64  `tfsdk:"timestamp"`
}

// Schema describes the resource.
func (r *messageResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A message sent by the account the provider is configured with, to a channel's topic or " +
			"directly to users, whose content Terraform keeps as configured: a changed `content` edits the message in " +
			"place (Zulip's message editing rules apply: `allow_message_editing` and the organization's time limit " +
			"for edits), an edit made in Zulip shows as a difference and is put back, and a message deleted in Zulip " +
			"is sent again. A changed topic moves the message; a changed channel or recipients sends a new message and " +
			"deletes the old one. " +
			"Destroying the resource deletes the message for everyone, which needs the organization's or the channel's " +
			"permission to delete one's own messages (`can_delete_own_message_group`, within " +
			"`message_content_delete_limit_seconds`) or any message (`can_delete_any_message_group`); the plan refuses a " +
			"destroy the account may not make, and a `removed` block leaves the message in Zulip instead. Posting needs " +
			"the channel's `can_send_message_group`, which the plan checks too. " +
			"A message has no name: it is imported by its id. When the answer to sending is lost, the provider looks " +
			"for the message among the account's newest in the conversation rather than send it twice.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableInt64("The message's id."),
			"channel_id": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: messageChannelDescription + " Changing it sends a new message.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
				PlanModifiers:       kit.RequiresReplaceInt64(),
			},
			"topic": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: messageTopicDescription + " Changing it moves the message, alone, to the new topic of " +
					"its channel (without Notification Bot's notices), which needs the organization's " +
					"`can_move_messages_between_topics_group` or the channel's `can_move_messages_within_channel_group`, " +
					"within `move_messages_within_stream_limit_seconds` for any role but moderators; the plan checks both. " +
					"A message moved in Zulip shows as a difference and is moved back.",
				Validators: []validator.String{validators.String("a topic without leading or trailing whitespace", checkMessageTopic)},
			},
			"to_users": schema.SetAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: messageToUsersDescription + " Changing it sends a new message.",
				Validators:          messageToUsersValidators(),
				PlanModifiers:       kit.RequiresReplaceSet(),
			},
			"content": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: messageContentDescription + " A change edits the message in place.",
				Validators:          []validator.String{validators.String("non-empty message text", checkMessageContent)},
			},
			"url":       kit.StableString("A link to the message: the server's URL and `#narrow/near/<id>`."),
			"timestamp": kit.StableInt64("When the message was sent, in UNIX seconds."),
		},
	}
}

// ConfigValidators: a message goes to a channel or to users.
func (r *messageResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{resourcevalidator.ExactlyOneOf(path.MatchRoot("channel_id"), path.MatchRoot("to_users"))}
}

// ValidateConfig requires a topic with a channel, and none without.
func (r *messageResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	validateMessageConfig(ctx, req.Config, &resp.Diagnostics)
}

// validateMessageConfig checks the address of a message's configuration.
func validateMessageConfig(ctx context.Context, cfg kit.Values, diags *diag.Diagnostics) {
	if m := kit.LoadArgs[sendMessageModel](ctx, cfg, diags); !diags.HasError() {
		validateMessageAddress(m.ChannelID, m.Topic, m.ToUsers, diags)
	}
}

// checkMessage checks a message's length, channel and topic against the
// server (checkContentLength, checkMessageTarget).
func checkMessage(ctx context.Context, d *kit.ProviderData, m sendMessageModel, diags *diag.Diagnostics) {
	checkContentLength(ctx, d, m.Content, diags)
	checkMessageTarget(ctx, d, m.ChannelID, m.Topic, diags)
}

// sendMessage posts the message m describes; false, with the error, when
// Zulip refused it.
func sendMessage(ctx context.Context, d *kit.ProviderData, m sendMessageModel, diags *diag.Diagnostics) (*zulip.SentMessage, bool) {
	if diags.HasError() || !d.Ready(diags) {
		return nil, false
	}
	req := messageRequest(m.ChannelID, m.Topic, m.ToUsers, m.Content)
	start := time.Now()
	sent, err := d.Client.SendMessage(ctx, req)
	if err != nil && sendUncertain(err) {
		if found := findLostMessage(ctx, d, req, start); found != nil {
			diags.AddWarning("Message Found After a Lost Answer",
				fmt.Sprintf("Zulip's answer to sending the message was lost (%s), but the message was posted: message %d, "+
					"found among the account's newest messages. It was not sent again.", err, found.ID))
			sent, err = &zulip.SentMessage{ID: found.ID}, nil
		}
	}
	if err != nil {
		addMessageSendError(diags, err)
		return nil, false
	}
	tflog.Info(ctx, "sent a message", map[string]any{"id": sent.ID})
	return sent, true
}

// sendUncertain reports a failed send that Zulip may have processed: not a
// Zulip error answer (a lost connection, a proxy's page, a server error).
func sendUncertain(err error) bool {
	if zulip.IsNotSent(err) {
		return false
	}
	apiErr, ok := zulip.AsAPIError(err)
	return !ok || apiErr.Code == "" || apiErr.HTTPStatus >= 500
}

// lostMessageWindow is how much earlier than the send, by the server's
// clock, a message found after a lost answer may be dated.
const lostMessageWindow = 5 * time.Minute

// findLostMessage looks, after a send whose answer was lost, for the message
// among the account's newest in the same conversation: the newest with the
// same content, sent since the send began. Nil when there is none, or when
// the lookup fails (the send's error is then reported).
func findLostMessage(ctx context.Context, d *kit.ProviderData, req zulip.SendMessageRequest, start time.Time) *zulip.Message {
	me, err := d.Caller(ctx)
	if err != nil {
		return nil
	}
	narrow := []zulip.NarrowTerm{{Operator: "sender", Operand: me.UserID}, {Operator: "is", Operand: "dm"}}
	if len(req.UserIDs) == 0 && len(req.Emails) == 0 {
		narrow = []zulip.NarrowTerm{{Operator: "sender", Operand: me.UserID}, {Operator: "channel", Operand: req.ChannelID},
			{Operator: "topic", Operand: req.Topic}}
	}
	msgs, err := d.Client.NewestMessages(ctx, narrow, 20)
	if err != nil {
		tflog.Warn(ctx, "could not look for a message whose send answer was lost", map[string]any{"error": err.Error()})
		return nil
	}
	since := start.Add(-lostMessageWindow).Unix()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Content == req.Content && msgs[i].Timestamp >= since {
			return &msgs[i]
		}
	}
	return nil
}

// validateMessageAddress: a channel message has a topic, a direct message
// none, and the recipients are all ids or all addresses.
func validateMessageAddress(channelID types.Int64, topic types.String, toUsers types.Set, diags *diag.Diagnostics) {
	switch {
	case !channelID.IsNull() && topic.IsNull():
		diags.AddAttributeError(path.Root("topic"), "Missing Topic",
			"A channel message needs a topic: set topic (\"\" is the general chat, where the channel allows it).")
	case channelID.IsNull() && !topic.IsNull() && !toUsers.IsNull():
		diags.AddAttributeError(path.Root("topic"), "Topic of a Direct Message",
			"A direct message has no topic: remove topic, or send to a channel with channel_id instead of to_users.")
	}
	ids, emails := 0, 0
	for _, s := range kit.KnownStrings(toUsers) {
		if _, err := strconv.ParseInt(s, 10, 64); err == nil {
			ids++
		} else {
			emails++
		}
	}
	if ids > 0 && emails > 0 {
		diags.AddAttributeError(path.Root("to_users"), "Mixed Recipients",
			"Zulip takes the recipients of a direct message all by user id or all by e-mail address, not both: "+
				"write them all one way.")
	}
}

// ModifyPlan checks a new message against the server: the channel, the
// permission to post there, its topics policy and the topic's length; an
// edit against the organization's editing rules; and a destroy against the
// delete permissions and time limit.
func (r *messageResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !r.Data.CanAsk() || kit.Unchanged(req) {
		return
	}
	if req.Plan.Raw.IsNull() {
		var state messageResourceModel
		if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); !resp.Diagnostics.HasError() {
			checkMessageDelete(ctx, r.Data, state, &resp.Diagnostics)
		}
		return
	}
	var plan messageResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	checkContentLength(ctx, r.Data, plan.Content, &resp.Diagnostics)
	if req.State.Raw.IsNull() {
		checkMessageTarget(ctx, r.Data, plan.ChannelID, plan.Topic, &resp.Diagnostics)
		return
	}
	var state messageResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !plan.ID.Equal(state.ID) {
		return
	}
	if !plan.Content.Equal(state.Content) {
		checkMessageEdit(ctx, r.Data, state.Timestamp, &resp.Diagnostics)
	}
	if kit.Known(plan.Topic) && !plan.Topic.Equal(state.Topic) {
		checkMessageMove(ctx, r.Data, state, plan.Topic, &resp.Diagnostics)
	}
}

// checkMessageMove refuses at plan a move of the message to another topic of
// its channel that Zulip would refuse (check_update_message): the target
// topic's rules, and, unless the move only resolves or unresolves the topic
// (which the server checks), the permission to move messages between topics
// (the organization's can_move_messages_between_topics_group, or the
// channel's administrators and can_move_messages_within_channel_group) and
// the organization's time limit for moves, which holds every role but
// moderators, administrators included.
func checkMessageMove(ctx context.Context, d *kit.ProviderData, state messageResourceModel, topic types.String, diags *diag.Diagnostics) {
	ch := checkMessageTopicOf(ctx, d, state.ChannelID, topic, diags)
	if ch == nil || diags.HasError() || isResolveToggle(state.Topic.ValueString(), topic.ValueString()) {
		return
	}
	me, err := d.Caller(ctx)
	if err != nil {
		return
	}
	if me.Role > zulip.RoleAdministrator {
		kit.RequirePermission(ctx, d, fmt.Sprintf("Moving message %d to the topic %q", state.ID.ValueInt64(), topic.ValueString()),
			path.Root("topic"), diags, kit.RealmPermission(ctx, d, "can_move_messages_between_topics_group"),
			kit.HeldBy{What: "the channel's can_administer_channel_group", Kind: kit.PermissionOfChannel,
				Setting: "can_administer_channel_group", Value: ch.CanAdministerChannelGroup},
			kit.HeldBy{What: "the channel's can_move_messages_within_channel_group", Kind: kit.PermissionOfChannel,
				Setting: "can_move_messages_within_channel_group", Value: ch.CanMoveMessagesWithinChannelGroup})
	}
	if me.Role == zulip.RoleModerator || !kit.Known(state.Timestamp) {
		return
	}
	settings, err := d.RealmSettings(ctx)
	if err != nil {
		return
	}
	raw, ok := settings.RealmSetting("move_messages_within_stream_limit_seconds")
	var limit *int64
	if !ok || json.Unmarshal(raw, &limit) != nil || limit == nil {
		return
	}
	if age := time.Now().Unix() - state.Timestamp.ValueInt64(); age > *limit+20 {
		diags.AddAttributeError(path.Root("topic"), "Move Time Limit Passed",
			fmt.Sprintf("The message was sent %d seconds ago; the organization allows moving messages between topics for "+
				"%d seconds (move_messages_within_stream_limit_seconds), to everyone but moderators (Zulip: \"The time limit "+
				"for editing this message's topic has passed.\"). Replace the message instead (terraform apply -replace=...).",
				age, *limit))
	}
}

// resolvedTopicPrefix marks a resolved topic.
const resolvedTopicPrefix = "✔ "

// isResolveToggle reports a topic change that only marks the topic resolved
// or unresolved, which Zulip checks against the permission to resolve topics.
func isResolveToggle(from, to string) bool {
	return to == resolvedTopicPrefix+from || from == resolvedTopicPrefix+to
}

// checkMessageTarget refuses at plan what Zulip would refuse of a channel
// message's address: a channel the account cannot see or that is archived,
// a topic the channel's topics policy forbids, and a topic too long.
func checkMessageTarget(ctx context.Context, d *kit.ProviderData, channelID types.Int64, topic types.String, diags *diag.Diagnostics) {
	ch := checkMessageTopicOf(ctx, d, channelID, topic, diags)
	if ch == nil {
		return
	}
	// A bot may also post where its owner may: the server decides for bots.
	if me, err := d.Caller(ctx); err == nil && !me.IsBot {
		kit.RequirePermission(ctx, d, fmt.Sprintf("Posting to the channel %q", ch.Name), path.Root("channel_id"), diags,
			kit.HeldBy{What: "the channel's can_send_message_group", Kind: kit.PermissionOfChannel, Setting: "can_send_message_group",
				Value: ch.CanSendMessageGroup})
	}
}

// checkMessageTopicOf checks a topic against the rules of the channel of id
// (checkTopicRules) and returns the channel; nil when it cannot be checked.
func checkMessageTopicOf(ctx context.Context, d *kit.ProviderData, channelID types.Int64, topic types.String, diags *diag.Diagnostics) *zulip.Channel {
	if !kit.Known(channelID) {
		return nil
	}
	settings, err := d.RealmSettings(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Organization Settings", "read the topics policy", kit.RoleAny, err)
		return nil
	}
	ch := messageChannel(ctx, d, channelID.ValueInt64(), diags)
	if ch != nil {
		checkTopicRules(settings, ch, topic, diags)
	}
	return ch
}

// checkTopicRules refuses a topic too long for the server, or one the
// channel's topics policy forbids.
func checkTopicRules(settings *zulip.RegisterResponse, ch *zulip.Channel, topic types.String, diags *diag.Diagnostics) {
	if !kit.Known(topic) {
		return
	}
	t := topic.ValueString()
	if limit := messageMaxTopic(settings); utf8.RuneCountInString(t) > limit {
		diags.AddAttributeError(path.Root("topic"), "Topic Too Long",
			fmt.Sprintf("The topic is %d characters long; this server accepts at most %d (max_topic_length).", utf8.RuneCountInString(t), limit))
	}
	display := settings.RealmEmptyTopicDisplayName
	if display == "" {
		display = "general chat"
	}
	switch policy := messageTopicsPolicy(settings, ch); {
	case policy == zulip.TopicsPolicyDisableEmptyTopic && t == "":
		diags.AddAttributeError(path.Root("topic"), "Topic Required",
			fmt.Sprintf("Channel %d (%q) requires topics (topics_policy %q): Zulip refuses messages to the %q topic there. "+
				"Give the message a topic.", ch.StreamID, ch.Name, policy, display))
	case policy == zulip.TopicsPolicyEmptyTopicOnly && t != "":
		diags.AddAttributeError(path.Root("topic"), "Only the General Chat Allowed",
			fmt.Sprintf("Channel %d (%q) allows only the %q topic (topics_policy %q): set topic = \"\".", ch.StreamID, ch.Name, display, policy))
	}
}

// messageChannel is the channel a message is posted to, from the run's one
// channel list; nil, with the error on channel_id, when it is not there or is
// archived. A private channel must also be among those the account sees
// without include_all (Zulip refuses messages to a private channel from an
// account not subscribed to it, administrators included): that list is read
// only when a private channel needs it, once per run.
func messageChannel(ctx context.Context, d *kit.ProviderData, id int64, diags *diag.Diagnostics) *zulip.Channel {
	all, err := kit.ChannelCollection(d).LastSeen(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Channels", "list the channels, to check channel_id", kit.RoleAny, err)
		return nil
	}
	i := slices.IndexFunc(all, func(c zulip.Channel) bool { return c.StreamID == id })
	if i < 0 {
		diags.AddAttributeError(path.Root("channel_id"), "Channel Not Found",
			fmt.Sprintf("channel_id = %d: the provider's account cannot see a channel with that id: it does not exist, or it "+
				"is private and the account is not subscribed to it (see the zulip_channels data source).", id))
		return nil
	}
	c := &all[i]
	if c.IsArchived {
		diags.AddAttributeError(path.Root("channel_id"), "Channel Is Archived",
			fmt.Sprintf("channel_id = %d: channel %q is archived, and Zulip refuses messages to it. Unarchive it first.", id, c.Name))
		return nil
	}
	if !c.InviteOnly || c.IsWebPublic {
		return c
	}
	visible, err := kit.CachedAs(ctx, d.Cache, cacheMessageChannels, func(ctx context.Context) ([]zulip.Channel, error) {
		excludeArchived := false
		return d.Client.ListChannels(ctx, zulip.ListChannelsOptions{ExcludeArchived: &excludeArchived})
	})
	if err != nil || slices.ContainsFunc(visible, func(v zulip.Channel) bool { return v.StreamID == id }) {
		return c
	}
	diags.AddAttributeError(path.Root("channel_id"), "Not Subscribed to the Private Channel",
		fmt.Sprintf("Channel %d (%q) is private and the provider's account is not subscribed to it, so Zulip refuses its "+
			"messages there (\"Not authorized to send to channel '%s'\"), administrators included. Subscribe the account "+
			"first (a zulip_channel_subscription).", id, c.Name, c.Name))
	return nil
}

// cacheMessageChannels is the cache key of the channels the account sees
// without include_all: public ones and those it is subscribed to.
const cacheMessageChannels = "message:channels"

// messageTopicsPolicy is the channel's topics policy, or the organization's
// where the channel inherits it (get_stream_topics_policy).
func messageTopicsPolicy(settings *zulip.RegisterResponse, ch *zulip.Channel) string {
	if ch.TopicsPolicy != "" && ch.TopicsPolicy != zulip.TopicsPolicyInherit {
		return ch.TopicsPolicy
	}
	if raw, ok := settings.RealmSetting("topics_policy"); ok {
		var p string
		if json.Unmarshal(raw, &p) == nil && p != "" {
			return p
		}
	}
	return zulip.TopicsPolicyAllowEmptyTopic
}

// messageMaxTopic is the server's topic length limit.
func messageMaxTopic(settings *zulip.RegisterResponse) int {
	if settings.MaxTopicLength > 0 {
		return settings.MaxTopicLength
	}
	return messageMaxTopicLegacy
}

// checkMessageEdit refuses at plan an edit Zulip would refuse: editing
// turned off, or the organization's time limit for edits passed (with
// Zulip's 20 seconds of grace).
func checkMessageEdit(ctx context.Context, d *kit.ProviderData, sent types.Int64, diags *diag.Diagnostics) {
	settings, err := d.RealmSettings(ctx)
	if err != nil {
		return // the server checks the same at apply
	}
	if raw, ok := settings.RealmSetting("allow_message_editing"); ok {
		var allowed bool
		if json.Unmarshal(raw, &allowed) == nil && !allowed {
			diags.AddAttributeError(path.Root("content"), "Message Editing Is Off",
				"The organization has turned off message editing (allow_message_editing), so Zulip refuses to change "+
					"the message's content. Turn editing on, or replace the message (terraform apply -replace=...).")
			return
		}
	}
	raw, ok := settings.RealmSetting("message_content_edit_limit_seconds")
	var limit *int64
	if !ok || json.Unmarshal(raw, &limit) != nil || limit == nil || !kit.Known(sent) {
		return
	}
	if age := time.Now().Unix() - sent.ValueInt64(); age > *limit+20 {
		diags.AddAttributeError(path.Root("content"), "Edit Time Limit Passed",
			fmt.Sprintf("The message was sent %d seconds ago; the organization allows edits for %d seconds "+
				"(message_content_edit_limit_seconds). Replace the message instead (terraform apply -replace=...).", age, *limit))
	}
}

// checkMessageDelete refuses at plan the destroy of a message Zulip would
// not let the account delete (validate_can_delete_message): deleting any
// message needs the organization's or the channel's
// can_delete_any_message_group; deleting one's own, the organization's or the
// channel's can_delete_own_message_group, within the organization's
// message_content_delete_limit_seconds.
func checkMessageDelete(ctx context.Context, d *kit.ProviderData, state messageResourceModel, diags *diag.Diagnostics) {
	anyOf := []kit.HeldBy{kit.RealmPermission(ctx, d, "can_delete_any_message_group")}
	own := []kit.HeldBy{kit.RealmPermission(ctx, d, "can_delete_own_message_group")}
	if kit.Known(state.ChannelID) {
		if seen, err := kit.ChannelCollection(d).LastSeen(ctx); err == nil {
			for _, ch := range seen {
				if ch.StreamID == state.ChannelID.ValueInt64() {
					anyOf = append(anyOf, kit.HeldBy{What: "the channel's can_delete_any_message_group", Kind: kit.PermissionOfChannel,
						Setting: "can_delete_any_message_group", Value: ch.CanDeleteAnyMessageGroup})
					own = append(own, kit.HeldBy{What: "the channel's can_delete_own_message_group", Kind: kit.PermissionOfChannel,
						Setting: "can_delete_own_message_group", Value: ch.CanDeleteOwnMessageGroup})
				}
			}
		}
	}
	action := fmt.Sprintf("Deleting message %d (destroy deletes it; to leave it in Zulip, remove it from the state with a "+
		"removed block instead)", state.ID.ValueInt64())
	if age, limit, passed := messageDeleteLimitPassed(ctx, d, state.Timestamp); passed {
		action = fmt.Sprintf("Deleting message %d, sent %d seconds ago, past the organization's limit for deleting one's own "+
			"messages (message_content_delete_limit_seconds: %d; to leave it in Zulip, remove it from the state with a "+
			"removed block instead)", state.ID.ValueInt64(), age, limit)
		kit.RequirePermission(ctx, d, action, path.Empty(), diags, anyOf...)
		return
	}
	kit.RequirePermission(ctx, d, action, path.Empty(), diags, append(anyOf, own...)...)
}

// messageDeleteLimitPassed reports whether a message sent at sent is older
// than the organization's limit for deleting one's own messages, with its age
// and the limit.
func messageDeleteLimitPassed(ctx context.Context, d *kit.ProviderData, sent types.Int64) (age, limit int64, passed bool) {
	settings, err := d.RealmSettings(ctx)
	if err != nil || !kit.Known(sent) {
		return 0, 0, false
	}
	raw, ok := settings.RealmSetting("message_content_delete_limit_seconds")
	var l *int64
	if !ok || json.Unmarshal(raw, &l) != nil || l == nil {
		return 0, 0, false
	}
	age = time.Now().Unix() - sent.ValueInt64()
	return age, *l, age > *l
}

// Create sends the message.
func (r *messageResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan messageResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	sent, ok := sendMessage(ctx, r.Data, kit.LoadArgs[sendMessageModel](ctx, req.Plan, &resp.Diagnostics), &resp.Diagnostics)
	if !ok {
		return
	}
	plan.ID = types.Int64Value(sent.ID)
	plan.URL = types.StringValue(messageURL(r.Data.Client, sent.ID))
	if m, err := r.Data.Client.GetMessage(ctx, sent.ID); err == nil {
		messageFromAPI(*m, &plan)
	} else {
		plan.Timestamp = types.Int64Null()
		resp.Diagnostics.AddWarning("Message Sent, Not Read Back",
			fmt.Sprintf("The message %d was sent, but reading it back failed; the next refresh reads it. Server said: %s", sent.ID, err))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read refreshes the message by id; one deleted in Zulip is dropped.
func (r *messageResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	kit.Refresh(ctx, r.Data, req, resp, "the message was deleted",
		func(ctx context.Context, state *messageResourceModel, diags *diag.Diagnostics) bool {
			m, err := readMessage(ctx, r.Data, state.ID.ValueInt64())
			switch {
			case zulip.IsNotFound(err):
				return false
			case err != nil:
				kit.AddAPIError(diags, "Unable to Read Message", "read the message", kit.RoleAny, err)
				return true
			}
			messageFromAPI(*m, state)
			state.URL = types.StringValue(messageURL(r.Data.Client, m.ID))
			return true
		})
}

// featureMessagesByID is the feature level of GET /messages's message_ids.
const featureMessagesByID = 300

// readMessage reads a message for a refresh: with the others refreshed
// together, in one GET /messages by message_ids (Terraform refreshes ten
// resources at a time, so about one request per ten messages instead of one
// each); alone (GET /messages/{id}) before featureMessagesByID, and when the
// batch did not return it: deleted (the single read says so), or readable by
// the account outside its message history (a message it imported).
func readMessage(ctx context.Context, d *kit.ProviderData, id int64) (*zulip.Message, error) {
	if d.FeatureLevel() >= featureMessagesByID && d.MessageReads != nil {
		found, err := d.MessageReads.Do(ctx, "messages", []int64{id}, func(ctx context.Context, ids []int64) (map[int64]zulip.Message, error) {
			list, err := d.Client.GetMessagesByID(ctx, ids)
			return kit.ByID(list, func(m zulip.Message) int64 { return m.ID }), err
		})
		if m, ok := found[id]; ok && err == nil {
			return &m, nil
		}
	}
	return d.Client.GetMessage(ctx, id)
}

// Update edits the message's content and moves it to its new topic, in one
// request (a changed channel or recipients replace it).
func (r *messageResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state, ok := kit.LoadUpdate[messageResourceModel](ctx, r.Data, req, &resp.Diagnostics)
	if !ok {
		return
	}
	var edit zulip.EditMessageRequest
	if !plan.Content.Equal(state.Content) {
		edit.Content = plan.Content.ValueStringPointer()
	}
	if !plan.Topic.Equal(state.Topic) && !plan.Topic.IsNull() {
		edit.Topic = plan.Topic.ValueStringPointer()
	}
	if edit.Content != nil || edit.Topic != nil {
		if err := r.Data.Client.EditMessage(ctx, state.ID.ValueInt64(), edit); err != nil {
			at, what := path.Root("content"), "content (editing may be off, or its time limit passed"
			if edit.Content == nil {
				at, what = path.Root("topic"), "topic (moving messages may need a permission the account lacks, or its time limit passed"
			}
			resp.Diagnostics.AddAttributeError(at, "Unable to Edit Message",
				fmt.Sprintf("Zulip refused to change message %d's %s: replace the message instead). Server said: %s",
					state.ID.ValueInt64(), what, err))
			return
		}
	}
	plan.ID, plan.URL, plan.Timestamp = state.ID, state.URL, state.Timestamp
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete deletes the message for everyone; one already gone is not an error.
func (r *messageResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[messageResourceModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	if err := r.Data.Client.DeleteMessage(ctx, state.ID.ValueInt64()); err != nil && !zulip.IsNotFound(err) {
		resp.Diagnostics.AddError("Unable to Delete Message",
			fmt.Sprintf("Zulip refused to delete message %d: deleting one's own messages needs the organization's "+
				"can_delete_own_message_group, within message_content_delete_limit_seconds. Remove it from the "+
				"state with terraform state rm to leave it in place. Server said: %s", state.ID.ValueInt64(), err))
	}
}

// ImportState adopts a message by its id (a message has no name).
func (r *messageResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, err := strconv.ParseInt(req.ID, 10, 64)
	if err != nil || id < 1 {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("A zulip_message is imported by its numeric id (a message has no name), e.g. \"42\"; got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
}

// messageRequest builds a send request from a message's address and content.
func messageRequest(channelID types.Int64, topic types.String, toUsers types.Set, content types.String) zulip.SendMessageRequest {
	req := zulip.SendMessageRequest{ChannelID: channelID.ValueInt64(), Topic: topic.ValueString(), Content: content.ValueString()}
	for _, s := range kit.KnownStrings(toUsers) {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil {
			req.UserIDs = append(req.UserIDs, id)
		} else {
			req.Emails = append(req.Emails, s)
		}
	}
	return req
}

// messageFromAPI copies the server's view into the model. The recipients keep
// the configured spelling (ids or addresses) while they name the same users.
func messageFromAPI(msg zulip.Message, m *messageResourceModel) {
	m.ID = types.Int64Value(msg.ID)
	m.Content = types.StringValue(msg.Content)
	m.Timestamp = types.Int64Value(msg.Timestamp)
	if msg.Type != zulip.MessageTypePrivate {
		m.ChannelID = types.Int64Value(msg.StreamID)
		m.Topic = types.StringValue(msg.Subject)
		m.ToUsers = types.SetNull(types.StringType)
		return
	}
	m.ChannelID, m.Topic = types.Int64Null(), types.StringNull()
	others := messageOthers(msg)
	if !sameRecipients(kit.KnownStrings(m.ToUsers), others) {
		ids := make([]attr.Value, len(others))
		for i, u := range others {
			ids[i] = types.StringValue(strconv.FormatInt(u.ID, 10))
		}
		m.ToUsers = types.SetValueMust(types.StringType, ids)
	}
}

// messageOthers are a direct message's recipients other than its sender (the
// sender alone for a message to oneself).
func messageOthers(msg zulip.Message) []zulip.MessageRecipient {
	var out []zulip.MessageRecipient
	all := msg.Recipients()
	for _, u := range all {
		if u.ID != msg.SenderID {
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// sameRecipients reports whether configured (ids or addresses) names exactly
// the users of others.
func sameRecipients(configured []string, others []zulip.MessageRecipient) bool {
	if len(configured) != len(others) {
		return false
	}
	for _, c := range configured {
		found := false
		for _, u := range others {
			found = found || c == strconv.FormatInt(u.ID, 10) || strings.EqualFold(c, u.Email)
		}
		if !found {
			return false
		}
	}
	return true
}

// messageURL is a link to the message: the server's URL and
// #narrow/near/<id>.
func messageURL(c *zulip.Client, id int64) string {
	return strings.TrimSuffix(c.BaseURL(), "api/v1/") + "#narrow/near/" + strconv.FormatInt(id, 10)
}

// addMessageSendError reports a refused message, on the attribute at fault
// where Zulip's answer tells which.
func addMessageSendError(diags *diag.Diagnostics, err error) {
	const summary = "Unable to Send Message"
	msg := zulip.ErrorMsg(err)
	switch {
	case zulip.IsNotFound(err), strings.Contains(msg, "channel"):
		diags.AddAttributeError(path.Root("channel_id"), summary, "Zulip refused the channel. Server said: "+err.Error())
	case strings.Contains(msg, "topic"):
		diags.AddAttributeError(path.Root("topic"), summary, "Zulip refused the topic. Server said: "+err.Error())
	case strings.Contains(msg, "recipient"), strings.HasPrefix(msg, "Invalid email"), strings.HasPrefix(msg, "Invalid user ID"),
		strings.Contains(msg, "direct message"), strings.Contains(msg, "conversation"):
		diags.AddAttributeError(path.Root("to_users"), summary, "Zulip refused the recipients. Server said: "+err.Error())
	default:
		kit.AddAPIError(diags, summary, "send the message", kit.RoleAny, err)
	}
}

// checkMessageContent is Zulip's rule for a message's text, without what
// Zulip would strip (the plan would never settle).
func checkMessageContent(s string) error {
	switch {
	case strings.TrimFunc(s, kit.IsPythonSpace) == "":
		return errors.New("must not be empty or only whitespace")
	case strings.TrimRightFunc(s, kit.IsPythonSpace) != s:
		return errors.New("must not end with whitespace: Zulip strips it, so the plan would never settle (for a heredoc, use chomp(<<-EOT ... EOT))")
	case strings.HasPrefix(s, "\n"):
		return errors.New("must not start with a newline: Zulip strips it, so the plan would never settle")
	}
	return nil
}

// checkContentLength refuses at plan a content longer than the server's
// max_message_length, which Zulip would cut short ("[message truncated]"),
// so that the plan would never settle.
func checkContentLength(ctx context.Context, d *kit.ProviderData, content types.String, diags *diag.Diagnostics) {
	if !kit.Known(content) {
		return
	}
	limit := messageMaxContent
	if settings, err := d.RealmSettings(ctx); err == nil && settings.MaxMessageLength > 0 {
		limit = settings.MaxMessageLength
	}
	if n := utf8.RuneCountInString(content.ValueString()); n > limit {
		diags.AddAttributeError(path.Root("content"), "Message Too Long",
			fmt.Sprintf("The content is %d characters long; this server keeps at most %d (max_message_length) and would cut "+
				"the rest, ending the message with \"[message truncated]\". Shorten it, or split it into several messages.", n, limit))
	}
}

// checkMessageTopic refuses a topic with outer whitespace, which Zulip strips.
func checkMessageTopic(s string) error {
	if strings.TrimFunc(s, kit.IsPythonSpace) != s {
		return errors.New("must not start or end with whitespace: Zulip strips it, so the plan would never settle")
	}
	return nil
}

// checkMessageRecipient accepts a user id or an e-mail address.
func checkMessageRecipient(s string) error {
	if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 || strings.Contains(s, "@") {
		return nil
	}
	return fmt.Errorf("%q is neither a user id nor an e-mail address", s)
}
