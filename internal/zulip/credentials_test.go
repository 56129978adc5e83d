package zulip

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fakeEnv returns an environment lookup over m.
func fakeEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// mustResolve resolves credentials and stops the test on an error.
func mustResolve(t *testing.T, explicit Credentials, getenv func(string) string, path string) (Credentials, Sources) {
	t.Helper()
	creds, src, err := ResolveCredentials(explicit, getenv, path)
	if err != nil {
		t.Fatal(err)
	}
	return creds, src
}

const goodZuliprc = `# downloaded from Zulip
[api]
email=rc-bot@zulip.example
key=` + testAPIKey + `
site=https://rc.zulip.example
`

func TestResolveCredentials_eachSource(t *testing.T) {
	home := t.TempDir()
	writeFile(t, home, ".zuliprc", goodZuliprc)

	t.Run("explicit", func(t *testing.T) {
		creds, src := mustResolve(t, Credentials{Site: "https://arg.example", Email: "arg@x", APIKey: "argkey"}, fakeEnv(map[string]string{
			"ZULIP_SITE": "https://env.example", "ZULIP_EMAIL": "env@x", "ZULIP_API_KEY": "envkey", "HOME": home,
		}), "")
		if creds != (Credentials{Site: "https://arg.example", Email: "arg@x", APIKey: "argkey"}) {
			t.Errorf("creds = %+v", creds)
		}
		if src != (Sources{Site: SourceExplicit, Email: SourceExplicit, APIKey: SourceExplicit}) {
			t.Errorf("sources = %+v", src)
		}
	})

	t.Run("environment", func(t *testing.T) {
		creds, src := mustResolve(t, Credentials{}, fakeEnv(map[string]string{
			"ZULIP_SITE": "https://env.example", "ZULIP_EMAIL": "env@x", "ZULIP_API_KEY": "envkey", "HOME": home,
		}), "")
		if creds != (Credentials{Site: "https://env.example", Email: "env@x", APIKey: "envkey"}) {
			t.Errorf("creds = %+v", creds)
		}
		want := Sources{Site: "environment variable ZULIP_SITE", Email: "environment variable ZULIP_EMAIL", APIKey: "environment variable ZULIP_API_KEY"}
		if src != want {
			t.Errorf("sources = %+v", src)
		}
	})

	t.Run("ZULIP_URL alias", func(t *testing.T) {
		creds, src := mustResolve(t, Credentials{}, fakeEnv(map[string]string{"ZULIP_URL": "https://url.example"}), "")
		if creds.Site != "https://url.example" || src.Site != "environment variable ZULIP_URL" {
			t.Errorf("creds = %+v, sources = %+v", creds, src)
		}
	})

	t.Run("ZULIP_SITE wins over ZULIP_URL", func(t *testing.T) {
		creds, _, _ := ResolveCredentials(Credentials{}, fakeEnv(map[string]string{"ZULIP_URL": "https://url.example", "ZULIP_SITE": "https://site.example"}), "")
		if creds.Site != "https://site.example" {
			t.Errorf("site = %q", creds.Site)
		}
	})

	t.Run("default zuliprc", func(t *testing.T) {
		creds, src := mustResolve(t, Credentials{}, fakeEnv(map[string]string{"HOME": home}), "")
		if creds != (Credentials{Site: "https://rc.zulip.example", Email: "rc-bot@zulip.example", APIKey: testAPIKey}) {
			t.Errorf("creds = %+v", creds)
		}
		file := "zuliprc file " + filepath.Join(home, ".zuliprc")
		if src != (Sources{Site: file, Email: file, APIKey: file}) {
			t.Errorf("sources = %+v", src)
		}
	})

	t.Run("ZULIP_CONFIG", func(t *testing.T) {
		dir := t.TempDir()
		path := writeFile(t, dir, "other.rc", "[api]\nsite = https://other.example\n")
		creds, src := mustResolve(t, Credentials{}, fakeEnv(map[string]string{"HOME": home, "ZULIP_CONFIG": path}), "")
		if creds.Site != "https://other.example" || creds.Email != "" || src.Site != "zuliprc file "+path {
			t.Errorf("ZULIP_CONFIG did not replace ~/.zuliprc: %+v %+v", creds, src)
		}
	})

	t.Run("explicit path wins over ZULIP_CONFIG", func(t *testing.T) {
		dir := t.TempDir()
		a := writeFile(t, dir, "a.rc", "[api]\nsite = https://a.example\n")
		b := writeFile(t, dir, "b.rc", "[api]\nsite = https://b.example\n")
		creds, _, err := ResolveCredentials(Credentials{}, fakeEnv(map[string]string{"ZULIP_CONFIG": b}), a)
		if err != nil || creds.Site != "https://a.example" {
			t.Errorf("site = %q, err = %v", creds.Site, err)
		}
	})

	t.Run("tilde in path", func(t *testing.T) {
		creds, _, err := ResolveCredentials(Credentials{}, fakeEnv(map[string]string{"HOME": home}), "~/.zuliprc")
		if err != nil || creds.Email != "rc-bot@zulip.example" {
			t.Errorf("creds = %+v, err = %v", creds, err)
		}
	})
}

