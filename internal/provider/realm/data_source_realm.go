package realm

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

// realmData reads the organization's settings, as the zulip_realm
// resource names them, from the register snapshot the run reads once.
var realmData = &kit.DataSource[realmModel]{Name: "realm", Read: readRealm,
	Schema: schema.Schema{
		MarkdownDescription: "The organization's settings as the server reports them, spelled as `zulip_realm` spells " +
			"them, for use in other configuration. Any user can read them.",
		Attributes: realmModel{}.dataAttributes(),
	},
}

// readRealm fills the model from the register snapshot.
func readRealm(ctx context.Context, d *kit.ProviderData, m *realmModel, diags *diag.Diagnostics) {
	readSettings(ctx, d, realmTable, m, diags)
}
