package channels

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

// channelFoldersDataModel is the data source's argument and result.
type channelFoldersDataModel struct {
	IncludeArchived types.Bool         `tfsdk:"include_archived"`
	Folders         []channelFolderRow `tfsdk:"folders"`
}

// channelFolderRow is one folder of the list.
type channelFolderRow struct {
	ID          types.Int64  `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	Order       types.Int64  `tfsdk:"order"`
	IsArchived  types.Bool   `tfsdk:"is_archived"`
	CreatorID   types.Int64  `tfsdk:"creator_id"`
	DateCreated types.Int64  `tfsdk:"date_created"`
}

// channelFoldersData lists the organization's channel folders from the
// folder list the run reads once.
var channelFoldersData = &kit.DataSource[channelFoldersDataModel]{Name: "channel_folders", Level: featureChannelFolders, Read: readChannelFolders,
	Schema: channelFoldersSchema(),
}

// channelFoldersSchema describes the data source.
func channelFoldersSchema() schema.Schema {
	number := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	return schema.Schema{
		MarkdownDescription: "The organization's channel folders, from `GET /channel_folders`, in the order the web app " +
			"shows them. Any user can read them; they need Zulip feature level 389 or newer. Use it to put a channel " +
			"in a folder made in the web app by the folder's name instead of its id, e.g. " +
			"`folder_id = one([for f in data.zulip_channel_folders.all.folders : f.id if f.name == \"Engineering\"])`.",
		Attributes: map[string]schema.Attribute{
			"include_archived": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Whether archived folders are listed too (default false)."},
			"folders": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "The folders, by `order`, then by id.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":          number("The folder's id: a channel's `folder_id`."),
					"name":        kit.ComputedString("The folder's name."),
					"description": kit.ComputedString("What the folder holds (Zulip markdown)."),
					"order":       number("The folder's position (see `zulip_channel_folder_order`); null before feature level 414, where folders are listed by id."),
					"is_archived": kit.ComputedBool("Whether the folder is archived."),
					"creator_id":  number("The id of the user who made it; null when Zulip does not know."),
					"date_created": number("When it was made, in seconds since the Unix epoch; null when Zulip does " +
						"not know."),
				}}},
		},
	}
}

// readChannelFolders fills the model from the folder list.
func readChannelFolders(ctx context.Context, d *kit.ProviderData, m *channelFoldersDataModel, diags *diag.Diagnostics) {
	all, err := kit.ChannelFolderCollection(d).List(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Channel Folders", "list the channel folders", kit.RoleAny, err)
		return
	}
	all = slices.Clone(all)
	slices.SortStableFunc(all, compareFolders) // the web app's order
	m.Folders = []channelFolderRow{}
	for _, f := range all {
		if f.IsArchived && !m.IncludeArchived.ValueBool() {
			continue
		}
		m.Folders = append(m.Folders, channelFolderRow{ID: types.Int64Value(f.ID), Name: types.StringValue(f.Name),
			Description: types.StringValue(f.Description), Order: types.Int64PointerValue(f.Order),
			IsArchived: types.BoolValue(f.IsArchived), CreatorID: types.Int64PointerValue(f.CreatorID),
			DateCreated: types.Int64PointerValue(f.DateCreated)})
	}
}
