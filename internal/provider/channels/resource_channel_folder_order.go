package channels

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// featureChannelFolderOrder is PATCH /channel_folders order (FL414).
const featureChannelFolderOrder = 414

// NewChannelFolderOrderResource returns the zulip_channel_folder_order resource.
func NewChannelFolderOrderResource() resource.Resource {
	return kit.NewOrderResource(channelFolderOrder)
}

// channelFolderOrder is the order of the organization's channel folders.
var channelFolderOrder = &kit.OrderSpec{
	Name: "channel_folder_order", Attr: "folders", ObjectType: "channel_folder", ImportID: "channel_folders",
	What: "channel folders", Title: "Channel Folder", Level: featureChannelFolderOrder,
	Description: "The order of the organization's channel folders in Zulip's left sidebar. Zulip takes " +
		"only a complete order: every folder, archived ones included, so the plan names any folder the list " +
		"lacks. Destroying the resource leaves the order as it is. Needs an organization administrator and " +
		"Zulip feature level 414 (Zulip 11.0). One per organization; import id: `channel_folders`.",
	AttrDescription: "The ids of every channel folder, first to last, e.g. `[zulip_channel_folder.a.id, zulip_channel_folder.b.id]`.",
	List: func(ctx context.Context, d *kit.ProviderData, seen bool) ([]kit.OrderItem, error) {
		return kit.CollectionOrder(ctx, kit.ChannelFolderCollection(d), seen, folderOrder)
	},
	Reorder: func(ctx context.Context, d *kit.ProviderData, ids []int64) error {
		return kit.ChannelFolderCollection(d).Write(ctx, func(ctx context.Context) error {
			return d.Client.ReorderChannelFolders(ctx, ids)
		})
	},
}

// folderOrder is the folders in their display order (the order field, then id).
func folderOrder(all []zulip.ChannelFolder) []kit.OrderItem {
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
	out := make([]kit.OrderItem, len(sorted))
	for i, f := range sorted {
		out[i] = kit.OrderItem{ID: f.ID, Name: f.Name}
	}
	return out
}
