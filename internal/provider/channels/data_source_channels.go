package channels

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Feature levels of the GET /streams filters (digest §7.1).
const (
	featureChannelsExcludeArchived = 315 // exclude_archived
	featureChannelsIncludeAll      = 356 // include_all, include_can_access_content
)

// channelsDataSourceModel is the zulip_channels configuration and result.
type channelsDataSourceModel struct {
	Name                    types.String   `tfsdk:"name"`
	IncludePublic           types.Bool     `tfsdk:"include_public"`
	IncludeWebPublic        types.Bool     `tfsdk:"include_web_public"`
	IncludeSubscribed       types.Bool     `tfsdk:"include_subscribed"`
	ExcludeArchived         types.Bool     `tfsdk:"exclude_archived"`
	IncludeAll              types.Bool     `tfsdk:"include_all"`
	IncludeAllActive        types.Bool     `tfsdk:"include_all_active"`
	IncludeDefault          types.Bool     `tfsdk:"include_default"`
	IncludeOwnerSubscribed  types.Bool     `tfsdk:"include_owner_subscribed"`
	IncludeCanAccessContent types.Bool     `tfsdk:"include_can_access_content"`
	Channels                []channelModel `tfsdk:"channels"`
}

// channelModel is one channel of the result.
type channelModel struct {
	ID                         types.Int64  `tfsdk:"id"`
	Name                       types.String `tfsdk:"name"`
	Description                types.String `tfsdk:"description"`
	RenderedDescription        types.String `tfsdk:"rendered_description"`
	DateCreated                types.Int64  `tfsdk:"date_created"`
	CreatorID                  types.Int64  `tfsdk:"creator_id"`
	InviteOnly                 types.Bool   `tfsdk:"invite_only"`
	IsWebPublic                types.Bool   `tfsdk:"is_web_public"`
	HistoryPublicToSubscribers types.Bool   `tfsdk:"history_public_to_subscribers"`
	IsArchived                 types.Bool   `tfsdk:"is_archived"`
	FirstMessageID             types.Int64  `tfsdk:"first_message_id"`
	MessageRetentionDays       types.Int64  `tfsdk:"message_retention_days"`
	IsRecentlyActive           types.Bool   `tfsdk:"is_recently_active"`
	StreamWeeklyTraffic        types.Int64  `tfsdk:"stream_weekly_traffic"`
	StreamPostPolicy           types.Int64  `tfsdk:"stream_post_policy"`
	IsAnnouncementOnly         types.Bool   `tfsdk:"is_announcement_only"`
	TopicsPolicy               types.String `tfsdk:"topics_policy"`
	IsDefault                  types.Bool   `tfsdk:"is_default"`
	channelPermissions
}

// channelsData lists the channels the provider's account can see.
var channelsData = &kit.DataSource[channelsDataSourceModel]{Name: "channels", AttrLevels: map[string]int{
	"include_all": featureChannelsIncludeAll, "include_can_access_content": featureChannelsIncludeAll,
}, Read: readChannels,
	Schema: channelsSchema(),
}

// channelsSchema describes the data source.
func channelsSchema() schema.Schema {
	filter := func(def bool, desc string) schema.BoolAttribute {
		defText := "`false`"
		if def {
			defText = "`true`"
		}
		return schema.BoolAttribute{
			Optional:            true,
			Computed:            true,
			MarkdownDescription: desc + " Default " + defText + ", as in Zulip.",
		}
	}
	return schema.Schema{
		MarkdownDescription: "The channels (streams) that the provider's account can see, through the filters of " +
			"`GET /api/v1/streams`. The result is the union of the sources the filters select: subscribed, public, " +
			"web-public, owner-subscribed (bots), or with `include_all` every channel whose metadata the account may " +
			"access. Use `name` to pick one channel.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Keep only the channel with this name, compared case-insensitively as Zulip compares " +
					"channel names. The other filters still apply: a channel they leave out is not found, and the list is empty.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"include_public":     filter(true, "Include every public channel. Guests never get public channels they are not subscribed to."),
			"include_web_public": filter(false, "Include every web-public channel, subscribed or not."),
			"include_subscribed": filter(true, "Include the channels the account is subscribed to."),
			"exclude_archived":   filter(true, "Leave archived channels out. Setting `false` needs Zulip feature level 315."),
			"include_all": filter(false, "Include every channel whose metadata the account may access: for administrators every "+
				"channel in the organization, private ones included. Overrides the source filters above. Needs Zulip feature level 356."),
			"include_all_active": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				DeprecationMessage: "Zulip deprecated include_all_active in feature level 356 (Zulip 10.0), where it became " +
					"an alias of include_all; use include_all.",
				MarkdownDescription: "Deprecated: use `include_all`. Since Zulip feature level 356 this is the same as " +
					"`include_all`, for every role (Zulip's `get_streams_backend` turns it into `include_all`). Older servers " +
					"accept it only from organization administrators, and return every channel. Default `false`.",
			},
			"include_default":          filter(false, "Fill `is_default` on each channel (whether new users join it)."),
			"include_owner_subscribed": filter(false, "For a bot's credentials: also include the channels the bot's owner is subscribed to."),
			"include_can_access_content": filter(false, "Return the channels whose content (messages) the account may read, "+
				"including private channels it may subscribe itself to through a group setting. Needs Zulip feature level 356."),
			"channels": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching channels, ordered by name.",
				NestedObject: schema.NestedAttributeObject{
					Attributes: channelAttributes(),
				},
			},
		},
	}
}

