// Package provider implements the Terraform surface of the Zulip provider: the
// provider itself, its resources, data sources and ephemeral resources.
package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ provider.Provider                       = (*zulipProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*zulipProvider)(nil)
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

// envRequestTimeout is the environment fallback of request_timeout.
const envRequestTimeout = "ZULIP_REQUEST_TIMEOUT"

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
				"limit. Falls back to `%s`. Default `%s`.", envRequestTimeout, kit.FormatDuration(zulip.DefaultRequestTimeout)),
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

// Configure resolves credentials, builds the API client, learns the server's
// feature level and, with credentials, checks them and learns whose they are:
// each step below, in order; the first that fails ends the configuration
// with its diagnostics.
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
	if cfg.hasUnknown() {
		tflog.Info(ctx, "provider configuration depends on unknown values; deferring server checks")
		setProviderData(resp, &kit.ProviderData{UnknownConfig: true, Version: p.version})
		return
	}
	creds, sources, ok := p.resolveCredentials(cfg, &resp.Diagnostics)
	if !ok {
		return
	}
	tflog.Info(ctx, "configuring Zulip client", map[string]any{
		"url": creds.Site, "url_source": sources.Site, "email": creds.Email,
		"email_source": sources.Email, "api_key_source": sources.APIKey,
		"insecure_source": sources.Insecure, "cert_bundle": creds.CertBundle, "cert_bundle_source": sources.CertBundle,
		"client_cert": creds.ClientCert, "client_cert_source": sources.ClientCert,
	})
	clientCfg, ok := p.clientConfig(cfg, creds, &resp.Diagnostics)
	if !ok {
		return
	}
	client, ok := newClient(clientCfg, creds, sources, &resp.Diagnostics)
	if !ok {
		return
	}
	settings, err := client.GetServerSettings(ctx)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("url"), "Unable to Reach the Zulip Server",
			fmt.Sprintf("The provider could not read /server_settings from %s: %s%s\n\nThe provider used:\n%s",
				client.BaseURL(), err, tlsHint(err, creds, sources), describeCredentials(creds, sources)))
		return
	}
	tflog.Info(ctx, "connected to Zulip", map[string]any{
		"zulip_version": settings.ZulipVersion, "zulip_feature_level": settings.ZulipFeatureLevel,
	})
	noCredentials := creds.Email == "" && creds.APIKey == ""
	data := &kit.ProviderData{
		Client:        client,
		Events:        kit.NewEventFeed(client),
		HasCreds:      !noCredentials,
		Destroying:    p.destroying,
		Journal:       p.journal,
		NoCredentials: describeNoCredentials(creds, sources, credentialSources),
		FeatureLevel:  settings.ZulipFeatureLevel,
		ServerVersion: settings.ZulipVersion,
		Version:       p.version,
		Cache:         kit.NewCollectionCache(),
		FlagReads:     kit.NewIDBatcher[map[int64]zulip.NarrowMatch](kit.ReadBatchWindow),
		SMS:           p.smsConfig(cfg.SMS),
	}
	if data.HasCreds && !checkAccount(ctx, data, creds, sources, &resp.Diagnostics) {
		return
	}
	setProviderData(resp, data)
}

// setProviderData hands data to every kind of the provider's types.
func setProviderData(resp *provider.ConfigureResponse, data *kit.ProviderData) {
	resp.ResourceData, resp.DataSourceData, resp.EphemeralResourceData, resp.ActionData, resp.ListResourceData = data, data, data, data, data
}

// hasUnknown reports a configuration with a value not known yet.
func (cfg zulipProviderModel) hasUnknown() bool {
	return cfg.URL.IsUnknown() || cfg.Email.IsUnknown() || cfg.APIKey.IsUnknown() || cfg.Zuliprc.IsUnknown() ||
		cfg.Insecure.IsUnknown() || cfg.CertBundle.IsUnknown() || cfg.ClientCert.IsUnknown() || cfg.ClientCertKey.IsUnknown()
}

// credentialSources says where each credential may be given, for messages.
var credentialSources = map[string]string{
	"url":     "the `url` argument, the ZULIP_SITE or ZULIP_URL environment variable, or `site` in the [api] section of a zuliprc file",
	"email":   "the `email` argument, the ZULIP_EMAIL environment variable, or `email` in the [api] section of a zuliprc file",
	"api_key": "the `api_key` argument, the ZULIP_API_KEY environment variable, or `key` in the [api] section of a zuliprc file",
}

