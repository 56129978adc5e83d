package channels

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*channelFolderResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*channelFolderResource)(nil)
)

// featureChannelFolders is the feature level of channel folders.
const featureChannelFolders = 389

// NewChannelFolderResource returns the zulip_channel_folder resource.
func NewChannelFolderResource() resource.Resource {
	return &channelFolderResource{ObjectResource: kit.ObjectResourceOf(&channelFolders)}
}

// channelFolderResource manages one channel folder.
type channelFolderResource struct {
	kit.ObjectResource[channelFolderModel, zulip.ChannelFolder]
}

// channelFolderModel is the zulip_channel_folder state.
type channelFolderModel struct {
	ID          types.Int64  `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
}

// Schema describes the resource.
func (r *channelFolderResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A channel folder, which groups channels in Zulip's left sidebar; a channel joins it " +
			"through `folder_id` of `zulip_channel`. Needs an organization administrator and Zulip feature level " +
			"389 (Zulip 11.0). Zulip never deletes a folder: destroying this resource **archives** it (its name stays " +
			"taken), and Zulip refuses while channels are in it: the error names them. Declaring the name of an " +
			"archived folder unarchives it.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableInt64("The folder's id."),
			"name": schema.StringAttribute{Required: true,
				MarkdownDescription: "The folder's name, unique in the organization regardless of case (archived folders included).",
				Validators:          []validator.String{stringvalidator.LengthBetween(1, 60)}},
			"description": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(""),
				MarkdownDescription: "What the folder holds (Zulip markdown). Default empty.",
				Validators:          []validator.String{stringvalidator.LengthAtMost(1024)}},
		},
	}
}

// ModifyPlan checks the level, the role, and a new folder's name.
func (r *channelFolderResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if kit.Unchanged(req) || !r.Data.KnowsServer() {
		return
	}
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || resp.Diagnostics.HasError() || !r.Data.HasCreds {
		return
	}
	var plan channelFolderModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if !kit.Known(plan.Name) {
		return
	}
	all, err := kit.ChannelFolderCollection(r.Data).LastSeen(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read Channel Folders", "list the channel folders", kit.RoleAny, err)
		return
	}
	for _, f := range all {
		if strings.EqualFold(f.Name, plan.Name.ValueString()) {
			folderRetirement.Check(ctx, r.Data, path.Root("name"), f.ID, f.Name, f.IsArchived, &resp.Diagnostics)
			return
		}
	}
}

// folderRetirement words what a create does with the folder that holds its
// name: Zulip archives folders and keeps their names.
var folderRetirement = kit.Retirement{TypeName: "zulip_channel_folder", What: "channel folder", Short: "folder",
	Retired: "archived", Revived: "unarchived"}

// Create makes the folder, or unarchives the archived folder of that name.
func (r *channelFolderResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[channelFolderModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	name, description := plan.Name.ValueString(), plan.Description.ValueString()
	all, err := kit.ChannelFolderCollection(r.Data).LastSeen(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Create Channel Folder", "list the channel folders", kit.RoleAny, err)
		return
	}
	for _, f := range all {
		if f.IsArchived && strings.EqualFold(f.Name, name) {
			unarchive := false
			channelFolders.Revive(ctx, r.Data, folderRetirement, &plan, f.ID, f.Name, kit.RoleAdministrator, func(ctx context.Context) error {
				return kit.ChannelFolderCollection(r.Data).Write(ctx, func(ctx context.Context) error {
					return r.Data.Client.UpdateChannelFolder(ctx, f.ID, zulip.UpdateChannelFolderRequest{
						Name: &name, Description: &description, IsArchived: &unarchive})
				})
			}, resp)
			return
		}
	}
	key, ok := kit.Creation[channelFolderModel, zulip.ChannelFolder]{
		Objects: channelFolders,
		Send: func(ctx context.Context) (string, error) {
			id, err := r.Data.Client.CreateChannelFolder(ctx, zulip.CreateChannelFolderRequest{Name: name, Description: description})
			return strconv.FormatInt(id, 10), err
		},
		SameKey: func(f zulip.ChannelFolder) bool { return strings.EqualFold(f.Name, name) },
		Matches: func(f zulip.ChannelFolder) bool { return f.Name == name && f.Description == description },
	}.Create(ctx, r.Data, &resp.Diagnostics)
	if !ok {
		return
	}
	channelFolders.FinishCreate(ctx, r.Data, &plan, key, resp)
}

// Update renames the folder or changes its description.
func (r *channelFolderResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	channelFolders.Update(ctx, r.Data, req, resp, func(ctx context.Context, plan, state *channelFolderModel, _ *diag.Diagnostics) error {
		var update zulip.UpdateChannelFolderRequest
		if !plan.Name.Equal(state.Name) {
			update.Name = plan.Name.ValueStringPointer()
		}
		if !plan.Description.Equal(state.Description) {
			update.Description = plan.Description.ValueStringPointer()
		}
		return r.Data.Client.UpdateChannelFolder(ctx, state.ID.ValueInt64(), update)
	})
}

// Delete archives the folder; while channels are in it Zulip refuses, and
// the error names them.
func (r *channelFolderResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[channelFolderModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueInt64()
	archive := true
	// The run's list keeps the folder, archived as Zulip keeps it, so that the
	// create of a replacement planned after this delete unarchives it.
	err := kit.ChannelFolderCollection(r.Data).WriteKnown(ctx, func(ctx context.Context) (func([]zulip.ChannelFolder) []zulip.ChannelFolder, error) {
		if err := r.Data.Client.UpdateChannelFolder(ctx, id, zulip.UpdateChannelFolderRequest{IsArchived: &archive}); err != nil {
			return nil, err
		}
		return func(list []zulip.ChannelFolder) []zulip.ChannelFolder {
			return kit.ChangedIn(list, func(f *zulip.ChannelFolder) bool { return f.ID == id }, func(f *zulip.ChannelFolder) { f.IsArchived = true })
		}, nil
	})
	if err == nil || zulip.IsNotFound(err) {
		return
	}
	if in := r.channelsIn(ctx, id); len(in) > 0 {
		resp.Diagnostics.AddError("Channel Folder In Use",
			fmt.Sprintf("Zulip cannot archive channel folder %q while channels are in it: %s. Move them out first "+
				"(folder_id of their zulip_channel), then destroy the folder. Server said: %s",
				state.Name.ValueString(), strings.Join(in, ", "), err))
		return
	}
	kit.AddAPIError(&resp.Diagnostics, "Unable to Archive Channel Folder", "archive the channel folder", kit.RoleAdministrator, err)
}

// channelsIn names the channels in a folder, from a fresh read.
func (r *channelFolderResource) channelsIn(ctx context.Context, folder int64) []string {
	list, err := kit.ChannelCollection(r.Data).ReadBack(ctx)
	if err != nil {
		return nil
	}
	var out []string
	for _, c := range list {
		if c.FolderID != nil && *c.FolderID == folder {
			out = append(out, fmt.Sprintf("#%s (id %d)", c.Name, c.StreamID))
		}
	}
	return out
}

// channelFolders is the kit's skeleton for zulip_channel_folder.
var channelFolders = kit.Objects[channelFolderModel, zulip.ChannelFolder]{
	TypeName: "zulip_channel_folder", What: "channel folder", Role: kit.RoleAdministrator,
	Coll: func(d *kit.ProviderData) *kit.Collection[zulip.ChannelFolder] {
		c := kit.ChannelFolderCollection(d)
		c.Filter = func(f zulip.ChannelFolder) bool { return !f.IsArchived }
		return c
	},
	IDOf: func(f zulip.ChannelFolder) int64 { return f.ID },
	ID:   func(m *channelFolderModel) *types.Int64 { return &m.ID },
	FromAPI: kit.WithoutData(func(_ context.Context, f zulip.ChannelFolder, m *channelFolderModel, _ *diag.Diagnostics) {
		m.ID, m.Name, m.Description = types.Int64Value(f.ID), types.StringValue(f.Name), types.StringValue(f.Description)
	}),
	ImportHint: "A channel folder is imported by its name or its numeric id (GET /api/v1/channel_folders lists them).",
	Lookup: kit.ByNameOrID("zulip_channel_folder", func(f zulip.ChannelFolder) int64 { return f.ID },
		func(f zulip.ChannelFolder) string { return f.Name }, true),
}
