package realm

import (
	"cmp"
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// codePlaygroundsDataModel is the data source's result.
type codePlaygroundsDataModel struct {
	Playgrounds []codePlaygroundRow `tfsdk:"playgrounds"`
}

// codePlaygroundRow is one playground of the list.
type codePlaygroundRow struct {
	ID               types.Int64  `tfsdk:"id"`
	Name             types.String `tfsdk:"name"`
	PygmentsLanguage types.String `tfsdk:"pygments_language"`
	URLTemplate      types.String `tfsdk:"url_template"`
}

// codePlaygroundsData lists the code playgrounds from the list the run
// reads once.
var codePlaygroundsData = &kit.DataSource[codePlaygroundsDataModel]{Name: "code_playgrounds", Level: featurePlaygroundTemplate, Read: readCodePlaygrounds,
	Schema: schema.Schema{
		MarkdownDescription: "The organization's code playgrounds, from `POST /register` (Zulip lists them nowhere " +
			"else), ordered by id. Any user can read them; the data source needs Zulip feature level 196 or newer, " +
			"as `zulip_code_playground` does. Use it to find playgrounds by language and name rather than by id, " +
			"e.g. `{ for p in data.zulip_code_playgrounds.all.playgrounds : p.pygments_language => p.name... }` " +
			"lists the playgrounds of each language, those made in the web app included.",
		Attributes: map[string]schema.Attribute{
			"playgrounds": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The playgrounds, by id.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":   kit.ComputedInt64("The playground's id."),
					"name": kit.ComputedString("The name the code block's menu shows, e.g. `Python playground`."),
					"pygments_language": kit.ComputedString("The language whose code blocks it opens, as Pygments names it " +
						"(e.g. `Python`)."),
					"url_template": kit.ComputedString("Where the code opens: an RFC 6570 URL template whose variable `code` " +
						"is the code block's content."),
				}}},
		},
	},
}

// readCodePlaygrounds fills the model from the playground list.
func readCodePlaygrounds(ctx context.Context, d *kit.ProviderData, m *codePlaygroundsDataModel, diags *diag.Diagnostics) {
	all, err := kit.PlaygroundCollection(d).List(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Code Playgrounds", "list the code playgrounds", kit.RoleAny, err)
		return
	}
	playgrounds := slices.SortedFunc(slices.Values(all), func(a, b zulip.Playground) int { return cmp.Compare(a.ID, b.ID) })
	m.Playgrounds = make([]codePlaygroundRow, 0, len(playgrounds))
	for _, p := range playgrounds {
		m.Playgrounds = append(m.Playgrounds, codePlaygroundRow{ID: types.Int64Value(p.ID), Name: types.StringValue(p.Name),
			PygmentsLanguage: types.StringValue(p.PygmentsLanguage), URLTemplate: types.StringValue(p.URLTemplate)})
	}
}
