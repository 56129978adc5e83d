package smsserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// receiver is an httptest reply webhook that records what it receives and
// answers with a configurable status and body.
type receiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	forms  []url.Values
	status int
	answer string
	// during, when set, runs inside the handler (to call back into the
	// server while SimulateReply is in flight).
	during func()
}

// newReceiver starts a receiver answering 200 with body answer.
func newReceiver(t *testing.T, answer string) *receiver {
	t.Helper()
	rc := &receiver{status: http.StatusOK, answer: answer}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			t.Errorf("webhook got %s with %q", r.Method, r.Header.Get("Content-Type"))
		}
		if err := r.ParseForm(); err != nil {
			t.Errorf("webhook form: %v", err)
		}
		rc.mu.Lock()
		rc.forms = append(rc.forms, r.PostForm)
		status, answer, during := rc.status, rc.answer, rc.during
		rc.mu.Unlock()
		if during != nil {
			during()
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, answer)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

// URL is the webhook's address with a path and query, which must be kept.
func (rc *receiver) URL() string { return rc.srv.URL + "/reply?x=1" }

// set changes the answer.
func (rc *receiver) set(status int, answer string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.status, rc.answer = status, answer
}

// last returns the most recent form received.
func (rc *receiver) last(t *testing.T) url.Values {
	t.Helper()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.forms) == 0 {
		t.Fatal("webhook not called")
	}
	return rc.forms[len(rc.forms)-1]
}

// startConversation creates a question whose reply_url is rc.
func startConversation(t *testing.T, s *Server, rc *receiver, token string) map[string]any {
	t.Helper()
	f := question("+46700000000")
	f.Set("reply_url", rc.URL())
	if token != "" {
		f.Set("token", token)
	}
	return create(t, s, f)
}

func TestSimulateReply_FormAndClose(t *testing.T) {
	rc := newReceiver(t, "")
	s, clock := newTest(t)
	conv := startConversation(t, s, rc, "abc123")
	id := conv["id"].(string)
	clock.Advance(3 * time.Minute)

	res, err := s.SimulateReply(t.Context(), id, "Yes, I can.")
	if err != nil {
		t.Fatalf("SimulateReply: %v", err)
	}
	form := rc.last(t)
	want := url.Values{
		"id":        {res.SMSID},
		"sms_id":    {res.SMSID},
		"from":      {"+46700000000"},
		"to":        {conv["from"].(string)},
		"message":   {"Yes, I can."},
		"direction": {"incoming"},
		"created":   {ts(t0.Add(3 * time.Minute))},
		"token":     {"abc123"},
	}
	if !reflect.DeepEqual(form, want) {
		t.Errorf("webhook form:\n got %v\nwant %v", form, want)
	}
	if !smsIDPattern.MatchString(res.SMSID) {
		t.Errorf("SMSID = %q", res.SMSID)
	}
	if res.HTTPStatus != 200 || res.Status != "closed" || res.Reply != "" || res.Retain || res.ReplySMSID != "" {
		t.Errorf("result = %+v", res)
	}
	m := get(t, s, id)
	items := m["items"].([]any)
	if m["status"] != "closed" || len(items) != 2 || items[1] != res.SMSID {
		t.Errorf("after reply: %v", m)
	}
	c, _ := s.Conversation(id)
	if last := c.Messages[len(c.Messages)-1]; last.Direction != DirectionIncoming || last.Text != "Yes, I can." {
		t.Errorf("messages = %+v", c.Messages)
	}
	if _, err := s.SimulateReply(t.Context(), id, "again"); !errors.Is(err, ErrNotActive) {
		t.Errorf("reply to a closed conversation: %v", err)
	}
}

func TestSimulateReply_NoTokenNoTokenField(t *testing.T) {
	rc := newReceiver(t, "")
	s, _ := newTest(t)
	id := startConversation(t, s, rc, "")["id"].(string)
	if _, err := s.SimulateReply(t.Context(), id, "No"); err != nil {
		t.Fatal(err)
	}
	if _, ok := rc.last(t)["token"]; ok {
		t.Errorf("token sent although none was given: %v", rc.last(t))
	}
}

func TestSimulateReply_RetainAndReply(t *testing.T) {
	rc := newReceiver(t, `{"reply": "Thank you for your reply", "retain": true}`)
	s, _ := newTest(t)
	id := startConversation(t, s, rc, "")["id"].(string)

	res, err := s.SimulateReply(t.Context(), id, "Maybe")
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "started" || res.Reply != "Thank you for your reply" || !res.Retain || !smsIDPattern.MatchString(res.ReplySMSID) {
		t.Errorf("result = %+v", res)
	}
	m := get(t, s, id)
	if items := m["items"].([]any); m["status"] != "started" || len(items) != 3 || items[2] != res.ReplySMSID {
		t.Errorf("after retained reply: %v", m)
	}
	c, _ := s.Conversation(id)
	if r := c.Messages[2]; r.Direction != DirectionOutgoingReply || r.Text != "Thank you for your reply" || r.To != "+46700000000" {
		t.Errorf("reply message = %+v", r)
	}

	// Retain without a reply: no SMS back, still open.
	rc.set(200, `{"retain": true}`)
	res, err = s.SimulateReply(t.Context(), id, "Still thinking")
	if err != nil || res.Status != "started" || res.ReplySMSID != "" {
		t.Errorf("retain only: %+v, %v", res, err)
	}
	// A reply without retain sends the SMS and closes.
	rc.set(200, `{"reply": "Bye"}`)
	res, err = s.SimulateReply(t.Context(), id, "Yes")
	if err != nil || res.Status != "closed" || res.ReplySMSID == "" {
		t.Errorf("reply without retain: %+v, %v", res, err)
	}
	if items := get(t, s, id)["items"].([]any); len(items) != 6 {
		t.Errorf("items = %v, want question + 3 replies + 2 answers", items)
	}
}

