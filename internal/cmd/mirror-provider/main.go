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
package main

import (
	"context"
	"log"
	"math/big"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
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
	zulip := zprovider.New("mirror")()
	if err := providerserver.Serve(context.Background(), func() provider.Provider { return &mirror{real: zulip} },
		providerserver.ServeOpts{Address: "registry.terraform.io/zulip-terraform/mirror"}); err != nil {
		log.Fatal(err)
	}
}

// mirror is the provider: the Zulip provider's type name and schemas.
type mirror struct{ real provider.Provider }

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
		out = append(out, func() resource.Resource { return &object{name: name.TypeName, schema: s.Schema} })
	}
	return out
}

func (*mirror) DataSources(context.Context) []func() datasource.DataSource { return nil }

// object is one mirrored resource type.
type object struct {
	name   string
	schema schema.Schema
}

func (o *object) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = o.name
}

func (o *object) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = o.schema
}

func (*object) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = settled(req.Plan.Raw)
}

// Read keeps the state as it is (the framework copies it to the response).
func (*object) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (*object) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = settled(req.Plan.Raw)
}

func (*object) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// settled is a planned value with its unknown parts (computed values a real
// provider would learn from the server) known: a number counts up (ids that
// other resources refer to stay distinct), a string is made from it, a bool is
// false, anything else is null.
func settled(v tftypes.Value) tftypes.Value {
	out, err := tftypes.Transform(v, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		n := next.Add(1)
		switch {
		case v.Type().Is(tftypes.Number):
			return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(n)), nil
		case v.Type().Is(tftypes.String):
			return tftypes.NewValue(tftypes.String, "mirror-"+strconv.FormatInt(n, 10)), nil
		case v.Type().Is(tftypes.Bool):
			return tftypes.NewValue(tftypes.Bool, false), nil
		}
		return tftypes.NewValue(v.Type(), nil), nil
	})
	if err != nil {
		log.Fatal(err)
	}
	return out
}

// next numbers the values settled makes up.
var next atomic.Int64
