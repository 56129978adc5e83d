package realm

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

var _ datasource.DataSourceWithConfigure = (*realmDataSource)(nil)

// NewRealmDataSource returns the zulip_realm data source.
func NewRealmDataSource() datasource.DataSource {
	return &realmDataSource{DataSourceBase: kit.DataSourceBase{Name: "realm"}}
}

// realmDataSource reads the organization's settings, as the zulip_realm
// resource names them, from the register snapshot the run reads once.
type realmDataSource struct {
	kit.DataSourceBase
}

// Schema describes the data source: every setting of zulip_realm, computed.
func (d *realmDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The organization's settings as the server reports them, spelled as `zulip_realm` spells " +
			"them, for use in other configuration. Any user can read them.",
		Attributes: realmModel{}.dataAttributes(),
	}
}

// Read reads the settings.
func (d *realmDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !d.Data.Ready(&resp.Diagnostics) {
		return
	}
	var m realmModel
	if readSettings(ctx, d.Data, realmTable, &m, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}
