package zulip

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

func TestListUserGroups(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testQuery(t, r, url.Values{"include_deactivated_groups": {"true"}})
		success(w, `"user_groups":[
			{"id":1,"name":"role:owners","description":"Owners of this organization","members":[1],"direct_subgroup_ids":[],
			 "is_system_group":true,"date_created":null,"creator_id":null,"deactivated":false,
			 "can_add_members_group":1,"can_join_group":1,"can_leave_group":1,"can_manage_group":1,"can_mention_group":1,"can_remove_members_group":1},
			{"id":30,"name":"designers","description":"","members":[10,11],"direct_subgroup_ids":[1],"is_system_group":false,
			 "date_created":1700000000,"creator_id":10,"deactivated":true,
			 "can_mention_group":{"direct_members":[10],"direct_subgroups":[]},"new_field":[1]}]`)
	})
	got, err := env.client.ListUserGroups(context.Background(), ListUserGroupsOptions{IncludeDeactivatedGroups: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	one := &GroupSettingValue{GroupID: ptr(int64(1))}
	want := []UserGroup{
		{ID: 1, Name: "role:owners", Description: "Owners of this organization", Members: []int64{1}, DirectSubgroupIDs: []int64{},
			IsSystemGroup: true, UserGroupPermissions: UserGroupPermissions{CanAddMembersGroup: one, CanJoinGroup: one, CanLeaveGroup: one,
				CanManageGroup: one, CanMentionGroup: one, CanRemoveMembersGroup: one}},
		{ID: 30, Name: "designers", Members: []int64{10, 11}, DirectSubgroupIDs: []int64{1}, DateCreated: ptr(int64(1700000000)),
			CreatorID: ptr(int64(10)), Deactivated: true,
			UserGroupPermissions: UserGroupPermissions{CanMentionGroup: &GroupSettingValue{DirectMembers: []int64{10}, DirectSubgroups: []int64{}}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestListUserGroups_defaults(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups", func(w http.ResponseWriter, r *http.Request) {
		testQuery(t, r, nil)
		success(w, `"user_groups":[]`)
	})
	if _, err := env.client.ListUserGroups(context.Background(), ListUserGroupsOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestCreateUserGroup(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups/create", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testAuth(t, r)
		testFormValues(t, r, url.Values{
			"name":                     {"backend"},
			"description":              {"Backend <engineers>"},
			"members":                  {"[10,11]"},
			"subgroups":                {"[3]"},
			"can_add_members_group":    {"12"},
			"can_join_group":           {`{"direct_members":[10],"direct_subgroups":[]}`},
			"can_leave_group":          {"13"},
			"can_manage_group":         {`{"direct_members":[],"direct_subgroups":[12]}`},
			"can_mention_group":        {"14"},
			"can_remove_members_group": {"15"},
		})
		success(w, `"group_id":42`)
	})
	id, err := env.client.CreateUserGroup(context.Background(), CreateUserGroupRequest{
		Name: "backend", Description: "Backend <engineers>", Members: []int64{10, 11}, Subgroups: []int64{3},
		Permissions: UserGroupPermissions{
			CanAddMembersGroup:    &GroupSettingValue{GroupID: ptr(int64(12))},
			CanJoinGroup:          &GroupSettingValue{DirectMembers: []int64{10}},
			CanLeaveGroup:         &GroupSettingValue{GroupID: ptr(int64(13))},
			CanManageGroup:        &GroupSettingValue{DirectSubgroups: []int64{12}},
			CanMentionGroup:       &GroupSettingValue{GroupID: ptr(int64(14))},
			CanRemoveMembersGroup: &GroupSettingValue{GroupID: ptr(int64(15))},
		},
	})
	if err != nil || id != 42 {
		t.Fatalf("CreateUserGroup = %d, %v", id, err)
	}
}

func TestCreateUserGroup_minimal(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups/create", func(w http.ResponseWriter, r *http.Request) {
		// members is required: nil travels as []; description is required too, even empty.
		testFormValues(t, r, url.Values{"name": {"x"}, "description": {""}, "members": {"[]"}})
		success(w, `"group_id":7`)
	})
	if id, err := env.client.CreateUserGroup(context.Background(), CreateUserGroupRequest{Name: "x"}); err != nil || id != 7 {
		t.Fatalf("CreateUserGroup = %d, %v", id, err)
	}
}

func TestUpdateUserGroup(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups/30", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		testFormValues(t, r, url.Values{
			"name":                     {"backend-team"},
			"description":              {""},
			"deactivated":              {"false"},
			"can_add_members_group":    {`{"new":12}`},
			"can_join_group":           {`{"new":{"direct_members":[10],"direct_subgroups":[3]},"old":11}`},
			"can_leave_group":          {`{"new":13,"old":{"direct_members":[],"direct_subgroups":[]}}`},
			"can_manage_group":         {`{"new":12,"old":12}`},
			"can_mention_group":        {`{"new":14}`},
			"can_remove_members_group": {`{"new":15}`},
		})
		success(w, "")
	})
	err := env.client.UpdateUserGroup(context.Background(), 30, UpdateUserGroupRequest{
		Name: ptr("backend-team"), Description: ptr(""), Reactivate: true,
		Permissions: UserGroupPermissionUpdates{
			CanAddMembersGroup:    &GroupSettingUpdate{New: GroupSettingValue{GroupID: ptr(int64(12))}},
			CanJoinGroup:          &GroupSettingUpdate{New: GroupSettingValue{DirectMembers: []int64{10}, DirectSubgroups: []int64{3}}, Old: &GroupSettingValue{GroupID: ptr(int64(11))}},
			CanLeaveGroup:         &GroupSettingUpdate{New: GroupSettingValue{GroupID: ptr(int64(13))}, Old: &GroupSettingValue{}},
			CanManageGroup:        &GroupSettingUpdate{New: GroupSettingValue{GroupID: ptr(int64(12))}, Old: &GroupSettingValue{GroupID: ptr(int64(12))}},
			CanMentionGroup:       &GroupSettingUpdate{New: GroupSettingValue{GroupID: ptr(int64(14))}},
			CanRemoveMembersGroup: &GroupSettingUpdate{New: GroupSettingValue{GroupID: ptr(int64(15))}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestUpdateUserGroup_onlyWhatIsSet(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups/30", func(w http.ResponseWriter, r *http.Request) {
		testFormValues(t, r, url.Values{"description": {"new text"}})
		success(w, "")
	})
	if err := env.client.UpdateUserGroup(context.Background(), 30, UpdateUserGroupRequest{Description: ptr("new text")}); err != nil {
		t.Fatal(err)
	}
}

// TestUpdateUserGroup_expectationMismatch checks the answer to a stale "old": the code,
// the helper and the sentinel, and that the request is not retried (it carries Old).
func TestUpdateUserGroup_expectationMismatch(t *testing.T) {
	env := setup(t)
	calls := 0
	env.handle("/user_groups/30", func(w http.ResponseWriter, r *http.Request) {
		calls++
		writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"'old' value does not match the expected value.","code":"EXPECTATION_MISMATCH"}`)
	})
	err := env.client.UpdateUserGroup(context.Background(), 30, UpdateUserGroupRequest{Permissions: UserGroupPermissionUpdates{
		CanManageGroup: &GroupSettingUpdate{New: GroupSettingValue{GroupID: ptr(int64(12))}, Old: &GroupSettingValue{GroupID: ptr(int64(11))}},
	}})
	wantAPIError(t, err, http.StatusBadRequest, CodeExpectationMismatch)
	if !IsExpectationMismatch(err) || !errors.Is(err, ErrExpectationMismatch) {
		t.Errorf("IsExpectationMismatch(%v) = false", err)
	}
	if IsNotFound(err) || IsGroupInUse(err) {
		t.Errorf("EXPECTATION_MISMATCH matched another helper: %v", err)
	}
	if calls != 1 {
		t.Errorf("%d requests", calls)
	}
	if IsExpectationMismatch(errors.New("EXPECTATION_MISMATCH")) {
		t.Error("a plain error matched")
	}
}

// TestUpdateUserGroup_retryDependsOnOld checks that an update without Old is retried after a
// 503 (it only sets values), while one with Old is not (see TestMethods_retryPolicy for
// the minimal request).
func TestUpdateUserGroup_retryDependsOnOld(t *testing.T) {
	for _, withOld := range []bool{false, true} {
		env := setup(t)
		calls := 0
		env.handle("/user_groups/30", func(w http.ResponseWriter, r *http.Request) {
			calls++
			if calls == 1 {
				writeJSON(w, http.StatusServiceUnavailable, `{"result":"error","msg":"busy","code":"BAD_REQUEST"}`)
				return
			}
			success(w, "")
		})
		u := &GroupSettingUpdate{New: GroupSettingValue{GroupID: ptr(int64(12))}}
		if withOld {
			u.Old = &GroupSettingValue{GroupID: ptr(int64(11))}
		}
		err := env.client.UpdateUserGroup(context.Background(), 30, UpdateUserGroupRequest{Permissions: UserGroupPermissionUpdates{CanJoinGroup: u}})
		if withOld {
			if err == nil || calls != 1 {
				t.Errorf("with old: err %v after %d requests, want the 503 after 1", err, calls)
			}
		} else if err != nil || calls != 2 {
			t.Errorf("without old: err %v after %d requests, want success after 2", err, calls)
		}
	}
}

func TestDeactivateUserGroup(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups/30/deactivate", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testFormValues(t, r, nil)
		success(w, "")
	})
	if err := env.client.DeactivateUserGroup(context.Background(), 30); err != nil {
		t.Fatal(err)
	}
}

func TestDeactivateUserGroup_inUse(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups/30/deactivate", func(w http.ResponseWriter, r *http.Request) {
		// Every objection type access_user_group_for_deactivation produces.
		writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"Cannot deactivate user group in use.","code":"CANNOT_DEACTIVATE_GROUP_IN_USE",
			"objections":[{"type":"subgroup","supergroup_ids":[31,32]},
				{"type":"channel","channel_id":7,"settings":["can_send_message_group","can_subscribe_group"]},
				{"type":"user_group","group_id":33,"settings":["can_manage_group"]},
				{"type":"realm","settings":["can_create_public_channel_group"]}]}`)
	})
	err := env.client.DeactivateUserGroup(context.Background(), 30)
	apiErr := mustAPIError(t, err, http.StatusBadRequest, CodeCannotDeactivateGroupInUse)
	if !IsGroupInUse(err) || !errors.Is(err, ErrGroupInUse) || IsNotFound(err) || IsExpectationMismatch(err) {
		t.Errorf("helpers wrong for %v", err)
	}
	want := []GroupObjection{
		{Type: "subgroup", SupergroupIDs: []int64{31, 32}},
		{Type: "channel", ChannelID: 7, Settings: []string{"can_send_message_group", "can_subscribe_group"}},
		{Type: "user_group", GroupID: 33, Settings: []string{"can_manage_group"}},
		{Type: "realm", Settings: []string{"can_create_public_channel_group"}},
	}
	if got := apiErr.GroupObjections(); !reflect.DeepEqual(got, want) {
		t.Errorf("GroupObjections = %+v\nwant %+v", got, want)
	}
	wrapped := fmt.Errorf("destroying: %w", err)
	if got := GroupObjectionsOf(wrapped); !reflect.DeepEqual(got, want) {
		t.Errorf("GroupObjectionsOf(wrapped) = %+v", got)
	}
}

