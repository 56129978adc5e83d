package realm

import (
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// featureLinkifierOrder is PATCH /realm/linkifiers (FL202).
const featureLinkifierOrder = 202

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
	Objects: kit.Ordered(kit.LinkifierCollection, nil,
		func(l zulip.Linkifier) kit.OrderItem { return kit.OrderItem{ID: l.ID, Name: l.Pattern} },
		(*zulip.Client).ReorderLinkifiers),
}