func TestResolveCredentials_perFieldMixing(t *testing.T) {
	home := t.TempDir()
	writeFile(t, home, ".zuliprc", goodZuliprc)
	creds, src := mustResolve(t,
		Credentials{Site: "https://arg.example"},
		fakeEnv(map[string]string{"ZULIP_EMAIL": "env@x", "HOME": home}),
		"",
	)
	want := Credentials{Site: "https://arg.example", Email: "env@x", APIKey: testAPIKey}
	if creds != want {
		t.Errorf("creds = %+v, want %+v", creds, want)
	}
	wantSrc := Sources{Site: SourceExplicit, Email: "environment variable ZULIP_EMAIL", APIKey: "zuliprc file " + filepath.Join(home, ".zuliprc")}
	if src != wantSrc {
		t.Errorf("sources = %+v, want %+v", src, wantSrc)
	}
	if len(creds.Missing()) != 0 {
		t.Errorf("Missing() = %v", creds.Missing())
	}
}

func TestResolveCredentials_missing(t *testing.T) {
	home := t.TempDir() // no .zuliprc: not an error
	creds, src, err := ResolveCredentials(Credentials{Email: "a@b"}, fakeEnv(map[string]string{"HOME": home}), "")
	if err != nil {
		t.Fatalf("absent ~/.zuliprc is an error: %v", err)
	}
	if got := strings.Join(creds.Missing(), ","); got != "url,api_key" {
		t.Errorf("Missing() = %q", got)
	}
	if src.Site != "" || src.APIKey != "" || src.Email != SourceExplicit {
		t.Errorf("sources = %+v", src)
	}

	// No HOME at all: nothing to read, no error.
	if _, _, err := ResolveCredentials(Credentials{}, fakeEnv(nil), ""); err != nil {
		t.Errorf("without HOME: %v", err)
	}
}

func TestResolveCredentials_explicitFileMustExist(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.rc")
	for name, call := range map[string]func() error{
		"argument": func() error {
			_, _, err := ResolveCredentials(Credentials{}, fakeEnv(nil), missing)
			return err
		},
		"ZULIP_CONFIG": func() error {
			_, _, err := ResolveCredentials(Credentials{}, fakeEnv(map[string]string{"ZULIP_CONFIG": missing}), "")
			return err
		},
	} {
		err := call()
		if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("%s: error = %v", name, err)
		}
	}
}

func TestResolveCredentials_fileReadOnlyWhenNeeded(t *testing.T) {
	home := t.TempDir()
	writeFile(t, home, ".zuliprc", "this is not ini\n")
	all := Credentials{Site: "https://x", Email: "e@x", APIKey: "k"}
	if _, _, err := ResolveCredentials(all, fakeEnv(map[string]string{"HOME": home}), ""); err != nil {
		t.Errorf("a malformed ~/.zuliprc that is not needed is an error: %v", err)
	}
	if _, _, err := ResolveCredentials(Credentials{}, fakeEnv(map[string]string{"HOME": home}), ""); err == nil {
		t.Error("a malformed ~/.zuliprc that is needed is not an error")
	}
	// An explicitly named file is always read, so a mistake in it is reported.
	if _, _, err := ResolveCredentials(all, fakeEnv(nil), filepath.Join(home, ".zuliprc")); err == nil {
		t.Error("a malformed explicit zuliprc is not reported")
	}
}

