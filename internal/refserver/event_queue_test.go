package refserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Tests of the event queues (zerver/tornado/event_queue.py, views.py).

// eventsRegister registers a queue for the user and returns its id.
func eventsRegister(t *testing.T, e *coreEnv, userID int, form url.Values) string {
	t.Helper()
	a := e.coreRequest(userID, http.MethodPost, "/register", form)
	coreWantOK(t, a)
	return a.body["queue_id"].(string)
}

// eventsPoll sends GET /events from any goroutine: it reports instead of failing.
func eventsPoll(ctx context.Context, e *coreEnv, userID int, form url.Values) (int, map[string]any, error) {
	u, _ := e.srv.User(userID)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.ts.URL+"/api/v1/events?"+form.Encode(), nil)
	if err != nil {
		return 0, nil, err
	}
	req.SetBasicAuth(u.Email, u.APIKey)
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		return 0, nil, err
	}
	raw, _ := io.ReadAll(resp.Body)
	if err := resp.Body.Close(); err != nil {
		return resp.StatusCode, nil, err
	}
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		return resp.StatusCode, nil, fmt.Errorf("bad JSON %q", raw)
	}
	return resp.StatusCode, body, nil
}

// eventsWaitConnected waits until a request is connected to the queue.
func eventsWaitConnected(t *testing.T, e *coreEnv, queueID string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		e.srv.mu.Lock()
		_, connected := e.srv.waiters[queueID]
		e.srv.mu.Unlock()
		if connected {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no request connected to queue %s", queueID)
}

// eventTypes lists the events' types, with their ids.
func eventTypes(body map[string]any) string {
	var out []string
	events, _ := body["events"].([]any)
	for _, ev := range events {
		m := ev.(map[string]any)
		out = append(out, fmt.Sprintf("%v:%v", m["id"], m["type"]))
	}
	return strings.Join(out, " ")
}

// TestEventsLongPoll: a poll with nothing to return waits without the server
// lock (other clients are served meanwhile), and returns as soon as a change
// sends an event to the queue.
func TestEventsLongPoll(t *testing.T) {
	e := coreStart(t, Options{EventHeartbeat: 20 * time.Second})
	q := eventsRegister(t, e, SeedMemberID, url.Values{"event_types": {`["realm_linkifiers"]`}})
	type result struct {
		status int
		body   map[string]any
		err    error
		at     time.Time
	}
	done := make(chan result, 1)
	go func() {
		status, body, err := eventsPoll(context.Background(), e, SeedMemberID, url.Values{"queue_id": {q}, "last_event_id": {"-1"}})
		done <- result{status, body, err, time.Now()}
	}()
	eventsWaitConnected(t, e, q)
	// Other requests are served while the poll waits.
	coreWantOK(t, e.coreRequest(SeedOwnerID, http.MethodGet, "/users/me", nil))
	select {
	case r := <-done:
		t.Fatalf("the poll returned before any event: %d %v %v", r.status, r.body, r.err)
	default:
	}
	created := time.Now()
	coreWantOK(t, e.coreRequest(SeedAdminID, http.MethodPost, "/realm/filters",
		url.Values{"pattern": {`LP-(?P<id>[0-9]+)`}, "url_template": {"https://lp.example.com/{id}"}}))
	r := <-done
	if r.err != nil || r.status != 200 {
		t.Fatalf("poll: %d %v %v", r.status, r.body, r.err)
	}
	if r.at.Before(created) {
		t.Errorf("the poll returned at %v, before the change at %v", r.at, created)
	}
	if got := eventTypes(r.body); got != "0:realm_linkifiers" {
		t.Fatalf("events %s", got)
	}
	ev := r.body["events"].([]any)[0].(map[string]any)
	if l := ev["realm_linkifiers"].([]any); len(l) == 0 {
		t.Errorf("realm_linkifiers event without the list: %v", ev)
	}
}

// TestEventsHeartbeat: after the heartbeat interval a waiting poll gets a
// heartbeat event; acknowledging it leaves an empty queue.
func TestEventsHeartbeat(t *testing.T) {
	e := coreStart(t, Options{EventHeartbeat: 30 * time.Millisecond})
	q := eventsRegister(t, e, SeedMemberID, nil)
	status, body, err := eventsPoll(context.Background(), e, SeedMemberID, url.Values{"queue_id": {q}, "last_event_id": {"-1"}})
	if err != nil || status != 200 || eventTypes(body) != "0:heartbeat" {
		t.Fatalf("poll: %d %v %v", status, body, err)
	}
	a := e.coreRequest(SeedMemberID, http.MethodGet, "/events", url.Values{"queue_id": {q}, "last_event_id": {"0"}, "dont_block": {"true"}})
	coreWantOK(t, a)
	if got := eventTypes(a.body); got != "" {
		t.Errorf("after acknowledging: %s", got)
	}
}

// TestEventsClientGone: a client that goes away while waiting gets nothing;
// the queue stays, no longer connected, and ages again.
func TestEventsClientGone(t *testing.T) {
	e := coreStart(t, Options{EventHeartbeat: time.Minute})
	q := eventsRegister(t, e, SeedMemberID, nil)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, _, err := eventsPoll(ctx, e, SeedMemberID, url.Values{"queue_id": {q}, "last_event_id": {"-1"}})
		errc <- err
	}()
	eventsWaitConnected(t, e, q)
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("the cancelled poll got an answer")
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		e.srv.mu.Lock()
		_, connected := e.srv.waiters[q]
		e.srv.mu.Unlock()
		if !connected {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the queue stays connected after its client went away")
		}
		time.Sleep(5 * time.Millisecond)
	}
	coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodGet, "/events", url.Values{"queue_id": {q}, "last_event_id": {"-1"}, "dont_block": {"true"}}))
}

