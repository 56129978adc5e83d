package zulip

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// resolveCase is one setting of Resolve: how to give it as an argument, its environment
// variable and zuliprc key with their values (empty when the setting has none), how to
// read it back, and what each source should resolve to.
type resolveCase struct {
	name             string
	arg              func(*Explicit)
	env, envValue    string
	rcKey, rcValue   string
	get              func(Resolved) (any, string)
	argWant, envWant any
	rcWant, defWant  any
	defSource        string
}

// stringCase is a setting of text: "arg-NAME" as an argument, "env-NAME" in its variable,
// "rc-NAME" in the zuliprc file, and none by default.
func stringCase(name, env, rcKey string, arg func(*Explicit, *string), get func(Resolved) (any, string)) resolveCase {
	return resolveCase{name: name, arg: func(e *Explicit) { arg(e, new("arg-"+name)) },
		env: env, envValue: "env-" + name, rcKey: rcKey, rcValue: "rc-" + name, get: get,
		argWant: "arg-" + name, envWant: "env-" + name, rcWant: "rc-" + name, defWant: ""}
}

// sourced reads a Sourced value.
func sourced[T any](get func(Resolved) Sourced[T]) func(Resolved) (any, string) {
	return func(r Resolved) (any, string) { s := get(r); return s.Value, s.Source }
}

// resolveCases are every setting of the provider, in the order of its schema.
func resolveCases() []resolveCase {
	return []resolveCase{
		stringCase("url", EnvSite, "site", func(e *Explicit, v *string) { e.URL = v }, func(r Resolved) (any, string) { return r.Credentials.Site, r.Sources.Site }),
		stringCase("email", EnvEmail, "email", func(e *Explicit, v *string) { e.Email = v }, func(r Resolved) (any, string) { return r.Credentials.Email, r.Sources.Email }),
		stringCase("api_key", EnvAPIKey, "key", func(e *Explicit, v *string) { e.APIKey = v }, func(r Resolved) (any, string) { return r.Credentials.APIKey, r.Sources.APIKey }),
		{name: "insecure", arg: func(e *Explicit) { e.Insecure = new(true) },
			env: EnvAllowInsecure, envValue: "FALSE", rcKey: "insecure", rcValue: "true",
			get: func(r Resolved) (any, string) {
				if r.Credentials.Insecure == nil {
					return "none", r.Sources.Insecure
				}
				return *r.Credentials.Insecure, r.Sources.Insecure
			},
			argWant: true, envWant: false, rcWant: true, defWant: "none"},
		stringCase("cert_bundle", EnvCertBundle, "cert_bundle", func(e *Explicit, v *string) { e.CertBundle = v }, func(r Resolved) (any, string) { return r.Credentials.CertBundle, r.Sources.CertBundle }),
		stringCase("client_cert", EnvCert, "client_cert", func(e *Explicit, v *string) { e.ClientCert = v }, func(r Resolved) (any, string) { return r.Credentials.ClientCert, r.Sources.ClientCert }),
		stringCase("client_cert_key", EnvCertKey, "client_cert_key", func(e *Explicit, v *string) { e.ClientCertKey = v }, func(r Resolved) (any, string) { return r.Credentials.ClientCertKey, r.Sources.ClientCertKey }),
		{name: "max_retries", arg: func(e *Explicit) { e.MaxRetries = new(2) },
			get:     sourced(func(r Resolved) Sourced[int] { return r.MaxRetries }),
			argWant: 2, defWant: DefaultMaxRetries, defSource: SourceDefault},
		{name: "max_retry_wait", arg: func(e *Explicit) { e.MaxRetryWait = new(90 * time.Second) },
			get:     sourced(func(r Resolved) Sourced[time.Duration] { return r.MaxRetryWait }),
			argWant: 90 * time.Second, defWant: DefaultMaxRetryWait, defSource: SourceDefault},
		{name: "request_timeout", arg: func(e *Explicit) { e.RequestTimeout = new(30 * time.Second) },
			env: EnvRequestTimeout, envValue: " 2m ",
			get:     sourced(func(r Resolved) Sourced[time.Duration] { return r.RequestTimeout }),
			argWant: 30 * time.Second, envWant: 2 * time.Minute, defWant: DefaultRequestTimeout, defSource: SourceDefault},
		stringCase("sms api_url", EnvSMSAPIURL, "", func(e *Explicit, v *string) { e.SMS.APIURL = v }, sourced(func(r Resolved) Sourced[string] { return r.SMS.APIURL })),
		stringCase("sms username", EnvSMSUsername, "", func(e *Explicit, v *string) { e.SMS.Username = v }, sourced(func(r Resolved) Sourced[string] { return r.SMS.Username })),
		// A password is taken as it is, spaces and all.
		{name: "sms password", arg: func(e *Explicit) { e.SMS.Password = new(" arg pass ") },
			env: EnvSMSPassword, envValue: " env pass ",
			get:     sourced(func(r Resolved) Sourced[string] { return r.SMS.Password }),
			argWant: " arg pass ", envWant: " env pass ", defWant: ""},
	}
}

