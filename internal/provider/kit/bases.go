package kit

// The bases of the provider's ephemeral resources and actions, as
// ResourceBase is of its resources: each names its type and receives the
// provider's data, so that none writes its own Metadata and Configure. Data
// sources are declared whole (DataSource, data_source.go).

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
)

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
