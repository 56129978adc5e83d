package kit

// Resource identity (Terraform 1.12+): every resource with an object on the
// server declares the key Terraform stores beside its state, which `import {
// identity = {...} }` blocks and `terraform query` use.
//
// The identity is written once, here, rather than in every resource's CRUD:
// the kit's wrapper (ruled, with the registry entry's identity), after each
// Create, Read, Update and ImportState, copies the identity's attributes from
// the resource's state
// (from the prior state on the Read that finds the object gone, where the
// framework still requires one). The identity is the human key where Zulip
// has one (a channel's name, a user's e-mail, a domain) and the ids the
// configuration refers by otherwise, which every state already holds, so it
// is known even for an object that is gone and on Terraform before 1.12,
// which stores no identity to fall back on. An import by identity becomes the
// import id the resource already accepts (ImportID), so there is one lookup
// per type whichever way the object is imported.
//
// Zulip lets most human keys change in place (a channel or group renamed, an
// e-mail address changed), so those identities are mutable: the framework's
// check that an identity never changes is turned off for them (Terraform
// itself stopped enforcing it in 1.12).

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// IdentityAttr is one attribute of an identity, copied from the state
// attribute of the same name.
type IdentityAttr struct {
	Name        string
	Number      bool // an int64 attribute, else a string
	Description string
	// optional marks an attribute that may be null (an address hidden from
	// the provider's account) and may be left out of an import by identity.
	optional bool
}

// IdentitySpec is the identity of a resource type.
type IdentitySpec struct {
	Attrs []IdentityAttr
	// ImportID turns the identity's values (in attrs' order, numbers written
	// in decimal, "" for an optional one left out) into the import id the
	// resource accepts; when nil, the one attribute's value is the import id.
	ImportID func(values []string) string
	// mutable marks an identity that Zulip lets change in place.
	Mutable bool
}

// IdentityOf is the identity of one string attribute that is the import id.
func IdentityOf(name, description string, mutable bool) IdentitySpec {
	return IdentitySpec{Attrs: []IdentityAttr{{Name: name, Description: description}}, Mutable: mutable}
}

// IdentityOfIDs is the identity of id attributes joined by ':' into the
// import id, e.g. channel_id and user_id into "12:45".
func IdentityOfIDs(attrs ...IdentityAttr) IdentitySpec {
	return IdentitySpec{Attrs: attrs, ImportID: func(v []string) string { return strings.Join(v, ":") }}
}

// schema is the identity schema: every attribute is needed to import.
func (s IdentitySpec) schema() identityschema.Schema {
	attrs := make(map[string]identityschema.Attribute, len(s.Attrs))
	for _, a := range s.Attrs {
		if a.Number {
			attrs[a.Name] = identityschema.Int64Attribute{RequiredForImport: !a.optional, OptionalForImport: a.optional, Description: a.Description}
		} else {
			attrs[a.Name] = identityschema.StringAttribute{RequiredForImport: !a.optional, OptionalForImport: a.optional, Description: a.Description}
		}
	}
	return identityschema.Schema{Attributes: attrs}
}

// fromState copies the identity from a state (or plan). It reports false,
// leaving identity as it is, when the state does not hold every value (a
// state without the object, or a value still unknown). The values are taken
// from the state's raw value and the identity is built as one: it runs after
// every refresh of every resource, and the framework's path look-ups would
// walk the schema for each attribute.
func (s IdentitySpec) fromState(ctx context.Context, state tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) bool {
	if identity == nil || state.Raw.IsNull() || !state.Raw.IsKnown() {
		return false
	}
	var attrs map[string]tftypes.Value
	if state.Raw.As(&attrs) != nil {
		return false
	}
	values := make(map[string]tftypes.Value, len(s.Attrs))
	for _, a := range s.Attrs {
		want := tftypes.String
		if a.Number {
			want = tftypes.Number
		}
		v, ok := attrs[a.Name]
		if !ok || !v.Type().Is(want) || !v.IsKnown() || v.IsNull() && !a.optional {
			return false
		}
		values[a.Name] = v
	}
	typ := identity.Schema.Type().TerraformType(ctx)
	if err := tftypes.ValidateValue(typ, values); err != nil {
		diags.AddError("Unable to Record the Identity", "The resource's identity does not fit its schema: "+err.Error())
		return false
	}
	identity.Raw = tftypes.NewValue(typ, values)
	return true
}

// completeAfterCreate records the identity of an object whose create left
// some of it out of the state: each attribute comes from the state, else
// from the plan (what the configuration set), else, for one the identity
// needs, from the object's key, its `id` (the key every create stores first,
// and an import id every resource whose identity holds a value computed at
// create accepts, e.g. a bot's id for its address). The next refresh
// replaces a value taken from the id with the real one. It records nothing
// for a state without the object.
func (s IdentitySpec) completeAfterCreate(ctx context.Context, state tfsdk.State, plan tfsdk.Plan, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if identity == nil || state.Raw.IsNull() || !state.Raw.IsKnown() {
		return
	}
	key, hasKey := objectKey(ctx, state)
	values := make([]attr.Value, len(s.Attrs))
	set := 0
	for i, a := range s.Attrs {
		v := identityValue(a, func(p path.Path, target any) diag.Diagnostics { return state.GetAttribute(ctx, p, target) })
		if v == nil && !plan.Raw.IsNull() {
			v = identityValue(a, func(p path.Path, target any) diag.Diagnostics { return plan.GetAttribute(ctx, p, target) })
		}
		if v == nil && !a.optional && hasKey {
			if a.Number {
				if n, err := strconv.ParseInt(key, 10, 64); err == nil {
					v = types.Int64Value(n)
				}
			} else {
				v = types.StringValue(key)
			}
		}
		switch {
		case v != nil:
			set++
		case a.Number:
			v = types.Int64Null()
		default:
			v = types.StringNull()
		}
		values[i] = v
	}
	if set == 0 {
		return // no key at all: nothing identifies the object
	}
	for i, a := range s.Attrs {
		diags.Append(identity.SetAttribute(ctx, path.Root(a.Name), values[i])...)
	}
}

