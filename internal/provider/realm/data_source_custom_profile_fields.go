package realm

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
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

// customProfileFieldTypeKeys are the configuration names of the field types:
// Zulip's register keys (SHORT_TEXT, ...) in lower case, with USER as "users".
var customProfileFieldTypeKeys = map[int]string{
	zulip.ProfileFieldShortText:       "short_text",
	zulip.ProfileFieldLongText:        "long_text",
	zulip.ProfileFieldSelect:          "select",
	zulip.ProfileFieldDate:            "date",
	zulip.ProfileFieldURL:             "url",
	zulip.ProfileFieldUser:            "users",
	zulip.ProfileFieldExternalAccount: "external_account",
	zulip.ProfileFieldPronouns:        "pronouns",
}

// customProfileFieldsDataSourceModel is the data source's configuration and result.
type customProfileFieldsDataSourceModel struct {
	Name   types.String `tfsdk:"name"`
	Fields types.List   `tfsdk:"fields"`
}

// customProfileFieldModel is one element of fields.
type customProfileFieldModel struct {
	ID                        types.Int64  `tfsdk:"id"`
	Name                      types.String `tfsdk:"name"`
	Type                      types.String `tfsdk:"type"`
	TypeID                    types.Int64  `tfsdk:"type_id"`
	Hint                      types.String `tfsdk:"hint"`
	Order                     types.Int64  `tfsdk:"order"`
	Required                  types.Bool   `tfsdk:"required"`
	EditableByUser            types.Bool   `tfsdk:"editable_by_user"`
	DisplayInProfileSummary   types.Bool   `tfsdk:"display_in_profile_summary"`
	UseForUserMatching        types.Bool   `tfsdk:"use_for_user_matching"`
	Options                   types.List   `tfsdk:"options"`
	ExternalAccountSubtype    types.String `tfsdk:"external_account_subtype"`
	ExternalAccountURLPattern types.String `tfsdk:"external_account_url_pattern"`
	FieldData                 types.String `tfsdk:"field_data"`
}

// customProfileFieldOptionModel is one choice of a Dropdown field.
type customProfileFieldOptionModel struct {
	Key   types.String `tfsdk:"key"`
	Text  types.String `tfsdk:"text"`
	Order types.Int64  `tfsdk:"order"`
}

// customProfileFieldOptionType is the element type of options.
var customProfileFieldOptionType = kit.ObjectTypeOf(customProfileFieldOptionAttributes())

// customProfileFieldType is the element type of fields.
var customProfileFieldType = kit.ObjectTypeOf(customProfileFieldAttributes())

// customProfileFieldsData lists the organization's custom profile fields.
var customProfileFieldsData = &kit.DataSource[customProfileFieldsDataSourceModel]{Name: "custom_profile_fields", Read: readCustomProfileFields,
	Schema: schema.Schema{
		MarkdownDescription: "Lists the organization's custom profile fields (any account may read them), in the " +
			"order Zulip shows them. Use it to address fields by name where Zulip wants ids, e.g. in `zulip_user`'s " +
			"`profile_data`: `{ for f in data.zulip_custom_profile_fields.all.fields : f.name => f.id }`.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only the field with exactly this name (Zulip's field names are unique in an " +
					"organization). Reading fails, listing the organization's fields, when there is none, so that " +
					"`one(data.zulip_custom_profile_fields.x.fields)` always yields the field.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"fields": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The fields, sorted by `order`.",
				NestedObject: schema.NestedAttributeObject{
					Attributes: customProfileFieldAttributes(),
				},
			},
		},
	},
}

// customProfileFieldAttributes are the attributes of one element of fields.
func customProfileFieldAttributes() map[string]schema.Attribute {
	attributes := customProfileFieldIdentityAttributes()
	maps.Copy(attributes, customProfileFieldSettingsAttributes())
	maps.Copy(attributes, customProfileFieldDataAttributes())
	return attributes
}

