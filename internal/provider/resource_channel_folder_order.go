package provider

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.Resource                = (*channelFolderOrderResource)(nil)
	_ resource.ResourceWithImportState = (*channelFolderOrderResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*channelFolderOrderResource)(nil)
)

// featureChannelFolderOrder is PATCH /channel_folders order (FL414).
const featureChannelFolderOrder = 414

// NewChannelFolderOrderResource returns the zulip_channel_folder_order resource.
func NewChannelFolderOrderResource() resource.Resource {
	return &channelFolderOrderResource{resourceBase: resourceBase{name: "channel_folder_order"}}
}

// channelFolderOrderResource is the order of the organization's channel
// folders: a singleton.
type channelFolderOrderResource struct {
	resourceBase
}

// channelFolderOrderModel is the zulip_channel_folder_order state.
type channelFolderOrderModel struct {
	ID      types.String `tfsdk:"id"`
	Folders types.List   `tfsdk:"folders"`
}

// Schema describes the resource.
func (r *channelFolderOrderResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The order of the organization's channel folders in Zulip's left sidebar. Zulip takes " +
			"only a complete order: every folder, archived ones included, so the plan names any folder the list " +
			"lacks. Destroying the resource leaves the order as it is. Needs an organization administrator and " +
			"Zulip feature level 414 (Zulip 11.0). One per organization; import id: `channel_folders`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "Always `channel_folders`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"folders": schema.ListAttribute{
				ElementType: types.Int64Type, Required: true,
				MarkdownDescription: "The ids of every channel folder, first to last, e.g. `[zulip_channel_folder.a.id, zulip_channel_folder.b.id]`.",
				Validators:          []validator.List{listvalidator.UniqueValues(), listvalidator.SizeAtLeast(1)},
			},
		},
	}
}

// ModifyPlan checks the level, the role, and that the order is complete.
func (r *channelFolderOrderResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || unchanged(req) || !r.data.knowsServer() {
		return
	}
	if err := r.data.requireFeatureLevel(featureChannelFolderOrder, "zulip_channel_folder_order"); err != nil {
		resp.Diagnostics.AddError("Zulip Server Too Old", err.Error())
		return
	}
	r.data.requireRole(ctx, roleAdministrator, "Ordering channel folders", path.Empty(), &resp.Diagnostics)
	var plan channelFolderOrderModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !known(plan.Folders) || !r.data.hasCreds {
		return
	}
	var ids []int64
	for _, v := range plan.Folders.Elements() {
		n, ok := v.(types.Int64)
		if !ok || !known(n) {
			return // a folder created by this apply: checked when known
		}
		ids = append(ids, n.ValueInt64())
	}
	all, err := channelFolderCollection(r.data).lastSeen(ctx)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to Read Channel Folders", "list the channel folders", roleAny, err)
		return
	}
	if missing, unknown := folderOrderGaps(all, ids); len(missing)+len(unknown) > 0 {
		resp.Diagnostics.AddAttributeError(path.Root("folders"), "Incomplete Channel Folder Order", folderOrderProblem(missing, unknown))
	}
}

// folderOrderGaps lists the folders an order lacks and the ids it names that
// are no folder.
func folderOrderGaps(all []zulip.ChannelFolder, ids []int64) (missing []string, unknown []int64) {
	for _, f := range all {
		if !slices.Contains(ids, f.ID) {
			missing = append(missing, fmt.Sprintf("%q (id %d)", f.Name, f.ID))
		}
	}
	for _, id := range ids {
		if !slices.ContainsFunc(all, func(f zulip.ChannelFolder) bool { return f.ID == id }) {
			unknown = append(unknown, id)
		}
	}
	sort.Strings(missing)
	return missing, unknown
}

// folderOrderProblem words what an incomplete order lacks.
func folderOrderProblem(missing []string, unknown []int64) string {
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "it lacks the folders "+strings.Join(missing, ", ")+" (Zulip takes only a complete order, archived folders included)")
	}
	if len(unknown) > 0 {
		s := make([]string, len(unknown))
		for i, id := range unknown {
			s[i] = strconv.FormatInt(id, 10)
		}
		parts = append(parts, "no channel folder has the ids "+strings.Join(s, ", "))
	}
	return "The order cannot be applied: " + strings.Join(parts, "; ") + "."
}

// Create sets the order.
func (r *channelFolderOrderResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.put(ctx, req.Plan, "Unable to Order Channel Folders", &resp.State, &resp.Diagnostics)
}

// Update sets the order.
func (r *channelFolderOrderResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.put(ctx, req.Plan, "Unable to Order Channel Folders", &resp.State, &resp.Diagnostics)
}

// put sends the planned order.
func (r *channelFolderOrderResource) put(ctx context.Context, p tfsdk.Plan, summary string, state *tfsdk.State, diags *diag.Diagnostics) {
	var plan channelFolderOrderModel
	diags.Append(p.Get(ctx, &plan)...)
	if diags.HasError() || !r.data.ready(diags) {
		return
	}
	var ids []int64
	diags.Append(plan.Folders.ElementsAs(ctx, &ids, false)...)
	err := channelFolderCollection(r.data).write(ctx, func(ctx context.Context) error {
		return r.data.client.ReorderChannelFolders(ctx, ids)
	})
	if err != nil {
		addAPIError(diags, summary, "order the channel folders", roleAdministrator, err)
		return
	}
	plan.ID = types.StringValue("channel_folders")
	diags.Append(state.Set(ctx, &plan)...)
}

// Read refreshes the order: the folders by their order field.
func (r *channelFolderOrderResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state channelFolderOrderModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
		return
	}
	all, err := channelFolderCollection(r.data).list(ctx)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to Read Channel Folders", "list the channel folders", roleAny, err)
		return
	}
	state.Folders = folderOrder(all)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// folderOrder is the folders' ids in their display order.
func folderOrder(all []zulip.ChannelFolder) types.List {
	sorted := slices.Clone(all)
	slices.SortStableFunc(sorted, func(a, b zulip.ChannelFolder) int {
		ao, bo := int64(0), int64(0)
		if a.Order != nil {
			ao = *a.Order
		}
		if b.Order != nil {
			bo = *b.Order
		}
		if ao != bo {
			return int(ao - bo)
		}
		return int(a.ID - b.ID)
	})
	ids := make([]attr.Value, len(sorted))
	for i, f := range sorted {
		ids[i] = types.Int64Value(f.ID)
	}
	return types.ListValueMust(types.Int64Type, ids)
}

// Delete leaves the order as it is.
func (r *channelFolderOrderResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
}

// ImportState adopts the order.
func (r *channelFolderOrderResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID != "channel_folders" {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("The channel folder order is imported with the id channel_folders, got %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), "channel_folders")...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("folders"), types.ListValueMust(types.Int64Type, []attr.Value{}))...)
}
