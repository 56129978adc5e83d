// Package provider implements the Terraform surface of the Zulip provider: the
// provider itself, its resources, data sources and ephemeral resources.
package provider

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ provider.Provider                       = (*zulipProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*zulipProvider)(nil)
)

// New returns a constructor of the provider at the given version.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &zulipProvider{version: version, getenv: os.Getenv} }
}

// zulipProvider is the Zulip provider.
type zulipProvider struct {
	version string
	// getenv reads the environment; a field so that tests can substitute it.
	getenv func(string) string
}

// zulipProviderModel is the provider configuration.
type zulipProviderModel struct {
	URL          types.String `tfsdk:"url"`
	Email        types.String `tfsdk:"email"`
	APIKey       types.String `tfsdk:"api_key"`
	Zuliprc      types.String `tfsdk:"zuliprc"`
	Insecure     types.Bool   `tfsdk:"insecure"`
	MaxRetries   types.Int64  `tfsdk:"max_retries"`
	MaxRetryWait types.String `tfsdk:"max_retry_wait"`
	SMS          *smsModel    `tfsdk:"sms"`
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
			"topic preferences, profile data and more. Credentials come from the arguments below, then the " +
			"`ZULIP_*` environment variables, then a zuliprc file.",
		Attributes: map[string]schema.Attribute{
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
				MarkdownDescription: "Path to a zuliprc file (`[api]` section with `site`, `email`, `key`). " +
					"Defaults to `ZULIP_CONFIG`, then `~/.zuliprc` when that exists.",
			},
			"insecure": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Skip TLS certificate verification (self-signed development servers only). Default `false`.",
			},
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
					"rate limits, as a Go duration such as `90s` or `5m`. Default `%s`.", zulip.DefaultMaxRetryWait),
				Validators: []validator.String{validators.String("must be a duration such as 30s or 2m", checkDuration)},
			},
		},
		Blocks: map[string]schema.Block{
			"sms": schema.SingleNestedBlock{
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
			},
		},
	}
}

// Configure resolves credentials, builds the API client and learns the
// server's feature level.
func (p *zulipProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg zulipProviderModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// An argument fed from a resource that does not exist yet is unknown during
	// plan. Building a client from a partial configuration would talk to the wrong
	// server (or none), so the provider stays unconfigured for this run: resources
	// plan without server-side checks and their operations report why.
	if cfg.URL.IsUnknown() || cfg.Email.IsUnknown() || cfg.APIKey.IsUnknown() || cfg.Zuliprc.IsUnknown() {
		tflog.Info(ctx, "provider configuration depends on unknown values; deferring server checks")
		data := &providerData{unknownConfig: true, version: p.version}
		resp.ResourceData, resp.DataSourceData, resp.EphemeralResourceData = data, data, data
		return
	}

	creds, sources, err := zulip.ResolveCredentials(zulip.Credentials{
		Site: cfg.URL.ValueString(), Email: cfg.Email.ValueString(), APIKey: cfg.APIKey.ValueString(),
	}, p.getenv, cfg.Zuliprc.ValueString())
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("zuliprc"), "Unreadable zuliprc File",
			fmt.Sprintf("The provider could not read its zuliprc file: %s", err))
		return
	}
	where := map[string]string{
		"url":     "the `url` argument, the ZULIP_SITE or ZULIP_URL environment variable, or `site` in the [api] section of a zuliprc file",
		"email":   "the `email` argument, the ZULIP_EMAIL environment variable, or `email` in the [api] section of a zuliprc file",
		"api_key": "the `api_key` argument, the ZULIP_API_KEY environment variable, or `key` in the [api] section of a zuliprc file",
	}
	missing := creds.Missing()
	// Without any credentials the provider can still reach the endpoints that need
	// none (the development API key), so only a half-given pair is an error here.
	noCredentials := creds.Email == "" && creds.APIKey == ""
	for _, attr := range missing {
		if noCredentials && attr != "url" {
			continue
		}
		resp.Diagnostics.AddAttributeError(path.Root(attr), "Missing Zulip "+attrTitle(attr),
			fmt.Sprintf("The provider needs a value for %q. Set it in %s (the file is named by `zuliprc`, ZULIP_CONFIG, or defaults to ~/.zuliprc).", attr, where[attr]))
	}
	if resp.Diagnostics.HasError() {
		return
	}
	tflog.Info(ctx, "configuring Zulip client", map[string]any{
		"url": creds.Site, "url_source": sources.Site, "email": creds.Email,
		"email_source": sources.Email, "api_key_source": sources.APIKey,
	})

	clientCfg := zulip.Config{
		SiteURL:   creds.Site,
		Email:     creds.Email,
		APIKey:    creds.APIKey,
		UserAgent: zulip.UserAgent(p.version),
		Insecure:  cfg.Insecure.ValueBool(),
		Logf: func(ctx context.Context, msg string, fields map[string]any) {
			tflog.Debug(ctx, msg, fields)
		},
	}
	if !cfg.MaxRetries.IsNull() {
		clientCfg.MaxRetries = int(cfg.MaxRetries.ValueInt64())
		if clientCfg.MaxRetries == 0 {
			clientCfg.MaxRetries = -1 // the client reads 0 as "default"; the user meant "none"
		}
	}
	if !cfg.MaxRetryWait.IsNull() {
		d, _ := time.ParseDuration(cfg.MaxRetryWait.ValueString()) // validated by the schema
		clientCfg.MaxRetryWait = d
		if d == 0 {
			clientCfg.MaxRetryWait = -1
		}
	}
	client, err := zulip.New(clientCfg)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("url"), "Invalid Zulip Configuration",
			fmt.Sprintf("The provider could not build its API client: %s", err))
		return
	}

	settings, err := client.GetServerSettings(ctx)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("url"), "Unable to Reach the Zulip Server",
			fmt.Sprintf("The provider could not read /server_settings from %s: %s", client.BaseURL(), err))
		return
	}
	tflog.Info(ctx, "connected to Zulip", map[string]any{
		"zulip_version": settings.ZulipVersion, "zulip_feature_level": settings.ZulipFeatureLevel,
	})

	data := &providerData{
		client:        client,
		hasCreds:      !noCredentials,
		featureLevel:  settings.ZulipFeatureLevel,
		serverVersion: settings.ZulipVersion,
		version:       p.version,
		cache:         newCollectionCache(),
		sms:           p.smsConfig(cfg.SMS),
	}
	resp.ResourceData, resp.DataSourceData, resp.EphemeralResourceData = data, data, data
}

