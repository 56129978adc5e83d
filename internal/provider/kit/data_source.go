package kit

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// DataSource declares a data source, as Operation declares an operation: its
// name and what it needs of the server, its schema, the checks of its
// configuration and the read that fills its model M. New is the constructor
// an area registers, so that no data source writes a type, a constructor, a
// Schema or a Read of its own.
type DataSource[M any] struct {
	// Name is the type name without the provider's prefix, e.g. "channels".
	Name string
	// Level is the feature level the data source needs, and AttrLevels the
	// level an argument needs when the configuration sets it (to anything
	// but false): an older server is refused, naming the level.
	Level      int
	AttrLevels map[string]int
	// NoAccount says the data source reads only what Zulip shows without an
	// account, so that a provider given only `url` can read it.
	NoAccount bool
	Schema    schema.Schema
	// Validators check the configuration as a whole (one of two arguments,
	// and the like).
	Validators []datasource.ConfigValidator
	// Read fills the model, whose arguments the configuration has set, from
	// the server; the model is stored unless it reported an error.
	Read func(ctx context.Context, d *ProviderData, m *M, diags *diag.Diagnostics)
}

// New returns the data source, for the area's registry.
func (s *DataSource[M]) New() datasource.DataSource { return &declaredDataSource[M]{spec: s} }

// declaredDataSource is a data source that a DataSource declares.
type declaredDataSource[M any] struct {
	spec *DataSource[M]
	data *ProviderData
}

var _ datasource.DataSourceWithConfigValidators = (*declaredDataSource[struct{}])(nil)

// Metadata names the data source.
func (d *declaredDataSource[M]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.spec.Name
}

// Configure receives the provider's data.
func (d *declaredDataSource[M]) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Schema describes the data source.
func (d *declaredDataSource[M]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = d.spec.Schema
}

// ConfigValidators returns the declared checks of the configuration.
func (d *declaredDataSource[M]) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return d.spec.Validators
}

// Read reads the configuration into a model, refuses a server older than the
// data source or a set argument needs, lets the declared Read complete the
// model from the server, and stores it unless that reported an error.
func (d *declaredDataSource[M]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	s, diags := d.spec, &resp.Diagnostics
	var m M
	diags.Append(req.Config.Get(ctx, &m)...)
	if diags.HasError() || !d.data.readyFor(d.spec.NoAccount, diags) {
		return
	}
	if d.data.KnowsServer() && (!requireLevels(d.data, "zulip_"+s.Name, s.Level, s.AttrLevels, req.Config.Raw, true, diags) ||
		diags.HasError()) {
		return
	}
	s.Read(ctx, d.data, &m, diags)
	if !diags.HasError() {
		diags.Append(resp.State.Set(ctx, &m)...)
	}
}
