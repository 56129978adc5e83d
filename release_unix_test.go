//go:build unix

package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// releasePlatforms are the platforms a release has a zip for: those of the
// scaffold's .goreleaser.yml, less darwin/386 and windows/arm, which Go no
// longer builds.
var releasePlatforms = []string{
	"darwin_amd64", "darwin_arm64",
	"freebsd_386", "freebsd_amd64", "freebsd_arm", "freebsd_arm64",
	"linux_386", "linux_amd64", "linux_arm", "linux_arm64",
	"windows_386", "windows_amd64", "windows_arm64",
}

// release is a release build in a dist directory (goreleaser's layout), with
// the provider mirror scripts/release-check.sh laid out beside it.
type release struct {
	dist, mirror, version string
	// platforms are the platforms built: all of releasePlatforms, or those
	// ZULIP_RELEASE_PLATFORMS names (CI builds two; see scripts/release-check.sh).
	platforms []string
	zips      map[string]string // platform → path
}

// zipName is the file name of a platform's zip.
func (r release) zipName(platform string) string {
	return fmt.Sprintf("terraform-provider-zulip_%s_%s.zip", r.version, platform)
}

// loadRelease reads the release make release-check built (ZULIP_RELEASE_DIST);
// without one the test is skipped.
func loadRelease(t *testing.T) release {
	t.Helper()
	dist := os.Getenv("ZULIP_RELEASE_DIST")
	if dist == "" {
		t.Skip("no release build: `make release-check` builds one (goreleaser snapshot) and runs this test with ZULIP_RELEASE_DIST")
	}
	b, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		t.Fatalf("the release's metadata: %v", err)
	}
	var meta struct {
		ProjectName string `json:"project_name"`
		Version     string `json:"version"`
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatalf("the release's metadata: %v", err)
	}
	if meta.ProjectName != "terraform-provider-zulip" || meta.Version == "" {
		t.Fatalf("the release is of %q version %q, want terraform-provider-zulip and a version", meta.ProjectName, meta.Version)
	}
	r := release{dist: dist, mirror: filepath.Join(dist, "mirror"), version: meta.Version, zips: map[string]string{},
		platforms: releasePlatforms}
	if only := strings.Fields(os.Getenv("ZULIP_RELEASE_PLATFORMS")); len(only) > 0 {
		for _, p := range only {
			if !slices.Contains(releasePlatforms, p) {
				t.Fatalf("ZULIP_RELEASE_PLATFORMS names %s, which is no platform of the release", p)
			}
		}
		r.platforms = only
	}
	for _, p := range r.platforms {
		r.zips[p] = filepath.Join(dist, r.zipName(p))
	}
	return r
}

// releaseCLIs are the Terraform and OpenTofu binaries make release-check
// installs the release with (ZULIP_RELEASE_CLIS, separated by spaces).
func releaseCLIs(t *testing.T) []string {
	t.Helper()
	clis := strings.Fields(os.Getenv("ZULIP_RELEASE_CLIS"))
	if len(clis) == 0 {
		t.Skip("no CLIs to install the release with: `make release-check` sets ZULIP_RELEASE_CLIS")
	}
	return clis
}

// cli is a Terraform or OpenTofu binary.
type cli struct {
	path, name   string // name: "Terraform 1.5.7", "OpenTofu 1.12.6"
	tofu         bool
	major, minor int
}

// host is the registry host a source address without one resolves to.
func (c cli) host() string {
	if c.tofu {
		return "registry.opentofu.org"
	}
	return "registry.terraform.io"
}

// atLeast reports whether the CLI is at least major.minor (OpenTofu's numbers
// count as Terraform's for the features both have).
func (c cli) atLeast(major, minor int) bool {
	return c.major > major || c.major == major && c.minor >= minor
}

