package zulip

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

const channelJSON = `{"stream_id":7,"name":"design","description":"**Design**","rendered_description":"<p><strong>Design</strong></p>",
	"date_created":1691057093,"creator_id":null,"invite_only":true,"is_web_public":false,"history_public_to_subscribers":false,
	"is_archived":false,"first_message_id":18,"message_retention_days":-1,"is_recently_active":true,"stream_weekly_traffic":null,
	"stream_post_policy":1,"is_announcement_only":false,"topics_policy":"inherit",
	"can_add_subscribers_group":2,"can_remove_subscribers_group":{"direct_members":[10,11],"direct_subgroups":[3]},
	"can_administer_channel_group":{"direct_members":[],"direct_subgroups":[]},"can_send_message_group":9,
	"can_subscribe_group":9,"can_create_topic_group":9,"is_default":true,"folder_id":4}`

func wantChannel() Channel {
	return Channel{
		StreamID: 7, Name: "design", Description: "**Design**", RenderedDescription: "<p><strong>Design</strong></p>",
		DateCreated: 1691057093, InviteOnly: true, FirstMessageID: ptr(int64(18)), MessageRetentionDays: ptr(int64(-1)),
		IsRecentlyActive: true, StreamPostPolicy: 1, TopicsPolicy: "inherit",
		CanAddSubscribersGroup:    &GroupSettingValue{GroupID: ptr(int64(2))},
		CanRemoveSubscribersGroup: &GroupSettingValue{DirectMembers: []int64{10, 11}, DirectSubgroups: []int64{3}},
		CanAdministerChannelGroup: &GroupSettingValue{DirectMembers: []int64{}, DirectSubgroups: []int64{}},
		CanSendMessageGroup:       &GroupSettingValue{GroupID: ptr(int64(9))},
		CanSubscribeGroup:         &GroupSettingValue{GroupID: ptr(int64(9))},
		CanCreateTopicGroup:       &GroupSettingValue{GroupID: ptr(int64(9))},
		IsDefault:                 ptr(true),
	}
}

func TestListChannels(t *testing.T) {
	env := setup(t)
	env.handle("/streams", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testAuth(t, r)
		testQuery(t, r, url.Values{
			"include_public": {"false"}, "include_web_public": {"true"}, "include_subscribed": {"false"},
			"exclude_archived": {"false"}, "include_all": {"true"}, "include_all_active": {"false"},
			"include_default": {"true"}, "include_owner_subscribed": {"true"}, "include_can_access_content": {"true"},
		})
		success(w, `"streams":[`+channelJSON+`]`)
	})
	got, err := env.client.ListChannels(context.Background(), ListChannelsOptions{
		IncludePublic: ptr(false), IncludeWebPublic: ptr(true), IncludeSubscribed: ptr(false), ExcludeArchived: ptr(false),
		IncludeAll: ptr(true), IncludeAllActive: ptr(false), IncludeDefault: ptr(true), IncludeOwnerSubscribed: ptr(true),
		IncludeCanAccessContent: ptr(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Channel{wantChannel()}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestListChannels_defaults(t *testing.T) {
	env := setup(t)
	env.handle("/streams", func(w http.ResponseWriter, r *http.Request) {
		testQuery(t, r, nil)
		success(w, `"streams":[]`)
	})
	got, err := env.client.ListChannels(context.Background(), ListChannelsOptions{})
	if err != nil || len(got) != 0 {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestGetChannel(t *testing.T) {
	env := setup(t)
	env.handle("/streams/7", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		success(w, `"stream":`+channelJSON)
	})
	got, err := env.client.GetChannel(context.Background(), 7)
	if err != nil {
		t.Fatal(err)
	}
	if want := wantChannel(); !reflect.DeepEqual(*got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestGetChannel_notFound(t *testing.T) {
	env := setup(t)
	env.handle("/streams/99", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"result":"error","msg":"Invalid channel ID","code":"BAD_REQUEST"}`)
	})
	if _, err := env.client.GetChannel(context.Background(), 99); !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}

func TestListTopics(t *testing.T) {
	env := setup(t)
	env.handle("/users/me/7/topics", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testQuery(t, r, url.Values{"allow_empty_topic_name": {"true"}})
		success(w, `"topics":[{"max_id":26,"name":"Denmark3"},{"max_id":23,"name":""}]`)
	})
	got, err := env.client.ListTopics(context.Background(), 7, ListTopicsOptions{AllowEmptyTopicName: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	want := []Topic{{MaxID: 26, Name: "Denmark3"}, {MaxID: 23, Name: ""}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v", got)
	}
}

func TestGroupSettingValue_JSON(t *testing.T) {
	tests := []struct {
		in   string
		want GroupSettingValue
		out  string
	}{
		{`11`, GroupSettingValue{GroupID: ptr(int64(11))}, `11`},
		{`{"direct_members":[1],"direct_subgroups":[2,3]}`, GroupSettingValue{DirectMembers: []int64{1}, DirectSubgroups: []int64{2, 3}}, `{"direct_members":[1],"direct_subgroups":[2,3]}`},
		{`{"direct_members":[1]}`, GroupSettingValue{DirectMembers: []int64{1}, DirectSubgroups: []int64{}}, `{"direct_members":[1],"direct_subgroups":[]}`},
	}
	for _, tt := range tests {
		var got GroupSettingValue
		if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
			t.Fatalf("Unmarshal(%s): %v", tt.in, err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Unmarshal(%s) = %+v", tt.in, got)
		}
		if got.IsNamedGroup() != (tt.want.GroupID != nil) {
			t.Errorf("IsNamedGroup(%s) wrong", tt.in)
		}
		b, err := json.Marshal(got)
		if err != nil || string(b) != tt.out {
			t.Errorf("Marshal = %s, %v; want %s", b, err, tt.out)
		}
	}
	var v GroupSettingValue
	if err := json.Unmarshal([]byte(`"role:owners"`), &v); err == nil {
		t.Error("a string was accepted as a group setting value")
	}
}
