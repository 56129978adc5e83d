package kit

// List resources (Terraform 1.14+): `list "zulip_<type>" "all" {}` blocks that
// `terraform query` runs, and whose results `-generate-config-out` turns into
// configuration and import blocks.
//
// A list finds its objects with the same listers as zulip_import_blocks
// (importSources), so the two paths to adopting an organization adopt the
// same objects. Each result is then made by the resource itself: its
// ImportState with the import id, then its Read, exactly as `terraform import`
// would. The generated configuration is therefore what an import reads back,
// and plans empty; and since both read the run's cached collections, a list
// costs one request per collection however many objects it finds.

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// ListResource lists the objects of one resource type.
type ListResource struct {
	Src         ImportSource
	NewResource func() resource.Resource
	data        *ProviderData
}

// Metadata names the list resource after its resource type.
func (l *ListResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = l.Src.TypeName
}

// Configure receives the provider's data.
func (l *ListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// nameRegexAttr is the filter every list has.
const nameRegexAttr = "name_regex"

// ListResourceConfigSchema describes the list's filters.
func (l *ListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	attrs := map[string]listschema.Attribute{
		nameRegexAttr: listschema.StringAttribute{Optional: true,
			MarkdownDescription: "Lists only the objects whose display name matches this regular expression (Go syntax, " +
				"unanchored: `^team-` for names starting with `team-`)."},
	}
	for name, f := range l.Src.Filters {
		attrs[name] = f.Attr
	}
	resp.Schema = listschema.Schema{
		MarkdownDescription: l.Src.ListDescription + " Results are named by what people recognise (a name, a " +
			"user's name and address); `include_resource = true` fills each result with the object as an import " +
			"would read it, which `terraform query -generate-config-out` writes as configuration that plans empty " +
			"after import. The whole list costs one request per collection read, however many objects it finds.",
		Attributes: attrs,
	}
}

// ListFilter is one filter of a list beyond name_regex.
type ListFilter struct {
	Attr listschema.Attribute
}

// FilterValues are a list's filter values, read from its configuration (none
// for zulip_import_blocks, which lists with the defaults).
type FilterValues struct {
	ctx    context.Context
	config *tfsdk.Config
}

// Str returns a string filter's value ("" when not set).
func (f FilterValues) Str(name string) string {
	var v types.String
	if f.config == nil || f.config.GetAttribute(f.ctx, path.Root(name), &v).HasError() {
		return ""
	}
	return v.ValueString()
}

// Number returns an int64 filter's value (0 when not set).
func (f FilterValues) Number(name string) int64 {
	var v types.Int64
	if f.config == nil || f.config.GetAttribute(f.ctx, path.Root(name), &v).HasError() {
		return 0
	}
	return v.ValueInt64()
}

// Flag returns a bool filter's value (false when not set).
func (f FilterValues) Flag(name string) bool {
	var v types.Bool
	if f.config == nil || f.config.GetAttribute(f.ctx, path.Root(name), &v).HasError() {
		return false
	}
	return v.ValueBool()
}

// List streams the objects: each made by the resource's own import and read.
func (l *ListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	fail := func() { stream.Results = list.ListResultsStreamDiagnostics(diags) }
	if !l.data.Ready(&diags) {
		fail()
		return
	}
	var nameRegex *regexp.Regexp
	if expr := (FilterValues{ctx, &req.Config}).Str(nameRegexAttr); expr != "" {
		re, err := regexp.Compile(expr)
		if err != nil {
			diags.AddAttributeError(path.Root(nameRegexAttr), "Invalid Regular Expression", err.Error())
			fail()
			return
		}
		nameRegex = re
	}
	targets, err := l.Src.List(ctx, l.data, FilterValues{ctx, &req.Config})
	if err != nil {
		AddAPIError(&diags, "Unable to List "+l.Src.TypeName, "list the objects", RoleAny, err)
		fail()
		return
	}
	r := l.NewResource()
	if c, ok := r.(resource.ResourceWithConfigure); ok {
		var cr resource.ConfigureResponse
		c.Configure(ctx, resource.ConfigureRequest{ProviderData: l.data}, &cr)
		diags.Append(cr.Diagnostics...)
	}
	imp, ok := r.(resource.ResourceWithImportState)
	if !ok {
		diags.AddError("Internal Error", fmt.Sprintf("%s cannot be imported; this is a bug in the provider.", l.Src.TypeName))
	}
	if diags.HasError() {
		fail()
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		sent := int64(0)
		for _, t := range targets {
			if nameRegex != nil && !nameRegex.MatchString(t.displayName()) {
				continue
			}
			if req.Limit > 0 && sent >= req.Limit {
				return
			}
			sent++
			if !push(l.result(ctx, req, imp, t)) {
				return
			}
		}
	}
}

// result makes one object's result through the resource's ImportState and Read.
func (l *ListResource) result(ctx context.Context, req list.ListRequest, r resource.ResourceWithImportState, t ImportTarget) list.ListResult {
	out := req.NewListResult(ctx)
	out.DisplayName = t.displayName()
	empty := tfsdk.State{Schema: req.ResourceSchema, Raw: tftypes.NewValue(req.ResourceSchema.Type().TerraformType(ctx), nil)}
	importResp := resource.ImportStateResponse{State: empty, Identity: out.Identity}
	r.ImportState(ctx, resource.ImportStateRequest{ID: t.ID}, &importResp)
	out.Diagnostics.Append(importResp.Diagnostics...)
	if out.Diagnostics.HasError() {
		return out
	}
	readResp := resource.ReadResponse{State: importResp.State, Identity: out.Identity}
	r.Read(ctx, resource.ReadRequest{State: importResp.State, Identity: out.Identity}, &readResp)
	out.Diagnostics.Append(readResp.Diagnostics...)
	switch {
	case out.Diagnostics.HasError():
	case readResp.State.Raw.IsNull():
		out.Diagnostics.AddError("Object Disappeared", fmt.Sprintf("The %s %q was deleted while it was being listed.", l.Src.TypeName, t.ID))
	case req.IncludeResource:
		out.Resource.Raw = readResp.State.Raw
	}
	return out
}

// displayName is how a result is shown: its name, or its own display text.
func (t ImportTarget) displayName() string {
	if t.Display != "" {
		return t.Display
	}
	return strings.TrimSpace(t.Name)
}