// channelAttributes describes one channel of the result.
func channelAttributes() map[string]schema.Attribute {
	str := func(desc string) schema.Attribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	num := func(desc string) schema.Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	flag := func(desc string) schema.Attribute {
		return schema.BoolAttribute{Computed: true, MarkdownDescription: desc}
	}
	return channelPermissionsDataAttributes(map[string]schema.Attribute{
		"id":                            num("The channel's id (`stream_id` in the API)."),
		"name":                          str("The channel's name."),
		"description":                   str("The description, as Markdown source."),
		"rendered_description":          str("The description rendered as HTML."),
		"date_created":                  num("When the channel was created, in UNIX seconds."),
		"creator_id":                    num("The id of the user who created the channel; null when unknown (for example channels created before Zulip recorded it)."),
		"invite_only":                   flag("Whether the channel is private."),
		"is_web_public":                 flag("Whether the channel is web-public (readable without an account)."),
		"history_public_to_subscribers": flag("Whether new subscribers can read the messages sent before they joined."),
		"is_archived":                   flag("Whether the channel is archived."),
		"first_message_id":              num("The id of the channel's oldest message; null when it has none."),
		"message_retention_days": num("Days messages are kept: null to follow the organization's policy, " +
			"`-1` to keep them forever."),
		"is_recently_active":    flag("Whether the channel had messages recently (Zulip's measure of activity)."),
		"stream_weekly_traffic": num("Average messages per week over the last weeks; null for channels too young to estimate."),
		"stream_post_policy": num("Deprecated by Zulip in favour of `can_send_message_group`: who may post " +
			"(1 anyone, 2 administrators, 3 full members, 4 moderators)."),
		"is_announcement_only": flag("Deprecated by Zulip: whether only administrators may post (`stream_post_policy` 2)."),
		"topics_policy":        str("Whether messages may use the empty topic: `inherit`, `allow_empty_topic` or `disable_empty_topic`; null on servers that lack it."),
		"is_default":           flag("Whether new users join the channel by default; set only with `include_default = true`, null otherwise."),
	})
}

// readChannels fills the model from the server.
func readChannels(ctx context.Context, d *kit.ProviderData, m *channelsDataSourceModel, diags *diag.Diagnostics) {
	// exclude_archived = false asks for archived channels too, which an older
	// server would ignore and answer as if it were not set.
	if kit.Known(m.ExcludeArchived) && !m.ExcludeArchived.ValueBool() {
		if err := d.RequireFeatureLevel(featureChannelsExcludeArchived, "exclude_archived"); err != nil {
			diags.AddAttributeError(path.Root("exclude_archived"), "Zulip Server Too Old", err.Error())
			return
		}
	}
	list, err := d.Client.ListChannels(ctx, channelsOptionsToAPI(*m))
	if err != nil {
		if m.IncludeAllActive.ValueBool() && d.FeatureLevel() < featureChannelsIncludeAll && kit.IsClientError(err) &&
			!zulip.IsUnauthorized(err) && !zulip.IsRateLimited(err) {
			diags.AddAttributeError(path.Root("include_all_active"), "Unable to List Channels",
				"The server refused include_all_active: before Zulip feature level 356 only organization administrators "+
					"may use it (since then it is an alias of include_all, open to every role). Server said: "+err.Error())
			return
		}
		kit.AddAPIError(diags, "Unable to List Channels", "list the channels", kit.RoleAny, err)
		return
	}
	// Permissions name their groups; an account that may not list groups (a
	// guest) sees them as "id:N".
	dir, err := d.Groups(ctx)
	if err != nil {
		tflog.Warn(ctx, "could not list user groups; permissions name groups by id", map[string]any{"error": err.Error()})
	}
	m.Channels = make([]channelModel, 0, len(list))
	for _, c := range list {
		if kit.Known(m.Name) && !strings.EqualFold(c.Name, m.Name.ValueString()) {
			continue
		}
		m.Channels = append(m.Channels, channelFromAPI(c, dir))
	}
	channelsFillDefaults(m)
	tflog.Debug(ctx, "listed channels", map[string]any{"received": len(list), "kept": len(m.Channels)})
}