// newCLI asks a binary what it is. rc is passed as its CLI configuration: an
// OpenTofu without one prints a warning before its version.
func newCLI(t *testing.T, path, rc string) cli {
	t.Helper()
	cmd := exec.Command(path, "version")
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s version: %v", path, err)
	}
	m := regexp.MustCompile(`(?m)^(Terraform|OpenTofu) v(\d+)\.(\d+)\.(\S+)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("%s version: no version line in %q", path, out)
	}
	c := cli{path: path, tofu: m[1] == "OpenTofu"}
	c.major, _ = strconv.Atoi(m[2]) // digits, as matched
	c.minor, _ = strconv.Atoi(m[3])
	c.name = fmt.Sprintf("%s %s.%s.%s", m[1], m[2], m[3], m[4])
	return c
}

// TestReleaseArtifacts checks a release build against what the Terraform and
// OpenTofu registries take: one zip per platform holding only the provider
// binary (and the license and read-me files), a SHA256SUMS file that covers
// exactly those zips and the registry manifest, with the right sums, and a
// manifest that says the provider speaks protocol 6.
func TestReleaseArtifacts(t *testing.T) {
	r := loadRelease(t)
	sums := readSHA256SUMS(t, filepath.Join(r.dist, fmt.Sprintf("terraform-provider-zulip_%s_SHA256SUMS", r.version)))
	manifestName := fmt.Sprintf("terraform-provider-zulip_%s_manifest.json", r.version)
	want := []string{manifestName}
	for _, p := range r.platforms {
		want = append(want, r.zipName(p))
	}
	sort.Strings(want)
	if got := slices.Sorted(maps.Keys(sums)); !slices.Equal(got, want) {
		t.Errorf("SHA256SUMS lists\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	if got := sha256File(t, "terraform-registry-manifest.json"); sums[manifestName] != got {
		t.Errorf("SHA256SUMS has %s for the manifest; terraform-registry-manifest.json is %s", sums[manifestName], got)
	}
	var manifest struct {
		Version  int `json:"version"`
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	b, err := os.ReadFile("terraform-registry-manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &manifest); err != nil || manifest.Version != 1 || !slices.Equal(manifest.Metadata.ProtocolVersions, []string{"6.0"}) {
		t.Errorf("terraform-registry-manifest.json = %s (%v), want version 1 and protocol_versions [\"6.0\"] (the provider serves protocol 6)", b, err)
	}

	for _, p := range r.platforms {
		zipPath := r.zips[p]
		if got := sha256File(t, zipPath); sums[r.zipName(p)] != got {
			t.Errorf("%s: sha256 %s, SHA256SUMS says %s", r.zipName(p), got, sums[r.zipName(p)])
		}
		binary := "terraform-provider-zulip_v" + r.version
		if strings.HasPrefix(p, "windows_") {
			binary += ".exe"
		}
		names := zipNames(t, zipPath)
		if !slices.Contains(names, binary) {
			t.Errorf("%s holds %v, not %s", r.zipName(p), names, binary)
		}
		for _, n := range names {
			if n != binary && n != "LICENSE" && n != "README.md" && n != "CHANGELOG.md" {
				t.Errorf("%s holds %s besides the provider", r.zipName(p), n)
			}
		}
		for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
			inMirror := filepath.Join(r.mirror, host, "zulip-terraform", "zulip", r.zipName(p))
			if got := sha256File(t, inMirror); got != sums[r.zipName(p)] {
				t.Errorf("the mirror's %s differs from the release's", inMirror)
			}
		}
	}
	if sigs, _ := filepath.Glob(filepath.Join(r.dist, "*.sig")); len(sigs) > 0 {
		t.Errorf("a snapshot must not be signed (no key here), found %v", sigs)
	}
}

// TestReleaseInstalls installs the release from the provider mirror with each
// CLI of ZULIP_RELEASE_CLIS, the way a user without the registry would
// (a filesystem_mirror in the CLI configuration, no dev_overrides, nothing
// else to install from): `init` selects the release's version and writes its
// hash into the lock file; `providers lock` adds every platform's, each the
// hash of the release's zip; then a plan of the demo (examples/demo) against
// the reference server runs the installed provider. The demo needs ephemeral
// resources and write-only arguments (Terraform 1.11, OpenTofu 1.11); on an
// older CLI the plan is the GitOps example's (TestGitOps applies it too).
func TestReleaseInstalls(t *testing.T) {
	r := loadRelease(t)
	hashes := map[string]string{} // lock file hash → platform
	for _, p := range r.platforms {
		hashes[zipH1(t, r.zips[p])] = p
		hashes["zh:"+sha256File(t, r.zips[p])] = p
	}
	host := runtime.GOOS + "_" + runtime.GOARCH
	for _, path := range releaseCLIs(t) {
		dir := t.TempDir()
		rc := mirrorConfig(t, dir, r.mirror)
		c := newCLI(t, path, rc)
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			work := filepath.Join(dir, "demo")
			srv := acctest.NewServer(t)
			env := ownerEnv(t, srv)
			if c.atLeast(1, 11) {
				copyExample(t, "examples/demo", work)
			} else {
				work = filepath.Join(dir, "environments", "production")
				copyExample(t, gitopsOrganization, filepath.Join(dir, "organization"))
				copyExample(t, gitopsProduction, work)
				writeFile(t, filepath.Join(work, "backend_override.tf"), localBackend, 0o644)
			}
			out := runCLI(t, c, rc, work, env, 0, "init", "-input=false", "-no-color")
			if !strings.Contains(out, "zulip-terraform/zulip v"+r.version) {
				t.Errorf("init did not install version %s:\n%s", r.version, out)
			}
			lock := readLock(t, filepath.Join(work, ".terraform.lock.hcl"), c.host())
			if lock.version != r.version {
				t.Errorf("the lock file selects %q, want the release's %s", lock.version, r.version)
			}
			if !slices.Contains(lock.hashes, zipH1(t, r.zips[host])) {
				t.Errorf("the lock file's hashes %v lack the release's %s zip's h1 hash %s", lock.hashes, host, zipH1(t, r.zips[host]))
			}
			checkKnownHashes(t, lock.hashes, hashes)

			args := []string{"providers", "lock", "-fs-mirror=" + r.mirror}
			for _, p := range r.platforms {
				args = append(args, "-platform="+p)
			}
			runCLI(t, c, rc, work, env, 0, args...)
			lock = readLock(t, filepath.Join(work, ".terraform.lock.hcl"), c.host())
			for _, p := range r.platforms {
				if h := zipH1(t, r.zips[p]); !slices.Contains(lock.hashes, h) {
					t.Errorf("after providers lock, the lock file lacks %s's hash %s", p, h)
				}
			}
			checkKnownHashes(t, lock.hashes, hashes)

			out = runCLI(t, c, rc, work, env, 2, "plan", "-input=false", "-no-color", "-detailed-exitcode")
			if !regexp.MustCompile(`Plan: \d+ to add, 0 to change, 0 to destroy`).MatchString(out) {
				t.Errorf("the plan creates nothing:\n%s", out)
			}
		})
	}
}

// checkKnownHashes fails on a lock file hash that is no zip of the release.
func checkKnownHashes(t *testing.T, got []string, known map[string]string) {
	t.Helper()
	for _, h := range got {
		if _, ok := known[h]; !ok {
			t.Errorf("the lock file has %s, which is the hash of no zip of the release", h)
		}
	}
}

// localBackend replaces an example's remote state storage in tests: the
// reference server is local, and so is its state.
const localBackend = `terraform {
  backend "local" {}
}
`

// mirrorConfig writes a CLI configuration that installs zulip-terraform/zulip
// from the mirror only, under both registries' names, and nothing else.
func mirrorConfig(t *testing.T, dir, mirror string) string {
	t.Helper()
	rc := filepath.Join(dir, "cli.tfrc")
	writeFile(t, rc, fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["registry.terraform.io/zulip-terraform/zulip", "registry.opentofu.org/zulip-terraform/zulip"]
  }
}
`, mirror), 0o644)
	return rc
}

