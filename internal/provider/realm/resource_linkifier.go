package realm

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState    = (*LinkifierResource)(nil)
	_ resource.ResourceWithValidateConfig = (*LinkifierResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*LinkifierResource)(nil)
)

// Feature levels of the linkifier fields (digest §10).
const (
	featureLinkifierReverse      = 471 // example_input, reverse_template
	featureLinkifierAlternatives = 478 // alternative_url_templates
)

// NewLinkifierResource returns the zulip_linkifier resource.
func NewLinkifierResource() resource.Resource {
	return &LinkifierResource{ObjectResource: kit.ObjectResourceOf(&linkifiers)}
}

// LinkifierResource manages one realm linkifier.
type LinkifierResource struct {
	kit.ObjectResource[linkifierResourceModel, zulip.Linkifier]
}

// linkifierResourceModel is the zulip_linkifier state.
type linkifierResourceModel struct {
	ID                      types.Int64  `tfsdk:"id"`
	Pattern                 types.String `tfsdk:"pattern"`
	URLTemplate             types.String `tfsdk:"url_template"`
	ExampleInput            types.String `tfsdk:"example_input"`
	ReverseTemplate         types.String `tfsdk:"reverse_template"`
	AlternativeURLTemplates types.List   `tfsdk:"alternative_url_templates"`
}

// Schema describes the resource.
func (r *LinkifierResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	noSpace := validators.String("must not start or end with whitespace (Zulip strips it)", kit.CheckNoOuterSpace)
	resp.Schema = schema.Schema{
		MarkdownDescription: "A linkifier: text in messages that matches `pattern` becomes a link built from " +
			"`url_template`. Needs an organization administrator's credentials. New linkifiers are applied after " +
			"existing ones.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableInt64("The linkifier's id."),
			"pattern": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Regular expression in RE2 syntax (Zulip compiles it with RE2: no look-arounds or " +
					"backreferences), with named groups `(?P<name>...)` for the parts the URL uses. Unique in the organization.",
				Validators: []validator.String{validators.RE2Pattern(), noSpace},
			},
			"url_template": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "RFC 6570 URL template; its variables must be exactly the pattern's named groups, " +
					"e.g. `https://github.com/zulip/zulip/issues/{id}`.",
				Validators: []validator.String{validators.URLTemplate(), noSpace},
			},
			"example_input": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Text that the pattern matches, shown as an example in Zulip's settings. " +
					"Needs Zulip feature level 471 (Zulip 11.0).",
			},
			"reverse_template": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Template that turns the groups back into the pattern's text (`{name}` for a group, " +
					"`{{`/`}}` for literal braces); used when a pasted URL is turned back into a short form. Requires " +
					"`example_input`, which it must reproduce. Needs Zulip feature level 471.",
			},
			"alternative_url_templates": schema.ListAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Other RFC 6570 URL templates that should also be recognized as this linkifier when " +
					"pasted (for reverse linkification only). Needs Zulip feature level 478.",
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.ValueStringsAre(validators.URLTemplate()),
				},
			},
		},
	}
}

// ValidateConfig applies the server's cross-field rules at plan time.
func (r *LinkifierResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m linkifierResourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Pattern.IsUnknown() || m.Pattern.IsNull() {
		return
	}
	pattern := m.Pattern.ValueString()
	if _, err := validators.CheckPattern(pattern); err != nil {
		return // reported by the attribute validator
	}
	if kit.Known(m.URLTemplate) {
		checkLinkifierURLTemplate(pattern, m.URLTemplate.ValueString(), &resp.Diagnostics)
	}
	if kit.Known(m.ReverseTemplate) {
		checkLinkifierReverse(pattern, m, &resp.Diagnostics)
	}
	if kit.Known(m.ExampleInput) && m.ReverseTemplate.IsNull() {
		checkLinkifierExample(pattern, m.ExampleInput.ValueString(), &resp.Diagnostics)
	}
	if !m.AlternativeURLTemplates.IsNull() && !m.AlternativeURLTemplates.IsUnknown() {
		checkLinkifierAlternatives(ctx, pattern, m.AlternativeURLTemplates, &resp.Diagnostics)
	}
}

// checkLinkifierURLTemplate checks that a well-formed url_template uses the
// pattern's named groups.
func checkLinkifierURLTemplate(pattern, template string, diags *diag.Diagnostics) {
	if _, err := validators.CheckURLTemplate(template); err == nil {
		if err := validators.CheckGroupsMatchTemplate(pattern, template); err != nil {
			diags.AddAttributeError(path.Root("url_template"), "URL Template Does Not Match the Pattern", err.Error())
		}
	}
}

