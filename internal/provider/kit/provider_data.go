package kit

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"golang.org/x/sync/singleflight"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// ProviderData is what Configure hands to every resource and data source.
type ProviderData struct {
	Client *zulip.Client
	// StateTypes are the register fetch types the areas read (Area.State).
	StateTypes []string
	// events is the process's event queue for creates (eventFeed).
	Events *eventFeed
	// HasCreds is false when the provider was configured with a URL only, which
	// is enough for the development API key and nothing else.
	HasCreds bool
	// NoCredentials says, when HasCreds is false, what is missing and where
	// the provider looked for it.
	NoCredentials string
	// destroying: the run is part of a terraform destroy, whose first plan
	// plans the whole configuration only to refresh the state.
	Destroying bool
	// journal is the create journal (journal.go), nil without one.
	Journal *CreateJournal
	// UnknownConfig is true when the provider's own configuration was not known
	// yet (planning against a server that another resource creates).
	UnknownConfig bool
	// ServerSettings are what GET /server_settings answered when the provider
	// was configured (nil before): the server's version and feature level,
	// and the zulip_server data source's values.
	ServerSettings *zulip.ServerSettings
	// me is the provider's own account as GET /users/me answered when the
	// provider was configured (nil without credentials): its id and role let
	// plans refuse changes the account may not make.
	Me      *zulip.User
	Version string
	Cache   *collectionCache
	SMS     SMSSettings
	// notes collects what one plan does that other resources' plans must know.
	notes planNotes
	// FlagReads joins the flag lookups of zulip_message_flags refreshed together.
	FlagReads *idBatcher[map[int64]zulip.NarrowMatch]
	// MessageReads joins the reads of the zulip_message resources refreshed
	// together.
	MessageReads *idBatcher[map[int64]zulip.Message]
}

// SMSSettings are the resolved credentials of the SMS conversations API.
type SMSSettings struct {
	APIURL   string
	Username string
	Password string
	// unknown is true when the sms block depends on values not known yet at
	// plan time; credentials are then checked only when a question is sent.
	Unknown bool
}

// providerDataFrom converts the framework's ProviderData. It returns nil
// without a diagnostic when the provider is not configured yet (the framework
// calls Configure on resources before the provider during validation).
func providerDataFrom(raw any, diags *diag.Diagnostics) *ProviderData {
	if raw == nil {
		return nil
	}
	d, ok := raw.(*ProviderData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", raw))
		return nil
	}
	return d
}

// Ready reports, as a diagnostic, why the provider cannot call the API yet.
func (d *ProviderData) Ready(diags *diag.Diagnostics) bool {
	switch {
	case d == nil:
		diags.AddError("Provider Not Configured",
			"The Zulip provider was not configured before this operation. This is a bug in the provider or in Terraform.")
		return false
	case d.UnknownConfig:
		diags.AddError("Provider Configuration Unknown",
			"The Zulip provider's url, email, api_key or zuliprc depends on a value that is not known yet. "+
				"Apply the resources it depends on first (for example with -target), then apply again.")
		return false
	case !d.HasCreds:
		diags.AddError("Missing Zulip Credentials",
			"This operation needs an account: set `email` and `api_key` in the provider block, the ZULIP_EMAIL and "+
				"ZULIP_API_KEY environment variables, or `email` and `key` in the [api] section of a zuliprc file. "+
				"A provider with only `url` can open the zulip_dev_api_key ephemeral resource and read the zulip_server data source, nothing else.")
		return false
	}
	return true
}

// ReadyWithoutAccount is Ready for what Zulip gives without an account (the
// server's settings, a development server's API keys): a provider configured
// with only `url` passes.
func (d *ProviderData) ReadyWithoutAccount(diags *diag.Diagnostics) bool {
	if d != nil && !d.UnknownConfig && d.Client != nil {
		return true
	}
	return d.Ready(diags) // says why not
}

// readyFor is Ready, or ReadyWithoutAccount for a type that needs no account.
func (d *ProviderData) readyFor(noAccount bool, diags *diag.Diagnostics) bool {
	if noAccount {
		return d.ReadyWithoutAccount(diags)
	}
	return d.Ready(diags)
}

// KnowsServer reports whether the server's feature level is known, so that
// plan-time checks that depend on it can run.
func (d *ProviderData) KnowsServer() bool { return d != nil && d.Client != nil && !d.UnknownConfig }

