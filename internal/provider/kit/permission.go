package kit

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// A permission is one of Zulip's group-setting values (can_send_message_group,
// can_manage_group, ...), in the one Terraform shape every such attribute
// shares: { groups = [names], users = [ids] }, both sets. Zulip's value is a
// group id, or an anonymous group {direct_members, direct_subgroups}; the
// server turns an anonymous group of exactly one subgroup and no members into
// that group's id, so both forms read as the same Terraform value, and a
// configuration never diffs against its own canonical form.

// permissionModel is a permission's Terraform value.
type permissionModel struct {
	Groups types.Set `tfsdk:"groups"`
	Users  types.Set `tfsdk:"users"`
}

// PermissionAttrTypes are the attribute types of a permission object.
var PermissionAttrTypes = map[string]attr.Type{
	"groups": types.SetType{ElemType: types.StringType},
	"users":  types.SetType{ElemType: types.Int64Type},
}

// permissionGuide is the documentation section every permission attribute
// links to.
const permissionGuide = "[Permissions](../guides/permissions.md)"

// PermissionSetting describes one permission attribute of a resource: its
// name (Zulip's, which is also the attribute's), what completes "Who may ...",
// and the feature level that introduced it (0: every supported server).
type PermissionSetting struct {
	Name  string
	What  string
	Level int
}

// PermissionAttribute is the schema of a managed permission: set, it is
// managed; left out, the server's value is kept and only shown.
func PermissionAttribute(s PermissionSetting) schema.SingleNestedAttribute {
	desc := "Who may " + s.What + ": `{ groups = [group names], users = [user ids] }` (see " + permissionGuide +
		"). Managed only when set; left out, the organization's current value is kept."
	if s.Level > 0 {
		desc += fmt.Sprintf(" Needs Zulip feature level %d (%s) or newer.", s.Level, zulipVersionOf(s.Level))
	}
	empty := func(t attr.Type) types.Set { return types.SetValueMust(t, []attr.Value{}) }
	return schema.SingleNestedAttribute{
		Optional:            true,
		Computed:            true,
		MarkdownDescription: desc,
		PlanModifiers:       []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
		Validators:          []validator.Object{notEmptyPermission{}},
		Attributes: map[string]schema.Attribute{
			"groups": schema.SetAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				Default:     setdefault.StaticValue(empty(types.StringType)),
				MarkdownDescription: "User groups by name; system groups by their `role:` names (`role:everyone`, " +
					"`role:members`, `role:fullmembers`, `role:moderators`, `role:administrators`, `role:owners`, " +
					"`role:nobody`, `role:internet`).",
			},
			"users": schema.SetAttribute{
				ElementType:         types.Int64Type,
				Optional:            true,
				Computed:            true,
				Default:             setdefault.StaticValue(empty(types.Int64Type)),
				MarkdownDescription: "Users by id, e.g. `zulip_user.ann.id`.",
			},
		},
	}
}

// ObjectPermissionAttribute is the schema of a permission of an object a
// configuration has many of (a channel, a user group): set, it is managed and
// kept in state; left out, the organization's value is kept and the state
// holds null (the framework then has nothing to walk for it), except after an
// import, which reads every permission, so that the configuration it generates
// and the import's plan are exact.
func ObjectPermissionAttribute(s PermissionSetting) schema.SingleNestedAttribute {
	a := PermissionAttribute(s)
	a.MarkdownDescription = strings.Replace(a.MarkdownDescription,
		"left out, the organization's current value is kept.",
		"left out, the organization's current value is kept and the state holds it only when the object was imported.", 1)
	a.PlanModifiers = []planmodifier.Object{unsetKeepsState{}}
	return a
}

// unsetKeepsState plans a permission the configuration leaves out as the state
// holds it: null at create, and whatever an import read after one.
type unsetKeepsState struct{}

func (unsetKeepsState) Description(context.Context) string {
	return "left out, the value in state is kept (null on a create)"
}

func (m unsetKeepsState) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (unsetKeepsState) PlanModifyObject(_ context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if req.ConfigValue.IsNull() {
		resp.PlanValue = req.StateValue
	}
}

// notEmptyPermission refuses a permission of no groups and no users: Zulip
// stores it as the role:nobody group, so it would read back as that and never
// match the configuration.
type notEmptyPermission struct{}

