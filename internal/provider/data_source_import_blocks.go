package provider

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var _ datasource.DataSourceWithConfigure = (*importBlocksDataSource)(nil)

// NewImportBlocksDataSource returns the zulip_import_blocks data source.
func NewImportBlocksDataSource() datasource.DataSource { return &importBlocksDataSource{} }

// importBlocksDataSource writes the import blocks of a whole organization:
// the path to adopting everything on Terraform before 1.14, which has no
// `terraform query`. Each type's collection is read once.
type importBlocksDataSource struct {
	data *providerData
}

// importTarget is one object to import: a name for its resource block and
// the import id its resource type accepts.
type importTarget struct {
	name, id string
}

// importSource lists the objects of one resource type.
type importSource struct {
	typeName string
	list     func(context.Context, *providerData) ([]importTarget, error)
}

// importSources are the types zulip_import_blocks covers, in the order the
// blocks are written (the organization first, then what refers to it).
var importSources = []importSource{
	{"zulip_realm", func(_ context.Context, d *providerData) ([]importTarget, error) {
		return []importTarget{{"this", realmURL(d.client)}}, nil
	}},
	{"zulip_realm_user_defaults", func(_ context.Context, d *providerData) ([]importTarget, error) {
		return []importTarget{{"this", realmURL(d.client)}}, nil
	}},
	{"zulip_allowed_domain", importFrom(realmDomainCollection, func(v zulip.RealmDomain) (string, string, bool) { return v.Domain, v.Domain, true })},
	{"zulip_linkifier", importFrom(linkifierCollection, func(v zulip.Linkifier) (string, string, bool) {
		return v.Pattern, strconv.FormatInt(v.ID, 10), true
	})},
	{"zulip_code_playground", importFrom(playgroundCollection, func(v zulip.Playground) (string, string, bool) {
		return v.PygmentsLanguage + " " + v.Name, v.PygmentsLanguage + "/" + v.Name, true
	})},
	{"zulip_custom_profile_field", importFrom(profileFieldCollection, func(v zulip.CustomProfileField) (string, string, bool) { return v.Name, v.Name, true })},
	{"zulip_custom_emoji", importFrom(emojiCollection, func(v zulip.CustomEmoji) (string, string, bool) { return v.Name, v.Name, true })},
	{"zulip_user_group", customGroups},
	{"zulip_channel_folder", importFrom(channelFolderCollection, func(v zulip.ChannelFolder) (string, string, bool) {
		return v.Name, v.Name, !v.IsArchived
	})},
	{"zulip_channel", liveChannels},
	{"zulip_default_channels", singleton("default_channels")},
	{"zulip_linkifier_order", orderOf(linkifierCollection, "linkifiers", func(zulip.Linkifier) bool { return true })},
	{"zulip_custom_profile_field_order", orderOf(profileFieldCollection, "custom_profile_fields", func(zulip.CustomProfileField) bool { return true })},
	{"zulip_channel_folder_order", orderOf(channelFolderCollection, "channel_folders", func(f zulip.ChannelFolder) bool { return !f.IsArchived })},
	{"zulip_user_group_members", customGroups},
	{"zulip_channel_subscribers", liveChannels},
	{"zulip_user", func(ctx context.Context, d *providerData) ([]importTarget, error) {
		return usersToImport(ctx, d, false)
	}},
	{"zulip_bot", func(ctx context.Context, d *providerData) ([]importTarget, error) {
		return usersToImport(ctx, d, true)
	}},
}

// singleton is the one object of an organization-wide resource.
func singleton(id string) func(context.Context, *providerData) ([]importTarget, error) {
	return func(context.Context, *providerData) ([]importTarget, error) { return []importTarget{{"all", id}}, nil }
}

// orderOf is the order resource of a collection, when it has something to
// order (an order resource needs at least one object).
func orderOf[T any](coll func(*providerData) *collection[T], id string, counts func(T) bool) func(context.Context, *providerData) ([]importTarget, error) {
	return func(ctx context.Context, d *providerData) ([]importTarget, error) {
		list, err := coll(d).list(ctx)
		if err != nil || !slices.ContainsFunc(list, counts) {
			return nil, err
		}
		return []importTarget{{"all", id}}, nil
	}
}

// customGroups are the user groups that are not system groups nor
// deactivated; liveChannels the channels that are not archived, by name.
var (
	customGroups = importFrom(userGroupCollection, func(v zulip.UserGroup) (string, string, bool) {
		return v.Name, v.Name, !v.IsSystemGroup && !v.Deactivated
	})
	liveChannels = importFrom(channelCollection, func(v zulip.Channel) (string, string, bool) { return v.Name, v.Name, !v.IsArchived })
)

// importFrom lists a collection's objects to import: pick gives a name, the
// import id, and whether the object is imported at all.
func importFrom[T any](coll func(*providerData) *collection[T], pick func(T) (name, id string, ok bool)) func(context.Context, *providerData) ([]importTarget, error) {
	return func(ctx context.Context, d *providerData) ([]importTarget, error) {
		list, err := coll(d).list(ctx)
		if err != nil {
			return nil, err
		}
		var out []importTarget
		for _, v := range list {
			if name, id, ok := pick(v); ok {
				out = append(out, importTarget{name, id})
			}
		}
		return out, nil
	}
}

