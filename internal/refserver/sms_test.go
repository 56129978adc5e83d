package refserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// smsCreate asks a question through the mounted SMS API and returns its id.
func smsCreate(t *testing.T, e *coreEnv, form url.Values) string {
	t.Helper()
	status, body := smsPost(t, e, e.srv.opts.SMSUsername, e.srv.opts.SMSPassword, form)
	if status != 200 {
		t.Fatalf("POST /a1/conversations: %d %s", status, body)
	}
	var c struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal([]byte(body), &c); err != nil || c.ID == "" {
		t.Fatalf("answer %s: %v", body, err)
	}
	return c.ID
}

// smsPost posts a form to /a1/conversations with Basic auth.
func smsPost(t *testing.T, e *coreEnv, user, pass string, form url.Values) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/a1/conversations", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(user, pass)
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := resp.Body.Close(); err != nil {
			t.Errorf("closing the body: %v", err)
		}
	}()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestSMSMount(t *testing.T) {
	e := coreStart(t, Options{SMSUsername: "elk", SMSPassword: "antlers"})
	form := url.Values{"to": {"+46700000001"}, "message": {"Can you work on Saturday?"}, "reply_url": {"https://example.com/reply"}}
	if status, _ := smsPost(t, e, "sms-user", "sms-password", form); status != http.StatusUnauthorized {
		t.Errorf("default credentials accepted when others are configured: %d", status)
	}
	if status, body := smsPost(t, e, "elk", "antlers", form); status != 200 || !strings.Contains(body, `"status":"started"`) {
		t.Fatalf("%d %s", status, body)
	}
	// Zulip credentials are not SMS credentials, and the Zulip API's fault
	// injection and JSON 404 do not apply under /a1/.
	owner, _ := e.srv.User(SeedOwnerID)
	if status, _ := smsPost(t, e, owner.Email, owner.APIKey, form); status != http.StatusUnauthorized {
		t.Errorf("Zulip credentials accepted by the SMS API: %d", status)
	}
	if n := len(e.srv.SMS().Conversations()); n != 1 {
		t.Errorf("%d conversations", n)
	}
}

func TestSMSUsesServerClockAndPersists(t *testing.T) {
	clock := newCoreFakeClock()
	state := filepath.Join(t.TempDir(), "state.json")
	e := coreStart(t, Options{Clock: clock.Now, StateFile: state})
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"reply":"Thanks!"}`)
	}))
	defer hook.Close()
	id := smsCreate(t, e, url.Values{"to": {"+46700000002"}, "message": {"Coffee?"}, "reply_url": {hook.URL}, "lifetime": {"2h"}})
	c, _ := e.srv.SMS().Conversation(id)
	if !c.Created.Equal(clock.Now()) {
		t.Errorf("created %v, server clock %v", c.Created, clock.Now())
	}
	res, err := e.srv.SMS().SimulateReply(context.Background(), id, "yes")
	if err != nil || res.Status != "closed" {
		t.Fatalf("SimulateReply: %+v %v", res, err)
	}
	// The reply (a change made outside any HTTP request) reached the state file.
	e2 := coreStart(t, Options{Clock: clock.Now, StateFile: state})
	c2, ok := e2.srv.SMS().Conversation(id)
	if !ok || c2.Status != "closed" || len(c2.Items) != 3 {
		t.Fatalf("after restart: %+v", c2)
	}
	// Expiry follows the injected clock.
	id2 := smsCreate(t, e2, url.Values{"to": {"+46700000003"}, "message": {"Lunch?"}, "reply_url": {hook.URL}, "lifetime": {"1h"}})
	clock.Advance(2 * time.Hour)
	req, _ := http.NewRequest(http.MethodGet, e2.ts.URL+"/a1/conversations/"+id2, nil)
	req.SetBasicAuth("sms-user", "sms-password")
	resp, err := e2.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if err := resp.Body.Close(); err != nil {
		t.Errorf("closing the body: %v", err)
	}
	if !strings.Contains(string(body), `"status":"expired"`) {
		t.Errorf("not expired on the server clock: %s", body)
	}
}
