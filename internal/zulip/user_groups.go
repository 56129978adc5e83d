package zulip

import (
	"context"
	"net/http"
)

// UserGroup is a user group (digest §7.3), system groups ("role:...") included.
type UserGroup struct {
	ID                    int64              `json:"id"`
	Name                  string             `json:"name"`
	Description           string             `json:"description"`
	Members               []int64            `json:"members"`
	DirectSubgroupIDs     []int64            `json:"direct_subgroup_ids"`
	IsSystemGroup         bool               `json:"is_system_group"`
	DateCreated           *int64             `json:"date_created"`
	CreatorID             *int64             `json:"creator_id"`
	Deactivated           bool               `json:"deactivated"`
	CanAddMembersGroup    *GroupSettingValue `json:"can_add_members_group"`
	CanJoinGroup          *GroupSettingValue `json:"can_join_group"`
	CanLeaveGroup         *GroupSettingValue `json:"can_leave_group"`
	CanManageGroup        *GroupSettingValue `json:"can_manage_group"`
	CanMentionGroup       *GroupSettingValue `json:"can_mention_group"`
	CanRemoveMembersGroup *GroupSettingValue `json:"can_remove_members_group"`
}

// ListUserGroupsOptions are the query parameters of ListUserGroups.
type ListUserGroupsOptions struct {
	// IncludeDeactivatedGroups also returns deactivated groups (FL294). Nil leaves the
	// server default (false).
	IncludeDeactivatedGroups *bool
}

// ListUserGroups returns the organization's user groups (GET /user_groups; members and
// administrators, not guests or bots). Idempotent.
func (c *Client) ListUserGroups(ctx context.Context, opts ListUserGroupsOptions) ([]UserGroup, error) {
	p := newParams().optJSONBool("include_deactivated_groups", opts.IncludeDeactivatedGroups)
	var out struct {
		UserGroups []UserGroup `json:"user_groups"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "user_groups", params: p, idempotent: true}, &out)
	return out.UserGroups, err
}
