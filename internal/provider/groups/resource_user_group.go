package groups

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*userGroupResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*userGroupResource)(nil)
)

// Feature levels of user group management.
const (
	// featureUserGroupCreateID: POST /user_groups/create answers the new
	// group's id (FL317), and deactivated groups are listed (FL294) and
	// deactivated through POST /user_groups/{id}/deactivate (FL290).
	featureUserGroupCreateID = 317
	// featureUserGroupReactivate: PATCH /user_groups/{id} deactivated=false.
	featureUserGroupReactivate = 386
	// featureBotsOnGroupEndpoints: bots (other than incoming webhook bots) may
	// use the user group endpoints (zulip/zulip#39116).
	featureBotsOnGroupEndpoints = 496
)

// maxUserGroupNameLength is Zulip's UserGroup.MAX_NAME_LENGTH.
const maxUserGroupNameLength = 100

// userGroupReservedPrefixes are the name prefixes Zulip keeps for system
// groups and mention syntax (UserGroup.INVALID_NAME_PREFIXES, "role:" for
// system groups).
var userGroupReservedPrefixes = []string{"role:", "@", "user:", "stream:", "channel:"}

// NewUserGroupResource returns the zulip_user_group resource.
func NewUserGroupResource() resource.Resource {
	return &userGroupResource{ObjectResource: kit.ObjectResourceOf(&userGroups)}
}

// userGroupResource manages one custom user group (not its members: see
// zulip_user_group_members and zulip_user_group_membership).
type userGroupResource struct {
	kit.ObjectResource[userGroupResourceModel, zulip.UserGroup]
}

