package kit

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// The kit of order resources: the complete order of one collection
// (channel folders, linkifiers, custom profile fields), a singleton that
// Zulip sets only whole. Each is an OrderSpec.

// OrderItem is one object of an ordered collection.
type OrderItem struct {
	ID   int64
	Name string
}

// OrderSpec describes one order resource.
type OrderSpec struct {
	// Name is the resource type without the provider prefix.
	Name string
	// Attr is the list attribute ("folders"), ImportID the singleton's id.
	Attr, ImportID string
	// What names the objects ("channel folders"), Title for messages
	// ("Channel Folder").
	What, Title string
	// ObjectType is the type of the ordered objects' resource, without the
	// provider prefix ("linkifier").
	ObjectType string
	// Level is the feature level of the reorder endpoint (0: every server).
	Level int
	// Description and AttrDescription document the resource.
	Description, AttrDescription string
	// Objects are the ordered objects (Ordered).
	Objects OrderedObjects
}

// OrderedObjects are the objects an order resource orders: it lists them in
// their current order and sends a complete order.
type OrderedObjects interface {
	// list returns the objects in their current order; seen uses the newest
	// copy this run has (plan checks), otherwise a fresh read.
	list(ctx context.Context, d *ProviderData, seen bool) ([]OrderItem, error)
	// reorder sends a complete order, as a write of the objects' collection.
	reorder(ctx context.Context, d *ProviderData, ids []int64) error
}

// Ordered is the objects of a collection as an order resource sees them:
// compare puts them in their current order (nil: the order the collection
// lists them in), item gives one's id and name, and send is the client's
// call that sends a complete order.
func Ordered[T any](coll func(*ProviderData) *Collection[T], compare func(a, b T) int, item func(T) OrderItem,
	send func(c *zulip.Client, ctx context.Context, ids []int64) error) OrderedObjects {
	return orderedCollection[T]{coll: coll, compare: compare, item: item, send: send}
}

// orderedCollection is Ordered's OrderedObjects.
type orderedCollection[T any] struct {
	coll    func(*ProviderData) *Collection[T]
	compare func(a, b T) int
	item    func(T) OrderItem
	send    func(c *zulip.Client, ctx context.Context, ids []int64) error
}

func (o orderedCollection[T]) list(ctx context.Context, d *ProviderData, seen bool) ([]OrderItem, error) {
	c := o.coll(d)
	read := c.List
	if seen {
		read = c.LastSeen
	}
	all, err := read(ctx)
	if o.compare != nil {
		all = slices.Clone(all)
		slices.SortStableFunc(all, o.compare)
	}
	out := make([]OrderItem, len(all))
	for i, v := range all {
		out[i] = o.item(v)
	}
	return out, err
}

func (o orderedCollection[T]) reorder(ctx context.Context, d *ProviderData, ids []int64) error {
	return o.coll(d).Write(ctx, func(ctx context.Context) error { return o.send(d.Client, ctx, ids) })
}

// orderResource is the resource of an OrderSpec.
type orderResource struct {
	ResourceBase
	spec *OrderSpec
}

var (
	_ resource.ResourceWithImportState = (*orderResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*orderResource)(nil)
)

// New returns the order resource, for the area's registry.
func (s *OrderSpec) New() resource.Resource {
	return &orderResource{ResourceBase: ResourceBase{Name: s.Name}, spec: s}
}

// Schema describes the resource.
func (r *orderResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: r.spec.Description,
		Attributes: map[string]schema.Attribute{
			"id": StableString("Always `" + r.spec.ImportID + "`."),
			r.spec.Attr: schema.ListAttribute{
				ElementType: types.Int64Type, Required: true, MarkdownDescription: r.spec.AttrDescription,
				Validators: []validator.List{listvalidator.UniqueValues(), listvalidator.SizeAtLeast(1)},
			},
		},
	}
}

// ModifyPlan checks the level, the role, and that the order is complete.
func (r *orderResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || Unchanged(req) || !r.Data.KnowsServer() {
		return
	}
	if err := r.Data.RequireFeatureLevel(r.spec.Level, "zulip_"+r.spec.Name); err != nil {
		resp.Diagnostics.AddError("Zulip Server Too Old", err.Error())
		return
	}
	r.Data.RequireRole(ctx, RoleAdministrator, "Ordering "+r.spec.What, path.Empty(), &resp.Diagnostics)
	var planned types.List
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(r.spec.Attr), &planned)...)
	if resp.Diagnostics.HasError() || !Known(planned) || !r.Data.HasCreds {
		return
	}
	ids, unknownIDs, ok := plannedOrderIDs(planned)
	if !ok {
		return
	}
	all, err := r.spec.Objects.list(ctx, r.Data, true)
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Unable to Read "+r.spec.Title+"s", "list the "+r.spec.What, RoleAny, err)
		return
	}
	held := r.priorOrderIDs(ctx, req.State)
	// A tainted object's replacement leaves no trace but the refresh that read
	// it (HeldByState): an object a state of this run holds may stand behind
	// an unknown id too.
	for _, o := range all {
		if r.Data.HeldByState("zulip_"+r.spec.ObjectType, strconv.FormatInt(o.ID, 10)) && !slices.Contains(held, o.ID) {
			held = append(held, o.ID)
		}
	}
	missing, unknown := orderGaps(all, ids, unknownIDs, held, r.spec.replaced(r.Data))
	if len(missing)+len(unknown) > 0 {
		resp.Diagnostics.AddAttributeError(path.Root(r.spec.Attr), "Incomplete "+r.spec.Title+" Order", r.spec.problem(missing, unknown, unknownIDs))
	}
}

