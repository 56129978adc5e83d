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
// over N Terraform resources with four providers, interleaved in every round on the same
// machine: this provider against the reference server (a mix of linkifiers,
// saved snippets, allowed domains, user topics and users); the same
// configuration with internal/cmd/mirror-provider, which has this provider's
// schemas and does no I/O (the floor no provider with these schemas can beat:
// the framework's work grows with a schema's attributes); the no-I/O provider
// of internal/cmd/noio-provider, whose one resource has three attributes and
// whose framework logging is off (the quiet floor); and Terraform's built-in
// terraform_data. Each round applies the four, then plans them
// ZULIP_BENCH_PLANS times (default 3); the order of the four rotates from
// round to round and from pass to pass. Absolute times on a shared 2-core
// machine mean little; the ratios measured side by side do. It reports, as
// the median over rounds (over every plan pass, for plans):
//
//	plan/mirror, plan/quiet-floor, plan/terraform_data  time of a plan (refresh included) of N resources
//	apply/mirror, apply/quiet-floor                     time of an apply creating N resources
//	req/plan, req/object-apply                          requests this provider sent
//	MiB-peak, MiB-peak-mirror, MiB-peak-quiet-floor     peak resident memory of the provider processes
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
		apply := r.apply
		applyMirror = append(applyMirror, apply["zulip"].Seconds()/apply["mirror"].Seconds())
		applyNoio = append(applyNoio, apply["zulip"].Seconds()/apply["noio"].Seconds())
		ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
		var plans []string
		for _, plan := range r.plans {
			planMirror = append(planMirror, plan["zulip"].Seconds()/plan["mirror"].Seconds())
			planNoio = append(planNoio, plan["zulip"].Seconds()/plan["noio"].Seconds())
			planData = append(planData, plan["zulip"].Seconds()/plan["data"].Seconds())
			plans = append(plans, fmt.Sprintf("%s/%s/%s/%s", ms(plan["zulip"]), ms(plan["mirror"]), ms(plan["noio"]), ms(plan["data"])))
		}
		b.Logf("round %d, %d resources: plans zulip/mirror/quiet floor/terraform_data %s; apply zulip %s, mirror %s, quiet floor %s, terraform_data %s",
			round, n, strings.Join(plans, ", "), ms(apply["zulip"]), ms(apply["mirror"]), ms(apply["noio"]), ms(apply["data"]))
	}
	b.StopTimer()
	b.ReportMetric(benchMedian(planMirror), "plan/mirror")
	b.ReportMetric(benchMedian(applyMirror), "apply/mirror")
	b.ReportMetric(benchMedian(planNoio), "plan/quiet-floor")
	b.ReportMetric(benchMedian(planData), "plan/terraform_data")
	b.ReportMetric(benchMedian(applyNoio), "apply/quiet-floor")
	b.ReportMetric(benchMedian(reqPlan), "req/plan")
	b.ReportMetric(benchMedian(reqApply), "req/object-apply")
	if peak, ok := benchPeakMiB(f.memZulip); ok {
		b.ReportMetric(peak, "MiB-peak")
	}
	if peak, ok := benchPeakMiB(f.memMirror); ok {
		b.ReportMetric(peak, "MiB-peak-mirror")
	}
	if peak, ok := benchPeakMiB(f.memNoio); ok {
		b.ReportMetric(peak, "MiB-peak-quiet-floor")
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
// of its plans (one map per pass over the kinds), and this provider's
// requests (per object in the apply, in all in the plan) and their endpoints.
type benchRound struct {
	apply                         map[string]time.Duration
	plans                         []map[string]time.Duration
	reqApply, reqPlan             float64
	applyEndpoints, planEndpoints map[string]int
}

// benchPlanPasses is how many times a round plans each configuration, the
// kinds in a new order each pass (ZULIP_BENCH_PLANS, default 3): a plan takes
// seconds and an apply tens of them, so a round measures plans several times
// over for the cost of one apply each.
var benchPlanPasses = benchN("ZULIP_BENCH_PLANS", 3)

// round applies, then plans (benchPlanPasses times), the four configurations
// of n objects against a new reference server.
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
	order := benchRotate([]string{"zulip", "mirror", "noio", "data"}, round)
	r := benchRound{apply: map[string]time.Duration{}}
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
	for pass := range benchPlanPasses {
		took := map[string]time.Duration{}
		for _, kind := range benchRotate(order, pass) {
			counter.reset()
			took[kind] = benchTerraform(b, f.tf, f.rc, filepath.Join(roundDir, kind), "plan", "-input=false", "-detailed-exitcode")
			if kind == "zulip" {
				r.reqPlan = float64(counter.total())
				r.planEndpoints = counter.snapshot()
			}
		}
		r.plans = append(r.plans, took)
	}
	return r
}

