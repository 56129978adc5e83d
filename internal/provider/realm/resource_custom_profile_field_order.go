package realm

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// NewCustomProfileFieldOrderResource returns the zulip_custom_profile_field_order resource.
func NewCustomProfileFieldOrderResource() resource.Resource {
	return kit.NewOrderResource(profileFieldOrder)
}

// profileFieldOrder is the order of the custom profile fields on profiles.
var profileFieldOrder = &kit.OrderSpec{
	Name: "custom_profile_field_order", Attr: "fields", ObjectType: "custom_profile_field", ImportID: "custom_profile_fields",
	What: "custom profile fields", Title: "Custom Profile Field",
	Description: "The order of the organization's custom profile fields on users' profiles. Zulip takes only a " +
		"complete order, so the plan names any field the list lacks; a field created later goes last. Destroying " +
		"the resource leaves the order as it is. Needs an organization administrator. One per organization; " +
		"import id: `custom_profile_fields`.",
	AttrDescription: "The ids of every custom profile field, first to last, e.g. `[zulip_custom_profile_field.pronouns.id]`.",
	List: func(ctx context.Context, d *kit.ProviderData, seen bool) ([]kit.OrderItem, error) {
		return kit.CollectionOrder(ctx, kit.ProfileFieldCollection(d), seen, func(all []zulip.CustomProfileField) []kit.OrderItem {
			sorted := slices.Clone(all)
			slices.SortStableFunc(sorted, func(a, b zulip.CustomProfileField) int { return a.Order - b.Order })
			out := make([]kit.OrderItem, len(sorted))
			for i, f := range sorted {
				out[i] = kit.OrderItem{ID: f.ID, Name: f.Name}
			}
			return out
		})
	},
	Reorder: func(ctx context.Context, d *kit.ProviderData, ids []int64) error {
		return kit.ProfileFieldCollection(d).Write(ctx, func(ctx context.Context) error {
			return d.Client.ReorderCustomProfileFields(ctx, ids)
		})
	},
}
