package groups

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// featureUserGroupsDeactivated is the feature level of include_deactivated_groups
// (digest §7.3; FL290 called it allow_deactivated).
const featureUserGroupsDeactivated = 294

// userGroupsDataSourceModel is the zulip_user_groups configuration and result.
type userGroupsDataSourceModel struct {
	Name                     types.String     `tfsdk:"name"`
	IncludeDeactivatedGroups types.Bool       `tfsdk:"include_deactivated_groups"`
	UserGroups               []userGroupModel `tfsdk:"user_groups"`
}

// userGroupModel is one user group of the result.
type userGroupModel struct {
	ID                types.Int64  `tfsdk:"id"`
	Name              types.String `tfsdk:"name"`
	Description       types.String `tfsdk:"description"`
	Members           []int64      `tfsdk:"members"`
	DirectSubgroupIDs []int64      `tfsdk:"direct_subgroup_ids"`
	IsSystemGroup     types.Bool   `tfsdk:"is_system_group"`
	DateCreated       types.Int64  `tfsdk:"date_created"`
	CreatorID         types.Int64  `tfsdk:"creator_id"`
	Deactivated       types.Bool   `tfsdk:"deactivated"`
	userGroupPermissions
}

// userGroupsData lists the organization's user groups.
var userGroupsData = &kit.DataSource[userGroupsDataSourceModel]{Name: "user_groups",
	AttrLevels: map[string]int{"include_deactivated_groups": featureUserGroupsDeactivated}, Read: readUserGroups,
	Schema: userGroupsSchema(),
}

// userGroupsSchema describes the data source.
func userGroupsSchema() schema.Schema {
	num := func(desc string) schema.Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	ids := func(desc string) schema.Attribute {
		return schema.ListAttribute{ElementType: types.Int64Type, Computed: true, MarkdownDescription: desc}
	}
	return schema.Schema{
		MarkdownDescription: "The organization's user groups, system groups (`role:owners`, `role:members`, ...) " +
			"included, from `GET /api/v1/user_groups`. Zulip refuses to list user groups to guests, and, before " +
			"feature level 496, to bots. Use `name` to pick one group.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Keep only the group with this name (exact, case-insensitive). A deactivated group is " +
					"found only with `include_deactivated_groups = true`; without a match the list is empty.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"include_deactivated_groups": schema.BoolAttribute{
				Optional:            true,
				Computed:            true,
				MarkdownDescription: "Also return deactivated groups. Default `false`, as in Zulip. Setting `true` needs Zulip feature level 294.",
			},
			"user_groups": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching user groups, in the server's order (by id).",
				NestedObject: schema.NestedAttributeObject{
					Attributes: userGroupPermissionsDataAttributes(map[string]schema.Attribute{
						"id":                  num("The group's id."),
						"name":                kit.ComputedString("The group's name; system groups are named `role:...`."),
						"description":         kit.ComputedString("The group's description."),
						"members":             ids("Ids of the group's direct members (active users only on current servers); members of subgroups are not repeated here."),
						"direct_subgroup_ids": ids("Ids of the groups whose members are also members of this group."),
						"is_system_group":     kit.ComputedBool("Whether this is a system group managed by Zulip (roles, `role:nobody`, `role:internet`)."),
						"date_created":        num("When the group was created, in UNIX seconds; null when Zulip has no record of it (groups older than feature level 292, and usually system groups)."),
						"creator_id":          num("The id of the user who created the group; null when unknown, and for system groups."),
						"deactivated":         kit.ComputedBool("Whether the group is deactivated."),
					}),
				},
			},
		},
	}
}

// readUserGroups fills the model from the server.
func readUserGroups(ctx context.Context, d *kit.ProviderData, m *userGroupsDataSourceModel, diags *diag.Diagnostics) {
	// One list of every group per run, shared with the permissions that name
	// groups (deactivated ones included).
	list, err := kit.UserGroupCollection(d).List(ctx)
	if err != nil {
		// Zulip refuses guests ("Not allowed for guest users") and, before
		// feature level 496, bots with a plain BAD_REQUEST, not
		// UNAUTHORIZED_PRINCIPAL; this endpoint takes no other input that a 400
		// could be about, so say what the account lacks.
		if kit.IsClientError(err) && !zulip.IsUnauthorized(err) && !zulip.IsRateLimited(err) && !zulip.IsNotFound(err) {
			who, use := "guests", "a member, moderator, administrator or owner"
			if d.FeatureLevel() < featureBotsOnGroupEndpoints {
				who = fmt.Sprintf("guests or (before feature level %d; this server has %d) bots", featureBotsOnGroupEndpoints, d.FeatureLevel())
				use += " (or a bot, on Zulip with feature level 496 or newer)"
			}
			diags.AddError("Unable to List User Groups",
				"The zulip_user_groups data source needs an account that may list user groups: Zulip does not list "+
					"user groups to "+who+". Configure the provider with the API key of "+use+". Server said: "+err.Error())
			return
		}
		kit.AddAPIError(diags, "Unable to List User Groups", "list the user groups", kit.RoleAny, err)
		return
	}
	dir := kit.NewGroupDirectory(list)
	m.UserGroups = make([]userGroupModel, 0, len(list))
	for _, g := range list {
		if (kit.Known(m.Name) && !strings.EqualFold(g.Name, m.Name.ValueString())) || (g.Deactivated && !m.IncludeDeactivatedGroups.ValueBool()) {
			continue
		}
		m.UserGroups = append(m.UserGroups, userGroupFromAPI(g, dir))
	}
	if !kit.Known(m.IncludeDeactivatedGroups) {
		m.IncludeDeactivatedGroups = types.BoolValue(false)
	}
	tflog.Debug(ctx, "listed user groups", map[string]any{"received": len(list), "kept": len(m.UserGroups)})
}

// userGroupFromAPI converts a user group.
func userGroupFromAPI(g zulip.UserGroup, dir kit.GroupDirectory) userGroupModel {
	return userGroupModel{
		ID:                   types.Int64Value(g.ID),
		Name:                 types.StringValue(g.Name),
		Description:          types.StringValue(g.Description),
		Members:              kit.GroupSettingIDs(g.Members),
		DirectSubgroupIDs:    kit.GroupSettingIDs(g.DirectSubgroupIDs),
		IsSystemGroup:        types.BoolValue(g.IsSystemGroup),
		DateCreated:          types.Int64PointerValue(g.DateCreated),
		CreatorID:            types.Int64PointerValue(g.CreatorID),
		Deactivated:          types.BoolValue(g.Deactivated),
		userGroupPermissions: userGroupSettings.FromAPI(&g, dir),
	}
}