func TestSimulateReply_AnswersThatClose(t *testing.T) {
	for name, tc := range map[string]struct {
		status int
		body   string
	}{
		"204 empty":       {204, ""},
		"200 whitespace":  {200, " \n"},
		"200 not json":    {200, "OK"},
		"200 empty json":  {200, "{}"},
		"retain false":    {200, `{"retain": false}`},
		"201 with answer": {201, `{"reply":"ok"}`},
	} {
		t.Run(name, func(t *testing.T) {
			rc := newReceiver(t, tc.body)
			rc.set(tc.status, tc.body)
			s, _ := newTest(t)
			id := startConversation(t, s, rc, "")["id"].(string)
			res, err := s.SimulateReply(t.Context(), id, "x")
			if err != nil || res.Status != "closed" || res.HTTPStatus != tc.status {
				t.Errorf("%+v, %v", res, err)
			}
		})
	}
}

func TestSimulateReply_WebhookFailureKeepsConversation(t *testing.T) {
	for _, status := range []int{400, 404, 500, 302} {
		rc := newReceiver(t, `{"reply":"ignored"}`)
		rc.set(status, `{"reply":"ignored"}`)
		s, _ := newTest(t)
		id := startConversation(t, s, rc, "")["id"].(string)
		before := get(t, s, id)
		res, err := s.SimulateReply(t.Context(), id, "x")
		if !errors.Is(err, ErrWebhook) {
			t.Errorf("status %d: err = %v, want ErrWebhook", status, err)
		}
		if res.HTTPStatus != status {
			t.Errorf("HTTPStatus = %d, want %d", res.HTTPStatus, status)
		}
		if after := get(t, s, id); !reflect.DeepEqual(before, after) {
			t.Errorf("status %d changed the conversation:\n%v\n%v", status, before, after)
		}
	}
	// Unreachable webhook.
	rc := newReceiver(t, "")
	s, _ := newTest(t)
	id := startConversation(t, s, rc, "")["id"].(string)
	rc.srv.Close()
	if _, err := s.SimulateReply(t.Context(), id, "x"); !errors.Is(err, ErrWebhook) {
		t.Errorf("unreachable: %v", err)
	}
	if st := get(t, s, id)["status"]; st != "started" {
		t.Errorf("unreachable webhook changed status to %v", st)
	}
}

func TestSimulateReply_Errors(t *testing.T) {
	s, clock := newTest(t)
	if _, err := s.SimulateReply(t.Context(), "o404", "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown: %v", err)
	}
	rc := newReceiver(t, "")
	f := question("+46700000000")
	f.Set("reply_url", rc.URL())
	f.Set("lifetime", "1h")
	id := create(t, s, f)["id"].(string)
	clock.Advance(time.Hour)
	if _, err := s.SimulateReply(t.Context(), id, "too late"); !errors.Is(err, ErrNotActive) {
		t.Errorf("expired: %v", err)
	}
	rc.mu.Lock()
	n := len(rc.forms)
	rc.mu.Unlock()
	if n != 0 {
		t.Errorf("webhook called for an expired conversation")
	}
}

func TestSimulateReply_WebhookMayCallBack(t *testing.T) {
	rc := newReceiver(t, `{"reply":"ok"}`)
	s, _ := newTest(t)
	id := startConversation(t, s, rc, "")["id"].(string)
	var status atomic.Value
	rc.during = func() {
		// Would deadlock if SimulateReply held the lock during the call.
		c, _ := s.Conversation(id)
		status.Store(c.Status)
	}
	if _, err := s.SimulateReply(t.Context(), id, "x"); err != nil {
		t.Fatal(err)
	}
	if status.Load() != StatusStarted {
		t.Errorf("status seen by the webhook = %v", status.Load())
	}
}

func TestSimulateReply_ContextCancelled(t *testing.T) {
	rc := newReceiver(t, "")
	s, _ := newTest(t)
	id := startConversation(t, s, rc, "")["id"].(string)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.SimulateReply(ctx, id, "x"); !errors.Is(err, ErrWebhook) {
		t.Errorf("cancelled context: %v", err)
	}
}

