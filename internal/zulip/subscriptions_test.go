package zulip

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

func TestSubscribe(t *testing.T) {
	env := setup(t)
	env.handle("/users/me/subscriptions", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testAuth(t, r)
		testFormValues(t, r, addChannelPermissionForm(url.Values{
			"subscriptions":                  {`[{"name":"backend","description":"Backend <team>"},{"name":"ops"}]`},
			"principals":                     {"[10,11]"},
			"authorization_errors_fatal":     {"false"},
			"announce":                       {"false"},
			"send_new_subscription_messages": {"true"},
			"invite_only":                    {"true"},
			"is_web_public":                  {"false"},
			"history_public_to_subscribers":  {"false"},
			"is_default_stream":              {"false"},
			"message_retention_days":         {`"realm_default"`},
			"topics_policy":                  {`"inherit"`},
			"folder_id":                      {"2"},
			"default_push_notifications":     {"true"},
		}))
		success(w, `"subscribed":{"10":["backend"],"11":["backend","ops"]},"already_subscribed":{"10":["ops"]},
			"unauthorized":["secret"],"new_subscription_messages_sent":false`)
	})
	got, err := env.client.Subscribe(context.Background(), SubscribeRequest{
		Subscriptions:            []ChannelByName{{Name: "backend", Description: ptr("Backend <team>")}, {Name: "ops"}},
		Principals:               []int64{10, 11},
		AuthorizationErrorsFatal: ptr(false), Announce: ptr(false), SendNewSubscriptionMessages: ptr(true),
		InviteOnly: ptr(true), IsWebPublic: ptr(false), HistoryPublicToSubscribers: ptr(false), IsDefaultStream: ptr(false),
		MessageRetentionDays: ptr(RetentionRealmDefault), TopicsPolicy: ptr(TopicsPolicyInherit), FolderID: ptr(int64(2)),
		DefaultPushNotifications: ptr(true), Permissions: allChannelPermissions(),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := &SubscribeResult{
		Subscribed:                  map[string][]string{"10": {"backend"}, "11": {"backend", "ops"}},
		AlreadySubscribed:           map[string][]string{"10": {"ops"}},
		Unauthorized:                []string{"secret"},
		NewSubscriptionMessagesSent: ptr(false),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestSubscribe_minimal(t *testing.T) {
	env := setup(t)
	env.handle("/users/me/subscriptions", func(w http.ResponseWriter, r *http.Request) {
		testFormValues(t, r, url.Values{"subscriptions": {`[{"name":"general"}]`}})
		// A server before FL289 keys the maps by e-mail address.
		success(w, `"subscribed":{},"already_subscribed":{"iago@zulip.example":["general"]}`)
	})
	got, err := env.client.Subscribe(context.Background(), SubscribeRequest{Subscriptions: []ChannelByName{{Name: "general"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := &SubscribeResult{Subscribed: map[string][]string{}, AlreadySubscribed: map[string][]string{"iago@zulip.example": {"general"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
}

func TestUnsubscribe(t *testing.T) {
	env := setup(t)
	env.handle("/users/me/subscriptions", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		testQuery(t, r, nil)
		testFormValues(t, r, url.Values{"subscriptions": {`["backend","ops"]`}, "principals": {"[10]"}})
		success(w, `"removed":["backend"],"not_removed":["ops"]`)
	})
	got, err := env.client.Unsubscribe(context.Background(), UnsubscribeRequest{Subscriptions: []string{"backend", "ops"}, Principals: []int64{10}})
	if err != nil {
		t.Fatal(err)
	}
	if want := (&UnsubscribeResult{Removed: []string{"backend"}, NotRemoved: []string{"ops"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
}

func TestUnsubscribe_unknownChannel(t *testing.T) {
	env := setup(t)
	env.handle("/users/me/subscriptions", func(w http.ResponseWriter, r *http.Request) {
		testFormValues(t, r, url.Values{"subscriptions": {`["nope"]`}})
		writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"Channel 'nope' does not exist","code":"STREAM_DOES_NOT_EXIST","stream":"nope"}`)
	})
	_, err := env.client.Unsubscribe(context.Background(), UnsubscribeRequest{Subscriptions: []string{"nope"}})
	if !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}

func TestGetChannelSubscribers(t *testing.T) {
	env := setup(t)
	env.handle("/streams/7/members", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testQuery(t, r, nil)
		success(w, `"subscribers":[11,26]`)
	})
	got, err := env.client.GetChannelSubscribers(context.Background(), 7)
	if err != nil || !reflect.DeepEqual(got, []int64{11, 26}) {
		t.Fatalf("GetChannelSubscribers = %v, %v", got, err)
	}
}

func TestGetChannelSubscribers_notFound(t *testing.T) {
	env := setup(t)
	env.handle("/streams/99/members", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"Invalid channel ID","code":"BAD_REQUEST"}`)
	})
	if _, err := env.client.GetChannelSubscribers(context.Background(), 99); !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}

func TestListAllSubscribers(t *testing.T) {
	env := setup(t)
	env.handle("/register", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		if err := r.ParseForm(); err != nil {
			t.Fatal(err)
		}
		for k, want := range map[string]string{"fetch_event_types": `["subscription"]`, "include_subscribers": "true",
			"client_capabilities": `{"archived_channels":true}`, "event_types": "[]"} {
			if got := r.PostForm.Get(k); got != want {
				t.Errorf("%s = %q, want %q", k, got, want)
			}
		}
		success(w, `"queue_id":"q","subscriptions":[{"stream_id":1,"name":"a","subscribers":[5,6]}],`+
			`"never_subscribed":[{"stream_id":2,"name":"b","is_archived":true,"subscribers":[]}],"unsubscribed":[]`)
	})
	env.handle("/events", func(w http.ResponseWriter, r *http.Request) { success(w, "") })
	got, err := env.client.ListAllSubscribers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := map[int64][]int64{1: {5, 6}, 2: {}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
