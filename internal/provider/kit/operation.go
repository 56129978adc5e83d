package kit

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework-validators/actionvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Operations: what Zulip does once per call (a report, a test notification,
// a message posted, an account deactivated) is declared once, as an
// Operation, and offered in both forms from that one declaration: an action
// (Terraform 1.14 and newer: `terraform apply -invoke`, or an
// action_trigger) and an invocation resource (invocation.go: every CLI,
// OpenTofu included). The declaration says what the operation takes (Args),
// checks (Validate, CheckPlan) and does (Perform); the kit builds both
// schemas, both validations, both plan checks, the action's Invoke and the
// resource's Create, so that the two forms cannot drift apart.

// Values is a configuration or a plan, read attribute by attribute
// (tfsdk.Config, tfsdk.Plan and tfsdk.State are).
type Values interface {
	GetAttribute(ctx context.Context, p path.Path, target any) diag.Diagnostics
}

// ArgKind is the type of an operation's argument.
type ArgKind int

// The kinds of arguments operations take.
const (
	ArgString ArgKind = iota
	ArgInt64
	ArgBool
	ArgStringSet
)

// OperationArg is one argument of an operation: an attribute of its action,
// and of its invocation resource, where changing it performs the operation
// again (RequiresReplace).
type OperationArg struct {
	Kind     ArgKind
	Required bool
	// Sensitive marks the resource's attribute sensitive. An action's
	// arguments cannot be (the protocol has no such flag): its description
	// says how to keep the value out of the output.
	Sensitive   bool
	Description string
	// The validators of the argument's kind.
	String []validator.String
	Int64  []validator.Int64
	Set    []validator.Set
}

// OperationOutput is a computed attribute of the invocation resource: what
// the server answered, or what the plan could tell. Actions keep nothing.
type OperationOutput struct {
	Kind        ArgKind
	Description string
}

// Operation declares an operation. M is its arguments' model: a struct whose
// fields' tfsdk tags are the keys of Args.
type Operation[M any] struct {
	// Action and Resource are the two forms' names, without the provider's
	// prefix (they may differ: send_message and message_post).
	Action, Resource string
	// ActionDescription is the action's description, whole.
	ActionDescription string
	// ResourceDescription is what the resource does, and Undo what
	// destroying it does not undo; InvocationDescription completes them.
	ResourceDescription, Undo string
	// Level is the feature level the operation needs: the action's plan
	// checks it (the resource's registry entry declares it too, TypeEntry.Level).
	Level   int
	Args    map[string]OperationArg
	Outputs map[string]OperationOutput
	// ExactlyOneOf and Conflicting name arguments of which exactly one, or at
	// most one, may be set.
	ExactlyOneOf, Conflicting []string
	// Validate checks the configuration (values may be unknown).
	Validate func(ctx context.Context, args M, diags *diag.Diagnostics)
	// CheckPlan checks the arguments against the server at plan time (values
	// may be unknown; d may not know the server yet, d.CanAsk says) and
	// returns the outputs the plan can already tell.
	CheckPlan func(ctx context.Context, d *ProviderData, args M, diags *diag.Diagnostics) map[string]attr.Value
	// Perform performs the operation and returns the outputs to record.
	Perform func(ctx context.Context, call Call[M], diags *diag.Diagnostics) map[string]attr.Value
}

// Call is one performance of an operation.
type Call[M any] struct {
	Args M
	Data *ProviderData
	// Planned are the outputs the plan told (CheckPlan), for the invocation
	// resource; nil for an action, which records nothing.
	Planned  map[string]attr.Value
	progress func(string)
}

// Recorded reports whether the outputs are kept (the invocation resource).
func (c Call[M]) Recorded() bool { return c.Planned != nil }

// Progress says what the operation is doing: an action's progress output;
// the resource's log.
func (c Call[M]) Progress(ctx context.Context, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if c.progress != nil {
		c.progress(msg)
		return
	}
	tflog.Info(ctx, msg)
}

// NewAction is the operation's action.
func (op *Operation[M]) NewAction() action.Action {
	return &operationAction[M]{ActionBase: ActionBase{Name: op.Action}, op: op}
}

// NewResource is the operation's invocation resource.
func (op *Operation[M]) NewResource() resource.Resource {
	return &operationResource[M]{InvocationBase: InvocationBase{ResourceBase: ResourceBase{Name: op.Resource}}, op: op}
}

// LoadArgs reads the arguments' model from a configuration or a plan, field
// by field (the plan of an invocation resource has more attributes than
// the model).
func LoadArgs[M any](ctx context.Context, src Values, diags *diag.Diagnostics) M {
	var m M
	v := reflect.ValueOf(&m).Elem()
	for i := range v.NumField() {
		if tag := v.Type().Field(i).Tag.Get("tfsdk"); tag != "" && tag != "-" {
			diags.Append(src.GetAttribute(ctx, path.Root(tag), v.Field(i).Addr().Interface())...)
		}
	}
	return m
}

// combinations are the validators of the declared combinations of
// arguments, made by one form's exactlyOneOf and conflicting.
func combinations[M, V any](op *Operation[M], exactlyOneOf, conflicting func(...path.Expression) V) []V {
	var out []V
	for _, c := range []struct {
		names []string
		make  func(...path.Expression) V
	}{{op.ExactlyOneOf, exactlyOneOf}, {op.Conflicting, conflicting}} {
		if len(c.names) == 0 {
			continue
		}
		paths := make([]path.Expression, len(c.names))
		for i, n := range c.names {
			paths[i] = path.MatchRoot(n)
		}
		out = append(out, c.make(paths...))
	}
	return out
}

// validate runs the declared checks of a configuration.
func (op *Operation[M]) validate(ctx context.Context, cfg Values, diags *diag.Diagnostics) {
	if op.Validate == nil {
		return
	}
	if m := LoadArgs[M](ctx, cfg, diags); !diags.HasError() {
		op.Validate(ctx, m, diags)
	}
}

// operationAction is an operation's action form.
type operationAction[M any] struct {
	ActionBase
	op *Operation[M]
}

var (
	_ action.ActionWithModifyPlan       = (*operationAction[struct{}])(nil)
	_ action.ActionWithValidateConfig   = (*operationAction[struct{}])(nil)
	_ action.ActionWithConfigValidators = (*operationAction[struct{}])(nil)
)

// Schema describes the action: the operation's arguments.
func (a *operationAction[M]) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	attrs := map[string]actionschema.Attribute{}
	for name, arg := range a.op.Args {
		attrs[name] = arg.actionAttribute()
	}
	resp.Schema = actionschema.Schema{MarkdownDescription: a.op.ActionDescription, Attributes: attrs}
}