// channelsOptionsToAPI sends only the filters the configuration sets, so that
// the server applies its own defaults to the rest.
func channelsOptionsToAPI(m channelsDataSourceModel) zulip.ListChannelsOptions {
	return zulip.ListChannelsOptions{
		IncludePublic:           m.IncludePublic.ValueBoolPointer(),
		IncludeWebPublic:        m.IncludeWebPublic.ValueBoolPointer(),
		IncludeSubscribed:       m.IncludeSubscribed.ValueBoolPointer(),
		ExcludeArchived:         m.ExcludeArchived.ValueBoolPointer(),
		IncludeAll:              m.IncludeAll.ValueBoolPointer(),
		IncludeAllActive:        m.IncludeAllActive.ValueBoolPointer(),
		IncludeDefault:          m.IncludeDefault.ValueBoolPointer(),
		IncludeOwnerSubscribed:  m.IncludeOwnerSubscribed.ValueBoolPointer(),
		IncludeCanAccessContent: m.IncludeCanAccessContent.ValueBoolPointer(),
	}
}

// channelsFillDefaults records Zulip's default for each filter left unset, so
// that the state says which filters produced the list.
func channelsFillDefaults(m *channelsDataSourceModel) {
	def := func(v *types.Bool, d bool) {
		if v.IsNull() || v.IsUnknown() {
			*v = types.BoolValue(d)
		}
	}
	def(&m.IncludePublic, true)
	def(&m.IncludeWebPublic, false)
	def(&m.IncludeSubscribed, true)
	def(&m.ExcludeArchived, true)
	def(&m.IncludeAll, false)
	def(&m.IncludeAllActive, false)
	def(&m.IncludeDefault, false)
	def(&m.IncludeOwnerSubscribed, false)
	def(&m.IncludeCanAccessContent, false)
}

// channelFromAPI converts a channel. Values the API gives as null (or an
// older server leaves out) stay null.
func channelFromAPI(c zulip.Channel, dir kit.GroupDirectory) channelModel {
	return channelModel{
		ID:                         types.Int64Value(c.StreamID),
		Name:                       types.StringValue(c.Name),
		Description:                types.StringValue(c.Description),
		RenderedDescription:        types.StringValue(c.RenderedDescription),
		DateCreated:                types.Int64Value(c.DateCreated),
		CreatorID:                  types.Int64PointerValue(c.CreatorID),
		InviteOnly:                 types.BoolValue(c.InviteOnly),
		IsWebPublic:                types.BoolValue(c.IsWebPublic),
		HistoryPublicToSubscribers: types.BoolValue(c.HistoryPublicToSubscribers),
		IsArchived:                 types.BoolValue(c.IsArchived),
		FirstMessageID:             types.Int64PointerValue(c.FirstMessageID),
		MessageRetentionDays:       types.Int64PointerValue(c.MessageRetentionDays),
		IsRecentlyActive:           types.BoolValue(c.IsRecentlyActive),
		StreamWeeklyTraffic:        types.Int64PointerValue(c.StreamWeeklyTraffic),
		StreamPostPolicy:           types.Int64Value(int64(c.StreamPostPolicy)),
		IsAnnouncementOnly:         types.BoolValue(c.IsAnnouncementOnly),
		TopicsPolicy:               kit.StringOrNull(&c.TopicsPolicy),
		IsDefault:                  types.BoolPointerValue(c.IsDefault),
		channelPermissions:         channelSettings.FromAPI(&c, dir),
	}
}
