package zulip

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// Environment variables read by Resolve beyond those of ResolveCredentials.
const (
	EnvRequestTimeout = "ZULIP_REQUEST_TIMEOUT"
	EnvSMSAPIURL      = "ZULIP_SMS_API_URL"
	EnvSMSUsername    = "ZULIP_SMS_USERNAME"
	EnvSMSPassword    = "ZULIP_SMS_PASSWORD"
)

// SourceDefault is the source of a value that no source gave, left to its default.
const SourceDefault = "default"

// Explicit are the provider's arguments, each nil when it was not given. A blank string
// counts as not given, as in ResolveCredentials.
type Explicit struct {
	URL           *string
	Email         *string
	APIKey        *string
	Zuliprc       *string
	Insecure      *bool
	CertBundle    *string
	ClientCert    *string
	ClientCertKey *string
	// MaxRetries, MaxRetryWait and RequestTimeout are the request settings; a negative
	// value, like 0, turns the feature off (see Setting).
	MaxRetries     *int
	MaxRetryWait   *time.Duration
	RequestTimeout *time.Duration
	SMS            ExplicitSMS
}

// ExplicitSMS are the arguments of the provider's sms block, each nil when not given.
type ExplicitSMS struct {
	APIURL   *string
	Username *string
	Password *string
}

// Sourced is a resolved value and where it came from: SourceExplicit, "environment
// variable NAME", "zuliprc file PATH" or SourceDefault. An empty Source means no source
// gave the value and it has no default: Value is then T's zero value and means none.
type Sourced[T any] struct {
	Value  T
	Source string
}

// Given reports whether some source, or a default, supplied the value.
func (s Sourced[T]) Given() bool { return s.Source != "" }

// SMSCredentials are the resolved credentials of the SMS conversations API. Without an
// APIURL the SMS client uses its own default.
type SMSCredentials struct {
	APIURL   Sourced[string]
	Username Sourced[string]
	Password Sourced[string]
}

// Resolved is the provider's whole configuration, each value found in its sources: the
// credentials and TLS settings (as ResolveCredentials finds them), the request settings
// (an argument, ZULIP_REQUEST_TIMEOUT for request_timeout, else the default) and the SMS
// credentials (an argument, else ZULIP_SMS_API_URL, ZULIP_SMS_USERNAME, ZULIP_SMS_PASSWORD).
type Resolved struct {
	Credentials    Credentials
	Sources        Sources
	MaxRetries     Sourced[int]
	MaxRetryWait   Sourced[time.Duration]
	RequestTimeout Sourced[time.Duration]
	SMS            SMSCredentials
}

// Config is the Config of a Client for the resolved settings. The caller adds what is
// its own: UserAgent, Logf, Warnf.
func (r Resolved) Config() Config {
	c := r.Credentials
	return Config{
		SiteURL:        c.Site,
		Email:          c.Email,
		APIKey:         c.APIKey,
		Insecure:       c.Insecure != nil && *c.Insecure,
		CertBundle:     c.CertBundle,
		ClientCert:     c.ClientCert,
		ClientCertKey:  c.ClientCertKey,
		MaxRetries:     Set(r.MaxRetries.Value),
		MaxRetryWait:   Set(r.MaxRetryWait.Value),
		RequestTimeout: Set(r.RequestTimeout.Value),
	}
}

// Resolve finds every setting of the provider in its sources. The credentials and TLS
// settings are ResolveCredentials' (with explicit.Zuliprc as its zuliprc path); its error
// ends the resolution, with Resolved holding what it found. Then: max_retries and
// max_retry_wait come from their arguments, else their defaults; request_timeout from its
// argument, else ZULIP_REQUEST_TIMEOUT (a duration such as 30s; anything else, or a
// negative duration, is a *SettingError naming request_timeout and the variable), else
// its default; each SMS credential from its argument, else its environment variable.
//
// env is the environment lookup (os.Getenv when nil), as in ResolveCredentials.
func Resolve(explicit Explicit, env func(string) string) (Resolved, error) {
	if env == nil {
		env = os.Getenv
	}
	var r Resolved
	var err error
	r.Credentials, r.Sources, err = ResolveCredentials(explicit.credentials(), env, deref(explicit.Zuliprc))
	if err != nil {
		return r, err
	}
	r.MaxRetries = argumentOr(explicit.MaxRetries, DefaultMaxRetries)
	r.MaxRetryWait = argumentOr(explicit.MaxRetryWait, DefaultMaxRetryWait)
	r.RequestTimeout, err = resolveRequestTimeout(explicit.RequestTimeout, env)
	r.SMS = SMSCredentials{
		APIURL:   argumentOrEnv(explicit.SMS.APIURL, env, EnvSMSAPIURL),
		Username: argumentOrEnv(explicit.SMS.Username, env, EnvSMSUsername),
		Password: argumentOrEnv(explicit.SMS.Password, env, EnvSMSPassword),
	}
	return r, err
}

// credentials are the explicit credentials and TLS settings for ResolveCredentials.
func (e Explicit) credentials() Credentials {
	return Credentials{
		Site: deref(e.URL), Email: deref(e.Email), APIKey: deref(e.APIKey), Insecure: e.Insecure,
		CertBundle: deref(e.CertBundle), ClientCert: deref(e.ClientCert), ClientCertKey: deref(e.ClientCertKey),
	}
}

// deref is *s, or "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// argumentOr is the argument's value, or def when it was not given.
func argumentOr[T any](arg *T, def T) Sourced[T] {
	if arg != nil {
		return Sourced[T]{Value: *arg, Source: SourceExplicit}
	}
	return Sourced[T]{Value: def, Source: SourceDefault}
}

// argumentOrEnv is a non-empty argument, else the non-empty environment variable name,
// else none. Neither is trimmed: a password may hold any character.
func argumentOrEnv(arg *string, env func(string) string, name string) Sourced[string] {
	if arg != nil && *arg != "" {
		return Sourced[string]{Value: *arg, Source: SourceExplicit}
	}
	if v := env(name); v != "" {
		return Sourced[string]{Value: v, Source: envSource(name)}
	}
	return Sourced[string]{}
}

// resolveRequestTimeout is the request_timeout argument, else ZULIP_REQUEST_TIMEOUT
// (trimmed), else DefaultRequestTimeout. A variable that is not a duration of at least 0
// is a *SettingError, with the default resolved in its place.
func resolveRequestTimeout(arg *time.Duration, env func(string) string) (Sourced[time.Duration], error) {
	if arg != nil {
		return Sourced[time.Duration]{Value: *arg, Source: SourceExplicit}, nil
	}
	def := Sourced[time.Duration]{Value: DefaultRequestTimeout, Source: SourceDefault}
	text := strings.TrimSpace(env(EnvRequestTimeout))
	if text == "" {
		return def, nil
	}
	source := envSource(EnvRequestTimeout)
	d, err := time.ParseDuration(text)
	if err != nil || d < 0 {
		return def, &SettingError{Setting: "request_timeout", Source: source,
			Msg: fmt.Sprintf("%q is not a duration such as 30s or 2m", text)}
	}
	return Sourced[time.Duration]{Value: d, Source: source}, nil
}

// envSource is the source of a value from the environment variable name.
func envSource(name string) string { return "environment variable " + name }