func TestParseZuliprc(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    map[string]string
	}{
		{"plain", goodZuliprc, map[string]string{"email": "rc-bot@zulip.example", "key": testAPIKey, "site": "https://rc.zulip.example"}},
		{"spaces, colon, case, comments, other sections", "\ufeff; comment\n[other]\nkey = not-this\n\n[api]\n  # indented comment\nEMAIL : a@b.c\nsite =   https://x.example/   \nkey=abc=def\ninsecure = true\n",
			map[string]string{"email": "a@b.c", "site": "https://x.example/", "key": "abc=def", "insecure": "true"}},
		{"no api section", "[other]\nkey = x\n", nil},
		{"empty file", "", nil},
		{"CRLF", "[api]\r\nemail=a@b.c\r\n", map[string]string{"email": "a@b.c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "zuliprc", tt.content)
			got, err := readZuliprc(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func TestParseZuliprc_malformed(t *testing.T) {
	tests := []struct {
		name     string
		content  string
		wantLine int
		wantMsg  string
	}{
		{"bare secret line", "[api]\nemail=a@b.c\n" + testAPIKey + "\n", 3, `expected "key = value"`},
		{"key before section", "# c\nkey=" + testAPIKey + "\n[api]\n", 2, "before the first [section]"},
		{"unclosed header", "[api\nkey=x\n", 1, `missing its closing "]"`},
		{"empty header", "[ ]\n", 1, "empty section name"},
		{"duplicate key", "[api]\nkey=" + testAPIKey + "\nKEY=" + testAPIKey + "x\n", 3, `key "key" appears twice`},
		{"duplicate section", "[api]\nkey=x\n[api]\n", 3, "section [api] appears twice"},
		{"empty key", "[api]\n=" + testAPIKey + "\n", 2, "no key name"},
		{"orphan continuation", "[api]\n\n  " + testAPIKey + "\n", 3, "does not continue a value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, t.TempDir(), "zuliprc", tt.content)
			_, _, err := ResolveCredentials(Credentials{}, fakeEnv(nil), path)
			var zerr *ZuliprcError
			if !errors.As(err, &zerr) {
				t.Fatalf("error = %v (%T), want *ZuliprcError", err, err)
			}
			if zerr.Path != path || zerr.Line != tt.wantLine {
				t.Errorf("error at %s:%d, want %s:%d", zerr.Path, zerr.Line, path, tt.wantLine)
			}
			msg := err.Error()
			if !strings.Contains(msg, path) || !strings.Contains(msg, "line "+strconv.Itoa(tt.wantLine)) || !strings.Contains(msg, tt.wantMsg) {
				t.Errorf("error %q lacks the file, line or %q", msg, tt.wantMsg)
			}
			if strings.Contains(msg, testAPIKey) {
				t.Errorf("error repeats the API key: %q", msg)
			}
		})
	}
}

func TestParseZuliprc_multilineValueRejected(t *testing.T) {
	path := writeFile(t, t.TempDir(), "zuliprc", "[api]\nkey = abc\n  def\n")
	_, err := readZuliprc(path)
	if err == nil || !strings.Contains(err.Error(), "spans several lines") || strings.Contains(err.Error(), "abc") {
		t.Errorf("error = %v", err)
	}
	// A continuation in another section is legal configparser syntax and harmless.
	path = writeFile(t, t.TempDir(), "zuliprc", "[other]\nlist = a\n  b\n[api]\nkey = k\n")
	if got, err := readZuliprc(path); err != nil || got["key"] != "k" {
		t.Errorf("got %v, %v", got, err)
	}
}

func TestResolveCredentials_tlsSettings(t *testing.T) {
	home := t.TempDir()
	rcFile := writeFile(t, home, "tls.rc", "[api]\nsite=https://rc.example\nemail=e@x\nkey=k\n"+
		"insecure = TRUE\ncert_bundle = ~/rc-ca.pem\nclient_cert = /rc/cert.pem\nclient_cert_key = /rc/key.pem\n")
	rcSource := "zuliprc file " + rcFile

	t.Run("zuliprc", func(t *testing.T) {
		creds, src := mustResolve(t, Credentials{}, fakeEnv(map[string]string{"HOME": home}), rcFile)
		checkTLS(t, creds, tlsSettings{"true", filepath.Join(home, "rc-ca.pem"), "/rc/cert.pem", "/rc/key.pem"})
		if got, want := tlsSources(src), (tlsSettings{rcSource, rcSource, rcSource, rcSource}); got != want {
			t.Errorf("sources = %+v", src)
		}
	})

	t.Run("environment over zuliprc", func(t *testing.T) {
		creds, src := mustResolve(t, Credentials{}, fakeEnv(map[string]string{
			"HOME": home, "ZULIP_ALLOW_INSECURE": "false", "ZULIP_CERT_BUNDLE": "/env/ca.pem",
			"ZULIP_CERT": "~/env-cert.pem", "ZULIP_CERT_KEY": "/env/key.pem",
		}), rcFile)
		checkTLS(t, creds, tlsSettings{"false", "/env/ca.pem", filepath.Join(home, "env-cert.pem"), "/env/key.pem"})
		want := Sources{
			Site: rcSource, Email: rcSource, APIKey: rcSource,
			Insecure: "environment variable ZULIP_ALLOW_INSECURE", CertBundle: "environment variable ZULIP_CERT_BUNDLE",
			ClientCert: "environment variable ZULIP_CERT", ClientCertKey: "environment variable ZULIP_CERT_KEY",
		}
		if src != want {
			t.Errorf("sources = %+v, want %+v", src, want)
		}
	})

	t.Run("arguments over environment", func(t *testing.T) {
		explicit := Credentials{Insecure: new(false), CertBundle: "/arg/ca.pem", ClientCert: "/arg/cert.pem", ClientCertKey: "/arg/key.pem"}
		creds, src := mustResolve(t, explicit, fakeEnv(map[string]string{
			"HOME": home, "ZULIP_ALLOW_INSECURE": "true", "ZULIP_CERT_BUNDLE": "/env/ca.pem", "ZULIP_CERT": "/env/cert.pem",
		}), rcFile)
		checkTLS(t, creds, tlsSettings{"false", "/arg/ca.pem", "/arg/cert.pem", "/arg/key.pem"})
		if got, want := tlsSources(src), (tlsSettings{SourceExplicit, SourceExplicit, SourceExplicit, SourceExplicit}); got != want {
			t.Errorf("sources = %+v", src)
		}
	})

	t.Run("unset", func(t *testing.T) {
		creds, src, err := ResolveCredentials(Credentials{}, fakeEnv(nil), "")
		if err != nil || creds.Insecure != nil || creds.CertBundle != "" || src.Insecure != "" {
			t.Errorf("creds = %+v, sources = %+v, err = %v", creds, src, err)
		}
	})

	t.Run("a default zuliprc that is not needed imposes nothing", func(t *testing.T) {
		writeFile(t, home, ".zuliprc", "[api]\ncert_bundle = /other-server/ca.pem\ninsecure = true\n")
		creds, _, err := ResolveCredentials(Credentials{Site: "https://x", Email: "e@x", APIKey: "k"}, fakeEnv(map[string]string{"HOME": home}), "")
		if err != nil || creds.CertBundle != "" || creds.Insecure != nil {
			t.Errorf("creds = %+v, err = %v", creds, err)
		}
	})
}

// tlsSettings holds the four TLS settings as text, in the order insecure, cert bundle,
// client certificate, client key; an unset insecure reads "unset".
type tlsSettings struct{ insecure, certBundle, clientCert, clientCertKey string }

// checkTLS checks the TLS settings creds resolved to.
func checkTLS(t *testing.T, creds Credentials, want tlsSettings) {
	t.Helper()
	insecure := "unset"
	if creds.Insecure != nil {
		insecure = strconv.FormatBool(*creds.Insecure)
	}
	if got := (tlsSettings{insecure, creds.CertBundle, creds.ClientCert, creds.ClientCertKey}); got != want {
		t.Errorf("creds = %+v, want TLS settings %+v", creds, want)
	}
}

// tlsSources gathers where each TLS setting came from.
func tlsSources(src Sources) tlsSettings {
	return tlsSettings{src.Insecure, src.CertBundle, src.ClientCert, src.ClientCertKey}
}

func TestResolveCredentials_insecureMustBeTrueOrFalse(t *testing.T) {
	for _, value := range []string{"True", "true", "FALSE", " false "} {
		creds, _, err := ResolveCredentials(Credentials{}, fakeEnv(map[string]string{"ZULIP_ALLOW_INSECURE": value}), "")
		if err != nil || creds.Insecure == nil || *creds.Insecure != strings.EqualFold(strings.TrimSpace(value), "true") {
			t.Errorf("%q: insecure = %v, err = %v", value, creds.Insecure, err)
		}
	}
	rc := writeFile(t, t.TempDir(), "zuliprc", "[api]\ninsecure = yes\n")
	for name, resolve := range map[string]func() error{
		"environment variable ZULIP_ALLOW_INSECURE": func() error {
			_, _, err := ResolveCredentials(Credentials{}, fakeEnv(map[string]string{"ZULIP_ALLOW_INSECURE": "1"}), "")
			return err
		},
		"zuliprc file " + rc: func() error {
			_, _, err := ResolveCredentials(Credentials{}, fakeEnv(nil), rc)
			return err
		},
	} {
		err := resolve()
		var settingErr *SettingError
		if !errors.As(err, &settingErr) || settingErr.Setting != "insecure" || settingErr.Source != name {
			t.Errorf("%s: error = %v, want a SettingError naming the source", name, err)
			continue
		}
		if !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "true or false") {
			t.Errorf("%s: error = %q", name, err)
		}
	}
	// An argument wins, so a bad value elsewhere is never looked at.
	if _, _, err := ResolveCredentials(Credentials{Insecure: new(true)}, fakeEnv(map[string]string{"ZULIP_ALLOW_INSECURE": "1"}), ""); err != nil {
		t.Errorf("with the argument set: %v", err)
	}
}
