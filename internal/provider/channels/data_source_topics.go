package channels

import (
	"context"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// featureTopicsEmptyName is the feature level of allow_empty_topic_name (digest §7.2).
const featureTopicsEmptyName = 334

// topicsDataSourceModel is the zulip_topics configuration and result.
type topicsDataSourceModel struct {
	ChannelID           types.Int64  `tfsdk:"channel_id"`
	AllowEmptyTopicName types.Bool   `tfsdk:"allow_empty_topic_name"`
	Topics              []topicModel `tfsdk:"topics"`
}

// topicModel is one topic of the result.
type topicModel struct {
	Name  types.String `tfsdk:"name"`
	MaxID types.Int64  `tfsdk:"max_id"`
}

// topicsData lists the topics of one channel.
var topicsData = &kit.DataSource[topicsDataSourceModel]{Name: "topics", AttrLevels: map[string]int{"allow_empty_topic_name": featureTopicsEmptyName}, Read: readTopics,
	Schema: schema.Schema{
		MarkdownDescription: "The topics of a channel that the provider's account can read, newest first, from " +
			"`GET /api/v1/users/me/{stream_id}/topics`. In a private channel with protected history, only topics " +
			"with messages the account received (sent after it joined) are listed.",
		Attributes: map[string]schema.Attribute{
			"channel_id": schema.Int64Attribute{
				Required: true,
				MarkdownDescription: "The id of the channel, e.g. from the `zulip_channels` data source. A channel that does " +
					"not exist, is archived, or whose content the account may not read is an error.",
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"allow_empty_topic_name": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Return the empty topic as `\"\"`. By default (`false`, as in Zulip) it is returned under " +
					"the organization's display name for it (e.g. `general chat`). Setting `true` needs Zulip feature level 334.",
			},
			"topics": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The channel's topics, the one with the most recent message first.",
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"name":   kit.ComputedString("The topic's name, as of its latest message."),
						"max_id": kit.ComputedInt64("The id of the topic's latest message that the account can read."),
					},
				},
			},
		},
	},
}

// readTopics fills the model from the server.
func readTopics(ctx context.Context, d *kit.ProviderData, m *topicsDataSourceModel, diags *diag.Diagnostics) {
	id := m.ChannelID.ValueInt64()
	list, err := d.Client.ListTopics(ctx, id, zulip.ListTopicsOptions{AllowEmptyTopicName: m.AllowEmptyTopicName.ValueBoolPointer()})
	switch {
	case zulip.IsNotFound(err):
		diags.AddAttributeError(path.Root("channel_id"), "Channel Not Found",
			fmt.Sprintf("Channel %d does not exist, is archived, or the provider's account may not read it (Zulip answers "+
				"the same for all three). Server said: %s", id, err))
		return
	case err != nil:
		kit.AddAPIError(diags, "Unable to List Topics", fmt.Sprintf("list the topics of channel %d", id), kit.RoleAny, err)
		return
	}
	m.Topics = topicsFromAPI(list)
	if !kit.Known(m.AllowEmptyTopicName) {
		m.AllowEmptyTopicName = types.BoolValue(false)
	}
	tflog.Debug(ctx, "listed topics", map[string]any{"channel_id": id, "count": len(list)})
}

// topicsFromAPI converts the topics, newest first. Zulip already sends them in
// that order; sorting again (stably) makes the documented order hold for any server.
func topicsFromAPI(list []zulip.Topic) []topicModel {
	sorted := append([]zulip.Topic(nil), list...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].MaxID > sorted[j].MaxID })
	out := make([]topicModel, 0, len(sorted))
	for _, t := range sorted {
		out = append(out, topicModel{Name: types.StringValue(t.Name), MaxID: types.Int64Value(t.MaxID)})
	}
	return out
}
