package channels

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// channelDataSourceModel is the zulip_channel data source: the resource's
// attributes (announce aside), whether the channel is archived, and its
// subscribers.
type channelDataSourceModel struct {
	channelFields
	IsArchived  types.Bool `tfsdk:"is_archived"`
	Subscribers types.Set  `tfsdk:"subscribers"`
	channelPermissions
}

// channelData reads one channel, archived ones included, from the list of
// channels the run reads once.
var channelData = &kit.DataSource[channelDataSourceModel]{Name: "channel", Read: readChannel,
	// The id or the name, not both.
	Validators: []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name"))},
	Schema:     channelDataSchema(),
}

// channelDataSchema describes the data source.
func channelDataSchema() schema.Schema {
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
	return schema.Schema{
		MarkdownDescription: "One channel, by name or id, archived channels included, with its permissions in the " +
			"shared `{ groups, users }` shape and its subscribers.",
		Attributes: attrs,
	}
}

// readChannel finds the channel.
func readChannel(ctx context.Context, d *kit.ProviderData, m *channelDataSourceModel, diags *diag.Diagnostics) {
	id, name := m.ID, m.Name
	list, err := kit.ChannelCollection(d).List(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Channel", "list the channels", kit.RoleAny, err)
		return
	}
	var found *zulip.Channel
	for i, c := range list {
		if (kit.Known(id) && c.StreamID == id.ValueInt64()) || (kit.Known(name) && strings.EqualFold(c.Name, name.ValueString())) {
			found = &list[i]
		}
	}
	if found == nil {
		diags.AddError("Channel Not Found", fmt.Sprintf("No channel the provider's account can see is named %q or has id %s.",
			name.ValueString(), id.String()))
		return
	}
	var r channelResourceModel
	channelFromAPI2(kit.ReadAll(ctx), d, *found, &r, diags)
	*m = channelDataSourceModel{channelFields: r.channelFields, channelPermissions: r.channelPermissions}
	m.IsArchived = types.BoolValue(found.IsArchived)
	subs, err := subscribers(ctx, d)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Channel", "list the channels' subscribers", kit.RoleAny, err)
		return
	}
	m.Subscribers = kit.Int64Set(subs[found.StreamID])
}