// TestResolve_precedence: for every setting, an argument beats the environment, which
// beats the zuliprc file, which beats the default (or none).
func TestResolve_precedence(t *testing.T) {
	for _, tt := range resolveCases() {
		t.Run(tt.name, tt.run)
	}
}

// run resolves the setting from all its sources, then drops them one by one, best first.
func (tt resolveCase) run(t *testing.T) {
	rc := writeFile(t, t.TempDir(), "zuliprc", "[api]\n")
	if tt.rcKey != "" {
		rc = writeFile(t, t.TempDir(), "zuliprc", fmt.Sprintf("[api]\n%s = %s\n", tt.rcKey, tt.rcValue))
	}
	env := map[string]string{}
	if tt.env != "" {
		env[tt.env] = tt.envValue
	}
	withArg := Explicit{Zuliprc: &rc}
	tt.arg(&withArg)
	tt.check(t, "argument", withArg, env, tt.argWant, SourceExplicit)
	if tt.env != "" {
		tt.check(t, "environment", Explicit{Zuliprc: &rc}, env, tt.envWant, "environment variable "+tt.env)
	}
	if tt.rcKey != "" {
		tt.check(t, "zuliprc", Explicit{Zuliprc: &rc}, nil, tt.rcWant, "zuliprc file "+rc)
	}
	tt.check(t, "no source", Explicit{}, nil, tt.defWant, tt.defSource)
}

// check resolves and compares the setting's value and source.
func (tt resolveCase) check(t *testing.T, what string, explicit Explicit, env map[string]string, want any, wantSource string) {
	t.Helper()
	r, err := Resolve(explicit, fakeEnv(env))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got, source := tt.get(r); got != want || source != wantSource {
		t.Errorf("%s: got %v from %q, want %v from %q", what, got, source, want, wantSource)
	}
}

// TestResolve_requestTimeoutFromEnvironmentInvalid: a variable that is not a duration of
// at least zero is a SettingError naming request_timeout, the variable and the value; the
// other settings are still resolved, and an argument means the variable is not read.
func TestResolve_requestTimeoutFromEnvironmentInvalid(t *testing.T) {
	for _, value := range []string{"soon", "30", "-1s"} {
		env := fakeEnv(map[string]string{EnvRequestTimeout: value, EnvSMSUsername: "user", EnvSite: "https://env.example"})
		r, err := Resolve(Explicit{}, env)
		var settingErr *SettingError
		if !errors.As(err, &settingErr) || settingErr.Setting != "request_timeout" ||
			settingErr.Source != "environment variable "+EnvRequestTimeout {
			t.Fatalf("%q: error = %v, want a SettingError naming request_timeout and its variable", value, err)
		}
		want := fmt.Sprintf("request_timeout (from environment variable ZULIP_REQUEST_TIMEOUT): %q is not a duration such as 30s or 2m", value)
		if err.Error() != want {
			t.Errorf("%q: error = %q, want %q", value, err, want)
		}
		if r.SMS.Username.Value != "user" || r.Credentials.Site != "https://env.example" || r.RequestTimeout.Value != DefaultRequestTimeout {
			t.Errorf("%q: the other settings were not resolved: %+v", value, r)
		}
		if _, err := Resolve(Explicit{RequestTimeout: new(time.Duration(0))}, env); err != nil {
			t.Errorf("%q with the argument set: %v", value, err)
		}
	}
}

