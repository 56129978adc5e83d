package provider

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

// listResource lists the objects of one resource type.
type listResource struct {
	src         importSource
	newResource func() resource.Resource
	data        *providerData
}

var (
	_ list.ListResourceWithConfigure = (*listResource)(nil)
)

// Metadata names the list resource after its resource type.
func (l *listResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = l.src.typeName
}

// Configure receives the provider's data.
func (l *listResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// nameRegexAttr is the filter every list has.
const nameRegexAttr = "name_regex"

// ListResourceConfigSchema describes the list's filters.
func (l *listResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	attrs := map[string]listschema.Attribute{
		nameRegexAttr: listschema.StringAttribute{Optional: true,
			MarkdownDescription: "Lists only the objects whose display name matches this regular expression (Go syntax, " +
				"unanchored: `^team-` for names starting with `team-`)."},
	}
	for name, f := range l.src.filters {
		attrs[name] = f.attr
	}
	resp.Schema = listschema.Schema{
		MarkdownDescription: l.src.listDescription + " Results are named by what people recognise (a name, a " +
			"user's name and address); `include_resource = true` fills each result with the object as an import " +
			"would read it, which `terraform query -generate-config-out` writes as configuration that plans empty " +
			"after import. The whole list costs one request per collection read, however many objects it finds.",
		Attributes: attrs,
	}
}

// listFilter is one filter of a list beyond name_regex.
type listFilter struct {
	attr listschema.Attribute
}

// filterValues are a list's filter values, read from its configuration (none
// for zulip_import_blocks, which lists with the defaults).
type filterValues struct {
	ctx    context.Context
	config *tfsdk.Config
}

// str returns a string filter's value ("" when not set).
func (f filterValues) str(name string) string {
	var v types.String
	if f.config == nil || f.config.GetAttribute(f.ctx, path.Root(name), &v).HasError() {
		return ""
	}
	return v.ValueString()
}

// number returns an int64 filter's value (0 when not set).
func (f filterValues) number(name string) int64 {
	var v types.Int64
	if f.config == nil || f.config.GetAttribute(f.ctx, path.Root(name), &v).HasError() {
		return 0
	}
	return v.ValueInt64()
}

// flag returns a bool filter's value (false when not set).
func (f filterValues) flag(name string) bool {
	var v types.Bool
	if f.config == nil || f.config.GetAttribute(f.ctx, path.Root(name), &v).HasError() {
		return false
	}
	return v.ValueBool()
}

// List streams the objects: each made by the resource's own import and read.
func (l *listResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	fail := func() { stream.Results = list.ListResultsStreamDiagnostics(diags) }
	if !l.data.ready(&diags) {
		fail()
		return
	}
	var nameRegex *regexp.Regexp
	if expr := (filterValues{ctx, &req.Config}).str(nameRegexAttr); expr != "" {
		re, err := regexp.Compile(expr)
		if err != nil {
			diags.AddAttributeError(path.Root(nameRegexAttr), "Invalid Regular Expression", err.Error())
			fail()
			return
		}
		nameRegex = re
	}
	targets, err := l.src.list(ctx, l.data, filterValues{ctx, &req.Config})
	if err != nil {
		addAPIError(&diags, "Unable to List "+l.src.typeName, "list the objects", roleAny, err)
		fail()
		return
	}
	r := l.newResource()
	if c, ok := r.(resource.ResourceWithConfigure); ok {
		var cr resource.ConfigureResponse
		c.Configure(ctx, resource.ConfigureRequest{ProviderData: l.data}, &cr)
		diags.Append(cr.Diagnostics...)
	}
	imp, ok := r.(resource.ResourceWithImportState)
	if !ok {
		diags.AddError("Internal Error", fmt.Sprintf("%s cannot be imported; this is a bug in the provider.", l.src.typeName))
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
func (l *listResource) result(ctx context.Context, req list.ListRequest, r resource.ResourceWithImportState, t importTarget) list.ListResult {
	out := req.NewListResult(ctx)
	out.DisplayName = t.displayName()
	empty := tfsdk.State{Schema: req.ResourceSchema, Raw: tftypes.NewValue(req.ResourceSchema.Type().TerraformType(ctx), nil)}
	importResp := resource.ImportStateResponse{State: empty, Identity: out.Identity}
	r.ImportState(ctx, resource.ImportStateRequest{ID: t.id}, &importResp)
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
		out.Diagnostics.AddError("Object Disappeared", fmt.Sprintf("The %s %q was deleted while it was being listed.", l.src.typeName, t.id))
	case req.IncludeResource:
		out.Resource.Raw = readResp.State.Raw
	}
	return out
}

// displayName is how a result is shown: its name, or its own display text.
func (t importTarget) displayName() string {
	if t.display != "" {
		return t.display
	}
	return strings.TrimSpace(t.name)
}
