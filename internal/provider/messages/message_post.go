package messages

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
)

// messagePost posts a message as the provider's account: the action
// zulip_send_message, and the invocation resource zulip_message_post, which
// stays for Terraform before 1.14 and OpenTofu (destroying it only forgets:
// the message stays).
var messagePost = &kit.Operation[sendMessageModel]{
	Action: "send_message", Resource: "message_post",
	ActionDescription: "Posts a message as the provider's account (`POST /messages`), to a channel's topic or " +
		"directly to users, each time it is invoked: by `terraform apply -invoke=action.zulip_send_message.<name>` " +
		"or by an `action_trigger`. The progress output shows the message's link. A channel the account cannot see " +
		"or that is archived, a topic the channel's topics policy forbids, and empty or too long content fail the " +
		"plan. Nothing is kept in state, and the message is never edited or deleted (use the resource " +
		"`zulip_message` for a message whose content Terraform keeps). Needs Terraform 1.14 or newer; before, the " +
		"resource `zulip_message_post` does the same once.",
	ResourceDescription: "Posts a message as the account the provider is configured with (`POST /messages`), to a channel's topic " +
		"or directly to users: the invocation form of the action `zulip_send_message`, for Terraform before " +
		"1.14 and OpenTofu. A channel the account cannot see or that is archived, a topic the channel's topics " +
		"policy forbids, and empty or too long content fail the plan. The message is never edited afterwards " +
		"(use `zulip_message` for a message whose content Terraform keeps).",
	Undo: "the message stays posted",
	Args: map[string]kit.OperationArg{
		"channel_id": {Kind: kit.ArgInt64, Description: messageChannelDescription,
			Int64: []validator.Int64{int64validator.AtLeast(1)}},
		"topic": {Kind: kit.ArgString, Description: messageTopicDescription,
			String: []validator.String{validators.String("a topic without leading or trailing whitespace", checkMessageTopic)}},
		"to_users": {Kind: kit.ArgStringSet, Description: messageToUsersDescription, Set: messageToUsersValidators()},
		"content": {Kind: kit.ArgString, Required: true, Description: messageContentDescription,
			String: []validator.String{validators.String("non-empty message text", checkMessageContent)}},
	},
	Outputs: map[string]kit.OperationOutput{
		"message_id": {Kind: kit.ArgInt64, Description: "The id of the message posted."},
		"url":        {Kind: kit.ArgString, Description: "A link to the message posted: the server's URL and `#narrow/near/<id>`."},
	},
	// A message goes to a channel or to users; a topic with a channel, and none without.
	ExactlyOneOf: []string{"channel_id", "to_users"},
	Validate: func(_ context.Context, m sendMessageModel, diags *diag.Diagnostics) {
		validateMessageAddress(m.ChannelID, m.Topic, m.ToUsers, diags)
	},
	CheckPlan: func(ctx context.Context, d *kit.ProviderData, m sendMessageModel, diags *diag.Diagnostics) map[string]attr.Value {
		if d.CanAsk() {
			checkMessage(ctx, d, m, diags)
		}
		return nil
	},
	Perform: func(ctx context.Context, c kit.Call[sendMessageModel], diags *diag.Diagnostics) map[string]attr.Value {
		c.Progress(ctx, "Sending a message %s", messageDestination(c.Args))
		sent, ok := sendMessage(ctx, c.Data, c.Args, diags)
		if !ok {
			return nil
		}
		url := messageURL(c.Data.Client, sent.ID)
		c.Progress(ctx, "Message %d sent: %s", sent.ID, url)
		return map[string]attr.Value{"message_id": types.Int64Value(sent.ID), "url": types.StringValue(url)}
	},
}

// sendMessageModel is a message's address and content: the arguments of
// zulip_send_message and zulip_message_post, and part of zulip_message.
type sendMessageModel struct {
	ChannelID types.Int64  `tfsdk:"channel_id"`
	Topic     types.String `tfsdk:"topic"`
	ToUsers   types.Set    `tfsdk:"to_users"`
	Content   types.String `tfsdk:"content"`
}

// messageDestination says where a message goes, for progress output.
func messageDestination(m sendMessageModel) string {
	if !m.ChannelID.IsNull() {
		return fmt.Sprintf("to channel %d, topic %q", m.ChannelID.ValueInt64(), m.Topic.ValueString())
	}
	return fmt.Sprintf("directly to %d user(s)", len(kit.KnownStrings(m.ToUsers)))
}
