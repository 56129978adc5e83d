package sms

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"testing"
	"time"
)

// questionBody is a response as the docs show it, plus a key the client
// does not know, which must be ignored.
const questionBody = `{
  "id": "o114c2f6e0e1a0b6d5c4b3a291817161",
  "status": "started",
  "from": "+46766861001",
  "to": "+46700000000",
  "message": "Can you work on Saturday?\nAnswer with yes or no.",
  "reply_url": "https://example.com/reply_url",
  "created": "2024-05-17T10:46:33.548909",
  "expires": "2024-05-18T02:46:33.548909",
  "items": ["sb0b8bbf3c0b1a2d3e4f5a6b7c8d9e0f1"],
  "token": "abc123",
  "cost": 3500
}`

func TestSendQuestion_Minimal(t *testing.T) {
	mux, c := setup(t)
	mux.HandleFunc("/a1/conversations", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testAuth(t, r)
		testForm(t, r, url.Values{
			"to":        {"+46700000000"},
			"message":   {"Can you work on Saturday?\nAnswer with yes or no."},
			"reply_url": {"https://example.com/reply_url"},
		})
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, questionBody)
	})
	q, err := c.SendQuestion(context.Background(), QuestionRequest{
		To:       "+46700000000",
		Message:  "Can you work on Saturday?\nAnswer with yes or no.",
		ReplyURL: "https://example.com/reply_url",
	})
	if err != nil {
		t.Fatalf("SendQuestion: %v", err)
	}
	want := &Question{
		ID:       "o114c2f6e0e1a0b6d5c4b3a291817161",
		Status:   StatusStarted,
		From:     "+46766861001",
		To:       "+46700000000",
		Message:  "Can you work on Saturday?\nAnswer with yes or no.",
		ReplyURL: "https://example.com/reply_url",
		Token:    "abc123",
		Created:  time.Date(2024, 5, 17, 10, 46, 33, 548909000, time.UTC),
		Expires:  time.Date(2024, 5, 18, 2, 46, 33, 548909000, time.UTC),
		Items:    []string{"sb0b8bbf3c0b1a2d3e4f5a6b7c8d9e0f1"},
	}
	if !reflect.DeepEqual(q, want) {
		t.Errorf("got  %+v\nwant %+v", q, want)
	}
	if q.Created.Location() != time.UTC {
		t.Errorf("Created location = %v, want UTC", q.Created.Location())
	}
}

func TestSendQuestion_AllOptions(t *testing.T) {
	mux, c := setup(t)
	mux.HandleFunc("/a1/conversations", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testAuth(t, r)
		testForm(t, r, url.Values{
			"to":        {"+46700000001"},
			"message":   {"Ready?"},
			"reply_url": {"http://127.0.0.1:9/hook?x=1"},
			"token":     {"tok-1"},
			"lifetime":  {"2h"},
			"delay":     {"allowed"},
		})
		_, _ = io.WriteString(w, `{"id":"o1","status":"waiting","to":"+46700000001","message":"Ready?","reply_url":"http://127.0.0.1:9/hook?x=1","created":"2024-06-04T14:04:01.562000","items":[],"token":"tok-1"}`)
	})
	q, err := c.SendQuestion(context.Background(), QuestionRequest{
		To:            "+46700000001",
		Message:       "Ready?",
		ReplyURL:      "http://127.0.0.1:9/hook?x=1",
		Token:         "tok-1",
		LifetimeHours: 2,
		DelayAllowed:  true,
	})
	if err != nil {
		t.Fatalf("SendQuestion: %v", err)
	}
	if q.Status != StatusWaiting || q.From != "" || !q.Expires.IsZero() || len(q.Items) != 0 {
		t.Errorf("waiting question decoded as %+v", q)
	}
	if want := time.Date(2024, 6, 4, 14, 4, 1, 562000000, time.UTC); !q.Created.Equal(want) {
		t.Errorf("Created = %v, want %v", q.Created, want)
	}
}

