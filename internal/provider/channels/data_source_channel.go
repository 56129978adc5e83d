package channels

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ datasource.DataSourceWithConfigValidators = (*channelDataSource)(nil)
)

// NewChannelDataSource returns the zulip_channel data source.
func NewChannelDataSource() datasource.DataSource {
	return &channelDataSource{DataSourceBase: kit.DataSourceBase{Name: "channel"}}
}

// channelDataSource reads one channel, archived ones included, from the list
// of channels the run reads once.
type channelDataSource struct {
	kit.DataSourceBase
}

// channelDataSourceModel is the zulip_channel data source: the resource's
// attributes (announce aside), whether the channel is archived, and its
// subscribers.
type channelDataSourceModel struct {
	channelFields
	IsArchived  types.Bool `tfsdk:"is_archived"`
	Subscribers types.Set  `tfsdk:"subscribers"`
	channelPermissions
}

// Schema describes the data source.
func (d *channelDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	attrs := map[string]schema.Attribute{
		"id":                            schema.Int64Attribute{Optional: true, Computed: true, MarkdownDescription: "The channel's id. Give the id or the name."},
		"name":                          schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: "The channel's name (any case)."},
		"description":                   computed("The channel's description."),
		"privacy":                       computed("`public`, `private` or `web_public`."),
		"history_public_to_subscribers": kit.ComputedBool("Whether new subscribers can read the messages sent before they joined."),
		"message_retention_days":        computed("`realm_default`, `unlimited` or a number of days."),
		"topics_policy":                 computed("Whether messages may go to the empty topic."),
		"folder_id":                     kit.ComputedInt64("The channel folder the channel is in; 0 for none."),
		"date_created":                  kit.ComputedInt64("When the channel was created (UNIX seconds)."),
		"creator_id":                    kit.ComputedInt64("Who created the channel; null when unknown."),
		"is_archived":                   kit.ComputedBool("Whether the channel is archived."),
		"subscribers": schema.SetAttribute{ElementType: types.Int64Type, Computed: true,
			MarkdownDescription: "The ids of the channel's subscribers, as far as the provider's account may see them."},
	}
	channelPermissionsDataAttributes(attrs)
	resp.Schema = schema.Schema{
		MarkdownDescription: "One channel, by name or id, archived channels included, with its permissions in the " +
			"shared `{ groups, users }` shape and its subscribers.",
		Attributes: attrs,
	}
}

// ConfigValidators require the id or the name, not both.
func (d *channelDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name"))}
}

// Read finds the channel.
func (d *channelDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var id types.Int64
	var name types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("id"), &id)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("name"), &name)...)
	if resp.Diagnostics.HasError() || !d.Data.Ready(&resp.Diagnostics) {
		return
	}
	list, err := kit.ChannelCollection(d.Data).List(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read Channel", "list the channels", kit.RoleAny, err)
		return
	}
	var found *zulip.Channel
	for i, c := range list {
		if (kit.Known(id) && c.StreamID == id.ValueInt64()) || (kit.Known(name) && strings.EqualFold(c.Name, name.ValueString())) {
			found = &list[i]
		}
	}
	if found == nil {
		resp.Diagnostics.AddError("Channel Not Found", fmt.Sprintf("No channel the provider's account can see is named %q or has id %s.",
			name.ValueString(), id.String()))
		return
	}
	var r channelResourceModel
	channelFromAPI2(kit.ReadAll(ctx), d.Data, *found, &r, &resp.Diagnostics)
	m := channelDataSourceModel{channelFields: r.channelFields, channelPermissions: r.channelPermissions}
	m.IsArchived = types.BoolValue(found.IsArchived)
	subs, err := subscribers(ctx, d.Data)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read Channel", "list the channels' subscribers", kit.RoleAny, err)
		return
	}
	m.Subscribers = kit.Int64Set(subs[found.StreamID])
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
