package provider

// The bases of the provider's other kinds of types, as resourceBase is of
// its resources: each names its type and receives the provider's data, so
// that no data source, ephemeral resource or action writes its own Metadata
// and Configure.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
)

// dataSourceBase is embedded by every data source.
type dataSourceBase struct {
	// name is the type name without the provider's prefix, e.g. "channels".
	name string
	data *providerData
}

// Metadata names the data source.
func (b *dataSourceBase) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

// Configure receives the provider's data.
func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ephemeralBase is embedded by every ephemeral resource.
type ephemeralBase struct {
	name string
	data *providerData
}

// Metadata names the ephemeral resource.
func (b *ephemeralBase) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

// Configure receives the provider's data.
func (b *ephemeralBase) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	b.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// actionBase is embedded by every action.
type actionBase struct {
	name string
	data *providerData
}

// Metadata names the action.
func (b *actionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.name
}

// Configure receives the provider's data.
func (b *actionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	b.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}
