package kit

// Attributes of data sources that only report what the server holds.

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ComputedString is a data source's string attribute that the server fills.
func ComputedString(description string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: description}
}

// ComputedBool is a data source's bool attribute that the server fills.
func ComputedBool(description string) schema.BoolAttribute {
	return schema.BoolAttribute{Computed: true, MarkdownDescription: description}
}

// ComputedInt64 is a data source's number attribute that the server fills.
func ComputedInt64(description string) schema.Int64Attribute {
	return schema.Int64Attribute{Computed: true, MarkdownDescription: description}
}

// ObjectTypeOf is the object type whose attributes are these (a nested
// attribute's or block's, of a data source or a resource): the type a value of
// the nested object is built with, taken from the schema so that it cannot
// drift from what the schema declares.
func ObjectTypeOf[A interface{ GetType() attr.Type }](attributes map[string]A) types.ObjectType {
	attrTypes := make(map[string]attr.Type, len(attributes))
	for name, a := range attributes {
		attrTypes[name] = a.GetType()
	}
	return types.ObjectType{AttrTypes: attrTypes}
}
