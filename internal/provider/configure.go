package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Configure reads the configuration, resolves every setting from the
// arguments, the environment and the zuliprc file, reports what is missing or
// unusable, builds the API client, learns the server's feature level and,
// with credentials, checks them and learns whose they are: each a step below,
// in order; the first that fails ends the configuration with its diagnostics.
func (p *zulipProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	cfg, ok := p.readConfig(ctx, req, resp)
	if !ok {
		return
	}
	resolved, err := zulip.Resolve(cfg.explicit(), p.getenv)
	if !diagnoseResolved(resolved, err, &resp.Diagnostics) {
		return
	}
	logResolved(ctx, resolved)
	data, ok := p.build(resolved, cfg.SMS, &resp.Diagnostics)
	if !ok {
		return
	}
	if !probe(ctx, data, resolved, &resp.Diagnostics) {
		return
	}
	setProviderData(resp, data)
}

// readConfig reads the provider configuration. An argument fed from a
// resource that does not exist yet is unknown during plan. Building a client
// from a partial configuration would talk to the wrong server (or none), so
// the provider stays unconfigured for this run: resources plan without
// server-side checks and their operations report why. It reports false when
// Configure has nothing more to do.
func (p *zulipProvider) readConfig(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) (zulipProviderModel, bool) {
	var cfg zulipProviderModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return cfg, false
	}
	if cfg.hasUnknown() {
		tflog.Info(ctx, "provider configuration depends on unknown values; deferring server checks")
		setProviderData(resp, &kit.ProviderData{UnknownConfig: true, Version: p.version})
		return cfg, false
	}
	return cfg, true
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

// explicit is what the configuration sets, for zulip.Resolve. The durations
// are valid (the schema checks them); an unknown max_retries or max_retry_wait
// reads as 0, and an unknown request_timeout or sms argument as not set.
func (cfg zulipProviderModel) explicit() zulip.Explicit {
	e := zulip.Explicit{
		URL: cfg.URL.ValueStringPointer(), Email: cfg.Email.ValueStringPointer(), APIKey: cfg.APIKey.ValueStringPointer(),
		Zuliprc: cfg.Zuliprc.ValueStringPointer(), Insecure: cfg.Insecure.ValueBoolPointer(),
		CertBundle: cfg.CertBundle.ValueStringPointer(), ClientCert: cfg.ClientCert.ValueStringPointer(),
		ClientCertKey: cfg.ClientCertKey.ValueStringPointer(),
	}
	if !cfg.MaxRetries.IsNull() {
		e.MaxRetries = new(int(cfg.MaxRetries.ValueInt64()))
	}
	if !cfg.MaxRetryWait.IsNull() {
		e.MaxRetryWait = new(parsedDuration(cfg.MaxRetryWait.ValueString())) // 0: never wait
	}
	if !cfg.RequestTimeout.IsNull() && !cfg.RequestTimeout.IsUnknown() {
		e.RequestTimeout = new(parsedDuration(cfg.RequestTimeout.ValueString())) // 0: no limit
	}
	if m := cfg.SMS; m != nil {
		e.SMS = zulip.ExplicitSMS{APIURL: knownString(m.APIURL), Username: knownString(m.Username), Password: knownString(m.Password)}
	}
	return e
}

// parsedDuration is a duration the schema validated; 0 for an unknown one.
func parsedDuration(s string) time.Duration {
	d, _ := time.ParseDuration(s)
	return d
}

// knownString is a known string's value, nil for a null or unknown one.
func knownString(s types.String) *string {
	if s.IsUnknown() {
		return nil
	}
	return s.ValueStringPointer()
}

// logResolved logs the resolved settings and their sources, never the API key.
func logResolved(ctx context.Context, r zulip.Resolved) {
	creds, sources := r.Credentials, r.Sources
	tflog.Info(ctx, "configuring Zulip client", map[string]any{
		"url": creds.Site, "url_source": sources.Site, "email": creds.Email,
		"email_source": sources.Email, "api_key_source": sources.APIKey,
		"insecure_source": sources.Insecure, "cert_bundle": creds.CertBundle, "cert_bundle_source": sources.CertBundle,
		"client_cert": creds.ClientCert, "client_cert_source": sources.ClientCert,
	})
}

// credentialSources says where each credential may be given, for messages.
var credentialSources = map[string]string{
	"url":     "the `url` argument, the ZULIP_SITE or ZULIP_URL environment variable, or `site` in the [api] section of a zuliprc file",
	"email":   "the `email` argument, the ZULIP_EMAIL environment variable, or `email` in the [api] section of a zuliprc file",
	"api_key": "the `api_key` argument, the ZULIP_API_KEY environment variable, or `key` in the [api] section of a zuliprc file",
}

