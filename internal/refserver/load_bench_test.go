package refserver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"
)

// loadClients is the number of concurrent well-behaved clients, and
// loadPerClient the requests each sends in one round.
const (
	loadClients   = 50
	loadPerClient = 40
)

// BenchmarkLoad measures the server over real TCP with loadClients concurrent
// clients, in two rounds per iteration: one alone, one while another client
// holds a request for a large answer (GET /realm/linkifiers with 3000
// linkifiers, behind small socket buffers) that it never reads. It reports
// requests per second and median and p99 latency of each round, and their
// ratios: a non-reading client that stalled the others (as one did when the
// realm lock was held while answers were written) shows as a p99 ratio in
// the thousands; a healthy server keeps it near 1. No timing is asserted.
//
//	go test -run '^$' -bench BenchmarkLoad -benchtime 5x ./internal/refserver/
func BenchmarkLoad(b *testing.B) {
	srv, base, stop := frontSlowServer(b, Options{}, 3000, 0)
	defer stop()
	u, _ := srv.User(SeedMemberID)
	transport := &http.Transport{MaxIdleConns: loadClients * 2, MaxIdleConnsPerHost: loadClients * 2}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 2 * time.Minute}
	paths := []string{"/api/v1/users/me", "/api/v1/server_settings", "/api/v1/users", "/api/v1/saved_snippets"}

	// round sends loadClients*loadPerClient requests and returns their
	// latencies and the round's wall time.
	round := func() ([]time.Duration, time.Duration) {
		var mu sync.Mutex
		var all []time.Duration
		var wg sync.WaitGroup
		start := time.Now()
		for c := 0; c < loadClients; c++ {
			wg.Add(1)
			go func(c int) {
				defer wg.Done()
				lat := make([]time.Duration, 0, loadPerClient)
				for i := 0; i < loadPerClient; i++ {
					req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, base+paths[(c+i)%len(paths)], nil)
					if err != nil {
						b.Error(err)
						return
					}
					req.SetBasicAuth(u.Email, u.APIKey)
					t0 := time.Now()
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					lat = append(lat, time.Since(t0))
					if resp.StatusCode != http.StatusOK {
						b.Errorf("%s: status %d", req.URL.Path, resp.StatusCode)
					}
				}
				mu.Lock()
				all = append(all, lat...)
				mu.Unlock()
			}(c)
		}
		wg.Wait()
		return all, time.Since(start)
	}

	var alone, withSlow []time.Duration
	var aloneWall, slowWall time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lat, wall := round()
		alone, aloneWall = append(alone, lat...), aloneWall+wall

		conn := frontNonReader(b, srv, base, "/api/v1/realm/linkifiers")
		time.Sleep(50 * time.Millisecond) // its answer is being written and blocks
		lat, wall = round()
		withSlow, slowWall = append(withSlow, lat...), slowWall+wall
		_ = conn.Close()
	}
	b.StopTimer()

	rpsAlone := float64(len(alone)) / aloneWall.Seconds()
	rpsSlow := float64(len(withSlow)) / slowWall.Seconds()
	p50Alone, p99Alone := loadPercentile(alone, 50), loadPercentile(alone, 99)
	p50Slow, p99Slow := loadPercentile(withSlow, 50), loadPercentile(withSlow, 99)
	b.ReportMetric(rpsAlone, "req/s")
	b.ReportMetric(ms(p50Alone), "p50-ms")
	b.ReportMetric(ms(p99Alone), "p99-ms")
	b.ReportMetric(rpsSlow, "req/s-nonreader")
	b.ReportMetric(ms(p50Slow), "p50-ms-nonreader")
	b.ReportMetric(ms(p99Slow), "p99-ms-nonreader")
	b.ReportMetric(ms(p99Slow)/ms(p99Alone), "p99-ratio")
	b.ReportMetric(rpsSlow/rpsAlone, "req/s-ratio")
}

// loadPercentile is the p-th percentile of d (nearest rank).
func loadPercentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	k := (len(s)*p + 99) / 100
	if k < 1 {
		k = 1
	}
	return s[k-1]
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// TestLoadPercentile pins the percentile used by BenchmarkLoad.
func TestLoadPercentile(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	for p, want := range map[int]time.Duration{50: 50 * time.Millisecond, 99: 99 * time.Millisecond, 100: 100 * time.Millisecond, 1: time.Millisecond} {
		if got := loadPercentile(d, p); got != want {
			t.Errorf("p%d = %s, want %s", p, got, want)
		}
	}
	if got := fmt.Sprint(loadPercentile(nil, 99)); got != "0s" {
		t.Errorf("empty: %s", got)
	}
}
