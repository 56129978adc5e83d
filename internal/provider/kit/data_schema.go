package kit

// Attributes of data sources that only report what the server holds.

import "github.com/hashicorp/terraform-plugin-framework/datasource/schema"

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
