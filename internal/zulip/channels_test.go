package zulip

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

const channelJSON = `{"stream_id":7,"name":"design","description":"**Design**","rendered_description":"<p><strong>Design</strong></p>",
	"date_created":1691057093,"creator_id":null,"invite_only":true,"is_web_public":false,"history_public_to_subscribers":false,
	"is_archived":false,"first_message_id":18,"message_retention_days":-1,"is_recently_active":true,"stream_weekly_traffic":null,
	"stream_post_policy":1,"is_announcement_only":false,"topics_policy":"inherit",
	"can_add_subscribers_group":2,"can_remove_subscribers_group":{"direct_members":[10,11],"direct_subgroups":[3]},
	"can_administer_channel_group":{"direct_members":[],"direct_subgroups":[]},"can_send_message_group":9,
	"can_subscribe_group":9,"can_create_topic_group":9,"is_default":true,"folder_id":4,
	"default_push_notifications":false,"subscriber_count":12,"can_delete_any_message_group":2,
	"can_delete_own_message_group":{"direct_members":[10],"direct_subgroups":[]},"can_move_messages_out_of_channel_group":3,
	"can_move_messages_within_channel_group":4,"can_resolve_topics_group":5,"a_newer_field":[1]}`

func wantChannel() Channel {
	return Channel{
		StreamID: 7, Name: "design", Description: "**Design**", RenderedDescription: "<p><strong>Design</strong></p>",
		DateCreated: 1691057093, InviteOnly: true, FirstMessageID: ptr(int64(18)), MessageRetentionDays: ptr(int64(-1)),
		IsRecentlyActive: true, StreamPostPolicy: 1, TopicsPolicy: "inherit",
		IsDefault: ptr(true),
		FolderID:  ptr(int64(4)), DefaultPushNotifications: ptr(false), SubscriberCount: ptr(int64(12)),
		ChannelPermissions: ChannelPermissions{
			CanAddSubscribersGroup:            &GroupSettingValue{GroupID: ptr(int64(2))},
			CanRemoveSubscribersGroup:         &GroupSettingValue{DirectMembers: []int64{10, 11}, DirectSubgroups: []int64{3}},
			CanAdministerChannelGroup:         &GroupSettingValue{DirectMembers: []int64{}, DirectSubgroups: []int64{}},
			CanSendMessageGroup:               &GroupSettingValue{GroupID: ptr(int64(9))},
			CanSubscribeGroup:                 &GroupSettingValue{GroupID: ptr(int64(9))},
			CanCreateTopicGroup:               &GroupSettingValue{GroupID: ptr(int64(9))},
			CanDeleteAnyMessageGroup:          &GroupSettingValue{GroupID: ptr(int64(2))},
			CanDeleteOwnMessageGroup:          &GroupSettingValue{DirectMembers: []int64{10}, DirectSubgroups: []int64{}},
			CanMoveMessagesOutOfChannelGroup:  &GroupSettingValue{GroupID: ptr(int64(3))},
			CanMoveMessagesWithinChannelGroup: &GroupSettingValue{GroupID: ptr(int64(4))},
			CanResolveTopicsGroup:             &GroupSettingValue{GroupID: ptr(int64(5))},
		},
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

// groupID is a named-group setting value.
func groupID(id int64) *GroupSettingValue { return &GroupSettingValue{GroupID: &id} }

// allChannelPermissions sets each of the 11 settings to a distinct value, in the order of
// addChannelPermissionForm.
func allChannelPermissions() ChannelPermissions {
	return ChannelPermissions{
		CanAddSubscribersGroup:            groupID(1),
		CanAdministerChannelGroup:         &GroupSettingValue{DirectMembers: []int64{10}, DirectSubgroups: []int64{2}},
		CanCreateTopicGroup:               groupID(3),
		CanDeleteAnyMessageGroup:          groupID(4),
		CanDeleteOwnMessageGroup:          groupID(5),
		CanMoveMessagesOutOfChannelGroup:  groupID(6),
		CanMoveMessagesWithinChannelGroup: groupID(7),
		CanRemoveSubscribersGroup:         groupID(8),
		CanResolveTopicsGroup:             groupID(9),
		CanSendMessageGroup:               groupID(10),
		CanSubscribeGroup:                 &GroupSettingValue{},
	}
}

// addChannelPermissionForm adds the form values of allChannelPermissions to want.
func addChannelPermissionForm(want url.Values) url.Values {
	want.Set("can_add_subscribers_group", "1")
	want.Set("can_administer_channel_group", `{"direct_members":[10],"direct_subgroups":[2]}`)
	want.Set("can_create_topic_group", "3")
	want.Set("can_delete_any_message_group", "4")
	want.Set("can_delete_own_message_group", "5")
	want.Set("can_move_messages_out_of_channel_group", "6")
	want.Set("can_move_messages_within_channel_group", "7")
	want.Set("can_remove_subscribers_group", "8")
	want.Set("can_resolve_topics_group", "9")
	want.Set("can_send_message_group", "10")
	want.Set("can_subscribe_group", `{"direct_members":[],"direct_subgroups":[]}`)
	return want
}

func TestCreateChannel(t *testing.T) {
	env := setup(t)
	env.handle("/channels/create", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testAuth(t, r)
		testFormValues(t, r, addChannelPermissionForm(url.Values{
			"name":                          {"backend"},
			"description":                   {"Backend team. See #**backend>meetings**."},
			"subscribers":                   {"[10,11]"},
			"announce":                      {"false"},
			"invite_only":                   {"true"},
			"is_web_public":                 {"false"},
			"history_public_to_subscribers": {"true"},
			"is_default_stream":             {"false"},
			"message_retention_days":        {"30"},
			"folder_id":                     {"4"},
			"topics_policy":                 {`"disable_empty_topic"`},
			"default_push_notifications":    {"true"},
		}))
		success(w, `"id":50`)
	})
	id, err := env.client.CreateChannel(context.Background(), CreateChannelRequest{
		Name: "backend", Description: ptr("Backend team. See #**backend>meetings**."), Subscribers: []int64{10, 11},
		Announce: ptr(false), InviteOnly: ptr(true), IsWebPublic: ptr(false), HistoryPublicToSubscribers: ptr(true),
		IsDefaultStream: ptr(false), MessageRetentionDays: ptr(RetentionDays(30)), FolderID: ptr(int64(4)),
		TopicsPolicy: ptr(TopicsPolicyDisableEmptyTopic), DefaultPushNotifications: ptr(true),
		Permissions: allChannelPermissions(),
	})
	if err != nil || id != 50 {
		t.Fatalf("CreateChannel = %d, %v", id, err)
	}
}

func TestCreateChannel_minimal(t *testing.T) {
	env := setup(t)
	env.handle("/channels/create", func(w http.ResponseWriter, r *http.Request) {
		// subscribers is required: nil travels as [].
		testFormValues(t, r, url.Values{"name": {"x"}, "subscribers": {"[]"}})
		success(w, `"id":51`)
	})
	if id, err := env.client.CreateChannel(context.Background(), CreateChannelRequest{Name: "x"}); err != nil || id != 51 {
		t.Fatalf("CreateChannel = %d, %v", id, err)
	}
}

func TestCreateChannel_alreadyExists(t *testing.T) {
	env := setup(t)
	env.handle("/channels/create", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusConflict, `{"result":"error","msg":"Channel 'x' already exists","code":"CHANNEL_ALREADY_EXISTS"}`)
	})
	_, err := env.client.CreateChannel(context.Background(), CreateChannelRequest{Name: "x"})
	wantAPIError(t, err, http.StatusConflict, CodeChannelAlreadyExists)
	if IsNotFound(err) {
		t.Errorf("a taken name is not-found: %v", err)
	}
}

