package groups

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*userGroupMembersResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*userGroupMembersResource)(nil)
)

// featureGroupSubgroupsOnMembers: POST /user_groups/{id}/members takes
// add_subgroups and delete_subgroups (FL311).
const featureGroupSubgroupsOnMembers = 311

// NewUserGroupMembersResource returns the zulip_user_group_members resource.
func NewUserGroupMembersResource() resource.Resource {
	return &userGroupMembersResource{ResourceBase: kit.ResourceBase{Name: "user_group_members"}}
}

// userGroupMembersResource manages all of a group's direct members, and its
// direct subgroups when they are configured.
type userGroupMembersResource struct {
	kit.ResourceBase
}

// userGroupMembersModel is the zulip_user_group_members state.
type userGroupMembersModel struct {
	ID        types.String `tfsdk:"id"`
	GroupID   types.Int64  `tfsdk:"group_id"`
	Members   types.Set    `tfsdk:"members"`
	Subgroups types.Set    `tfsdk:"subgroups"`
}

// Schema describes the resource.
func (r *userGroupMembersResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "All the direct members of a user group (**authoritative**: members not listed are " +
			"removed), and its direct subgroups when `subgroups` is set. For adding one user without touching the " +
			"others, use `zulip_user_group_membership`; do not use both for one group. Zulip's Notification Bot " +
			"tells each user added or removed, in a direct message; Zulip has no way to turn that off. Destroying " +
			"the resource removes the members and subgroups it manages. Changes need permission to add and remove " +
			"members (`can_add_members_group`, `can_remove_members_group` or `can_manage_group` of the group, or " +
			"`can_manage_all_groups` of the organization); subgroups need `can_manage_group`.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableString("The group's id, as a string."),
			"group_id": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: "The group's id, e.g. `zulip_user_group.backend.id`. Changing it replaces the resource.",
				PlanModifiers:       kit.RequiresReplaceInt64(),
			},
			"members": schema.SetAttribute{
				ElementType:         types.Int64Type,
				Required:            true,
				MarkdownDescription: "The ids of the group's direct members, exactly (active users; Zulip hides deactivated ones).",
			},
			"subgroups": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				MarkdownDescription: "The names of the group's direct subgroups, exactly, whose members are members of " +
					"this group too. Left out, subgroups are not managed. Needs Zulip feature level 311 (Zulip 10.0).",
				PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

// ModifyPlan checks the users and groups named, and notes the group so that
// an additive membership of the same group warns.
func (r *userGroupMembersResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, ok := kit.Planned[userGroupMembersModel](ctx, req, &resp.Diagnostics)
	if !ok || !r.Data.KnowsServer() {
		return
	}
	if kit.Known(plan.GroupID) {
		noteMembership(r.Data, plan.GroupID.ValueInt64(), true, &resp.Diagnostics)
		if g, ok := checkMembershipGroup(ctx, r.Data, plan.GroupID.ValueInt64(), &resp.Diagnostics); ok && kit.Known(plan.Members) {
			want := kit.KnownInt64s(plan.Members)
			kit.RequireMemberChange(ctx, r.Data, g, kit.MissingFrom(want, g.Members), kit.MissingFrom(g.Members, want), &resp.Diagnostics)
		}
	}
	if !r.Data.HasCreds {
		return
	}
	var groups []string
	if kit.Known(plan.Subgroups) {
		groups = kit.KnownStrings(plan.Subgroups)
	}
	var users []int64
	if kit.Known(plan.Members) {
		users = kit.KnownInt64s(plan.Members)
	}
	kit.CheckGroupsAndUsers(ctx, r.Data, path.Root("subgroups"), path.Root("members"), groups, users, &resp.Diagnostics)
}