// actionAttribute is the argument as an action's attribute.
func (arg OperationArg) actionAttribute() actionschema.Attribute {
	desc := arg.Description
	if arg.Sensitive {
		desc += " Actions' arguments cannot be marked sensitive by the provider: pass a `sensitive()` or variable " +
			"value to keep it out of the output."
	}
	optional := !arg.Required
	switch arg.Kind {
	case ArgInt64:
		return actionschema.Int64Attribute{Required: arg.Required, Optional: optional, MarkdownDescription: desc, Validators: arg.Int64}
	case ArgBool:
		return actionschema.BoolAttribute{Required: arg.Required, Optional: optional, MarkdownDescription: desc}
	case ArgStringSet:
		return actionschema.SetAttribute{ElementType: types.StringType, Required: arg.Required, Optional: optional,
			MarkdownDescription: desc, Validators: arg.Set}
	default:
		return actionschema.StringAttribute{Required: arg.Required, Optional: optional, MarkdownDescription: desc, Validators: arg.String}
	}
}

// ConfigValidators are the declared combinations of arguments.
func (a *operationAction[M]) ConfigValidators(context.Context) []action.ConfigValidator {
	return combinations(a.op, actionvalidator.ExactlyOneOf, actionvalidator.Conflicting)
}

// ValidateConfig runs the declared checks.
func (a *operationAction[M]) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	a.op.validate(ctx, req.Config, &resp.Diagnostics)
}

// ModifyPlan checks the arguments against the server, as the resource's plan
// does.
func (a *operationAction[M]) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.Data == nil {
		return
	}
	if err := a.Data.RequireFeatureLevel(a.op.Level, "zulip_"+a.op.Action); err != nil {
		resp.Diagnostics.AddError("Zulip Server Too Old", err.Error())
		return
	}
	if a.op.CheckPlan == nil {
		return
	}
	if m := LoadArgs[M](ctx, req.Config, &resp.Diagnostics); !resp.Diagnostics.HasError() {
		a.op.CheckPlan(ctx, a.Data, m, &resp.Diagnostics)
	}
}

// Invoke performs the operation, saying so as it goes.
func (a *operationAction[M]) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	m := LoadArgs[M](ctx, req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !a.Data.Ready(&resp.Diagnostics) {
		return
	}
	progress := func(msg string) { resp.SendProgress(action.InvokeProgressEvent{Message: msg}) }
	a.op.Perform(ctx, Call[M]{Args: m, Data: a.Data, progress: progress}, &resp.Diagnostics)
}

// operationResource is an operation's invocation resource.
type operationResource[M any] struct {
	InvocationBase
	op *Operation[M]
}

var (
	_ resource.ResourceWithModifyPlan       = (*operationResource[struct{}])(nil)
	_ resource.ResourceWithValidateConfig   = (*operationResource[struct{}])(nil)
	_ resource.ResourceWithConfigValidators = (*operationResource[struct{}])(nil)
)

