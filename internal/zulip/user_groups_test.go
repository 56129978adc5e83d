package zulip

import (
	"context"
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
			IsSystemGroup: true, CanAddMembersGroup: one, CanJoinGroup: one, CanLeaveGroup: one, CanManageGroup: one, CanMentionGroup: one, CanRemoveMembersGroup: one},
		{ID: 30, Name: "designers", Members: []int64{10, 11}, DirectSubgroupIDs: []int64{1}, DateCreated: ptr(int64(1700000000)),
			CreatorID: ptr(int64(10)), Deactivated: true, CanMentionGroup: &GroupSettingValue{DirectMembers: []int64{10}, DirectSubgroups: []int64{}}},
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