// FeatureLevel is the server's API feature level, as the provider's
// configuration read it (0 before).
func (d *ProviderData) FeatureLevel() int {
	if d == nil || d.ServerSettings == nil {
		return 0
	}
	return d.ServerSettings.ZulipFeatureLevel
}

// ServerVersion is the server's Zulip version, as the provider's
// configuration read it ("" before).
func (d *ProviderData) ServerVersion() string {
	if d == nil || d.ServerSettings == nil {
		return ""
	}
	return d.ServerSettings.ZulipVersion
}

// RequireFeatureLevel adds an error when the server is older than level;
// what names the attribute or operation that needs it.
func (d *ProviderData) RequireFeatureLevel(level int, what string) error {
	if !d.KnowsServer() || d.FeatureLevel() >= level {
		return nil
	}
	return fmt.Errorf("%s needs Zulip feature level %d or newer, but the server (Zulip %s) has feature level %d",
		what, level, d.ServerVersion(), d.FeatureLevel())
}

// collectionCache keeps whole collections (linkifiers, realm domains, saved
// snippets, user topics, custom profile fields) for the life of one provider
// process. Zulip lists them only whole, so refreshing N resources would
// otherwise cost N requests and O(N²) bytes. Concurrent readers share one
// request; every write to a collection invalidates it.
type collectionCache struct {
	mu      sync.Mutex
	entries map[string]cacheEntry
	gen     map[string]uint64
	flight  singleflight.Group
	// writing counts the writes in flight per key; settled[key] is closed when
	// that count drops to zero. A read that finds the collection stale waits
	// (at most writeSettleMax) for the writes in flight, so that the creates
	// Terraform runs in parallel read the collection back once, not once each.
	writing map[string]int
	settled map[string]chan struct{}
	// version counts every change to a key's entry (an invalidation, or an
	// object added from a create's answer); a fetch stores its result only if
	// no change happened while it ran, so it never drops an added object.
	version map[string]uint64
	// last keeps the newest copy of each collection the run has seen, also
	// after a write made it stale, with the objects the provider's own creates
	// added: what a create compares the collection with, after an uncertain
	// failure, to tell a new object from an old one (creation.create).
	last map[string]any
	// took is how long the last write to each collection took, interval the
	// smoothed time between the starts of its writes, and begun when the last
	// one started: how long a read-back waits for others to join (ReadBack).
	took, interval map[string]time.Duration
	begun          map[string]time.Time
	// readBacks joins the read-backs of writes that end together.
	readBacks *idBatcher[any]
	// prefetched are the register fetch types this cache has asked for (State).
	prefetched map[string]bool
	// stateFlights are the registers in flight, by the fetch types they hold.
	stateFlights map[string]*stateFetch
}

// writeSettleMax bounds how long a read waits for other writes to the same
// collection to finish before it fetches anyway.
const writeSettleMax = 2 * time.Second

// cacheEntry is a fetched collection and the generation it belongs to.
type cacheEntry struct {
	gen   uint64
	value any
}

// NewCollectionCache returns an empty cache.
func NewCollectionCache() *collectionCache {
	return &collectionCache{entries: map[string]cacheEntry{}, gen: map[string]uint64{},
		writing: map[string]int{}, settled: map[string]chan struct{}{}, version: map[string]uint64{},
		last: map[string]any{}, took: map[string]time.Duration{}, interval: map[string]time.Duration{},
		begun: map[string]time.Time{}, readBacks: NewIDBatcher[any](ReadBatchWindow), prefetched: map[string]bool{},
		stateFlights: map[string]*stateFetch{}}
}

