package realm

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
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
	_ resource.ResourceWithImportState = (*codePlaygroundResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*codePlaygroundResource)(nil)
)

// featurePlaygroundTemplate is url_template (FL196; url_prefix before).
const featurePlaygroundTemplate = 196

// pygmentsLanguagePattern is check_pygments_language's character set.
var pygmentsLanguagePattern = regexp.MustCompile(`^[ a-zA-Z0-9_+\-./#]*$`)

// NewCodePlaygroundResource returns the zulip_code_playground resource.
func NewCodePlaygroundResource() resource.Resource {
	return &codePlaygroundResource{ObjectResource: kit.ObjectResourceOf(&playgrounds)}
}

// codePlaygroundResource manages one code playground.
type codePlaygroundResource struct {
	kit.ObjectResource[codePlaygroundModel, zulip.Playground]
}

// codePlaygroundModel is the zulip_code_playground state.
type codePlaygroundModel struct {
	ID               types.String `tfsdk:"id"`
	Name             types.String `tfsdk:"name"`
	PygmentsLanguage types.String `tfsdk:"pygments_language"`
	URLTemplate      types.String `tfsdk:"url_template"`
}

// Schema describes the resource.
func (r *codePlaygroundResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := kit.RequiresReplaceString()
	trimmed := stringvalidator.RegexMatches(regexp.MustCompile(`^\S(.*\S)?$`), "must not start or end with white space (Zulip strips it)")
	resp.Schema = schema.Schema{
		MarkdownDescription: "A code playground: a site where code blocks of one language can be opened from a message. " +
			"Zulip cannot change a playground, so every change replaces it. Needs an organization administrator and " +
			"Zulip feature level 196 (Zulip 8.0). Import by id or by `language/name`.",
		Attributes: map[string]schema.Attribute{
			"id": kit.StableString("The playground's id."),
			"name": schema.StringAttribute{Required: true, PlanModifiers: replace, Validators: []validator.String{trimmed},
				MarkdownDescription: "The name people see, e.g. `Rust playground`; unique with the language."},
			"pygments_language": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The language of the code blocks, as Pygments names it (e.g. `Rust`, `Python 3`): " +
					"letters, digits, spaces and `_+-./#`, at most 40 characters.",
				Validators: []validator.String{trimmed, stringvalidator.LengthAtMost(40),
					stringvalidator.RegexMatches(pygmentsLanguagePattern, "may hold only letters, digits, spaces and _+-./#")}},
			"url_template": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "An RFC 6570 URL template whose only variable is `code`, e.g. `https://play.rust-lang.org/?code={code}`.",
				Validators:          []validator.String{trimmed, validators.String("must be an RFC 6570 URL template whose only variable is code", checkPlaygroundTemplate)}},
		},
	}
}

// checkPlaygroundTemplate is RealmPlayground.clean: a valid template whose
// only variable is code, in Zulip's words.
func checkPlaygroundTemplate(s string) error {
	vars, err := validators.CheckURLTemplate(s)
	switch {
	case err != nil:
		return err
	case len(vars) == 0 || !strings.Contains(","+strings.Join(vars, ",")+",", ",code,"):
		return fmt.Errorf(`Missing the required variable "code" in the URL template`)
	case len(vars) != 1:
		return fmt.Errorf(`"code" should be the only variable present in the URL template`)
	}
	return nil
}

// ModifyPlan checks the level, the role and that the language and name are free.
func (r *codePlaygroundResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || kit.Unchanged(req) || !r.Data.KnowsServer() {
		return
	}
	if !req.State.Raw.IsNull() || resp.Diagnostics.HasError() {
		return
	}
	var plan codePlaygroundModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !kit.Known(plan.Name) || !kit.Known(plan.PygmentsLanguage) || !kit.Known(plan.URLTemplate) {
		return
	}
	c := playgroundCreation(r.Data, playgroundToAPI(plan))
	c.CheckKeyFree(ctx, r.Data, path.Root("name"), fmt.Sprintf("the language %q and the name %q", plan.PygmentsLanguage.ValueString(), plan.Name.ValueString()), &resp.Diagnostics)
}