func TestClose(t *testing.T) {
	s, _ := newTest(t)
	a := create(t, s, question("+46700000000"))["id"].(string)
	if err := s.Close(a); err != nil {
		t.Fatal(err)
	}
	if st := get(t, s, a)["status"]; st != "closed" {
		t.Errorf("status %v", st)
	}
	if err := s.Close(a); err != nil {
		t.Errorf("closing twice: %v", err)
	}
	if err := s.Close("o404"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown: %v", err)
	}
}

func TestOnChange(t *testing.T) {
	var calls atomic.Int32
	s, clock := newTest(t, func(o *Options) { o.OnChange = func() { calls.Add(1) } })
	f := question("+46700000000")
	f.Set("lifetime", "1h")
	id := create(t, s, f)["id"].(string)
	if calls.Load() != 1 {
		t.Errorf("create: %d calls", calls.Load())
	}
	get(t, s, id)
	if calls.Load() != 1 {
		t.Errorf("a read without change notified")
	}
	clock.Advance(time.Hour)
	get(t, s, id) // notices the expiry
	if calls.Load() != 2 {
		t.Errorf("lazy expiry: %d calls", calls.Load())
	}
	wantTextError(t, do(t, s, http.MethodPost, "/a1/conversations", url.Values{}), http.StatusBadRequest)
	if calls.Load() != 2 {
		t.Errorf("a rejected request notified")
	}
}

func TestSnapshotRestore(t *testing.T) {
	rc := newReceiver(t, `{"reply":"thanks","retain":true}`)
	s, clock := newTest(t)
	a := startConversation(t, s, rc, "tok")["id"].(string)
	if _, err := s.SimulateReply(t.Context(), a, "hello"); err != nil {
		t.Fatal(err)
	}
	create(t, s, question("+46700000000"))
	create(t, s, question("+46700000000"))
	d := question("+46700000000")
	d.Set("delay", "allowed")
	waiting := create(t, s, d)["id"].(string)
	short := question("+46700000001")
	short.Set("lifetime", "1h")
	expiring := create(t, s, short)["id"].(string)

	data, err := json.Marshal(s.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	restored, _ := newTest(t, func(o *Options) { o.Clock = clock.Now })
	if err := restored.Restore(st); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{a, waiting, expiring} {
		if x, y := get(t, s, id), get(t, restored, id); !reflect.DeepEqual(x, y) {
			t.Errorf("%s differs after restore:\n%v\n%v", id, x, y)
		}
	}
	if !reflect.DeepEqual(s.Conversations(), restored.Conversations()) {
		t.Errorf("Conversations() differ after restore")
	}
	// Created keeps increasing across the restore under a frozen clock.
	last := get(t, restored, expiring)["created"].(string)
	if next := create(t, restored, question("+46700000002"))["created"].(string); next <= last {
		t.Errorf("created %s not after %s", next, last)
	}
	// Behaviour continues: the waiting one starts when a slot frees.
	if err := restored.Close(a); err != nil {
		t.Fatal(err)
	}
	if st := get(t, restored, waiting)["status"]; st != "started" {
		t.Errorf("waiting after restore+close: %v", st)
	}
	clock.Advance(time.Hour + time.Millisecond) // created was bumped by a few µs
	if st := get(t, restored, expiring)["status"]; st != "expired" {
		t.Errorf("expiry after restore: %v", st)
	}
	// The original is independent of the restored copy.
	if st := get(t, s, a)["status"]; st != "started" {
		t.Errorf("original changed: %v", st)
	}
}

func TestRestore_Rejects(t *testing.T) {
	good := Conversation{ID: "o1", Status: StatusStarted, To: "+46700000000", LifetimeHours: 16, Created: t0}
	tests := map[string][]Conversation{
		"no id":          {{Status: StatusStarted, LifetimeHours: 16}},
		"duplicate":      {good, good},
		"unknown status": {{ID: "o2", Status: "paused", LifetimeHours: 16}},
		"bad lifetime":   {{ID: "o3", Status: StatusClosed}},
	}
	for name, convs := range tests {
		s, _ := newTest(t)
		keep := create(t, s, question("+46700000000"))["id"].(string)
		if err := s.Restore(State{Conversations: convs}); err == nil {
			t.Errorf("%s: Restore accepted", name)
		}
		if _, ok := s.Conversation(keep); !ok {
			t.Errorf("%s: failed Restore changed the state", name)
		}
	}
	s, _ := newTest(t)
	if err := s.Restore(State{}); err != nil || len(s.Conversations()) != 0 {
		t.Errorf("empty restore: %v", err)
	}
}

func TestSnapshotIsACopy(t *testing.T) {
	s, _ := newTest(t)
	id := create(t, s, question("+46700000000"))["id"].(string)
	st := s.Snapshot()
	st.Conversations[0].Items[0] = "tampered"
	st.Conversations[0].Status = StatusClosed
	convs := s.Conversations()
	convs[0].Items = append(convs[0].Items, "x")
	if m := get(t, s, id); m["status"] != "started" || len(m["items"].([]any)) != 1 || m["items"].([]any)[0] == "tampered" {
		t.Errorf("server state shared with a copy: %v", m)
	}
}
