// Package provider implements the Terraform surface of the Zulip provider: the
// provider itself, its resources, data sources and ephemeral resources.
package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ provider.Provider                       = (*zulipProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*zulipProvider)(nil)
	_ provider.ProviderWithFunctions          = (*zulipProvider)(nil)
)

// New returns a constructor of the provider at the given version.
func New(version string, opts ...Option) func() provider.Provider {
	return func() provider.Provider {
		p := &zulipProvider{version: version, getenv: os.Getenv}
		for _, o := range opts {
			o(p)
		}
		return p
	}
}

// Option configures the provider New makes.
type Option func(*zulipProvider)

// WithCreateJournal keeps the create journal in dir, Terraform's data
// directory (main passes TF_DATA_DIR, else the working directory's
// .terraform). Without it, as in the in-process acceptance tests, there is no
// journal.
func WithCreateJournal(dir string) Option {
	return func(p *zulipProvider) {
		p.journal = kit.NewCreateJournal(dir, journaledTypes)
	}
}

// WithTerraformCommand tells the provider the command line of the Terraform
// that started it (its parent process), when the platform lets main read it.
// A `terraform destroy` (or `apply -destroy`, `plan -destroy`) first makes a
// normal plan of the whole configuration to refresh the state; the checks of
// objects that plan would create are skipped then, since nothing is created,
// so that a configuration that cannot be applied can still be destroyed.
func WithTerraformCommand(args []string) Option {
	return func(p *zulipProvider) { p.destroying = isDestroyCommand(args) }
}

// isDestroyCommand reports a Terraform command line that destroys: the
// subcommand (the first argument after the global flags) is destroy, or apply
// or plan with -destroy.
func isDestroyCommand(args []string) bool {
	if len(args) < 2 {
		return false
	}
	rest := args[1:]
	for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return false
	}
	switch rest[0] {
	case "destroy":
		return true
	case "apply", "plan":
		return slices.Contains(rest[1:], "-destroy") || slices.Contains(rest[1:], "-destroy=true") ||
			slices.Contains(rest[1:], "--destroy")
	}
	return false
}

// zulipProvider is the Zulip provider.
type zulipProvider struct {
	version string
	// getenv reads the environment; a field so that tests can substitute it.
	getenv func(string) string
	// destroying: Terraform was started to destroy (WithTerraformCommand).
	destroying bool
	// journal is the create journal (WithCreateJournal), nil without one.
	journal *kit.CreateJournal
}

// zulipProviderModel is the provider configuration.
type zulipProviderModel struct {
	URL            types.String `tfsdk:"url"`
	Email          types.String `tfsdk:"email"`
	APIKey         types.String `tfsdk:"api_key"`
	Zuliprc        types.String `tfsdk:"zuliprc"`
	Insecure       types.Bool   `tfsdk:"insecure"`
	CertBundle     types.String `tfsdk:"cert_bundle"`
	ClientCert     types.String `tfsdk:"client_cert"`
	ClientCertKey  types.String `tfsdk:"client_cert_key"`
	MaxRetries     types.Int64  `tfsdk:"max_retries"`
	MaxRetryWait   types.String `tfsdk:"max_retry_wait"`
	RequestTimeout types.String `tfsdk:"request_timeout"`
	SMS            *smsModel    `tfsdk:"sms"`
}

// smsModel is the provider's sms block: the SMS conversations API's credentials.
type smsModel struct {
	APIURL   types.String `tfsdk:"api_url"`
	Username types.String `tfsdk:"username"`
	Password types.String `tfsdk:"password"`
}

// Metadata names the provider.
func (p *zulipProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "zulip"
	resp.Version = p.version
}

// Schema describes the provider configuration.
func (p *zulipProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages a Zulip organization (realm) as code: linkifiers, allowed domains, users, " +
			"topic preferences, profile data and more. Credentials and TLS settings come from the arguments below, " +
			"then the `ZULIP_*` environment variables, then a zuliprc file, each value on its own. When an e-mail " +
			"and API key are found, the provider checks them with the server when it is configured, so that wrong " +
			"credentials fail `terraform plan` with where each value came from.",
		Attributes: providerAttributes(),
		Blocks:     map[string]schema.Block{"sms": providerSMSBlock()},
	}
}

// providerAttributes are the provider's arguments, in three groups merged.
func providerAttributes() map[string]schema.Attribute {
	attributes := providerAccountAttributes()
	maps.Copy(attributes, providerTLSAttributes())
	maps.Copy(attributes, providerRequestAttributes())
	return attributes
}

// providerAccountAttributes say which server and account the provider acts on:
// the URL, the credentials and the zuliprc file they may come from.
func providerAccountAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"url": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The Zulip server's URL, e.g. `https://chat.example.com` (with or without `/api/v1`). " +
				"Falls back to `ZULIP_SITE` / `ZULIP_URL`, then `site` in the zuliprc file.",
		},
		"email": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The API e-mail of the account the provider acts as (a bot's or a user's). " +
				"Falls back to `ZULIP_EMAIL`, then `email` in the zuliprc file.",
		},
		"api_key": schema.StringAttribute{
			Optional:  true,
			Sensitive: true,
			MarkdownDescription: "The account's API key. Falls back to `ZULIP_API_KEY`, then `key` in the zuliprc file. " +
				"Prefer the environment or a zuliprc file to keep it out of configuration files.",
		},
		"zuliprc": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Path to a zuliprc file (`[api]` section with `site`, `email`, `key`, and optionally " +
				"`insecure`, `cert_bundle`, `client_cert`, `client_cert_key`). Defaults to `ZULIP_CONFIG`, then " +
				"`~/.zuliprc` when that exists. A file named here is always read; the others only when they must " +
				"supply the URL, e-mail or API key, so that a `~/.zuliprc` written for another server does not " +
				"impose its TLS settings.",
		},
	}
}

