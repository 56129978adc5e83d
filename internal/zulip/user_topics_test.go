package zulip

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"sync/atomic"
	"testing"
)

func TestSetUserTopic(t *testing.T) {
	env := setup(t)
	env.handle("/user_topics", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		// stream_id and visibility_policy are JSON; the topic is a plain string, even one
		// that looks like JSON.
		testFormValues(t, r, url.Values{"stream_id": {"3"}, "topic": {`"dinner" & more`}, "visibility_policy": {"3"}})
		success(w, "")
	})
	if err := env.client.SetUserTopic(context.Background(), 3, `"dinner" & more`, VisibilityPolicyFollowed); err != nil {
		t.Fatal(err)
	}
}

func TestListUserTopics_registersAndDeletesQueue(t *testing.T) {
	env := setup(t)
	var deleted atomic.Int32
	env.handle("/register", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testFormValues(t, r, url.Values{"event_types": {"[]"}, "fetch_event_types": {`["user_topic"]`}})
		success(w, `"queue_id":"q-1","last_event_id":-1,"zulip_feature_level":420,
			"user_topics":[{"stream_id":1,"topic_name":"dinner","last_updated":1700000000,"visibility_policy":1}]`)
	})
	env.handle("/events", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		testFormValues(t, r, url.Values{"queue_id": {"q-1"}})
		deleted.Add(1)
		success(w, "")
	})
	got, err := env.client.ListUserTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []UserTopic{{StreamID: 1, TopicName: "dinner", LastUpdated: 1700000000, VisibilityPolicy: VisibilityPolicyMuted}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if deleted.Load() != 1 {
		t.Errorf("queue deleted %d times, want 1", deleted.Load())
	}
}

func TestListUserTopics_emptyAndQueueCleanupFailure(t *testing.T) {
	env := setup(t, func(c *Config) { c.MaxRetries = Off[int]() })
	env.handle("/register", func(w http.ResponseWriter, r *http.Request) {
		success(w, `"queue_id":"q-2","last_event_id":-1`)
	})
	env.handle("/events", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 500, `{"result":"error","msg":"Internal server error","code":"BAD_REQUEST"}`)
	})
	got, err := env.client.ListUserTopics(context.Background())
	if err != nil {
		t.Fatalf("a failed cleanup failed the read: %v", err)
	}
	if got == nil || len(got) != 0 {
		t.Errorf("got %#v, want an empty list", got)
	}
	logged := false
	for _, e := range env.Logs() {
		if e.msg == "zulip: could not delete the event queue registered to read state; the server will expire it" {
			logged = true
		}
	}
	if !logged {
		t.Error("the failed cleanup was not logged")
	}
}

func TestListUserTopics_retriedOnServerError(t *testing.T) {
	env := setup(t)
	var count atomic.Int32
	env.handle("/register", sequence(&count, status(503), func(w http.ResponseWriter, r *http.Request) {
		success(w, `"queue_id":"q","user_topics":[]`)
	}))
	env.handle("/events", func(w http.ResponseWriter, r *http.Request) { success(w, "") })
	if _, err := env.client.ListUserTopics(context.Background()); err != nil {
		t.Fatal(err)
	}
	if count.Load() != 2 {
		t.Errorf("%d register calls, want 2", count.Load())
	}
}

func TestListUserTopics_cleanupSurvivesCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	env := setup(t, func(c *Config) {
		// The caller gives up right after the register answer was received: the log hook
		// runs once the answer is read, before the client deletes the queue.
		c.Logf = func(_ context.Context, msg string, fields map[string]any) {
			if fields["path"] == "register" && fields["status"] == http.StatusOK {
				cancel()
			}
		}
	})
	var deleted atomic.Int32
	env.handle("/register", func(w http.ResponseWriter, r *http.Request) {
		success(w, `"queue_id":"q-3","user_topics":[]`)
	})
	env.handle("/events", func(w http.ResponseWriter, r *http.Request) {
		deleted.Add(1)
		success(w, "")
	})
	if _, err := env.client.ListUserTopics(ctx); err != nil {
		t.Fatal(err)
	}
	if ctx.Err() == nil {
		t.Fatal("the test did not cancel the context")
	}
	if deleted.Load() != 1 {
		t.Errorf("queue deleted %d times after cancellation, want 1", deleted.Load())
	}
}
