package zulip

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Environment variables read by ResolveCredentials. Except ZULIP_URL, they are the names
// Zulip's own Python bindings use, so that one environment serves both; ZULIP_URL is accepted
// as an alias of ZULIP_SITE because the provider's argument is called "url".
const (
	EnvSite          = "ZULIP_SITE"
	EnvURL           = "ZULIP_URL"
	EnvEmail         = "ZULIP_EMAIL"
	EnvAPIKey        = "ZULIP_API_KEY"
	EnvConfig        = "ZULIP_CONFIG"
	EnvAllowInsecure = "ZULIP_ALLOW_INSECURE"
	EnvCertBundle    = "ZULIP_CERT_BUNDLE"
	EnvCert          = "ZULIP_CERT"
	EnvCertKey       = "ZULIP_CERT_KEY"
)

// SourceExplicit is the Sources entry of a value given explicitly (a provider argument).
const SourceExplicit = "provider configuration"

// Credentials are what a Client needs to reach and authenticate to a Zulip server: the
// site, the account, and the TLS settings of self-hosted servers (the zuliprc keys insecure,
// cert_bundle, client_cert and client_cert_key of Zulip's own clients). Paths are of PEM files.
type Credentials struct {
	Site   string
	Email  string
	APIKey string
	// Insecure is nil when no source sets it.
	Insecure      *bool
	CertBundle    string
	ClientCert    string
	ClientCertKey string
}

// Sources says where each field of resolved Credentials came from, in words fit for a log
// line or a diagnostic ("provider configuration", "environment variable ZULIP_EMAIL",
// "zuliprc file /home/me/.zuliprc"). An empty entry means the value was found nowhere.
type Sources struct {
	Site          string
	Email         string
	APIKey        string
	Insecure      string
	CertBundle    string
	ClientCert    string
	ClientCertKey string
}

// Missing names the fields that are still empty, in the provider's argument names
// ("url", "email", "api_key"), so that a diagnostic can say exactly what to set.
func (c Credentials) Missing() []string {
	var missing []string
	if c.Site == "" {
		missing = append(missing, "url")
	}
	if c.Email == "" {
		missing = append(missing, "email")
	}
	if c.APIKey == "" {
		missing = append(missing, "api_key")
	}
	return missing
}

// HasAccount reports whether an e-mail address or an API key was found: without
// either, the client can reach only the endpoints that need no account.
func (c Credentials) HasAccount() bool {
	return c.Email != "" || c.APIKey != ""
}

// ZuliprcError is a malformed zuliprc file. It names the file and line but never repeats the
// line's text, which may hold an API key.
type ZuliprcError struct {
	Path string
	Line int
	Msg  string
}

