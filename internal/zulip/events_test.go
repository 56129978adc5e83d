package zulip

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"sync/atomic"
	"testing"
)

func TestRegister(t *testing.T) {
	env := setup(t)
	env.handle("/register", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testFormValues(t, r, url.Values{
			"event_types":         {`["realm_linkifiers"]`},
			"fetch_event_types":   {`["realm","realm_linkifiers","realm_domains","user_topic","custom_profile_fields","realm_user_groups","user_status","saved_snippets"]`},
			"client_capabilities": {`{"linkifier_url_template":true}`},
			"narrow":              {`[["channel","design"]]`},
			"apply_markdown":      {"false"},
			"client_gravatar":     {"true"},
			"include_subscribers": {"false"},
			"slim_presence":       {"true"},
			"all_public_streams":  {"false"},
		})
		success(w, `"queue_id":"fb67bf8a","last_event_id":-1,"zulip_feature_level":497,"zulip_version":"12.0-dev","zulip_merge_base":"12.0-dev-1",
			"max_topic_length":60,"event_queue_longpoll_timeout_seconds":90,"realm_empty_topic_display_name":"general chat",
			"server_report_message_types":[{"key":"spam","name":"Spam"},{"key":"other","name":"Other reason"}],
			"realm_moderation_request_channel_id":-1,
			"realm_domains":[{"domain":"example.com","allow_subdomains":true}],
			"user_topics":[{"stream_id":1,"topic_name":"t","last_updated":5,"visibility_policy":3}],
			"realm_linkifiers":[{"id":1,"pattern":"p","url_template":"u"}],
			"custom_profile_fields":[{"id":1,"type":1,"order":1,"name":"Phone","hint":"","required":false}],
			"realm_user_groups":[{"id":1,"name":"role:owners","members":[1],"direct_subgroup_ids":[],"is_system_group":true,"can_mention_group":2}],
			"user_status":{"12":{"status_text":"away"}},
			"saved_snippets":[{"id":3,"title":"t","content":"c","date_created":9}],
			"realm_filters":[],"streams":[{"stream_id":1}],"unknown":{"deep":[1,2]}`)
	})
	got, err := env.client.Register(context.Background(), RegisterRequest{
		EventTypes: []string{EventTypeRealmLinkifiers},
		FetchEventTypes: []string{EventTypeRealm, EventTypeRealmLinkifiers, EventTypeRealmDomains, EventTypeUserTopic,
			EventTypeCustomProfileFields, EventTypeRealmUserGroups, EventTypeUserStatus, EventTypeSavedSnippets},
		ClientCapabilities: map[string]bool{CapabilityLinkifierURLTemplate: true},
		Narrow:             [][]string{{"channel", "design"}},
		ApplyMarkdown:      ptr(false),
		ClientGravatar:     ptr(true),
		IncludeSubscribers: ptr(false),
		SlimPresence:       ptr(true),
		AllPublicStreams:   ptr(false),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := &RegisterResponse{
		QueueID: "fb67bf8a", LastEventID: -1, ZulipFeatureLevel: 497, ZulipVersion: "12.0-dev", ZulipMergeBase: "12.0-dev-1",
		MaxTopicLength: 60, EventQueueLongpollTimeoutSeconds: 90, RealmEmptyTopicDisplayName: "general chat",
		ServerReportMessageTypes:        []ReportMessageType{{"spam", "Spam"}, {"other", "Other reason"}},
		RealmModerationRequestChannelID: ptr(int64(-1)),
		RealmDomains:                    []RealmDomain{{"example.com", true}},
		UserTopics:                      []UserTopic{{StreamID: 1, TopicName: "t", LastUpdated: 5, VisibilityPolicy: 3}},
		RealmLinkifiers:                 []Linkifier{{ID: 1, Pattern: "p", URLTemplate: "u"}},
		CustomProfileFields:             []CustomProfileField{{ID: 1, Type: 1, Order: 1, Name: "Phone", EditableByUser: true}},
		RealmUserGroups: []UserGroup{{ID: 1, Name: "role:owners", Members: []int64{1}, DirectSubgroupIDs: []int64{}, IsSystemGroup: true,
			UserGroupPermissions: UserGroupPermissions{CanMentionGroup: &GroupSettingValue{GroupID: ptr(int64(2))}}}},
		UserStatus:    map[string]UserStatus{"12": {StatusText: "away"}},
		SavedSnippets: []SavedSnippet{{ID: 3, Title: "t", Content: "c", DateCreated: 9}},
		RealmRaw:      map[string]json.RawMessage{"realm_moderation_request_channel_id": json.RawMessage("-1")},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestRegister_minimalRequest(t *testing.T) {
	env := setup(t)
	env.handle("/register", func(w http.ResponseWriter, r *http.Request) {
		testFormValues(t, r, nil) // nil slices and pointers are not sent: everything is fetched
		success(w, `"queue_id":"q","last_event_id":-1`)
	})
	if _, err := env.client.Register(context.Background(), RegisterRequest{}); err != nil {
		t.Fatal(err)
	}
}

func TestRegister_notRetriedAfterServerError(t *testing.T) {
	env := setup(t)
	var count atomic.Int32
	env.handle("/register", sequence(&count, status(502), func(w http.ResponseWriter, r *http.Request) { success(w, `"queue_id":"q"`) }))
	_, err := env.client.Register(context.Background(), RegisterRequest{EventTypes: []string{}})
	wantAPIError(t, err, 502, "BAD_REQUEST")
	if count.Load() != 1 {
		t.Errorf("%d register calls: a queue may have leaked", count.Load())
	}
}

func TestDeleteQueue(t *testing.T) {
	env := setup(t)
	env.handle("/events", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		testFormValues(t, r, url.Values{"queue_id": {"fb67bf8a-c031"}})
		success(w, "")
	})
	if err := env.client.DeleteQueue(context.Background(), "fb67bf8a-c031"); err != nil {
		t.Fatal(err)
	}
}

func TestDeleteQueue_badQueue(t *testing.T) {
	env := setup(t)
	env.handle("/events", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"result":"error","code":"BAD_EVENT_QUEUE_ID","msg":"Bad event queue ID: fb67","queue_id":"fb67"}`)
	})
	err := env.client.DeleteQueue(context.Background(), "fb67")
	if !IsBadEventQueue(err) {
		t.Fatalf("IsBadEventQueue(%v) = false", err)
	}
	if e, _ := AsAPIError(err); e.QueueID() != "fb67" {
		t.Errorf("QueueID = %q", e.QueueID())
	}
}

// TestRegisterResponse_realmBot: a decoded answer finds a bot through its
// index, and one built by hand by a look through the list.
func TestRegisterResponse_realmBot(t *testing.T) {
	var decoded RegisterResponse
	if err := json.Unmarshal([]byte(`{"realm_bots":[{"user_id":5,"default_sending_stream":"a"},{"user_id":9,"default_sending_stream":"b"}]}`), &decoded); err != nil {
		t.Fatal(err)
	}
	byHand := RegisterResponse{RealmBots: decoded.RealmBots}
	for _, r := range []*RegisterResponse{&decoded, &byHand} {
		if b, ok := r.RealmBot(9); !ok || b.DefaultSendingStream == nil || *b.DefaultSendingStream != "b" {
			t.Errorf("RealmBot(9) = %+v, %v; want the bot sending to b", b, ok)
		}
		if _, ok := r.RealmBot(7); ok {
			t.Error("RealmBot(7) found a bot; there is none")
		}
	}
}

// TestRegisterResponse_flagSets: the starred and unread sets of a decoded
// answer and of one built by hand agree; a snapshot that cannot tell (not
// fetched, cut at Zulip's limit, old unread messages left out) says so.
func TestRegisterResponse_flagSets(t *testing.T) {
	var decoded RegisterResponse
	if err := json.Unmarshal([]byte(`{"starred_messages":[3,8],"unread_msgs":{"streams":[{"stream_id":1,"topic":"a","unread_message_ids":[4]}],"pms":[{"unread_message_ids":[6]}],"huddles":[{"unread_message_ids":[9]}]}}`), &decoded); err != nil {
		t.Fatal(err)
	}
	byHand := RegisterResponse{StarredMessages: decoded.StarredMessages, UnreadMsgs: decoded.UnreadMsgs}
	for _, r := range []*RegisterResponse{&decoded, &byHand} {
		starred, ok := r.StarredSet()
		if !ok || !starred[3] || !starred[8] || starred[4] || len(starred) != 2 {
			t.Errorf("StarredSet() = %v, %v; want {3, 8}", starred, ok)
		}
		unread, ok := r.UnreadSet()
		if !ok || !unread[4] || !unread[6] || !unread[9] || unread[3] || len(unread) != 3 {
			t.Errorf("UnreadSet() = %v, %v; want {4, 6, 9}", unread, ok)
		}
	}
	var none RegisterResponse
	if _, ok := none.StarredSet(); ok {
		t.Error("StarredSet of a snapshot without starred_messages tells")
	}
	if _, ok := none.UnreadSet(); ok {
		t.Error("UnreadSet of a snapshot without unread_msgs tells")
	}
	cut := RegisterResponse{StarredMessages: make([]int64, MaxStarredSnapshot), UnreadMsgs: &UnreadMessages{OldUnreadsMissing: true}}
	if _, ok := cut.StarredSet(); ok {
		t.Error("StarredSet of a snapshot cut at Zulip's limit tells")
	}
	if _, ok := cut.UnreadSet(); ok {
		t.Error("UnreadSet of a snapshot without the old unread messages tells")
	}
}