// benchRotate is the order of the variants in a round: each round starts with
// the next, so that no variant always meets a warm or cold machine. Every
// benchmark that compares variants side by side runs them in this order.
func benchRotate(variants []string, round int) []string {
	k := round % len(variants)
	return append(slices.Clone(variants[k:]), variants[:k]...)
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
	return benchTerraformEnv(b, nil, tf, rc, dir, args...)
}

// benchTerraformEnv is benchTerraform with extra environment variables for
// Terraform and the providers it starts (the mirror's ZULIP_MIRROR_ variables
// are never inherited: the plain mirror runs in its default mode).
func benchTerraformEnv(b *testing.B, extra []string, tf, rc, dir string, args ...string) time.Duration {
	b.Helper()
	cmd := exec.Command(tf, append(args, "-no-color")...)
	cmd.Dir = dir
	cmd.Env = benchEnv(extra, rc)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		b.Fatalf("terraform %s in %s: %v\n%s", args[0], dir, err, benchTail(out))
	}
	return took
}

// benchEnv is the environment of a terraform command: this process's, without
// Terraform's logging or the mirror's modes, with extra and the CLI
// configuration rc.
func benchEnv(extra []string, rc string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_LOG") && !strings.HasPrefix(kv, "ZULIP_MIRROR_") {
			env = append(env, kv)
		}
	}
	env = append(env, extra...)
	return append(env, "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1")
}

// benchTail is the end of a long output.
func benchTail(out []byte) string {
	if len(out) > 4000 {
		return "..." + string(out[len(out)-4000:])
	}
	return string(out)
}

// benchZulipConfig is n resources of five types, a fifth each: users and four
// collection types (the first types).
func benchZulipConfig(n int, url, email, key string) string {
	var c strings.Builder
	c.WriteString(benchProviderBlock(url, email, key))
	benchFirstTypes(&c, n)
	return c.String()
}

// benchProviderBlock is the configuration's terraform and provider blocks.
func benchProviderBlock(url, email, key string) string {
	return fmt.Sprintf("terraform {\n  required_providers {\n    zulip = { source = \"zulip-terraform/zulip\" }\n  }\n}\n"+
		"provider \"zulip\" {\n  url     = %q\n  email   = %q\n  api_key = %q\n}\n", url, email, key)
}

