package groups

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// userGroupDataSourceModel is the zulip_user_group data source.
type userGroupDataSourceModel struct {
	ID            types.Int64  `tfsdk:"id"`
	Name          types.String `tfsdk:"name"`
	Description   types.String `tfsdk:"description"`
	Members       types.Set    `tfsdk:"members"`
	Subgroups     types.Set    `tfsdk:"subgroups"`
	IsSystemGroup types.Bool   `tfsdk:"is_system_group"`
	Deactivated   types.Bool   `tfsdk:"deactivated"`
	DateCreated   types.Int64  `tfsdk:"date_created"`
	CreatorID     types.Int64  `tfsdk:"creator_id"`
	userGroupPermissions
}

// userGroupData reads one user group, system and deactivated groups
// included, from the list of groups the run reads once.
var userGroupData = &kit.DataSource[userGroupDataSourceModel]{Name: "user_group", Read: readUserGroup,
	// The id or the name, not both.
	Validators: []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name"))},
	Schema:     userGroupSchema(),
}

// userGroupSchema describes the data source.
func userGroupSchema() schema.Schema {
	attrs := map[string]schema.Attribute{
		"id": schema.Int64Attribute{
			Optional: true, Computed: true,
			MarkdownDescription: "The group's id. Give the id or the name.",
		},
		"name": schema.StringAttribute{
			Optional: true, Computed: true,
			MarkdownDescription: "The group's name (exact); system groups are named `role:members`, `role:administrators`, ...",
		},
		"description": kit.ComputedString("The group's description."),
		"members": schema.SetAttribute{ElementType: types.Int64Type, Computed: true,
			MarkdownDescription: "The ids of the group's direct members (members of subgroups are not repeated)."},
		"subgroups": schema.SetAttribute{ElementType: types.StringType, Computed: true,
			MarkdownDescription: "The names of the group's direct subgroups, whose members are members of this group too."},
		"is_system_group": kit.ComputedBool("Whether Zulip manages the group itself (`role:...`)."),
		"deactivated":     kit.ComputedBool("Whether the group is deactivated."),
		"date_created":    kit.ComputedInt64("When the group was created (UNIX seconds); null when Zulip has no record of it."),
		"creator_id":      kit.ComputedInt64("Who created the group; null when unknown."),
	}
	userGroupPermissionsDataAttributes(attrs)
	return schema.Schema{
		MarkdownDescription: "One user group, by name or id: system groups (`role:...`) and deactivated groups " +
			"included. Needs the credentials of a member or administrator: Zulip refuses to list user groups to " +
			"guests and bots.",
		Attributes: attrs,
	}
}

// readUserGroup fills the model from the server.
func readUserGroup(ctx context.Context, d *kit.ProviderData, m *userGroupDataSourceModel, diags *diag.Diagnostics) {
	list, err := kit.UserGroupCollection(d).List(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read User Group", "list the user groups", kit.RoleAny, err)
		return
	}
	dir := kit.NewGroupDirectory(list)
	var g zulip.UserGroup
	var ok bool
	if kit.Known(m.ID) {
		g, ok = dir.ByID[m.ID.ValueInt64()]
	} else {
		g, ok = dir.ByName[m.Name.ValueString()]
	}
	if !ok {
		what := "named " + strconv.Quote(m.Name.ValueString())
		if kit.Known(m.ID) {
			what = fmt.Sprintf("with id %d", m.ID.ValueInt64())
		}
		diags.AddError("User Group Not Found",
			fmt.Sprintf("The organization has no user group %s (deactivated groups included).", what))
		return
	}
	m.ID, m.Name = types.Int64Value(g.ID), types.StringValue(g.Name)
	m.Description = types.StringValue(g.Description)
	m.IsSystemGroup, m.Deactivated = types.BoolValue(g.IsSystemGroup), types.BoolValue(g.Deactivated)
	m.DateCreated, m.CreatorID = types.Int64PointerValue(g.DateCreated), types.Int64PointerValue(g.CreatorID)
	members := make([]attr.Value, len(g.Members))
	for i, id := range g.Members {
		members[i] = types.Int64Value(id)
	}
	subgroups := make([]attr.Value, len(g.DirectSubgroupIDs))
	for i, id := range g.DirectSubgroupIDs {
		subgroups[i] = types.StringValue(dir.Name(id))
	}
	m.Members = types.SetValueMust(types.Int64Type, members)
	m.Subgroups = types.SetValueMust(types.StringType, subgroups)
	m.userGroupPermissions = userGroupSettings.FromAPI(&g, dir)
}