func (notEmptyPermission) Description(context.Context) string {
	return "must name at least one group or user (role:nobody for nobody)"
}

func (v notEmptyPermission) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (notEmptyPermission) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	attrs := req.ConfigValue.Attributes()
	empty := func(name string) bool {
		set, ok := attrs[name].(types.Set)
		return ok && !set.IsUnknown() && len(set.Elements()) == 0
	}
	if empty("groups") && empty("users") {
		resp.Diagnostics.AddAttributeError(req.Path, "Empty Permission",
			`A permission must name at least one group or user. For nobody, write { groups = ["role:nobody"] }: `+
				"Zulip stores an empty value as that group.")
	}
}

// GroupDirectory resolves group names and ids: the organization's groups,
// deactivated ones included, read once per run, with the renames this run
// made since applied to them.
type GroupDirectory struct {
	ByID   map[int64]zulip.UserGroup
	ByName map[string]zulip.UserGroup
	// former are the names this run's renames took from a group, each with the
	// group that had it when the plan read the groups (priorID).
	former map[string]int64
}

// cacheUserGroups is the cache key of the organization's groups.
const cacheUserGroups = "user groups"

// UserGroupCollection is the organization's groups, deactivated included.
func UserGroupCollection(d *ProviderData) *Collection[zulip.UserGroup] {
	return newCollection(d, cacheUserGroups, func(ctx context.Context) ([]zulip.UserGroup, error) {
		all := true
		return d.Client.ListUserGroups(ctx, zulip.ListUserGroupsOptions{IncludeDeactivatedGroups: &all})
	})
}

// NewGroupDirectory indexes a list of groups.
func NewGroupDirectory(groups []zulip.UserGroup) GroupDirectory {
	dir := GroupDirectory{ByID: make(map[int64]zulip.UserGroup, len(groups)), ByName: make(map[string]zulip.UserGroup, len(groups))}
	for _, g := range groups {
		dir.ByID[g.ID] = g
		dir.ByName[g.Name] = g
	}
	return dir
}

// Groups returns the directory of the organization's groups as this run
// last saw them, with the renames it made since (a copy read before one of
// them still names the group as it is now).
func (d *ProviderData) Groups(ctx context.Context) (GroupDirectory, error) {
	list, err := UserGroupCollection(d).LastSeen(ctx)
	if err != nil {
		return GroupDirectory{}, err
	}
	dir := NewGroupDirectory(list)
	dir.applyRenames(d.groupRenames().list())
	return dir, nil
}

// groupRename is a rename of a group that this run made: id was from, and is to.
type groupRename struct {
	id       int64
	from, to string
}

// groupRenameLog is the renames of groups a run made, in order.
type groupRenameLog struct {
	mu   sync.Mutex
	done []groupRename
}

// add records a rename.
func (l *groupRenameLog) add(r groupRename) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done = append(l.done, r)
}

// list is the renames made so far.
func (l *groupRenameLog) list() []groupRename {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.done)
}

// groupRenames is the log of the groups this run renamed.
func (d *ProviderData) groupRenames() *groupRenameLog {
	return &d.notes.groupRenames
}

// NoteGroupRename records that the group id, which the plan read as from, is
// now named to: a permission planned from a state that names the group by
// from is resolved by id after the rename (priorID).
func (d *ProviderData) NoteGroupRename(id int64, from, to string) {
	if from != to {
		d.groupRenames().add(groupRename{id: id, from: from, to: to})
	}
}

// applyRenames brings the directory up to date with this run's renames, in
// order: each group has its new name (whether the directory was read before
// or after the rename), and each name a rename took is kept in former, with
// the group that had it first in this run.
func (dir *GroupDirectory) applyRenames(renames []groupRename) {
	if len(renames) == 0 {
		return
	}
	dir.former = make(map[string]int64, len(renames))
	for _, r := range renames {
		if _, ok := dir.former[r.from]; !ok {
			dir.former[r.from] = r.id
		}
		g, ok := dir.ByID[r.id]
		if !ok {
			continue
		}
		if cur, ok := dir.ByName[g.Name]; ok && cur.ID == r.id {
			delete(dir.ByName, g.Name)
		}
		g.Name = r.to
		dir.ByID[r.id] = g
		dir.ByName[r.to] = g
	}
}

