package kit

// The organization's state that Zulip gives only through POST /register: the
// settings, the defaults for new users, the realm's bots, the default
// channels. Each fetch type is read once per run; the first read of a run asks
// for every fetch type the areas declare (Area.State), so that a plan needing
// several registers once, not once each.

import (
	"context"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// StateKey is the cache key of the register snapshot of fetchType: a write
// that changes what it holds goes through Cache.Write on this key.
func StateKey(fetchType string) string { return "register:" + fetchType }

// State returns a register snapshot holding fetchType, read once per run.
// When it is not cached, the one register asks also for every fetch type of
// d.StateTypes that this process has not read yet, and caches the answer under
// each of their keys; a fetch type forgotten by a write is read again alone.
// Zulip ignores a fetch type it does not know, so an older server answers
// what it has.
func State(ctx context.Context, d *ProviderData, fetchType string) (*zulip.RegisterResponse, error) {
	return CachedAs(ctx, d.Cache, StateKey(fetchType), func(ctx context.Context) (*zulip.RegisterResponse, error) {
		types, offer := d.Cache.prefetch(fetchType, d.StateTypes)
		resp, err := d.Client.FetchState(ctx, types...)
		if err == nil {
			offer(resp)
		}
		return resp, err
	})
}

// prefetch returns fetchType and the others of declared that the cache has
// never held, marking them as read, and a function that caches an answer
// under their keys unless a write changed them meanwhile.
func (c *collectionCache) prefetch(fetchType string, declared []string) ([]string, func(any)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.prefetched[fetchType] = true
	types := []string{fetchType}
	type mark struct {
		key          string
		gen, version uint64
	}
	var marks []mark
	for _, t := range declared {
		key := StateKey(t)
		if c.prefetched[t] || c.writing[key] > 0 {
			continue
		}
		if _, ok := c.last[key]; ok {
			continue
		}
		c.prefetched[t] = true
		types = append(types, t)
		marks = append(marks, mark{key, c.gen[key], c.version[key]})
	}
	return types, func(v any) {
		for _, m := range marks {
			c.stored(m.key, v, m.gen, m.version)
		}
	}
}