// checkLinkifierReverse checks a reverse_template: it needs example_input,
// which it must reproduce, as Zulip checks it.
func checkLinkifierReverse(pattern string, m linkifierResourceModel, diags *diag.Diagnostics) {
	switch {
	case m.ExampleInput.IsNull():
		diags.AddAttributeError(path.Root("example_input"), "Missing Example Input",
			"reverse_template requires example_input: Zulip checks the reverse template by reproducing the example.")
	case kit.Known(m.ExampleInput):
		if err := validators.CheckReverseTemplate(pattern, m.ExampleInput.ValueString(), m.ReverseTemplate.ValueString()); err != nil {
			diags.AddAttributeError(path.Root("reverse_template"), "Reverse Template Does Not Round-Trip", err.Error())
		}
	}
}

// checkLinkifierExample checks that example_input, without a reverse
// template, matches the pattern.
func checkLinkifierExample(pattern, example string, diags *diag.Diagnostics) {
	if err := validators.CheckReverseTemplate(pattern, example, ""); err != nil &&
		strings.Contains(err.Error(), "does not match") {
		diags.AddAttributeError(path.Root("example_input"), "Example Input Does Not Match the Pattern", err.Error())
	}
}

// checkLinkifierAlternatives checks that each well-formed alternative URL
// template fits the pattern.
func checkLinkifierAlternatives(ctx context.Context, pattern string, list types.List, diags *diag.Diagnostics) {
	var alts []types.String
	diags.Append(list.ElementsAs(ctx, &alts, false)...)
	for i, alt := range alts {
		if !kit.Known(alt) {
			continue
		}
		if _, err := validators.CheckURLTemplate(alt.ValueString()); err != nil {
			continue // reported by the element validator
		}
		if err := validators.CheckAlternativeTemplate(pattern, alt.ValueString()); err != nil {
			diags.AddAttributeError(path.Root("alternative_url_templates").AtListIndex(i),
				"Alternative URL Template Does Not Match the Pattern", err.Error())
		}
	}
}

// ModifyPlan rejects at plan time a pattern another linkifier already has
// (the kit's rules, declared in register.go, check the fields the server is
// too old for and an account that is not an administrator).
func (r *LinkifierResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	// Only a create asks: the one attribute it needs is read, not the model.
	if !r.Data.KnowsServer() || req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() {
		return
	}
	var pattern types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("pattern"), &pattern)...)
	if kit.Known(pattern) && !resp.Diagnostics.HasError() {
		r.Creation(zulip.LinkifierRequest{Pattern: pattern.ValueString()}).CheckKeyFree(ctx, r.Data, path.Root("pattern"),
			fmt.Sprintf("the pattern %q", pattern.ValueString()), &resp.Diagnostics)
	}
}