// TestEventsQueueDeletedWhileWaiting: deleting the queue ends the wait with
// BAD_EVENT_QUEUE_ID.
func TestEventsQueueDeletedWhileWaiting(t *testing.T) {
	e := coreStart(t, Options{EventHeartbeat: time.Minute})
	q := eventsRegister(t, e, SeedMemberID, nil)
	type result struct {
		status int
		body   map[string]any
		err    error
	}
	done := make(chan result, 1)
	go func() {
		status, body, err := eventsPoll(context.Background(), e, SeedMemberID, url.Values{"queue_id": {q}, "last_event_id": {"-1"}})
		done <- result{status, body, err}
	}()
	eventsWaitConnected(t, e, q)
	coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodDelete, "/events", url.Values{"queue_id": {q}}))
	r := <-done
	if r.err != nil || r.status != 400 || r.body["code"] != "BAD_EVENT_QUEUE_ID" {
		t.Fatalf("poll: %d %v %v", r.status, r.body, r.err)
	}
}

// TestEventsAcknowledgement pins fetch_events' checks of last_event_id.
func TestEventsAcknowledgement(t *testing.T) {
	e := coreStart(t, Options{})
	q := eventsRegister(t, e, SeedOwnerID, url.Values{"event_types": {`["realm_domains"]`}})
	for _, d := range []string{"a.example.org", "b.example.org", "c.example.org"} {
		coreWantOK(t, e.coreRequest(SeedOwnerID, http.MethodPost, "/realm/domains", url.Values{"domain": {d}, "allow_subdomains": {"false"}}))
	}
	poll := func(last string) coreAnswer {
		return e.coreRequest(SeedOwnerID, http.MethodGet, "/events", url.Values{"queue_id": {q}, "last_event_id": {last}, "dont_block": {"true"}})
	}
	a := poll("-1")
	coreWantOK(t, a)
	if got := eventTypes(a.body); got != "0:realm_domains 1:realm_domains 2:realm_domains" {
		t.Fatalf("events %s", got)
	}
	a = poll("1")
	coreWantOK(t, a)
	if got := eventTypes(a.body); got != "2:realm_domains" {
		t.Fatalf("after acknowledging 1: %s", got)
	}
	coreWantError(t, poll("0"), 400, "BAD_REQUEST", "An event newer than 0 has already been pruned!")
	coreWantError(t, poll("7"), 400, "BAD_REQUEST", "Event 7 was not in this queue")
	a = e.coreRequest(SeedOwnerID, http.MethodGet, "/events", url.Values{"queue_id": {q}, "dont_block": {"true"}})
	coreWantError(t, a, 400, "BAD_REQUEST", "Missing 'last_event_id' argument")
	a = e.coreRequest(SeedOwnerID, http.MethodGet, "/events", url.Values{"last_event_id": {"-1"}})
	coreWantError(t, a, 400, "BAD_REQUEST", "Missing 'queue_id' argument")
	// A non-blocking call without a queue registers one.
	a = e.coreRequest(SeedOwnerID, http.MethodGet, "/events", url.Values{"dont_block": {"true"}})
	coreWantOK(t, a)
	if id, _ := a.body["queue_id"].(string); id == "" || id == q || fmt.Sprint(a.body["events"]) != "[]" {
		t.Errorf("registering through GET /events: %v", a.body)
	}
}

