package kit

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// eventFeed is one event queue per provider process for the objects whose
// create answers only an id while the state needs the whole object (users and
// saved snippets): a create waits for its own "add" event instead of reading
// the whole collection back. One GET /events serves every create that ends
// beside it, of both types, where each type's read-back cost a request of its
// own. The queue is registered at the first create that wants it (so that
// plans never register one), and deleted when the provider process ends
// (closeFeeds, after the plugin server stops). Anything that goes wrong (the
// queue cannot be registered, expires, or an event is late) makes the caller
// fall back to the read-back.
type eventFeed struct {
	client *zulip.Client

	// start registers the queue once; queueID is empty when that failed.
	start   sync.Once
	queueID string

	mu sync.Mutex
	// broken is why the queue stopped working.
	broken error
	// lastID is the last event id received.
	lastID int64
	// got are the objects of the add events received, by type and id.
	got map[feedKey]json.RawMessage
	// waiting wakes the callers waiting for an object.
	waiting map[feedKey][]chan struct{}
	waiters int
	// inflight counts the creates between expect and their release: the
	// events the poller may wait for.
	inflight int
	polling  bool
}

// The event types of the feed.
const (
	FeedUser    = "realm_user"
	FeedSnippet = zulip.EventTypeSavedSnippets
)

// feedWait bounds how long a create waits for its event before it reads the
// collection back instead.
const feedWait = 10 * time.Second

type feedKey struct {
	typ string
	id  int64
}

// openFeeds are the feeds of the process, for closeFeeds.
var (
	openFeedsMu sync.Mutex
	openFeeds   []*eventFeed
)

func NewEventFeed(c *zulip.Client) *eventFeed {
	return &eventFeed{client: c, got: map[feedKey]json.RawMessage{}, waiting: map[feedKey][]chan struct{}{}}
}

// expect registers the queue if no create has yet, and counts the caller as
// a create whose event is coming; the returned func ends that (a create calls
// it when it is done, whether or not it awaited its event). A create calls
// expect before it sends its request: an event only reaches the queues that
// exist when it happens.
func (f *eventFeed) Expect(ctx context.Context) (release func()) {
	if f == nil {
		return func() {}
	}
	f.start.Do(func() {
		empty := []string{}
		resp, err := f.client.Register(ctx, zulip.RegisterRequest{
			EventTypes: []string{FeedUser, FeedSnippet}, FetchEventTypes: empty,
			ClientGravatar: new(bool), // avatar_url as GET /users gives it
		})
		if err != nil {
			tflog.Debug(ctx, "no event queue for read-backs; creates read their collection back", map[string]any{"error": err.Error()})
			return
		}
		f.queueID, f.lastID = resp.QueueID, resp.LastEventID
		openFeedsMu.Lock()
		openFeeds = append(openFeeds, f)
		openFeedsMu.Unlock()
	})
	f.mu.Lock()
	f.inflight++
	f.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			f.inflight--
			f.mu.Unlock()
		})
	}
}