func TestMessageRetention(t *testing.T) {
	tests := []struct {
		in      MessageRetention
		json    string
		days    int64
		isDays  bool
		printed string
	}{
		{RetentionRealmDefault, `"realm_default"`, 0, false, "realm_default"},
		{RetentionUnlimited, `"unlimited"`, 0, false, "unlimited"},
		{RetentionDays(90), `90`, 90, true, "90"},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.in)
		if err != nil || string(b) != tt.json {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tt.in, b, err, tt.json)
		}
		if d, ok := tt.in.Days(); d != tt.days || ok != tt.isDays {
			t.Errorf("Days(%v) = %d, %v", tt.in, d, ok)
		}
		if tt.in.String() != tt.printed {
			t.Errorf("String = %q", tt.in.String())
		}
	}
	for _, bad := range []MessageRetention{{}, RetentionDays(0), RetentionDays(-1)} {
		if b, err := json.Marshal(bad); err == nil {
			t.Errorf("Marshal(%#v) = %s, want an error", bad, b)
		}
	}
	for _, tt := range []struct {
		days *int64
		want MessageRetention
	}{{nil, RetentionRealmDefault}, {ptr(int64(-1)), RetentionUnlimited}, {ptr(int64(7)), RetentionDays(7)}} {
		if got := (Channel{MessageRetentionDays: tt.days}).Retention(); got != tt.want {
			t.Errorf("Retention(%v) = %v, want %v", tt.days, got, tt.want)
		}
	}
}