// resolveCredentials resolves the credentials from the arguments, the
// environment and the zuliprc file, and reports what is missing. Without any
// credentials the provider can still reach the endpoints that need none (the
// development API key), so only a half-given pair is an error here.
func (p *zulipProvider) resolveCredentials(cfg zulipProviderModel, diags *diag.Diagnostics) (zulip.Credentials, zulip.Sources, bool) {
	explicit := zulip.Credentials{
		Site: cfg.URL.ValueString(), Email: cfg.Email.ValueString(), APIKey: cfg.APIKey.ValueString(),
		CertBundle: cfg.CertBundle.ValueString(), ClientCert: cfg.ClientCert.ValueString(), ClientCertKey: cfg.ClientCertKey.ValueString(),
	}
	if !cfg.Insecure.IsNull() {
		explicit.Insecure = cfg.Insecure.ValueBoolPointer()
	}
	creds, sources, err := zulip.ResolveCredentials(explicit, p.getenv, cfg.Zuliprc.ValueString())
	if err != nil {
		var settingErr *zulip.SettingError
		if errors.As(err, &settingErr) {
			diags.AddAttributeError(path.Root(settingErr.Setting), "Invalid Zulip Setting",
				fmt.Sprintf("The provider cannot use %s.", describeSettingError(settingErr)))
			return creds, sources, false
		}
		diags.AddAttributeError(path.Root("zuliprc"), "Unreadable zuliprc File",
			fmt.Sprintf("The provider could not read its zuliprc file: %s", err))
		return creds, sources, false
	}
	noCredentials := creds.Email == "" && creds.APIKey == ""
	for _, attr := range creds.Missing() {
		if noCredentials && attr != "url" {
			continue
		}
		detail := fmt.Sprintf("The provider needs a value for %q. Set it in %s (the file is named by `zuliprc`, ZULIP_CONFIG, or defaults to ~/.zuliprc).", attr, credentialSources[attr])
		if found := describeCredentials(creds, sources); found != "" {
			detail += "\n\nFound so far:\n" + found
		}
		diags.AddAttributeError(path.Root(attr), "Missing Zulip "+attrTitle(attr), detail)
	}
	return creds, sources, !diags.HasError()
}

// clientConfig is the API client's configuration: the credentials, and the
// retry and timeout settings from the arguments or the environment.
func (p *zulipProvider) clientConfig(cfg zulipProviderModel, creds zulip.Credentials, diags *diag.Diagnostics) (zulip.Config, bool) {
	clientCfg := zulip.Config{
		SiteURL:       creds.Site,
		Email:         creds.Email,
		APIKey:        creds.APIKey,
		UserAgent:     zulip.UserAgent(p.version),
		Insecure:      creds.Insecure != nil && *creds.Insecure,
		CertBundle:    creds.CertBundle,
		ClientCert:    creds.ClientCert,
		ClientCertKey: creds.ClientCertKey,
		Logf: func(ctx context.Context, msg string, fields map[string]any) {
			tflog.Debug(ctx, msg, fields)
		},
		// Waits are what make an apply slow: at WARN they show whenever any
		// provider logging is on, and each operation that waited says so in a
		// warning (WithVisibleWaits), which Terraform always shows.
		Warnf: func(ctx context.Context, msg string, fields map[string]any) {
			tflog.Warn(ctx, msg, fields)
			kit.NoteWait(ctx, msg, fields)
		},
	}
	if !cfg.MaxRetries.IsNull() {
		clientCfg.MaxRetries = zulip.Set(int(cfg.MaxRetries.ValueInt64()))
	}
	if !cfg.MaxRetryWait.IsNull() {
		d, _ := time.ParseDuration(cfg.MaxRetryWait.ValueString()) // validated by the schema
		clientCfg.MaxRetryWait = zulip.Set(d)                      // 0: never wait
	}
	timeout, timeoutSource := cfg.RequestTimeout.ValueString(), "the `request_timeout` argument"
	if cfg.RequestTimeout.IsNull() || cfg.RequestTimeout.IsUnknown() {
		timeout, timeoutSource = strings.TrimSpace(p.getenv(envRequestTimeout)), "environment variable "+envRequestTimeout
	}
	if timeout != "" {
		if err := kit.CheckDuration(timeout); err != nil {
			diags.AddAttributeError(path.Root("request_timeout"), "Invalid Zulip Setting",
				fmt.Sprintf("The provider cannot use request_timeout (from %s): %s.", timeoutSource, err))
			return clientCfg, false
		}
		d, _ := time.ParseDuration(timeout)
		clientCfg.RequestTimeout = zulip.Set(d) // 0: no limit
	}
	return clientCfg, true
}

