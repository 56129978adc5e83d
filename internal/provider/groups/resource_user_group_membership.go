package groups

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*userGroupMembershipResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*userGroupMembershipResource)(nil)
)

// NewUserGroupMembershipResource returns the zulip_user_group_membership resource.
func NewUserGroupMembershipResource() resource.Resource {
	return &userGroupMembershipResource{ResourceBase: kit.ResourceBase{Name: "user_group_membership"}}
}

// userGroupMembershipResource manages one user's direct membership of one
// group, leaving the group's other members alone.
type userGroupMembershipResource struct {
	kit.ResourceBase
}

// userGroupMembershipModel is the zulip_user_group_membership state.
type userGroupMembershipModel struct {
	ID      types.String `tfsdk:"id"`
	GroupID types.Int64  `tfsdk:"group_id"`
	UserID  types.Int64  `tfsdk:"user_id"`
}

// Schema describes the resource.
func (r *userGroupMembershipResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := kit.RequiresReplaceInt64()
	resp.Schema = schema.Schema{
		MarkdownDescription: "One user's direct membership of a user group (**additive**: the group's other members " +
			"are left alone). To manage all of a group's members, use `zulip_user_group_members`; do not use both for " +
			"one group. Destroying the resource removes the user from the group. Zulip's Notification Bot tells the " +
			"user, in a direct message, when they are added or removed.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableString("`<group_id>:<user_id>`."),
			"group_id": schema.Int64Attribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The group's id, e.g. `zulip_user_group.backend.id`."},
			"user_id": schema.Int64Attribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The user's id, e.g. `zulip_user.ann.id`."},
		},
	}
}

// ModifyPlan checks the user and notes the group (see noteMembership).
func (r *userGroupMembershipResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, ok := kit.Planned[userGroupMembershipModel](ctx, req, &resp.Diagnostics)
	if !ok || !r.Data.KnowsServer() {
		return
	}
	if kit.Known(plan.GroupID) {
		noteMembership(r.Data, plan.GroupID.ValueInt64(), false, &resp.Diagnostics)
		if g, ok := checkMembershipGroup(ctx, r.Data, plan.GroupID.ValueInt64(), &resp.Diagnostics); ok && req.State.Raw.IsNull() &&
			kit.Known(plan.UserID) && !slices.Contains(g.Members, plan.UserID.ValueInt64()) {
			kit.RequireMemberChange(ctx, r.Data, g, []int64{plan.UserID.ValueInt64()}, nil, &resp.Diagnostics)
		}
	}
	if kit.Known(plan.UserID) && r.Data.HasCreds {
		kit.CheckGroupsAndUsers(ctx, r.Data, path.Root("group_id"), path.Root("user_id"), nil, []int64{plan.UserID.ValueInt64()}, &resp.Diagnostics)
	}
}

// Create adds the user; one who is a member already (added by someone else,
// or by an attempt whose answer was lost) is adopted.
func (r *userGroupMembershipResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[userGroupMembershipModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	g, _, ok := readGroup(ctx, r.Data, plan.GroupID.ValueInt64(), "Unable to Add Group Member", &resp.Diagnostics)
	if !ok {
		return
	}
	user := plan.UserID.ValueInt64()
	if !slices.Contains(g.Members, user) {
		if err := changeMembers(ctx, r.Data, g, zulip.UpdateUserGroupMembersRequest{Add: []int64{user}}); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "Unable to Add Group Member", fmt.Sprintf("add user %d to user group %q", user, g.Name), kit.RoleAny, err)
			return
		}
	}
	plan.ID = types.StringValue(membershipID(g.ID, user))
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read removes the resource from state when the user is no longer a direct
// member (or the group is gone or deactivated).
func (r *userGroupMembershipResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	kit.Refresh(ctx, r.Data, req, resp, "the user is no longer a member of the group",
		func(ctx context.Context, state *userGroupMembershipModel, diags *diag.Diagnostics) bool {
			list, err := kit.UserGroupCollection(r.Data).List(ctx)
			if err != nil {
				kit.AddAPIError(diags, "Unable to Read Group Membership", "list the user groups", kit.RoleAny, err)
				return false
			}
			i := slices.IndexFunc(list, func(g zulip.UserGroup) bool { return g.ID == state.GroupID.ValueInt64() })
			return i >= 0 && !list[i].Deactivated && slices.Contains(list[i].Members, state.UserID.ValueInt64())
		})
}

// Update is never called: every attribute replaces the resource.
func (r *userGroupMembershipResource) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {
}

// Delete removes the user from the group; one who is not a member is not an error.
func (r *userGroupMembershipResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[userGroupMembershipModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	list, err := kit.UserGroupCollection(r.Data).ReadBack(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Remove Group Member", "list the user groups", kit.RoleAny, err)
		return
	}
	user := state.UserID.ValueInt64()
	i := slices.IndexFunc(list, func(g zulip.UserGroup) bool { return g.ID == state.GroupID.ValueInt64() })
	if i < 0 || !slices.Contains(list[i].Members, user) {
		return
	}
	if err := changeMembers(ctx, r.Data, list[i], zulip.UpdateUserGroupMembersRequest{Delete: []int64{user}}); err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Remove Group Member", fmt.Sprintf("remove user %d from user group %q", user, list[i].Name), kit.RoleAny, err)
	}
}

// ImportState adopts a membership by `<group name or id>:<user id>`.
func (r *userGroupMembershipResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	group, user, ok := kit.ImportPair("zulip_user_group_membership", "<group name or id>:<user id>", "backend:12", req.ID, &resp.Diagnostics)
	if !ok || !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	g, ok := groupByNameOrID(ctx, r.Data, group, &resp.Diagnostics)
	if !ok {
		return
	}
	if !slices.Contains(g.Members, user) {
		resp.Diagnostics.AddError("Membership Not Found", fmt.Sprintf("User %d is not a direct member of user group %q.", user, g.Name))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &userGroupMembershipModel{
		ID: types.StringValue(membershipID(g.ID, user)), GroupID: types.Int64Value(g.ID), UserID: types.Int64Value(user),
	})...)
}

// membershipID is the resource id.
func membershipID(group, user int64) string {
	return strconv.FormatInt(group, 10) + ":" + strconv.FormatInt(user, 10)
}