// Error describes the problem.
func (e *ZuliprcError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("zuliprc file %s, line %d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("zuliprc file %s: %s", e.Path, e.Msg)
}

// SettingError is a setting whose value cannot be used, such as an insecure that is neither
// true nor false. It names the setting and its source; the value only when it cannot be
// a secret (a duration).
type SettingError struct {
	// Setting is the zuliprc key or argument name ("insecure", "request_timeout").
	Setting string
	// Source is a Sources entry ("environment variable ZULIP_ALLOW_INSECURE").
	Source string
	// Msg says what is wrong in a clause of its own ("it must be true or false").
	Msg string
}

// Error describes the problem.
func (e *SettingError) Error() string {
	return fmt.Sprintf("%s (from %s): %s", e.Setting, e.Source, e.Msg)
}

// ResolveCredentials finds each value on its own, in this order: the explicit values
// (provider arguments); the environment (ZULIP_SITE or ZULIP_URL, ZULIP_EMAIL, ZULIP_API_KEY,
// ZULIP_ALLOW_INSECURE, ZULIP_CERT_BUNDLE, ZULIP_CERT, ZULIP_CERT_KEY); a zuliprc file's [api]
// section (site, email, key, insecure, cert_bundle, client_cert, client_cert_key). The file
// is zuliprcPath if given, else $ZULIP_CONFIG, else ~/.zuliprc. An explicitly named file
// (argument or ZULIP_CONFIG) must exist; the default ~/.zuliprc may be absent. Files are
// read only when needed for the site, e-mail or key, except a zuliprcPath argument, which
// is always read so that a mistake in it is reported. The TLS settings are never the reason
// to read a file: a ~/.zuliprc written for another server must not impose its CA bundle on
// a server configured entirely elsewhere. Insecure must be true or false (in any case), as
// in Zulip's clients; anything else is a *SettingError. Paths starting with ~/ are expanded.
//
// env is the environment lookup (os.Getenv when nil); it also supplies HOME (or
// USERPROFILE) for ~/.zuliprc, so that tests never read the real home directory.
//
// Missing values are not an error: the caller decides which ones it needs (see
// Credentials.Missing) and can name their sources.
func ResolveCredentials(explicit Credentials, env func(string) string, zuliprcPath string) (Credentials, Sources, error) {
	if env == nil {
		env = os.Getenv
	}
	home := env("HOME")
	if home == "" {
		home = env("USERPROFILE")
	}
	cr := &credentialResolver{home: home}
	cr.takeExplicit(explicit)
	cr.takeEnv(env)

	path, required := zuliprcLocation(zuliprcPath, env, home)
	complete := cr.creds.Site != "" && cr.creds.Email != "" && cr.creds.APIKey != ""
	if path == "" || (complete && zuliprcPath == "") {
		return cr.finish()
	}
	path = expandHome(path, home)
	values, err := readZuliprc(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && !required {
			return cr.finish()
		}
		return cr.creds, cr.src, err
	}
	source := "zuliprc file " + path
	cr.takeAll(values, func(string) string { return source })
	return cr.finish()
}

// credentialResolver gathers credentials from their sources in order: each value comes
// from the first source that has it. insecure is kept as text until finish checks it.
type credentialResolver struct {
	creds        Credentials
	src          Sources
	home         string
	insecureText string
}

// take sets a value that is still unset to value, trimmed, when value is not blank.
func (cr *credentialResolver) take(dst, dstSrc *string, value, source string) {
	if *dst == "" && strings.TrimSpace(value) != "" {
		*dst = strings.TrimSpace(value)
		*dstSrc = source
	}
}

// takePath is take for a path, with a leading ~/ expanded.
func (cr *credentialResolver) takePath(dst, dstSrc *string, value, source string) {
	cr.take(dst, dstSrc, expandHome(strings.TrimSpace(value), cr.home), source)
}

// takeInsecure keeps insecure's text when no source gave it yet.
func (cr *credentialResolver) takeInsecure(value, source string) {
	if cr.src.Insecure == "" && strings.TrimSpace(value) != "" {
		cr.insecureText, cr.src.Insecure = strings.TrimSpace(value), source
	}
}

// takeAll takes every value of a source keyed as in zuliprc; sourceOf names the source of
// each key.
func (cr *credentialResolver) takeAll(values map[string]string, sourceOf func(key string) string) {
	c, s := &cr.creds, &cr.src
	cr.take(&c.Site, &s.Site, values["site"], sourceOf("site"))
	cr.take(&c.Email, &s.Email, values["email"], sourceOf("email"))
	cr.take(&c.APIKey, &s.APIKey, values["key"], sourceOf("key"))
	cr.takeInsecure(values["insecure"], sourceOf("insecure"))
	cr.takePath(&c.CertBundle, &s.CertBundle, values["cert_bundle"], sourceOf("cert_bundle"))
	cr.takePath(&c.ClientCert, &s.ClientCert, values["client_cert"], sourceOf("client_cert"))
	cr.takePath(&c.ClientCertKey, &s.ClientCertKey, values["client_cert_key"], sourceOf("client_cert_key"))
}

// takeExplicit takes the explicit values (the provider's arguments), which come first.
func (cr *credentialResolver) takeExplicit(explicit Credentials) {
	c, s := &cr.creds, &cr.src
	cr.take(&c.Site, &s.Site, explicit.Site, SourceExplicit)
	cr.take(&c.Email, &s.Email, explicit.Email, SourceExplicit)
	cr.take(&c.APIKey, &s.APIKey, explicit.APIKey, SourceExplicit)
	if explicit.Insecure != nil {
		c.Insecure, s.Insecure = explicit.Insecure, SourceExplicit
	}
	cr.takePath(&c.CertBundle, &s.CertBundle, explicit.CertBundle, SourceExplicit)
	cr.takePath(&c.ClientCert, &s.ClientCert, explicit.ClientCert, SourceExplicit)
	cr.takePath(&c.ClientCertKey, &s.ClientCertKey, explicit.ClientCertKey, SourceExplicit)
}

// takeEnv takes the values of the environment variables, ZULIP_URL after ZULIP_SITE.
func (cr *credentialResolver) takeEnv(env func(string) string) {
	envName := map[string]string{
		"site": EnvSite, "email": EnvEmail, "key": EnvAPIKey, "insecure": EnvAllowInsecure,
		"cert_bundle": EnvCertBundle, "client_cert": EnvCert, "client_cert_key": EnvCertKey,
	}
	fromEnv := map[string]string{}
	for key, name := range envName {
		fromEnv[key] = env(name)
	}
	cr.takeAll(fromEnv, func(key string) string { return envSource(envName[key]) })
	cr.take(&cr.creds.Site, &cr.src.Site, env(EnvURL), envSource(EnvURL))
}

// finish returns what was gathered, with insecure's text read as true or false (in any
// case) when no explicit value set it; any other text is a *SettingError.
func (cr *credentialResolver) finish() (Credentials, Sources, error) {
	if cr.creds.Insecure == nil && cr.insecureText != "" {
		switch strings.ToLower(cr.insecureText) {
		case "true":
			cr.creds.Insecure = new(true)
		case "false":
			cr.creds.Insecure = new(false)
		default:
			return cr.creds, cr.src, &SettingError{Setting: "insecure", Source: cr.src.Insecure, Msg: "it must be true or false"}
		}
	}
	return cr.creds, cr.src, nil
}

// zuliprcLocation is the zuliprc file to read and whether it must exist: zuliprcPath, else
// $ZULIP_CONFIG, else ~/.zuliprc (which may be absent); "" when there is no home directory.
func zuliprcLocation(zuliprcPath string, env func(string) string, home string) (string, bool) {
	switch {
	case zuliprcPath != "":
		return zuliprcPath, true
	case env(EnvConfig) != "":
		return env(EnvConfig), true
	case home != "":
		return filepath.Join(home, ".zuliprc"), false
	}
	return "", true
}

// expandHome expands a leading "~/" the way the Python bindings (os.path.expanduser) do.
func expandHome(path, home string) string {
	if home != "" && (path == "~" || strings.HasPrefix(path, "~/") || strings.HasPrefix(path, `~\`)) {
		return filepath.Join(home, path[1:])
	}
	return path
}

// zuliprcKeys are the [api] keys ResolveCredentials reads.
var zuliprcKeys = []string{"site", "email", "key", "insecure", "cert_bundle", "client_cert", "client_cert_key"}

// readZuliprc opens and parses a zuliprc file and returns its [api] section.
func readZuliprc(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("zuliprc file %s does not exist: %w", path, err)
		}
		return nil, fmt.Errorf("reading zuliprc file: %w", err)
	}
	// The file is only read, so an error closing it cannot lose anything.
	defer func() { _ = f.Close() }()
	sections, err := parseINI(path, f)
	if err != nil {
		return nil, err
	}
	api := sections["api"]
	for _, key := range zuliprcKeys {
		if strings.Contains(api[key], "\n") {
			return nil, &ZuliprcError{Path: path, Msg: fmt.Sprintf("the value of %q in [api] spans several lines", key)}
		}
	}
	return api, nil
}

// parseINI parses the INI dialect of Python's configparser, which writes zuliprc files, far
// enough for zuliprc: "[section]" headers; "key = value" or "key: value" lines (keys are
// case-insensitive, values trimmed, no inline comments); full-line comments starting with
// "#" or ";"; blank lines; indented continuation lines appended with a newline; and, as in
// configparser's strict mode, duplicate sections or keys are errors. It is written here
// rather than taken from a library because three keys in one section do not justify a
// dependency, and because it must never echo a line into an error: a malformed line can be
// a pasted API key.
func parseINI(path string, r io.Reader) (map[string]map[string]string, error) {
	sections := map[string]map[string]string{}
	var current map[string]string
	var lastKey string
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 0, 4096), 1<<20)
	lineNo := 0
	fail := func(format string, args ...any) error {
		return &ZuliprcError{Path: path, Line: lineNo, Msg: fmt.Sprintf(format, args...)}
	}
	for scanner.Scan() {
		lineNo++
		line := scanner.Text()
		if lineNo == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			lastKey = ""
			continue
		}
		if strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, ";") {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if current == nil || lastKey == "" {
				return nil, fail("indented line does not continue a value")
			}
			current[lastKey] += "\n" + trimmed
			continue
		}
		if strings.HasPrefix(trimmed, "[") {
			if !strings.HasSuffix(trimmed, "]") {
				return nil, fail("section header is missing its closing \"]\"")
			}
			name := strings.TrimSpace(trimmed[1 : len(trimmed)-1])
			if name == "" {
				return nil, fail("empty section name")
			}
			if _, dup := sections[name]; dup {
				return nil, fail("section [%s] appears twice", name)
			}
			current = map[string]string{}
			sections[name] = current
			lastKey = ""
			continue
		}
		sep := strings.IndexAny(trimmed, "=:")
		if sep < 0 {
			return nil, fail("expected \"key = value\", a [section] header or a comment")
		}
		if current == nil {
			return nil, fail("a key appears before the first [section] header (zuliprc values belong in [api])")
		}
		key := strings.ToLower(strings.TrimSpace(trimmed[:sep]))
		if key == "" {
			return nil, fail("a value has no key name")
		}
		if _, dup := current[key]; dup {
			return nil, fail("key %q appears twice in the same section", key)
		}
		current[key] = strings.TrimSpace(trimmed[sep+1:])
		lastKey = key
	}
	if err := scanner.Err(); err != nil {
		return nil, &ZuliprcError{Path: path, Line: lineNo + 1, Msg: "cannot read: " + err.Error()}
	}
	return sections, nil
}
