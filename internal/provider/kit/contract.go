package kit

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The kit's contract: checks every resource type must pass, run by the
// provider's tests over all its types, so that a new type cannot miss them.

// CheckIdentityAfterHalfCreate checks that for a resource type with an
// identity, a create that stored only the object's id (a later step failed,
// so every computed value stayed unknown and was settled to null) still
// records an identity holding every attribute an import needs: from the plan
// where the configuration sets it, else from the id. Without one the
// framework fails the create, and Terraform taints the object. A resource
// without an identity passes.
func CheckIdentityAfterHalfCreate(ctx context.Context, res resource.Resource) error {
	r, ok := res.(*ruledIdentified)
	if !ok {
		return nil
	}
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	var ir resource.IdentitySchemaResponse
	r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &ir)
	objType, ok := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		return fmt.Errorf("the schema is not an object")
	}
	inIdentity := map[string]bool{}
	for _, a := range r.identity.Attrs {
		inIdentity[a.Name] = true
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
		return fmt.Errorf("diagnostics: %v", diags)
	}
	if identity.Raw.IsFullyNull() {
		return fmt.Errorf("no identity after a half-finished create")
	}
	var errs []error
	for _, a := range r.identity.Attrs {
		if a.optional {
			continue
		}
		var v interface{ IsNull() bool }
		if a.Number {
			var n types.Int64
			identity.GetAttribute(ctx, path.Root(a.Name), &n)
			v = n
		} else {
			var s types.String
			identity.GetAttribute(ctx, path.Root(a.Name), &s)
			v = s
		}
		if v.IsNull() {
			errs = append(errs, fmt.Errorf("identity attribute %q is null", a.Name))
		}
	}
	return errors.Join(errs...)
}

// sample is a known value of a string or number type.
func sample(typ tftypes.Type) tftypes.Value {
	if typ.Is(tftypes.Number) {
		return tftypes.NewValue(typ, 42)
	}
	return tftypes.NewValue(typ, "sample")
}
