package zulip

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
)

// UserGroup is a user group (digest §7.3), system groups ("role:...") included.
type UserGroup struct {
	ID                int64   `json:"id"`
	Name              string  `json:"name"`
	Description       string  `json:"description"`
	Members           []int64 `json:"members"`
	DirectSubgroupIDs []int64 `json:"direct_subgroup_ids"`
	IsSystemGroup     bool    `json:"is_system_group"`
	DateCreated       *int64  `json:"date_created"`
	CreatorID         *int64  `json:"creator_id"`
	Deactivated       bool    `json:"deactivated"`
	// UserGroupPermissions are the group's six permission settings.
	UserGroupPermissions
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

// CreateUserGroupRequest is the body of CreateUserGroup.
type CreateUserGroupRequest struct {
	// Name must be unique in the organization, at most 100 characters, without the
	// reserved prefixes ("role:", "@", "user:", "stream:", "channel:").
	Name        string
	Description string
	// Members are the initial members' user ids; required by Zulip, so nil is sent as [].
	Members []int64
	// Subgroups are the initial subgroups' ids (FL311); nil is not sent.
	Subgroups   []int64
	Permissions UserGroupPermissions
}

// UpdateUserGroupRequest is the body of UpdateUserGroup; nil fields are not sent.
type UpdateUserGroupRequest struct {
	Name        *string
	Description *string
	// Reactivate sends deactivated=false, which reactivates a deactivated group (FL386).
	// There is no way to deactivate through this endpoint; see DeactivateUserGroup.
	Reactivate  bool
	Permissions UserGroupPermissionUpdates
}

// UpdateUserGroupMembersRequest is the body of UpdateUserGroupMembers: user ids to add and
// delete and, since FL311, subgroup ids to add and delete. Nil lists are not sent.
type UpdateUserGroupMembersRequest struct {
	Add             []int64
	Delete          []int64
	AddSubgroups    []int64
	DeleteSubgroups []int64
}

// UpdateUserGroupSubgroupsRequest is the body of UpdateUserGroupSubgroups; nil lists are
// not sent.
type UpdateUserGroupSubgroupsRequest struct {
	Add    []int64
	Delete []int64
}

// GetUserGroupMembersOptions are the query parameters of GetUserGroupMembers.
type GetUserGroupMembersOptions struct {
	// DirectMemberOnly leaves out the members of subgroups. Nil leaves the server default
	// (false: members of subgroups, recursively, are included).
	DirectMemberOnly *bool
}

func userGroupPath(id int64, suffix string) string {
	return "user_groups/" + strconv.FormatInt(id, 10) + suffix
}

// CreateUserGroup creates a user group and returns its id (POST /user_groups/create;
// needs the realm's can_create_groups). The id is in the answer since FL317; on older
// servers it is 0 and the caller reads the group back by name. Not idempotent: a repeat
// fails because the name is taken, so after an uncertain failure reconcile with
// ListUserGroups (deactivated groups included).
func (c *Client) CreateUserGroup(ctx context.Context, r CreateUserGroupRequest) (int64, error) {
	p := newParams().
		str("name", r.Name).
		str("description", r.Description).
		jsonList("members", r.Members).
		optJSONList("subgroups", r.Subgroups)
	for _, s := range r.Permissions.named() {
		p.optGroupSetting(s.name, s.value)
	}
	var out struct {
		GroupID int64 `json:"group_id"`
	}
	err := c.do(ctx, request{method: http.MethodPost, path: "user_groups/create", params: p, idempotent: false}, &out)
	return out.GroupID, err
}

// UpdateUserGroup changes a group's name, description and permission settings, or
// reactivates it (PATCH /user_groups/{id}; can_manage_group or the realm's
// can_manage_all_groups). Zulip refuses a request that changes nothing ("No new data
// supplied"). Idempotent when no setting update carries an Old value; otherwise a repeat
// of a request that succeeded unseen would answer EXPECTATION_MISMATCH, so it is retried
// only when the server certainly did not process it. IsExpectationMismatch tells that the
// setting changed since it was read.
func (c *Client) UpdateUserGroup(ctx context.Context, id int64, r UpdateUserGroupRequest) error {
	p := newParams().optStr("name", r.Name).optStr("description", r.Description)
	settings := r.Permissions.named()
	for _, s := range settings {
		p.optGroupSettingUpdate(s.name, s.value)
	}
	if r.Reactivate {
		p.json("deactivated", false)
	}
	return c.do(ctx, request{method: http.MethodPatch, path: userGroupPath(id, ""), params: p, idempotent: !hasOld(settings)}, nil)
}

// DeactivateUserGroup deactivates a user group (POST /user_groups/{id}/deactivate, FL290;
// can_manage_group). While the group is used by a permission setting or as a subgroup of
// an active group, Zulip refuses with CANNOT_DEACTIVATE_GROUP_IN_USE (IsGroupInUse), and
// GroupObjectionsOf lists those uses. Not idempotent: a repeat fails with "User group is
// deactivated.", so after an uncertain failure read the group's deactivated flag.
func (c *Client) DeactivateUserGroup(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodPost, path: userGroupPath(id, "/deactivate"), idempotent: false}, nil)
}