// TestEventsPerArea: each modelled change sends its event, with Zulip's shape,
// to the queues that take its type and whose user may know of it.
func TestEventsPerArea(t *testing.T) {
	e := coreStart(t, Options{})
	owner := eventsRegister(t, e, SeedOwnerID, nil)
	member := eventsRegister(t, e, SeedMemberID, nil)
	onlyUsers := eventsRegister(t, e, SeedMember3ID, url.Values{"event_types": {`["realm_user"]`}})
	d := &eventDrainer{e: e, acked: map[string]float64{}}
	cases := []struct {
		name    string
		do      func()
		owner   string // the owner's events
		member  string // the member's events
		onlyUsr string // the realm_user-only queue's events
	}{
		{"saved snippet", func() {
			coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodPost, "/saved_snippets", url.Values{"title": {"Hi"}, "content": {"Hello"}}))
		}, "", `{"op":"add","saved_snippet":{"content":"Hello","date_created":` + "DATE" + `,"id":` + "ID" + `,"title":"Hi"},"type":"saved_snippets"}`, ""},
		{"full name", func() {
			coreWantOK(t, e.coreRequest(SeedOwnerID, http.MethodPatch, fmt.Sprintf("/users/%d", SeedMember3ID), url.Values{"full_name": {"Mia Member"}}))
		}, `{"op":"update","person":{"full_name":"Mia Member","user_id":11},"type":"realm_user"}`,
			`{"op":"update","person":{"full_name":"Mia Member","user_id":11},"type":"realm_user"}`,
			`{"op":"update","person":{"full_name":"Mia Member","user_id":11},"type":"realm_user"}`},
		{"own profile value", func() {
			coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodPatch, "/users/me/profile_data", url.Values{"data": {`[{"id":1,"value":"+1 555"}]`}}))
		}, `{"op":"update","person":{"custom_profile_field":{"id":1,"rendered_value":"<p>+1 555</p>","value":"+1 555"},"user_id":5},"type":"realm_user"}`,
			`{"op":"update","person":{"custom_profile_field":{"id":1,"rendered_value":"<p>+1 555</p>","value":"+1 555"},"user_id":5},"type":"realm_user"}`,
			`{"op":"update","person":{"custom_profile_field":{"id":1,"rendered_value":"<p>+1 555</p>","value":"+1 555"},"user_id":5},"type":"realm_user"}`},
		{"profile value removed", func() {
			coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodDelete, "/users/me/profile_data", url.Values{"data": {`[1]`}}))
		}, `{"op":"update","person":{"custom_profile_field":{"id":1,"value":null},"user_id":5},"type":"realm_user"}`,
			`{"op":"update","person":{"custom_profile_field":{"id":1,"value":null},"user_id":5},"type":"realm_user"}`,
			`{"op":"update","person":{"custom_profile_field":{"id":1,"value":null},"user_id":5},"type":"realm_user"}`},
		{"domain", func() {
			coreWantOK(t, e.coreRequest(SeedOwnerID, http.MethodPost, "/realm/domains", url.Values{"domain": {"Example.ORG"}, "allow_subdomains": {"true"}}))
		}, `{"op":"add","realm_domain":{"allow_subdomains":true,"domain":"example.org"},"type":"realm_domains"}`,
			`{"op":"add","realm_domain":{"allow_subdomains":true,"domain":"example.org"},"type":"realm_domains"}`, ""},
		{"flag", func() {
			coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodPost, "/messages/flags", url.Values{"messages": {"[2,2,1]"}, "op": {"add"}, "flag": {"starred"}}))
		}, "", `{"all":false,"flag":"starred","messages":[2],"op":"add","operation":"add","type":"update_message_flags"}`, ""},
		{"deactivation", func() {
			coreWantOK(t, e.coreRequest(SeedOwnerID, http.MethodDelete, fmt.Sprintf("/users/%d", SeedGuestID), url.Values{}))
		}, `{"op":"update","person":{"is_active":false,"user_id":7},"type":"realm_user"}`,
			`{"op":"update","person":{"is_active":false,"user_id":7},"type":"realm_user"}`,
			`{"op":"update","person":{"is_active":false,"user_id":7},"type":"realm_user"}`},
		{"status", func() {
			coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodPost, "/users/me/status", url.Values{"status_text": {" Lunch "}}))
		}, `{"status_text":"Lunch","type":"user_status","user_id":5}`, `{"status_text":"Lunch","type":"user_status","user_id":5}`, ""},
		{"a refused change sends nothing", func() {
			a := e.coreRequest(SeedMemberID, http.MethodPost, "/realm/filters", url.Values{"pattern": {"x"}, "url_template": {"https://x"}})
			coreWantError(t, a, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
		}, "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.do()
			for _, who := range []struct {
				user  int
				queue string
				want  string
			}{{SeedOwnerID, owner, tc.owner}, {SeedMemberID, member, tc.member}, {SeedMember3ID, onlyUsers, tc.onlyUsr}} {
				got := eventShapes(d.drain(t, who.user, who.queue))
				want := withSnippetValues(who.want, got)
				if got != want {
					t.Errorf("user %d got\n%s\nwant\n%s", who.user, got, want)
				}
			}
		})
	}
}

