package kit

import (
	"context"
	"slices"
	"sync"
	"time"
)

// ReadBatchWindow is how long the first of concurrent lookups waits for others
// to join it. Terraform refreshes up to ten resources at once, so a window a
// little longer than the time between their starts gathers them.
const ReadBatchWindow = 20 * time.Millisecond

// idBatcher joins lookups by message id that concurrent Reads make into one
// request per key (for zulip_message_flags: one GET /messages/matches_narrow
// per flag for all the resources refreshed together, instead of one each).
// The first caller for a key opens a batch and, after ReadBatchWindow, sends
// the union of the ids collected; callers arriving later join the next batch.
type idBatcher[R any] struct {
	mu      sync.Mutex
	pending map[string]*idBatch[R]
	// window is how long a batch waits for others to join, unless its first
	// caller asks for longer (doWithin).
	window time.Duration
	// hold is how a batch waits for others to join: sleep for d (tests
	// replace it).
	hold func(key string, d time.Duration)
}

// idBatch is one batch: its ids, then its result.
type idBatch[R any] struct {
	ids    []int64
	done   chan struct{}
	result R
	err    error
}

// NewIDBatcher returns a batcher with the given window.
func NewIDBatcher[R any](window time.Duration) *idBatcher[R] {
	return &idBatcher[R]{pending: map[string]*idBatch[R]{}, window: window,
		hold: func(_ string, d time.Duration) { time.Sleep(d) }}
}

// do returns fetch's result for a batch holding at least ids. fetch gets the
// batch's ids sorted and without duplicates. A cancelled caller returns at
// once; the batch goes on for the others.
func (b *idBatcher[R]) Do(ctx context.Context, key string, ids []int64, fetch func(context.Context, []int64) (R, error)) (R, error) {
	return b.doWithin(ctx, key, ids, 0, fetch)
}

// doWithin is do, except that a batch this call opens waits for others for
// window when that is longer than the batcher's own.
func (b *idBatcher[R]) doWithin(ctx context.Context, key string, ids []int64, window time.Duration,
	fetch func(context.Context, []int64) (R, error)) (R, error) {
	b.mu.Lock()
	bt := b.pending[key]
	if bt == nil {
		bt = &idBatch[R]{done: make(chan struct{})}
		b.pending[key] = bt
		go b.send(context.WithoutCancel(ctx), key, max(window, b.window), bt, fetch)
	}
	bt.ids = append(bt.ids, ids...)
	b.mu.Unlock()
	select {
	case <-bt.done:
		return bt.result, bt.err
	case <-ctx.Done():
		var zero R
		return zero, ctx.Err()
	}
}

// send closes the batch to newcomers after the window and performs it.
func (b *idBatcher[R]) send(ctx context.Context, key string, window time.Duration, bt *idBatch[R],
	fetch func(context.Context, []int64) (R, error)) {
	b.hold(key, window)
	b.mu.Lock()
	delete(b.pending, key)
	ids := slices.Compact(slices.Sorted(slices.Values(bt.ids)))
	b.mu.Unlock()
	bt.result, bt.err = fetch(ctx, ids)
	close(bt.done)
}
