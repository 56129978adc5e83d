package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// NewCustomProfileFieldOrderResource returns the zulip_custom_profile_field_order resource.
func NewCustomProfileFieldOrderResource() resource.Resource {
	return newOrderResource(profileFieldOrder)
}

// profileFieldCollection is the organization's custom profile fields, read
// once per run (the same cache entry as the profile data's).
func profileFieldCollection(d *providerData) *collection[zulip.CustomProfileField] {
	return newCollection(d, cacheProfileDataFields, d.client.ListCustomProfileFields)
}

// profileFieldOrder is the order of the custom profile fields on profiles.
var profileFieldOrder = &orderSpec{
	name: "custom_profile_field_order", attr: "fields", objectType: "custom_profile_field", importID: "custom_profile_fields",
	what: "custom profile fields", title: "Custom Profile Field",
	description: "The order of the organization's custom profile fields on users' profiles. Zulip takes only a " +
		"complete order, so the plan names any field the list lacks; a field created later goes last. Destroying " +
		"the resource leaves the order as it is. Needs an organization administrator. One per organization; " +
		"import id: `custom_profile_fields`.",
	attrDescription: "The ids of every custom profile field, first to last, e.g. `[zulip_custom_profile_field.pronouns.id]`.",
	list: func(ctx context.Context, d *providerData, seen bool) ([]orderItem, error) {
		return collectionOrder(ctx, profileFieldCollection(d), seen, func(all []zulip.CustomProfileField) []orderItem {
			sorted := slices.Clone(all)
			slices.SortStableFunc(sorted, func(a, b zulip.CustomProfileField) int { return a.Order - b.Order })
			out := make([]orderItem, len(sorted))
			for i, f := range sorted {
				out[i] = orderItem{id: f.ID, name: f.Name}
			}
			return out
		})
	},
	reorder: func(ctx context.Context, d *providerData, ids []int64) error {
		return profileFieldCollection(d).write(ctx, func(ctx context.Context) error {
			return d.client.ReorderCustomProfileFields(ctx, ids)
		})
	},
}
