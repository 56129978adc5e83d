package provider

import (
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// groupSettingModel is a group-setting value (who may do something) in the
// one shape that serves both of Zulip's forms: a named group has group_id set
// and empty lists; an anonymous group has group_id null and its direct members
// and subgroups. Configurations can then test `group_id != null` or iterate the
// lists without first asking which form the server chose.
type groupSettingModel struct {
	GroupID         types.Int64 `tfsdk:"group_id"`
	DirectMembers   []int64     `tfsdk:"direct_members"`
	DirectSubgroups []int64     `tfsdk:"direct_subgroups"`
}

// groupSettingFromAPI converts a group-setting value; nil (a server too old to
// have the setting) stays nil, which is a null object.
func groupSettingFromAPI(g *zulip.GroupSettingValue) *groupSettingModel {
	if g == nil {
		return nil
	}
	m := &groupSettingModel{
		GroupID:         types.Int64PointerValue(g.GroupID),
		DirectMembers:   groupSettingIDs(g.DirectMembers),
		DirectSubgroups: groupSettingIDs(g.DirectSubgroups),
	}
	if g.GroupID != nil {
		// A named group has no direct members of its own in this value.
		m.DirectMembers, m.DirectSubgroups = []int64{}, []int64{}
	}
	return m
}

// groupSettingIDs copies ids, as an empty list rather than a null one.
func groupSettingIDs(ids []int64) []int64 {
	return append(make([]int64, 0, len(ids)), ids...)
}

// groupSettingAttribute is the computed schema of a group-setting value;
// what completes "The group whose members ...", and level is the feature level
// that introduced the setting (null on older servers).
func groupSettingAttribute(what string, level int) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Computed: true,
		MarkdownDescription: "The users who " + what + ", as a group-setting value: either a named user group " +
			"(`group_id` set, lists empty) or an anonymous group (`group_id` null, with `direct_members` and " +
			"`direct_subgroups`). " + groupSettingLevelNote(level),
		Attributes: map[string]schema.Attribute{
			"group_id": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "The id of the named user group (often a system group such as `role:administrators`); null for an anonymous group.",
			},
			"direct_members": schema.ListAttribute{
				ElementType:         types.Int64Type,
				Computed:            true,
				MarkdownDescription: "User ids in the anonymous group; empty for a named group.",
			},
			"direct_subgroups": schema.ListAttribute{
				ElementType:         types.Int64Type,
				Computed:            true,
				MarkdownDescription: "User group ids whose members belong to the anonymous group; empty for a named group.",
			},
		},
	}
}

// groupSettingLevelNote says when a setting appeared.
func groupSettingLevelNote(level int) string {
	if level <= 0 {
		return ""
	}
	return "Null on servers older than feature level " + strconv.Itoa(level) + "."
}
