package smsserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// t0 is the fake clock's start, with a non-zero microsecond part so the
// six-digit formatting is exercised.
var t0 = time.Date(2024, 5, 17, 10, 46, 33, 548909123, time.UTC)

// fakeClock is a settable clock for Options.Clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the current fake time.
func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the fake time forward.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newTest returns a server with a fake clock at t0. edit, when given,
// adjusts the options first.
func newTest(t *testing.T, edit ...func(*Options)) (*Server, *fakeClock) {
	t.Helper()
	clock := &fakeClock{now: t0}
	opts := Options{Username: "elk", Password: "pw", Clock: clock.Now, Logf: t.Logf}
	for _, e := range edit {
		e(&opts)
	}
	return New(opts), clock
}

// do sends one request straight to the handler with the test credentials.
func do(t *testing.T, s *Server, method, path string, form url.Values) *httptest.ResponseRecorder {
	t.Helper()
	var body *strings.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	} else {
		body = strings.NewReader("")
	}
	r := httptest.NewRequest(method, path, body)
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	r.SetBasicAuth("elk", "pw")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// question is a valid minimal form, edited by the caller.
func question(to string) url.Values {
	return url.Values{
		"to":        {to},
		"message":   {"Can you work on Saturday?\nAnswer with yes or no."},
		"reply_url": {"https://example.com/reply_url"},
	}
}

// create posts form and decodes the 200 answer into a generic map, so that
// tests see exactly the keys on the wire.
func create(t *testing.T, s *Server, form url.Values) map[string]any {
	t.Helper()
	w := do(t, s, http.MethodPost, "/a1/conversations", form)
	if w.Code != http.StatusOK {
		t.Fatalf("POST: %d %q", w.Code, w.Body.String())
	}
	return decode(t, w)
}

// get fetches one conversation as a generic map.
func get(t *testing.T, s *Server, id string) map[string]any {
	t.Helper()
	w := do(t, s, http.MethodGet, "/a1/conversations/"+id, nil)
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %q", id, w.Code, w.Body.String())
	}
	return decode(t, w)
}

// decode checks a JSON 200 and decodes it.
func decode(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("decoding %q: %v", w.Body.String(), err)
	}
	return m
}

// wantTextError checks a plain-text error with the given status whose body
// mentions each of the fragments.
func wantTextError(t *testing.T, w *httptest.ResponseRecorder, status int, fragments ...string) {
	t.Helper()
	if w.Code != status {
		t.Errorf("status = %d, want %d (body %q)", w.Code, status, w.Body.String())
	}
	if ct := w.Header().Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	body := w.Body.String()
	if body == "" || len(body) > 200 || strings.HasPrefix(body, "{") {
		t.Errorf("body %q is not a short plain-text sentence", body)
	}
	for _, f := range fragments {
		if !strings.Contains(body, f) {
			t.Errorf("body %q does not mention %q", body, f)
		}
	}
}

// ts renders a time the way the API must.
func ts(tm time.Time) string { return tm.UTC().Format("2006-01-02T15:04:05.000000") }

