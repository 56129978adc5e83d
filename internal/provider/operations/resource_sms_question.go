package operations

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/sms"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithModifyPlan = (*smsQuestionResource)(nil)
)

// NewSMSQuestionResource returns the zulip_sms_question resource.
func NewSMSQuestionResource() resource.Resource {
	return &smsQuestionResource{InvocationBase: kit.InvocationBase{ResourceBase: kit.ResourceBase{Name: "sms_question"}}}
}

// smsQuestionResource sends a question by SMS through the conversations API
// (an invocation). It holds the provider data, not an SMS client: the client
// is built when a question is sent, so that a configuration without SMS
// credentials fails only if it actually has a question to send.
type smsQuestionResource struct {
	kit.InvocationBase
}

// smsQuestionResourceModel is the zulip_sms_question state.
type smsQuestionResourceModel struct {
	ID           types.String `tfsdk:"id"`
	To           types.String `tfsdk:"to"`
	Message      types.String `tfsdk:"message"`
	ReplyURL     types.String `tfsdk:"reply_url"`
	Token        types.String `tfsdk:"token"`
	Lifetime     types.Int64  `tfsdk:"lifetime"`
	DelayAllowed types.Bool   `tfsdk:"delay_allowed"`
	Triggers     types.Map    `tfsdk:"triggers"`
	Status       types.String `tfsdk:"status"`
	From         types.String `tfsdk:"from"`
	Created      types.String `tfsdk:"created"`
	Expires      types.String `tfsdk:"expires"`
	Items        types.List   `tfsdk:"items"`
}

// Schema describes the resource.
func (r *smsQuestionResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attributes := smsQuestionInputAttributes()
	maps.Copy(attributes, smsQuestionOutputAttributes())
	attributes["triggers"] = kit.InvocationTriggersAttribute()
	resp.Schema = schema.Schema{
		MarkdownDescription: kit.InvocationDescription(
			"Sends a question by SMS through the SMS conversations API (46elks' *Conversations*, `POST /a1/conversations`): "+
				"the recipient's replies are posted to `reply_url`, with `token`. Typical use: ask an on-call "+
				"administrator to confirm a change that Terraform just made.\n\n"+
				"The API's credentials come from the provider's `sms` block or the `ZULIP_SMS_API_URL`, "+
				"`ZULIP_SMS_USERNAME` and `ZULIP_SMS_PASSWORD` environment variables; the provider still needs its `url`, "+
				"but no Zulip credentials are used by this resource.\n\n"+
				"A recipient can have only a few active conversations at once (3 by default): past that, sending fails, "+
				"unless `delay_allowed` is set, in which case the question is queued (`status` is `waiting`) until one "+
				"of them closes. The recorded `status` is the one the API answered when the question was sent; "+
				"it is not refreshed afterwards.",
			"an SMS, once sent, stays sent, and the conversation runs until it is answered or expires"),
		Attributes: attributes,
	}
}

// smsQuestionInputAttributes are the question as configured: its recipient,
// text, where the replies go and how long the conversation may wait.
func smsQuestionInputAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"to": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "The recipient's phone number in E.164 form: `+`, the country code and the number, e.g. `+46700000000`.",
			Validators:          []validator.String{validators.String("must be an E.164 phone number such as +46700000000", sms.ValidateE164)},
			PlanModifiers:       kit.RequiresReplaceString(),
		},
		"message": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "The text of the question.",
			Validators:          []validator.String{validators.String("must not be empty", checkNotBlank)},
			PlanModifiers:       kit.RequiresReplaceString(),
		},
		"reply_url": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "The absolute `http://` or `https://` URL the SMS API posts each reply to (a form with " +
				"`from`, `message`, `created` and `token`). It must be reachable from the SMS API.",
			Validators:    []validator.String{validators.String("must be an absolute http(s) URL", sms.ValidateReplyURL)},
			PlanModifiers: kit.RequiresReplaceString(),
		},
		"token": schema.StringAttribute{
			Optional:  true,
			Sensitive: true,
			MarkdownDescription: "A value of your choosing that the SMS API passes to `reply_url` with every reply, so " +
				"that the receiver can tell the replies to this question apart (and trust them). Sensitive.",
			PlanModifiers: kit.RequiresReplaceString(),
		},
		"lifetime": schema.Int64Attribute{
			Optional: true,
			Computed: true,
			Default:  int64default.StaticInt64(sms.DefaultLifetimeHours),
			MarkdownDescription: fmt.Sprintf("Hours until the conversation closes by itself if nobody replies, "+
				"from %d to %d. Default %d.", sms.MinLifetimeHours, sms.MaxLifetimeHours, sms.DefaultLifetimeHours),
			Validators:    []validator.Int64{int64validator.Between(sms.MinLifetimeHours, sms.MaxLifetimeHours)},
			PlanModifiers: kit.RequiresReplaceInt64(),
		},
		"delay_allowed": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(false),
			MarkdownDescription: "Queue the question (`status` `waiting`) when the recipient already has the maximum " +
				"number of active conversations, instead of failing; it is sent when one of them closes. Default `false`.",
			PlanModifiers: kit.RequiresReplaceBool(),
		},
	}
}

