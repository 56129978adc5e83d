package sms

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// postForm builds a form-encoded webhook request like 46elks sends.
func postForm(v url.Values) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(v.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return r
}

func TestParseReply_TableVariant(t *testing.T) {
	r := postForm(url.Values{
		"id":        {"sf8425555e5d8db61dda7a7b3f1b91bdb"},
		"from":      {"+46706861004"},
		"to":        {"+46766861001"},
		"message":   {"Yes"},
		"direction": {"incoming"},
		"created":   {"2024-06-01T13:57:23.741000"},
		"token":     {"abc123"},
	})
	rep, err := ParseReply(r)
	if err != nil {
		t.Fatalf("ParseReply: %v", err)
	}
	want := Reply{
		ID:        "sf8425555e5d8db61dda7a7b3f1b91bdb",
		From:      "+46706861004",
		To:        "+46766861001",
		Message:   "Yes",
		Direction: "incoming",
		Created:   time.Date(2024, 6, 1, 13, 57, 23, 741000000, time.UTC),
		Token:     "abc123",
	}
	if rep != want {
		t.Errorf("got  %+v\nwant %+v", rep, want)
	}
}

func TestParseReply_ExampleVariant(t *testing.T) {
	// The docs' example payload: sms_id instead of id, no to or direction.
	body := "sms_id=sf84&from=%2B46706861004&created=2024-06-01T13%3A57%3A23.741000&message=No%2C+sorry"
	r := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rep, err := ParseReply(r)
	if err != nil {
		t.Fatalf("ParseReply: %v", err)
	}
	if rep.ID != "sf84" || rep.From != "+46706861004" || rep.Message != "No, sorry" || rep.To != "" || rep.Token != "" {
		t.Errorf("got %+v", rep)
	}
}

func TestParseReply_IDWinsOverSMSID(t *testing.T) {
	rep, err := ParseReply(postForm(url.Values{"id": {"s1"}, "sms_id": {"s1"}, "from": {"+46700000000"}}))
	if err != nil || rep.ID != "s1" {
		t.Errorf("got %+v, %v", rep, err)
	}
}

func TestParseReply_Errors(t *testing.T) {
	tests := map[string]*http.Request{
		"no id":       postForm(url.Values{"from": {"+46700000000"}}),
		"no from":     postForm(url.Values{"id": {"s1"}}),
		"bad created": postForm(url.Values{"id": {"s1"}, "from": {"+46700000000"}, "created": {"June 1st"}}),
		"GET":         httptest.NewRequest(http.MethodGet, "/hook?id=s1&from=%2B46700000000", nil),
		"query only": func() *http.Request {
			r := httptest.NewRequest(http.MethodPost, "/hook?id=s1&from=%2B46700000000", nil)
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return r
		}(),
	}
	for name, r := range tests {
		if _, err := ParseReply(r); err == nil {
			t.Errorf("%s: ParseReply succeeded, want error", name)
		}
	}
}

func TestWebhookAnswer_JSON(t *testing.T) {
	tests := []struct {
		in   WebhookAnswer
		want string
	}{
		{WebhookAnswer{Reply: "Thank you for your reply", Retain: true}, `{"reply":"Thank you for your reply","retain":true}`},
		{WebhookAnswer{Reply: "Thanks"}, `{"reply":"Thanks"}`},
		{WebhookAnswer{}, `{}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.in)
		if err != nil || string(got) != tt.want {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	var a WebhookAnswer
	if err := json.Unmarshal([]byte(`{"reply":"r","retain":true,"extra":1}`), &a); err != nil || a != (WebhookAnswer{Reply: "r", Retain: true}) {
		t.Errorf("Unmarshal = %+v, %v", a, err)
	}
}

func TestWriteWebhookAnswer(t *testing.T) {
	rec := httptest.NewRecorder()
	if err := WriteWebhookAnswer(rec, WebhookAnswer{Reply: "ok", Retain: true}); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" || rec.Body.String() != `{"reply":"ok","retain":true}` {
		t.Errorf("got %d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}
}