// benchFirstTypes writes n resources of the first types, a fifth each.
func benchFirstTypes(c *strings.Builder, n int) {
	for i := range n {
		switch i % 5 {
		case 0:
			fmt.Fprintf(c, "resource \"zulip_linkifier\" \"r%d\" {\n  pattern      = \"B%d-(?P<id>[0-9]+)\"\n  url_template = \"https://b%d.example.com/{id}\"\n}\n", i, i, i)
		case 1:
			fmt.Fprintf(c, "resource \"zulip_saved_snippet\" \"r%d\" {\n  title   = \"Snippet %d\"\n  content = \"Content %d\"\n}\n", i, i, i)
		case 2:
			fmt.Fprintf(c, "resource \"zulip_allowed_domain\" \"r%d\" {\n  domain = \"b%d.example.org\"\n}\n", i, i)
		case 3:
			fmt.Fprintf(c, "resource \"zulip_user_topic\" \"r%d\" {\n  channel_id        = 1\n  topic             = \"bench %d\"\n  visibility_policy = \"muted\"\n}\n", i, i)
		default:
			fmt.Fprintf(c, "resource \"zulip_user\" \"r%d\" {\n  email     = \"bench%d@example.com\"\n  full_name = \"Bench %d\"\n  password  = \"bench-password-%d\"\n}\n", i, i, i, i)
		}
	}
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
		c.WriteString(benchProviderBlock(hs.URL, owner.Email, owner.APIKey))
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

// BenchmarkRealmPlan applies an organization mix of N Terraform resources
// (ZULIP_BENCH_REALM_N, default 1000; `make bench` runs 1,000 and 3,000; see
// benchOrgMix) and plans it again, side by side in every round, in an order
// that rotates, with three providers: this provider against the reference
// server, the no-I/O mirror provider (this provider's schemas) and the quiet
// floor (internal/cmd/noio-provider: N resources of three attributes, framework
// logging off). It reports, as the median over three rounds per iteration:
//
//	plan/quiet-floor   this provider's plan time over the quiet floor's
//	plan/mirror        this provider's plan time over the mirror's
//	mirror/quiet-floor what this provider's schemas alone cost Terraform and the framework
//	req/plan           requests the plan sent (the same whatever N: one read per collection)
//	resources          Terraform resources (what `terraform state list` shows)
//	set-members        channel subscribers and group members, apart: they are not resources
//	MiB-peak, MiB-peak-mirror, MiB-peak-quiet-floor  peak resident memory of the provider processes, applies included
//
// With ZULIP_BENCH_CANDIDATES=1 it also plans, in the same rotation, the
// candidates for the state of what a configuration does not manage (the
// mirror's ZULIP_MIRROR_STATE modes; see benchCandidates), logs the non-null
// leaves of each variant's state by resource type, and reports their ratios.
func BenchmarkRealmPlan(b *testing.B) {
	n := benchN("ZULIP_BENCH_REALM_N", 1000)
	f := newBenchFloor(b)
	srv, counter, hs := benchServer(b, refserver.Options{})
	srv.Do(acctest.ScaleRealmSeed)
	defer hs.Close()
	owner := benchOwner(srv)
	mix := benchOrgMix(n)
	config := benchProviderBlock(hs.URL, owner.Email, owner.APIKey) + mix.config
	variants := map[string]benchVariant{
		"zulip":  {config: config},
		"mirror": {config: strings.Replace(config, `source = "zulip-terraform/zulip"`, `source = "zulip-terraform/mirror"`, 1)},
		"noio":   {config: benchNoioConfig(mix.resources)},
	}
	cands := newBenchCandidates(variants)
	for kind, v := range variants {
		d := filepath.Join(f.dir, "realm-"+kind)
		writeFile(b, filepath.Join(d, "main.tf"), v.config, 0o644)
		benchTerraformEnv(b, v.env, f.tf, f.rc, d, "apply", "-auto-approve", "-input=false", "-parallelism=10")
	}
	if listed := benchStateList(b, f, filepath.Join(f.dir, "realm-zulip")); listed != mix.resources {
		b.Fatalf("terraform state list shows %d resources, the configuration declares %d", listed, mix.resources)
	}
	b.Logf("organization mix: %d Terraform resources (%s); %d set members apart (%d channel subscribers, %d group members)",
		mix.resources, mix.breakdown, mix.subscribers+mix.members, mix.subscribers, mix.members)
	cands.logLeaves(b, f, variants)
	var toFloor, toMirror, mirrorToFloor, requests []float64
	var endpoints map[string]int
	b.ResetTimer()
	for round := range 3 * b.N {
		took := map[string]time.Duration{}
		for _, kind := range benchRotate(append([]string{"zulip", "mirror", "noio"}, cands.names...), round) {
			counter.reset()
			took[kind] = benchTerraformEnv(b, variants[kind].env, f.tf, f.rc, filepath.Join(f.dir, "realm-"+kind), "plan", "-input=false", "-detailed-exitcode")
			if kind == "zulip" {
				requests = append(requests, float64(counter.total()))
				endpoints = counter.snapshot()
			}
		}
		toFloor = append(toFloor, took["zulip"].Seconds()/took["noio"].Seconds())
		toMirror = append(toMirror, took["zulip"].Seconds()/took["mirror"].Seconds())
		mirrorToFloor = append(mirrorToFloor, took["mirror"].Seconds()/took["noio"].Seconds())
		b.Logf("round %d, %d resources: plan zulip %s (%.0f requests), mirror %s, quiet floor %s: %.2fx the quiet floor, %.2fx the mirror",
			round, mix.resources, took["zulip"].Round(time.Millisecond), requests[len(requests)-1], took["mirror"].Round(time.Millisecond),
			took["noio"].Round(time.Millisecond), toFloor[len(toFloor)-1], toMirror[len(toMirror)-1])
		cands.add(b, round, took)
	}
	b.StopTimer()
	b.ReportMetric(benchMedian(toFloor), "plan/quiet-floor")
	b.ReportMetric(benchMedian(toMirror), "plan/mirror")
	b.ReportMetric(benchMedian(mirrorToFloor), "mirror/quiet-floor")
	b.ReportMetric(benchMedian(requests), "req/plan")
	b.ReportMetric(float64(mix.resources), "resources")
	b.ReportMetric(float64(mix.subscribers+mix.members), "set-members")
	// Peaks over the whole benchmark, the applies included.
	for unit, file := range map[string]string{"MiB-peak": f.memZulip, "MiB-peak-mirror": f.memMirror, "MiB-peak-quiet-floor": f.memNoio} {
		if peak, ok := benchPeakMiB(file); ok {
			b.ReportMetric(peak, unit)
		}
	}
	cands.report(b)
	benchLogCounts(b, "organization plan requests", endpoints)
}

// benchStateList is how many resources `terraform state list` shows in dir.
func benchStateList(b *testing.B, f *benchFloor, dir string) int {
	b.Helper()
	return len(strings.Fields(string(benchOutput(b, f, nil, dir, "state", "list"))))
}

// benchOutput is what a terraform command that reads the state in dir prints,
// run with the extra environment variables of the variant whose state it is.
func benchOutput(b *testing.B, f *benchFloor, extra []string, dir string, args ...string) []byte {
	b.Helper()
	cmd := exec.Command(f.tf, args...)
	cmd.Dir = dir
	cmd.Env = benchEnv(extra, f.rc)
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("terraform %s in %s: %v", strings.Join(args, " "), dir, err)
	}
	return out
}

