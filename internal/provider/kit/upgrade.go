package kit

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// UpgradeDroppingAttributes upgrades the state of a schema version whose only
// change was to remove attributes: the stored state is read with the current
// schema, and the values of the attributes it no longer has are left behind.
// Every value the current schema still has is kept as stored, so the next
// plan is empty. An attribute that changed type or meaning needs an upgrader
// of its own.
func UpgradeDroppingAttributes() resource.StateUpgrader {
	return resource.StateUpgrader{StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
		if req.RawState == nil {
			resp.Diagnostics.AddError("Unable to Upgrade State", "Terraform sent no stored state to upgrade.")
			return
		}
		v, err := req.RawState.UnmarshalWithOpts(resp.State.Schema.Type().TerraformType(ctx), tfprotov6.UnmarshalOpts{
			ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true},
		})
		if err != nil {
			resp.Diagnostics.AddError("Unable to Upgrade State",
				"The stored state does not fit the resource's current schema once the removed attributes are "+
					"left out: "+err.Error())
			return
		}
		resp.State.Raw = v
	}}
}