// eventDrainer reads queues' events, each queue from the last event it read there.
type eventDrainer struct {
	e     *coreEnv
	acked map[string]float64
}

// drain returns the events of queue q since the last drain, without blocking.
func (d *eventDrainer) drain(t *testing.T, userID int, q string) []map[string]any {
	t.Helper()
	last, ok := d.acked[q]
	if !ok {
		last = -1
	}
	a := d.e.coreRequest(userID, http.MethodGet, "/events", url.Values{"queue_id": {q}, "last_event_id": {fmt.Sprint(last)}, "dont_block": {"true"}})
	coreWantOK(t, a)
	var out []map[string]any
	for _, ev := range a.body["events"].([]any) {
		m := ev.(map[string]any)
		out = append(out, m)
		d.acked[q] = m["id"].(float64)
	}
	return out
}

// eventShapes writes events as JSON without their ids, one a line.
func eventShapes(events []map[string]any) string {
	var out []string
	for _, ev := range events {
		delete(ev, "id")
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(ev)
		out = append(out, strings.TrimSuffix(b.String(), "\n"))
	}
	return strings.Join(out, "\n")
}

// withSnippetValues puts into want, where it says DATE and ID, the saved snippet's date
// and id from the event got: they come from the server.
func withSnippetValues(want, got string) string {
	if !strings.Contains(want, "DATE") {
		return want
	}
	var ev map[string]any
	_ = json.Unmarshal([]byte(got), &ev)
	sn, _ := ev["saved_snippet"].(map[string]any)
	date, _ := json.Marshal(sn["date_created"])
	id, _ := json.Marshal(sn["id"])
	return strings.NewReplacer("DATE", string(date), "ID", string(id)).Replace(want)
}

