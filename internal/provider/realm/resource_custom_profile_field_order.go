package realm

import (
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// profileFieldOrder is the order of the custom profile fields on profiles.
var profileFieldOrder = &kit.OrderSpec{
	Name: "custom_profile_field_order", Attr: "fields", ObjectType: "custom_profile_field", ImportID: "custom_profile_fields",
	What: "custom profile fields", Title: "Custom Profile Field",
	Description: "The order of the organization's custom profile fields on users' profiles. Zulip takes only a " +
		"complete order, so the plan names any field the list lacks; a field created later goes last. Destroying " +
		"the resource leaves the order as it is. Needs an organization administrator. One per organization; " +
		"import id: `custom_profile_fields`.",
	AttrDescription: "The ids of every custom profile field, first to last, e.g. `[zulip_custom_profile_field.pronouns.id]`.",
	Objects: kit.Ordered(kit.ProfileFieldCollection, func(a, b zulip.CustomProfileField) int { return a.Order - b.Order },
		func(f zulip.CustomProfileField) kit.OrderItem { return kit.OrderItem{ID: f.ID, Name: f.Name} },
		(*zulip.Client).ReorderCustomProfileFields),
}
