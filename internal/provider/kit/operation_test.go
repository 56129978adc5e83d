package kit

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type testOperationArgs struct {
	Target types.Int64  `tfsdk:"target"`
	Secret types.String `tfsdk:"secret"`
}

var testOperation = &Operation[testOperationArgs]{
	Action: "poke", Resource: "poke_invocation",
	ActionDescription: "Pokes.", ResourceDescription: "Pokes once.", Undo: "a poke stays poked",
	Args: map[string]OperationArg{
		"target": {Kind: ArgInt64, Required: true, Description: "Whom to poke."},
		"secret": {Kind: ArgString, Sensitive: true, Description: "A word."},
	},
	Outputs: map[string]OperationOutput{"poked": {Kind: ArgInt64, Description: "Who was poked."}},
	Perform: func(_ context.Context, c Call[testOperationArgs], _ *diag.Diagnostics) map[string]attr.Value {
		return map[string]attr.Value{"poked": c.Args.Target}
	},
}

// TestOperationSchemas: one declaration gives the action its arguments and
// the invocation resource the same arguments, each replacing it, with the
// outputs and the invocation's own attributes; a sensitive argument is
// sensitive in the resource and explained in the action.
func TestOperationSchemas(t *testing.T) {
	ctx := context.Background()
	var rs resource.SchemaResponse
	testOperation.NewResource().Schema(ctx, resource.SchemaRequest{}, &rs)
	for _, name := range []string{"id", "performed_at", "triggers", "target", "secret", "poked"} {
		if _, ok := rs.Schema.Attributes[name]; !ok {
			t.Errorf("the resource has no %s", name)
		}
	}
	target := rs.Schema.Attributes["target"].(schema.Int64Attribute)
	if !target.Required || len(target.PlanModifiers) != 1 || !strings.Contains(target.PlanModifiers[0].Description(ctx), "destroy and recreate") {
		t.Errorf("target: required %v, plan modifiers %v; want a required argument that replaces the resource", target.Required, target.PlanModifiers)
	}
	if !rs.Schema.Attributes["secret"].IsSensitive() {
		t.Error("secret is not sensitive in the resource")
	}
	if poked := rs.Schema.Attributes["poked"]; !poked.IsComputed() || poked.IsOptional() {
		t.Error("the output poked is not computed only")
	}
	if !strings.Contains(rs.Schema.MarkdownDescription, "Pokes once.") || !strings.Contains(rs.Schema.MarkdownDescription, "a poke stays poked") {
		t.Errorf("resource description %q", rs.Schema.MarkdownDescription)
	}

	var as action.SchemaResponse
	testOperation.NewAction().Schema(ctx, action.SchemaRequest{}, &as)
	if len(as.Schema.Attributes) != 2 {
		t.Errorf("the action has %d attributes; want the 2 arguments", len(as.Schema.Attributes))
	}
	secret := as.Schema.Attributes["secret"].(actionschema.StringAttribute)
	if !strings.Contains(secret.MarkdownDescription, "sensitive()") {
		t.Errorf("the action's secret does not say how to keep it out of the output: %q", secret.MarkdownDescription)
	}
}

// TestOperationCreateRecords: the resource's Create performs the operation
// and records the plan, an id, the time and the outputs Perform answered.
func TestOperationCreateRecords(t *testing.T) {
	ctx := context.Background()
	r := testOperation.NewResource().(*operationResource[testOperationArgs])
	r.Data = &ProviderData{HasCreds: true}
	var rs resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &rs)
	typ := rs.Schema.Type().TerraformType(ctx)
	plan := tftypes.NewValue(typ, map[string]tftypes.Value{
		"id":           tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"performed_at": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"triggers":     tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, nil),
		"target":       tftypes.NewValue(tftypes.Number, 7),
		"secret":       tftypes.NewValue(tftypes.String, nil),
		"poked":        tftypes.NewValue(tftypes.Number, tftypes.UnknownValue),
	})
	req := resource.CreateRequest{Plan: tfsdk.Plan{Schema: rs.Schema, Raw: plan}}
	resp := resource.CreateResponse{State: tfsdk.State{Schema: rs.Schema}}
	r.Create(ctx, req, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	var got struct {
		ID          types.String `tfsdk:"id"`
		PerformedAt types.String `tfsdk:"performed_at"`
		Triggers    types.Map    `tfsdk:"triggers"`
		Target      types.Int64  `tfsdk:"target"`
		Secret      types.String `tfsdk:"secret"`
		Poked       types.Int64  `tfsdk:"poked"`
	}
	if d := resp.State.Get(ctx, &got); d.HasError() {
		t.Fatal(d)
	}
	if len(got.ID.ValueString()) != 32 || got.PerformedAt.ValueString() == "" || got.Target.ValueInt64() != 7 || got.Poked.ValueInt64() != 7 {
		t.Errorf("recorded %+v; want an id, a time, target 7 and poked 7", got)
	}
}