var (
	convIDPattern = regexp.MustCompile(`^o[0-9a-f]{32}$`)
	smsIDPattern  = regexp.MustCompile(`^s[0-9a-f]{32}$`)
	wireTime      = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$`)
)

func TestAuth(t *testing.T) {
	s, _ := newTest(t)
	tests := []struct {
		name       string
		user, pass string
		set        bool
	}{
		{"missing", "", "", false},
		{"wrong user", "elks", "pw", true},
		{"wrong password", "elk", "pw2", true},
		{"empty password", "elk", "", true},
	}
	for _, tt := range tests {
		for _, req := range []*http.Request{
			httptest.NewRequest(http.MethodPost, "/a1/conversations", strings.NewReader(question("+46700000000").Encode())),
			httptest.NewRequest(http.MethodGet, "/a1/conversations", nil),
			httptest.NewRequest(http.MethodGet, "/a1/conversations/o1", nil),
		} {
			t.Run(tt.name+" "+req.Method+" "+req.URL.Path, func(t *testing.T) {
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				if tt.set {
					req.SetBasicAuth(tt.user, tt.pass)
				}
				w := httptest.NewRecorder()
				s.ServeHTTP(w, req)
				wantTextError(t, w, http.StatusUnauthorized)
				if got := w.Header().Get("WWW-Authenticate"); got != `Basic realm="46elks"` {
					t.Errorf("WWW-Authenticate = %q", got)
				}
				if strings.Contains(w.Body.String(), "pw") {
					t.Errorf("body mentions the password: %q", w.Body.String())
				}
			})
		}
	}
	if n := len(s.Conversations()); n != 0 {
		t.Errorf("%d conversations created without auth", n)
	}
}

func TestDefaults(t *testing.T) {
	s := New(Options{})
	r := httptest.NewRequest(http.MethodGet, "/a1/conversations", nil)
	r.SetBasicAuth(DefaultUsername, DefaultPassword)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Errorf("default credentials refused: %d", w.Code)
	}
	if len(s.opts.Numbers) < 3 || s.opts.MaxActivePerRecipient != 3 {
		t.Errorf("defaults: %d numbers, limit %d", len(s.opts.Numbers), s.opts.MaxActivePerRecipient)
	}
	for _, n := range s.opts.Numbers {
		if !isE164(n) {
			t.Errorf("default number %q is not E.164", n)
		}
	}
	if n := len(New(Options{MaxActivePerRecipient: 5}).opts.Numbers); n != 5 {
		t.Errorf("limit 5 gets %d default numbers, want 5", n)
	}
}

func TestCreate_Success(t *testing.T) {
	s, _ := newTest(t)
	form := question("+46700000000")
	form.Set("token", "abc123")
	m := create(t, s, form)

	wantKeys := []string{"created", "expires", "from", "id", "items", "message", "reply_url", "status", "to", "token"}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if strings.Join(keys, ",") != strings.Join(wantKeys, ",") {
		t.Errorf("keys = %v, want %v", keys, wantKeys)
	}
	if id, _ := m["id"].(string); !convIDPattern.MatchString(id) {
		t.Errorf("id = %q", id)
	}
	if m["status"] != "started" || m["to"] != "+46700000000" || m["token"] != "abc123" ||
		m["message"] != "Can you work on Saturday?\nAnswer with yes or no." || m["reply_url"] != "https://example.com/reply_url" {
		t.Errorf("record = %v", m)
	}
	if m["from"] != "+46766861001" {
		t.Errorf("from = %v, want the first pool number", m["from"])
	}
	if m["created"] != "2024-05-17T10:46:33.548909" {
		t.Errorf("created = %v", m["created"])
	}
	if m["expires"] != "2024-05-18T02:46:33.548909" {
		t.Errorf("expires = %v, want created + 16h", m["expires"])
	}
	items, _ := m["items"].([]any)
	if len(items) != 1 || !smsIDPattern.MatchString(items[0].(string)) {
		t.Errorf("items = %v", m["items"])
	}

	// Without a token there is no token key at all.
	m = create(t, s, question("+46700000001"))
	if _, ok := m["token"]; ok {
		t.Errorf("token present without one given: %v", m)
	}
	// An empty token counts as none.
	form = question("+46700000002")
	form.Set("token", "")
	if m = create(t, s, form); m["token"] != nil {
		t.Errorf("empty token echoed: %v", m)
	}
}

func TestCreate_CreatedStrictlyIncreasing(t *testing.T) {
	s, _ := newTest(t)
	a := create(t, s, question("+46700000000"))
	b := create(t, s, question("+46700000001"))
	if a["created"] != "2024-05-17T10:46:33.548909" || b["created"] != "2024-05-17T10:46:33.548910" {
		t.Errorf("created = %v, %v; want the frozen clock bumped by 1µs", a["created"], b["created"])
	}
	if b["expires"] != "2024-05-18T02:46:33.548910" {
		t.Errorf("expires = %v", b["expires"])
	}
}

func TestCreate_Paths(t *testing.T) {
	s, _ := newTest(t)
	for _, p := range []string{"/a1/conversations", "/A1/Conversations", "/a1/CONVERSATIONS/", "/conversations"} {
		w := do(t, s, http.MethodPost, p, question("+46700000000"))
		if w.Code != http.StatusOK {
			t.Errorf("POST %s: %d %q", p, w.Code, w.Body.String())
		}
		_ = s.Close(decode(t, w)["id"].(string))
	}
	for _, p := range []string{"/a1/conversation", "/a1/sms", "/a1/conversations/o1/items", "/a1"} {
		wantTextError(t, do(t, s, http.MethodGet, p, nil), http.StatusNotFound)
	}
	w := do(t, s, http.MethodDelete, "/a1/conversations", nil)
	wantTextError(t, w, http.StatusMethodNotAllowed)
	if w.Header().Get("Allow") != "GET, POST" {
		t.Errorf("Allow = %q", w.Header().Get("Allow"))
	}
	wantTextError(t, do(t, s, http.MethodPost, "/a1/conversations/o1", question("+46700000000")), http.StatusMethodNotAllowed)
}

func TestCreate_Errors(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(url.Values)
		param string
	}{
		{"missing to", func(f url.Values) { f.Del("to") }, "to"},
		{"empty to", func(f url.Values) { f.Set("to", "") }, "to"},
		{"national to", func(f url.Values) { f.Set("to", "0700000000") }, "to"},
		{"to with spaces", func(f url.Values) { f.Set("to", "+46 70 000 00 00") }, "to"},
		{"to leading zero", func(f url.Values) { f.Set("to", "+046700000000") }, "to"},
		{"to too long", func(f url.Values) { f.Set("to", "+1234567890123456") }, "to"},
		{"to too short", func(f url.Values) { f.Set("to", "+1") }, "to"},
		{"to letters", func(f url.Values) { f.Set("to", "+4670000000a") }, "to"},
		{"to twice", func(f url.Values) { f.Add("to", "+46700000001") }, "to"},
		{"missing message", func(f url.Values) { f.Del("message") }, "message"},
		{"blank message", func(f url.Values) { f.Set("message", " \n") }, "message"},
		{"missing reply_url", func(f url.Values) { f.Del("reply_url") }, "reply_url"},
		{"relative reply_url", func(f url.Values) { f.Set("reply_url", "/reply") }, "reply_url"},
		{"ftp reply_url", func(f url.Values) { f.Set("reply_url", "ftp://example.com/r") }, "reply_url"},
		{"hostless reply_url", func(f url.Values) { f.Set("reply_url", "https:///r") }, "reply_url"},
		{"lifetime 0h", func(f url.Values) { f.Set("lifetime", "0h") }, "lifetime"},
		{"lifetime 73h", func(f url.Values) { f.Set("lifetime", "73h") }, "lifetime"},
		{"lifetime 5m", func(f url.Values) { f.Set("lifetime", "5m") }, "lifetime"},
		{"lifetime bare number", func(f url.Values) { f.Set("lifetime", "2") }, "lifetime"},
		{"lifetime empty", func(f url.Values) { f.Set("lifetime", "") }, "lifetime"},
		{"lifetime 1d", func(f url.Values) { f.Set("lifetime", "1d") }, "lifetime"},
		{"lifetime 1h30m", func(f url.Values) { f.Set("lifetime", "1h30m") }, "lifetime"},
		{"lifetime upper case", func(f url.Values) { f.Set("lifetime", "2H") }, "lifetime"},
		{"lifetime negative", func(f url.Values) { f.Set("lifetime", "-1h") }, "lifetime"},
		{"lifetime huge", func(f url.Values) { f.Set("lifetime", "99999999999999999999h") }, "lifetime"},
		{"delay yes", func(f url.Values) { f.Set("delay", "yes") }, "delay"},
		{"delay empty", func(f url.Values) { f.Set("delay", "") }, "delay"},
		{"delay upper case", func(f url.Values) { f.Set("delay", "ALLOWED") }, "delay"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTest(t)
			form := question("+46700000000")
			tt.edit(form)
			wantTextError(t, do(t, s, http.MethodPost, "/a1/conversations", form), http.StatusBadRequest, tt.param)
			if n := len(s.Conversations()); n != 0 {
				t.Errorf("%d conversations created by a bad request", n)
			}
		})
	}
}

func TestCreate_QueryParametersIgnored(t *testing.T) {
	s, _ := newTest(t)
	q := question("+46700000000")
	r := httptest.NewRequest(http.MethodPost, "/a1/conversations?"+q.Encode(), nil)
	r.SetBasicAuth("elk", "pw")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	wantTextError(t, w, http.StatusBadRequest, "to")
}

func TestCreate_BodyTooLarge(t *testing.T) {
	s, _ := newTest(t)
	form := question("+46700000000")
	form.Set("message", strings.Repeat("x", maxFormBytes))
	wantTextError(t, do(t, s, http.MethodPost, "/a1/conversations", form), http.StatusRequestEntityTooLarge)
}

func TestCreate_FromIgnored(t *testing.T) {
	s, _ := newTest(t)
	form := question("+46700000000")
	form.Set("from", "+46700000999")
	if m := create(t, s, form); m["from"] != "+46766861001" {
		t.Errorf("from = %v; the server must choose it", m["from"])
	}
}

func TestCreate_LifetimeBounds(t *testing.T) {
	for _, tt := range []struct {
		lifetime string
		hours    int
	}{{"1h", 1}, {"72h", 72}, {"2h", 2}, {"016h", 16}} {
		s, _ := newTest(t)
		form := question("+46700000000")
		form.Set("lifetime", tt.lifetime)
		m := create(t, s, form)
		if want := ts(t0.Add(time.Duration(tt.hours) * time.Hour)); m["expires"] != want {
			t.Errorf("lifetime %s: expires = %v, want %s", tt.lifetime, m["expires"], want)
		}
	}
}

func TestGet(t *testing.T) {
	s, _ := newTest(t)
	created := create(t, s, question("+46700000000"))
	got := get(t, s, created["id"].(string))
	cj, _ := json.Marshal(created)
	gj, _ := json.Marshal(got)
	if string(cj) != string(gj) {
		t.Errorf("GET differs from POST answer:\n%s\n%s", cj, gj)
	}
	wantTextError(t, do(t, s, http.MethodGet, "/a1/conversations/o0000", nil), http.StatusNotFound, "not found")
}

func TestTimestampsHaveSixDigits(t *testing.T) {
	s, clock := newTest(t)
	clock.mu.Lock()
	clock.now = time.Date(2024, 6, 4, 14, 4, 1, 0, time.UTC) // whole second
	clock.mu.Unlock()
	m := create(t, s, question("+46700000000"))
	if m["created"] != "2024-06-04T14:04:01.000000" {
		t.Errorf("created = %v", m["created"])
	}
	for _, k := range []string{"created", "expires"} {
		if !wireTime.MatchString(m[k].(string)) {
			t.Errorf("%s = %v", k, m[k])
		}
	}
}

func TestExpiry(t *testing.T) {
	s, clock := newTest(t)
	form := question("+46700000000")
	form.Set("lifetime", "1h")
	id := create(t, s, form)["id"].(string)

	clock.Advance(time.Hour - time.Microsecond)
	if st := get(t, s, id)["status"]; st != "started" {
		t.Errorf("1µs before expiry: status %v", st)
	}
	clock.Advance(time.Microsecond)
	m := get(t, s, id)
	if m["status"] != "expired" {
		t.Errorf("at expiry: status %v", m["status"])
	}
	if m["expires"] != ts(t0.Add(time.Hour)) {
		t.Errorf("expires changed: %v", m["expires"])
	}
	c, _ := s.Conversation(id)
	if !c.Ended.Equal(micro(t0.Add(time.Hour))) {
		t.Errorf("Ended = %v, want the expiry instant", c.Ended)
	}
}

func TestLimit_WithoutDelay(t *testing.T) {
	s, _ := newTest(t)
	from := map[any]bool{}
	for i := 0; i < 3; i++ {
		from[create(t, s, question("+46700000000"))["from"]] = true
	}
	if len(from) != 3 {
		t.Errorf("active conversations share numbers: %v", from)
	}
	wantTextError(t, do(t, s, http.MethodPost, "/a1/conversations", question("+46700000000")), http.StatusForbidden, "Too many active conversations")
	// Other recipients are unaffected.
	create(t, s, question("+46700000001"))
	if n := len(s.Conversations()); n != 4 {
		t.Errorf("%d conversations, want 4", n)
	}
}

func TestLimit_NumbersPoolCapsLimit(t *testing.T) {
	s, _ := newTest(t, func(o *Options) {
		o.Numbers = []string{"+46766000001", "+46766000002"}
		o.MaxActivePerRecipient = 5
	})
	create(t, s, question("+46700000000"))
	create(t, s, question("+46700000000"))
	wantTextError(t, do(t, s, http.MethodPost, "/a1/conversations", question("+46700000000")), http.StatusForbidden)
}

func TestLimit_ClosedAndExpiredFreeSlots(t *testing.T) {
	s, clock := newTest(t)
	short := question("+46700000000")
	short.Set("lifetime", "1h")
	first := create(t, s, short)["id"].(string)
	second := create(t, s, question("+46700000000"))
	create(t, s, question("+46700000000"))
	wantTextError(t, do(t, s, http.MethodPost, "/a1/conversations", question("+46700000000")), http.StatusForbidden)

	if err := s.Close(second["id"].(string)); err != nil {
		t.Fatal(err)
	}
	fourth := create(t, s, question("+46700000000"))
	if fourth["from"] != second["from"] {
		t.Errorf("freed number %v not reused, got %v", second["from"], fourth["from"])
	}
	wantTextError(t, do(t, s, http.MethodPost, "/a1/conversations", question("+46700000000")), http.StatusForbidden)

	clock.Advance(time.Hour)
	create(t, s, question("+46700000000"))
	if st := get(t, s, first)["status"]; st != "expired" {
		t.Errorf("first = %v", st)
	}
}

func TestLimit_DelayWaitsUntilReplyCloses(t *testing.T) {
	hook := newReceiver(t, "") // empty answer: the conversation closes
	s, clock := newTest(t)
	var ids []string
	for i := 0; i < 3; i++ {
		f := question("+46700000000")
		f.Set("reply_url", hook.URL())
		ids = append(ids, create(t, s, f)["id"].(string))
	}
	delayed := question("+46700000000")
	delayed.Set("delay", "allowed")
	delayed.Set("lifetime", "2h")
	w := create(t, s, delayed)
	if w["status"] != "waiting" {
		t.Fatalf("4th with delay: status %v", w["status"])
	}
	if _, ok := w["from"]; ok {
		t.Errorf("waiting question has a from: %v", w)
	}
	if _, ok := w["expires"]; ok {
		t.Errorf("waiting question has an expiry: %v", w)
	}
	if items, _ := w["items"].([]any); items == nil || len(items) != 0 {
		t.Errorf("waiting items = %#v, want []", w["items"])
	}
	id := w["id"].(string)
	if _, err := s.SimulateReply(t.Context(), id, "hi"); err == nil {
		t.Errorf("reply to a waiting question accepted")
	}

	clock.Advance(10 * time.Minute)
	if st := get(t, s, id)["status"]; st != "waiting" {
		t.Errorf("still full: status %v", st)
	}
	res, err := s.SimulateReply(t.Context(), ids[1], "Yes")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "closed" {
		t.Errorf("replied conversation status %v", res.Status)
	}
	m := get(t, s, id)
	if m["status"] != "started" {
		t.Fatalf("after a close: status %v", m["status"])
	}
	if m["created"] != w["created"] {
		t.Errorf("created changed from %v to %v", w["created"], m["created"])
	}
	if want := ts(t0.Add(10*time.Minute + 2*time.Hour)); m["expires"] != want {
		t.Errorf("expires = %v, want start + lifetime %s", m["expires"], want)
	}
	if m["from"] != get(t, s, ids[1])["from"] {
		t.Errorf("from = %v, want the freed number", m["from"])
	}
	if items, _ := m["items"].([]any); len(items) != 1 {
		t.Errorf("items = %v", m["items"])
	}
}

func TestLimit_DelayWaitsUntilExpiry(t *testing.T) {
	s, clock := newTest(t)
	short := question("+46700000000")
	short.Set("lifetime", "1h")
	first := create(t, s, short)["id"].(string)
	create(t, s, question("+46700000000"))
	create(t, s, question("+46700000000"))

	clock.Advance(10 * time.Minute)
	d1 := question("+46700000000")
	d1.Set("delay", "allowed")
	d1.Set("lifetime", "1h")
	waiting1 := create(t, s, d1)["id"].(string)
	d2 := question("+46700000000")
	d2.Set("delay", "allowed")
	waiting2 := create(t, s, d2)["id"].(string)

	// Long after: first expired at t0+1h, waiting1 started then and expired
	// at t0+2h, and waiting2 started at t0+2h. Evaluated lazily, in order.
	clock.Advance(5 * time.Hour)
	if st := get(t, s, first)["status"]; st != "expired" {
		t.Errorf("first = %v", st)
	}
	m1 := get(t, s, waiting1)
	if m1["status"] != "expired" || m1["expires"] != ts(t0.Add(2*time.Hour)) {
		t.Errorf("waiting1 = %v %v, want expired at t0+2h", m1["status"], m1["expires"])
	}
	m2 := get(t, s, waiting2)
	if m2["status"] != "started" || m2["expires"] != ts(t0.Add(2*time.Hour+16*time.Hour)) {
		t.Errorf("waiting2 = %v %v, want started at t0+2h for 16h", m2["status"], m2["expires"])
	}
	c, _ := s.Conversation(waiting2)
	if !c.Started.Equal(micro(t0.Add(2 * time.Hour))) {
		t.Errorf("waiting2 started %v", c.Started)
	}
}

func TestList(t *testing.T) {
	s, clock := newTest(t)
	var ids []string
	for i := 0; i < 5; i++ {
		ids = append(ids, create(t, s, question("+4670000000"+string(rune('0'+i))))["id"].(string))
		clock.Advance(time.Minute)
	}
	type page struct {
		Data []map[string]any `json:"data"`
		Next *string          `json:"next"`
	}
	list := func(query string) page {
		t.Helper()
		w := do(t, s, http.MethodGet, "/a1/conversations"+query, nil)
		if w.Code != 200 {
			t.Fatalf("list %s: %d %s", query, w.Code, w.Body.String())
		}
		var p page
		if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	all := list("")
	if len(all.Data) != 5 || all.Next != nil {
		t.Fatalf("all: %d items, next %v", len(all.Data), all.Next)
	}
	for i, m := range all.Data {
		if m["id"] != ids[4-i] {
			t.Errorf("item %d = %v, want newest first", i, m["id"])
		}
	}
	var seen []any
	query := "?limit=2"
	for pages := 0; ; pages++ {
		p := list(query)
		for _, m := range p.Data {
			seen = append(seen, m["id"])
		}
		if p.Next == nil {
			if pages != 2 {
				t.Errorf("%d pages, want 3", pages+1)
			}
			break
		}
		query = "?limit=2&start=" + url.QueryEscape(*p.Next)
	}
	if len(seen) != 5 {
		t.Errorf("paging saw %v", seen)
	}
	after := list("?end=" + url.QueryEscape(all.Data[2]["created"].(string)))
	if len(after.Data) != 2 || after.Data[1]["id"] != ids[3] {
		t.Errorf("end filter: %v", after.Data)
	}
	for _, bad := range []string{"?limit=0", "?limit=101", "?limit=x", "?start=yesterday", "?end=2024-13-01T00:00:00"} {
		wantTextError(t, do(t, s, http.MethodGet, "/a1/conversations"+bad, nil), http.StatusBadRequest)
	}
	empty := New(Options{Username: "elk", Password: "pw"})
	if w := do(t, empty, http.MethodGet, "/a1/conversations", nil); w.Body.String() != `{"data":[]}` {
		t.Errorf("empty list = %s", w.Body.String())
	}
}

func TestList_FrozenClockPaging(t *testing.T) {
	s, _ := newTest(t)
	for i := 0; i < 4; i++ {
		create(t, s, question("+4670000000"+string(rune('0'+i))))
	}
	w := do(t, s, http.MethodGet, "/a1/conversations?limit=2", nil)
	var p struct {
		Next string `json:"next"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &p)
	w = do(t, s, http.MethodGet, "/a1/conversations?limit=2&start="+url.QueryEscape(p.Next), nil)
	var p2 struct {
		Data []any `json:"data"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &p2)
	if len(p2.Data) != 2 {
		t.Errorf("second page has %d items; same-instant conversations were skipped", len(p2.Data))
	}
}

func TestParseWireTime(t *testing.T) {
	for in, want := range map[string]time.Time{
		"2024-05-17T10:46:33.548909": time.Date(2024, 5, 17, 10, 46, 33, 548909000, time.UTC),
		"2024-06-04T14:04:01.562":    time.Date(2024, 6, 4, 14, 4, 1, 562000000, time.UTC),
		"2024-06-04T14:04:01":        time.Date(2024, 6, 4, 14, 4, 1, 0, time.UTC),
		"2024-06-04T16:04:01+02:00":  time.Date(2024, 6, 4, 14, 4, 1, 0, time.UTC),
	} {
		got, ok := parseWireTime(in)
		if !ok || !got.Equal(want) {
			t.Errorf("parseWireTime(%q) = %v, %v", in, got, ok)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	s, clock := newTest(t)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				f := question("+4670000000" + string(rune('0'+g)))
				f.Set("delay", "allowed")
				w := do(t, s, http.MethodPost, "/a1/conversations", f)
				if w.Code != 200 {
					t.Errorf("POST: %d", w.Code)
					return
				}
				var m map[string]any
				_ = json.Unmarshal(w.Body.Bytes(), &m)
				do(t, s, http.MethodGet, "/a1/conversations/"+m["id"].(string), nil)
				do(t, s, http.MethodGet, "/a1/conversations?limit=3", nil)
				_ = s.Close(m["id"].(string))
				clock.Advance(time.Minute)
				_ = s.Snapshot()
			}
		}()
	}
	wg.Wait()
	if n := len(s.Conversations()); n != 160 {
		t.Errorf("%d conversations, want 160", n)
	}
}