func TestSendQuestion_UnknownStatusKept(t *testing.T) {
	mux, c := setup(t)
	mux.HandleFunc("/a1/conversations", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"id":"o2","status":"paused-by-carrier","created":null,"expires":""}`)
	})
	q, err := c.SendQuestion(context.Background(), QuestionRequest{To: "+46700000000", Message: "m", ReplyURL: "https://e.example/"})
	if err != nil {
		t.Fatal(err)
	}
	if q.Status != "paused-by-carrier" || !q.Created.IsZero() || !q.Expires.IsZero() {
		t.Errorf("got %+v", q)
	}
}

func TestSendQuestion_BadResponses(t *testing.T) {
	tests := map[string]string{
		"not json":     `OK`,
		"no id":        `{"status":"started"}`,
		"bad created":  `{"id":"o3","created":"17 May 2024"}`,
		"numeric time": `{"id":"o3","created":12345}`,
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			mux, c := setup(t)
			mux.HandleFunc("/a1/conversations", func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.WriteString(w, body)
			})
			_, err := c.SendQuestion(context.Background(), QuestionRequest{To: "+46700000000", Message: "m", ReplyURL: "https://e.example/"})
			if err == nil {
				t.Fatal("want error")
			}
			var apiErr *APIError
			if errors.As(err, &apiErr) {
				t.Errorf("2xx decoding failure reported as APIError: %v", err)
			}
		})
	}
}

func TestSendQuestion_ValidationSendsNothing(t *testing.T) {
	ok := QuestionRequest{To: "+46700000000", Message: "m", ReplyURL: "https://e.example/hook"}
	tests := []struct {
		name  string
		edit  func(*QuestionRequest)
		field string
	}{
		{"no to", func(r *QuestionRequest) { r.To = "" }, "to"},
		{"national number", func(r *QuestionRequest) { r.To = "0700000000" }, "to"},
		{"empty message", func(r *QuestionRequest) { r.Message = "  \n" }, "message"},
		{"no reply url", func(r *QuestionRequest) { r.ReplyURL = "" }, "reply_url"},
		{"relative reply url", func(r *QuestionRequest) { r.ReplyURL = "/hook" }, "reply_url"},
		{"lifetime too long", func(r *QuestionRequest) { r.LifetimeHours = 73 }, "lifetime"},
		{"negative lifetime", func(r *QuestionRequest) { r.LifetimeHours = -1 }, "lifetime"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, c := setup(t) // any request fails the test
			req := ok
			tt.edit(&req)
			_, err := c.SendQuestion(context.Background(), req)
			var vErr *ValidationError
			if !errors.As(err, &vErr) {
				t.Fatalf("err = %v, want *ValidationError", err)
			}
			if vErr.Field != tt.field {
				t.Errorf("Field = %q, want %q", vErr.Field, tt.field)
			}
		})
	}
}

func TestGetQuestion(t *testing.T) {
	mux, c := setup(t)
	mux.HandleFunc("/a1/conversations/o114c2f6e0e1a0b6d5c4b3a291817161", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testAuth(t, r)
		if r.ContentLength > 0 {
			t.Errorf("GET has a body")
		}
		_, _ = io.WriteString(w, questionBody)
	})
	q, err := c.GetQuestion(context.Background(), "o114c2f6e0e1a0b6d5c4b3a291817161")
	if err != nil {
		t.Fatalf("GetQuestion: %v", err)
	}
	if q.ID != "o114c2f6e0e1a0b6d5c4b3a291817161" || q.Token != "abc123" || len(q.Items) != 1 {
		t.Errorf("got %+v", q)
	}
}

func TestGetQuestion_NotFound(t *testing.T) {
	mux, c := setup(t)
	mux.HandleFunc("/a1/conversations/o404", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Conversation not found.", http.StatusNotFound)
	})
	_, err := c.GetQuestion(context.Background(), "o404")
	if !IsNotFound(err) {
		t.Errorf("err = %v, want not found", err)
	}
}

func TestGetQuestion_BadID(t *testing.T) {
	_, c := setup(t)
	for _, id := range []string{"", "..", "o1/../x", "o1?x", "o 1"} {
		_, err := c.GetQuestion(context.Background(), id)
		var vErr *ValidationError
		if !errors.As(err, &vErr) || vErr.Field != "id" {
			t.Errorf("GetQuestion(%q) err = %v, want id ValidationError", id, err)
		}
	}
}

func TestQuestion_JSONRoundTrip(t *testing.T) {
	var q Question
	if err := json.Unmarshal([]byte(questionBody), &q); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	var back Question
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(q, back) {
		t.Errorf("round trip changed the record:\n%+v\n%+v", q, back)
	}
	var raw map[string]any
	_ = json.Unmarshal(data, &raw)
	if raw["created"] != "2024-05-17T10:46:33.548909" {
		t.Errorf("created encoded as %v", raw["created"])
	}
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2024-05-17T10:46:33.548909", time.Date(2024, 5, 17, 10, 46, 33, 548909000, time.UTC), true},
		{"2024-06-04T14:04:01.562000", time.Date(2024, 6, 4, 14, 4, 1, 562000000, time.UTC), true},
		{"2024-06-04T14:04:01", time.Date(2024, 6, 4, 14, 4, 1, 0, time.UTC), true},
		{"2024-06-04T16:04:01+02:00", time.Date(2024, 6, 4, 14, 4, 1, 0, time.UTC), true},
		{"2024-06-04T14:04:01.5Z", time.Date(2024, 6, 4, 14, 4, 1, 500000000, time.UTC), true},
		{"", time.Time{}, true},
		{"yesterday", time.Time{}, false},
		{"2024-06-04 14:04:01", time.Time{}, false},
	}
	for _, tt := range tests {
		got, err := ParseTime(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("ParseTime(%q) err = %v, want ok=%v", tt.in, err, tt.ok)
			continue
		}
		if !got.Equal(tt.want) || (!got.IsZero() && got.Location() != time.UTC) {
			t.Errorf("ParseTime(%q) = %v, want %v UTC", tt.in, got, tt.want)
		}
	}
}

func TestQuestion_MarshalOmitsZeroTimes(t *testing.T) {
	data, err := json.Marshal(Question{ID: "o1", Status: StatusWaiting, Created: time.Date(2024, 6, 4, 14, 4, 1, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	_ = json.Unmarshal(data, &raw)
	if _, ok := raw["expires"]; ok {
		t.Errorf("zero expires encoded: %s", data)
	}
	if raw["created"] != "2024-06-04T14:04:01" {
		t.Errorf("created = %v", raw["created"])
	}
}