// TestCreateChannel_invalidRetention checks that a zero MessageRetention fails before
// anything is sent.
func TestCreateChannel_invalidRetention(t *testing.T) {
	env := setup(t)
	_, err := env.client.CreateChannel(context.Background(), CreateChannelRequest{Name: "x", MessageRetentionDays: &MessageRetention{}})
	if err == nil || !strings.Contains(err.Error(), "message_retention_days") {
		t.Fatalf("err = %v, want an encoding error naming the parameter", err)
	}
}

func TestUpdateChannel(t *testing.T) {
	env := setup(t)
	env.handle("/streams/7", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		testFormValues(t, r, url.Values{
			"new_name":                               {"backend-team"},
			"description":                            {"New text"},
			"is_private":                             {"false"},
			"is_web_public":                          {"true"},
			"history_public_to_subscribers":          {"true"},
			"is_default_stream":                      {"true"},
			"message_retention_days":                 {`"unlimited"`},
			"default_push_notifications":             {"false"},
			"folder_id":                              {"4"},
			"topics_policy":                          {"empty_topic_only"},
			"is_archived":                            {"false"},
			"can_add_subscribers_group":              {`{"new":1}`},
			"can_administer_channel_group":           {`{"new":{"direct_members":[10],"direct_subgroups":[]},"old":2}`},
			"can_create_topic_group":                 {`{"new":3}`},
			"can_delete_any_message_group":           {`{"new":4}`},
			"can_delete_own_message_group":           {`{"new":5}`},
			"can_move_messages_out_of_channel_group": {`{"new":6}`},
			"can_move_messages_within_channel_group": {`{"new":7}`},
			"can_remove_subscribers_group":           {`{"new":8}`},
			"can_resolve_topics_group":               {`{"new":9}`},
			"can_send_message_group":                 {`{"new":10}`},
			"can_subscribe_group":                    {`{"new":11,"old":11}`},
		})
		success(w, "")
	})
	upd := func(id int64) *GroupSettingUpdate { return &GroupSettingUpdate{New: *groupID(id)} }
	err := env.client.UpdateChannel(context.Background(), 7, UpdateChannelRequest{
		NewName: ptr("backend-team"), Description: ptr("New text"), IsPrivate: ptr(false), IsWebPublic: ptr(true),
		HistoryPublicToSubscribers: ptr(true), IsDefaultStream: ptr(true), MessageRetentionDays: ptr(RetentionUnlimited),
		DefaultPushNotifications: ptr(false), FolderID: ptr(int64(4)), TopicsPolicy: ptr(TopicsPolicyEmptyTopicOnly), Unarchive: true,
		Permissions: ChannelPermissionUpdates{
			CanAddSubscribersGroup:            upd(1),
			CanAdministerChannelGroup:         &GroupSettingUpdate{New: GroupSettingValue{DirectMembers: []int64{10}}, Old: groupID(2)},
			CanCreateTopicGroup:               upd(3),
			CanDeleteAnyMessageGroup:          upd(4),
			CanDeleteOwnMessageGroup:          upd(5),
			CanMoveMessagesOutOfChannelGroup:  upd(6),
			CanMoveMessagesWithinChannelGroup: upd(7),
			CanRemoveSubscribersGroup:         upd(8),
			CanResolveTopicsGroup:             upd(9),
			CanSendMessageGroup:               upd(10),
			CanSubscribeGroup:                 &GroupSettingUpdate{New: *groupID(11), Old: groupID(11)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestUpdateChannel_clearFolder(t *testing.T) {
	env := setup(t)
	env.handle("/streams/7", func(w http.ResponseWriter, r *http.Request) {
		testFormValues(t, r, url.Values{"folder_id": {"null"}, "message_retention_days": {`"realm_default"`}})
		success(w, "")
	})
	err := env.client.UpdateChannel(context.Background(), 7, UpdateChannelRequest{ClearFolder: true, MessageRetentionDays: ptr(RetentionRealmDefault)})
	if err != nil {
		t.Fatal(err)
	}
	if err := env.client.UpdateChannel(context.Background(), 7, UpdateChannelRequest{ClearFolder: true, FolderID: ptr(int64(1))}); err == nil {
		t.Error("FolderID with ClearFolder was accepted")
	}
}

func TestUpdateChannel_expectationMismatch(t *testing.T) {
	env := setup(t)
	env.handle("/streams/7", func(w http.ResponseWriter, r *http.Request) {
		testFormValues(t, r, url.Values{"can_send_message_group": {`{"new":10,"old":9}`}})
		writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"'old' value does not match the expected value.","code":"EXPECTATION_MISMATCH"}`)
	})
	err := env.client.UpdateChannel(context.Background(), 7, UpdateChannelRequest{Permissions: ChannelPermissionUpdates{
		CanSendMessageGroup: &GroupSettingUpdate{New: *groupID(10), Old: groupID(9)},
	}})
	if !IsExpectationMismatch(err) {
		t.Errorf("IsExpectationMismatch(%v) = false", err)
	}
}

// TestUpdateChannel_retryPolicy checks which updates are retried after a 503: plain
// property changes are, renames and conditional setting updates are not.
func TestUpdateChannel_retryPolicy(t *testing.T) {
	tests := []struct {
		name  string
		req   UpdateChannelRequest
		retry bool
	}{
		{"description", UpdateChannelRequest{Description: ptr("x")}, true},
		{"unconditional setting", UpdateChannelRequest{Permissions: ChannelPermissionUpdates{CanSubscribeGroup: &GroupSettingUpdate{New: *groupID(1)}}}, true},
		{"rename", UpdateChannelRequest{NewName: ptr("y")}, false},
		{"conditional setting", UpdateChannelRequest{Permissions: ChannelPermissionUpdates{CanSubscribeGroup: &GroupSettingUpdate{New: *groupID(1), Old: groupID(2)}}}, false},
	}
	for _, tt := range tests {
		env := setup(t)
		calls := 0
		env.handle("/streams/7", func(w http.ResponseWriter, r *http.Request) {
			calls++
			if calls == 1 {
				writeJSON(w, http.StatusServiceUnavailable, `{"result":"error","msg":"busy","code":"BAD_REQUEST"}`)
				return
			}
			success(w, "")
		})
		err := env.client.UpdateChannel(context.Background(), 7, tt.req)
		if tt.retry && (err != nil || calls != 2) {
			t.Errorf("%s: err %v after %d requests, want success after 2", tt.name, err, calls)
		}
		if !tt.retry && (err == nil || calls != 1) {
			t.Errorf("%s: err %v after %d requests, want the 503 after 1", tt.name, err, calls)
		}
	}
}

func TestArchiveChannel(t *testing.T) {
	env := setup(t)
	env.handle("/streams/7", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		testFormValues(t, r, nil)
		testQuery(t, r, nil)
		success(w, "")
	})
	if err := env.client.ArchiveChannel(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
}

func TestAddDefaultChannel(t *testing.T) {
	env := setup(t)
	env.handle("/default_streams", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testFormValues(t, r, url.Values{"stream_id": {"7"}})
		success(w, "")
	})
	if err := env.client.AddDefaultChannel(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
}

func TestRemoveDefaultChannel(t *testing.T) {
	env := setup(t)
	env.handle("/default_streams", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		testFormValues(t, r, url.Values{"stream_id": {"7"}})
		testQuery(t, r, nil)
		success(w, "")
	})
	if err := env.client.RemoveDefaultChannel(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
}