// smsQuestionOutputAttributes are what the SMS API answered when the question
// was sent: the conversation's id, status, sender, times and SMSes.
func smsQuestionOutputAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": smsQuestionComputed("The conversation's id (`o…`), as the SMS API assigned it."),
		"status": smsQuestionComputed("The conversation's status when the question was sent: `started` (sent) or " +
			"`waiting` (queued, see `delay_allowed`). Not refreshed afterwards."),
		"from": smsQuestionComputed("The number the SMS API sent the question from (it chooses one itself); null while " +
			"the question is waiting."),
		"created": smsQuestionComputed("When the SMS API created the conversation (RFC 3339, UTC)."),
		"expires": smsQuestionComputed("When the conversation closes by itself if nobody replies (RFC 3339, UTC); null " +
			"while the question is waiting, since its lifetime starts when it is sent."),
		"items": schema.ListAttribute{
			ElementType:         types.StringType,
			Computed:            true,
			MarkdownDescription: "The ids (`s…`) of the SMSes of the conversation when the question was sent.",
			PlanModifiers:       []planmodifier.List{listplanmodifier.UseStateForUnknown()},
		},
	}
}

// smsQuestionComputed is a string the SMS API sets when the question is sent
// and that stays as it was afterwards.
func smsQuestionComputed(desc string) schema.StringAttribute {
	return schema.StringAttribute{
		Computed:            true,
		MarkdownDescription: desc,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
}

// ModifyPlan reports missing SMS credentials at plan time, when a question is
// about to be sent, rather than half-way through an apply.
func (r *smsQuestionResource) ModifyPlan(_ context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	// Destroying, or keeping an invocation already performed, sends nothing.
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || r.Data == nil || r.Data.UnknownConfig || r.Data.SMS.Unknown {
		return
	}
	if missing := r.Data.SMS.Missing(); missing != "" {
		addMissingSMSCredentials(&resp.Diagnostics, missing)
	}
}

// Create sends the question and records the API's answer.
func (r *smsQuestionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan smsQuestionResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	client := r.smsClient(&resp.Diagnostics)
	if client == nil {
		return
	}
	ctx = maskSMSSecrets(ctx, r.Data.SMS.Password, plan.Token.ValueString())
	q, err := client.SendQuestion(ctx, smsQuestionToAPI(plan))
	if err != nil {
		addSMSQuestionError(&resp.Diagnostics, err)
		return
	}
	smsQuestionFromAPI(ctx, q, &plan, &resp.Diagnostics)
	tflog.Info(ctx, "sent an SMS question", map[string]any{"id": q.ID, "status": q.Status})
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete only forgets: the API cannot unsend an SMS or close a conversation.
func (r *smsQuestionResource) Delete(ctx context.Context, req resource.DeleteRequest, _ *resource.DeleteResponse) {
	var id types.String
	_ = req.State.GetAttribute(ctx, path.Root("id"), &id)
	tflog.Info(ctx, "forgetting the SMS question; the conversation itself is left to run its course",
		map[string]any{"id": id.ValueString()})
}

// smsClient builds the SMS API client from the provider's resolved sms
// settings, or reports what is missing.
func (r *smsQuestionResource) smsClient(diags *diag.Diagnostics) *sms.Client {
	if r.Data == nil || r.Data.UnknownConfig {
		r.Data.Ready(diags) // reports why
		return nil
	}
	if missing := r.Data.SMS.Missing(); missing != "" {
		addMissingSMSCredentials(diags, missing)
		return nil
	}
	client, err := sms.New(sms.Config{
		APIURL:    r.Data.SMS.APIURL,
		Username:  r.Data.SMS.Username,
		Password:  r.Data.SMS.Password,
		UserAgent: zulip.UserAgent(r.Data.Version),
	})
	if err != nil {
		// sms.New's errors never quote the password.
		diags.AddError("Invalid SMS API Configuration", fmt.Sprintf(
			"The provider could not build its SMS API client from the `sms` block (or ZULIP_SMS_API_URL): %s", err))
		return nil
	}
	return client
}

// addMissingSMSCredentials explains where the SMS credentials come from.
func addMissingSMSCredentials(diags *diag.Diagnostics, missing string) {
	diags.AddError("Missing SMS API Credentials", fmt.Sprintf(
		"zulip_sms_question sends its question through the SMS conversations API, whose credentials are not "+
			"configured: %s missing. Set `username` and `password` (and `api_url` unless it is %s) in the provider's "+
			"`sms` block, or the ZULIP_SMS_USERNAME, ZULIP_SMS_PASSWORD and ZULIP_SMS_API_URL environment variables.",
		missing, sms.DefaultAPIURL))
}

// maskSMSSecrets hides the SMS password and the token from every log line
// written with the returned context, should either ever reach one.
func maskSMSSecrets(ctx context.Context, secrets ...string) context.Context {
	for _, s := range secrets {
		if s != "" {
			ctx = tflog.MaskAllFieldValuesStrings(ctx, s)
			ctx = tflog.MaskMessageStrings(ctx, s)
		}
	}
	return ctx
}

// smsQuestionToAPI builds the request from the plan.
func smsQuestionToAPI(m smsQuestionResourceModel) sms.QuestionRequest {
	return sms.QuestionRequest{
		To:            m.To.ValueString(),
		Message:       m.Message.ValueString(),
		ReplyURL:      m.ReplyURL.ValueString(),
		Token:         m.Token.ValueString(),
		LifetimeHours: int(m.Lifetime.ValueInt64()),
		DelayAllowed:  m.DelayAllowed.ValueBool(),
	}
}

// smsQuestionFromAPI records the API's answer in the computed attributes; the
// arguments stay as planned.
func smsQuestionFromAPI(ctx context.Context, q *sms.Question, m *smsQuestionResourceModel, diags *diag.Diagnostics) {
	m.ID = types.StringValue(q.ID)
	m.Status = types.StringValue(q.Status)
	m.From = kit.StringOrNull(&q.From)
	m.Created = timeOrNull(q.Created)
	m.Expires = timeOrNull(q.Expires)
	items := q.Items
	if items == nil {
		items = []string{}
	}
	list, d := types.ListValueFrom(ctx, types.StringType, items)
	diags.Append(d...)
	m.Items = list
}

// timeOrNull renders a time in RFC 3339 (UTC); the zero time is null.
func timeOrNull(t time.Time) types.String {
	if t.IsZero() {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339Nano))
}

// checkNotBlank rejects empty and whitespace-only text.
func checkNotBlank(s string) error {
	if strings.TrimSpace(s) == "" {
		return errors.New("must not be empty or only whitespace")
	}
	return nil
}

// addSMSQuestionError explains a failed send. Nothing is recorded, so the
// next apply tries again.
func addSMSQuestionError(diags *diag.Diagnostics, err error) {
	const summary = "Unable to Send SMS Question"
	var validation *sms.ValidationError
	if errors.As(err, &validation) {
		attr := validation.Field
		if attr != "to" && attr != "message" && attr != "reply_url" && attr != "lifetime" {
			attr = "to"
		}
		diags.AddAttributeError(path.Root(attr), summary, fmt.Sprintf("The question was not sent: %s", err))
		return
	}
	var apiErr *sms.APIError
	if !errors.As(err, &apiErr) {
		diags.AddError(summary, fmt.Sprintf(
			"The SMS API did not answer (%s). The question may or may not have been sent; nothing was recorded, so "+
				"the next apply sends it again. Check the conversation history of the SMS account first.", err))
		return
	}
	switch {
	case apiErr.HTTPStatus == http.StatusUnauthorized:
		diags.AddError(summary, fmt.Sprintf(
			"The SMS API rejected the credentials: check `username` and `password` in the provider's `sms` block "+
				"(or ZULIP_SMS_USERNAME and ZULIP_SMS_PASSWORD) and `api_url` (ZULIP_SMS_API_URL). API said: %s", apiErr.Message))
	case apiErr.HTTPStatus == http.StatusForbidden && strings.Contains(strings.ToLower(apiErr.Message), "active conversations"):
		diags.AddAttributeError(path.Root("delay_allowed"), summary, fmt.Sprintf(
			"The recipient already has as many active conversations as the SMS API allows (3 by default). Set "+
				"`delay_allowed = true` to queue the question until one of them closes, or wait until one is answered "+
				"or expires. API said: %s", apiErr.Message))
	case apiErr.HTTPStatus >= 500:
		diags.AddError(summary, fmt.Sprintf(
			"The SMS API failed (%s). The question may or may not have been sent; nothing was recorded, so the next "+
				"apply sends it again. Check the conversation history of the SMS account first.", err))
	default:
		diags.AddError(summary, fmt.Sprintf("The SMS API refused the question: %s", err))
	}
}