// customProfileFieldIdentityAttributes say which field an element is: its id,
// name, type, help text and position.
func customProfileFieldIdentityAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":   kit.ComputedInt64("The field's id, the key of its value in a user's `profile_data`."),
		"name": kit.ComputedString("The field's name (label)."),
		"type": kit.ComputedString("The field's type: `short_text`, `long_text` (Paragraph), `select` " +
			"(Dropdown), `date`, `url` (Link), `users`, `external_account` or `pronouns`; " +
			"`unknown` for a type this provider does not know (see `type_id`)."),
		"type_id": kit.ComputedInt64("The field's type as Zulip numbers it: `1` short text … `8` pronouns."),
		"hint":    kit.ComputedString("The help text shown with the field; empty when there is none."),
		"order":   kit.ComputedInt64("The field's position in profiles."),
	}
}

// customProfileFieldSettingsAttributes are the field's switches: whether it is
// required, editable by users, shown in the summary, used to match users.
func customProfileFieldSettingsAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"required": kit.ComputedBool("Whether users are asked to fill the field in (Zulip feature level 244)."),
		"editable_by_user": kit.ComputedBool("Whether users may change their own value; when `false` only " +
			"administrators can (Zulip feature level 296)."),
		"display_in_profile_summary": kit.ComputedBool("Whether the field is shown in the user card summary."),
		"use_for_user_matching": kit.ComputedBool("Whether the field's values help match users when typing a mention " +
			"(Zulip feature level 455)."),
	}
}

// customProfileFieldDataAttributes are what a field holds for its type: a
// Dropdown's options, an external account's kind and URL, the raw field_data.
func customProfileFieldDataAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"options": schema.ListNestedAttribute{
			Computed: true,
			MarkdownDescription: "For a `select` field, its choices sorted by `order`; a user's value " +
				"is the chosen option's `key`. Null for other types.",
			NestedObject: schema.NestedAttributeObject{Attributes: customProfileFieldOptionAttributes()},
		},
		"external_account_subtype": kit.ComputedString("For an `external_account` field, its kind: `github`, `twitter`, " +
			"… or `custom`; null for other types."),
		"external_account_url_pattern": kit.ComputedString("For a `custom` external account field, the URL built from a value, " +
			"with `%(username)s` standing for it; null otherwise."),
		"field_data": kit.ComputedString("The field's raw `field_data` as the server sends it: JSON text " +
			"(decode it with `jsondecode`), or empty."),
	}
}

// customProfileFieldOptionAttributes are the attributes of one option of a
// Dropdown field.
func customProfileFieldOptionAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"key":  kit.ComputedString("The option's key: what a user's value of the field holds."),
		"text": kit.ComputedString("The option's text as users see it."),
		"order": kit.ComputedInt64("The option's position; null when the server stores " +
			"something that is not a number."),
	}
}

// readCustomProfileFields fills the model from the server.
func readCustomProfileFields(ctx context.Context, d *kit.ProviderData, m *customProfileFieldsDataSourceModel, diags *diag.Diagnostics) {
	all, err := kit.ProfileFieldCollection(d).List(ctx) // the run's one list, shared with the resources
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Custom Profile Fields", "list the custom profile fields", kit.RoleAny, err)
		return
	}
	list := slices.Clone(all)
	sort.SliceStable(list, func(i, j int) bool { return list[i].Order < list[j].Order })
	if kit.Known(m.Name) {
		name := m.Name.ValueString()
		var match []zulip.CustomProfileField
		for _, f := range list {
			if f.Name == name {
				match = append(match, f)
			}
		}
		if len(match) == 0 {
			diags.AddAttributeError(path.Root("name"), "Custom Profile Field Not Found",
				fmt.Sprintf("The organization has no custom profile field named %q (names are compared exactly). %s",
					name, customProfileFieldNames(list)))
			return
		}
		list = match
	}
	tflog.Debug(ctx, "read custom profile fields", map[string]any{"count": len(list)})
	m.Fields = customProfileFieldsFromAPI(ctx, list, diags)
	if diags.HasError() {
		return
	}
}

// customProfileFieldNames lists the fields' names for an error message.
func customProfileFieldNames(list []zulip.CustomProfileField) string {
	if len(list) == 0 {
		return "The organization has no custom profile fields."
	}
	names := make([]string, 0, len(list))
	for _, f := range list {
		names = append(names, strconv.Quote(f.Name))
	}
	return "Its fields are: " + strings.Join(names, ", ") + "."
}

