package realm

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// featureLinkifierOrder is PATCH /realm/linkifiers (FL202).
const featureLinkifierOrder = 202

// NewLinkifierOrderResource returns the zulip_linkifier_order resource.
func NewLinkifierOrderResource() resource.Resource { return kit.NewOrderResource(linkifierOrder) }

// linkifierOrder is the order in which Zulip tries the linkifiers.
var linkifierOrder = &kit.OrderSpec{
	Name: "linkifier_order", Attr: "linkifiers", ObjectType: "linkifier", ImportID: "linkifiers",
	What: "linkifiers", Title: "Linkifier", Level: featureLinkifierOrder,
	Description: "The order in which Zulip tries the organization's linkifiers: where two patterns match the same " +
		"text, the first wins. Without this resource the order is the order of creation, which follows Terraform's " +
		"scheduling. Zulip takes only a complete order, so the plan names any linkifier the list lacks; a linkifier " +
		"created later goes last. Destroying the resource leaves the order as it is. Needs an organization " +
		"administrator and Zulip feature level 202 (Zulip 7.0). One per organization; import id: `linkifiers`.",
	AttrDescription: "The ids of every linkifier, first to last, e.g. `[zulip_linkifier.tickets.id, zulip_linkifier.commits.id]`.",
	List: func(ctx context.Context, d *kit.ProviderData, seen bool) ([]kit.OrderItem, error) {
		return kit.CollectionOrder(ctx, kit.LinkifierCollection(d), seen, func(all []zulip.Linkifier) []kit.OrderItem {
			out := make([]kit.OrderItem, len(all))
			for i, l := range all {
				out[i] = kit.OrderItem{ID: l.ID, Name: l.Pattern}
			}
			return out
		})
	},
	Reorder: func(ctx context.Context, d *kit.ProviderData, ids []int64) error {
		return kit.LinkifierCollection(d).Write(ctx, func(ctx context.Context) error {
			return d.Client.ReorderLinkifiers(ctx, ids)
		})
	},
}