// newClient builds the API client, naming the setting a TLS file came from
// when it cannot be used.
func newClient(clientCfg zulip.Config, creds zulip.Credentials, sources zulip.Sources, diags *diag.Diagnostics) (*zulip.Client, bool) {
	client, err := zulip.New(clientCfg)
	if err == nil {
		return client, true
	}
	var fileErr *zulip.TLSFileError
	if errors.As(err, &fileErr) {
		diags.AddAttributeError(path.Root(fileErr.Setting), "Unusable Zulip TLS File",
			fmt.Sprintf("The provider cannot use %s (from %s): %s", fileErr.Setting, describeSource(fileErr.Setting,
				tlsSource(sources, fileErr.Setting)), err))
		return nil, false
	}
	diags.AddAttributeError(path.Root("url"), "Invalid Zulip Configuration",
		fmt.Sprintf("The provider could not build its API client: %s\n\n%s", err, describeCredentials(creds, sources)))
	return nil, false
}

// checkAccount asks the server whose the credentials are: one request now
// turns wrong credentials into a plan-time error naming where each value came
// from, rather than one "unauthorized" per resource; the answer also tells
// plan-time checks what the account may do. It reports false on an error.
func checkAccount(ctx context.Context, d *kit.ProviderData, creds zulip.Credentials, sources zulip.Sources, diags *diag.Diagnostics) bool {
	me, err := d.Client.GetOwnUser(ctx)
	switch {
	case err == nil:
		d.Me = me
		tflog.Info(ctx, "authenticated to Zulip", map[string]any{"user_id": me.UserID, "role": me.Role})
	case isDeactivatedAccount(err):
		// Not an error: zulip_own_account_deactivation leaves its own
		// credentials deactivated, and its state must still plan (its Read
		// needs no server). Every operation that calls the server fails
		// with the server's "Account is deactivated", so any plan that reads does.
		diags.AddWarning("Zulip Account Deactivated",
			fmt.Sprintf("The Zulip server at %s says the account %s is deactivated (%s). Every operation that calls "+
				"the server will fail; only resources whose state needs no server, such as zulip_own_account_deactivation, "+
				"still plan. An organization administrator can reactivate the account, or configure the provider with "+
				"another account's e-mail and API key.\n\nThe provider used:\n%s",
				d.Client.BaseURL(), creds.Email, err, describeCredentials(creds, sources)))
	default:
		addCredentialsError(diags, d.Client.BaseURL(), creds, sources, err)
		return false
	}
	return true
}

// addCredentialsError reports a failed GET /users/me at configure time.
func addCredentialsError(diags *diag.Diagnostics, baseURL string, creds zulip.Credentials, sources zulip.Sources, err error) {
	used := describeCredentials(creds, sources)
	if !zulip.IsUnauthorized(err) {
		diags.AddError("Unable to Check Zulip Credentials",
			fmt.Sprintf("The provider could not check its credentials with GET /users/me on %s: %s\n\nThe provider used:\n%s",
				baseURL, err, used))
		return
	}
	var reason string
	switch zulip.AuthFailureOf(err) {
	case zulip.AuthRealmDeactivated:
		reason = "the organization is deactivated."
	case zulip.AuthInvalidAPIKey:
		reason = "no account on this server has that e-mail address with that API key. Check both, and that " +
			"the key is current (regenerating a key in Zulip's settings invalidates the old one)."
	default:
		reason = "the server does not accept them."
	}
	diags.AddError("Invalid Zulip Credentials",
		fmt.Sprintf("The provider checked its credentials with GET /users/me, and the Zulip server at %s rejected its credentials: %s\n\n"+
			"The provider used:\n%s\n\nServer said: %s", baseURL, reason, used, err))
}

// isDeactivatedAccount reports whether err is the server's answer for a
// deactivated account (and not, say, a deactivated organization): 401
// UNAUTHORIZED "Account is deactivated" on today's Zulip.
func isDeactivatedAccount(err error) bool {
	return zulip.AuthFailureOf(err) == zulip.AuthUserDeactivated
}