// ownerEnv is the environment that gives the provider the organization
// owner's credentials (as the demo's script does) and the SMS API.
func ownerEnv(t *testing.T, srv *acctest.Server) []string {
	t.Helper()
	owner, _ := srv.User(refserver.SeedOwnerID)
	return []string{"ZULIP_SITE=" + srv.URL, "ZULIP_EMAIL=" + owner.Email, "ZULIP_API_KEY=" + owner.APIKey,
		"ZULIP_SMS_API_URL=" + srv.URL, "ZULIP_SMS_USERNAME=sms-user", "ZULIP_SMS_PASSWORD=sms-password"}
}

// runCLI runs the CLI with args in dir, with the CLI configuration rc and
// env added (and without the caller's TF_LOG* variables), and fails unless it
// exits with wantExit; it returns the output.
func runCLI(t *testing.T, c cli, rc, dir string, env []string, wantExit int, args ...string) string {
	t.Helper()
	cmd := exec.Command(c.path, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_LOG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, append([]string{"TF_CLI_CONFIG_FILE=" + rc, "TF_IN_AUTOMATION=1"}, env...)...)
	out, err := cmd.CombinedOutput()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", c.name, strings.Join(args, " "), err)
	}
	if code != wantExit {
		t.Fatalf("%s %s: exit %d, want %d\n%s", c.name, strings.Join(args, " "), code, wantExit, out)
	}
	return string(out)
}

// lockEntry is the provider's entry in a dependency lock file.
type lockEntry struct {
	version string
	hashes  []string
}

