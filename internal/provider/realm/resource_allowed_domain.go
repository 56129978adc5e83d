package realm

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*allowedDomainResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*allowedDomainResource)(nil)
)

// NewAllowedDomainResource returns the zulip_allowed_domain resource.
func NewAllowedDomainResource() resource.Resource {
	return &allowedDomainResource{ObjectResource: kit.ObjectResourceOf(&allowedDomains)}
}

// allowedDomainResource manages one allowed e-mail domain of the organization.
type allowedDomainResource struct {
	kit.ObjectResource[allowedDomainResourceModel, zulip.RealmDomain]
}

// allowedDomainResourceModel is the zulip_allowed_domain state.
type allowedDomainResourceModel struct {
	Domain          types.String `tfsdk:"domain"`
	AllowSubdomains types.Bool   `tfsdk:"allow_subdomains"`
}

// Schema describes the resource.
func (r *allowedDomainResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An allowed e-mail domain of the organization: when the organization restricts sign-ups " +
			"to its domains, only addresses at these domains can join. Needs an organization owner's credentials. " +
			"Deleting the organization's last allowed domain also makes Zulip lift the restriction " +
			"(`emails_restricted_to_domains` becomes false).",
		Attributes: map[string]schema.Attribute{
			"domain": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The domain, e.g. `example.com`, written as Zulip stores it: in lower case, with at " +
					"least one dot, labels of letters, digits and `-` (not at either end), at most 255 characters. " +
					"Changing it replaces the resource.",
				Validators:    []validator.String{validators.Domain()},
				PlanModifiers: kit.RequiresReplaceString(),
			},
			"allow_subdomains": schema.BoolAttribute{
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
				MarkdownDescription: "Whether addresses at subdomains of `domain` (e.g. `team.example.com`) are allowed too. Default `false`.",
			},
		},
	}
}

// ModifyPlan refuses at plan time what the apply would fail on: an account
// that is not an organization owner, and a domain the organization already allows.
func (r *allowedDomainResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !r.Data.KnowsServer() || req.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	r.Data.NoteOwnerOnly("a change of the allowed domains", &resp.Diagnostics)
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() {
		return
	}
	var plan allowedDomainResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !kit.Known(plan.Domain) || !kit.Known(plan.AllowSubdomains) {
		return
	}
	domain, allow := allowedDomainToAPI(plan)
	r.creation(domain, allow).CheckKeyFree(ctx, r.Data, path.Root("domain"), fmt.Sprintf("the domain %q", domain), &resp.Diagnostics)
}

// Create adds the domain.
func (r *allowedDomainResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[allowedDomainResourceModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	domain, allow := allowedDomainToAPI(plan)
	key, ok := r.creation(domain, allow).Create(ctx, r.Data, &resp.Diagnostics)
	if !ok {
		return
	}
	allowedDomains.FinishCreate(ctx, r.Data, &plan, key, resp)
}

// Update changes allow_subdomains in place (the domain itself forces a replacement).
func (r *allowedDomainResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	allowedDomains.Update(ctx, r.Data, req, resp, func(ctx context.Context, plan, state *allowedDomainResourceModel, _ *diag.Diagnostics) error {
		_, allow := allowedDomainToAPI(*plan)
		// The path is matched case-sensitively: use the domain as the server stored it.
		return r.Data.Client.UpdateRealmDomain(ctx, state.Domain.ValueString(), allow)
	})
}

// allowedDomains is the kit's skeleton for zulip_allowed_domain; a domain is its own key.
var allowedDomains = kit.Objects[allowedDomainResourceModel, zulip.RealmDomain]{
	TypeName: "zulip_allowed_domain", What: "allowed domain", Role: kit.RoleOwner,
	Coll:     kit.RealmDomainCollection,
	Key:      func(d zulip.RealmDomain) string { return d.Domain },
	StateKey: func(m *allowedDomainResourceModel) string { return m.Domain.ValueString() },
	SetKey:   func(m *allowedDomainResourceModel, k string) { m.Domain = types.StringValue(k) },
	FromAPI: func(_ context.Context, _ *kit.ProviderData, d zulip.RealmDomain, m *allowedDomainResourceModel, _ *diag.Diagnostics) {
		allowedDomainFromAPI(d, m)
	},
	ImportHint: "The organization's allowed domains are listed in its settings, under Organization permissions (GET /api/v1/realm/domains).",
	Remove: func(d *kit.ProviderData) func(context.Context, string) error {
		return d.Client.DeleteRealmDomain
	},
	Lookup: func(id string) (func(zulip.RealmDomain) bool, error) {
		// Zulip stores domains trimmed and in lower case, so "Example.COM" can only mean "example.com".
		domain := strings.ToLower(id)
		if err := validators.CheckDomain(domain); err != nil {
			return nil, fmt.Errorf("a zulip_allowed_domain is imported by its domain name, such as example.com; %q is not one: %w", id, err)
		}
		return func(d zulip.RealmDomain) bool { return d.Domain == domain }, nil
	},
}

// creation is the create of an allowed domain; the domain is the natural key.
func (r *allowedDomainResource) creation(domain string, allow bool) kit.Creation[allowedDomainResourceModel, zulip.RealmDomain] {
	return kit.Creation[allowedDomainResourceModel, zulip.RealmDomain]{
		Objects: allowedDomains,
		Send: func(ctx context.Context) (string, error) {
			_, err := r.Data.Client.AddRealmDomain(ctx, domain, allow)
			return domain, err
		},
		SameKey: func(d zulip.RealmDomain) bool { return d.Domain == domain },
		Matches: func(d zulip.RealmDomain) bool { return d.Domain == domain && d.AllowSubdomains == allow },
		// Zulip stores the domain stripped and lower-cased (create_realm_domain);
		// the plan allows only that form, so the configuration is what is listed.
		Made: func(string) zulip.RealmDomain {
			return zulip.RealmDomain{Domain: strings.ToLower(strings.TrimSpace(domain)), AllowSubdomains: allow}
		},
	}
}

// allowedDomainToAPI returns the domain and allow_subdomains of a request.
func allowedDomainToAPI(m allowedDomainResourceModel) (domain string, allowSubdomains bool) {
	return m.Domain.ValueString(), m.AllowSubdomains.ValueBool()
}

// allowedDomainFromAPI copies the server's view into the model.
func allowedDomainFromAPI(d zulip.RealmDomain, m *allowedDomainResourceModel) {
	m.Domain = types.StringValue(d.Domain)
	m.AllowSubdomains = types.BoolValue(d.AllowSubdomains)
}
