package kit

// Attributes of resources that recur across types.

import (
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
)

// StableInt64 is a resource's number that the configuration does not set and
// that is settled once the object exists (an id the server assigns, when it
// was made, who made it): computed, and in every later plan the state's value,
// not "known after apply".
func StableInt64(description string) schema.Int64Attribute {
	return schema.Int64Attribute{Computed: true, MarkdownDescription: description,
		PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}}
}

// StableString is StableInt64's string form (an id the provider derives from
// the arguments, a link the server made).
func StableString(description string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: description,
		PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
}

// RequiresReplaceString is the plan modifiers of a string argument whose
// change replaces the object (Zulip cannot change it in place).
func RequiresReplaceString() []planmodifier.String {
	return []planmodifier.String{stringplanmodifier.RequiresReplace()}
}

// RequiresReplaceInt64 is RequiresReplaceString for a number.
func RequiresReplaceInt64() []planmodifier.Int64 {
	return []planmodifier.Int64{int64planmodifier.RequiresReplace()}
}

// RequiresReplaceBool is RequiresReplaceString for a bool.
func RequiresReplaceBool() []planmodifier.Bool {
	return []planmodifier.Bool{boolplanmodifier.RequiresReplace()}
}

// RequiresReplaceSet is RequiresReplaceString for a set.
func RequiresReplaceSet() []planmodifier.Set {
	return []planmodifier.Set{setplanmodifier.RequiresReplace()}
}