// plannedOrderIDs are the known ids of a planned order and the count of
// unknown ones (objects this apply creates); ok is false for an element that
// is not a number.
func plannedOrderIDs(planned types.List) (ids []int64, unknownIDs int, ok bool) {
	for _, v := range planned.Elements() {
		n, isInt := v.(types.Int64)
		if !isInt {
			return nil, 0, false
		}
		if !Known(n) {
			unknownIDs++ // an object created by this apply
			continue
		}
		ids = append(ids, n.ValueInt64())
	}
	return ids, unknownIDs, true
}

// priorOrderIDs are the ids of the order's prior state: the objects it may
// name by a reference unknown now.
func (r *orderResource) priorOrderIDs(ctx context.Context, state tfsdk.State) []int64 {
	var held []int64
	if state.Raw.IsNull() {
		return nil
	}
	var prior types.List
	if !state.GetAttribute(ctx, path.Root(r.spec.Attr), &prior).HasError() {
		for _, v := range prior.Elements() {
			if n, ok := v.(types.Int64); ok && Known(n) {
				held = append(held, n.ValueInt64())
			}
		}
	}
	return held
}

// replaced reports an object this plan replaces: its replacement's id is
// unknown until apply, and it is gone by the time the order, which refers to
// the replacement, is sent.
func (s *OrderSpec) replaced(d *ProviderData) func(int64) bool {
	return func(id int64) bool { return d.replacing("zulip_"+s.ObjectType, strconv.FormatInt(id, 10)) }
}

// orderGaps lists the objects an order lacks and the ids it names that are
// no object. ids are the order's known ids; pending more are known only at
// apply. Those are objects the same apply creates, which are not among the
// objects that exist now, except a replacement (Terraform gives the
// replacement of a tainted or -replace'd object a new id, and the provider is
// not always told which object it replaces): an existing object the order
// held before (held, its prior state) may stand behind one of them. So with
// pending ids an order lacks the objects it never held, and the ones it held
// when there are more of them than pending ids.
func orderGaps(all []OrderItem, ids []int64, pending int, held []int64, replaced func(int64) bool) (missing []string, unknown []int64) {
	var maybe []string
	for _, o := range all {
		if slices.Contains(ids, o.ID) || replaced(o.ID) {
			continue
		}
		name := fmt.Sprintf("%q (id %d)", o.Name, o.ID)
		if pending > 0 && slices.Contains(held, o.ID) {
			maybe = append(maybe, name)
		} else {
			missing = append(missing, name)
		}
	}
	if len(maybe) > pending {
		missing = append(missing, maybe...)
	}
	for _, id := range ids {
		if !slices.ContainsFunc(all, func(o OrderItem) bool { return o.ID == id }) {
			unknown = append(unknown, id)
		}
	}
	sort.Strings(missing)
	return missing, unknown
}

// problem words what an incomplete order lacks; pending is how many of its
// ids are known only at apply.
func (s *OrderSpec) problem(missing []string, unknown []int64, pending int) string {
	var parts []string
	if len(missing) > 0 {
		part := "it lacks " + strings.Join(missing, ", ") + " (Zulip takes only a complete order)"
		if pending > 0 {
			part += "; the ids known only at apply are those of " + s.What + " this apply creates"
		}
		parts = append(parts, part)
	}
	if len(unknown) > 0 {
		ids := make([]string, len(unknown))
		for i, id := range unknown {
			ids[i] = strconv.FormatInt(id, 10)
		}
		parts = append(parts, "none of the "+s.What+" has the ids "+strings.Join(ids, ", "))
	}
	return "The order cannot be applied: " + strings.Join(parts, "; ") + "."
}

// Create sets the order.
func (r *orderResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.put(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

// Update sets the order.
func (r *orderResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.put(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

// put sends the planned order.
func (r *orderResource) put(ctx context.Context, p tfsdk.Plan, state *tfsdk.State, diags *diag.Diagnostics) {
	var planned types.List
	diags.Append(p.GetAttribute(ctx, path.Root(r.spec.Attr), &planned)...)
	if diags.HasError() || !r.Data.Ready(diags) {
		return
	}
	var ids []int64
	diags.Append(planned.ElementsAs(ctx, &ids, false)...)
	if err := r.spec.Objects.reorder(ctx, r.Data, ids); err != nil {
		AddAPIError(diags, "Unable to Order "+r.spec.Title+"s", "order the "+r.spec.What, RoleAdministrator, err)
		return
	}
	diags.Append(state.SetAttribute(ctx, path.Root("id"), r.spec.ImportID)...)
	diags.Append(state.SetAttribute(ctx, path.Root(r.spec.Attr), planned)...)
}

// Read refreshes the order.
func (r *orderResource) Read(ctx context.Context, _ resource.ReadRequest, resp *resource.ReadResponse) {
	if !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	all, err := r.spec.Objects.list(ctx, r.Data, false)
	if err != nil {
		AddAPIError(&resp.Diagnostics, "Unable to Read "+r.spec.Title+"s", "list the "+r.spec.What, RoleAny, err)
		return
	}
	ids := make([]attr.Value, len(all))
	for i, o := range all {
		ids[i] = types.Int64Value(o.ID)
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.spec.Attr), types.ListValueMust(types.Int64Type, ids))...)
}

// Delete leaves the order as it is.
func (r *orderResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// ImportState adopts the order.
func (r *orderResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID != r.spec.ImportID {
		resp.Diagnostics.AddError("Invalid Import ID", fmt.Sprintf("The order of the %s is imported with the id %s, got %q.",
			r.spec.What, r.spec.ImportID, req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), r.spec.ImportID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(r.spec.Attr), types.ListValueMust(types.Int64Type, []attr.Value{}))...)
}
