package messages

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/actionvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
)

var (
	_ action.ActionWithModifyPlan       = (*sendMessageAction)(nil)
	_ action.ActionWithValidateConfig   = (*sendMessageAction)(nil)
	_ action.ActionWithConfigValidators = (*sendMessageAction)(nil)
)

// NewSendMessageAction returns the zulip_send_message action.
func NewSendMessageAction() action.Action {
	return &sendMessageAction{ActionBase: kit.ActionBase{Name: "send_message"}}
}

// sendMessageAction posts a message each time it is invoked: the action form
// of the invocation resource zulip_message_post, which stays for Terraform
// before 1.14.
type sendMessageAction struct {
	kit.ActionBase
}

// sendMessageModel is the action's configuration (and the invocation
// resource's address and content).
type sendMessageModel struct {
	ChannelID types.Int64  `tfsdk:"channel_id"`
	Topic     types.String `tfsdk:"topic"`
	ToUsers   types.Set    `tfsdk:"to_users"`
	Content   types.String `tfsdk:"content"`
}

// Schema describes the action.
func (a *sendMessageAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Posts a message as the provider's account (`POST /messages`), to a channel's topic or " +
			"directly to users, each time it is invoked: by `terraform apply -invoke=action.zulip_send_message.<name>` " +
			"or by an `action_trigger`. The progress output shows the message's link. A channel the account cannot see " +
			"or that is archived, a topic the channel's topics policy forbids, and empty or too long content fail the " +
			"plan. Nothing is kept in state, and the message is never edited or deleted (use the resource " +
			"`zulip_message` for a message whose content Terraform keeps). Needs Terraform 1.14 or newer; before, the " +
			"resource `zulip_message_post` does the same once.",
		Attributes: map[string]schema.Attribute{
			"channel_id": schema.Int64Attribute{Optional: true, MarkdownDescription: messageChannelDescription,
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"topic": schema.StringAttribute{Optional: true, MarkdownDescription: messageTopicDescription,
				Validators: []validator.String{validators.String("a topic without leading or trailing whitespace", checkMessageTopic)}},
			"to_users": schema.SetAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: messageToUsersDescription,
				Validators: messageToUsersValidators()},
			"content": schema.StringAttribute{Required: true, MarkdownDescription: messageContentDescription,
				Validators: []validator.String{validators.String("non-empty message text", checkMessageContent)}},
		},
	}
}

// ConfigValidators: a message goes to a channel or to users.
func (a *sendMessageAction) ConfigValidators(context.Context) []action.ConfigValidator {
	return []action.ConfigValidator{actionvalidator.ExactlyOneOf(path.MatchRoot("channel_id"), path.MatchRoot("to_users"))}
}

// ValidateConfig requires a topic with a channel, and none without.
func (a *sendMessageAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	validateMessageConfig(ctx, req.Config, &resp.Diagnostics)
}

// ModifyPlan checks the channel and topic against the server, as the
// resource does.
func (a *sendMessageAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.Data != nil && a.Data.KnowsServer() && a.Data.HasCreds {
		checkMessagePlan(ctx, a.Data, req.Config, &resp.Diagnostics)
	}
}

// Invoke posts the message, saying so as it goes, with its link.
func (a *sendMessageAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	resp.SendProgress(action.InvokeProgressEvent{Message: "Sending a message " + messageDestination(readMessage(ctx, req.Config, &resp.Diagnostics))})
	if sent, ok := sendConfigured(ctx, a.Data, req.Config, &resp.Diagnostics); ok {
		resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf("Message %d sent: %s", sent.ID, messageURL(a.Data.Client, sent.ID))})
	}
}

// messageDestination says where a message goes, for progress output.
func messageDestination(m sendMessageModel) string {
	if !m.ChannelID.IsNull() {
		return fmt.Sprintf("to channel %d, topic %q", m.ChannelID.ValueInt64(), m.Topic.ValueString())
	}
	return fmt.Sprintf("directly to %d user(s)", len(kit.KnownStrings(m.ToUsers)))
}
