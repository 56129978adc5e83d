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

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// BenchmarkTerraformVsFloor runs real `terraform apply` and `terraform plan`
// over N objects with three providers, interleaved in every round on the same
// machine: this provider against the reference server (a mix of linkifiers,
// saved snippets, allowed domains and user topics), the no-I/O framework
// provider of internal/cmd/noio-provider (the floor no provider can beat), and
// Terraform's built-in terraform_data. Absolute times on a shared 2-core
// machine mean little; the ratios measured side by side do. It reports, as
// the median over rounds:
//
//	plan/noio, plan/terraform_data    time of a plan (refresh included) of N objects
//	apply/noio                        time of an apply creating N objects
//	req/plan, req/object-apply        requests this provider sent
//	MiB-peak, MiB-peak-noio           peak resident memory of the provider processes
//
// and logs the plan's requests by endpoint. ZULIP_BENCH_N sets N (default
// 1000); `make bench` runs it with the other benchmarks.
func BenchmarkTerraformVsFloor(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("ZULIP_BENCH_N")); err == nil && v > 0 {
		n = v
	}
	tf := terraformPath(b)
	dir := b.TempDir()
	zulipBin := buildProvider(b, filepath.Join(dir, "real", "terraform-provider-zulip"))
	goTool, _ := exec.LookPath("go")
	noioBin := buildPackage(b, goTool, filepath.Join(dir, "real", "terraform-provider-noio"), "./internal/cmd/noio-provider")
	plugins := filepath.Join(dir, "plugins")
	memZulip, memNoio := filepath.Join(dir, "mem-zulip"), filepath.Join(dir, "mem-noio")
	benchWrapper(b, filepath.Join(plugins, "terraform-provider-zulip"), zulipBin, memZulip)
	benchWrapper(b, filepath.Join(plugins, "terraform-provider-noio"), noioBin, memNoio)
	rc := filepath.Join(dir, "terraformrc")
	writeFile(b, rc, fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/zulip-terraform/zulip" = %q
    "registry.terraform.io/zulip-terraform/noio"  = %q
  }
  direct {}
}
`, plugins, plugins), 0o644)

	var planNoio, planData, applyNoio, reqPlan, reqApply []float64
	var endpoints, applyEndpoints map[string]int
	b.ResetTimer()
	for round := range b.N {
		srv, err := refserver.New(refserver.Options{})
		if err != nil {
			b.Fatal(err)
		}
		counter := &benchCounter{counts: map[string]int{}}
		hs := httptest.NewServer(counter.wrap(srv))
		owner, _ := srv.User(refserver.SeedOwnerID)
		roundDir := filepath.Join(dir, "round"+strconv.Itoa(round))
		configs := map[string]string{
			"zulip": benchZulipConfig(n, hs.URL, owner.Email, owner.APIKey),
			"noio":  benchNoioConfig(n),
			"data":  benchDataConfig(n),
		}
		order := []string{"zulip", "noio", "data"}
		// Rotate who goes first, so that no provider always meets a warm or cold machine.
		order = append(order[round%3:], order[:round%3]...)
		apply, plan := map[string]time.Duration{}, map[string]time.Duration{}
		for _, kind := range order {
			cfg := filepath.Join(roundDir, kind)
			writeFile(b, filepath.Join(cfg, "main.tf"), configs[kind], 0o644)
			counter.reset()
			apply[kind] = benchTerraform(b, tf, rc, cfg, "apply", "-auto-approve", "-input=false", "-parallelism=10")
			if kind == "zulip" {
				reqApply = append(reqApply, float64(counter.total())/float64(n))
				applyEndpoints = counter.snapshot()
			}
		}
		for _, kind := range order {
			counter.reset()
			plan[kind] = benchTerraform(b, tf, rc, filepath.Join(roundDir, kind), "plan", "-input=false", "-detailed-exitcode")
			if kind == "zulip" {
				reqPlan = append(reqPlan, float64(counter.total()))
				endpoints = counter.snapshot()
			}
		}
		hs.Close()
		planNoio = append(planNoio, plan["zulip"].Seconds()/plan["noio"].Seconds())
		planData = append(planData, plan["zulip"].Seconds()/plan["data"].Seconds())
		applyNoio = append(applyNoio, apply["zulip"].Seconds()/apply["noio"].Seconds())
		b.Logf("round %d, N=%d: plan zulip %s, noio %s, terraform_data %s; apply zulip %s, noio %s, terraform_data %s",
			round, n, plan["zulip"].Round(time.Millisecond), plan["noio"].Round(time.Millisecond), plan["data"].Round(time.Millisecond),
			apply["zulip"].Round(time.Millisecond), apply["noio"].Round(time.Millisecond), apply["data"].Round(time.Millisecond))
	}
	b.StopTimer()
	b.ReportMetric(benchMedian(planNoio), "plan/noio")
	b.ReportMetric(benchMedian(planData), "plan/terraform_data")
	b.ReportMetric(benchMedian(applyNoio), "apply/noio")
	b.ReportMetric(benchMedian(reqPlan), "req/plan")
	b.ReportMetric(benchMedian(reqApply), "req/object-apply")
	if peak, ok := benchPeakMiB(memZulip); ok {
		b.ReportMetric(peak, "MiB-peak")
	}
	if peak, ok := benchPeakMiB(memNoio); ok {
		b.ReportMetric(peak, "MiB-peak-noio")
	}
	benchLogCounts(b, fmt.Sprintf("plan requests, N=%d", n), endpoints)
	benchLogCounts(b, fmt.Sprintf("apply requests, N=%d", n), applyEndpoints)
}

// benchLogCounts logs request counts by endpoint, sorted.
func benchLogCounts(b *testing.B, what string, counts map[string]int) {
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		b.Logf("%s: %s %d", what, k, counts[k])
	}
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

// benchZulipConfig is n objects of four collection types, a quarter each.
func benchZulipConfig(n int, url, email, key string) string {
	var c strings.Builder
	fmt.Fprintf(&c, "terraform {\n  required_providers {\n    zulip = { source = \"zulip-terraform/zulip\" }\n  }\n}\n"+
		"provider \"zulip\" {\n  url     = %q\n  email   = %q\n  api_key = %q\n}\n", url, email, key)
	for i := range n {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&c, "resource \"zulip_linkifier\" \"r%d\" {\n  pattern      = \"B%d-(?P<id>[0-9]+)\"\n  url_template = \"https://b%d.example.com/{id}\"\n}\n", i, i, i)
		case 1:
			fmt.Fprintf(&c, "resource \"zulip_saved_snippet\" \"r%d\" {\n  title   = \"Snippet %d\"\n  content = \"Content %d\"\n}\n", i, i, i)
		case 2:
			fmt.Fprintf(&c, "resource \"zulip_allowed_domain\" \"r%d\" {\n  domain = \"b%d.example.org\"\n}\n", i, i)
		default:
			fmt.Fprintf(&c, "resource \"zulip_user_topic\" \"r%d\" {\n  channel_id        = 1\n  topic             = \"bench %d\"\n  visibility_policy = \"muted\"\n}\n", i, i)
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
	n := 300
	if v, err := strconv.Atoi(os.Getenv("ZULIP_BENCH_RATE_N")); err == nil && v > 0 {
		n = v
	}
	const perMinute = 200
	tf := terraformPath(b)
	dir := b.TempDir()
	zulipBin := buildProvider(b, filepath.Join(dir, "real", "terraform-provider-zulip"))
	plugins := filepath.Join(dir, "plugins")
	benchWrapper(b, filepath.Join(plugins, "terraform-provider-zulip"), zulipBin, filepath.Join(dir, "mem"))
	rc := filepath.Join(dir, "terraformrc")
	writeFile(b, rc, fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/zulip-terraform/zulip\" = %q\n  }\n  direct {}\n}\n", plugins), 0o644)
	var ratios, limited []float64
	for round := range b.N {
		srv, err := refserver.New(refserver.Options{RateLimit: perMinute})
		if err != nil {
			b.Fatal(err)
		}
		counter := &benchCounter{counts: map[string]int{}}
		hs := httptest.NewServer(counter.wrap(srv))
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