// get returns the cached collection, or fetches it once for all concurrent callers.
func (c *collectionCache) get(ctx context.Context, key string, fetch func(context.Context) (any, error)) (any, error) {
	c.mu.Lock()
	if e, ok := c.entries[key]; ok && e.gen == c.gen[key] {
		c.mu.Unlock()
		return e.value, nil
	}
	settled, writing := c.settled[key], c.writing[key] > 0
	c.mu.Unlock()
	if writing {
		timer := time.NewTimer(writeSettleMax)
		select {
		case <-settled:
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		}
		timer.Stop()
	}
	c.mu.Lock()
	gen := c.gen[key]
	if e, ok := c.entries[key]; ok && e.gen == gen {
		c.mu.Unlock()
		return e.value, nil
	}
	c.mu.Unlock()
	// The generation is part of the flight key: a caller arriving after an
	// invalidation must not join a request that started before the write.
	ch := c.flight.DoChan(fmt.Sprintf("%s#%d", key, gen), func() (any, error) {
		c.mu.Lock()
		// A flight of this generation may have ended, and stored its answer,
		// between this caller's look at the cache and its joining: use it.
		if e, ok := c.entries[key]; ok && e.gen == c.gen[key] {
			c.mu.Unlock()
			return e.value, nil
		}
		version := c.version[key]
		c.mu.Unlock()
		// The shared request must not fail because the first caller's context
		// ends while others still wait for it.
		value, err := fetch(context.WithoutCancel(ctx))
		if err != nil {
			return nil, err
		}
		c.stored(key, value, gen, version)
		return value, nil
	})
	// The request is shared, so it runs on when this caller is cancelled
	// (another caller may still want it); the caller itself stops waiting at
	// once, so that Ctrl-C is never held up by a read.
	select {
	case r := <-ch:
		return r.Val, r.Err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// CachedAs is get for a collection of type T: fetch's result is cached under
// key, and what the cache holds is returned as a T. A key holds one type, so a
// value of another type is an internal error.
func CachedAs[T any](ctx context.Context, c *collectionCache, key string, fetch func(context.Context) (T, error)) (T, error) {
	var zero T
	v, err := c.get(ctx, key, func(ctx context.Context) (any, error) { return fetch(ctx) })
	if err != nil {
		return zero, err
	}
	t, ok := v.(T)
	if !ok {
		return zero, fmt.Errorf("internal error: the cache holds a %T under %q, not a %T", v, key, zero)
	}
	return t, nil
}

// stored keeps a fetched collection: as the run's newest copy, and as the
// cached one when nothing changed the collection while it was fetched (gen and
// version are the key's when the fetch began).
func (c *collectionCache) stored(key string, value any, gen, version uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last[key] = value
	if c.gen[key] == gen && c.version[key] == version {
		c.entries[key] = cacheEntry{gen: gen, value: value}
	}
}

// LastSeen returns the newest copy of key the run has seen, fresh or stale.
func (c *collectionCache) lastSeen(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.last[key]
	return v, ok
}

// readBackWindow is how long a read-back waits for others to join it, at
// least. Terraform starts the creates of a large configuration a few to a few
// hundred milliseconds apart (its own work per resource grows with the
// configuration), spread over every resource type, so a read-back waits as long
// as it takes, on average, for readBackJoiners more writes to the same
// collection to start, and at least as long as a write takes. The wait is paid
// once per batch (the creates that join wait less), and only by types whose
// create answer lacks what the state needs; it holds no other resource back,
// since Terraform runs ten at once.
const readBackWindow = 100 * time.Millisecond

// readBackJoiners is how many writes a read-back waits for, on average.
const readBackJoiners = 3

// maxReadBackWait bounds how long a read-back waits for others to join it:
// the wait holds one of Terraform's parallel slots, and when writes are slow
// to come (a rate limit pacing them) waiting longer gathers no more of them.
const maxReadBackWait = 500 * time.Millisecond

// ReadBack fetches key for a caller whose own write has ended and that needs
// what the server made of it (a value its answer lacked). Callers that ask
// while one read-back is gathering share its one request: the first waits as
// long as readBackWindow says, so that the writes running beside its own end
// and join, and N creates cost a fraction of N reads. A fresh cached copy is
// used as is.
func (c *collectionCache) ReadBack(ctx context.Context, key string, fetch func(context.Context) (any, error)) (any, error) {
	c.mu.Lock()
	if e, ok := c.entries[key]; ok && e.gen == c.gen[key] {
		c.mu.Unlock()
		return e.value, nil
	}
	wait := min(max(c.took[key], readBackJoiners*c.interval[key], readBackWindow), maxReadBackWait)
	c.mu.Unlock()
	// The id is a count: a batch holds one per caller.
	return c.readBacks.doWithin(ctx, key, []int64{0}, wait, func(ctx context.Context, _ []int64) (any, error) {
		c.mu.Lock()
		gen, version := c.gen[key], c.version[key]
		c.mu.Unlock()
		value, err := fetch(ctx)
		if err != nil {
			return nil, err
		}
		c.stored(key, value, gen, version)
		return value, nil
	})
}

// writeTicket is a write to a collection in flight (BeginWrite).
type writeTicket struct {
	c     *collectionCache
	key   string
	begun time.Time
	once  sync.Once
}

// Write performs a change to what the cache holds under key (a collection,
// or a value the run reads once): the cached copy is forgotten whatever the
// outcome, as even a request that failed may have changed it, and reads of
// key wait while the write is in flight. It is the only way the provider
// changes what it caches.
func (c *collectionCache) Write(ctx context.Context, key string, send func(context.Context) error) error {
	return c.WriteAll(ctx, []string{key}, send)
}

// WriteAll is Write for a change to what several keys hold (a bot is both
// one of the users and one of the realm's bots).
func (c *collectionCache) WriteAll(ctx context.Context, keys []string, send func(context.Context) error) error {
	tickets := make([]*writeTicket, len(keys))
	for i, key := range keys {
		tickets[i] = c.BeginWrite(key)
	}
	defer func() {
		for _, w := range tickets {
			w.End()
		}
	}()
	return send(ctx)
}

// BeginWrite marks a write to key as in flight until the ticket ends.
func (c *collectionCache) BeginWrite(key string) *writeTicket {
	c.mu.Lock()
	if c.writing[key] == 0 {
		c.settled[key] = make(chan struct{})
	}
	c.writing[key]++
	now := time.Now()
	if last, ok := c.begun[key]; ok {
		// A smoothed mean, so that one pause (a plan-time check, a slow
		// answer) does not set the next wait alone.
		// A pause (the rate limit's pacing, a slow plan) is not the pace.
		if d := min(now.Sub(last), maxReadBackWait); c.interval[key] == 0 {
			c.interval[key] = d
		} else {
			c.interval[key] = (3*c.interval[key] + d) / 4
		}
	}
	c.begun[key] = now
	c.mu.Unlock()
	return &writeTicket{c: c, key: key, begun: now}
}

// end ends the write and forgets the collection (whatever the outcome: even a
// failed request may have changed it).
func (w *writeTicket) End() { w.finish(nil) }

// EndKnown ends a write whose effect the provider knows: apply returns a copy
// of the collection as the server now holds it. When the cache holds the
// collection as it was (no other change forgot it meanwhile), the copy
// replaces it and no read-back is needed; otherwise the collection is
// forgotten, as by end. The run's newest copy (LastSeen) gets the change too.
func (w *writeTicket) EndKnown(apply func(old any) (any, bool)) { w.finish(apply) }

func (w *writeTicket) finish(apply func(old any) (any, bool)) {
	w.once.Do(func() {
		c, key := w.c, w.key
		c.mu.Lock()
		defer c.mu.Unlock()
		c.version[key]++
		c.took[key] = time.Since(w.begun)
		if l, ok := c.last[key]; ok && apply != nil {
			if changed, ok := apply(l); ok {
				c.last[key] = changed
			}
		}
		e, ok := c.entries[key]
		var changed any
		if ok && e.gen == c.gen[key] && apply != nil {
			changed, ok = apply(e.value)
		} else {
			ok = false
		}
		if ok {
			c.entries[key] = cacheEntry{gen: e.gen, value: changed}
		} else {
			c.gen[key]++
			delete(c.entries, key)
		}
		c.writing[key]--
		if c.writing[key] == 0 {
			close(c.settled[key])
			delete(c.settled, key)
		}
	})
}

// forget drops what the cache holds under key, so that the next read asks the
// server (a check that must not trust even a fresh copy). Areas change what
// the cache holds only through Write and WriteAll.
func (c *collectionCache) forget(key string) {
	c.mu.Lock()
	c.version[key]++
	c.gen[key]++
	delete(c.entries, key)
	c.mu.Unlock()
}

// RealmSettings reads the organization's settings (fetch type "realm") once
// per provider process; nothing this provider does changes the ones it reads.
// Zulip offers them only through POST /register; the client's state read
// registers a queue for no events, retries like any read (a second queue from an
// uncertain attempt receives nothing and expires), and deletes the queue.
// It is zulip_realm's snapshot: one read serves both.
func (d *ProviderData) RealmSettings(ctx context.Context) (*zulip.RegisterResponse, error) {
	return State(ctx, d, zulip.EventTypeRealm)
}

// Missing names the SMS credentials that are not set, or returns "".
func (s SMSSettings) Missing() string {
	var names []string
	if s.Username == "" {
		names = append(names, "username (ZULIP_SMS_USERNAME)")
	}
	if s.Password == "" {
		names = append(names, "password (ZULIP_SMS_PASSWORD)")
	}
	return strings.Join(names, " and ")
}

// CanAsk reports whether the plan can ask the server: its address and the
// account's credentials are known.
func (d *ProviderData) CanAsk() bool { return d.KnowsServer() && d.HasCreds }
