package operations

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ ephemeral.EphemeralResourceWithClose = (*eventQueueEphemeralResource)(nil)
)

// privateQueueID is the private-data key under which Open hands the queue id to Close.
const privateQueueID = "queue"

// eventQueueCloseTimeout bounds the deletion of the queue at Close.
const eventQueueCloseTimeout = 30 * time.Second

// NewEventQueueEphemeralResource returns the zulip_event_queue ephemeral resource.
func NewEventQueueEphemeralResource() ephemeral.EphemeralResource {
	return &eventQueueEphemeralResource{EphemeralBase: kit.EphemeralBase{Name: "event_queue"}}
}

// eventQueueEphemeralResource registers an event queue for the length of a
// Terraform run and deletes it afterwards.
type eventQueueEphemeralResource struct {
	kit.EphemeralBase
}

// eventQueueEphemeralResourceModel is the zulip_event_queue configuration and result.
type eventQueueEphemeralResourceModel struct {
	EventTypes        types.List   `tfsdk:"event_types"`
	FetchEventTypes   types.List   `tfsdk:"fetch_event_types"`
	QueueID           types.String `tfsdk:"queue_id"`
	LastEventID       types.Int64  `tfsdk:"last_event_id"`
	ZulipFeatureLevel types.Int64  `tfsdk:"zulip_feature_level"`
	ZulipVersion      types.String `tfsdk:"zulip_version"`
}

// eventQueuePrivate is what Close needs, kept in the ephemeral resource's private data.
type eventQueuePrivate struct {
	QueueID string `json:"queue_id"`
}

// Schema describes the ephemeral resource.
func (e *eventQueueEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	eventType := validators.String("must be a non-empty event type without surrounding whitespace", checkEventType)
	resp.Schema = schema.Schema{
		MarkdownDescription: "An event queue registered on the Zulip server (`POST /register`) for the duration of " +
			"one Terraform run, and deleted (`DELETE /events`) when Terraform closes it; a queue that is already gone " +
			"by then (Zulip deletes queues left idle for about ten minutes) is not an error. Its `queue_id` and " +
			"`last_event_id` are what a program needs to long-poll `GET /events` for the events that happen while " +
			"Terraform works, for example from a `local-exec` provisioner. Nothing of it is written to the plan or " +
			"the state. Needs Terraform 1.10 or newer, and credentials (any role).",
		Attributes: map[string]schema.Attribute{
			"event_types": schema.ListAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "The event types the queue receives, such as `message`, `subscription` or " +
					"`realm_user`. Left out, the queue receives every type; an empty list, none. Zulip ignores " +
					"types it does not know.",
				Validators: []validator.List{listvalidator.ValueStringsAre(eventType)},
			},
			"fetch_event_types": schema.ListAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "The types whose initial state the server fetches along with the " +
					"registration, when they should differ from `event_types`. This ephemeral resource exposes " +
					"none of that state, so the only reason to set it is to keep the registration cheap: " +
					"`[]` fetches nothing.",
				Validators: []validator.List{listvalidator.ValueStringsAre(eventType)},
			},
			"queue_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The id of the registered queue, for `GET /events`.",
			},
			"last_event_id": schema.Int64Attribute{
				Computed: true,
				MarkdownDescription: "The id of the last event the queue has seen when it was registered (`-1` for " +
					"a new queue): the `last_event_id` of the first `GET /events`.",
			},
			"zulip_feature_level": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "The server's API feature level, as reported by the registration.",
			},
			"zulip_version": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The server's Zulip version, as reported by the registration.",
			},
		},
	}
}

// Open registers the queue.
func (e *eventQueueEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m eventQueueEphemeralResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !e.Data.Ready(&resp.Diagnostics) {
		return
	}
	apiReq := eventQueueToAPI(ctx, m, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	reg, err := e.Data.Client.Register(ctx, apiReq)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Register Event Queue", "register an event queue", kit.RoleAny, err)
		return
	}
	if reg.QueueID == "" {
		resp.Diagnostics.AddError("Unable to Register Event Queue",
			"The server answered the registration without a queue_id, which it does only for unauthenticated "+
				"spectators. Check that the provider's credentials are those of an account.")
		return
	}
	private, err := json.Marshal(eventQueuePrivate{QueueID: reg.QueueID})
	if err != nil {
		resp.Diagnostics.AddError("Unable to Record Event Queue", "The provider could not encode the queue id: "+err.Error())
		return
	}
	// Hand the id to Close before anything else can fail, so the queue is deleted.
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateQueueID, private)...)
	eventQueueFromAPI(reg, &m)
	tflog.Info(ctx, "registered an event queue", map[string]any{"queue_id": reg.QueueID, "last_event_id": reg.LastEventID})
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
}

// Close deletes the queue; one the server has already dropped is not an error.
func (e *eventQueueEphemeralResource) Close(ctx context.Context, req ephemeral.CloseRequest, resp *ephemeral.CloseResponse) {
	raw, diags := req.Private.GetKey(ctx, privateQueueID)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || len(raw) == 0 {
		return
	}
	var p eventQueuePrivate
	if err := json.Unmarshal(raw, &p); err != nil || p.QueueID == "" {
		tflog.Warn(ctx, "event queue private data unreadable; nothing to delete")
		return
	}
	if !e.Data.Ready(&resp.Diagnostics) {
		return
	}
	// Terraform may be stopping (Ctrl-C); the queue should still be deleted.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), eventQueueCloseTimeout)
	defer cancel()
	err := e.Data.Client.DeleteQueue(ctx, p.QueueID)
	switch {
	case err == nil:
		tflog.Info(ctx, "deleted the event queue", map[string]any{"queue_id": p.QueueID})
	case zulip.IsBadEventQueue(err):
		tflog.Info(ctx, "the event queue was already gone (expired or deleted)", map[string]any{"queue_id": p.QueueID})
	default:
		// The server drops idle queues after about ten minutes anyway, so a
		// failed deletion costs nothing lasting: a warning, not an error.
		resp.Diagnostics.AddWarning("Unable to Delete Event Queue",
			"The provider could not delete event queue "+p.QueueID+"; the server will drop it after about ten "+
				"minutes without use. Error: "+err.Error())
	}
}

// eventQueueToAPI builds the registration. A null list is not sent (the
// server's default), while an empty list is sent as [] (no types at all).
func eventQueueToAPI(ctx context.Context, m eventQueueEphemeralResourceModel, diags *diag.Diagnostics) zulip.RegisterRequest {
	var req zulip.RegisterRequest
	list := func(l types.List) []string {
		if l.IsNull() || l.IsUnknown() {
			return nil
		}
		out := []string{}
		diags.Append(l.ElementsAs(ctx, &out, false)...)
		return out
	}
	req.EventTypes = list(m.EventTypes)
	req.FetchEventTypes = list(m.FetchEventTypes)
	return req
}

// eventQueueFromAPI copies the registration's answer into the result.
func eventQueueFromAPI(reg *zulip.RegisterResponse, m *eventQueueEphemeralResourceModel) {
	m.QueueID = types.StringValue(reg.QueueID)
	m.LastEventID = types.Int64Value(reg.LastEventID)
	m.ZulipFeatureLevel = types.Int64Value(int64(reg.ZulipFeatureLevel))
	m.ZulipVersion = types.StringValue(reg.ZulipVersion)
}

// checkEventType rejects empty and padded event type names, which Zulip would
// silently ignore as unknown types.
func checkEventType(s string) error {
	if s == "" {
		return errors.New("must not be empty")
	}
	return kit.CheckNoOuterSpace(s)
}