// TestEventsIdleQueueTimeout pins register's idle_queue_timeout (FL481): the
// answer's idle_queue_timeout_secs, "mobile" as 12 hours, the 7-day cap, and
// the queue outliving the default 10 minutes when asked.
func TestEventsIdleQueueTimeout(t *testing.T) {
	clock := newCoreFakeClock()
	e := coreStart(t, Options{Clock: clock.Now})
	for in, want := range map[string]float64{"": 600, "3600": 3600, `"mobile"`: 43200, "99999999": 604800} {
		form := url.Values{}
		if in != "" {
			form.Set("idle_queue_timeout", in)
		}
		a := e.coreRequest(SeedMemberID, http.MethodPost, "/register", form)
		coreWantOK(t, a)
		if a.body["idle_queue_timeout_secs"] != want {
			t.Errorf("idle_queue_timeout %s: idle_queue_timeout_secs %v, want %v", in, a.body["idle_queue_timeout_secs"], want)
		}
	}
	for _, in := range []string{"0", `"desktop"`, "1.5"} {
		coreWantError(t, e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"idle_queue_timeout": {in}}),
			400, "BAD_REQUEST", "Invalid idle_queue_timeout")
	}
	long := eventsRegister(t, e, SeedMemberID, url.Values{"idle_queue_timeout": {"3600"}})
	short := eventsRegister(t, e, SeedMemberID, nil)
	clock.Advance(30 * time.Minute)
	poll := func(q string) coreAnswer {
		return e.coreRequest(SeedMemberID, http.MethodGet, "/events", url.Values{"queue_id": {q}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	}
	coreWantOK(t, poll(long))
	coreWantError(t, poll(short), 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+short)
	old := coreStart(t, Options{FeatureLevel: 480})
	a := old.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"idle_queue_timeout": {"3600"}})
	coreWantOK(t, a)
	if _, ok := a.body["idle_queue_timeout_secs"]; ok || fmt.Sprint(a.body["ignored_parameters_unsupported"]) != "[idle_queue_timeout]" {
		t.Errorf("FL480: %v", a.body)
	}
}

// TestEventsMessage: a message the server posts (a report, to the moderation
// request channel) reaches, as a `message` event, the queues of its recipients
// only, each with the user's flags beside the message and the message rendered
// as the queue registered (zerver/tornado/event_queue.py
// process_message_event: apply_markdown, client_gravatar; the flags come from
// the user's UserMessage row).
func TestEventsMessage(t *testing.T) {
	e := coreStart(t, Options{})
	owner := eventsRegister(t, e, SeedOwnerID, url.Values{"apply_markdown": {"true"}})
	admin := eventsRegister(t, e, SeedAdminID, url.Values{"event_types": {`["message"]`}})
	reporter := eventsRegister(t, e, SeedMemberID, nil)                                               // not subscribed
	usersOnly := eventsRegister(t, e, SeedModeratorID, url.Values{"event_types": {`["realm_user"]`}}) // subscribed, other types
	coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodPost, "/messages/3/report", url.Values{"report_type": {"spam"}}))
	poll := func(userID int, q string) []any {
		t.Helper()
		a := e.coreRequest(userID, http.MethodGet, "/events", url.Values{"queue_id": {q}, "last_event_id": {"-1"}, "dont_block": {"true"}})
		coreWantOK(t, a)
		return a.body["events"].([]any)
	}
	for _, tc := range []struct {
		user        int
		queue       string
		contentType string
	}{{SeedOwnerID, owner, "text/html"}, {SeedAdminID, admin, "text/x-markdown"}} {
		events := poll(tc.user, tc.queue)
		if len(events) != 1 {
			t.Fatalf("user %d: events %v", tc.user, events)
		}
		ev := events[0].(map[string]any)
		msg, _ := ev["message"].(map[string]any)
		if ev["type"] != "message" || fmt.Sprint(ev["flags"]) != "[]" || msg == nil {
			t.Fatalf("user %d: event %v", tc.user, ev)
		}
		if _, ok := msg["flags"]; ok {
			t.Errorf("user %d: the message object carries flags: %v", tc.user, msg)
		}
		if msg["stream_id"] != float64(SeedChannelModReqs) || msg["subject"] != "Mei Member's moderation requests" || msg["content_type"] != tc.contentType {
			t.Errorf("user %d: message %v", tc.user, msg)
		}
	}
	for _, who := range []struct {
		user  int
		queue string
	}{{SeedMemberID, reporter}, {SeedModeratorID, usersOnly}} {
		if events := poll(who.user, who.queue); len(events) != 0 {
			t.Errorf("user %d is no recipient or did not ask for messages, yet got %v", who.user, events)
		}
	}
}