// usersToImport lists the active humans (bots: the active bots of an owner)
// by their real address where the provider's account may see it.
func usersToImport(ctx context.Context, d *providerData, bots bool) ([]importTarget, error) {
	users, err := userUsers(ctx, d)
	if err != nil {
		return nil, err
	}
	var out []importTarget
	for _, u := range users {
		if u.IsBot == bots && u.IsActive && (!bots || u.BotOwnerID != nil) {
			address := u.Email // the API address; the real one when the account may see it
			if u.DeliveryEmail != nil && *u.DeliveryEmail != "" {
				address = *u.DeliveryEmail
			}
			local, _, _ := strings.Cut(address, "@")
			out = append(out, importTarget{local, address})
		}
	}
	slices.SortFunc(out, func(a, b importTarget) int { return strings.Compare(a.id, b.id) })
	return out, nil
}

type importBlocksModel struct {
	Types  types.Set    `tfsdk:"types"`
	Text   types.String `tfsdk:"text"`
	Blocks types.List   `tfsdk:"blocks"`
}

var importBlockAttrTypes = map[string]attr.Type{"to": types.StringType, "id": types.StringType}

// Metadata names the data source.
func (d *importBlocksDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_import_blocks"
}

// Schema describes the data source.
func (d *importBlocksDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	names := make([]string, len(importSources))
	for i, s := range importSources {
		names[i] = s.typeName
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The `import` blocks that adopt a whole organization, for Terraform before 1.14 (which has no " +
			"`terraform query`): write `text` to a file, then run `terraform plan -generate-config-out=generated.tf` and " +
			"apply. Covers the organization's settings and defaults, allowed domains, linkifiers and their order, code " +
			"playgrounds, custom profile fields and their order, custom emoji, user groups (not system ones) and their " +
			"members, channel folders and their order, channels (not archived) and their subscribers, the default " +
			"channels, active users and bots. Each type's collection is read once. Resource names come from each object's name, " +
			"made into Terraform identifiers.",
		Attributes: map[string]schema.Attribute{
			"types": schema.SetAttribute{ElementType: types.StringType, Optional: true,
				MarkdownDescription: "The resource types to import; all of them when left out. One of " + quoteAllCode(names) + ".",
				Validators:          []validator.Set{setvalidator.ValueStringsAre(stringvalidator.OneOf(names...))}},
			"text": schema.StringAttribute{Computed: true, MarkdownDescription: "The import blocks, as Terraform configuration."},
			"blocks": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The same blocks as values.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"to": schema.StringAttribute{Computed: true, MarkdownDescription: "The resource address, e.g. `zulip_channel.general`."},
					"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The import id."},
				}}},
		},
	}
}

// Configure receives the provider's data.
func (d *importBlocksDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Read lists the objects and writes their blocks.
func (d *importBlocksDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m importBlocksModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.data.ready(&resp.Diagnostics) {
		return
	}
	wanted := map[string]bool{}
	for _, e := range m.Types.Elements() {
		if s, ok := e.(types.String); ok {
			wanted[s.ValueString()] = true
		}
	}
	var text strings.Builder
	var blocks []attr.Value
	for _, src := range importSources {
		if len(wanted) > 0 && !wanted[src.typeName] {
			continue
		}
		targets, err := src.list(ctx, d.data)
		if err != nil {
			addAPIError(&resp.Diagnostics, "Unable to List "+src.typeName, "list the objects to import", roleAny, err)
			return
		}
		taken := map[string]bool{}
		for _, t := range targets {
			to := src.typeName + "." + uniqueIdentifier(t.name, taken)
			fmt.Fprintf(&text, "import {\n  to = %s\n  id = %s\n}\n\n", to, strconv.Quote(t.id))
			blocks = append(blocks, types.ObjectValueMust(importBlockAttrTypes, map[string]attr.Value{
				"to": types.StringValue(to), "id": types.StringValue(t.id)}))
		}
	}
	m.Text = types.StringValue(text.String())
	m.Blocks = types.ListValueMust(types.ObjectType{AttrTypes: importBlockAttrTypes}, blocks)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// notIdentifier matches what a Terraform name cannot hold.
var notIdentifier = regexp.MustCompile(`[^a-z0-9_]+`)

// uniqueIdentifier makes a name a Terraform identifier (lowercase letters,
// digits and underscores, not starting with a digit), unique among taken.
func uniqueIdentifier(name string, taken map[string]bool) string {
	id := strings.Trim(notIdentifier.ReplaceAllString(strings.ToLower(name), "_"), "_")
	if id == "" || (id[0] >= '0' && id[0] <= '9') {
		id = "x_" + id
	}
	unique := id
	for n := 2; taken[unique]; n++ {
		unique = id + "_" + strconv.Itoa(n)
	}
	taken[unique] = true
	return unique
}
