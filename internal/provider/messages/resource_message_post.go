package messages

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
)

var (
	_ resource.ResourceWithValidateConfig   = (*messagePostResource)(nil)
	_ resource.ResourceWithConfigValidators = (*messagePostResource)(nil)
	_ resource.ResourceWithModifyPlan       = (*messagePostResource)(nil)
)

// NewMessagePostResource returns the zulip_message_post resource.
func NewMessagePostResource() resource.Resource {
	return &messagePostResource{InvocationBase: kit.InvocationBase{ResourceBase: kit.ResourceBase{Name: "message_post"}}}
}

// messagePostResource posts a message once (an invocation; destroying it
// only forgets: the message stays).
type messagePostResource struct {
	kit.InvocationBase
}

// messagePostResourceModel is the zulip_message_post state.
type messagePostResourceModel struct {
	ID          types.String `tfsdk:"id"`
	ChannelID   types.Int64  `tfsdk:"channel_id"`
	Topic       types.String `tfsdk:"topic"`
	ToUsers     types.Set    `tfsdk:"to_users"`
	Content     types.String `tfsdk:"content"`
	Triggers    types.Map    `tfsdk:"triggers"`
	MessageID   types.Int64  `tfsdk:"message_id"`
	URL         types.String `tfsdk:"url"`
	PerformedAt types.String `tfsdk:"performed_at"`
}

// Schema describes the resource.
func (r *messagePostResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replaceInt := []planmodifier.Int64{int64planmodifier.RequiresReplace()}
	replaceString := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: kit.InvocationDescription(
			"Posts a message as the account the provider is configured with (`POST /messages`), to a channel's topic "+
				"or directly to users: the invocation form of the action `zulip_send_message`, for Terraform before "+
				"1.14 and OpenTofu. A channel the account cannot see or that is archived, a topic the channel's topics "+
				"policy forbids, and empty or too long content fail the plan. The message is never edited afterwards "+
				"(use `zulip_message` for a message whose content Terraform keeps).",
			"the message stays posted"),
		Attributes: map[string]schema.Attribute{
			"id":           kit.InvocationIDAttribute(),
			"performed_at": kit.InvocationPerformedAtAttribute(),
			"triggers":     kit.InvocationTriggersAttribute(),
			"channel_id": schema.Int64Attribute{Optional: true, MarkdownDescription: messageChannelDescription,
				Validators: []validator.Int64{int64validator.AtLeast(1)}, PlanModifiers: replaceInt},
			"topic": schema.StringAttribute{Optional: true, MarkdownDescription: messageTopicDescription,
				Validators:    []validator.String{validators.String("a topic without leading or trailing whitespace", checkMessageTopic)},
				PlanModifiers: replaceString},
			"to_users": schema.SetAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: messageToUsersDescription,
				Validators: messageToUsersValidators(), PlanModifiers: []planmodifier.Set{setplanmodifier.RequiresReplace()}},
			"content": schema.StringAttribute{Required: true, MarkdownDescription: messageContentDescription,
				Validators:    []validator.String{validators.String("non-empty message text", checkMessageContent)},
				PlanModifiers: replaceString},
			"message_id": schema.Int64Attribute{Computed: true, MarkdownDescription: "The id of the message posted.",
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}},
			"url": schema.StringAttribute{Computed: true,
				MarkdownDescription: "A link to the message posted: the server's URL and `#narrow/near/<id>`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		},
	}
}

// ConfigValidators: a message goes to a channel or to users.
func (r *messagePostResource) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{resourcevalidator.ExactlyOneOf(path.MatchRoot("channel_id"), path.MatchRoot("to_users"))}
}

// ValidateConfig requires a topic with a channel, and none without.
func (r *messagePostResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	validateMessageConfig(ctx, req.Config, &resp.Diagnostics)
}

// ModifyPlan checks a new post's channel and topic against the server.
func (r *messagePostResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	// A performed post is never checked again; a replacement is planned with
	// a null prior state, so it is checked here like a new one.
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || !r.Data.KnowsServer() || !r.Data.HasCreds {
		return
	}
	checkMessagePlan(ctx, r.Data, req.Plan, &resp.Diagnostics)
}

// Create posts the message.
func (r *messagePostResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan messagePostResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	sent, ok := sendConfigured(ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	plan.ID = types.StringValue(kit.NewInvocationID())
	plan.MessageID = types.Int64Value(sent.ID)
	plan.URL = types.StringValue(messageURL(r.Data.Client, sent.ID))
	plan.PerformedAt = kit.InvocationNow()
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}
