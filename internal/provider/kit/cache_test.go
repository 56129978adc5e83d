package kit

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestCollectionCacheSharesOneRead: concurrent readers share one fetch, and a
// write makes the next reader fetch again.
func TestCollectionCacheSharesOneRead(t *testing.T) {
	d := &ProviderData{Cache: NewCollectionCache()}
	var fetches atomic.Int32
	release := make(chan struct{})
	c := newCollection(d, "things", func(context.Context) ([]int, error) {
		fetches.Add(1)
		<-release
		return []int{1, 2}, nil
	})
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got, err := c.List(t.Context()); err != nil || len(got) != 2 {
				t.Errorf("list = %v, %v", got, err)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond) // let every reader join the one fetch
	close(release)
	wg.Wait()
	if n := fetches.Load(); n != 1 {
		t.Fatalf("%d fetches for 10 concurrent readers, want 1", n)
	}
	if err := c.Write(t.Context(), func(context.Context) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := c.List(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := fetches.Load(); n != 2 {
		t.Fatalf("%d fetches after a write, want 2", n)
	}
}

// TestCollectionCacheCancelledReaderReturnsAtOnce: a reader whose context
// ends (Ctrl-C) stops waiting at once, while the shared read goes on for the
// others.
func TestCollectionCacheCancelledReaderReturnsAtOnce(t *testing.T) {
	d := &ProviderData{Cache: NewCollectionCache()}
	release := make(chan struct{})
	c := newCollection(d, "slow", func(context.Context) ([]int, error) {
		<-release
		return []int{7}, nil
	})
	other := make(chan error, 1)
	go func() {
		_, err := c.List(context.Background())
		other <- err
	}()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.List(ctx)
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled reader got %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled reader still waits for the shared read")
	}
	close(release)
	if err := <-other; err != nil {
		t.Fatalf("the other reader got %v", err)
	}
}

// TestCollectionCacheReadsBackOnceAfterParallelWrites: creates running in
// parallel each write, then read the collection back; the reads wait for the
// writes in flight and share one fetch that sees every write (issue 13: N
// creates cost N full lists before).
func TestCollectionCacheReadsBackOnceAfterParallelWrites(t *testing.T) {
	d := &ProviderData{Cache: NewCollectionCache()}
	var fetches, stored atomic.Int32
	c := newCollection(d, "things", func(context.Context) ([]int32, error) {
		fetches.Add(1)
		return []int32{stored.Load()}, nil
	})
	const writers = 8
	var started, wg sync.WaitGroup
	started.Add(writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := c.Write(t.Context(), func(context.Context) error {
				started.Done()
				started.Wait() // every write is in flight before any ends
				time.Sleep(time.Duration(i) * 5 * time.Millisecond)
				stored.Add(1)
				return nil
			})
			if err != nil {
				t.Error(err)
				return
			}
			got, err := c.List(t.Context())
			if err != nil || len(got) != 1 || got[0] != writers {
				t.Errorf("read back %v, %v: want every write (%d) seen", got, err, writers)
			}
		}()
	}
	wg.Wait()
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d fetches to read back %d parallel writes, want 1", n, writers)
	}
}

// TestCollectionCacheWriteWaitIsBounded: a read does not wait for a write that
// takes longer than writeSettleMax, and a cancelled reader returns at once.
func TestCollectionCacheWriteWaitIsBounded(t *testing.T) {
	d := &ProviderData{Cache: NewCollectionCache()}
	c := newCollection(d, "things", func(context.Context) ([]int, error) { return []int{1}, nil })
	release := make(chan struct{})
	go func() {
		_ = c.Write(context.Background(), func(context.Context) error { <-release; return nil })
	}()
	defer close(release)
	time.Sleep(20 * time.Millisecond)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := c.List(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled read: %v", err)
	}
	if d := time.Since(start); d >= writeSettleMax {
		t.Errorf("the cancelled read took %s", d)
	}
	start = time.Now()
	if got, err := c.List(t.Context()); err != nil || len(got) != 1 {
		t.Errorf("read = %v, %v", got, err)
	}
	if d := time.Since(start); d < writeSettleMax {
		t.Errorf("the read fetched after %s, before the write in flight ended or %s passed", d, writeSettleMax)
	}
}