// userGroupResourceModel is the zulip_user_group state.
type userGroupResourceModel struct {
	ID          types.Int64  `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	DateCreated types.Int64  `tfsdk:"date_created"`
	CreatorID   types.Int64  `tfsdk:"creator_id"`
	userGroupPermissions
}

// Schema describes the resource.
func (r *userGroupResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		"id": kit.StableInt64("The group's id."),
		"name": schema.StringAttribute{
			Required: true,
			MarkdownDescription: fmt.Sprintf("The group's name, unique in the organization (deactivated groups "+
				"included), at most %d characters, not starting with `role:`, `@`, `user:`, `stream:` or `channel:`. "+
				"Permissions refer to the group by it.", maxUserGroupNameLength),
			Validators: []validator.String{
				stringvalidator.LengthBetween(1, maxUserGroupNameLength),
				validators.Titled("Invalid User Group Name", "must not start with a reserved prefix", checkGroupNamePrefix),
			},
		},
		"description": schema.StringAttribute{
			Optional:            true,
			Computed:            true,
			Default:             stringdefault.StaticString(""),
			MarkdownDescription: "What the group is for. Default empty.",
		},
		"date_created": kit.StableInt64("When the group was created (UNIX seconds)."),
		"creator_id":   kit.StableInt64("The id of the user who created the group."),
	}
	userGroupSettings.Attributes(attrs)
	resp.Schema = schema.Schema{
		MarkdownDescription: "A custom user group: its name, description and who may use and manage it. Members " +
			"are managed by `zulip_user_group_members` (all of them) or `zulip_user_group_membership` (one each). " +
			"Zulip never deletes a group: destroying this resource **deactivates** it (its name stays taken), and " +
			"Zulip refuses while a permission setting still uses the group, naming each use. Declaring a group " +
			"whose name belongs to a deactivated group reactivates that group. System groups (`role:...`) cannot " +
			"be managed. Needs Zulip feature level 317 (Zulip 10.0) or newer.",
		Attributes: attrs,
	}
}

// checkGroupNamePrefix refuses names Zulip keeps for system groups and
// mention syntax.
func checkGroupNamePrefix(name string) error {
	for _, p := range userGroupReservedPrefixes {
		if strings.HasPrefix(name, p) {
			what := "is reserved"
			if p == "role:" {
				what = "is reserved for system groups, which Zulip manages itself and this provider cannot"
			}
			return fmt.Errorf("The name %q starts with %q, which %s (Zulip refuses it: \"User group name cannot start "+
				"with '%s'.\").", name, p, what, p)
		}
	}
	return nil
}

// ModifyPlan checks at plan time what the apply would fail on: the server's
// feature level, a name in use by an active group (with an import block), the
// groups and users the permissions name; it warns when the create will
// reactivate a deactivated group.
func (r *userGroupResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, ok := kit.Planned[userGroupResourceModel](ctx, req, &resp.Diagnostics)
	if !ok || !r.Data.KnowsServer() {
		return
	}
	if kit.Known(plan.Name) {
		r.Data.NotePlannedName("zulip_user_group", plan.Name.ValueString())
	}
	r.checkSettings(ctx, plan, &resp.Diagnostics)
	if !r.Data.HasCreds || resp.Diagnostics.HasError() {
		return
	}
	if !req.State.Raw.IsNull() {
		r.checkManageExisting(ctx, plan, &resp.Diagnostics)
		return
	}
	if kit.Known(plan.Name) {
		r.checkNewName(ctx, plan.Name.ValueString(), &resp.Diagnostics)
	}
}

// checkSettings checks each permission setting the plan sets: the server's
// feature level for it, then its value.
func (r *userGroupResource) checkSettings(ctx context.Context, plan userGroupResourceModel, diags *diag.Diagnostics) {
	userGroupSettings.Check(ctx, r.Data, &plan.userGroupPermissions, diags)
}

// checkManageExisting checks that the provider's account may manage the
// group the state holds, when the run's list of groups has it.
func (r *userGroupResource) checkManageExisting(ctx context.Context, plan userGroupResourceModel, diags *diag.Diagnostics) {
	if dir, err := r.Data.Groups(ctx); err == nil && kit.Known(plan.ID) {
		if g, ok := dir.ByID[plan.ID.ValueInt64()]; ok {
			r.requireManage(ctx, g, diags)
		}
	}
}

// checkNewName checks the name of a new group: it must be free (and the
// account allowed to create groups), or belong to a deactivated group, which
// the create reactivates, or to a group this configuration replaces or an
// interrupted apply made. A system group's or an active group's name fails
// the plan, the latter with an import block.
func (r *userGroupResource) checkNewName(ctx context.Context, name string, diags *diag.Diagnostics) {
	dir, err := r.Data.Groups(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read User Groups", "list the user groups to check the name", kit.RoleAny, err)
		return
	}
	g, ok := dir.ByName[name]
	switch {
	case !ok:
		kit.RequirePermission(ctx, r.Data, "Creating a user group", path.Empty(), diags, kit.RealmPermission(ctx, r.Data, "can_create_groups"))
		return
	case g.IsSystemGroup:
		diags.AddAttributeError(path.Root("name"), "System Group",
			fmt.Sprintf("%q is a system group, which Zulip manages itself; it cannot be managed by Terraform. "+
				"Refer to it in permissions by its name instead.", g.Name))
		return
	}
	at := path.Root("name")
	switch r.Data.HoldingOf(ctx, "zulip_user_group", g.ID, g.Deactivated) {
	case kit.KeyReplaced:
		// Reactivating is what a replacement needs of the server.
		if err := r.Data.RequireFeatureLevel(featureUserGroupReactivate, "replacing the user group "+strconv.Quote(g.Name)); err != nil {
			diags.AddAttributeError(at, "User Group Cannot Be Replaced",
				fmt.Sprintf("Zulip keeps the name of a deactivated group, so replacing the group %q deactivates it and then "+
					"has to reactivate it, and %s. Run `terraform untaint` on it (or drop -replace) to keep it as it is, "+
					"or give the group a new name.", g.Name, err))
			return
		}
		groupRetirement.WarnReplacing(at, g.ID, g.Name, diags)
	case kit.KeyRetired:
		if err := r.Data.RequireFeatureLevel(featureUserGroupReactivate, "reactivating the deactivated group "+strconv.Quote(g.Name)); err != nil {
			diags.AddAttributeError(at, "Zulip Server Too Old", err.Error())
			return
		}
		r.requireManage(ctx, g, diags)
		groupRetirement.WarnReviving(at, g.ID, g.Name, diags)
	case kit.KeyTaken:
		groupRetirement.Taken(at, g.ID, g.Name, diags)
	}
}

// groupRetirement words what a create does with the group that holds its
// name: Zulip deactivates groups and keeps their names.
var groupRetirement = kit.Retirement{TypeName: "zulip_user_group", What: "user group", Short: "group",
	Retired: "deactivated", Revived: "reactivated", Keeps: ", with its members,"}

// requireManage fails the plan of a change to the group g that the
// provider's account may not make: it needs the organization's
// can_manage_all_groups or the group's can_manage_group.
func (r *userGroupResource) requireManage(ctx context.Context, g zulip.UserGroup, diags *diag.Diagnostics) {
	kit.RequirePermission(ctx, r.Data, fmt.Sprintf("Changing the user group %q", g.Name), path.Empty(), diags, kit.RealmPermission(ctx, r.Data, "can_manage_all_groups"), kit.HeldBy{What: "the group's can_manage_group", Kind: kit.PermissionOfGroup, Setting: "can_manage_group", Value: g.CanManageGroup})
}

// Create makes the group, or reactivates the deactivated group of that name.
func (r *userGroupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[userGroupResourceModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	dir, err := r.Data.Groups(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Create User Group", "list the user groups", kit.RoleAny, err)
		return
	}
	name := plan.Name.ValueString()
	if g, ok := dir.ByName[name]; ok && g.Deactivated && !g.IsSystemGroup {
		r.reactivate(ctx, plan, g, dir, resp)
		return
	}
	perms, err := r.createPermissions(ctx, plan, dir)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Create User Group", err.Error())
		return
	}
	description := plan.Description.ValueString()
	key, ok := userGroupCreation(r.Data, name, description, perms).Create(ctx, r.Data, &resp.Diagnostics)
	if !ok {
		return
	}
	userGroups.FinishCreate(ctx, r.Data, &plan, key, resp)
}

// createPermissions are the configured settings of a new group.
func (r *userGroupResource) createPermissions(ctx context.Context, plan userGroupResourceModel, dir kit.GroupDirectory) (zulip.UserGroupPermissions, error) {
	var perms zulip.UserGroupPermissions
	if err := userGroupSettings.Values(ctx, &plan.userGroupPermissions, dir, &perms); err != nil {
		return perms, err
	}
	return perms, nil
}

// reactivate takes over the deactivated group g: reactivates it and sets the
// configured description and settings, in one request.
func (r *userGroupResource) reactivate(ctx context.Context, plan userGroupResourceModel, g zulip.UserGroup, dir kit.GroupDirectory, resp *resource.CreateResponse) {
	var prior userGroupResourceModel
	userGroupResourceFromAPI(kit.ReadAll(ctx), r.Data, g, &prior, &resp.Diagnostics)
	update, err := r.update(ctx, plan, prior, dir)
	if err != nil {
		resp.Diagnostics.AddError("Unable to Reactivate User Group", err.Error())
		return
	}
	update.Name = nil // the same name
	update.Reactivate = true
	userGroups.Revive(ctx, r.Data, groupRetirement, &plan, g.ID, g.Name, kit.RoleAny, func(ctx context.Context) error {
		return kit.UserGroupCollection(r.Data).Write(ctx, func(ctx context.Context) error {
			return r.Data.Client.UpdateUserGroup(ctx, g.ID, update)
		})
	}, resp)
}

// update is the request that takes a group from prior to plan: changed name
// and description, and each setting the plan changes as {new, old}.
func (r *userGroupResource) update(ctx context.Context, plan, prior userGroupResourceModel, dir kit.GroupDirectory) (zulip.UpdateUserGroupRequest, error) {
	var req zulip.UpdateUserGroupRequest
	if !plan.Name.Equal(prior.Name) {
		name := plan.Name.ValueString()
		req.Name = &name
	}
	if kit.Known(plan.Description) && !plan.Description.Equal(prior.Description) {
		d := plan.Description.ValueString()
		req.Description = &d
	}
	if err := userGroupSettings.Changes(ctx, &plan.userGroupPermissions, &prior.userGroupPermissions, dir, &req.Permissions); err != nil {
		return req, err
	}
	return req, nil
}

// Update changes the name, description and settings in place.
func (r *userGroupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	kit.UpdateWithPermissions(ctx, userGroups, r.Data, req, resp, func(m *userGroupResourceModel) string { return m.Name.ValueString() },
		r.update, func(ctx context.Context, state userGroupResourceModel, update zulip.UpdateUserGroupRequest) error {
			err := r.Data.Client.UpdateUserGroup(ctx, state.ID.ValueInt64(), update)
			if err == nil && update.Name != nil {
				// The permissions this apply changes next may name the group
				// as the plan read it (priorID).
				r.Data.NoteGroupRename(state.ID.ValueInt64(), state.Name.ValueString(), *update.Name)
			}
			return err
		})
}

// Delete deactivates the group. While a permission uses it Zulip refuses;
// the error names each use.
func (r *userGroupResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[userGroupResourceModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueInt64()
	// The run's list keeps the group, deactivated as Zulip keeps it, so that the
	// create of a replacement planned after this delete reactivates it.
	err := kit.UserGroupCollection(r.Data).WriteKnown(ctx, func(ctx context.Context) (func([]zulip.UserGroup) []zulip.UserGroup, error) {
		if err := r.Data.Client.DeactivateUserGroup(ctx, id); err != nil {
			return nil, err
		}
		return func(list []zulip.UserGroup) []zulip.UserGroup {
			return kit.ChangedIn(list, func(g *zulip.UserGroup) bool { return g.ID == id }, func(g *zulip.UserGroup) { g.Deactivated = true })
		}, nil
	})
	switch {
	case err == nil:
		tflog.Info(ctx, "deactivated the user group (Zulip keeps deactivated groups)", map[string]any{"id": id})
	case zulip.IsNotFound(err):
	case zulip.IsGroupInUse(err):
		resp.Diagnostics.AddError("User Group In Use",
			fmt.Sprintf("Zulip cannot deactivate user group %q (id %d) while it is used:\n\n%s\n\nChange those "+
				"settings to another group first (in this configuration: make them refer to another group, or "+
				"remove the subgroup, and apply), then destroy the group. Server said: %s",
				state.Name.ValueString(), id, r.describeObjections(ctx, zulip.GroupObjectionsOf(err)), err))
	default:
		// A repeat of a deactivation that succeeded unseen answers that the group is deactivated.
		if g, ok, lerr := r.find(ctx, id); lerr == nil && ok && g.Deactivated {
			return
		}
		kit.AddAPIError(&resp.Diagnostics, "Unable to Deactivate User Group", "deactivate the user group", kit.RoleAny, err)
	}
}

// find reads a group from a fresh list.
func (r *userGroupResource) find(ctx context.Context, id int64) (zulip.UserGroup, bool, error) {
	list, err := kit.UserGroupCollection(r.Data).List(ctx)
	if err != nil {
		return zulip.UserGroup{}, false, err
	}
	i := slices.IndexFunc(list, func(g zulip.UserGroup) bool { return g.ID == id })
	if i < 0 {
		return zulip.UserGroup{}, false, nil
	}
	return list[i], true, nil
}

// describeObjections says, one line each, where the group is used.
func (r *userGroupResource) describeObjections(ctx context.Context, objections []zulip.GroupObjection) string {
	if len(objections) == 0 {
		return "- (the server did not say where)"
	}
	dir, _ := r.Data.Groups(ctx)
	channelName := func(id int64) string {
		all, archived := true, false
		if channels, err := r.Data.Client.ListChannels(ctx, zulip.ListChannelsOptions{IncludeAll: &all, ExcludeArchived: &archived}); err == nil {
			for _, c := range channels {
				if c.StreamID == id {
					return fmt.Sprintf("channel #%s (id %d)", c.Name, id)
				}
			}
		}
		return fmt.Sprintf("channel %d", id)
	}
	var lines []string
	for _, o := range objections {
		settings := strings.Join(o.Settings, ", ")
		switch o.Type {
		case "realm":
			lines = append(lines, "- the organization's settings: "+settings)
		case "channel":
			lines = append(lines, fmt.Sprintf("- %s: %s", channelName(o.ChannelID), settings))
		case "user_group":
			lines = append(lines, fmt.Sprintf("- user group %q (id %d): %s", dir.Name(o.GroupID), o.GroupID, settings))
		case "subgroup":
			names := make([]string, len(o.SupergroupIDs))
			for i, id := range o.SupergroupIDs {
				names[i] = strconv.Quote(dir.Name(id))
			}
			lines = append(lines, "- a subgroup of the user groups "+strings.Join(names, ", "))
		default:
			lines = append(lines, fmt.Sprintf("- %s: %s", o.Type, settings))
		}
	}
	return strings.Join(lines, "\n")
}

// ImportState adopts a custom group by name or id.
func (r *userGroupResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	byKey := kit.ByNameOrID("zulip_user_group", func(g zulip.UserGroup) int64 { return g.ID }, func(g zulip.UserGroup) string { return g.Name }, false)
	userGroups.Import(ctx, r.Data, req, resp, func(id string) (func(zulip.UserGroup) bool, error) {
		if strings.HasPrefix(id, "role:") {
			return nil, fmt.Errorf("%q is a system group, which Zulip manages itself; it cannot be managed by Terraform", id)
		}
		match, err := byKey(id)
		if err != nil {
			return nil, err
		}
		return func(g zulip.UserGroup) bool { return match(g) && !g.IsSystemGroup && !g.Deactivated }, nil
	})
}

// userGroups is the kit's skeleton for zulip_user_group. A deactivated group
// is not listed as the resource's object: its resource is gone from state, and
// the next plan reactivates it.
var userGroups = kit.Objects[userGroupResourceModel, zulip.UserGroup]{
	TypeName: "zulip_user_group", What: "user group", Role: kit.RoleAny,
	Coll:    activeUserGroups,
	IDOf:    func(g zulip.UserGroup) int64 { return g.ID },
	ID:      func(m *userGroupResourceModel) *types.Int64 { return &m.ID },
	FromAPI: userGroupResourceFromAPI,
	ImportHint: "A user group is imported by its name or its numeric id; the organization's groups are listed in " +
		"its settings under User groups (GET /api/v1/user_groups). Deactivated groups are reactivated by declaring " +
		"them, not imported.",
}

// activeUserGroups is the organization's custom groups that are active, from
// the one list of groups the run reads.
func activeUserGroups(d *kit.ProviderData) *kit.Collection[zulip.UserGroup] {
	all := kit.UserGroupCollection(d)
	return &kit.Collection[zulip.UserGroup]{Name: all.Name, Cache: all.Cache, Fetch: all.Fetch, Filter: func(g zulip.UserGroup) bool {
		return !g.Deactivated && !g.IsSystemGroup
	}}
}

// userGroupCreation is the create of a group; its natural key is its name.
func userGroupCreation(d *kit.ProviderData, name, description string, perms zulip.UserGroupPermissions) kit.Creation[userGroupResourceModel, zulip.UserGroup] {
	return kit.Creation[userGroupResourceModel, zulip.UserGroup]{
		Objects: userGroups,
		Send: func(ctx context.Context) (string, error) {
			id, err := d.Client.CreateUserGroup(ctx, zulip.CreateUserGroupRequest{
				Name: name, Description: description, Members: []int64{}, Permissions: perms,
			})
			return strconv.FormatInt(id, 10), err
		},
		SameKey: func(g zulip.UserGroup) bool { return g.Name == name },
		Matches: func(g zulip.UserGroup) bool { return g.Name == name && g.Description == description },
	}
}

// userGroupResourceFromAPI copies a group into the resource model.
func userGroupResourceFromAPI(ctx context.Context, d *kit.ProviderData, g zulip.UserGroup, m *userGroupResourceModel, diags *diag.Diagnostics) {
	m.ID = types.Int64Value(g.ID)
	m.Name = types.StringValue(g.Name)
	m.Description = types.StringValue(g.Description)
	m.DateCreated = types.Int64PointerValue(g.DateCreated)
	m.CreatorID = types.Int64PointerValue(g.CreatorID)
	dir, err := d.Groups(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read User Groups", "list the user groups to name the groups in permissions", kit.RoleAny, err)
		return
	}
	userGroupSettings.Read(ctx, &m.userGroupPermissions, &g, dir)
}
