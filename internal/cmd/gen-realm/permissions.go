package main

import (
	"bytes"
	"fmt"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
)

// permissionTable is a scope's permissions and the names its provider code
// takes: the model struct the resource and data sources embed, the setting
// table (one entry per permission: where the model, the server's object and
// the client's requests keep it), and the client's types.
type permissionTable struct {
	file   string
	pkg    string
	specs  []realmspec.GroupPermission
	model  string // the embedded model struct
	table  string // the setting table's variable
	kind   string // the kit's permission kind
	object string // the client's object type (zulip.Channel)
	create string // the client's create permissions
	update string // the client's permission updates
	doc    string
}

var permissionTables = []permissionTable{
	{file: "internal/provider/channels/channel_permissions_gen.go", pkg: "channels", specs: realmspec.ChannelPermissions,
		model: "channelPermissions", table: "channelSettings", kind: "kit.PermissionOfChannel",
		object: "zulip.Channel", create: "zulip.ChannelPermissions", update: "zulip.ChannelPermissionUpdates",
		doc: "a channel's permissions (realmspec.ChannelPermissions)"},
	{file: "internal/provider/groups/group_permissions_gen.go", pkg: "groups", specs: realmspec.GroupPermissions,
		model: "userGroupPermissions", table: "userGroupSettings", kind: "kit.PermissionOfGroup",
		object: "zulip.UserGroup", create: "zulip.UserGroupPermissions", update: "zulip.UserGroupPermissionUpdates",
		doc: "a user group's permissions (realmspec.GroupPermissions)"},
}

// renderPermissions writes one scope's model struct and setting table.
func renderPermissions(b *bytes.Buffer, t permissionTable) {
	fmt.Fprintf(b, "package %s\n\n", t.pkg)
	b.WriteString("import (\n\t\"github.com/hashicorp/terraform-plugin-framework/datasource/schema\"\n" +
		"\t\"github.com/hashicorp/terraform-plugin-framework/types\"\n\n" +
		"\t\"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit\"\n" +
		"\t\"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip\"\n)\n\n")
	fmt.Fprintf(b, "// %s holds %s\n// in a model: the resource's and the data sources' embed it.\n", t.model, t.doc)
	fmt.Fprintf(b, "type %s struct {\n", t.model)
	for _, p := range t.specs {
		fmt.Fprintf(b, "\t%s types.Object `tfsdk:%q`\n", goName(p.Name), p.Name)
	}
	b.WriteString("}\n\n")
	typ := fmt.Sprintf("%s, %s, %s, %s", t.model, t.object, t.create, t.update)
	fmt.Fprintf(b, "// %s are %s:\n// where the model, the server's object and the client's requests keep each. A\n"+
		"// resource manages each from the later of its feature levels (AnyValueFL:\n// before it, only a group id).\n", t.table, t.doc)
	fmt.Fprintf(b, "var %s = kit.PermissionTable[%s]{Kind: %s, Fields: []kit.PermissionField[%s]{\n", t.table, typ, t.kind, typ)
	for _, p := range t.specs {
		level := max(p.FL, p.AnyValueFL)
		n := goName(p.Name)
		fmt.Fprintf(b, "\t{PermissionSetting: kit.PermissionSetting{Name: %q, What: %q, Level: %d},\n", p.Name, p.What, level)
		fmt.Fprintf(b, "\t\tModel: func(m *%s) *types.Object { return &m.%s },\n", t.model, n)
		fmt.Fprintf(b, "\t\tAPI: func(o *%s) *zulip.GroupSettingValue { return o.%s },\n", t.object, n)
		fmt.Fprintf(b, "\t\tCreate: func(p *%s) **zulip.GroupSettingValue { return &p.%s },\n", t.create, n)
		fmt.Fprintf(b, "\t\tUpdate: func(p *%s) **zulip.GroupSettingUpdate { return &p.%s }},\n", t.update, n)
	}
	b.WriteString("}}\n")
	fmt.Fprintf(b, "\n// %sDataAttributes adds the permissions' data source attributes to attrs:\n"+
		"// a data source shows each from the level that added it.\n", t.model)
	fmt.Fprintf(b, "func %sDataAttributes(attrs map[string]schema.Attribute) map[string]schema.Attribute {\n", t.model)
	for _, p := range t.specs {
		fmt.Fprintf(b, "\tattrs[%q] = kit.PermissionDataAttribute(kit.PermissionSetting{Name: %q, What: %q, Level: %d})\n", p.Name, p.Name, p.What, p.FL)
	}
	b.WriteString("\treturn attrs\n}\n")
}