// Schema describes the invocation resource: the arguments, each replacing
// the resource when it changes, the outputs, and the invocation's own.
func (r *operationResource[M]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		"id":           InvocationIDAttribute(),
		"performed_at": InvocationPerformedAtAttribute(),
		"triggers":     InvocationTriggersAttribute(),
	}
	for name, arg := range r.op.Args {
		attrs[name] = arg.resourceAttribute()
	}
	for name, out := range r.op.Outputs {
		attrs[name] = out.resourceAttribute()
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: InvocationDescription(r.op.ResourceDescription, r.op.Undo),
		Attributes:          attrs,
	}
}

// resourceAttribute is the argument as the invocation resource's attribute.
func (arg OperationArg) resourceAttribute() schema.Attribute {
	optional := !arg.Required
	switch arg.Kind {
	case ArgInt64:
		return schema.Int64Attribute{Required: arg.Required, Optional: optional, Sensitive: arg.Sensitive,
			MarkdownDescription: arg.Description, Validators: arg.Int64,
			PlanModifiers: RequiresReplaceInt64()}
	case ArgBool:
		return schema.BoolAttribute{Required: arg.Required, Optional: optional, Sensitive: arg.Sensitive,
			MarkdownDescription: arg.Description, PlanModifiers: RequiresReplaceBool()}
	case ArgStringSet:
		return schema.SetAttribute{ElementType: types.StringType, Required: arg.Required, Optional: optional,
			Sensitive: arg.Sensitive, MarkdownDescription: arg.Description, Validators: arg.Set,
			PlanModifiers: RequiresReplaceSet()}
	default:
		return schema.StringAttribute{Required: arg.Required, Optional: optional, Sensitive: arg.Sensitive,
			MarkdownDescription: arg.Description, Validators: arg.String,
			PlanModifiers: RequiresReplaceString()}
	}
}

// resourceAttribute is the output as a computed attribute, kept from the
// state until the resource is replaced.
func (out OperationOutput) resourceAttribute() schema.Attribute {
	switch out.Kind {
	case ArgInt64:
		return schema.Int64Attribute{Computed: true, MarkdownDescription: out.Description,
			PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}}
	case ArgBool:
		return schema.BoolAttribute{Computed: true, MarkdownDescription: out.Description,
			PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()}}
	default:
		return schema.StringAttribute{Computed: true, MarkdownDescription: out.Description,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	}
}

// ConfigValidators are the declared combinations of arguments.
func (r *operationResource[M]) ConfigValidators(context.Context) []resource.ConfigValidator {
	return combinations(r.op, resourcevalidator.ExactlyOneOf, resourcevalidator.Conflicting)
}

// ValidateConfig runs the declared checks.
func (r *operationResource[M]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	r.op.validate(ctx, req.Config, &resp.Diagnostics)
}

// ModifyPlan checks a new invocation against the server and shows the
// outputs the plan can tell. A performed invocation is never checked again;
// a replacement is planned with a null prior state, so it is checked here
// like a new one.
func (r *operationResource[M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || r.Data == nil || r.op.CheckPlan == nil {
		return
	}
	m := LoadArgs[M](ctx, req.Plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	for name, v := range r.op.CheckPlan(ctx, r.Data, m, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(name), v)...)
	}
}

// Create performs the operation and records it: the plan, a new id, when,
// and the outputs (those the plan told and Perform did not answer are kept;
// those neither told are null).
func (r *operationResource[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	m := LoadArgs[M](ctx, req.Plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	planned := map[string]attr.Value{}
	for name, out := range r.op.Outputs {
		planned[name] = out.planned(ctx, req.Plan, name, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	outputs := r.op.Perform(ctx, Call[M]{Args: m, Data: r.Data, Planned: planned}, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.State.Raw = req.Plan.Raw
	set := func(name string, v attr.Value) {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), v)...)
	}
	set("id", types.StringValue(NewInvocationID()))
	set("performed_at", InvocationNow())
	for name, out := range r.op.Outputs {
		switch v, ok := outputs[name]; {
		case ok:
			set(name, v)
		case planned[name].IsUnknown():
			set(name, out.null())
		}
	}
}

// planned is the output's value in the plan.
func (out OperationOutput) planned(ctx context.Context, plan Values, name string, diags *diag.Diagnostics) attr.Value {
	switch out.Kind {
	case ArgInt64:
		var v types.Int64
		diags.Append(plan.GetAttribute(ctx, path.Root(name), &v)...)
		return v
	case ArgBool:
		var v types.Bool
		diags.Append(plan.GetAttribute(ctx, path.Root(name), &v)...)
		return v
	default:
		var v types.String
		diags.Append(plan.GetAttribute(ctx, path.Root(name), &v)...)
		return v
	}
}

// null is the output's null value.
func (out OperationOutput) null() attr.Value {
	switch out.Kind {
	case ArgInt64:
		return types.Int64Null()
	case ArgBool:
		return types.BoolNull()
	default:
		return types.StringNull()
	}
}