// await returns the object of the add event of typ with id, once it has
// arrived; false when the feed fails or the event is late.
func (f *eventFeed) await(ctx context.Context, typ string, id int64) (json.RawMessage, bool) {
	if f == nil || f.queueID == "" {
		return nil, false
	}
	key := feedKey{typ, id}
	f.mu.Lock()
	if raw, ok := f.got[key]; ok {
		delete(f.got, key)
		f.mu.Unlock()
		return raw, true
	}
	if f.broken != nil {
		f.mu.Unlock()
		return nil, false
	}
	wake := make(chan struct{}, 1)
	f.waiting[key] = append(f.waiting[key], wake)
	f.waiters++
	if !f.polling {
		f.polling = true
		go f.poll(ctx)
	}
	f.mu.Unlock()

	timer := time.NewTimer(feedWait)
	defer timer.Stop()
	select {
	case <-wake:
	case <-timer.C:
	case <-ctx.Done():
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.waiters--
	raw, ok := f.got[key]
	delete(f.got, key)
	if !ok { // late: forget the waiter
		list := f.waiting[key]
		for i, w := range list {
			if w == wake {
				f.waiting[key] = append(list[:i], list[i+1:]...)
				break
			}
		}
		if len(f.waiting[key]) == 0 {
			delete(f.waiting, key)
		}
	}
	return raw, ok
}

// FeedObject is the object of the add event of typ with id, decoded; false
// when the feed has none (see eventFeed).
func FeedObject[T any](ctx context.Context, d *ProviderData, typ string, id int64) (T, bool) {
	var v T
	raw, ok := d.Events.await(ctx, typ, id)
	if !ok || json.Unmarshal(raw, &v) != nil {
		return v, false
	}
	return v, true
}

// Before each poll the poller lets events gather for at least
// feedGatherMin, and then until every create whose event is coming waits for
// it, at most until feedGatherMax: one request then serves several creates,
// which hold Terraform's parallel slots meanwhile.
const (
	feedGatherMin = 250 * time.Millisecond
	feedGatherMax = 500 * time.Millisecond
)

// poll fetches events while somebody waits for one. A poll in flight when the
// last waiter leaves is not cancelled: the next create's event ends it (or,
// at the end of the run, nobody reads its answer).
func (f *eventFeed) poll(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	for {
		f.gather()
		f.mu.Lock()
		if f.waiters == 0 {
			f.polling = false
			f.mu.Unlock()
			return
		}
		last := f.lastID
		f.mu.Unlock()

		events, err := f.client.GetEvents(ctx, f.queueID, last)
		if err != nil {
			f.mu.Lock()
			f.polling = false
			if f.waiters > 0 { // a long poll that timed out with nobody waiting is no failure
				f.broken = err
				f.wakeAll()
			}
			f.mu.Unlock()
			tflog.Debug(ctx, "the event queue failed; creates read their collection back", map[string]any{"error": err.Error()})
			return
		}
		f.take(events)
	}
}

// gather waits before a poll (see feedGatherMin).
func (f *eventFeed) gather() {
	time.Sleep(feedGatherMin)
	deadline := time.Now().Add(feedGatherMax - feedGatherMin)
	for time.Now().Before(deadline) {
		f.mu.Lock()
		all := f.waiters >= f.inflight
		f.mu.Unlock()
		if all {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// take records the objects of add events and wakes their waiters. An object
// nobody waits for yet is kept: its create may not await it yet.
func (f *eventFeed) take(events []json.RawMessage) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, raw := range events {
		var e struct {
			ID     int64           `json:"id"`
			Type   string          `json:"type"`
			Op     string          `json:"op"`
			Person json.RawMessage `json:"person"`
			Saved  json.RawMessage `json:"saved_snippet"`
		}
		if json.Unmarshal(raw, &e) != nil {
			continue
		}
		f.lastID = max(f.lastID, e.ID)
		if e.Op != "add" {
			continue
		}
		obj := e.Person
		if e.Type == FeedSnippet {
			obj = e.Saved
		}
		var ids struct {
			UserID int64 `json:"user_id"`
			ID     int64 `json:"id"`
		}
		if len(obj) == 0 || json.Unmarshal(obj, &ids) != nil {
			continue
		}
		key := feedKey{e.Type, ids.ID}
		if e.Type == FeedUser {
			key.id = ids.UserID
		}
		f.got[key] = obj
		for _, w := range f.waiting[key] {
			w <- struct{}{}
		}
		delete(f.waiting, key)
	}
}

// wakeAll wakes every waiter (the feed failed). f.mu is held.
func (f *eventFeed) wakeAll() {
	for key, list := range f.waiting {
		for _, w := range list {
			select {
			case w <- struct{}{}:
			default:
			}
		}
		delete(f.waiting, key)
	}
}

// closeFeeds deletes the event queues of the process's feeds. The server
// would expire them after ten idle minutes anyway.
func closeFeeds(ctx context.Context) {
	openFeedsMu.Lock()
	feeds := openFeeds
	openFeeds = nil
	openFeedsMu.Unlock()
	for _, f := range feeds {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_ = f.client.DeleteQueue(cctx, f.queueID)
		cancel()
	}
}

// CloseEventQueues deletes the event queues the provider registered; main
// calls it once the plugin server has stopped.
func CloseEventQueues() { closeFeeds(context.Background()) }