// clientPermissionsFile holds the client's permission types, for every scope
// with objects (channels, user groups).
const clientPermissionsFile = "internal/zulip/permissions_gen.go"

// clientPermissionTypes are the client's names for a scope's permissions.
var clientPermissionTypes = []struct {
	specs          []realmspec.GroupPermission
	values, update string
	object, doc    string
	valuesDoc      string
}{
	{realmspec.ChannelPermissions, "ChannelPermissions", "ChannelPermissionUpdates", "Channel", "a channel's",
		"A nil field is not sent (CreateChannel, Subscribe) and the server applies its\n" +
			"// default (for can_administer_channel_group, the creator); read, it is nil on\n// servers older than the permission."},
	{realmspec.GroupPermissions, "UserGroupPermissions", "UserGroupPermissionUpdates", "UserGroup", "a user group's",
		"A nil field is not sent (CreateUserGroup) and the server applies its default;\n" +
			"// read, it is nil on servers older than the permission."},
}

// renderClientPermissions writes the client's permission types: the values
// (which the object embeds, read from JSON and sent as form parameters) and
// the updates, each with the names its parameters take.
func renderClientPermissions(b *bytes.Buffer) {
	b.WriteString("package zulip\n\n")
	for _, c := range clientPermissionTypes {
		fmt.Fprintf(b, "// %s are %s permissions as values (realmspec): %s embeds them.\n// %s\n",
			c.values, c.doc, c.object, c.valuesDoc)
		fmt.Fprintf(b, "type %s struct {\n", c.values)
		for _, p := range c.specs {
			fmt.Fprintf(b, "\t%s *GroupSettingValue `json:%q` // %s\n", goName(p.Name), p.Name, levelNote(p))
		}
		b.WriteString("}\n\n")
		renderNamed(b, c.values, "GroupSettingValue", c.specs)
		fmt.Fprintf(b, "// %s are %s permissions as updates (UpdateChannel,\n// UpdateUserGroup). A nil field is not sent and leaves the permission unchanged.\n", c.update, c.doc)
		fmt.Fprintf(b, "type %s struct {\n", c.update)
		for _, p := range c.specs {
			fmt.Fprintf(b, "\t%s *GroupSettingUpdate\n", goName(p.Name))
		}
		b.WriteString("}\n\n")
		renderNamed(b, c.update, "GroupSettingUpdate", c.specs)
	}
}

// renderNamed writes a permission type's named(): each parameter's name and value.
func renderNamed(b *bytes.Buffer, typ, value string, specs []realmspec.GroupPermission) {
	fmt.Fprintf(b, "func (s %s) named() []namedSetting[%s] {\n\treturn []namedSetting[%s]{\n", typ, value, value)
	for _, p := range specs {
		fmt.Fprintf(b, "\t\t{%q, s.%s},\n", p.Name, goName(p.Name))
	}
	b.WriteString("\t}\n}\n\n")
}

// levelNote is a permission's feature levels, for a field comment.
func levelNote(p realmspec.GroupPermission) string {
	if p.AnyValueFL > p.FL {
		return fmt.Sprintf("FL%d; any group-setting value since FL%d", p.FL, p.AnyValueFL)
	}
	return fmt.Sprintf("FL%d", p.FL)
}