// UpdateUserGroupMembers adds and removes members and, since FL311, subgroups
// (POST /user_groups/{id}/members; can_add_members_group, can_remove_members_group or
// can_manage_group). Not idempotent: Zulip refuses to add an existing member or remove a
// non-member, so after an uncertain failure read the group and diff again.
func (c *Client) UpdateUserGroupMembers(ctx context.Context, id int64, r UpdateUserGroupMembersRequest) error {
	p := newParams().
		optJSONList("add", r.Add).
		optJSONList("delete", r.Delete).
		optJSONList("add_subgroups", r.AddSubgroups).
		optJSONList("delete_subgroups", r.DeleteSubgroups)
	return c.do(ctx, request{method: http.MethodPost, path: userGroupPath(id, "/members"), params: p, idempotent: false}, nil)
}

// UpdateUserGroupSubgroups adds and removes subgroups (POST /user_groups/{id}/subgroups,
// FL127). Not idempotent, like UpdateUserGroupMembers.
func (c *Client) UpdateUserGroupSubgroups(ctx context.Context, id int64, r UpdateUserGroupSubgroupsRequest) error {
	p := newParams().optJSONList("add", r.Add).optJSONList("delete", r.Delete)
	return c.do(ctx, request{method: http.MethodPost, path: userGroupPath(id, "/subgroups"), params: p, idempotent: false}, nil)
}

// GetUserGroupMembers returns the user ids of a group's members (GET
// /user_groups/{id}/members, FL127), recursively through subgroups unless
// DirectMemberOnly. Idempotent. An unknown id answers "Invalid user group", IsNotFound.
func (c *Client) GetUserGroupMembers(ctx context.Context, id int64, opts GetUserGroupMembersOptions) ([]int64, error) {
	p := newParams().optJSONBool("direct_member_only", opts.DirectMemberOnly)
	var out struct {
		Members []int64 `json:"members"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: userGroupPath(id, "/members"), params: p, idempotent: true}, &out)
	return out.Members, err
}

// GroupObjection is one use of a user group that prevents its deactivation, from the
// "objections" of CANNOT_DEACTIVATE_GROUP_IN_USE (zerver/lib/user_groups.py,
// access_user_group_for_deactivation). Type says where the group is used:
//
//   - "realm": in the organization's permission Settings;
//   - "channel": in the Settings of the channel ChannelID;
//   - "user_group": in the Settings of the user group GroupID;
//   - "subgroup": as a subgroup of the active groups SupergroupIDs.
//
// Fields that do not apply to the type are zero.
type GroupObjection struct {
	Type          string   `json:"type"`
	Settings      []string `json:"settings,omitempty"`
	ChannelID     int64    `json:"channel_id,omitempty"`
	GroupID       int64    `json:"group_id,omitempty"`
	SupergroupIDs []int64  `json:"supergroup_ids,omitempty"`
}

// GroupObjections decodes the "objections" of a CANNOT_DEACTIVATE_GROUP_IN_USE error; nil
// when the error has none (another code, or a server before FL298) or they cannot be read.
func (e *APIError) GroupObjections() []GroupObjection {
	raw, ok := e.Extra["objections"]
	if !ok {
		return nil
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var out []GroupObjection
	if err := json.Unmarshal(data, &out); err != nil {
		return nil
	}
	return out
}

// GroupObjectionsOf returns the objections of the *APIError in err's chain (see
// APIError.GroupObjections), or nil.
func GroupObjectionsOf(err error) []GroupObjection {
	if e, ok := AsAPIError(err); ok {
		return e.GroupObjections()
	}
	return nil
}
