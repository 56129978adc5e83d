package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// BenchmarkRefreshLinkifiers measures what the per-run collection cache buys:
// refreshing N linkifier resources concurrently (Terraform's default
// parallelism is 10), once with each Read listing the linkifiers itself and
// once through the shared cache. Both run side by side in every iteration,
// against the same in-process reference server, and the benchmark reports
// their ratio, which is meaningful on a noisy machine where absolute times are
// not.
func BenchmarkRefreshLinkifiers(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprintf("resources=%d", n), func(b *testing.B) {
			srv, err := refserver.New(refserver.Options{})
			if err != nil {
				b.Fatal(err)
			}
			var requests atomic.Int64
			hs := httptest.NewServer(countRequests(srv, &requests))
			defer hs.Close()
			admin, _ := srv.User(refserver.SeedAdminID)
			client, err := zulip.New(zulip.Config{SiteURL: hs.URL, Email: admin.Email, APIKey: admin.APIKey})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			ids := make([]int64, n)
			for i := range ids {
				if ids[i], err = client.CreateLinkifier(ctx, zulip.LinkifierRequest{
					Pattern:     fmt.Sprintf("B%d-(?P<id>[0-9]+)", i),
					URLTemplate: fmt.Sprintf("https://bench.example.com/%d/{id}", i),
				}); err != nil {
					b.Fatal(err)
				}
			}

			var direct, cached time.Duration
			var directReqs, cachedReqs int64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				requests.Store(0)
				start := time.Now()
				refreshAll(b, ids, func(ctx context.Context) ([]zulip.Linkifier, error) { return client.ListLinkifiers(ctx) })
				direct += time.Since(start)
				directReqs += requests.Load()

				requests.Store(0)
				data := &kit.ProviderData{Client: client, Cache: kit.NewCollectionCache()}
				start = time.Now()
				refreshAll(b, ids, kit.LinkifierCollection(data).List)
				cached += time.Since(start)
				cachedReqs += requests.Load()
			}
			b.StopTimer()
			b.ReportMetric(float64(direct)/float64(cached), "speedup")
			b.ReportMetric(float64(directReqs)/float64(b.N), "requests/refresh-uncached")
			b.ReportMetric(float64(cachedReqs)/float64(b.N), "requests/refresh-cached")
		})
	}
}

// refreshAll reads every id with 10 workers, as terraform plan would.
func refreshAll(b *testing.B, ids []int64, list func(context.Context) ([]zulip.Linkifier, error)) {
	work := make(chan int64)
	var wg sync.WaitGroup
	for w := 0; w < 10; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				all, err := list(context.Background())
				if err != nil {
					b.Error(err)
					continue
				}
				found := false
				for _, l := range all {
					found = found || l.ID == id
				}
				if !found {
					b.Errorf("linkifier %d not found", id)
				}
			}
		}()
	}
	for _, id := range ids {
		work <- id
	}
	close(work)
	wg.Wait()
}

// countRequests wraps a handler, counting the requests it serves.
func countRequests(h http.Handler, n *atomic.Int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h.ServeHTTP(w, r)
	})
}
