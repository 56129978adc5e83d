package kit

// The bases of the provider's other kinds of types, as ResourceBase is of
// its resources: each names its type and receives the provider's data, so
// that no data source, ephemeral resource or action writes its own Metadata
// and Configure.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
)

// DataSourceBase is embedded by every data source.
type DataSourceBase struct {
	// Name is the type name without the provider's prefix, e.g. "channels".
	Name string
	Data *ProviderData
	// Level is the feature level the data source needs, and AttrLevels the
	// level an argument needs when the configuration sets it (to anything
	// but false); ReadData refuses an older server, naming the level.
	Level      int
	AttrLevels map[string]int
	// NoAccount says the data source reads only what Zulip shows without an
	// account, so that a provider given only `url` can read it.
	NoAccount bool
}

// ReadData is a data source's Read: it reads the configuration into a
// model, refuses a server older than the data source or a set argument needs,
// lets fill complete the model from the server, and stores it unless fill
// reported an error.
func ReadData[M any](ctx context.Context, b *DataSourceBase, req datasource.ReadRequest, resp *datasource.ReadResponse,
	fill func(context.Context, *M, *diag.Diagnostics)) {
	var m M
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !b.ready(&resp.Diagnostics) {
		return
	}
	if b.Data.KnowsServer() && (!requireLevels(b.Data, "zulip_"+b.Name, b.Level, b.AttrLevels, req.Config.Raw, true, &resp.Diagnostics) ||
		resp.Diagnostics.HasError()) {
		return
	}
	fill(ctx, &m, &resp.Diagnostics)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}

// Metadata names the data source.
func (b *DataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.Name
}

// Configure receives the provider's data.
func (b *DataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.Data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ready reports whether the provider can read the data source.
func (b *DataSourceBase) ready(diags *diag.Diagnostics) bool {
	if b.NoAccount && b.Data != nil && b.Data.Client != nil {
		return true
	}
	return b.Data.Ready(diags)
}

// EphemeralBase is embedded by every ephemeral resource.
type EphemeralBase struct {
	Name string
	Data *ProviderData
}

// Metadata names the ephemeral resource.
func (b *EphemeralBase) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.Name
}

// Configure receives the provider's data.
func (b *EphemeralBase) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	b.Data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ActionBase is embedded by every action.
type ActionBase struct {
	Name string
	Data *ProviderData
}

// Metadata names the action.
func (b *ActionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.Name
}

// Configure receives the provider's data.
func (b *ActionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	b.Data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}