// benchMix is a configuration (without its provider block), its Terraform
// resources by type, and the set members it declares (each channel
// subscriber, each group member, user or subgroup), which are attributes of
// resources, not resources.
type benchMix struct {
	config, breakdown    string
	resources            int
	subscribers, members int
}

// Sizes of the organization mix's sets.
const (
	benchSubscribers  = 10 // per zulip_channel_subscribers
	benchGroupMembers = 10 // users per zulip_user_group_members, with the group below it
)

// benchOrgMix is the organization mix of n Terraform resources: per 1,000,
// 100 channels that give a group a permission, their 100 subscriber sets, 50
// groups nested four deep and their 50 member sets, 10 custom profile fields,
// the realm's settings (one), and the first types for the rest (689). The
// subscribers and members are the 100 users of acctest.ScaleRealmSeed; the
// resources are separate blocks, each referring to another by name (the shape
// the performance guide recommends).
func benchOrgMix(n int) benchMix {
	channels, groups, fields := max(1, n/10), max(1, n/20), max(1, n/100)
	first := n - 2*channels - 2*groups - fields - 1
	if first < 0 {
		panic(fmt.Sprintf("an organization mix needs at least %d resources", n-first))
	}
	var c strings.Builder
	nested := 0
	c.WriteString("resource \"zulip_realm\" \"this\" {\n  description = \"The benchmark's organization.\"\n}\n")
	for f := range fields {
		fmt.Fprintf(&c, "resource \"zulip_custom_profile_field\" \"f%d\" {\n  name = \"Field %d\"\n  type = \"short_text\"\n}\n", f, f)
	}
	ids := func(n, from, step int) string {
		s := make([]string, n)
		for k := range s {
			s[k] = fmt.Sprint(acctest.ScaleFirstUserID + (from*step+k)%100)
		}
		return strings.Join(s, ", ")
	}
	for g := range groups {
		fmt.Fprintf(&c, "resource \"zulip_user_group\" \"g%d\" {\n  name        = \"bench-team-%d\"\n  description = \"Team %d\"\n}\n", g, g, g)
		subgroups := ""
		if g%4 != 0 { // nested four deep: each team includes the one below it
			subgroups = fmt.Sprintf("zulip_user_group.g%d.name", g-1)
			nested++
		}
		fmt.Fprintf(&c, "resource \"zulip_user_group_members\" \"g%d\" {\n  group_id  = zulip_user_group.g%d.id\n  members   = [%s]\n  subgroups = [%s]\n}\n",
			g, g, ids(benchGroupMembers, g, 5), subgroups)
	}
	for ch := range channels {
		fmt.Fprintf(&c, "resource \"zulip_channel\" \"c%d\" {\n  name        = \"bench-project-%d\"\n  description = \"Project %d\"\n"+
			"  can_send_message_group = { groups = [zulip_user_group.g%d.name, \"role:administrators\"] }\n}\n", ch, ch, ch, ch%groups)
		fmt.Fprintf(&c, "resource \"zulip_channel_subscribers\" \"c%d\" {\n  channel_id  = zulip_channel.c%d.id\n  subscribers = [%s]\n}\n",
			ch, ch, ids(benchSubscribers, ch, 7))
	}
	benchFirstTypes(&c, first)
	return benchMix{
		config: c.String(), resources: n, subscribers: channels * benchSubscribers, members: groups*benchGroupMembers + nested,
		breakdown: fmt.Sprintf("%d channels, %d subscriber sets, %d groups, %d member sets, %d profile fields, the realm, %d of the first types",
			channels, channels, groups, groups, fields, first),
	}
}