// TestResolve_credentialErrorEndsResolution: an unreadable zuliprc file is the error, and
// nothing after the credentials is resolved.
func TestResolve_credentialErrorEndsResolution(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "absent")
	r, err := Resolve(Explicit{Zuliprc: &missing}, fakeEnv(map[string]string{EnvRequestTimeout: "soon", EnvSMSUsername: "user"}))
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Fatalf("error = %v, want one naming %s", err, missing)
	}
	if r.SMS.Username.Given() || r.RequestTimeout.Given() {
		t.Errorf("settings resolved after a credentials error: %+v", r)
	}
}

// TestResolve_typedNone: a value no source gives is none, not a made-up marker: blank
// arguments and variables count as not given, and Given tells none from a default.
func TestResolve_typedNone(t *testing.T) {
	blank := ""
	r, err := Resolve(Explicit{URL: &blank, SMS: ExplicitSMS{Username: &blank}}, fakeEnv(map[string]string{EnvSMSPassword: ""}))
	if err != nil {
		t.Fatal(err)
	}
	if r.Sources.Site != "" || r.Credentials.Insecure != nil {
		t.Errorf("url from %q, insecure %v: want none", r.Sources.Site, r.Credentials.Insecure)
	}
	for name, s := range map[string]Sourced[string]{"api_url": r.SMS.APIURL, "username": r.SMS.Username, "password": r.SMS.Password} {
		if s.Given() || s != (Sourced[string]{}) {
			t.Errorf("sms %s = %+v, want none", name, s)
		}
	}
	if !r.MaxRetries.Given() || !r.MaxRetryWait.Given() || !r.RequestTimeout.Given() {
		t.Errorf("defaults not given: %+v %+v %+v", r.MaxRetries, r.MaxRetryWait, r.RequestTimeout)
	}
}

// TestResolved_config: the client's Config carries every resolved value, and a 0 turns
// its feature off rather than leaving it to the default.
func TestResolved_config(t *testing.T) {
	r, err := Resolve(Explicit{
		URL: new("https://x.example"), Email: new("e@x"), APIKey: new("k"), Insecure: new(true),
		CertBundle: new("/ca.pem"), ClientCert: new("/c.pem"), ClientCertKey: new("/k.pem"),
		MaxRetries: new(0), MaxRetryWait: new(time.Duration(0)),
	}, fakeEnv(map[string]string{EnvRequestTimeout: "0"}))
	if err != nil {
		t.Fatal(err)
	}
	c := r.Config()
	if c.SiteURL != "https://x.example" || c.Email != "e@x" || c.APIKey != "k" || !c.Insecure ||
		c.CertBundle != "/ca.pem" || c.ClientCert != "/c.pem" || c.ClientCertKey != "/k.pem" {
		t.Errorf("credentials in Config: %+v", c)
	}
	if c.MaxRetries != Off[int]() || c.MaxRetryWait != Off[time.Duration]() || c.RequestTimeout != Off[time.Duration]() {
		t.Errorf("request settings: %+v %+v %+v, want all off", c.MaxRetries, c.MaxRetryWait, c.RequestTimeout)
	}
	d, err := Resolve(Explicit{}, fakeEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	dc := d.Config()
	if dc.Insecure || dc.MaxRetries.or(-1) != DefaultMaxRetries || dc.MaxRetryWait.or(-1) != DefaultMaxRetryWait ||
		dc.RequestTimeout.or(-1) != DefaultRequestTimeout {
		t.Errorf("defaults in Config: %+v", dc)
	}
}