// customProfileFieldsFromAPI converts the server's fields to the fields list.
func customProfileFieldsFromAPI(ctx context.Context, list []zulip.CustomProfileField, diags *diag.Diagnostics) types.List {
	elems := make([]customProfileFieldModel, 0, len(list))
	for _, f := range list {
		elems = append(elems, customProfileFieldFromAPI(ctx, f, diags))
	}
	v, d := types.ListValueFrom(ctx, customProfileFieldType, elems)
	diags.Append(d...)
	return v
}

// customProfileFieldFromAPI converts one field. Type-specific parts that the
// server sends in an unexpected shape are left null (and logged) rather than
// failing the read: field_data still carries them verbatim.
func customProfileFieldFromAPI(ctx context.Context, f zulip.CustomProfileField, diags *diag.Diagnostics) customProfileFieldModel {
	typeKey, ok := customProfileFieldTypeKeys[f.Type]
	if !ok {
		typeKey = "unknown"
	}
	m := customProfileFieldModel{
		ID:                        types.Int64Value(f.ID),
		Name:                      types.StringValue(f.Name),
		Type:                      types.StringValue(typeKey),
		TypeID:                    types.Int64Value(int64(f.Type)),
		Hint:                      types.StringValue(f.Hint),
		Order:                     types.Int64Value(int64(f.Order)),
		Required:                  types.BoolValue(f.Required),
		EditableByUser:            types.BoolValue(f.EditableByUser),
		DisplayInProfileSummary:   types.BoolValue(f.DisplayInProfileSummary),
		UseForUserMatching:        types.BoolValue(f.UseForUserMatching),
		Options:                   types.ListNull(customProfileFieldOptionType),
		ExternalAccountSubtype:    types.StringNull(),
		ExternalAccountURLPattern: types.StringNull(),
		FieldData:                 types.StringValue(f.FieldData),
	}
	switch f.Type {
	case zulip.ProfileFieldSelect:
		options, err := f.SelectOptions()
		if err != nil {
			tflog.Warn(ctx, "dropdown field_data is not an option map", map[string]any{"field_id": f.ID, "error": err.Error()})
			break
		}
		v, d := types.ListValueFrom(ctx, customProfileFieldOptionType, customProfileFieldOptions(options))
		diags.Append(d...)
		m.Options = v
	case zulip.ProfileFieldExternalAccount:
		ext, err := f.ExternalAccount()
		if err != nil {
			tflog.Warn(ctx, "external account field_data is not a subtype", map[string]any{"field_id": f.ID, "error": err.Error()})
			break
		}
		if ext.Subtype != "" {
			m.ExternalAccountSubtype = types.StringValue(ext.Subtype)
		}
		if ext.URLPattern != "" {
			m.ExternalAccountURLPattern = types.StringValue(ext.URLPattern)
		}
	}
	return m
}

// customProfileFieldOptions orders a Dropdown's options by their order (a
// number kept as text by Zulip), then by key.
func customProfileFieldOptions(options map[string]zulip.SelectOption) []customProfileFieldOptionModel {
	out := make([]customProfileFieldOptionModel, 0, len(options))
	rank := make(map[string]int64, len(options))
	for key, o := range options {
		order := types.Int64Null()
		if n, err := strconv.ParseInt(strings.TrimSpace(o.Order), 10, 64); err == nil {
			order = types.Int64Value(n)
			rank[key] = n
		}
		out = append(out, customProfileFieldOptionModel{Key: types.StringValue(key), Text: types.StringValue(o.Text), Order: order})
	}
	sort.Slice(out, func(i, j int) bool {
		ki, kj := out[i].Key.ValueString(), out[j].Key.ValueString()
		ri, iok := rank[ki]
		rj, jok := rank[kj]
		switch {
		case iok && jok && ri != rj:
			return ri < rj
		case iok != jok:
			return iok // options with a numeric order first
		}
		return ki < kj
	})
	return out
}