// TestCollectionCreateAddsToTheCache: a create whose object is known is added
// to the cached collection (no read-back request); a fetch that was in flight
// while it was added does not replace the collection with one that lacks it;
// without a cached collection, or when the create failed, the collection is
// read again.
func TestCollectionCreateAddsToTheCache(t *testing.T) {
	d := &ProviderData{Cache: NewCollectionCache()}
	var fetches atomic.Int32
	var server []int
	var mu sync.Mutex
	inFetch, release := make(chan struct{}, 1), make(chan struct{})
	slow := false
	c := newCollection(d, "things", func(context.Context) ([]int, error) {
		fetches.Add(1)
		mu.Lock()
		snapshot := slices.Clone(server)
		block := slow
		mu.Unlock()
		if block {
			inFetch <- struct{}{}
			<-release
		}
		return snapshot, nil
	})
	create := func(v int, made bool) {
		t.Helper()
		err := c.create(t.Context(), func(context.Context) (int, bool, error) {
			mu.Lock()
			server = append(server, v)
			mu.Unlock()
			return v, made, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	list := func() []int {
		t.Helper()
		got, err := c.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	// Nothing cached: the create forgets, the next list fetches.
	create(1, true)
	if got := list(); !slices.Equal(got, []int{1}) || fetches.Load() != 1 {
		t.Fatalf("list %v after %d fetches", got, fetches.Load())
	}
	// Cached: the new object is added, no fetch.
	create(2, true)
	if got := list(); !slices.Equal(got, []int{1, 2}) || fetches.Load() != 1 {
		t.Fatalf("list %v after %d fetches, want [1 2] from the cache", got, fetches.Load())
	}
	// Not made: forgotten, fetched again.
	create(3, false)
	if got := list(); !slices.Equal(got, []int{1, 2, 3}) || fetches.Load() != 2 {
		t.Fatalf("list %v after %d fetches", got, fetches.Load())
	}
	// A fetch in flight (it started before the object existed) must not
	// replace the collection the create added to.
	d.Cache.forget("things")
	mu.Lock()
	slow = true
	mu.Unlock()
	done := make(chan []int)
	go func() { got, _ := c.List(context.Background()); done <- got }()
	<-inFetch
	mu.Lock()
	slow = false
	mu.Unlock()
	// The cache is empty while the fetch runs, so this create forgets.
	create(4, true)
	close(release)
	<-done
	if got := list(); !slices.Equal(got, []int{1, 2, 3, 4}) {
		t.Fatalf("list %v: the fetch that started before the create hid its object", got)
	}
}

// TestCollectionReadBackJoinsWritesEndingTogether: creates whose answers lack
// what the state needs read the collection back once for all that end while
// the first read-back gathers, and each sees its own object; a read-back after
// that batch was sent reads again. LastSeen keeps the stale copy with what the
// creates made, without a request.
func TestCollectionReadBackJoinsWritesEndingTogether(t *testing.T) {
	d := &ProviderData{Cache: NewCollectionCache()}
	var fetches atomic.Int32
	var mu sync.Mutex
	server := []int{1}
	c := newCollection(d, "snippets", func(context.Context) ([]int, error) {
		fetches.Add(1)
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(server), nil
	})
	if _, err := c.List(t.Context()); err != nil {
		t.Fatal(err)
	}
	// The first batch is held until all five read-backs joined it (no timing).
	first := true
	d.Cache.readBacks.hold = func(key string, _ time.Duration) {
		if !first {
			return
		}
		first = false
		for {
			d.Cache.readBacks.mu.Lock()
			joined := len(d.Cache.readBacks.pending[key].ids)
			d.Cache.readBacks.mu.Unlock()
			if joined == 5 {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := 10 + i
			err := c.Write(t.Context(), func(context.Context) error {
				mu.Lock()
				server = append(server, id)
				mu.Unlock()
				return nil
			})
			if err != nil {
				t.Error(err)
				return
			}
			got, err := c.ReadBack(t.Context())
			if err != nil || !slices.Contains(got, id) {
				t.Errorf("read-back after creating %d = %v, %v", id, got, err)
			}
		}()
	}
	wg.Wait()
	if n := fetches.Load(); n != 2 {
		t.Fatalf("%d fetches (one list, then read-backs of 5 parallel creates), want 2", n)
	}
	// The read-back's answer is cached: nothing changed while it ran.
	if _, err := c.ReadBack(t.Context()); err != nil || fetches.Load() != 2 {
		t.Fatalf("a read-back with a fresh cached copy fetched (%d fetches, err %v)", fetches.Load(), err)
	}
	if err := c.Write(t.Context(), func(context.Context) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if got, err := c.LastSeen(t.Context()); err != nil || len(got) != 6 || fetches.Load() != 2 {
		t.Fatalf("lastSeen after a write = %v, %v (%d fetches), want the stale copy of 6 and no fetch", got, err, fetches.Load())
	}
	if _, err := c.ReadBack(t.Context()); err != nil || fetches.Load() != 3 {
		t.Fatalf("a read-back after a later write did not fetch (%d fetches, err %v)", fetches.Load(), err)
	}
}
