package channels

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*defaultChannelGroupResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*defaultChannelGroupResource)(nil)
)

// NewDefaultChannelGroupResource returns the zulip_default_channel_group resource.
func NewDefaultChannelGroupResource() resource.Resource {
	return &defaultChannelGroupResource{ObjectResource: kit.ObjectResourceOf(&defaultChannelGroups)}
}

// defaultChannelGroupResource manages one default channel group.
type defaultChannelGroupResource struct {
	kit.ObjectResource[defaultChannelGroupModel, zulip.DefaultChannelGroup]
}

// defaultChannelGroupModel is the zulip_default_channel_group state.
type defaultChannelGroupModel struct {
	ID          types.Int64  `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
	ChannelIDs  types.Set    `tfsdk:"channel_ids"`
}

// Schema describes the resource.
func (r *defaultChannelGroupResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A default channel group: a named set of channels that people joining the organization " +
			"can pick at sign-up, beside the default channels (`zulip_default_channels`) everyone gets. The channels " +
			"are authoritative: a channel missing here is taken out of the group. Zulip refuses a default channel in " +
			"a group, and so does the plan. Renaming changes the group in place; destroying deletes the group (its " +
			"channels stay). Needs an organization administrator. Import by name or id.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableInt64("The group's id."),
			"name": schema.StringAttribute{Required: true,
				MarkdownDescription: "The group's name, unique in the organization (Zulip compares names exactly), at most 60 characters.",
				Validators: []validator.String{stringvalidator.LengthBetween(1, 60),
					validators.String("must not be only white space nor hold NULL characters", checkDefaultChannelGroupName)}},
			"description": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString(""),
				MarkdownDescription: "What the group is for, shown at sign-up; at most 1024 characters. Default empty. " +
					"Zulip cannot empty a description once set, so emptying it replaces the group.",
				Validators:    []validator.String{stringvalidator.LengthAtMost(1024)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(descriptionEmptied, "Zulip cannot empty a description.", "Zulip cannot empty a description.")}},
			"channel_ids": schema.SetAttribute{ElementType: types.Int64Type, Optional: true, Computed: true,
				Default:             setdefault.StaticValue(types.SetValueMust(types.Int64Type, []attr.Value{})),
				MarkdownDescription: "The ids of the group's channels, e.g. `[zulip_channel.design.id]`; default none. None may be a default channel or archived.",
			},
		},
	}
}

// checkDefaultChannelGroupName is Zulip's check_default_stream_group_name
// (the length is the schema's).
func checkDefaultChannelGroupName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("Invalid default channel group name '%s'", name)
	case strings.ContainsRune(name, 0):
		return fmt.Errorf("Default channel group name '%s' contains NULL (0x00) characters.", name)
	}
	return nil
}

// descriptionEmptied replaces a group whose description the plan empties:
// Zulip takes an empty new_description for none given.
func descriptionEmptied(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = kit.Known(req.PlanValue) && req.PlanValue.ValueString() == "" && req.StateValue.ValueString() != ""
}

// ModifyPlan checks that a new group's or a new name is free and that every
// channel can be in a group.
func (r *defaultChannelGroupResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, ok := kit.Planned[defaultChannelGroupModel](ctx, req, &resp.Diagnostics)
	if !ok || !r.Data.CanAsk() || resp.Diagnostics.HasError() {
		return
	}
	var state *defaultChannelGroupModel
	if !req.State.Raw.IsNull() {
		state = &defaultChannelGroupModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	}
	if kit.Known(plan.Name) {
		r.checkName(ctx, plan, state, &resp.Diagnostics)
	}
	if kit.Known(plan.ChannelIDs) && (state == nil || !plan.ChannelIDs.Equal(state.ChannelIDs)) {
		var before []int64
		if state != nil {
			before = kit.KnownInt64s(state.ChannelIDs)
		}
		r.checkChannels(ctx, plan.Name.ValueString(), kit.KnownInt64s(plan.ChannelIDs), before, &resp.Diagnostics)
	}
}

// checkName refuses a name another group holds: a new group's, or the new
// name of a renamed one.
func (r *defaultChannelGroupResource) checkName(ctx context.Context, plan defaultChannelGroupModel, state *defaultChannelGroupModel, diags *diag.Diagnostics) {
	name := plan.Name.ValueString()
	if state == nil {
		defaultChannelGroupCreation(r.Data, plan, nil).CheckKeyFree(ctx, r.Data, path.Root("name"), fmt.Sprintf("the name %q", name), diags)
		return
	}
	if state.Name.ValueString() == name {
		return
	}
	all, err := defaultChannelGroupCollection(r.Data).LastSeen(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Default Channel Groups", "list the default channel groups", kit.RoleAny, err)
		return
	}
	for _, g := range all {
		if g.Name == name && g.ID != state.ID.ValueInt64() {
			diags.AddAttributeError(path.Root("name"), "Default Channel Group Already Exists",
				fmt.Sprintf("Another default channel group (id %d) is named %q, so Zulip would refuse the rename "+
					"(\"Default channel group '%s' already exists\"). Rename or delete that group first.", g.ID, name, name))
			return
		}
	}
}

// checkChannels refuses channels that cannot be in a group: unknown,
// archived, or default channels, in Zulip's words; and, among those added or
// removed (ids against before), private channels the account cannot read.
func (r *defaultChannelGroupResource) checkChannels(ctx context.Context, group string, ids, before []int64, diags *diag.Diagnostics) {
	if len(ids) == 0 {
		return
	}
	all, err := kit.ChannelCollection(r.Data).LastSeen(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Channels", "list the channels", kit.RoleAny, err)
		return
	}
	defaults, err := defaultChannelIDs(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Default Channels", "read the default channels", kit.RoleAny, err)
		return
	}
	at := path.Root("channel_ids")
	for _, id := range ids {
		i := slices.IndexFunc(all, func(c zulip.Channel) bool { return c.StreamID == id })
		switch {
		case i < 0:
			diags.AddAttributeError(at, "Unknown Channel", fmt.Sprintf("No channel the provider's account can see has the id %d.", id))
		case all[i].IsArchived:
			diags.AddAttributeError(at, "Archived Channel", fmt.Sprintf("The channel %q (id %d) is archived; an archived channel cannot be in a default channel group.", all[i].Name, id))
		case slices.Contains(defaults, id):
			diags.AddAttributeError(at, "Default Channel", fmt.Sprintf("The channel %q (id %d) is a default channel, which Zulip refuses in a group "+
				"(\"'%s' is a default channel and cannot be added to '%s'\"): new users get it anyway.", all[i].Name, id, all[i].Name, group))
		case !slices.Contains(before, id):
			requireContentAccess(ctx, r.Data, all[i], at, diags)
		}
	}
	for _, id := range before {
		if i := slices.IndexFunc(all, func(c zulip.Channel) bool { return c.StreamID == id }); i >= 0 && !slices.Contains(ids, id) {
			requireContentAccess(ctx, r.Data, all[i], at, diags)
		}
	}
}

// requireContentAccess refuses a private channel whose messages the
// provider's account may not read. Zulip names the channels of a default
// channel group by name and looks each up with access_stream_by_name, which
// wants content access (zerver/lib/streams.py user_has_content_access): a
// subscription, or the channel's can_add_subscribers_group or
// can_subscribe_group. Being an administrator is not enough, and Zulip's
// answer would be a bare "Invalid channel name". The subscriptions are read
// only when a private channel needs them, once per run.
func requireContentAccess(ctx context.Context, d *kit.ProviderData, ch zulip.Channel, at path.Path, diags *diag.Diagnostics) {
	if !ch.InviteOnly || ch.IsWebPublic {
		return
	}
	for _, p := range []kit.HeldBy{
		{Kind: kit.PermissionOfChannel, Setting: "can_add_subscribers_group", Value: ch.CanAddSubscribersGroup},
		{Kind: kit.PermissionOfChannel, Setting: "can_subscribe_group", Value: ch.CanSubscribeGroup},
	} {
		if holds, known := kit.Holds(ctx, d, p); holds || !known {
			return
		}
	}
	me, err := d.Caller(ctx)
	if err != nil {
		return
	}
	subs, err := subscribers(ctx, d)
	if err != nil || slices.Contains(subs[ch.StreamID], me.UserID) {
		return
	}
	diags.AddAttributeError(at, "Private Channel Not Readable", fmt.Sprintf("The channel %q (id %d) is private, and the provider's "+
		"account (%s) is not subscribed to it and holds neither its can_add_subscribers_group nor its can_subscribe_group, "+
		"so Zulip refuses to put it in a default channel group or take it out (\"Invalid channel name '%s'\"), "+
		"administrators included. Subscribe the account to the channel first (a zulip_channel_subscription).", ch.Name, ch.StreamID, me.Email, ch.Name))
}

// Create makes the group.
func (r *defaultChannelGroupResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[defaultChannelGroupModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	names, err := channelNames(ctx, r.Data, kit.KnownInt64s(plan.ChannelIDs))
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Create Default Channel Group", "name the group's channels", kit.RoleAny, err)
		return
	}
	key, ok := defaultChannelGroupCreation(r.Data, plan, names).Create(ctx, r.Data, &resp.Diagnostics)
	if !ok {
		return
	}
	defaultChannelGroups.FinishCreate(ctx, r.Data, &plan, key, resp)
}

// defaultChannelGroupCreation is the create of a planned group (names are its
// channels' names); its natural key is the name. Zulip answers no id, so the
// groups are read again to find it by name; that read is the group's
// read-back. When it fails, the create is uncertain and the kit reads the
// groups again to adopt the one that matches.
func defaultChannelGroupCreation(d *kit.ProviderData, plan defaultChannelGroupModel, names []string) kit.Creation[defaultChannelGroupModel, zulip.DefaultChannelGroup] {
	name, description, ids := plan.Name.ValueString(), plan.Description.ValueString(), kit.KnownInt64s(plan.ChannelIDs)
	var made zulip.DefaultChannelGroup
	return kit.Creation[defaultChannelGroupModel, zulip.DefaultChannelGroup]{
		Objects: defaultChannelGroups,
		Send: func(ctx context.Context) (string, error) {
			req := zulip.CreateDefaultChannelGroupRequest{Name: name, Description: description, ChannelNames: names}
			if err := d.Client.CreateDefaultChannelGroup(ctx, req); err != nil {
				return "", err
			}
			all, err := d.Client.ListDefaultChannelGroups(ctx)
			if err != nil {
				return "", err
			}
			if i := slices.IndexFunc(all, func(g zulip.DefaultChannelGroup) bool { return g.Name == name }); i >= 0 {
				made = all[i]
				return strconv.FormatInt(made.ID, 10), nil
			}
			return "", fmt.Errorf("the default channel group %q is missing from the groups read after its creation", name)
		},
		// The group as the read that found its id lists it.
		Made:    func(string) zulip.DefaultChannelGroup { return made },
		SameKey: func(g zulip.DefaultChannelGroup) bool { return g.Name == name },
		Matches: func(g zulip.DefaultChannelGroup) bool {
			return g.Name == name && g.Description == description && sameIDs(g.ChannelIDs, ids)
		},
	}
}

// sameIDs reports whether two lists hold the same ids, in any order.
func sameIDs(a, b []int64) bool {
	return len(kit.MissingFrom(a, b)) == 0 && len(kit.MissingFrom(b, a)) == 0
}

// channelNames names channels by id, for the endpoints that take names.
func channelNames(ctx context.Context, d *kit.ProviderData, ids []int64) ([]string, error) {
	all, err := kit.ChannelCollection(d).List(ctx)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(ids))
	for _, id := range ids {
		i := slices.IndexFunc(all, func(c zulip.Channel) bool { return c.StreamID == id })
		if i < 0 {
			return nil, fmt.Errorf("no channel the provider's account can see has the id %d", id)
		}
		names = append(names, all[i].Name)
	}
	return names, nil
}

// Update renames the group, changes its description, and adds and removes
// channels (against a fresh read of the group).
func (r *defaultChannelGroupResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defaultChannelGroups.Update(ctx, r.Data, req, resp, func(ctx context.Context, plan, state *defaultChannelGroupModel, _ *diag.Diagnostics) error {
		id := state.ID.ValueInt64()
		var info zulip.UpdateDefaultChannelGroupRequest
		if !plan.Name.Equal(state.Name) {
			info.Name = plan.Name.ValueStringPointer()
		}
		if !plan.Description.Equal(state.Description) {
			info.Description = plan.Description.ValueStringPointer()
		}
		if info.Name != nil || info.Description != nil {
			if err := r.Data.Client.UpdateDefaultChannelGroup(ctx, id, info); err != nil {
				return err
			}
		}
		return r.setChannels(ctx, id, kit.KnownInt64s(plan.ChannelIDs))
	})
}

// setChannels makes a group's channels want: one request for those to add
// and one for those to remove, from a fresh read of the group.
func (r *defaultChannelGroupResource) setChannels(ctx context.Context, id int64, want []int64) error {
	all, err := r.Data.Client.ListDefaultChannelGroups(ctx)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(all, func(g zulip.DefaultChannelGroup) bool { return g.ID == id })
	if i < 0 {
		return fmt.Errorf("the default channel group %d no longer exists", id)
	}
	if add := kit.MissingFrom(want, all[i].ChannelIDs); len(add) > 0 {
		names, err := channelNames(ctx, r.Data, add)
		if err == nil {
			err = r.Data.Client.AddDefaultChannelGroupChannels(ctx, id, names)
		}
		if err != nil {
			return err
		}
	}
	if drop := kit.MissingFrom(all[i].ChannelIDs, want); len(drop) > 0 {
		names, err := channelNames(ctx, r.Data, drop)
		if err == nil {
			err = r.Data.Client.RemoveDefaultChannelGroupChannels(ctx, id, names)
		}
		return err
	}
	return nil
}

// defaultChannelGroupImportID is the import id of a group: its name, or its
// id when the name would read as one.
func defaultChannelGroupImportID(g zulip.DefaultChannelGroup) string {
	if _, err := strconv.ParseInt(g.Name, 10, 64); err == nil {
		return strconv.FormatInt(g.ID, 10)
	}
	return g.Name
}

// cacheDefaultChannelGroups is the cache key of the default channel groups.
const cacheDefaultChannelGroups = "default channel groups"

// defaultChannelGroupCollection is the organization's default channel groups,
// read once per run (through register: Zulip has no other list).
func defaultChannelGroupCollection(d *kit.ProviderData) *kit.Collection[zulip.DefaultChannelGroup] {
	return kit.StateCollection(d, cacheDefaultChannelGroups, zulip.EventTypeDefaultStreamGroups,
		func(r *zulip.RegisterResponse) []zulip.DefaultChannelGroup { return r.RealmDefaultStreamGroups })
}

// defaultChannelGroups is the kit's skeleton for zulip_default_channel_group.
var defaultChannelGroups = kit.Objects[defaultChannelGroupModel, zulip.DefaultChannelGroup]{
	TypeName: "zulip_default_channel_group", What: "default channel group", Role: kit.RoleAdministrator,
	Coll: defaultChannelGroupCollection,
	IDOf: func(g zulip.DefaultChannelGroup) int64 { return g.ID },
	ID:   func(m *defaultChannelGroupModel) *types.Int64 { return &m.ID },
	FromAPI: kit.WithoutData(func(_ context.Context, g zulip.DefaultChannelGroup, m *defaultChannelGroupModel, _ *diag.Diagnostics) {
		elems := make([]attr.Value, len(g.ChannelIDs))
		for i, id := range g.ChannelIDs {
			elems[i] = types.Int64Value(id)
		}
		m.ID, m.Name, m.Description = types.Int64Value(g.ID), types.StringValue(g.Name), types.StringValue(g.Description)
		m.ChannelIDs = types.SetValueMust(types.Int64Type, elems)
	}),
	ImportHint: "A default channel group is imported by its exact name or its numeric id; the organization's settings " +
		"list the groups under Default channels.",
	Remove: func(d *kit.ProviderData) func(context.Context, string) error {
		return kit.DeleteByID(d.Client.DeleteDefaultChannelGroup)
	},
	Lookup: kit.ByNameOrID("zulip_default_channel_group",
		func(g zulip.DefaultChannelGroup) int64 { return g.ID }, func(g zulip.DefaultChannelGroup) string { return g.Name }, false),
}
