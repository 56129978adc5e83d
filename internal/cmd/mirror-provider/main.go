// Command mirror-provider is the second floor the benchmarks measure the Zulip
// provider against: a terraform-plugin-framework provider with the Zulip
// provider's own provider and resource schemas that does no I/O (create and
// update store the plan, with values made up for what was unknown; read keeps
// the state). The
// framework's work grows with a schema's attributes, so this is what planning
// or applying the same configuration costs without the Zulip provider's
// requests, caches and checks: the floor no provider with these schemas can
// beat. `make bench` reports the Zulip provider's times as ratios to it, and to
// noio-provider's one small resource, measured side by side.
//
// ZULIP_MIRROR_STATE chooses what state it keeps for the computed values a
// create or update did not know (candidates for the state this provider could
// keep for what a configuration does not manage, measured side by side by
// BenchmarkRealmPlan):
//
//	(unset)  a scalar is made up, an object or collection is null (mixed: the
//	         first benchmarks' mirror)
//	full     as the Zulip provider's state holds them: a scalar is made up, an
//	         object has each attribute filled, a set or list of strings one
//	         made-up member (a permission's groups), any other collection is
//	         empty (a permission's users)
//	lean     an optional attribute the configuration left out stays null,
//	         scalar or object; a computed-only one (an id) is made up
//
// ZULIP_MIRROR_PERMISSIONS=map is a schema candidate: a resource's permissions
// (each an object of groups and users) are one optional attribute,
// `permissions`, a map of such objects by permission name, instead of one
// attribute each (a configuration then sets `permissions = { can_... = {...} }`).
package main

import (
	"context"
	"log"
	"maps"
	"math/big"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	zprovider "github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

func main() {
	// The same logging as the Zulip provider's, so that the ratio compares the
	// work of the providers, not their log volume.
	if err := kit.QuietUnrequestedLogs(os.Environ(), os.Setenv); err != nil {
		log.Fatal(err)
	}
	// The same collector settings as the Zulip provider's, so that the ratio
	// compares the work of the providers, not their garbage collection.
	kit.TuneGC(os.Getenv)
	zulip := zprovider.New("mirror")()
	mode := os.Getenv("ZULIP_MIRROR_STATE")
	switch mode {
	case "", modeFull, modeLean:
	default:
		log.Fatalf("ZULIP_MIRROR_STATE=%q: want full, lean or nothing", mode)
	}
	permissionMap := false
	switch p := os.Getenv("ZULIP_MIRROR_PERMISSIONS"); p {
	case "":
	case "map":
		permissionMap = true
	default:
		log.Fatalf("ZULIP_MIRROR_PERMISSIONS=%q: want map or nothing", p)
	}
	if err := providerserver.Serve(context.Background(), func() provider.Provider { return &mirror{real: zulip, mode: mode, permissionMap: permissionMap} },
		providerserver.ServeOpts{Address: "registry.terraform.io/zulip-terraform/mirror"}); err != nil {
		log.Fatal(err)
	}
}

// The modes of ZULIP_MIRROR_STATE.
const (
	modeFull = "full"
	modeLean = "lean"
)

// mirror is the provider: the Zulip provider's type name and schemas, and the
// mode of its state.
type mirror struct {
	real          provider.Provider
	mode          string
	permissionMap bool
}

func (m *mirror) Metadata(ctx context.Context, req provider.MetadataRequest, resp *provider.MetadataResponse) {
	m.real.Metadata(ctx, req, resp)
}

func (m *mirror) Schema(ctx context.Context, req provider.SchemaRequest, resp *provider.SchemaResponse) {
	m.real.Schema(ctx, req, resp)
}

func (*mirror) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {}

// Resources are the Zulip provider's resource types, each with its schema.
func (m *mirror) Resources(ctx context.Context) []func() resource.Resource {
	var meta provider.MetadataResponse
	m.real.Metadata(ctx, provider.MetadataRequest{}, &meta)
	var out []func() resource.Resource
	for _, newReal := range m.real.Resources(ctx) {
		r := newReal()
		var name resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &name)
		var s resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &s)
		if m.permissionMap {
			s.Schema = permissionsAsMap(s.Schema)
		}
		out = append(out, func() resource.Resource { return &object{name: name.TypeName, schema: s.Schema, mode: m.mode} })
	}
	return out
}

