// Package provider implements the Terraform surface of the Zulip provider.
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ provider.Provider = (*zulipProvider)(nil)

// New returns a constructor of the provider at the given version.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &zulipProvider{version: version} }
}

// zulipProvider is the Zulip provider.
type zulipProvider struct {
	version string
}

// zulipProviderModel is the provider configuration.
type zulipProviderModel struct {
	URL     types.String `tfsdk:"url"`
	Email   types.String `tfsdk:"email"`
	APIKey  types.String `tfsdk:"api_key"`
	Zuliprc types.String `tfsdk:"zuliprc"`
}

// Metadata names the provider.
func (p *zulipProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "zulip"
	resp.Version = p.version
}

// Schema describes the provider configuration.
func (p *zulipProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages a Zulip organization (realm) as code.",
		Attributes: map[string]schema.Attribute{
			"url":     schema.StringAttribute{Optional: true, MarkdownDescription: "Zulip site URL."},
			"email":   schema.StringAttribute{Optional: true, MarkdownDescription: "API e-mail."},
			"api_key": schema.StringAttribute{Optional: true, Sensitive: true, MarkdownDescription: "API key."},
			"zuliprc": schema.StringAttribute{Optional: true, MarkdownDescription: "Path to a zuliprc file."},
		},
	}
}

// Configure builds the API client.
func (p *zulipProvider) Configure(_ context.Context, _ provider.ConfigureRequest, _ *provider.ConfigureResponse) {
}

// Resources lists the provider's resources.
func (p *zulipProvider) Resources(_ context.Context) []func() resource.Resource { return nil }

// DataSources lists the provider's data sources.
func (p *zulipProvider) DataSources(_ context.Context) []func() datasource.DataSource { return nil }