func TestGroupObjections_absent(t *testing.T) {
	if got := GroupObjectionsOf(errors.New("x")); got != nil {
		t.Errorf("plain error: %v", got)
	}
	if got := (&APIError{Code: CodeBadRequest}).GroupObjections(); got != nil {
		t.Errorf("no objections: %v", got)
	}
	// An older server's BAD_REQUEST, or a shape this client does not know, gives nil.
	if got := (&APIError{Extra: map[string]any{"objections": "in use"}}).GroupObjections(); got != nil {
		t.Errorf("malformed objections: %v", got)
	}
}

func TestUpdateUserGroupMembers(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups/30/members", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testFormValues(t, r, url.Values{"add": {"[12,13]"}, "delete": {"[10]"}, "add_subgroups": {"[4]"}, "delete_subgroups": {"[]"}})
		success(w, "")
	})
	err := env.client.UpdateUserGroupMembers(context.Background(), 30, UpdateUserGroupMembersRequest{
		Add: []int64{12, 13}, Delete: []int64{10}, AddSubgroups: []int64{4}, DeleteSubgroups: []int64{},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestUpdateUserGroupMembers_onlyWhatIsSet(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups/30/members", func(w http.ResponseWriter, r *http.Request) {
		testFormValues(t, r, url.Values{"delete": {"[10]"}})
		success(w, "")
	})
	if err := env.client.UpdateUserGroupMembers(context.Background(), 30, UpdateUserGroupMembersRequest{Delete: []int64{10}}); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateUserGroupSubgroups(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups/30/subgroups", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testFormValues(t, r, url.Values{"add": {"[4,5]"}, "delete": {"[6]"}})
		success(w, "")
	})
	err := env.client.UpdateUserGroupSubgroups(context.Background(), 30, UpdateUserGroupSubgroupsRequest{Add: []int64{4, 5}, Delete: []int64{6}})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGetUserGroupMembers(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups/30/members", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testQuery(t, r, url.Values{"direct_member_only": {"true"}})
		success(w, `"members":[10,12]`)
	})
	got, err := env.client.GetUserGroupMembers(context.Background(), 30, GetUserGroupMembersOptions{DirectMemberOnly: ptr(true)})
	if err != nil || !reflect.DeepEqual(got, []int64{10, 12}) {
		t.Fatalf("GetUserGroupMembers = %v, %v", got, err)
	}
}

