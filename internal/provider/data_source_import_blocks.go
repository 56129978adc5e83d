package provider

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

type importBlocksModel struct {
	Types  types.Set    `tfsdk:"types"`
	Text   types.String `tfsdk:"text"`
	Blocks types.List   `tfsdk:"blocks"`
}

var importBlockAttrTypes = map[string]attr.Type{"to": types.StringType, "id": types.StringType}

// importBlocksData writes the import blocks of a whole organization:
// the path to adopting everything on Terraform before 1.14, which has no
// `terraform query`. Each type's collection is read once.
var importBlocksData = &kit.DataSource[importBlocksModel]{Name: "import_blocks", Read: readImportBlocks,
	Schema: importBlocksSchema(),
}

// importBlocksSchema describes the data source.
func importBlocksSchema() schema.Schema {
	var names []string
	for _, s := range importSources {
		if !s.ListOnly {
			names = append(names, s.TypeName)
		}
	}
	return schema.Schema{
		MarkdownDescription: "The `import` blocks that adopt a whole organization, for Terraform before 1.14 (which has no " +
			"`terraform query`): write `text` to a file, then run `terraform plan -generate-config-out=generated.tf` and " +
			"apply. Covers the organization's settings and defaults, allowed domains, linkifiers and their order, code " +
			"playgrounds, custom profile fields and their order, custom emoji, user groups (not system ones) and their " +
			"members, channel folders and their order, channels (not archived) and their subscribers, the default " +
			"channels, active users and bots, and the saved snippets and topic preferences of the provider's own account. " +
			"Each type's collection is read once. Resource names come from each object's name, " +
			"made into Terraform identifiers.",
		Attributes: map[string]schema.Attribute{
			"types": schema.SetAttribute{ElementType: types.StringType, Optional: true,
				MarkdownDescription: "The resource types to import; all of them when left out. One of " + kit.QuoteAllCode(names) + ".",
				Validators:          []validator.Set{setvalidator.ValueStringsAre(stringvalidator.OneOf(names...))}},
			"text": kit.ComputedString("The import blocks, as Terraform configuration."),
			"blocks": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The same blocks as values.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"to": kit.ComputedString("The resource address, e.g. `zulip_channel.general`."),
					"id": kit.ComputedString("The import id."),
				}}},
		},
	}
}

// readImportBlocks fills the model from the server.
func readImportBlocks(ctx context.Context, d *kit.ProviderData, m *importBlocksModel, diags *diag.Diagnostics) {
	wanted := map[string]bool{}
	for _, e := range m.Types.Elements() {
		if s, ok := e.(types.String); ok {
			wanted[s.ValueString()] = true
		}
	}
	var text strings.Builder
	var blocks []attr.Value
	for _, src := range importSources {
		if src.ListOnly || len(wanted) > 0 && !wanted[src.TypeName] {
			continue
		}
		targets, err := src.List(ctx, d, kit.FilterValues{})
		if err != nil {
			kit.AddAPIError(diags, "Unable to List "+src.TypeName, "list the objects to import", kit.RoleAny, err)
			return
		}
		taken := map[string]bool{}
		for _, t := range targets {
			to := src.TypeName + "." + uniqueIdentifier(t.Name, taken)
			fmt.Fprintf(&text, "import {\n  to = %s\n  id = %s\n}\n\n", to, strconv.Quote(t.ID))
			blocks = append(blocks, types.ObjectValueMust(importBlockAttrTypes, map[string]attr.Value{
				"to": types.StringValue(to), "id": types.StringValue(t.ID)}))
		}
	}
	m.Text = types.StringValue(text.String())
	m.Blocks = types.ListValueMust(types.ObjectType{AttrTypes: importBlockAttrTypes}, blocks)
}

// notIdentifier matches what a Terraform name cannot hold.
var notIdentifier = regexp.MustCompile(`[^a-z0-9_]+`)

// uniqueIdentifier makes a name a Terraform identifier (lowercase letters,
// digits and underscores, not starting with a digit), unique among taken.
func uniqueIdentifier(name string, taken map[string]bool) string {
	id := strings.Trim(notIdentifier.ReplaceAllString(strings.ToLower(name), "_"), "_")
	if id == "" || (id[0] >= '0' && id[0] <= '9') {
		id = "x_" + id
	}
	unique := id
	for n := 2; taken[unique]; n++ {
		unique = id + "_" + strconv.Itoa(n)
	}
	taken[unique] = true
	return unique
}