// describeNoCredentials says, for a plan that needs an account, that the
// provider has none and where it looked for one.
func describeNoCredentials(creds zulip.Credentials, sources zulip.Sources, where map[string]string) string {
	detail := "This change needs a Zulip account, and the provider was configured without one: no e-mail address and " +
		"no API key were found. The provider looks for the address in " + where["email"] + ", and for the key in " +
		where["api_key"] + " (the file is named by `zuliprc`, ZULIP_CONFIG, or defaults to ~/.zuliprc). " +
		"A provider with only `url` can open the zulip_dev_api_key ephemeral resource and nothing else."
	if found := describeCredentials(creds, sources); found != "" {
		detail += "\n\nFound:\n" + found
	}
	return detail
}

// describeCredentials lists the values the provider resolved and where each came
// from, one per line, for diagnostics. The API key is never shown, only its source.
func describeCredentials(creds zulip.Credentials, sources zulip.Sources) string {
	var lines []string
	add := func(attr, value, source string) {
		if source == "" {
			return
		}
		lines = append(lines, fmt.Sprintf("  - %s%s from %s", attr, value, describeSource(attr, source)))
	}
	add("url", " "+creds.Site, sources.Site)
	add("email", " "+creds.Email, sources.Email)
	add("api_key", " (not shown)", sources.APIKey)
	if creds.Insecure != nil {
		add("insecure", fmt.Sprintf(" %t", *creds.Insecure), sources.Insecure)
	}
	add("cert_bundle", " "+creds.CertBundle, sources.CertBundle)
	add("client_cert", " "+creds.ClientCert, sources.ClientCert)
	add("client_cert_key", " "+creds.ClientCertKey, sources.ClientCertKey)
	return strings.Join(lines, "\n")
}

// describeSource names a value's source for a diagnostic: the argument by name,
// or the environment variable or zuliprc file as ResolveCredentials names them.
func describeSource(attr, source string) string {
	if source == zulip.SourceExplicit {
		return "the `" + attr + "` argument"
	}
	return source
}

// describeSettingError names the setting of a SettingError, its source, and what is wrong.
func describeSettingError(e *zulip.SettingError) string {
	return fmt.Sprintf("%s (from %s): %s", e.Setting, describeSource(e.Setting, e.Source), e.Msg)
}

// tlsSource returns the source of a TLS setting by its zuliprc name.
func tlsSource(sources zulip.Sources, setting string) string {
	switch setting {
	case "cert_bundle":
		return sources.CertBundle
	case "client_cert":
		return sources.ClientCert
	case "client_cert_key":
		return sources.ClientCertKey
	}
	return ""
}

// tlsHint says which setting fixes a TLS failure, since Go's messages ("certificate
// signed by unknown authority", "remote error: tls: certificate required") do not.
func tlsHint(err error, creds zulip.Credentials, sources zulip.Sources) string {
	if !zulip.IsTLSFailure(err) {
		return ""
	}
	if zulip.IsPlainHTTPAnswer(err) {
		return "\n\nThe server does not speak TLS at this address; check the URL's scheme and port."
	}
	msg := err.Error()
	if strings.Contains(msg, "remote error") {
		hint := "\n\nThe server refused the TLS handshake"
		if creds.ClientCert == "" {
			return hint + ", probably because it requires a client certificate: set `client_cert` (and `client_cert_key` " +
				"when the key is in another file), ZULIP_CERT and ZULIP_CERT_KEY, or client_cert and client_cert_key in the zuliprc file."
		}
		return hint + fmt.Sprintf(": check that it accepts the client certificate %s (from %s).",
			creds.ClientCert, describeSource("client_cert", sources.ClientCert))
	}
	hint := "\n\nThe provider does not trust the server's certificate."
	if creds.CertBundle != "" {
		return hint + fmt.Sprintf(" It trusts only the authorities in %s (from %s); check that the CA that signed "+
			"the server's certificate is in it.", creds.CertBundle, describeSource("cert_bundle", sources.CertBundle))
	}
	return hint + " For a server whose certificate a private CA signed, set `cert_bundle` (or ZULIP_CERT_BUNDLE, or " +
		"cert_bundle in the zuliprc file) to a PEM file of that CA; `insecure` skips the check (development servers only)."
}

// smsConfig resolves the sms block against the ZULIP_SMS_* environment variables.
func (p *zulipProvider) smsConfig(m *smsModel) kit.SMSSettings {
	var s kit.SMSSettings
	if m != nil {
		s = kit.SMSSettings{APIURL: m.APIURL.ValueString(), Username: m.Username.ValueString(), Password: m.Password.ValueString(),
			Unknown: m.APIURL.IsUnknown() || m.Username.IsUnknown() || m.Password.IsUnknown()}
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
