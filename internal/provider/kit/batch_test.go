package kit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestIDBatcherJoinsConcurrentLookups: lookups made together share one fetch
// of the union of their ids; a lookup after the batch was sent starts another;
// keys do not mix.
func TestIDBatcherJoinsConcurrentLookups(t *testing.T) {
	b := NewIDBatcher[string](time.Hour)
	// The first batch is held until all five lookups joined it (no timing).
	first := true
	b.hold = func(key string, _ time.Duration) {
		if !first {
			return
		}
		first = false
		for {
			b.mu.Lock()
			joined := len(b.pending[key].ids)
			b.mu.Unlock()
			if joined == 10 {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	var fetches atomic.Int32
	fetch := func(_ context.Context, ids []int64) (string, error) {
		fetches.Add(1)
		return fmt.Sprint(ids), nil
	}
	var wg sync.WaitGroup
	results := make([]string, 5)
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := b.Do(t.Context(), "starred", []int64{int64(5 - i), 3}, fetch)
			if err != nil {
				t.Error(err)
			}
			results[i] = r
		}()
	}
	wg.Wait()
	if n := fetches.Load(); n != 1 {
		t.Fatalf("%d fetches for 5 concurrent lookups, want 1", n)
	}
	for i, r := range results {
		if r != "[1 2 3 4 5]" {
			t.Errorf("lookup %d got %s, want the union, sorted and without duplicates", i, r)
		}
	}
	if r, _ := b.Do(t.Context(), "starred", []int64{9}, fetch); r != "[9]" || fetches.Load() != 2 {
		t.Errorf("a later lookup got %s after %d fetches", r, fetches.Load())
	}
	if r, _ := b.Do(t.Context(), "read", []int64{1}, fetch); r != "[1]" {
		t.Errorf("another key got %s", r)
	}
}

// TestIDBatcherErrorsAndCancellation: a failed fetch fails every lookup of the
// batch; a cancelled caller returns at once while the batch goes on.
func TestIDBatcherErrorsAndCancellation(t *testing.T) {
	b := NewIDBatcher[int](20 * time.Millisecond)
	boom := errors.New("boom")
	if _, err := b.Do(t.Context(), "k", []int64{1}, func(context.Context, []int64) (int, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	release := make(chan struct{})
	done := make(chan int, 1)
	go func() {
		r, _ := b.Do(t.Context(), "k", []int64{2}, func(context.Context, []int64) (int, error) { <-release; return 7, nil })
		done <- r
	}()
	time.Sleep(5 * time.Millisecond)
	if _, err := b.Do(ctx, "k", []int64{3}, func(context.Context, []int64) (int, error) { return 8, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled lookup: %v", err)
	}
	close(release)
	if r := <-done; r != 7 {
		t.Errorf("the batch's other lookup got %d", r)
	}
}
