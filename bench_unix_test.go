//go:build unix

package main

import (
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// BenchmarkTerraformVsFloor runs real `terraform apply` and `terraform plan`
// over N objects with four providers, interleaved in every round on the same
// machine: this provider against the reference server (a mix of linkifiers,
// saved snippets, allowed domains, user topics and users); the same
// configuration with internal/cmd/mirror-provider, which has this provider's
// schemas and does no I/O (the floor no provider with these schemas can beat:
// the framework's work grows with a schema's attributes); the no-I/O provider
// of internal/cmd/noio-provider, whose one resource has three attributes; and
// Terraform's built-in terraform_data. Absolute times on a shared 2-core
// machine mean little; the ratios measured side by side do. It reports, as
// the median over rounds:
//
//	plan/mirror, plan/noio, plan/terraform_data  time of a plan (refresh included) of N objects
//	apply/mirror, apply/noio                     time of an apply creating N objects
//	req/plan, req/object-apply                   requests this provider sent
//	MiB-peak, MiB-peak-mirror, MiB-peak-noio     peak resident memory of the provider processes
//
// and logs the plan's requests by endpoint. ZULIP_BENCH_N sets N (default
// 1000); `make bench` runs it with the other benchmarks.
func BenchmarkTerraformVsFloor(b *testing.B) {
	n := benchN("ZULIP_BENCH_N", 1000)
	f := newBenchFloor(b)
	var planMirror, planNoio, planData, applyMirror, applyNoio, reqPlan, reqApply []float64
	var endpoints, applyEndpoints map[string]int
	b.ResetTimer()
	for round := range b.N {
		r := f.round(b, round, n)
		reqApply = append(reqApply, r.reqApply)
		applyEndpoints = r.applyEndpoints
		reqPlan = append(reqPlan, r.reqPlan)
		endpoints = r.planEndpoints
		apply, plan := r.apply, r.plan
		planMirror = append(planMirror, plan["zulip"].Seconds()/plan["mirror"].Seconds())
		applyMirror = append(applyMirror, apply["zulip"].Seconds()/apply["mirror"].Seconds())
		planNoio = append(planNoio, plan["zulip"].Seconds()/plan["noio"].Seconds())
		planData = append(planData, plan["zulip"].Seconds()/plan["data"].Seconds())
		applyNoio = append(applyNoio, apply["zulip"].Seconds()/apply["noio"].Seconds())
		ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
		b.Logf("round %d, N=%d: plan zulip %s, mirror %s, noio %s, terraform_data %s; apply zulip %s, mirror %s, noio %s, terraform_data %s",
			round, n, ms(plan["zulip"]), ms(plan["mirror"]), ms(plan["noio"]), ms(plan["data"]),
			ms(apply["zulip"]), ms(apply["mirror"]), ms(apply["noio"]), ms(apply["data"]))
	}
	b.StopTimer()
	b.ReportMetric(benchMedian(planMirror), "plan/mirror")
	b.ReportMetric(benchMedian(applyMirror), "apply/mirror")
	b.ReportMetric(benchMedian(planNoio), "plan/noio")
	b.ReportMetric(benchMedian(planData), "plan/terraform_data")
	b.ReportMetric(benchMedian(applyNoio), "apply/noio")
	b.ReportMetric(benchMedian(reqPlan), "req/plan")
	b.ReportMetric(benchMedian(reqApply), "req/object-apply")
	if peak, ok := benchPeakMiB(f.memZulip); ok {
		b.ReportMetric(peak, "MiB-peak")
	}
	if peak, ok := benchPeakMiB(f.memMirror); ok {
		b.ReportMetric(peak, "MiB-peak-mirror")
	}
	if peak, ok := benchPeakMiB(f.memNoio); ok {
		b.ReportMetric(peak, "MiB-peak-noio")
	}
	benchLogCounts(b, fmt.Sprintf("plan requests, N=%d", n), endpoints)
	benchLogCounts(b, fmt.Sprintf("apply requests, N=%d", n), applyEndpoints)
}

// benchFloor is the benchmark's Terraform, its CLI configuration (which
// points the three providers at their wrappers), and the files where each
// provider's wrapper records its peak memory.
type benchFloor struct {
	dir, tf, rc                  string
	memZulip, memNoio, memMirror string
}

// newBenchFloor builds the three providers, wraps each to record its memory,
// and writes the CLI configuration.
func newBenchFloor(b *testing.B) *benchFloor {
	f := &benchFloor{tf: terraformPath(b), dir: b.TempDir()}
	dir := f.dir
	zulipBin := buildProvider(b, filepath.Join(dir, "real", "terraform-provider-zulip"))
	goTool, _ := exec.LookPath("go")
	noioBin := buildPackage(b, goTool, filepath.Join(dir, "real", "terraform-provider-noio"), "./internal/cmd/noio-provider")
	mirrorBin := buildPackage(b, goTool, filepath.Join(dir, "real", "terraform-provider-mirror"), "./internal/cmd/mirror-provider")
	plugins := filepath.Join(dir, "plugins")
	f.memZulip, f.memNoio, f.memMirror = filepath.Join(dir, "mem-zulip"), filepath.Join(dir, "mem-noio"), filepath.Join(dir, "mem-mirror")
	benchWrapper(b, filepath.Join(plugins, "terraform-provider-zulip"), zulipBin, f.memZulip)
	benchWrapper(b, filepath.Join(plugins, "terraform-provider-noio"), noioBin, f.memNoio)
	benchWrapper(b, filepath.Join(plugins, "terraform-provider-mirror"), mirrorBin, f.memMirror)
	f.rc = filepath.Join(dir, "terraformrc")
	writeFile(b, f.rc, fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/zulip-terraform/zulip" = %q
    "registry.terraform.io/zulip-terraform/noio"  = %q
    "registry.terraform.io/zulip-terraform/mirror" = %q
  }
  direct {}
}
`, plugins, plugins, plugins), 0o644)
	return f
}

// benchRound is what one round measured: the time of each kind's apply and
// plan, and this provider's requests (per object in the apply, in all in the
// plan) and their endpoints.
type benchRound struct {
	apply, plan                   map[string]time.Duration
	reqApply, reqPlan             float64
	applyEndpoints, planEndpoints map[string]int
}

// round applies, then plans, the four configurations of n objects against a
// new reference server.
func (f *benchFloor) round(b *testing.B, round, n int) benchRound {
	srv, counter, hs := benchServer(b, refserver.Options{})
	defer hs.Close()
	owner := benchOwner(srv)
	roundDir := filepath.Join(f.dir, "round"+strconv.Itoa(round))
	zulipConfig := benchZulipConfig(n, hs.URL, owner.Email, owner.APIKey)
	configs := map[string]string{
		"zulip":  zulipConfig,
		"mirror": strings.Replace(zulipConfig, `source = "zulip-terraform/zulip"`, `source = "zulip-terraform/mirror"`, 1),
		"noio":   benchNoioConfig(n),
		"data":   benchDataConfig(n),
	}
	order := []string{"zulip", "mirror", "noio", "data"}
	// Rotate who goes first, so that no provider always meets a warm or cold machine.
	order = append(order[round%4:], order[:round%4]...)
	r := benchRound{apply: map[string]time.Duration{}, plan: map[string]time.Duration{}}
	for _, kind := range order {
		cfg := filepath.Join(roundDir, kind)
		writeFile(b, filepath.Join(cfg, "main.tf"), configs[kind], 0o644)
		counter.reset()
		r.apply[kind] = benchTerraform(b, f.tf, f.rc, cfg, "apply", "-auto-approve", "-input=false", "-parallelism=10")
		if kind == "zulip" {
			r.reqApply = float64(counter.total()) / float64(n)
			r.applyEndpoints = counter.snapshot()
		}
	}
	for _, kind := range order {
		counter.reset()
		r.plan[kind] = benchTerraform(b, f.tf, f.rc, filepath.Join(roundDir, kind), "plan", "-input=false", "-detailed-exitcode")
		if kind == "zulip" {
			r.reqPlan = float64(counter.total())
			r.planEndpoints = counter.snapshot()
		}
	}
	return r
}

// benchServer starts a reference server with opts, served over HTTP behind
// a counter of its requests; the caller closes the HTTP server.
func benchServer(b *testing.B, opts refserver.Options) (*refserver.Server, *benchCounter, *httptest.Server) {
	b.Helper()
	srv, err := refserver.New(opts)
	if err != nil {
		b.Fatal(err)
	}
	counter := &benchCounter{counts: map[string]int{}}
	return srv, counter, httptest.NewServer(counter.wrap(srv))
}

// benchLogCounts logs request counts by endpoint, sorted, on one line (the
// testing package keeps only the first ten lines of a benchmark's log).
func benchLogCounts(b *testing.B, what string, counts map[string]int) {
	parts := make([]string, 0, len(counts))
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, counts[k]))
	}
	b.Logf("%s: %s", what, strings.Join(parts, "; "))
}

// benchWrapper writes the plugin Terraform starts: it runs the real binary
// under /usr/bin/time, when there is one, to record its peak memory.
func benchWrapper(b *testing.B, path, binary, memFile string) {
	script := fmt.Sprintf("#!/bin/sh\nexec %q \"$@\"\n", binary)
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		script = fmt.Sprintf("#!/bin/sh\nexec /usr/bin/time -f %%M -a -o %q %q \"$@\"\n", memFile, binary)
	}
	writeFile(b, path, script, 0o755)
}

// benchTerraform runs a terraform command in dir and returns how long it took.
func benchTerraform(b *testing.B, tf, rc, dir string, args ...string) time.Duration {
	b.Helper()
	cmd := exec.Command(tf, append(args, "-no-color")...)
	cmd.Dir = dir
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_LOG") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		b.Fatalf("terraform %s in %s: %v\n%s", args[0], dir, err, benchTail(out))
	}
	return took
}

// benchTail is the end of a long output.
func benchTail(out []byte) string {
	if len(out) > 4000 {
		return "..." + string(out[len(out)-4000:])
	}
	return string(out)
}

// benchZulipConfig is n objects of five types, a fifth each: users and four
// collection types.
func benchZulipConfig(n int, url, email, key string) string {
	var c strings.Builder
	fmt.Fprintf(&c, "terraform {\n  required_providers {\n    zulip = { source = \"zulip-terraform/zulip\" }\n  }\n}\n"+
		"provider \"zulip\" {\n  url     = %q\n  email   = %q\n  api_key = %q\n}\n", url, email, key)
	for i := range n {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&c, "resource \"zulip_linkifier\" \"r%d\" {\n  pattern      = \"B%d-(?P<id>[0-9]+)\"\n  url_template = \"https://b%d.example.com/{id}\"\n}\n", i, i, i)
		case 1:
			fmt.Fprintf(&c, "resource \"zulip_saved_snippet\" \"r%d\" {\n  title   = \"Snippet %d\"\n  content = \"Content %d\"\n}\n", i, i, i)
		case 2:
			fmt.Fprintf(&c, "resource \"zulip_allowed_domain\" \"r%d\" {\n  domain = \"b%d.example.org\"\n}\n", i, i)
		case 3:
			fmt.Fprintf(&c, "resource \"zulip_user_topic\" \"r%d\" {\n  channel_id        = 1\n  topic             = \"bench %d\"\n  visibility_policy = \"muted\"\n}\n", i, i)
		default:
			fmt.Fprintf(&c, "resource \"zulip_user\" \"r%d\" {\n  email     = \"bench%d@example.com\"\n  full_name = \"Bench %d\"\n  password  = \"bench-password-%d\"\n}\n", i, i, i, i)
		}
	}
	return c.String()
}

// benchNoioConfig is n no-I/O objects.
func benchNoioConfig(n int) string {
	var c strings.Builder
	c.WriteString("terraform {\n  required_providers {\n    noio = { source = \"zulip-terraform/noio\" }\n  }\n}\n")
	for i := range n {
		fmt.Fprintf(&c, "resource \"noio_object\" \"r%d\" {\n  name  = \"object %d\"\n  value = \"value %d\"\n}\n", i, i, i)
	}
	return c.String()
}

// benchDataConfig is n terraform_data resources.
func benchDataConfig(n int) string {
	var c strings.Builder
	for i := range n {
		fmt.Fprintf(&c, "resource \"terraform_data\" \"r%d\" {\n  input = \"value %d\"\n}\n", i, i)
	}
	return c.String()
}

// benchCounter counts the requests the reference server receives, by
// endpoint, and its answers by status.
type benchCounter struct {
	mu       sync.Mutex
	counts   map[string]int
	statuses map[int]int
}

// statusWriter notes the status of an answer.
type statusWriter struct {
	http.ResponseWriter
	c *benchCounter
}

func (w statusWriter) WriteHeader(code int) {
	w.c.mu.Lock()
	if w.c.statuses == nil {
		w.c.statuses = map[int]int{}
	}
	w.c.statuses[code]++
	w.c.mu.Unlock()
	w.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the connection (write deadlines, flushes).
func (w statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// status is how many answers had the status.
func (c *benchCounter) status(code int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.statuses[code]
}

func (c *benchCounter) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w = statusWriter{ResponseWriter: w, c: c}
		c.mu.Lock()
		path := r.URL.Path
		// Per-object paths (…/filters/12) count under their endpoint.
		if i := strings.LastIndexByte(path, '/'); i > 0 && strings.Trim(path[i+1:], "0123456789") == "" {
			path = path[:i] + "/{id}"
		}
		c.counts[r.Method+" "+path]++
		c.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (c *benchCounter) reset() {
	c.mu.Lock()
	c.counts = map[string]int{}
	c.mu.Unlock()
}

func (c *benchCounter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := 0
	for _, v := range c.counts {
		t += v
	}
	return t
}

func (c *benchCounter) snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.counts)
}

// benchMedian is the median of xs (0 for none).
func benchMedian(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

// benchPeakMiB is the largest peak resident size /usr/bin/time recorded, in MiB.
func benchPeakMiB(file string) (float64, bool) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	peak := 0
	for _, line := range strings.Fields(string(raw)) {
		if kb, err := strconv.Atoi(line); err == nil && kb > peak {
			peak = kb
		}
	}
	return float64(peak) / 1024, peak > 0
}

// BenchmarkRateLimitedApply applies N saved snippets (ZULIP_BENCH_RATE_N,
// default 300) against the reference server with Zulip's default limit of 200
// requests a minute per account, with the provider's default settings. It
// fails if the apply fails, and reports the 429 answers the provider met and
// the apply's time as a ratio to the least the limit imposes for the requests
// it sent: a sliding window of 200 a minute lets 200 go at once and each 200
// more a minute later, so R requests need at least floor((R-1)/200) minutes.
func BenchmarkRateLimitedApply(b *testing.B) {
	n := benchN("ZULIP_BENCH_RATE_N", 300)
	const perMinute = 200
	tf, dir, rc := benchZulipOnly(b)
	var ratios, limited []float64
	for round := range b.N {
		srv, counter, hs := benchServer(b, refserver.Options{RateLimit: perMinute})
		owner, _ := srv.User(refserver.SeedOwnerID)
		var c strings.Builder
		fmt.Fprintf(&c, "terraform {\n  required_providers {\n    zulip = { source = \"zulip-terraform/zulip\" }\n  }\n}\n"+
			"provider \"zulip\" {\n  url     = %q\n  email   = %q\n  api_key = %q\n}\n", hs.URL, owner.Email, owner.APIKey)
		for i := range n {
			fmt.Fprintf(&c, "resource \"zulip_saved_snippet\" \"r%d\" {\n  title   = \"Limited %d\"\n  content = \"Content %d\"\n}\n", i, i, i)
		}
		cfg := filepath.Join(dir, "round"+strconv.Itoa(round))
		writeFile(b, filepath.Join(cfg, "main.tf"), c.String(), 0o644)
		took := benchTerraform(b, tf, rc, cfg, "apply", "-auto-approve", "-input=false")
		hs.Close()
		requests := counter.total()
		// Zulip's window slides: request k can go only once request k-limit has left
		// it, a minute after it was counted. However fast the first requests go, the
		// last of M goes at least floor((M-1)/limit) minutes after the first.
		least := time.Duration(max(requests-1, 0)/perMinute) * time.Minute
		if least > 0 {
			ratios = append(ratios, took.Seconds()/least.Seconds())
		}
		limited = append(limited, float64(counter.status(http.StatusTooManyRequests)))
		b.Logf("round %d: %d snippets, %d requests in %s (the limit imposes at least %s), %d answered 429",
			round, n, requests, took.Round(time.Second), least, counter.status(http.StatusTooManyRequests))
	}
	b.ReportMetric(benchMedian(ratios), "time/limit")
	b.ReportMetric(benchMedian(limited), "429s")
}

// BenchmarkRateLimitedPlan plans N objects (ZULIP_BENCH_PLAN_N, default 3000;
// the mix of BenchmarkTerraformVsFloor) against two reference servers that hold
// the same realm, one without a rate limit and one with Zulip's default of 200
// requests a minute per account, interleaved in every round. It fails if a plan
// is not empty, and reports the limited plan's time as a ratio to the unlimited
// one's (the median of three pairs per iteration, so that `-benchtime 1x` makes
// the realm of N objects once), its requests and the 429 answers it met.
func BenchmarkRateLimitedPlan(b *testing.B) {
	n := benchN("ZULIP_BENCH_PLAN_N", 3000)
	const perMinute = 200
	tf, dir, rc := benchZulipOnly(b)

	// The realm is made once, through an apply against the unlimited server, which
	// keeps it in a state file; the limited server starts from a copy of that file.
	realm := filepath.Join(dir, "realm.json")
	free, _, hsFree := benchServer(b, refserver.Options{StateFile: realm})
	defer hsFree.Close()
	owner := benchOwner(free)
	freeDir, limitedDir := filepath.Join(dir, "free"), filepath.Join(dir, "limited")
	writeFile(b, filepath.Join(freeDir, "main.tf"), benchZulipConfig(n, hsFree.URL, owner.Email, owner.APIKey), 0o644)
	benchTerraform(b, tf, rc, freeDir, "apply", "-auto-approve", "-input=false", "-parallelism=10")

	realmCopy := filepath.Join(dir, "realm-limited.json")
	copyFile(b, realm, realmCopy)
	_, limitedCounter, hsLimited := benchServer(b, refserver.Options{StateFile: realmCopy, RateLimit: perMinute})
	defer hsLimited.Close()
	writeFile(b, filepath.Join(limitedDir, "main.tf"), benchZulipConfig(n, hsLimited.URL, owner.Email, owner.APIKey), 0o644)
	copyFile(b, filepath.Join(freeDir, "terraform.tfstate"), filepath.Join(limitedDir, "terraform.tfstate"))

	var ratios, requests []float64
	b.ResetTimer()
	for round := range 3 * b.N {
		limitedCounter.reset()
		var tookFree, tookLimited time.Duration
		plan := func(d string) time.Duration {
			return benchTerraform(b, tf, rc, d, "plan", "-input=false", "-detailed-exitcode", "-parallelism=10")
		}
		// Alternate who goes first, so that neither always meets a warm or cold machine.
		if round%2 == 0 {
			tookFree, tookLimited = plan(freeDir), plan(limitedDir)
		} else {
			tookLimited, tookFree = plan(limitedDir), plan(freeDir)
		}
		ratios = append(ratios, tookLimited.Seconds()/tookFree.Seconds())
		requests = append(requests, float64(limitedCounter.total()))
		b.Logf("round %d, N=%d: plan at %d requests a minute %s (%d requests), without a limit %s",
			round, n, perMinute, tookLimited.Round(time.Millisecond), limitedCounter.total(), tookFree.Round(time.Millisecond))
	}
	b.StopTimer()
	b.ReportMetric(benchMedian(ratios), "limited/unlimited")
	b.ReportMetric(benchMedian(requests), "req/plan")
	b.ReportMetric(float64(limitedCounter.status(http.StatusTooManyRequests)), "429s")
}

// benchN is the number of objects an environment variable sets, or def.
func benchN(env string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(env)); err == nil && v > 0 {
		return v
	}
	return def
}

// benchZulipOnly builds this provider and a Terraform CLI configuration that
// uses it: the Terraform binary, a temporary directory and the configuration.
func benchZulipOnly(b *testing.B) (tf, dir, rc string) {
	tf = terraformPath(b)
	dir = b.TempDir()
	zulipBin := buildProvider(b, filepath.Join(dir, "real", "terraform-provider-zulip"))
	plugins := filepath.Join(dir, "plugins")
	benchWrapper(b, filepath.Join(plugins, "terraform-provider-zulip"), zulipBin, filepath.Join(dir, "mem"))
	rc = filepath.Join(dir, "terraformrc")
	writeFile(b, rc, fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/zulip-terraform/zulip\" = %q\n  }\n  direct {}\n}\n", plugins), 0o644)
	return tf, dir, rc
}

// copyFile copies a file.
func copyFile(b *testing.B, from, to string) {
	b.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		b.Fatal(err)
	}
	writeFile(b, to, string(data), 0o600)
}

// benchOwner is the seeded owner, granted can_create_users (as a server's
// administrator does with `manage.py change_user_role`), so that one account
// may create every type of the mix.
func benchOwner(srv *refserver.Server) refserver.SeedUser {
	srv.Do(func(r *refserver.Realm) { r.Users[refserver.SeedOwnerID].CanCreateUsers = true })
	owner, _ := srv.User(refserver.SeedOwnerID)
	return owner
}

// BenchmarkRealmPlan applies the organization of issue 14 (acctest's scale
// realm: 50 channels and their subscribers, 20 nested groups and their 500
// memberships, permissions that refer to the groups; ZULIP_BENCH_REALM_SCALE
// multiplies it, 10 making a realm of 10,700 objects) and plans it again,
// reporting the requests the plan sent (the same whatever the size: one read
// per collection) and the plan's time as a ratio to the same configuration
// with the no-I/O mirror provider.
func BenchmarkRealmPlan(b *testing.B) {
	tf, dir, rc := benchZulipOnly(b)
	goTool, _ := exec.LookPath("go")
	mirrorBin := buildPackage(b, goTool, filepath.Join(dir, "real", "terraform-provider-mirror"), "./internal/cmd/mirror-provider")
	benchWrapper(b, filepath.Join(dir, "plugins", "terraform-provider-mirror"), mirrorBin, filepath.Join(dir, "mem-mirror"))
	writeFile(b, rc, fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/zulip-terraform/zulip\" = %q\n"+
		"    \"registry.terraform.io/zulip-terraform/mirror\" = %q\n  }\n  direct {}\n}\n", filepath.Join(dir, "plugins"), filepath.Join(dir, "plugins")), 0o644)
	srv, counter, hs := benchServer(b, refserver.Options{})
	srv.Do(acctest.ScaleRealmSeed)
	defer hs.Close()
	owner := benchOwner(srv)
	provider := fmt.Sprintf("terraform {\n  required_providers {\n    zulip = { source = \"zulip-terraform/zulip\" }\n  }\n}\n"+
		"provider \"zulip\" {\n  url     = %q\n  email   = %q\n  api_key = %q\n}\n", hs.URL, owner.Email, owner.APIKey)
	zulipDir, mirrorDir := filepath.Join(dir, "realm"), filepath.Join(dir, "realm-mirror")
	scale := benchN("ZULIP_BENCH_REALM_SCALE", 1)
	b.Logf("the organization at scale %d: %d objects", scale, acctest.ScaleRealmObjects(scale))
	config := provider + acctest.ScaleRealmConfigOf(scale, false)
	writeFile(b, filepath.Join(zulipDir, "main.tf"), config, 0o644)
	writeFile(b, filepath.Join(mirrorDir, "main.tf"), strings.Replace(config, `source = "zulip-terraform/zulip"`, `source = "zulip-terraform/mirror"`, 1), 0o644)
	for _, d := range []string{zulipDir, mirrorDir} {
		benchTerraform(b, tf, rc, d, "apply", "-auto-approve", "-input=false")
	}
	var ratios, requests []float64
	b.ResetTimer()
	for round := range 3 * b.N {
		counter.reset()
		took := benchTerraform(b, tf, rc, zulipDir, "plan", "-input=false", "-detailed-exitcode")
		requests = append(requests, float64(counter.total()))
		floor := benchTerraform(b, tf, rc, mirrorDir, "plan", "-input=false", "-detailed-exitcode")
		ratios = append(ratios, took.Seconds()/floor.Seconds())
		b.Logf("round %d: plan %s (%d requests), mirror %s", round, took.Round(time.Millisecond), counter.total(), floor.Round(time.Millisecond))
	}
	b.StopTimer()
	b.ReportMetric(benchMedian(requests), "req/plan")
	b.ReportMetric(benchMedian(ratios), "plan/mirror")
	benchLogCounts(b, "realm plan requests", counter.snapshot())
}