// Name returns a group's name; a group the directory lacks (made since it was
// read) shows as its id, so that the value still says something true.
func (dir GroupDirectory) Name(id int64) string {
	if g, ok := dir.ByID[id]; ok {
		return g.Name
	}
	return "id:" + strconv.FormatInt(id, 10)
}

// ID returns the id of a group named in a configuration; "id:N" names a group
// by id (what name writes for a group it lacks).
func (dir GroupDirectory) ID(name string) (int64, bool) {
	if g, ok := dir.ByName[name]; ok {
		return g.ID, true
	}
	if rest, ok := strings.CutPrefix(name, "id:"); ok {
		if id, err := strconv.ParseInt(rest, 10, 64); err == nil {
			return id, true
		}
	}
	return 0, false
}

// priorID returns the id of a group named in a prior state's value: the names
// there are the groups' names when the plan read them, so a name that a
// rename in this run took is that group's, whatever the group (or another one)
// is called now.
func (dir GroupDirectory) priorID(name string) (int64, bool) {
	if id, ok := dir.former[name]; ok {
		return id, true
	}
	return dir.ID(name)
}

// PermissionFromAPI is the Terraform value of a group-setting value; nil (a
// server too old for the setting) is null.
func PermissionFromAPI(v *zulip.GroupSettingValue, dir GroupDirectory) types.Object {
	if v == nil {
		return types.ObjectNull(PermissionAttrTypes)
	}
	var groups []attr.Value
	var users []attr.Value
	if v.GroupID != nil {
		groups = append(groups, types.StringValue(dir.Name(*v.GroupID)))
	} else {
		for _, id := range v.DirectSubgroups {
			groups = append(groups, types.StringValue(dir.Name(id)))
		}
		for _, id := range v.DirectMembers {
			users = append(users, types.Int64Value(id))
		}
	}
	return types.ObjectValueMust(PermissionAttrTypes, map[string]attr.Value{
		"groups": types.SetValueMust(types.StringType, nonNilValues(groups)),
		"users":  types.SetValueMust(types.Int64Type, nonNilValues(users)),
	})
}

// nonNilValues is vs, as an empty slice rather than nil.
func nonNilValues(vs []attr.Value) []attr.Value {
	if vs == nil {
		return []attr.Value{}
	}
	return vs
}

