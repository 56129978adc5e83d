//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchVariant is one provider's configuration in BenchmarkRealmPlan and the
// environment Terraform and the provider run with.
type benchVariant struct {
	config string
	env    []string
}

// benchCandidates are BenchmarkRealmPlan's candidates for the state of what a
// configuration does not manage, planned beside the other variants when
// ZULIP_BENCH_CANDIDATES=1: the mirror provider in each ZULIP_MIRROR_STATE
// mode (see internal/cmd/mirror-provider), with the mirror's configuration.
//
//	mirror-full  every permission and setting the configuration leaves out
//	             held in state with a value, as this provider holds the server's
//	mirror-lean  what the configuration leaves out null in state, scalar or object
//	mirror-lean-map  mirror-lean with a resource's permissions as one map
//	             attribute, `permissions`, keyed by permission name
//	             (ZULIP_MIRROR_PERMISSIONS=map), and a configuration of that shape
//
// The plain mirror (no mode) makes up scalars and leaves objects null: between the two.
type benchCandidates struct {
	names  []string
	ratios map[string][]float64
}

// benchCandidateRatios are the ratios reported, each a numerator and a
// denominator among the variants' plan times.
var benchCandidateRatios = [][2]string{
	{"mirror-full", "noio"}, {"mirror-lean", "noio"}, {"mirror-full", "mirror-lean"},
	{"mirror-full", "mirror"}, {"mirror-lean", "mirror"}, {"zulip", "mirror-full"}, {"zulip", "mirror-lean"},
	{"mirror-lean-map", "noio"}, {"mirror-lean-map", "mirror-lean"},
}

// benchPermission is a permission set on one line of the organization mix.
var benchPermission = regexp.MustCompile(`(?m)^  (can_\w+) = (\{.*\})$`)

// newBenchCandidates adds the candidates to variants, when asked for.
func newBenchCandidates(variants map[string]benchVariant) *benchCandidates {
	c := &benchCandidates{ratios: map[string][]float64{}}
	if os.Getenv("ZULIP_BENCH_CANDIDATES") != "1" {
		return c
	}
	for _, mode := range []string{"full", "lean"} {
		name := "mirror-" + mode
		variants[name] = benchVariant{config: variants["mirror"].config, env: []string{"ZULIP_MIRROR_STATE=" + mode}}
		c.names = append(c.names, name)
	}
	// The mix sets at most one permission per resource, so each becomes a map of one.
	variants["mirror-lean-map"] = benchVariant{
		config: benchPermission.ReplaceAllString(variants["mirror"].config, "  permissions = { $1 = $2 }"),
		env:    []string{"ZULIP_MIRROR_STATE=lean", "ZULIP_MIRROR_PERMISSIONS=map"},
	}
	c.names = append(c.names, "mirror-lean-map")
	return c
}

// benchRatioName is how a ratio is reported: the quiet floor by that name, and
// this provider's plan as "plan".
func benchRatioName(r [2]string) string {
	name := func(s string) string {
		switch s {
		case "noio":
			return "quiet-floor"
		case "zulip":
			return "plan"
		}
		return s
	}
	return name(r[0]) + "/" + name(r[1])
}

// add records a round's ratios and logs its candidates' times.
func (c *benchCandidates) add(b *testing.B, round int, took map[string]time.Duration) {
	if len(c.names) == 0 {
		return
	}
	for _, r := range benchCandidateRatios {
		name := benchRatioName(r)
		c.ratios[name] = append(c.ratios[name], took[r[0]].Seconds()/took[r[1]].Seconds())
	}
	b.Logf("round %d candidates: mirror-full %s, mirror-lean %s, mirror-lean-map %s: full/lean %.2fx, full/quiet floor %.2fx, lean/quiet floor %.2fx, lean-map/quiet floor %.2fx",
		round, took["mirror-full"].Round(time.Millisecond), took["mirror-lean"].Round(time.Millisecond), took["mirror-lean-map"].Round(time.Millisecond),
		took["mirror-full"].Seconds()/took["mirror-lean"].Seconds(), took["mirror-full"].Seconds()/took["noio"].Seconds(),
		took["mirror-lean"].Seconds()/took["noio"].Seconds(), took["mirror-lean-map"].Seconds()/took["noio"].Seconds())
}

// report reports the median of each ratio over the rounds.
func (c *benchCandidates) report(b *testing.B) {
	for _, r := range benchCandidateRatios {
		if xs, ok := c.ratios[benchRatioName(r)]; ok {
			b.ReportMetric(benchMedian(xs), benchRatioName(r))
		}
	}
}

// logLeaves logs, on one line, the state of each mirror variant and of this
// provider: its non-null leaves per resource by type (an empty collection has
// none), and the size of its state file, so that a candidate's shape can be
// held against this provider's.
func (c *benchCandidates) logLeaves(b *testing.B, f *benchFloor, variants map[string]benchVariant) {
	if len(c.names) == 0 {
		return
	}
	var parts []string
	for _, kind := range append([]string{"zulip", "mirror"}, c.names...) {
		dir := filepath.Join(f.dir, "realm-"+kind)
		leaves, count := benchStateLeaves(b, f, variants[kind].env, dir)
		st, err := os.Stat(filepath.Join(dir, "terraform.tfstate"))
		if err != nil {
			b.Fatal(err)
		}
		var types []string
		for _, t := range slices.Sorted(maps.Keys(leaves)) {
			types = append(types, fmt.Sprintf("%s %.1f", strings.TrimPrefix(t, "zulip_"), float64(leaves[t])/float64(count[t])))
		}
		parts = append(parts, fmt.Sprintf("%s (%d KiB): %s", kind, st.Size()/1024, strings.Join(types, ", ")))
	}
	b.Logf("state leaves per resource by type: %s", strings.Join(parts, "; "))
}

// benchStateLeaves is the non-null leaves of the state in dir by resource
// type, and the resources of each type, from `terraform show -json`.
func benchStateLeaves(b *testing.B, f *benchFloor, env []string, dir string) (leaves, count map[string]int) {
	b.Helper()
	out := benchOutput(b, f, env, dir, "show", "-json")
	var shown struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Type   string `json:"type"`
					Values any    `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(out, &shown); err != nil {
		b.Fatal(err)
	}
	leaves, count = map[string]int{}, map[string]int{}
	for _, r := range shown.Values.RootModule.Resources {
		leaves[r.Type] += benchLeaves(r.Values)
		count[r.Type]++
	}
	return leaves, count
}

// benchLeaves is how many non-null scalars a decoded JSON value holds.
func benchLeaves(v any) int {
	switch v := v.(type) {
	case nil:
		return 0
	case map[string]any:
		n := 0
		for _, e := range v {
			n += benchLeaves(e)
		}
		return n
	case []any:
		n := 0
		for _, e := range v {
			n += benchLeaves(e)
		}
		return n
	}
	return 1
}
