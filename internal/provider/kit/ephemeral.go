package kit

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
)

// Ephemeral declares an ephemeral resource, as DataSource declares a data
// source: its name, whether it needs an account, its schema, and what opening
// and closing it do. New is the constructor an area registers.
type Ephemeral[M any] struct {
	// Name is the type name without the provider's prefix, e.g. "event_queue".
	Name string
	// NoAccount says it opens with what Zulip gives without an account, so
	// that a provider given only `url` can open it.
	NoAccount bool
	Schema    schema.Schema
	// Open fills the model, whose arguments the configuration has set, from
	// the server; the result is stored unless it reported an error.
	Open func(ctx context.Context, d *ProviderData, m *M, diags *diag.Diagnostics)
	// Kept is what Close needs of an opened model (an event queue's id), kept
	// in the resource's private data before the result is stored, and Close
	// undoes what Open made; both nil when there is nothing to undo.
	Kept  func(m *M) string
	Close func(ctx context.Context, d *ProviderData, kept string, diags *diag.Diagnostics)
}

// ephemeralKept is the private-data key of what Open keeps for Close (as
// JSON, which Terraform requires of private data).
const ephemeralKept = "kept"

// New returns the ephemeral resource, for the area's registry.
func (s *Ephemeral[M]) New() ephemeral.EphemeralResource { return &declaredEphemeral[M]{spec: s} }

// declaredEphemeral is an ephemeral resource that an Ephemeral declares.
type declaredEphemeral[M any] struct {
	spec *Ephemeral[M]
	data *ProviderData
}

var _ ephemeral.EphemeralResourceWithClose = (*declaredEphemeral[struct{}])(nil)

// Metadata names the ephemeral resource.
func (e *declaredEphemeral[M]) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + e.spec.Name
}

// Configure receives the provider's data.
func (e *declaredEphemeral[M]) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Schema describes the ephemeral resource.
func (e *declaredEphemeral[M]) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = e.spec.Schema
}

// Open reads the configuration into a model, checks that the provider can
// open the resource, lets the declared Open fill the model, keeps what Close
// needs of it, and stores the result.
func (e *declaredEphemeral[M]) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m M
	diags := &resp.Diagnostics
	diags.Append(req.Config.Get(ctx, &m)...)
	if diags.HasError() || !e.data.readyFor(e.spec.NoAccount, diags) {
		return
	}
	if e.spec.Open(ctx, e.data, &m, diags); diags.HasError() {
		return
	}
	if e.spec.Kept != nil {
		kept, _ := json.Marshal(e.spec.Kept(&m)) // a string always encodes
		diags.Append(resp.Private.SetKey(ctx, ephemeralKept, kept)...)
	}
	diags.Append(resp.Result.Set(ctx, &m)...)
}

// Close hands the declared Close what Open kept.
func (e *declaredEphemeral[M]) Close(ctx context.Context, req ephemeral.CloseRequest, resp *ephemeral.CloseResponse) {
	if e.spec.Close == nil {
		return
	}
	raw, diags := req.Private.GetKey(ctx, ephemeralKept)
	resp.Diagnostics.Append(diags...)
	var kept string
	if resp.Diagnostics.HasError() || json.Unmarshal(raw, &kept) != nil || kept == "" || !e.data.readyFor(e.spec.NoAccount, &resp.Diagnostics) {
		return
	}
	e.spec.Close(ctx, e.data, kept, &resp.Diagnostics)
}
