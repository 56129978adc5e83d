package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestIdentityAfterHalfCreate: for every resource type with an identity, a
// create that stored only the object's id (a later step failed, so every
// computed value stayed unknown and was settled to null) still records an
// identity holding every attribute an import needs: from the plan where the
// configuration sets it, else from the id. Without one the framework fails
// the create, and Terraform taints the object.
func TestIdentityAfterHalfCreate(t *testing.T) {
	ctx := context.Background()
	for _, f := range New("test")().Resources(ctx) {
		r, ok := f().(*ruledIdentified)
		if !ok {
			continue
		}
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "zulip"}, &meta)
		t.Run(meta.TypeName, func(t *testing.T) {
			var sr resource.SchemaResponse
			r.Schema(ctx, resource.SchemaRequest{}, &sr)
			var ir resource.IdentitySchemaResponse
			r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &ir)
			objType := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
			inIdentity := map[string]bool{}
			for _, a := range r.identity.attrs {
				inIdentity[a.name] = true
			}
			// The plan: what the configuration sets is known, computed values unknown.
			// The state: only the id, as the first thing a create stores.
			planVals, stateVals := map[string]tftypes.Value{}, map[string]tftypes.Value{}
			for name, typ := range objType.AttributeTypes {
				stateVals[name] = tftypes.NewValue(typ, nil)
				planVals[name] = tftypes.NewValue(typ, nil)
				a, ok := sr.Schema.Attributes[name]
				switch {
				case !ok: // a block
				case name == "id":
					stateVals[name] = sample(typ)
					planVals[name] = tftypes.NewValue(typ, tftypes.UnknownValue)
				case a.IsRequired() && inIdentity[name]:
					planVals[name] = sample(typ)
				case a.IsComputed() && !a.IsRequired() && !a.IsOptional():
					planVals[name] = tftypes.NewValue(typ, tftypes.UnknownValue)
				}
			}
			state := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(objType, stateVals)}
			plan := tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(objType, planVals)}
			identity := &tfsdk.ResourceIdentity{Schema: ir.IdentitySchema,
				Raw: tftypes.NewValue(ir.IdentitySchema.Type().TerraformType(ctx), nil)}
			var diags diag.Diagnostics
			if !r.identity.fromState(ctx, state, identity, &diags) {
				r.identity.completeAfterCreate(ctx, state, plan, identity, &diags)
			}
			if diags.HasError() {
				t.Fatalf("diagnostics: %v", diags)
			}
			if identity.Raw.IsFullyNull() {
				t.Fatalf("no identity after a half-finished create")
			}
			for _, a := range r.identity.attrs {
				if a.optional {
					continue
				}
				var v interface{ IsNull() bool }
				if a.number {
					var n types.Int64
					identity.GetAttribute(ctx, path.Root(a.name), &n)
					v = n
				} else {
					var s types.String
					identity.GetAttribute(ctx, path.Root(a.name), &s)
					v = s
				}
				if v.IsNull() {
					t.Errorf("identity attribute %q is null", a.name)
				}
			}
		})
	}
}

// sample is a known value of a string or number type.
func sample(typ tftypes.Type) tftypes.Value {
	if typ.Is(tftypes.Number) {
		return tftypes.NewValue(typ, 42)
	}
	return tftypes.NewValue(typ, "sample")
}