// permissionsAsMap is a schema with its permissions (single nested
// attributes of exactly groups and users) replaced by one optional map of
// them, `permissions`, keyed by permission name.
func permissionsAsMap(s schema.Schema) schema.Schema {
	attrs := maps.Clone(s.Attributes)
	found := false
	for name, a := range s.Attributes {
		nested, ok := a.(schema.SingleNestedAttribute)
		if !ok || len(nested.Attributes) != 2 || nested.Attributes["groups"] == nil || nested.Attributes["users"] == nil {
			continue
		}
		delete(attrs, name)
		found = true
	}
	if !found {
		return s
	}
	attrs["permissions"] = schema.MapNestedAttribute{
		Optional: true,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"groups": schema.SetAttribute{ElementType: types.StringType, Optional: true},
			"users":  schema.SetAttribute{ElementType: types.Int64Type, Optional: true},
		}},
	}
	s.Attributes = attrs
	return s
}

func (*mirror) DataSources(context.Context) []func() datasource.DataSource { return nil }

// object is one mirrored resource type.
type object struct {
	name   string
	schema schema.Schema
	mode   string
}

func (o *object) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = o.name
}

func (o *object) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = o.schema
}

func (o *object) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = o.settled(ctx, req.Plan.Raw)
}

// Read keeps the state as it is (the framework copies it to the response).
func (*object) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (o *object) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = o.settled(ctx, req.Plan.Raw)
}

func (*object) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// settled is a planned value with its unknown parts (computed values a real
// provider would learn from the server) known, as the mode says: made up
// (madeUp), filled (filled) or, in lean mode, null where the attribute is
// optional (the configuration left it out: at apply the configuration is
// known, so only what it left out is still unknown).
func (o *object) settled(ctx context.Context, v tftypes.Value) tftypes.Value {
	out, err := tftypes.Transform(v, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		switch o.mode {
		case modeFull:
			return filled(v.Type()), nil
		case modeLean:
			if a, err := o.schema.AttributeAtTerraformPath(ctx, p); err == nil && a.IsOptional() {
				return tftypes.NewValue(v.Type(), nil), nil
			}
		}
		return madeUp(v.Type()), nil
	})
	if err != nil {
		log.Fatal(err)
	}
	return out
}

// madeUp is a value of a type: a number counts up (ids that other resources
// refer to stay distinct), a string is made from it, a bool is false,
// anything else is null.
func madeUp(t tftypes.Type) tftypes.Value {
	n := next.Add(1)
	switch {
	case t.Is(tftypes.Number):
		return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(n))
	case t.Is(tftypes.String):
		return tftypes.NewValue(tftypes.String, "mirror-"+strconv.FormatInt(n, 10))
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(tftypes.Bool, false)
	}
	return tftypes.NewValue(t, nil)
}

// filled is a value of a type as a server's answer fills it: a scalar made
// up, an object with every attribute filled, a list or set of strings with one
// made-up member, any other collection empty.
func filled(t tftypes.Type) tftypes.Value {
	switch t := t.(type) {
	case tftypes.Object:
		attrs := make(map[string]tftypes.Value, len(t.AttributeTypes))
		for k, at := range t.AttributeTypes {
			attrs[k] = filled(at)
		}
		return tftypes.NewValue(t, attrs)
	case tftypes.List:
		return tftypes.NewValue(t, members(t.ElementType))
	case tftypes.Set:
		return tftypes.NewValue(t, members(t.ElementType))
	case tftypes.Map:
		return tftypes.NewValue(t, map[string]tftypes.Value{})
	case tftypes.Tuple:
		elems := make([]tftypes.Value, len(t.ElementTypes))
		for k, et := range t.ElementTypes {
			elems[k] = filled(et)
		}
		return tftypes.NewValue(t, elems)
	}
	return madeUp(t)
}

// members are a filled collection's members: one of a string, none else.
func members(t tftypes.Type) []tftypes.Value {
	if t.Is(tftypes.String) {
		return []tftypes.Value{madeUp(t)}
	}
	return []tftypes.Value{}
}

// next numbers the values madeUp makes up.
var next atomic.Int64
