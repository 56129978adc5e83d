package kit

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// registers records the fetch types of each POST /register the server gets.
type registers struct {
	mu   sync.Mutex
	seen [][]string
}

func (r *registers) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodPost && req.URL.Path == "/api/v1/register" {
			_ = req.ParseForm()
			r.mu.Lock()
			var types []string
			_ = json.Unmarshal([]byte(req.PostForm.Get("fetch_event_types")), &types)
			r.seen = append(r.seen, types)
			r.mu.Unlock()
		}
		next.ServeHTTP(w, req)
	})
}

func (r *registers) take() [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.seen
	r.seen = nil
	return out
}

// TestStateRegistersOncePerRun: the run's first read of a register snapshot
// asks for every declared fetch type, so reading the others costs nothing; a
// write forgets one fetch type, which is then read again alone, and the others
// stay cached.
func TestStateRegistersOncePerRun(t *testing.T) {
	srv, err := refserver.New(refserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var regs registers
	hs := httptest.NewServer(regs.wrap(srv))
	defer hs.Close()
	admin, _ := srv.User(refserver.SeedAdminID)
	client, err := zulip.New(zulip.Config{SiteURL: hs.URL, Email: admin.Email, APIKey: admin.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	d := &ProviderData{Client: client, Cache: NewCollectionCache(),
		StateTypes: []string{zulip.EventTypeRealm, zulip.EventTypeRealmBot, zulip.EventTypeDefaultStreams}}
	ctx := context.Background()
	read := func(fetchType string) *zulip.RegisterResponse {
		t.Helper()
		resp, err := State(ctx, d, fetchType)
		if err != nil {
			t.Fatalf("State(%s): %v", fetchType, err)
		}
		return resp
	}
	if bots := read(zulip.EventTypeRealmBot).RealmBots; len(bots) == 0 {
		t.Error("realm_bots is empty; the seeded realm has bots")
	}
	if ids, err := read(zulip.EventTypeDefaultStreams).DefaultChannelIDs(); err != nil || len(ids) == 0 {
		t.Errorf("default channels %v, %v; the seeded realm has some", ids, err)
	}
	if read(zulip.EventTypeRealm).RealmRaw == nil {
		t.Error("the realm's settings are missing from the shared snapshot")
	}
	got := regs.take()
	if len(got) != 1 {
		t.Fatalf("%d registers for three fetch types, want 1: %v", len(got), got)
	}
	for _, ft := range d.StateTypes {
		if !slices.Contains(got[0], ft) {
			t.Errorf("the register asked for %v, not %s", got[0], ft)
		}
	}
	// A write forgets one fetch type: it alone is read again.
	if err := d.Cache.Write(ctx, StateKey(zulip.EventTypeRealmBot), func(context.Context) error { return nil }); err != nil {
		t.Fatal(err)
	}
	read(zulip.EventTypeRealm)
	read(zulip.EventTypeRealmBot)
	if got := regs.take(); len(got) != 1 || !slices.Equal(got[0], []string{zulip.EventTypeRealmBot}) {
		t.Errorf("after a write to the bots: registers %v, want one for realm_bot alone", got)
	}
}

// TestStateConcurrentReadersShareOneRegister: readers of different fetch
// types that come while the run's first register is in flight wait for it
// rather than send their own (a query reads every list at once).
func TestStateConcurrentReadersShareOneRegister(t *testing.T) {
	srv, err := refserver.New(refserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var regs registers
	started := make(chan struct{}, 16)
	release := make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/api/v1/register" {
			started <- struct{}{}
			<-release
		}
		srv.ServeHTTP(w, req)
	})
	hs := httptest.NewServer(regs.wrap(slow))
	defer hs.Close()
	admin, _ := srv.User(refserver.SeedAdminID)
	client, err := zulip.New(zulip.Config{SiteURL: hs.URL, Email: admin.Email, APIKey: admin.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	types := []string{zulip.EventTypeRealm, zulip.EventTypeRealmBot, zulip.EventTypeDefaultStreams}
	d := &ProviderData{Client: client, Cache: NewCollectionCache(), StateTypes: types}
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, len(types))
	read := func(ft string) {
		defer wg.Done()
		if _, err := State(ctx, d, ft); err != nil {
			errs <- err
		}
	}
	wg.Add(1)
	go read(types[0])
	<-started // the first register is in flight
	for _, ft := range types[1:] {
		wg.Add(1)
		go read(ft)
	}
	// Give the others time to send a register of their own, if they would.
	select {
	case <-started:
		t.Error("a second register was sent while the first was in flight")
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := regs.take(); len(got) != 1 {
		t.Errorf("%d registers for three concurrent readers, want 1: %v", len(got), got)
	}
}

// TestStateReaderAfterLandingUsesTheAnswer: a reader that missed the cache
// just before another fetch type's register landed, and looks for a register
// in flight just after, takes the landed answer instead of sending its own
// (the window that made a plan send three registers instead of two).
func TestStateReaderAfterLandingUsesTheAnswer(t *testing.T) {
	c := NewCollectionCache()
	declared := []string{zulip.EventTypeRealm, zulip.EventTypeStarredMessages}
	f := firstRegister(t, c, declared)
	f.resp = &zulip.RegisterResponse{}
	c.landed(f)
	got, own := c.prefetch(zulip.EventTypeStarredMessages, nil, declared)
	if own {
		t.Fatalf("a second register (%v) for a fetch type the landed one held", got.types)
	}
	select {
	case <-got.done:
	default:
		t.Fatal("the landed answer is not ready")
	}
	if got.resp != f.resp {
		t.Error("the reader did not get the landed answer")
	}
}

// TestStateUndeclaredTypeReadAlone: a fetch type no area declares is read in
// a register of its own whether it comes before or after the declared ones,
// so a run sends the same registers whatever the order of its readers.
func TestStateUndeclaredTypeReadAlone(t *testing.T) {
	srv, err := refserver.New(refserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	admin, _ := srv.User(refserver.SeedAdminID)
	declared := []string{zulip.EventTypeRealm, zulip.EventTypeStarredMessages}
	for _, undeclaredFirst := range []bool{true, false} {
		var regs registers
		hs := httptest.NewServer(regs.wrap(srv))
		client, err := zulip.New(zulip.Config{SiteURL: hs.URL, Email: admin.Email, APIKey: admin.APIKey})
		if err != nil {
			t.Fatal(err)
		}
		d := &ProviderData{Client: client, Cache: NewCollectionCache(), StateTypes: declared}
		unread := func() {
			if s, err := State(context.Background(), d, zulip.EventTypeUpdateMessageFlags, zulip.EventTypeMessage); err != nil || s.UnreadMsgs == nil {
				t.Fatalf("unread_msgs: %v, %v", s, err)
			}
		}
		if undeclaredFirst {
			unread()
		}
		for _, ft := range declared {
			if _, err := State(context.Background(), d, ft); err != nil {
				t.Fatal(err)
			}
		}
		if !undeclaredFirst {
			unread()
		}
		hs.Close()
		got := regs.take()
		if len(got) != 2 {
			t.Fatalf("undeclared first %v: %d registers %v, want 2", undeclaredFirst, len(got), got)
		}
		alone := got[0]
		if !undeclaredFirst {
			alone = got[1]
		}
		if !slices.Equal(alone, []string{zulip.EventTypeUpdateMessageFlags, zulip.EventTypeMessage}) {
			t.Errorf("undeclared first %v: the undeclared type's register asked for %v; want it alone with its companion", undeclaredFirst, alone)
		}
	}
}

// TestStateReaderAfterWriteDoesNotJoinOlderRegister: a reader that comes
// after a write to its fetch type does not wait for a register that began
// before the write (its answer would not hold the change: a bot just created
// would be missing); it sends its own.
func TestStateReaderAfterWriteDoesNotJoinOlderRegister(t *testing.T) {
	c := NewCollectionCache()
	declared := []string{zulip.EventTypeRealm, zulip.EventTypeRealmBot}
	older := firstRegister(t, c, declared)
	if f, own := c.prefetch(zulip.EventTypeRealmBot, nil, declared); own || f != older {
		t.Fatal("a reader before any write did not join the register in flight")
	}
	c.BeginWrite(StateKey(zulip.EventTypeRealmBot)).End()
	f, own := c.prefetch(zulip.EventTypeRealmBot, nil, declared)
	if !own || f == older {
		t.Fatal("a reader after a write joined the register that began before it")
	}
	// The realm's own key was not written: its readers still join.
	if f, own := c.prefetch(zulip.EventTypeRealm, nil, declared); own || f != older {
		t.Error("a reader of an unwritten fetch type did not join the register in flight")
	}
	older.resp = &zulip.RegisterResponse{}
	c.landed(older)
	c.mu.Lock()
	_, cached := c.entries[StateKey(zulip.EventTypeRealmBot)]
	newer := c.stateFlights[zulip.EventTypeRealmBot]
	c.mu.Unlock()
	if cached {
		t.Error("the older register's answer was cached for the written fetch type")
	}
	if newer != f {
		t.Error("the older register's landing dropped the newer register of the written fetch type")
	}
}

// firstRegister starts the first register of a run for declared[0] and
// checks that it is a new one holding every declared fetch type.
func firstRegister(t *testing.T, c *collectionCache, declared []string) *stateFetch {
	t.Helper()
	f, own := c.prefetch(declared[0], nil, declared)
	if !own {
		t.Fatal("the first register of a run was not a new one")
	}
	for _, ft := range declared[1:] {
		if !slices.Contains(f.types, ft) {
			t.Fatalf("the first register asks for %v; want every declared type, %s too", f.types, ft)
		}
	}
	return f
}