// permissionParts reads a known permission value's group names and user ids.
func permissionParts(ctx context.Context, o types.Object) (groups []string, users []int64, diags diag.Diagnostics) {
	var m permissionModel
	diags.Append(o.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	if diags.HasError() {
		return nil, nil, diags
	}
	if !m.Groups.IsNull() && !m.Groups.IsUnknown() {
		groups = KnownStrings(m.Groups)
	}
	if !m.Users.IsNull() && !m.Users.IsUnknown() {
		users = KnownInt64s(m.Users)
	}
	return groups, users, diags
}

// permissionToAPI is the group-setting value of a known permission, in the
// form Zulip itself answers with: a group's id when the value is exactly one
// group, else an anonymous group with sorted members and subgroups.
func permissionToAPI(ctx context.Context, o types.Object, dir GroupDirectory) (zulip.GroupSettingValue, error) {
	return permissionByIDs(ctx, o, func(name string) (int64, error) {
		if id, ok := dir.ID(name); ok {
			return id, nil
		}
		return 0, fmt.Errorf("the organization has no user group named %q", name)
	})
}

// priorPermissionToAPI is the group-setting value of a prior state's
// permission, its groups resolved as the plan read them (priorID).
func priorPermissionToAPI(ctx context.Context, o types.Object, dir GroupDirectory) (zulip.GroupSettingValue, error) {
	return permissionByIDs(ctx, o, func(name string) (int64, error) {
		if id, ok := dir.priorID(name); ok {
			return id, nil
		}
		return 0, fmt.Errorf("the user group %q, which this setting named when it was planned, has been renamed "+
			"since; run terraform plan again", name)
	})
}

// permissionByIDs is permissionToAPI with the groups resolved by id.
func permissionByIDs(ctx context.Context, o types.Object, id func(string) (int64, error)) (zulip.GroupSettingValue, error) {
	groups, users, diags := permissionParts(ctx, o)
	if diags.HasError() {
		return zulip.GroupSettingValue{}, fmt.Errorf("reading the value: %v", diags)
	}
	ids := make([]int64, 0, len(groups))
	for _, name := range groups {
		n, err := id(name)
		if err != nil {
			return zulip.GroupSettingValue{}, err
		}
		ids = append(ids, n)
	}
	if len(ids) == 1 && len(users) == 0 {
		return zulip.GroupSettingValue{GroupID: &ids[0]}, nil
	}
	slices.Sort(ids)
	users = slices.Clone(users)
	slices.Sort(users)
	return zulip.GroupSettingValue{DirectMembers: nonNilIDs(users), DirectSubgroups: nonNilIDs(ids)}, nil
}

// nonNilIDs is ids, as an empty slice rather than nil.
func nonNilIDs(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

// PermissionChange returns the update of one permission from its prior value
// to its planned one, or nil when the plan leaves it as it is (not configured,
// or equal). The prior value is sent as "old", so that Zulip refuses the change
// (EXPECTATION_MISMATCH) when someone changed the setting since the plan was
// made, rather than silently overwriting their change. The prior value names
// groups as the plan read them, so it is resolved by priorID: a group renamed
// in the same apply (a rename made in the web app, undone) is still the group
// the plan meant.
func PermissionChange(ctx context.Context, plan, prior types.Object, dir GroupDirectory) (*zulip.GroupSettingUpdate, error) {
	if plan.IsNull() || plan.IsUnknown() || plan.Equal(prior) {
		return nil, nil
	}
	planned, err := permissionToAPI(ctx, plan, dir)
	if err != nil {
		return nil, err
	}
	u := &zulip.GroupSettingUpdate{New: planned}
	if !prior.IsNull() && !prior.IsUnknown() {
		old, err := priorPermissionToAPI(ctx, prior, dir)
		if err != nil {
			return nil, err
		}
		u.Old = &old
	}
	return u, nil
}

// PermissionValue is a planned permission's value for a create, or nil when
// the configuration leaves it to the server's default.
func PermissionValue(ctx context.Context, plan types.Object, dir GroupDirectory) (*zulip.GroupSettingValue, error) {
	if plan.IsNull() || plan.IsUnknown() {
		return nil, nil
	}
	v, err := permissionToAPI(ctx, plan, dir)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// checkPermission fails a plan whose permission names a group or a user the
// organization does not have (and this configuration does not create: groups
// planned by zulip_user_group in the same run are known to the plan notes).
// Unknown parts (references to objects created in the same apply) are
// checked when they are known.
func (d *ProviderData) checkPermission(ctx context.Context, at path.Path, o types.Object, diags *diag.Diagnostics) {
	if o.IsNull() || o.IsUnknown() || !d.CanAsk() {
		return
	}
	groups, users, parts := permissionParts(ctx, o)
	diags.Append(parts...)
	if parts.HasError() {
		return
	}
	if len(groups) > 0 {
		dir, err := d.Groups(ctx)
		if err != nil {
			AddAPIError(diags, "Unable to Read User Groups", "list the user groups to check "+at.String(), RoleAny, err)
			return
		}
		var missing []string
		for _, name := range groups {
			if _, ok := dir.ID(name); !ok && !d.PlannedName("zulip_user_group", name) {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			diags.AddAttributeError(at.AtName("groups"), "Unknown User Group",
				fmt.Sprintf("%s names %s the organization does not have: %s. System groups are named role:everyone, "+
					"role:members, role:fullmembers, role:moderators, role:administrators, role:owners, role:nobody and "+
					"role:internet. If this configuration creates the group, refer to it as zulip_user_group.<name>.name, "+
					"so that Terraform plans the group first.", at, Pluralize("a user group", len(missing)), quoteAll(missing)))
		}
	}
	if len(users) > 0 {
		verdict, err := CheckUsersSeen(ctx, d, func(all map[int64]zulip.User) error {
			var bad []string
			for _, id := range users {
				if u, ok := all[id]; !ok || !u.IsActive {
					bad = append(bad, strconv.FormatInt(id, 10))
				}
			}
			if len(bad) > 0 {
				return fmt.Errorf("no active user has the id %s", strings.Join(bad, ", "))
			}
			return nil
		})
		switch {
		case err != nil:
			AddAPIError(diags, "Unable to Read Users", "list the users to check "+at.String(), RoleAny, err)
		case verdict != nil:
			diags.AddAttributeError(at.AtName("users"), "Unknown User", fmt.Sprintf("%s: %s.", at, verdict))
		}
	}
}

// quoteAll quotes each name and joins them.
func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

// NotePlannedName records a name that a resource of TypeName in this plan
// creates or renames to, so that references by name may name it before it
// exists (a group in permissions, a field in profile data).
func (d *ProviderData) NotePlannedName(typeName, name string) {
	if d == nil {
		return
	}
	d.notes.mark(&d.notes.planned, typeName, name)
}

// PlannedName reports whether a resource of TypeName in this plan makes name.
func (d *ProviderData) PlannedName(typeName, name string) bool {
	if d == nil {
		return false
	}
	return d.notes.marked(&d.notes.planned, typeName, name)
}

// zulipVersionOf names the Zulip version that introduced a feature level.
func zulipVersionOf(level int) string { return realmspec.ZulipVersion(level) }

// PermissionDataAttribute is the computed schema of a permission in a data
// source: the same shape as the resources' attribute.
func PermissionDataAttribute(s PermissionSetting) dschema.SingleNestedAttribute {
	desc := "Who may " + s.What + ": `{ groups = [group names], users = [user ids] }` (see " + permissionGuide + ")."
	if s.Level > 0 {
		desc += fmt.Sprintf(" Null on servers older than feature level %d (%s).", s.Level, zulipVersionOf(s.Level))
	}
	return dschema.SingleNestedAttribute{
		Computed:            true,
		MarkdownDescription: desc,
		Attributes: map[string]dschema.Attribute{
			"groups": dschema.SetAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: "User groups by name."},
			"users":  dschema.SetAttribute{ElementType: types.Int64Type, Computed: true, MarkdownDescription: "Users by id."},
		},
	}
}

// KnownInt64s is the known elements of a set of numbers: at plan time some may
// be references to objects not created yet, which are checked when known.
func KnownInt64s(s types.Set) []int64 { return knownElements(s, types.Int64.ValueInt64) }

// KnownStrings is the known elements of a set of strings (see KnownInt64s).
func KnownStrings(s types.Set) []string { return knownElements(s, types.String.ValueString) }

// knownElements is the values of a set's known elements of type V.
func knownElements[V attr.Value, T any](s types.Set, value func(V) T) []T {
	var out []T
	for _, e := range s.Elements() {
		if v, ok := e.(V); ok && Known(v) {
			out = append(out, value(v))
		}
	}
	return out
}

// holds reports whether the user is in a group-setting value: a direct
// member, or a member of a group it names or of any of their subgroups.
func (dir GroupDirectory) holds(v *zulip.GroupSettingValue, user int64) bool {
	if v == nil {
		return false
	}
	if slices.Contains(v.DirectMembers, user) {
		return true
	}
	queue := slices.Clone(v.DirectSubgroups)
	if v.GroupID != nil {
		queue = append(queue, *v.GroupID)
	}
	seen := map[int64]bool{}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if seen[id] {
			continue
		}
		seen[id] = true
		g, ok := dir.ByID[id]
		if !ok {
			continue
		}
		if slices.Contains(g.Members, user) {
			return true
		}
		queue = append(queue, g.DirectSubgroupIDs...)
	}
	return false
}

// describe renders a group-setting value for a message: its groups by name
// and its users by id.
func (dir GroupDirectory) describe(v *zulip.GroupSettingValue) string {
	if v == nil {
		return "unknown"
	}
	if v.GroupID != nil {
		return dir.Name(*v.GroupID)
	}
	var parts []string
	for _, id := range v.DirectSubgroups {
		parts = append(parts, dir.Name(id))
	}
	sort.Strings(parts)
	for _, id := range v.DirectMembers {
		parts = append(parts, "user "+strconv.FormatInt(id, 10))
	}
	if len(parts) == 0 {
		return "nobody"
	}
	return strings.Join(parts, ", ")
}
