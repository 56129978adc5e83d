package kit

// The base of the provider's hand-written actions, as ResourceBase is of its
// resources: it names the type and receives the provider's data, so that no
// action writes its own Metadata and Configure. Data sources and ephemeral
// resources are declared whole (DataSource, Ephemeral), and so are the
// operations that are both an action and a resource (Operation).

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
)

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
