package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.Resource                = (*allowedDomainResource)(nil)
	_ resource.ResourceWithConfigure   = (*allowedDomainResource)(nil)
	_ resource.ResourceWithImportState = (*allowedDomainResource)(nil)
)

// collection cache keys.
const cacheRealmDomains = "realm_domains"

// NewAllowedDomainResource returns the zulip_allowed_domain resource.
func NewAllowedDomainResource() resource.Resource { return &allowedDomainResource{} }

// allowedDomainResource manages one allowed e-mail domain of the organization.
type allowedDomainResource struct {
	data *providerData
}

// allowedDomainResourceModel is the zulip_allowed_domain state.
type allowedDomainResourceModel struct {
	Domain          types.String `tfsdk:"domain"`
	AllowSubdomains types.Bool   `tfsdk:"allow_subdomains"`
}

// Metadata names the resource.
func (r *allowedDomainResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_allowed_domain"
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
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
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

// Configure receives the provider's client.
func (r *allowedDomainResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Create adds the domain.
func (r *allowedDomainResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan allowedDomainResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
		return
	}
	domain, allow := allowedDomainToAPI(plan)
	_, err := r.data.client.AddRealmDomain(ctx, domain, allow)
	r.data.cache.invalidate(cacheRealmDomains)
	if err != nil {
		if zulip.IsUnauthorizedPrincipal(err) {
			addAPIError(&resp.Diagnostics, "Unable to Create Allowed Domain", "add the allowed domain", roleOwner, err)
			return
		}
		found, ok := r.find(ctx, domain)
		switch {
		case ok && isClientError(err):
			// Zulip refuses a domain the organization already has; Terraform should
			// adopt it through import rather than pretend to have created it.
			resp.Diagnostics.AddAttributeError(path.Root("domain"), "Allowed Domain Already Exists",
				fmt.Sprintf("The organization already allows %q, so it cannot be created. To manage it with Terraform, "+
					"import it: terraform import zulip_allowed_domain.<name> %s. Server said: %s", domain, domain, err))
			return
		case ok:
			// A failure after the request was sent (a timeout, a 502) may still have
			// added the domain: adopt it rather than leave an object Terraform does
			// not know about, which the next apply would collide with.
			tflog.Warn(ctx, "allowed domain create failed but the domain exists; adopting it", map[string]any{"domain": domain, "error": err.Error()})
			if found.AllowSubdomains != allow {
				err = r.data.client.UpdateRealmDomain(ctx, domain, allow)
				r.data.cache.invalidate(cacheRealmDomains)
				if err != nil {
					addAPIError(&resp.Diagnostics, "Unable to Create Allowed Domain", "set allow_subdomains on the allowed domain", roleOwner, err)
					return
				}
			}
		default:
			addAPIError(&resp.Diagnostics, "Unable to Create Allowed Domain", "add the allowed domain", roleOwner, err)
			return
		}
	}
	r.read(ctx, &plan, &resp.Diagnostics, func() {
		resp.Diagnostics.AddError("Allowed Domain Disappeared",
			fmt.Sprintf("The domain %q was added but is not in the organization's list of allowed domains.", domain))
	})
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read refreshes the domain from the organization's list.
func (r *allowedDomainResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state allowedDomainResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
		return
	}
	gone := false
	r.read(ctx, &state, &resp.Diagnostics, func() { gone = true })
	if resp.Diagnostics.HasError() {
		return
	}
	if gone {
		tflog.Info(ctx, "allowed domain no longer exists; removing it from state", map[string]any{"domain": state.Domain.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update changes allow_subdomains in place (the domain itself forces a replacement).
func (r *allowedDomainResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state allowedDomainResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
		return
	}
	_, allow := allowedDomainToAPI(plan)
	// The path is matched case-sensitively: use the domain as the server stored it.
	err := r.data.client.UpdateRealmDomain(ctx, state.Domain.ValueString(), allow)
	r.data.cache.invalidate(cacheRealmDomains)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to Update Allowed Domain", "change the allowed domain", roleOwner, err)
		return
	}
	plan.Domain = state.Domain
	r.read(ctx, &plan, &resp.Diagnostics, func() {
		resp.Diagnostics.AddError("Allowed Domain Disappeared",
			fmt.Sprintf("The domain %q was removed while it was being updated.", plan.Domain.ValueString()))
	})
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete removes the domain; one already gone is not an error.
func (r *allowedDomainResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state allowedDomainResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
		return
	}
	err := r.data.client.DeleteRealmDomain(ctx, state.Domain.ValueString())
	r.data.cache.invalidate(cacheRealmDomains)
	if err != nil && !zulip.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "Unable to Delete Allowed Domain", "remove the allowed domain", roleOwner, err)
	}
}

// ImportState adopts an allowed domain by the domain name.
func (r *allowedDomainResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	// Zulip stores domains trimmed and in lower case, so "Example.COM" can only mean "example.com".
	domain := strings.ToLower(strings.TrimSpace(req.ID))
	if err := validators.CheckDomain(domain); err != nil {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("A zulip_allowed_domain is imported by its domain name, such as example.com; %q is not one: %s.", req.ID, err))
		return
	}
	if !r.data.ready(&resp.Diagnostics) {
		return
	}
	m := allowedDomainResourceModel{Domain: types.StringValue(domain)}
	r.read(ctx, &m, &resp.Diagnostics, func() {
		resp.Diagnostics.AddError("Allowed Domain Not Found",
			fmt.Sprintf("The organization has no allowed domain %q (see GET /api/v1/realm/domains).", domain))
	})
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// read fills m from the server; gone is called when the domain is not allowed.
func (r *allowedDomainResource) read(ctx context.Context, m *allowedDomainResourceModel, diags *diag.Diagnostics, gone func()) {
	d, ok, err := r.lookup(ctx, m.Domain.ValueString())
	if err != nil {
		addAPIError(diags, "Unable to Read Allowed Domains", "list the allowed domains", roleAny, err)
		return
	}
	if !ok {
		gone()
		return
	}
	allowedDomainFromAPI(d, m)
}

// find looks a domain up, to reconcile a failed create; a failed list is "not found".
func (r *allowedDomainResource) find(ctx context.Context, domain string) (zulip.RealmDomain, bool) {
	d, ok, err := r.lookup(ctx, domain)
	return d, ok && err == nil
}

// lookup returns the organization's entry for domain from the cached list.
func (r *allowedDomainResource) lookup(ctx context.Context, domain string) (zulip.RealmDomain, bool, error) {
	list, err := r.data.realmDomains(ctx)
	if err != nil {
		return zulip.RealmDomain{}, false, err
	}
	for _, d := range list {
		if d.Domain == domain {
			return d, true, nil
		}
	}
	return zulip.RealmDomain{}, false, nil
}

// realmDomains returns the organization's allowed domains through the per-run cache.
func (d *providerData) realmDomains(ctx context.Context) ([]zulip.RealmDomain, error) {
	return cachedAs(ctx, d.cache, cacheRealmDomains, d.client.ListRealmDomains)
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
