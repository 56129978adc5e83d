package channels

import (
	"context"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*defaultChannelsResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*defaultChannelsResource)(nil)
)

// defaultChannelsID is the singleton's id and import id.
const defaultChannelsID = "default_channels"

// NewDefaultChannelsResource returns the zulip_default_channels resource.
func NewDefaultChannelsResource() resource.Resource {
	return &defaultChannelsResource{ResourceBase: kit.ResourceBase{Name: "default_channels"}}
}

// defaultChannelsResource is the organization's set of default channels.
type defaultChannelsResource struct {
	kit.ResourceBase
}

// defaultChannelsModel is the zulip_default_channels state.
type defaultChannelsModel struct {
	ID         types.String `tfsdk:"id"`
	ChannelIDs types.Set    `tfsdk:"channel_ids"`
}

// Schema describes the resource.
func (r *defaultChannelsResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The organization's default channels: exactly the channels new users are subscribed to " +
			"(authoritative: a default channel missing here stops being one). Zulip refuses private channels, and so does " +
			"the plan, naming them. Destroying the resource leaves the default channels as they are. Needs an " +
			"organization administrator. One per organization; import id: `default_channels`.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableString("Always `default_channels`."),
			"channel_ids": schema.SetAttribute{
				ElementType: types.Int64Type, Required: true,
				MarkdownDescription: "The ids of the default channels, e.g. `[zulip_channel.general.id]`; empty for none.",
			},
		},
	}
}

// cacheDefaultChannels is the cache key of the default channels' ids.
var cacheDefaultChannels = kit.StateKey(zulip.EventTypeDefaultStreams)

// defaultChannelIDs reads the default channels once per run (a change
// forgets them).
func defaultChannelIDs(ctx context.Context, d *kit.ProviderData) ([]int64, error) {
	resp, err := kit.State(ctx, d, zulip.EventTypeDefaultStreams)
	if err != nil {
		return nil, err
	}
	return resp.DefaultChannelIDs()
}

// ModifyPlan checks the role and that every channel can be a default one.
func (r *defaultChannelsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, ok := kit.Planned[defaultChannelsModel](ctx, req, &resp.Diagnostics)
	if !ok || !r.Data.KnowsServer() || !kit.Known(plan.ChannelIDs) || !r.Data.HasCreds {
		return
	}
	all, err := kit.ChannelCollection(r.Data).LastSeen(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read Channels", "list the channels", kit.RoleAny, err)
		return
	}
	at := path.Root("channel_ids")
	for _, id := range kit.KnownInt64s(plan.ChannelIDs) {
		i := slices.IndexFunc(all, func(c zulip.Channel) bool { return c.StreamID == id })
		switch {
		case i < 0:
			resp.Diagnostics.AddAttributeError(at, "Unknown Channel", fmt.Sprintf("No channel the provider's account can see has the id %d.", id))
		case all[i].IsArchived:
			resp.Diagnostics.AddAttributeError(at, "Archived Channel", fmt.Sprintf("The channel %q (id %d) is archived; an archived channel cannot be a default channel.", all[i].Name, id))
		case all[i].InviteOnly:
			resp.Diagnostics.AddAttributeError(at, "Private Channel", fmt.Sprintf("The channel %q (id %d) is private: Zulip refuses private default channels (\"Private channels cannot be made default.\").", all[i].Name, id))
		}
	}
}

// Create sets the default channels.
func (r *defaultChannelsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.put(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

// Update sets the default channels.
func (r *defaultChannelsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.put(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

// put makes the default channels those planned: one request per channel
// added or removed, from a fresh read.
func (r *defaultChannelsResource) put(ctx context.Context, p tfsdk.Plan, state *tfsdk.State, diags *diag.Diagnostics) {
	plan, ok := kit.Load[defaultChannelsModel](ctx, r.Data, p, diags)
	if !ok {
		return
	}
	var want []int64
	diags.Append(plan.ChannelIDs.ElementsAs(ctx, &want, false)...)
	// The change starts from the server's list as it is now, not as the run
	// first read it.
	err := r.Data.Cache.Write(ctx, cacheDefaultChannels, func(ctx context.Context) error {
		current, err := r.Data.Client.ListDefaultChannels(ctx)
		if err != nil {
			kit.AddAPIError(diags, "Unable to Set Default Channels", "read the default channels", kit.RoleAny, err)
			return err
		}
		for _, id := range kit.MissingFrom(want, current) {
			if err := r.Data.Client.AddDefaultChannel(ctx, id); err != nil {
				kit.AddAPIError(diags, "Unable to Set Default Channels", fmt.Sprintf("make channel %d a default channel", id), kit.RoleAdministrator, err)
				return err
			}
		}
		for _, id := range kit.MissingFrom(current, want) {
			if err := r.Data.Client.RemoveDefaultChannel(ctx, id); err != nil {
				kit.AddAPIError(diags, "Unable to Set Default Channels", fmt.Sprintf("remove channel %d from the default channels", id), kit.RoleAdministrator, err)
				return err
			}
		}
		return nil
	})
	if err != nil {
		return
	}
	plan.ID = types.StringValue(defaultChannelsID)
	diags.Append(state.Set(ctx, &plan)...)
}

// Read refreshes the default channels.
func (r *defaultChannelsResource) Read(ctx context.Context, _ resource.ReadRequest, resp *resource.ReadResponse) {
	if !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	ids, err := defaultChannelIDs(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read Default Channels", "read the default channels", kit.RoleAny, err)
		return
	}
	elems := make([]attr.Value, len(ids))
	for i, id := range ids {
		elems[i] = types.Int64Value(id)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &defaultChannelsModel{
		ID: types.StringValue(defaultChannelsID), ChannelIDs: types.SetValueMust(types.Int64Type, elems),
	})...)
}

// Delete leaves the default channels as they are.
func (r *defaultChannelsResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
}

// ImportState adopts the default channels.
func (r *defaultChannelsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID != defaultChannelsID {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("The default channels are imported with the id %s, got %q.", defaultChannelsID, req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), defaultChannelsID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("channel_ids"), types.SetValueMust(types.Int64Type, []attr.Value{}))...)
}
