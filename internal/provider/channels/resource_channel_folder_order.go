package channels

import (
	"cmp"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// featureChannelFolderOrder is PATCH /channel_folders order (FL414).
const featureChannelFolderOrder = 414

// channelFolderOrder is the order of the organization's channel folders.
var channelFolderOrder = &kit.OrderSpec{
	Name: "channel_folder_order", Attr: "folders", ObjectType: "channel_folder", ImportID: "channel_folders",
	What: "channel folders", Title: "Channel Folder", Level: featureChannelFolderOrder,
	Description: "The order of the organization's channel folders in Zulip's left sidebar. Zulip takes " +
		"only a complete order: every folder, archived ones included, so the plan names any folder the list " +
		"lacks. Destroying the resource leaves the order as it is. Needs an organization administrator and " +
		"Zulip feature level 414 (Zulip 11.0). One per organization; import id: `channel_folders`.",
	AttrDescription: "The ids of every channel folder, first to last, e.g. `[zulip_channel_folder.a.id, zulip_channel_folder.b.id]`.",
	Objects: kit.Ordered(kit.ChannelFolderCollection, compareFolders,
		func(f zulip.ChannelFolder) kit.OrderItem { return kit.OrderItem{ID: f.ID, Name: f.Name} },
		(*zulip.Client).ReorderChannelFolders),
}

// compareFolders orders folders as Zulip shows them: by their order field,
// then by id.
func compareFolders(a, b zulip.ChannelFolder) int {
	ao, bo := int64(0), int64(0)
	if a.Order != nil {
		ao = *a.Order
	}
	if b.Order != nil {
		bo = *b.Order
	}
	return cmp.Or(cmp.Compare(ao, bo), cmp.Compare(a.ID, b.ID))
}