// providerTLSAttributes say how the provider trusts the server and proves
// itself to it: certificate verification, the CA bundle, the client certificate.
func providerTLSAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"insecure": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Skip TLS certificate verification (self-signed development servers only). " +
				"Falls back to `ZULIP_ALLOW_INSECURE`, then `insecure` in the zuliprc file (`true` or `false`; " +
				"anything else is an error). Default `false`. For a server with a private CA, prefer `cert_bundle`.",
		},
		"cert_bundle": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Path to a PEM file of the certificate authorities to trust for the server, " +
				"in place of the system's: for a self-hosted server whose certificate a private CA signed. " +
				"Falls back to `ZULIP_CERT_BUNDLE`, then `cert_bundle` in the zuliprc file.",
		},
		"client_cert": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Path to a PEM file with a client certificate, for servers that require one. " +
				"The file may hold the private key too; otherwise set `client_cert_key`. " +
				"Falls back to `ZULIP_CERT`, then `client_cert` in the zuliprc file.",
		},
		"client_cert_key": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Path to the PEM private key of `client_cert`, when it is not in the same file. " +
				"Falls back to `ZULIP_CERT_KEY`, then `client_cert_key` in the zuliprc file.",
		},
	}
}

// providerRequestAttributes bound the provider's requests: retries, the time
// spent waiting for them, and each request's timeout.
func providerRequestAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"max_retries": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: fmt.Sprintf("How many times a request is retried after a rate limit (HTTP 429), a "+
				"502/503/504 answer or a connection error. `0` disables retries. Default %d. "+
				"Requests that create something are never retried blindly.", zulip.DefaultMaxRetries),
			Validators: []validator.Int64{int64validator.Between(0, 100)},
		},
		"max_retry_wait": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: fmt.Sprintf("The longest total time one request may spend waiting for retries and "+
				"rate limits, as a Go duration such as `90s` or `10m`. Default `%s`: Zulip counts requests per "+
				"minute (200 by default; some servers allow 20), and the provider paces itself from the server's "+
				"rate-limit headers, so a large apply against a low limit waits for whole minutes, sometimes more than "+
				"once for one request. Every wait longer than a second is logged at the WARN level (`TF_LOG=WARN`) "+
				"with its reason. Interrupting Terraform (Ctrl-C) ends any wait at once.", kit.FormatDuration(zulip.DefaultMaxRetryWait)),
			Validators: []validator.String{validators.String("must be a duration such as 30s or 2m", kit.CheckDuration)},
		},
		"request_timeout": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: fmt.Sprintf("The longest one HTTP request may take, from connecting to reading the "+
				"whole answer, as a Go duration such as `30s` or `2m`: a server that accepts connections and never "+
				"answers fails the run in about this time. A request that times out is not retried. `0` means no "+
				"limit. Falls back to `%s`. Default `%s`.", zulip.EnvRequestTimeout, kit.FormatDuration(zulip.DefaultRequestTimeout)),
			Validators: []validator.String{validators.String("must be a duration such as 30s or 2m", kit.CheckDuration)},
		},
	}
}

// providerSMSBlock is the sms block: the credentials of the SMS conversations
// API that zulip_sms_question uses.
func providerSMSBlock() schema.SingleNestedBlock {
	return schema.SingleNestedBlock{
		MarkdownDescription: "Credentials of the SMS conversations API used by `zulip_sms_question`. " +
			"Each falls back to `ZULIP_SMS_API_URL`, `ZULIP_SMS_USERNAME`, `ZULIP_SMS_PASSWORD`.",
		Attributes: map[string]schema.Attribute{
			"api_url": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Base URL of the SMS API. Default `https://api.46elks.com`.",
				Validators:          []validator.String{validators.HTTPURL()},
			},
			"username": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "API username of the SMS account.",
			},
			"password": schema.StringAttribute{
				Optional:            true,
				Sensitive:           true,
				MarkdownDescription: "API password of the SMS account.",
			},
		},
	}
}

// Resources lists the provider's resources.
func (p *zulipProvider) Resources(_ context.Context) []func() resource.Resource {
	out := make([]func() resource.Resource, len(registry))
	for i, e := range registry {
		out[i] = kit.Ruled(e)
	}
	return out
}

// DataSources lists the provider's data sources.
func (p *zulipProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return dataSources
}

// Actions lists the provider's actions (Terraform 1.14 and newer).
func (p *zulipProvider) Actions(_ context.Context) []func() action.Action {
	return actions
}

// EphemeralResources lists the provider's ephemeral resources.
func (p *zulipProvider) EphemeralResources(_ context.Context) []func() ephemeral.EphemeralResource {
	return ephemeralResources
}

// Functions lists the provider's functions.
func (p *zulipProvider) Functions(_ context.Context) []func() function.Function {
	return functions
}

// ListResources lists the provider's list resources: one per type
// zulip_import_blocks covers.
func (p *zulipProvider) ListResources(_ context.Context) []func() list.ListResource {
	byType := map[string]func() resource.Resource{}
	for _, newResource := range p.Resources(context.Background()) {
		var meta resource.MetadataResponse
		newResource().Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "zulip"}, &meta)
		byType[meta.TypeName] = newResource
	}
	out := make([]func() list.ListResource, len(importSources))
	for i, src := range importSources {
		newResource := byType[src.TypeName]
		if newResource == nil {
			panic("internal error: no resource of type " + src.TypeName)
		}
		out[i] = func() list.ListResource { return &kit.ListResource{Src: src, NewResource: newResource} }
	}
	return out
}
