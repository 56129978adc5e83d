package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// featureLinkifierOrder is PATCH /realm/linkifiers (FL202).
const featureLinkifierOrder = 202

// NewLinkifierOrderResource returns the zulip_linkifier_order resource.
func NewLinkifierOrderResource() resource.Resource { return newOrderResource(linkifierOrder) }

// linkifierOrder is the order in which Zulip tries the linkifiers.
var linkifierOrder = &orderSpec{
	name: "linkifier_order", attr: "linkifiers", objectType: "linkifier", importID: "linkifiers",
	what: "linkifiers", title: "Linkifier", level: featureLinkifierOrder,
	description: "The order in which Zulip tries the organization's linkifiers: where two patterns match the same " +
		"text, the first wins. Without this resource the order is the order of creation, which follows Terraform's " +
		"scheduling. Zulip takes only a complete order, so the plan names any linkifier the list lacks; a linkifier " +
		"created later goes last. Destroying the resource leaves the order as it is. Needs an organization " +
		"administrator and Zulip feature level 202 (Zulip 7.0). One per organization; import id: `linkifiers`.",
	attrDescription: "The ids of every linkifier, first to last, e.g. `[zulip_linkifier.tickets.id, zulip_linkifier.commits.id]`.",
	list: func(ctx context.Context, d *providerData, seen bool) ([]orderItem, error) {
		return collectionOrder(ctx, linkifierCollection(d), seen, func(all []zulip.Linkifier) []orderItem {
			out := make([]orderItem, len(all))
			for i, l := range all {
				out[i] = orderItem{id: l.ID, name: l.Pattern}
			}
			return out
		})
	},
	reorder: func(ctx context.Context, d *providerData, ids []int64) error {
		return linkifierCollection(d).write(ctx, func(ctx context.Context) error {
			return d.client.ReorderLinkifiers(ctx, ids)
		})
	},
}
