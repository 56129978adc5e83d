package groups

// User groups: what the area declares.

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Area declares the area's types (kit.Area).
func Area() kit.Area {
	return kit.Area{
		Resources: []kit.TypeEntry{
			{TypeName: "zulip_user_group", Contract: kit.CollectionObject, NewResource: NewUserGroupResource, Identity: kit.Identity(kit.IdentityOf("name", "The group's name.", true)), Natural: &kit.KeyRule{Attrs: []string{"name"}, Fold: true}, Journaled: true,
				Level: featureUserGroupCreateID,
				Destroy: &kit.Note{Title: "User Group Will Be Deactivated", Detail: "Zulip never deletes user groups: destroying " +
					"deactivates the group, which keeps its members and name. Declaring a group of that name again reactivates it."},
				Adopt: &kit.ImportSource{Stage: kit.StageObjects, List: customGroups,
					ListDescription: "The organization's user groups, without the system groups (`role:members` and the like), which " +
						"Zulip manages itself, and without deactivated groups."}},
			{TypeName: "zulip_user_group_members", Contract: kit.ManagedObject, NewResource: NewUserGroupMembersResource, AttrLevels: map[string]int{"subgroups": featureGroupSubgroupsOnMembers}, Identity: kit.Identity(kit.IdentityOfIDs(kit.GroupIDAttr)),
				Adopt: &kit.ImportSource{Stage: kit.StageMembers, List: customGroups,
					ListDescription: "The members of each user group (not system groups), as the authoritative " +
						"`zulip_user_group_members`, one result per group."}},
			{TypeName: "zulip_user_group_membership", Contract: kit.ManagedObject, NewResource: NewUserGroupMembershipResource, Identity: kit.Identity(kit.IdentityOfIDs(kit.GroupIDAttr, kit.UserIDAttr)),
				Adopt: &kit.ImportSource{Stage: kit.StageOwn, List: membershipsOfUser, ListOnly: true,
					ListDescription: "The user groups one user is a direct member of (not system groups), as additive " +
						"`zulip_user_group_membership`s, shown by group name: to manage one person's memberships where the groups' " +
						"members are not managed whole. Do not list these beside `zulip_user_group_members` of the same groups: " +
						"the two would fight.",
					Filters: kit.UserFilter("memberships")}},
		},
		DataSources: []func() datasource.DataSource{userGroupsData.New, userGroupData.New},
	}
}

// customGroups are the user groups that are not system groups nor
// deactivated.
var customGroups = kit.ImportFrom(kit.UserGroupCollection, func(v zulip.UserGroup) (string, string, bool) {
	return v.Name, v.Name, !v.IsSystemGroup && !v.Deactivated
})

// membershipsOfUser lists the custom all a user (the user_id filter) is a
// direct member of.
func membershipsOfUser(ctx context.Context, d *kit.ProviderData, f kit.FilterValues) ([]kit.ImportTarget, error) {
	user := f.Number(kit.FilterUserID)
	all, err := kit.UserGroupCollection(d).List(ctx)
	if err != nil {
		return nil, err
	}
	var out []kit.ImportTarget
	for _, g := range all {
		if !g.IsSystemGroup && !g.Deactivated && slices.Contains(g.Members, user) {
			out = append(out, kit.ImportTarget{Name: g.Name, ID: membershipID(g.ID, user)})
		}
	}
	return out, nil
}