// diagnoseResolved reports what zulip.Resolve could not resolve, in the
// order the provider has always checked: an unreadable zuliprc file or an
// unusable credential setting; then missing credentials; then an unusable
// request setting. Without any credentials the provider can still reach the
// endpoints that need none (the development API key), so only a half-given
// pair is missing. It reports false on an error.
func diagnoseResolved(r zulip.Resolved, err error, diags *diag.Diagnostics) bool {
	var settingErr *zulip.SettingError
	requestSetting := errors.As(err, &settingErr) && settingErr.Setting == "request_timeout"
	if err != nil && !requestSetting {
		addResolveError(err, diags)
		return false
	}
	creds, sources := r.Credentials, r.Sources
	for _, attr := range creds.Missing() {
		if !creds.HasAccount() && attr != "url" {
			continue
		}
		detail := fmt.Sprintf("The provider needs a value for %q. Set it in %s (the file is named by `zuliprc`, ZULIP_CONFIG, or defaults to ~/.zuliprc).", attr, credentialSources[attr])
		if found := describeCredentials(creds, sources); found != "" {
			detail += "\n\nFound so far:\n" + found
		}
		diags.AddAttributeError(path.Root(attr), "Missing Zulip "+attrTitle(attr), detail)
	}
	if err != nil && !diags.HasError() {
		addResolveError(err, diags)
	}
	return !diags.HasError()
}

// addResolveError reports an error of zulip.Resolve: a setting it cannot
// use, by the setting's name and source, or a zuliprc file it cannot read.
func addResolveError(err error, diags *diag.Diagnostics) {
	var settingErr *zulip.SettingError
	if errors.As(err, &settingErr) {
		diags.AddAttributeError(path.Root(settingErr.Setting), "Invalid Zulip Setting",
			fmt.Sprintf("The provider cannot use %s.", describeSettingError(settingErr)))
		return
	}
	diags.AddAttributeError(path.Root("zuliprc"), "Unreadable zuliprc File",
		fmt.Sprintf("The provider could not read its zuliprc file: %s", err))
}

// build makes the API client and the provider data every resource gets; the
// server's feature level and the account are probe's to fill in.
func (p *zulipProvider) build(r zulip.Resolved, sms *smsModel, diags *diag.Diagnostics) (*kit.ProviderData, bool) {
	client, ok := newClient(p.clientConfig(r), r.Credentials, r.Sources, diags)
	if !ok {
		return nil, false
	}
	return &kit.ProviderData{
		Client:        client,
		StateTypes:    stateTypes,
		Events:        kit.NewEventFeed(client),
		HasCreds:      r.Credentials.HasAccount(),
		Destroying:    p.destroying,
		Journal:       p.journal,
		NoCredentials: describeNoCredentials(r.Credentials, r.Sources, credentialSources),
		Version:       p.version,
		Cache:         kit.NewCollectionCache(),
		FlagReads:     kit.NewIDBatcher[map[int64]zulip.NarrowMatch](kit.ReadBatchWindow),
		MessageReads:  kit.NewIDBatcher[map[int64]zulip.Message](kit.ReadBatchWindow),
		SMS:           smsSettings(r.SMS, sms),
	}, true
}

// clientConfig is the API client's configuration: the resolved settings, the
// provider's user agent, and its logging.
func (p *zulipProvider) clientConfig(r zulip.Resolved) zulip.Config {
	clientCfg := r.Config()
	clientCfg.UserAgent = zulip.UserAgent(p.version)
	clientCfg.Logf = func(ctx context.Context, msg string, fields map[string]any) {
		tflog.Debug(ctx, msg, fields)
	}
	// Waits are what make an apply slow: at WARN they show whenever any
	// provider logging is on, and each operation that waited says so in a
	// warning (WithVisibleWaits), which Terraform always shows.
	clientCfg.Warnf = func(ctx context.Context, msg string, fields map[string]any) {
		tflog.Warn(ctx, msg, fields)
		kit.NoteWait(ctx, msg, fields)
	}
	return clientCfg
}

// smsSettings are the resolved SMS credentials, unknown when the sms block
// depends on values not known yet.
func smsSettings(r zulip.SMSCredentials, m *smsModel) kit.SMSSettings {
	return kit.SMSSettings{
		APIURL: r.APIURL.Value, Username: r.Username.Value, Password: r.Password.Value,
		Unknown: m != nil && (m.APIURL.IsUnknown() || m.Username.IsUnknown() || m.Password.IsUnknown()),
	}
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

// probe asks the server for its settings, which tell the feature level every
// plan-time check needs, and, with credentials, checks the account
// (checkAccount). It reports false on an error.
func probe(ctx context.Context, d *kit.ProviderData, r zulip.Resolved, diags *diag.Diagnostics) bool {
	creds, sources := r.Credentials, r.Sources
	settings, err := d.Client.GetServerSettings(ctx)
	if err != nil {
		diags.AddAttributeError(path.Root("url"), "Unable to Reach the Zulip Server",
			fmt.Sprintf("The provider could not read /server_settings from %s: %s%s\n\nThe provider used:\n%s",
				d.Client.BaseURL(), err, tlsHint(err, creds, sources), describeCredentials(creds, sources)))
		return false
	}
	tflog.Info(ctx, "connected to Zulip", map[string]any{
		"zulip_version": settings.ZulipVersion, "zulip_feature_level": settings.ZulipFeatureLevel,
	})
	d.ServerSettings = settings
	return !d.HasCreds || checkAccount(ctx, d, creds, sources, diags)
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
		"A provider with only `url` can open the zulip_dev_api_key ephemeral resource and read the zulip_server data source, nothing else."
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
