package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
)

var _ datasource.DataSourceWithConfigure = (*realmDataSource)(nil)

// NewRealmDataSource returns the zulip_realm data source.
func NewRealmDataSource() datasource.DataSource { return &realmDataSource{} }

// realmDataSource reads the organization's settings, as the zulip_realm
// resource names them, from the register snapshot the run reads once.
type realmDataSource struct {
	data *providerData
}

// Metadata names the data source.
func (d *realmDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_realm"
}

// Schema describes the data source: every setting of zulip_realm, computed.
func (d *realmDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The organization's URL."},
	}
	for _, sp := range realmspec.Settings {
		desc := sp.Description + " Null on servers that predate it."
		switch sp.Kind {
		case realmspec.Bool:
			attrs[sp.Name] = schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
		case realmspec.Count, realmspec.Channel:
			attrs[sp.Name] = schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
		case realmspec.AuthMethods:
			attrs[sp.Name] = schema.MapAttribute{ElementType: types.BoolType, Computed: true, MarkdownDescription: desc}
		case realmspec.Permission:
			attrs[sp.Name] = permissionDataAttribute(permissionSetting{name: sp.Name, level: sp.FL,
				what: strings.TrimSuffix(strings.TrimPrefix(sp.Description, "Who can "), ".")})
		default:
			attrs[sp.Name] = schema.StringAttribute{Computed: true, MarkdownDescription: desc}
		}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The organization's settings as the server reports them, spelled as `zulip_realm` spells " +
			"them, for use in other configuration. Any user can read them.",
		Attributes: attrs,
	}
}

// Configure receives the provider's data.
func (d *realmDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Read reads the settings.
func (d *realmDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !d.data.ready(&resp.Diagnostics) {
		return
	}
	current, ok := readSettings(ctx, d.data, realmTable, &resp.Diagnostics)
	if !ok {
		return
	}
	storeRealm(ctx, d.data, current, &resp.State, &resp.Diagnostics)
}