// Create adds the playground.
func (r *codePlaygroundResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[codePlaygroundModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	key, ok := playgroundCreation(r.Data, playgroundToAPI(plan)).Create(ctx, r.Data, &resp.Diagnostics)
	if !ok {
		return
	}
	playgrounds.FinishCreate(ctx, r.Data, &plan, key, resp)
}

// Update is never called: every attribute replaces the playground.
func (r *codePlaygroundResource) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError("Unexpected Update", "A code playground cannot be changed in place; this is a bug in the provider.")
}

// playgrounds is the kit's skeleton for zulip_code_playground.
var playgrounds = kit.Objects[codePlaygroundModel, zulip.Playground]{
	TypeName: "zulip_code_playground", What: "code playground", Role: kit.RoleAdministrator,
	Coll:     kit.PlaygroundCollection,
	Key:      func(p zulip.Playground) string { return strconv.FormatInt(p.ID, 10) },
	StateKey: func(m *codePlaygroundModel) string { return m.ID.ValueString() },
	SetKey:   func(m *codePlaygroundModel, k string) { m.ID = types.StringValue(k) },
	FromAPI: kit.WithoutData(func(_ context.Context, p zulip.Playground, m *codePlaygroundModel, _ *diag.Diagnostics) {
		m.ID = types.StringValue(strconv.FormatInt(p.ID, 10))
		m.Name = types.StringValue(p.Name)
		m.PygmentsLanguage = types.StringValue(p.PygmentsLanguage)
		m.URLTemplate = types.StringValue(p.URLTemplate)
	}),
	ImportHint: "The organization's code playgrounds are listed in its settings, under Linkifiers and playgrounds.",
	Remove: func(d *kit.ProviderData) func(context.Context, string) error {
		return kit.DeleteByID(d.Client.DeletePlayground)
	},
	Lookup: func(id string) (func(zulip.Playground) bool, error) {
		if n, err := strconv.ParseInt(id, 10, 64); err == nil && n > 0 {
			return func(p zulip.Playground) bool { return p.ID == n }, nil
		}
		lang, name, ok := strings.Cut(id, "/")
		if !ok || lang == "" || name == "" {
			return nil, fmt.Errorf("a zulip_code_playground is imported by its id or by language/name, such as Rust/Rust playground; got %q", id)
		}
		return func(p zulip.Playground) bool { return p.PygmentsLanguage == lang && p.Name == name }, nil
	},
}

// playgroundToAPI is the request of a planned playground.
func playgroundToAPI(m codePlaygroundModel) zulip.PlaygroundRequest {
	return zulip.PlaygroundRequest{Name: m.Name.ValueString(), PygmentsLanguage: m.PygmentsLanguage.ValueString(), URLTemplate: m.URLTemplate.ValueString()}
}

// playgroundCreation is the create of a playground; its natural key is the
// language and the name.
func playgroundCreation(d *kit.ProviderData, req zulip.PlaygroundRequest) kit.Creation[codePlaygroundModel, zulip.Playground] {
	return kit.Creation[codePlaygroundModel, zulip.Playground]{
		Objects: playgrounds,
		Send: func(ctx context.Context) (string, error) {
			id, err := d.Client.CreatePlayground(ctx, req)
			return strconv.FormatInt(id, 10), err
		},
		SameKey: func(p zulip.Playground) bool { return p.PygmentsLanguage == req.PygmentsLanguage && p.Name == req.Name },
		Matches: func(p zulip.Playground) bool {
			return p.PygmentsLanguage == req.PygmentsLanguage && p.Name == req.Name && p.URLTemplate == req.URLTemplate
		},
		// The plan allows only trimmed values, which Zulip stores as they are.
		Made: func(key string) zulip.Playground {
			id, _ := strconv.ParseInt(key, 10, 64)
			return zulip.Playground{ID: id, Name: req.Name, PygmentsLanguage: req.PygmentsLanguage, URLTemplate: req.URLTemplate}
		},
	}
}
