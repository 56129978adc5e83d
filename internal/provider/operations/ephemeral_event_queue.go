package operations

import (
	"context"
	"errors"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// eventQueueCloseTimeout bounds the deletion of the queue at Close.
const eventQueueCloseTimeout = 30 * time.Second

// eventQueueEphemeralResourceModel is the zulip_event_queue configuration and result.
type eventQueueEphemeralResourceModel struct {
	EventTypes        types.List   `tfsdk:"event_types"`
	FetchEventTypes   types.List   `tfsdk:"fetch_event_types"`
	QueueID           types.String `tfsdk:"queue_id"`
	LastEventID       types.Int64  `tfsdk:"last_event_id"`
	ZulipFeatureLevel types.Int64  `tfsdk:"zulip_feature_level"`
	ZulipVersion      types.String `tfsdk:"zulip_version"`
}

// eventQueue registers an event queue for the length of a Terraform run and
// deletes it afterwards: Close is handed the queue's id.
var eventQueue = &kit.Ephemeral[eventQueueEphemeralResourceModel]{Name: "event_queue", Open: openEventQueue,
	Kept:   func(m *eventQueueEphemeralResourceModel) string { return m.QueueID.ValueString() },
	Close:  closeEventQueue,
	Schema: eventQueueSchema(),
}

// eventQueueSchema describes the ephemeral resource.
func eventQueueSchema() schema.Schema {
	eventType := validators.String("must be a non-empty event type without surrounding whitespace", checkEventType)
	return schema.Schema{
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

// openEventQueue registers the queue.
func openEventQueue(ctx context.Context, d *kit.ProviderData, m *eventQueueEphemeralResourceModel, diags *diag.Diagnostics) {
	apiReq := eventQueueToAPI(ctx, *m, diags)
	if diags.HasError() {
		return
	}
	reg, err := d.Client.Register(ctx, apiReq)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Register Event Queue", "register an event queue", kit.RoleAny, err)
		return
	}
	if reg.QueueID == "" {
		diags.AddError("Unable to Register Event Queue",
			"The server answered the registration without a queue_id, which it does only for unauthenticated "+
				"spectators. Check that the provider's credentials are those of an account.")
		return
	}
	eventQueueFromAPI(reg, m)
	tflog.Info(ctx, "registered an event queue", map[string]any{"queue_id": reg.QueueID, "last_event_id": reg.LastEventID})
}

// closeEventQueue deletes the queue; one the server has already dropped is
// not an error.
func closeEventQueue(ctx context.Context, d *kit.ProviderData, queueID string, diags *diag.Diagnostics) {
	// Terraform may be stopping (Ctrl-C); the queue should still be deleted.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), eventQueueCloseTimeout)
	defer cancel()
	err := d.Client.DeleteQueue(ctx, queueID)
	switch {
	case err == nil:
		tflog.Info(ctx, "deleted the event queue", map[string]any{"queue_id": queueID})
	case zulip.IsBadEventQueue(err):
		tflog.Info(ctx, "the event queue was already gone (expired or deleted)", map[string]any{"queue_id": queueID})
	default:
		// The server drops idle queues after about ten minutes anyway, so a
		// failed deletion costs nothing lasting: a warning, not an error.
		diags.AddWarning("Unable to Delete Event Queue",
			"The provider could not delete event queue "+queueID+"; the server will drop it after about ten "+
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