// smsConfig resolves the sms block against the ZULIP_SMS_* environment variables.
func (p *zulipProvider) smsConfig(m *smsModel) smsSettings {
	var s smsSettings
	if m != nil {
		s = smsSettings{APIURL: m.APIURL.ValueString(), Username: m.Username.ValueString(), Password: m.Password.ValueString(),
			unknown: m.APIURL.IsUnknown() || m.Username.IsUnknown() || m.Password.IsUnknown()}
	}
	if s.APIURL == "" {
		s.APIURL = p.getenv("ZULIP_SMS_API_URL")
	}
	if s.Username == "" {
		s.Username = p.getenv("ZULIP_SMS_USERNAME")
	}
	if s.Password == "" {
		s.Password = p.getenv("ZULIP_SMS_PASSWORD")
	}
	return s
}

// Resources lists the provider's resources.
func (p *zulipProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewLinkifierResource,
		NewSavedSnippetResource,
		NewAllowedDomainResource,
		NewUserResource,
		NewUserTopicResource,
		NewProfileDataResource,
		NewMessageFlagsResource,
		NewAPNsDeviceTokenResource,
		NewPushTestNotificationResource,
		NewMessageReportResource,
		NewOwnAccountDeactivationResource,
		NewSMSQuestionResource,
	}
}

// DataSources lists the provider's data sources.
func (p *zulipProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewUserDataSource,
		NewCustomProfileFieldsDataSource,
		NewMessagesMatchingNarrowDataSource,
		NewChannelsDataSource,
		NewUserGroupsDataSource,
		NewUserStatusDataSource,
		NewTopicsDataSource,
	}
}

// EphemeralResources lists the provider's ephemeral resources.
func (p *zulipProvider) EphemeralResources(_ context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		NewEventQueueEphemeralResource,
		NewDevAPIKeyEphemeralResource,
	}
}

// checkDuration accepts a non-negative Go duration.
func checkDuration(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("%q is not a duration such as 30s or 2m", s)
	}
	return nil
}

// attrTitle turns an argument name into a diagnostic title fragment.
func attrTitle(attr string) string {
	switch attr {
	case "url":
		return "URL"
	case "api_key":
		return "API Key"
	default:
		return strings.ToUpper(attr[:1]) + attr[1:]
	}
}