// Create sets the members.
func (r *userGroupMembersResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[userGroupMembersModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	r.apply(ctx, &plan, "Unable to Set User Group Members", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Update sets the members.
func (r *userGroupMembersResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, ok := kit.Load[userGroupMembersModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	r.apply(ctx, &plan, "Unable to Update User Group Members", &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// apply makes the server's members (and subgroups, when planned) those of
// plan, with one request for the difference from a fresh read, and fills the
// computed values.
func (r *userGroupMembersResource) apply(ctx context.Context, plan *userGroupMembersModel, summary string, diags *diag.Diagnostics) {
	id := plan.GroupID.ValueInt64()
	g, dir, ok := readGroup(ctx, r.Data, id, summary, diags)
	if !ok {
		return
	}
	var want []int64
	diags.Append(plan.Members.ElementsAs(ctx, &want, false)...)
	change := zulip.UpdateUserGroupMembersRequest{Add: kit.MissingFrom(want, g.Members), Delete: kit.MissingFrom(g.Members, want)}
	if kit.Known(plan.Subgroups) {
		var names []string
		diags.Append(plan.Subgroups.ElementsAs(ctx, &names, false)...)
		wantSub := make([]int64, 0, len(names))
		for _, n := range names {
			sid, ok := dir.ID(n)
			if !ok {
				diags.AddAttributeError(path.Root("subgroups"), summary, fmt.Sprintf("The organization has no user group named %q.", n))
				return
			}
			wantSub = append(wantSub, sid)
		}
		change.AddSubgroups, change.DeleteSubgroups = kit.MissingFrom(wantSub, g.DirectSubgroupIDs), kit.MissingFrom(g.DirectSubgroupIDs, wantSub)
	}
	if diags.HasError() {
		return
	}
	if err := changeMembers(ctx, r.Data, g, change); err != nil {
		kit.AddAPIError(diags, summary, fmt.Sprintf("change the members of user group %q", g.Name), kit.RoleAny, err)
		return
	}
	plan.ID = types.StringValue(strconv.FormatInt(id, 10))
	if !kit.Known(plan.Subgroups) {
		plan.Subgroups = groupNames(g.DirectSubgroupIDs, dir)
	}
}

// Read refreshes the members; a group that is gone or deactivated removes
// the resource from state.
func (r *userGroupMembersResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	kit.Refresh(ctx, r.Data, req, resp, "the user group is gone or deactivated",
		func(ctx context.Context, state *userGroupMembersModel, diags *diag.Diagnostics) bool {
			list, err := kit.UserGroupCollection(r.Data).List(ctx)
			if err != nil {
				kit.AddAPIError(diags, "Unable to Read User Group Members", "list the user groups", kit.RoleAny, err)
				return false
			}
			dir := kit.NewGroupDirectory(list)
			g, ok := dir.ByID[state.GroupID.ValueInt64()]
			if !ok || g.Deactivated {
				return false
			}
			state.Members = kit.Int64Set(g.Members)
			state.Subgroups = groupNames(g.DirectSubgroupIDs, dir)
			return true
		})
}

// Delete removes the members and subgroups the resource manages.
func (r *userGroupMembersResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[userGroupMembersModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	list, err := kit.UserGroupCollection(r.Data).ReadBack(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Remove User Group Members", "list the user groups", kit.RoleAny, err)
		return
	}
	dir := kit.NewGroupDirectory(list)
	g, ok := dir.ByID[state.GroupID.ValueInt64()]
	if !ok {
		return // the group is gone: nothing to remove
	}
	var members []int64
	resp.Diagnostics.Append(state.Members.ElementsAs(ctx, &members, false)...)
	var subgroups []string
	resp.Diagnostics.Append(state.Subgroups.ElementsAs(ctx, &subgroups, false)...)
	change := zulip.UpdateUserGroupMembersRequest{Delete: kit.Intersect(members, g.Members)}
	for _, n := range subgroups {
		if sid, ok := dir.ID(n); ok && slices.Contains(g.DirectSubgroupIDs, sid) {
			change.DeleteSubgroups = append(change.DeleteSubgroups, sid)
		}
	}
	if err := changeMembers(ctx, r.Data, g, change); err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Remove User Group Members", fmt.Sprintf("remove the members of user group %q", g.Name), kit.RoleAny, err)
	}
}

// ImportState adopts a group's members by the group's name or id.
func (r *userGroupMembersResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	g, ok := groupByNameOrID(ctx, r.Data, req.ID, &resp.Diagnostics)
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), strconv.FormatInt(g.ID, 10))...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("group_id"), g.ID)...)
}

// readGroup reads a group afresh (after this run's writes), with the
// directory of groups; a missing or deactivated group is an error.
func readGroup(ctx context.Context, d *kit.ProviderData, id int64, summary string, diags *diag.Diagnostics) (zulip.UserGroup, kit.GroupDirectory, bool) {
	list, err := kit.UserGroupCollection(d).ReadBack(ctx)
	if err != nil {
		kit.AddAPIError(diags, summary, "list the user groups", kit.RoleAny, err)
		return zulip.UserGroup{}, kit.GroupDirectory{}, false
	}
	dir := kit.NewGroupDirectory(list)
	g, ok := dir.ByID[id]
	switch {
	case !ok:
		diags.AddAttributeError(path.Root("group_id"), summary, fmt.Sprintf("The organization has no user group with id %d.", id))
	case g.IsSystemGroup:
		diags.AddAttributeError(path.Root("group_id"), summary,
			fmt.Sprintf("%q is a system group: Zulip manages its members by the users' roles.", g.Name))
	default:
		return g, dir, true
	}
	return zulip.UserGroup{}, kit.GroupDirectory{}, false
}

// checkMembershipGroup fails a plan whose group the organization does not
// have, or that is a system group (whose members follow the users' roles).
// It returns the group as this run saw it, when there is one to manage.
func checkMembershipGroup(ctx context.Context, d *kit.ProviderData, id int64, diags *diag.Diagnostics) (zulip.UserGroup, bool) {
	if !d.HasCreds {
		return zulip.UserGroup{}, false
	}
	dir, err := d.Groups(ctx)
	if err != nil {
		return zulip.UserGroup{}, false // the apply will say
	}
	g, ok := dir.ByID[id]
	switch {
	case !ok: // a group this plan creates has no id yet: its reference is unknown, not checked
		diags.AddAttributeError(path.Root("group_id"), "Unknown User Group", fmt.Sprintf("The organization has no user group with id %d.", id))
	case g.IsSystemGroup:
		diags.AddAttributeError(path.Root("group_id"), "System Group",
			fmt.Sprintf("%q is a system group: Zulip manages its members by the users' roles.", g.Name))
	default:
		return g, true
	}
	return zulip.UserGroup{}, false
}

// changeMembers sends one membership change of group g, if there is one, and
// records its effect in the cached list of groups.
func changeMembers(ctx context.Context, d *kit.ProviderData, g zulip.UserGroup, change zulip.UpdateUserGroupMembersRequest) error {
	if len(change.Add)+len(change.Delete)+len(change.AddSubgroups)+len(change.DeleteSubgroups) == 0 {
		return nil
	}
	return kit.UserGroupCollection(d).WriteKnown(ctx, func(ctx context.Context) (func([]zulip.UserGroup) []zulip.UserGroup, error) {
		if err := d.Client.UpdateUserGroupMembers(ctx, g.ID, change); err != nil {
			return nil, err
		}
		return func(list []zulip.UserGroup) []zulip.UserGroup {
			for i, v := range list {
				if v.ID == g.ID {
					v.Members = kit.SortedUnion(kit.MissingFrom(v.Members, change.Delete), change.Add)
					v.DirectSubgroupIDs = kit.SortedUnion(kit.MissingFrom(v.DirectSubgroupIDs, change.DeleteSubgroups), change.AddSubgroups)
					list = slices.Clone(list)
					list[i] = v
				}
			}
			return list
		}, nil
	})
}

// groupByNameOrID finds a custom, active group by import id.
func groupByNameOrID(ctx context.Context, d *kit.ProviderData, id string, diags *diag.Diagnostics) (zulip.UserGroup, bool) {
	list, err := kit.UserGroupCollection(d).List(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Import", "list the user groups", kit.RoleAny, err)
		return zulip.UserGroup{}, false
	}
	for _, g := range list {
		if g.Name == id || strconv.FormatInt(g.ID, 10) == id {
			if g.IsSystemGroup || g.Deactivated {
				diags.AddError("Unable to Import", fmt.Sprintf("%q is a system or deactivated group, whose members cannot be managed.", g.Name))
				return zulip.UserGroup{}, false
			}
			return g, true
		}
	}
	diags.AddError("User Group Not Found", fmt.Sprintf("No user group is named %q or has that id (GET /api/v1/user_groups lists them).", id))
	return zulip.UserGroup{}, false
}

// noteMembership records a group whose membership a resource of this plan
// manages, and warns when an authoritative and an additive resource manage
// the same group (each apply would undo the other's work).
func noteMembership(d *kit.ProviderData, groupID int64, authoritative bool, diags *diag.Diagnostics) {
	d.NoteMembers("members of "+strconv.FormatInt(groupID, 10), authoritative, "Group Managed Twice",
		fmt.Sprintf("User group %d has both a zulip_user_group_members resource (all members) and "+
			"zulip_user_group_membership resources (one member each) in this configuration. The authoritative "+
			"one removes every member it does not list, so a member added only by a membership resource is "+
			"removed again on the next apply. Use one kind per group.", groupID), diags)
}

// groupNames is a set of group names.
func groupNames(ids []int64, dir kit.GroupDirectory) types.Set {
	v := make([]attr.Value, len(ids))
	for i, id := range ids {
		v[i] = types.StringValue(dir.Name(id))
	}
	return types.SetValueMust(types.StringType, v)
}