// identityValue is an identity attribute's known, non-null value as get reads
// it; nil when there is none.
func identityValue(a IdentityAttr, get func(path.Path, any) diag.Diagnostics) attr.Value {
	if a.Number {
		var n types.Int64
		if get(path.Root(a.Name), &n).HasError() || !Known(n) {
			return nil
		}
		return n
	}
	var str types.String
	if get(path.Root(a.Name), &str).HasError() || !Known(str) || str.ValueString() == "" {
		return nil
	}
	return str
}

// objectKey is the state's `id` in decimal or as it is; false when the state
// has none.
func objectKey(ctx context.Context, state tfsdk.State) (string, bool) {
	var n types.Int64
	if !state.GetAttribute(ctx, path.Root("id"), &n).HasError() {
		return strconv.FormatInt(n.ValueInt64(), 10), Known(n)
	}
	var str types.String
	if !state.GetAttribute(ctx, path.Root("id"), &str).HasError() && Known(str) && str.ValueString() != "" {
		return str.ValueString(), true
	}
	return "", false
}

// toImportID reads an identity given to import into the resource's import id.
func (s IdentitySpec) toImportID(ctx context.Context, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) (string, bool) {
	values := make([]string, len(s.Attrs))
	given := false
	for i, a := range s.Attrs {
		if a.Number {
			var n types.Int64
			diags.Append(identity.GetAttribute(ctx, path.Root(a.Name), &n)...)
			if Known(n) {
				values[i] = strconv.FormatInt(n.ValueInt64(), 10)
			}
		} else {
			var str types.String
			diags.Append(identity.GetAttribute(ctx, path.Root(a.Name), &str)...)
			values[i] = str.ValueString()
		}
		switch {
		case values[i] != "":
			given = true
		case !a.optional:
			diags.AddAttributeError(path.Root(a.Name), "Missing Identity Attribute",
				fmt.Sprintf("Importing by identity needs %q (%s).", a.Name, a.Description))
		}
	}
	if !given && !diags.HasError() {
		diags.AddError("Empty Identity", "Importing by identity needs one of "+s.names()+".")
	}
	if diags.HasError() {
		return "", false
	}
	if s.ImportID == nil {
		return values[0], true
	}
	return s.ImportID(values), true
}

// names lists the identity's attribute names, for messages.
func (s IdentitySpec) names() string {
	names := make([]string, len(s.Attrs))
	for i, a := range s.Attrs {
		names[i] = strconv.Quote(a.Name)
	}
	return strings.Join(names, " or ")
}

// afterCreate records the identity of a created object. A create that made
// the object but not all of it (a later request failed, which the resource
// reports as a warning so that Terraform keeps the object untainted) may
// leave an identity attribute unknown, which SettleUnknowns makes null:
// completeAfterCreate fills it, because the framework refuses a create
// without an identity as an error, which taints the object.
func (s IdentitySpec) afterCreate(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if !s.fromState(ctx, resp.State, resp.Identity, &resp.Diagnostics) {
		s.completeAfterCreate(ctx, resp.State, req.Plan, resp.Identity, &resp.Diagnostics)
	}
}

// afterRefresh records the identity after a Read or an Update (which a
// rename changes); an object gone keeps the identity of its prior state.
func (s IdentitySpec) afterRefresh(ctx context.Context, prior, now tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if !s.fromState(ctx, now, identity, diags) {
		s.fromState(ctx, prior, identity, diags)
	}
}

// The identity attributes the resources share.
var (
	ChannelIDAttr = IdentityAttr{Name: "channel_id", Number: true, Description: "The channel's id."}
	GroupIDAttr   = IdentityAttr{Name: "group_id", Number: true, Description: "The user group's id."}
	UserIDAttr    = IdentityAttr{Name: "user_id", Number: true, Description: "The user's id."}
	// UserIdentity is a user's real address, and the id, which is all the
	// identity when the address is hidden from the provider's account; an
	// import by identity uses the address when given.
	UserIdentity = IdentitySpec{Attrs: []IdentityAttr{
		{Name: "email", optional: true, Description: "The user's real (delivery) e-mail address; null when it is hidden from the provider's account."},
		{Name: "id", Number: true, optional: true, Description: "The user's id."},
	}, ImportID: func(v []string) string {
		if v[0] != "" {
			return v[0]
		}
		return v[1]
	}, Mutable: true}
	// SingletonIdentity is the identity of an organization-wide resource: its
	// id, the import id it was imported by (the organization's URL for the
	// settings, the collection's name for an order).
	SingletonIdentity = IdentityOf("id", "The import id: the organization's URL for `zulip_realm`, `zulip_realm_user_defaults` and "+
		"`zulip_realm_branding`, the collection's name for an order or the default channels.", false)
)

// importIDOf is the import id of the object a state holds, "" when the state
// lacks a value the identity needs.
func (s IdentitySpec) importIDOf(raw tftypes.Value) string {
	values := make([]string, len(s.Attrs))
	for i, a := range s.Attrs {
		if v := rawStrings(raw, []string{a.Name}); len(v) == 1 {
			values[i] = v[0]
		} else if !a.optional {
			return ""
		}
	}
	if s.ImportID == nil {
		return values[0]
	}
	return s.ImportID(values)
}
