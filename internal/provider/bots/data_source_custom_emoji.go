package bots

import (
	"cmp"
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// customEmojiDataModel is the data source's argument and result.
type customEmojiDataModel struct {
	IncludeDeactivated types.Bool         `tfsdk:"include_deactivated"`
	Emoji              []customEmojiEntry `tfsdk:"emoji"`
	ByName             map[string]string  `tfsdk:"by_name"`
}

// customEmojiEntry is one emoji of the list.
type customEmojiEntry struct {
	ID          types.String `tfsdk:"id"`
	Name        types.String `tfsdk:"name"`
	SourceURL   types.String `tfsdk:"source_url"`
	StillURL    types.String `tfsdk:"still_url"`
	AuthorID    types.Int64  `tfsdk:"author_id"`
	Deactivated types.Bool   `tfsdk:"deactivated"`
}

// customEmojiData lists the organization's custom emoji: the active ones
// from the list the run reads once.
var customEmojiData = &kit.DataSource[customEmojiDataModel]{Name: "custom_emoji", Read: readCustomEmoji,
	Schema: schema.Schema{
		MarkdownDescription: "The organization's custom emoji, from `GET /realm/emoji`, by name. Any user can read them. " +
			"Use it to name an emoji uploaded in the web app rather than its id, e.g. " +
			"`data.zulip_custom_emoji.all.by_name[\"green_tick\"]`, which is the `emoji_code` of a status or " +
			"reaction with that emoji.",
		Attributes: map[string]schema.Attribute{
			"include_deactivated": schema.BoolAttribute{Optional: true,
				MarkdownDescription: "Whether deactivated emoji are listed too (default false). Zulip keeps them for old " +
					"messages and reactions, and a new emoji may have the name of a deactivated one."},
			"emoji": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The emoji, by name (then by id).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":          kit.ComputedString("The emoji's id."),
					"name":        kit.ComputedString("The name people type between colons."),
					"source_url":  kit.ComputedString("Where the image is, relative to the organization's URL."),
					"still_url":   kit.ComputedString("Where a still image of an animated emoji is, relative to the organization's URL; null for an emoji that is not animated."),
					"author_id":   kit.ComputedInt64("The id of the user who uploaded it; null when Zulip does not know."),
					"deactivated": kit.ComputedBool("Whether the emoji is deactivated (only with `include_deactivated`)."),
				}}},
			"by_name": schema.MapAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The id of each active emoji, by name (deactivated ones are never in it: their names may repeat)."},
		},
	},
}

// readCustomEmoji fills the model: from the run's list of active emoji, or from the
// whole list when deactivated ones are asked for.
func readCustomEmoji(ctx context.Context, d *kit.ProviderData, m *customEmojiDataModel, diags *diag.Diagnostics) {
	list := kit.EmojiCollection(d).List
	if m.IncludeDeactivated.ValueBool() {
		list = d.Client.ListCustomEmoji
	}
	all, err := list(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Custom Emoji", "list the custom emoji", kit.RoleAny, err)
		return
	}
	emoji := slices.Clone(all)
	slices.SortFunc(emoji, func(a, b zulip.CustomEmoji) int {
		// Ids are numbers as strings: the shorter is the smaller.
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(len(a.ID), len(b.ID)), cmp.Compare(a.ID, b.ID))
	})
	m.Emoji, m.ByName = []customEmojiEntry{}, map[string]string{}
	for _, e := range emoji {
		m.Emoji = append(m.Emoji, customEmojiEntry{ID: types.StringValue(e.ID), Name: types.StringValue(e.Name),
			SourceURL: types.StringValue(e.SourceURL), StillURL: types.StringPointerValue(e.StillURL),
			AuthorID: types.Int64PointerValue(e.AuthorID), Deactivated: types.BoolValue(e.Deactivated)})
		if !e.Deactivated {
			m.ByName[e.Name] = e.ID
		}
	}
}