// Create adds the linkifier.
func (r *LinkifierResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[linkifierResourceModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	apiReq := linkifierToAPI(ctx, plan, nil, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	id, ok := r.Creation(apiReq).Create(ctx, r.Data, &resp.Diagnostics)
	if !ok {
		return
	}
	linkifiers.FinishCreate(ctx, r.Data, &plan, id, resp)
}

// Update changes the linkifier in place.
func (r *LinkifierResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	linkifiers.Update(ctx, r.Data, req, resp, func(ctx context.Context, plan, state *linkifierResourceModel, diags *diag.Diagnostics) error {
		apiReq := linkifierToAPI(ctx, *plan, state, diags)
		if diags.HasError() {
			return nil
		}
		return r.Data.Client.UpdateLinkifier(ctx, state.ID.ValueInt64(), apiReq)
	})
}

// linkifiers is the kit's skeleton for zulip_linkifier.
var linkifiers = kit.Objects[linkifierResourceModel, zulip.Linkifier]{
	TypeName: "zulip_linkifier", What: "linkifier", Role: kit.RoleAdministrator,
	Coll:       kit.LinkifierCollection,
	IDOf:       func(l zulip.Linkifier) int64 { return l.ID },
	ID:         func(m *linkifierResourceModel) *types.Int64 { return &m.ID },
	FromAPI:    kit.WithoutData(linkifierFromAPI),
	ImportHint: "A linkifier is imported by its numeric id or its pattern; Zulip's settings list them under Linkifiers (GET /api/v1/realm/linkifiers).",
	Remove: func(d *kit.ProviderData) func(context.Context, string) error {
		return kit.DeleteByID(d.Client.DeleteLinkifier)
	},
	Lookup: kit.ByKeyOrID("zulip_linkifier", "pattern",
		func(l zulip.Linkifier) int64 { return l.ID }, func(l zulip.Linkifier) string { return l.Pattern }, false),
}

// Creation is the create of apiReq: a linkifier's natural key is its pattern
// (Zulip refuses a second linkifier with the same one).
func (r *LinkifierResource) Creation(apiReq zulip.LinkifierRequest) kit.Creation[linkifierResourceModel, zulip.Linkifier] {
	pattern := strings.TrimSpace(apiReq.Pattern)
	return kit.Creation[linkifierResourceModel, zulip.Linkifier]{
		Objects: linkifiers,
		Send: func(ctx context.Context) (string, error) {
			id, err := r.Data.Client.CreateLinkifier(ctx, apiReq)
			return strconv.FormatInt(id, 10), err
		},
		SameKey: func(l zulip.Linkifier) bool { return l.Pattern == pattern },
		Matches: func(l zulip.Linkifier) bool { return linkifierMatches(l, apiReq) },
		Made:    func(key string) zulip.Linkifier { return linkifierMade(key, apiReq) },
	}
}

// linkifierMade is the linkifier the server lists after creating apiReq with
// the id key: the values as sent, stripped, "" optional values absent (Zulip's
// RealmFilter.clean; linkifiers_for_realm lists them as stored).
func linkifierMade(key string, apiReq zulip.LinkifierRequest) zulip.Linkifier {
	id, _ := strconv.ParseInt(key, 10, 64)
	optional := func(s *string) *string {
		if s == nil || strings.TrimSpace(*s) == "" {
			return nil
		}
		v := strings.TrimSpace(*s)
		return &v
	}
	return zulip.Linkifier{
		ID: id, Pattern: strings.TrimSpace(apiReq.Pattern), URLTemplate: strings.TrimSpace(apiReq.URLTemplate),
		ExampleInput: optional(apiReq.ExampleInput), ReverseTemplate: optional(apiReq.ReverseTemplate),
		AlternativeURLTemplates: slices.Clone(apiReq.AlternativeURLTemplates),
	}
}

// linkifierMatches reports whether l has every value of req.
func linkifierMatches(l zulip.Linkifier, req zulip.LinkifierRequest) bool {
	same := func(have *string, want *string) bool {
		return (want == nil || *want == "") == (have == nil || *have == "") && (want == nil || have == nil || *want == *have)
	}
	return l.Pattern == strings.TrimSpace(req.Pattern) && l.URLTemplate == strings.TrimSpace(req.URLTemplate) &&
		same(l.ExampleInput, req.ExampleInput) && same(l.ReverseTemplate, req.ReverseTemplate) &&
		slices.Equal(l.AlternativeURLTemplates, req.AlternativeURLTemplates)
}

// linkifierToAPI builds the create/update request. With prior state, optional
// fields that were set and are now removed are sent empty, which Zulip reads
// as "reset": leaving them out would keep the old values.
func linkifierToAPI(ctx context.Context, m linkifierResourceModel, prior *linkifierResourceModel, diags *diag.Diagnostics) zulip.LinkifierRequest {
	req := zulip.LinkifierRequest{Pattern: m.Pattern.ValueString(), URLTemplate: m.URLTemplate.ValueString()}
	optional := func(v types.String, was types.String) *string {
		switch {
		case !v.IsNull():
			s := v.ValueString()
			return &s
		case prior != nil && !was.IsNull():
			empty := ""
			return &empty
		}
		return nil
	}
	var wasExample, wasReverse types.String
	wasAlts := types.ListNull(types.StringType)
	if prior != nil {
		wasExample, wasReverse, wasAlts = prior.ExampleInput, prior.ReverseTemplate, prior.AlternativeURLTemplates
	}
	req.ExampleInput = optional(m.ExampleInput, wasExample)
	req.ReverseTemplate = optional(m.ReverseTemplate, wasReverse)
	switch {
	case !m.AlternativeURLTemplates.IsNull():
		diags.Append(m.AlternativeURLTemplates.ElementsAs(ctx, &req.AlternativeURLTemplates, false)...)
	case !wasAlts.IsNull():
		req.AlternativeURLTemplates = []string{}
	}
	return req
}

// linkifierFromAPI copies the server's view into the model. Empty optional
// values are null, as a configuration that leaves them out has them.
func linkifierFromAPI(ctx context.Context, l zulip.Linkifier, m *linkifierResourceModel, diags *diag.Diagnostics) {
	m.ID = types.Int64Value(l.ID)
	m.Pattern = types.StringValue(l.Pattern)
	m.URLTemplate = types.StringValue(l.URLTemplate)
	m.ExampleInput = kit.StringOrNull(l.ExampleInput)
	m.ReverseTemplate = kit.StringOrNull(l.ReverseTemplate)
	if len(l.AlternativeURLTemplates) == 0 {
		m.AlternativeURLTemplates = types.ListNull(types.StringType)
	} else {
		list, d := types.ListValueFrom(ctx, types.StringType, l.AlternativeURLTemplates)
		diags.Append(d...)
		m.AlternativeURLTemplates = list
	}
}
