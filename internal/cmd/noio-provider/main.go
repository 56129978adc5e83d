// Command noio-provider is the floor the benchmarks measure the Zulip provider
// against: a terraform-plugin-framework provider whose one resource,
// noio_object, does no I/O at all (create stores the configuration, read keeps
// the state) and whose framework logging is off: the quiet floor. Whatever it
// costs Terraform and the framework to plan or apply N of them, no provider can
// do for less; `make bench` reports the Zulip provider's times as ratios to it,
// measured side by side.
package main

import (
	"context"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func main() {
	// The quiet floor: the SDK's own loggers are off in this process whatever
	// the environment, so that its times hold no logging at all. Their levels
	// come from environment variables read when the server starts (checked in
	// terraform-plugin-log, tfsdklog.WithLevelFromEnv, and the framework's and
	// terraform-plugin-go's internal/logging): TF_LOG_SDK and TF_LOG_SDK_PROTO
	// for terraform-plugin-go, TF_LOG_SDK_FRAMEWORK for the framework. Unset,
	// each logs at TRACE; "off" is hclog.Off, at which the SDK neither formats
	// nor writes a line. Setting them here touches this process only: Terraform
	// and the other providers of a benchmark keep their own environment (the
	// Zulip provider quiets the same loggers itself when no TF_LOG* is set, as
	// the benchmarks run it).
	for _, name := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		if err := os.Setenv(name, "off"); err != nil {
			log.Fatal(err)
		}
	}
	if err := providerserver.Serve(context.Background(), func() provider.Provider { return &noio{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/zulip-terraform/noio"}); err != nil {
		log.Fatal(err)
	}
}

type noio struct{}

func (*noio) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "noio"
}

func (*noio) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (*noio) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {}

func (*noio) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &object{} }}
}

func (*noio) DataSources(context.Context) []func() datasource.DataSource { return nil }

// object is noio_object: a name, a value and an id equal to the name.
type object struct{}

type objectModel struct {
	ID    types.String `tfsdk:"id"`
	Name  types.String `tfsdk:"name"`
	Value types.String `tfsdk:"value"`
}

func (*object) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_object"
}

func (*object) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":    schema.StringAttribute{Computed: true},
		"name":  schema.StringAttribute{Required: true},
		"value": schema.StringAttribute{Optional: true},
	}}
}

func (*object) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	store(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

func (*object) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (*object) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	store(ctx, req.Plan, &resp.State, &resp.Diagnostics)
}

// store makes the state the plan, with the id the name.
func store(ctx context.Context, plan tfsdk.Plan, state *tfsdk.State, diags *diag.Diagnostics) {
	var m objectModel
	diags.Append(plan.Get(ctx, &m)...)
	m.ID = m.Name
	diags.Append(state.Set(ctx, &m)...)
}

func (*object) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