func TestGetUserGroupMembers_notFound(t *testing.T) {
	env := setup(t)
	env.handle("/user_groups/999/members", func(w http.ResponseWriter, r *http.Request) {
		testQuery(t, r, nil)
		writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"Invalid user group","code":"BAD_REQUEST"}`)
	})
	if _, err := env.client.GetUserGroupMembers(context.Background(), 999, GetUserGroupMembersOptions{}); !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}

func TestGroupSettingUpdate_JSON(t *testing.T) {
	tests := []struct {
		in   GroupSettingUpdate
		want string
	}{
		{GroupSettingUpdate{New: GroupSettingValue{GroupID: ptr(int64(11))}}, `{"new":11}`},
		{GroupSettingUpdate{New: GroupSettingValue{}}, `{"new":{"direct_members":[],"direct_subgroups":[]}}`},
		{GroupSettingUpdate{New: GroupSettingValue{DirectMembers: []int64{1}}, Old: &GroupSettingValue{GroupID: ptr(int64(2))}}, `{"new":{"direct_members":[1],"direct_subgroups":[]},"old":2}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.in)
		if err != nil || string(b) != tt.want {
			t.Errorf("Marshal = %s, %v; want %s", b, err, tt.want)
			continue
		}
		var back GroupSettingUpdate
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("Unmarshal(%s): %v", b, err)
		}
		again, _ := json.Marshal(back)
		if string(again) != tt.want {
			t.Errorf("round trip of %s gave %s", tt.want, again)
		}
	}
	var u GroupSettingUpdate
	if err := json.Unmarshal([]byte(`{"old":2}`), &u); err == nil {
		t.Error(`an update without "new" was accepted`)
	}
}