// readLock reads zulip-terraform/zulip's entry of a lock file.
func readLock(t *testing.T, path, host string) lockEntry {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the lock file: %v", err)
	}
	start := bytes.Index(b, []byte(fmt.Sprintf("provider %q {", host+"/zulip-terraform/zulip")))
	if start < 0 {
		t.Fatalf("the lock file has no entry for %s/zulip-terraform/zulip:\n%s", host, b)
	}
	block := string(b[start:])
	if end := strings.Index(block, "\n}\n"); end >= 0 {
		block = block[:end]
	}
	var e lockEntry
	if m := regexp.MustCompile(`(?m)^\s*version\s*=\s*"([^"]+)"`).FindStringSubmatch(block); m != nil {
		e.version = m[1]
	}
	for _, m := range regexp.MustCompile(`"((?:h1|zh):[^"]+)"`).FindAllStringSubmatch(block, -1) {
		e.hashes = append(e.hashes, m[1])
	}
	return e
}

// zipH1 is Terraform's "h1:" hash of a provider package: the Go module
// dirhash (Hash1) of the files in the zip: for each file in name order, its
// SHA-256 and its name on a line; the SHA-256 of those lines.
func zipH1(t *testing.T, path string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = zr.Close() }()
	files := slices.Clone(zr.File)
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	var lines []string
	for _, f := range files {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		_, err = io.Copy(h, rc)
		_ = rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, fmt.Sprintf("%x  %s\n", h.Sum(nil), f.Name))
	}
	sum := sha256.Sum256([]byte(strings.Join(lines, "")))
	return "h1:" + base64.StdEncoding.EncodeToString(sum[:])
}

// zipNames lists the files of a zip.
func zipNames(t *testing.T, path string) []string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = zr.Close() }()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	return names
}

// readSHA256SUMS reads a sha256sum file: name → hex sum.
func readSHA256SUMS(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the release's SHA256SUMS: %v", err)
	}
	defer func() { _ = f.Close() }()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("%s: malformed line %q", path, sc.Text())
		}
		sums[name] = sum
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return sums
}

// sha256File is the hex SHA-256 of a file.
func sha256File(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// copyExample copies an example directory's files (not its subdirectories)
// into dir.
func copyExample(t *testing.T, example, dir string) {
	t.Helper()
	entries, err := os.ReadDir(example)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(example, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, e.Name()), string(b), 0o644)
	}
}

// TestReleasePlatformsAreTheConfigured: releasePlatforms, which the release
// tests check, are .goreleaser.yml's goos × goarch less its ignored pairs, so
// that a release check that builds only some platforms (RELEASE_PLATFORMS)
// still holds the configuration to the list (pairs Go has no port for are
// skipped, as goreleaser does). The file is read as the lines
// the scaffold writes: `goos: [...]`, `goarch: [...]` and `- goos:` / `goarch:`
// pairs under `ignore:`.
func TestReleasePlatformsAreTheConfigured(t *testing.T) {
	b, err := os.ReadFile(".goreleaser.yml")
	if err != nil {
		t.Fatal(err)
	}
	list := func(key string) []string {
		m := regexp.MustCompile(`(?m)^\s+` + key + `: \[([^\]]*)\]`).FindSubmatch(b)
		if m == nil {
			t.Fatalf(".goreleaser.yml has no %s list", key)
		}
		var out []string
		for _, v := range strings.Split(string(m[1]), ",") {
			out = append(out, strings.Trim(strings.TrimSpace(v), `"`))
		}
		return out
	}
	ignored := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s+- goos: (\w+)\n\s+goarch: "?(\w+)"?`).FindAllSubmatch(b, -1) {
		ignored[string(m[1])+"_"+string(m[2])] = true
	}
	// goreleaser skips the pairs Go has no port for (darwin/arm).
	ports, err := exec.Command("go", "tool", "dist", "list").Output()
	if err != nil {
		t.Fatalf("go tool dist list: %v", err)
	}
	var configured []string
	for _, goos := range list("goos") {
		for _, goarch := range list("goarch") {
			if p := goos + "_" + goarch; !ignored[p] && slices.Contains(strings.Fields(string(ports)), goos+"/"+goarch) {
				configured = append(configured, p)
			}
		}
	}
	sort.Strings(configured)
	if want := slices.Sorted(slices.Values(releasePlatforms)); !slices.Equal(configured, want) {
		t.Errorf(".goreleaser.yml builds %v; the release tests expect %v", configured, want)
	}
}
