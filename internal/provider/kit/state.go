package kit

// The organization's state that Zulip gives only through POST /register: the
// settings, the defaults for new users, the realm's bots, the default
// channels. Each fetch type is read once per run; the first read of a run asks
// for every fetch type the areas declare (Area.State), so that a plan needing
// several registers once, not once each.

import (
	"context"
	"slices"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// StateKey is the cache key of the register snapshot of fetchType: a write
// that changes what it holds goes through Cache.Write on this key.
func StateKey(fetchType string) string { return "register:" + fetchType }

// State returns a register snapshot holding fetchType, read once per run.
// When it is not cached, and fetchType is one of d.StateTypes, the one
// register asks also for every other of them that this process has not read
// yet, and caches the answer under each of their keys (a fetch type no area
// declares is read alone); a reader of one of those types that comes while that
// register runs waits for it instead of sending its own. A fetch type
// forgotten by a write is read again alone. with are fetch types Zulip needs
// beside fetchType to answer it (unread_msgs wants update_message_flags and
// message); they are asked for, not cached on their own. Zulip ignores a fetch
// type it does not know, so an older server answers what it has.
func State(ctx context.Context, d *ProviderData, fetchType string, with ...string) (*zulip.RegisterResponse, error) {
	return CachedAs(ctx, d.Cache, StateKey(fetchType), func(ctx context.Context) (*zulip.RegisterResponse, error) {
		declared := d.StateTypes
		if !slices.Contains(declared, fetchType) {
			// A fetch type no area declares (read only when a resource needs
			// it, like unread_msgs) is read alone: were it to carry the
			// declared ones when it came first, a run's requests would depend
			// on which reader came first.
			declared = nil
		}
		f, own := d.Cache.prefetch(fetchType, with, declared)
		if !own {
			select {
			case <-f.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if f.err == nil {
				return f.resp, nil
			}
			// The shared register failed: this type is read alone.
			f = d.Cache.readAlone(fetchType, with)
		}
		f.resp, f.err = d.Client.FetchState(ctx, f.types...)
		d.Cache.landed(f)
		return f.resp, f.err
	})
}

// stateFetch is one register of several fetch types: readers of any of them
// wait on done, then read resp and err.
type stateFetch struct {
	types []string
	marks []stateMark
	done  chan struct{}
	resp  *zulip.RegisterResponse
	err   error
}

// stateMark is a fetch type's key, generation and version when its register
// began: its answer is cached, and joined, only if no write changed the key
// meanwhile.
type stateMark struct {
	key          string
	gen, version uint64
}

// current tells whether no write changed key since f began: a reader after
// such a write must not take an answer from before it (a bot created, then
// read back from a register that began before it existed). c.mu is held.
func (f *stateFetch) current(c *collectionCache, key string) bool {
	for _, m := range f.marks {
		if m.key == key {
			return c.gen[key] == m.gen && c.version[key] == m.version
		}
	}
	return false
}

// prefetch returns the register in flight that holds fetchType, or the
// answer of one that landed since the caller looked at the cache (own false);
// else a new register (own true) of fetchType, with, and the others of
// declared that the cache has never held and no register holds.
func (c *collectionCache) prefetch(fetchType string, with, declared []string) (*stateFetch, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.stateFlights[fetchType]; ok && f.current(c, StateKey(fetchType)) {
		return f, false
	}
	key := StateKey(fetchType)
	if e, ok := c.entries[key]; ok && e.gen == c.gen[key] {
		if resp, ok := e.value.(*zulip.RegisterResponse); ok {
			f := &stateFetch{resp: resp, done: make(chan struct{})}
			close(f.done)
			return f, false
		}
	}
	return c.newStateFetch(fetchType, with, declared), true
}

// readAlone is a new register of fetchType and with only: the shared one
// that held fetchType failed.
func (c *collectionCache) readAlone(fetchType string, with []string) *stateFetch {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.newStateFetch(fetchType, with, nil)
}

// newStateFetch is a register of fetchType, with, and the others of declared
// that the cache has never held and no register holds, marking them as read.
// c.mu is held.
func (c *collectionCache) newStateFetch(fetchType string, with, declared []string) *stateFetch {
	c.prefetched[fetchType] = true
	own := StateKey(fetchType)
	f := &stateFetch{types: []string{fetchType}, done: make(chan struct{}),
		marks: []stateMark{{own, c.gen[own], c.version[own]}}}
	c.stateFlights[fetchType] = f
	for _, t := range with {
		if !slices.Contains(f.types, t) {
			f.types = append(f.types, t)
		}
	}
	for _, t := range declared {
		key := StateKey(t)
		if c.prefetched[t] || c.writing[key] > 0 {
			continue
		}
		if _, ok := c.last[key]; ok {
			continue
		}
		c.prefetched[t] = true
		c.stateFlights[t] = f
		if !slices.Contains(f.types, t) {
			f.types = append(f.types, t)
		}
		f.marks = append(f.marks, stateMark{key, c.gen[key], c.version[key]})
	}
	return f
}

// landed caches a register's answer under the keys of the fetch types it
// held that no write changed meanwhile (fetchType's own is cached by get too)
// and wakes their readers.
func (c *collectionCache) landed(f *stateFetch) {
	if f.err == nil {
		for _, m := range f.marks {
			c.stored(m.key, f.resp, m.gen, m.version)
		}
	}
	c.mu.Lock()
	for _, t := range f.types {
		if c.stateFlights[t] == f {
			delete(c.stateFlights, t)
		}
	}
	c.mu.Unlock()
	close(f.done)
}
