package realm

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/imagetype"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*brandingResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*brandingResource)(nil)
)

// maxBrandingBytes is Zulip's default MAX_ICON_FILE_SIZE_MIB and
// MAX_LOGO_FILE_SIZE_MIB (5 MiB). A server's administrator may raise them and
// the server does not say, so a larger file only warns.
const maxBrandingBytes = 5 << 20

// NewRealmBrandingResource returns the zulip_realm_branding resource.
func NewRealmBrandingResource() resource.Resource {
	return &brandingResource{ResourceBase: kit.ResourceBase{Name: "realm_branding"}}
}

// brandingResource manages the organization's icon and its day and night
// logos: one resource, as Zulip's settings show them together (Organization
// profile), each image managed only when its path is set.
type brandingResource struct {
	kit.ResourceBase
}

// brandingModel is the zulip_realm_branding state.
type brandingModel struct {
	ID              types.String `tfsdk:"id"`
	Icon            types.String `tfsdk:"icon"`
	IconSHA256      types.String `tfsdk:"icon_sha256"`
	IconURL         types.String `tfsdk:"icon_url"`
	Logo            types.String `tfsdk:"logo"`
	LogoSHA256      types.String `tfsdk:"logo_sha256"`
	LogoURL         types.String `tfsdk:"logo_url"`
	NightLogo       types.String `tfsdk:"night_logo"`
	NightLogoSHA256 types.String `tfsdk:"night_logo_sha256"`
	NightLogoURL    types.String `tfsdk:"night_logo_url"`
}

// brandImage is one of the organization's images: its attributes, and how
// Zulip sets, removes and reports it.
type brandImage struct {
	// attr is the path attribute (icon, logo, night_logo); its hash and URL
	// are attr_sha256 and attr_url.
	attr string
	// what names it in messages; fallback is what Zulip shows without it.
	what, fallback string
	// logo: a logo (POST /realm/logo), refused on Zulip Cloud's limited plan;
	// night: the logo of the dark theme.
	logo, night bool
}

// brandImages are the three images, in the order they are sent.
var brandImages = []brandImage{
	{attr: "icon", what: "icon", fallback: "a generated image (Gravatar's identicon for the organization)"},
	{attr: "logo", what: "logo", fallback: "Zulip's logo", logo: true},
	{attr: "night_logo", what: "night logo", fallback: "Zulip's logo", logo: true, night: true},
}

// brandSlot is one image's three attributes in a model.
type brandSlot struct{ source, sha, url *types.String }

// slot is the attributes of brandImages[i].
func (m *brandingModel) slot(i int) brandSlot {
	switch i {
	case 0:
		return brandSlot{&m.Icon, &m.IconSHA256, &m.IconURL}
	case 1:
		return brandSlot{&m.Logo, &m.LogoSHA256, &m.LogoURL}
	}
	return brandSlot{&m.NightLogo, &m.NightLogoSHA256, &m.NightLogoURL}
}

// Schema describes the resource.
func (r *brandingResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		"id": kit.StableString("The organization's URL."),
	}
	for _, img := range brandImages {
		attrs[img.attr] = schema.StringAttribute{Optional: true, MarkdownDescription: img.pathDescription()}
		attrs[img.attr+"_sha256"] = schema.StringAttribute{Computed: true, MarkdownDescription: fmt.Sprintf(
			"The SHA-256 of the %s file this resource uploaded: a file whose content differs is uploaded again. Null "+
				"while the %s is not managed, and after someone replaced or removed it by hand (the next apply uploads "+
				"the file again).", img.what, img.what)}
		attrs[img.attr+"_url"] = schema.StringAttribute{Computed: true, MarkdownDescription: fmt.Sprintf(
			"Where Zulip serves the %s, as it reports it (relative to the organization's URL for an uploaded one, "+
				"with a version that changes at each upload or removal): managed or not.", img.what)}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The organization's icon and its logos for the light and dark themes, from image files. " +
			"One resource holds the three images because Zulip's settings show them together (Organization " +
			"settings, Organization profile) and they belong to one organization: declare it once. Each image is " +
			"managed only when its path is set; removing a path that was managed returns that image to Zulip's " +
			"default. Zulip keeps no copy of the file to give back (it serves resized PNGs), so the state keeps the " +
			"SHA-256 of each file uploaded: a changed file is uploaded again, a moved one changes nothing, and an " +
			"image replaced or removed by hand (which Zulip reports) is uploaded again. Files are checked at plan: " +
			"PNG, GIF, JPEG, WebP or AVIF by their content, and Zulip's default limit of 5 MiB. Changing or " +
			"destroying it needs an organization administrator; logos need a Zulip Cloud plan other than the free " +
			"one. Destroying it returns each image it manages to Zulip's default. Import with the organization's " +
			"URL: the images are adopted unmanaged, and a path set afterwards uploads its file once.",
		Attributes: attrs,
	}
}

// pathDescription is the description of an image's path attribute.
func (img brandImage) pathDescription() string {
	shown := "Zulip resizes the icon to 100×100 pixels: a square image."
	if img.logo {
		shown = "Zulip resizes the logo to fit 800×100 pixels: a wide image."
	}
	if img.night {
		shown = "Zulip shows it instead of `logo` in the dark theme, resized to fit 800×100 pixels."
	}
	return fmt.Sprintf("The path of the %s's image file: PNG, GIF, JPEG, WebP or AVIF, at most 5 MiB by Zulip's "+
		"default. %s Left out, the %s is not managed. Removed after being managed, it returns to Zulip's "+
		"default, %s.", img.what, shown, img.what, img.fallback)
}

// ModifyPlan reads each configured file (type, size, hash) and plans what
// changes: an upload where the hash differs from the state's, a return to
// Zulip's default where a managed path was removed. Only the changed images'
// hashes and URLs are unknown.
func (r *brandingResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, state, creating, ok := kit.PlanAndState[brandingModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	var config brandingModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &config)...); resp.Diagnostics.HasError() {
		return
	}
	changing := false
	for i, img := range brandImages {
		upload, change := planImage(img, *config.slot(i).source, state.slot(i), plan.slot(i), creating, &resp.Diagnostics)
		changing = changing || change
		if upload && img.logo {
			r.checkLogoPlan(ctx, img, &resp.Diagnostics)
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
	if changing && kit.Unchanged(req) && r.Data.KnowsServer() {
		// The kit checks the role of a changed configuration; a changed file
		// leaves it as it was.
		r.Data.RequireRole(ctx, kit.RoleAdministrator, "Changing the organization's icon and logos", path.Empty(), &resp.Diagnostics)
	}
}

// planImage plans one image's hash and URL, and reports whether it uploads
// and whether it changes at all (an upload or a return to the default).
func planImage(img brandImage, source types.String, state, plan brandSlot, creating bool, diags *diag.Diagnostics) (upload, change bool) {
	at := path.Root(img.attr)
	switch {
	case source.IsUnknown():
		upload = true
	case source.IsNull() && !creating && kit.Known(*state.sha):
		*plan.sha, *plan.url = types.StringNull(), types.StringUnknown() // back to Zulip's default
		return false, true
	case source.IsNull():
		*plan.sha = types.StringNull()
		if !creating {
			*plan.url = *state.url
		}
		return false, false
	default:
		f, err := imagetype.ReadFile(source.ValueString(), "an organization's icon and logos")
		if err != nil {
			diags.AddAttributeError(at, "Unusable Image", err.Error())
			return false, false
		}
		if len(f.Data) > maxBrandingBytes {
			diags.AddAttributeWarning(at, "Image Larger Than Zulip's Default Limit", fmt.Sprintf(
				"%s is %.1f MiB; Zulip refuses an organization's %s over 5 MiB unless its administrator raised the "+
					"limit (the server does not say its limit).", source.ValueString(), float64(len(f.Data))/(1<<20), img.what))
		}
		upload = creating || state.sha.ValueString() != f.SHA256
	}
	if !upload {
		*plan.sha, *plan.url = *state.sha, *state.url
		return false, false
	}
	// Unknown until the upload: a half-finished create records no hash for an
	// image it could not send.
	*plan.sha, *plan.url = types.StringUnknown(), types.StringUnknown()
	return true, true
}

// checkLogoPlan refuses at plan, with Zulip's words, a logo on Zulip Cloud's
// limited plan (ensure_not_on_limited_plan).
func (r *brandingResource) checkLogoPlan(ctx context.Context, img brandImage, diags *diag.Diagnostics) {
	if !r.Data.CanAsk() {
		return
	}
	snap, err := r.Data.RealmSettings(ctx)
	if err != nil || snap.RealmPlanType != planLimited {
		return // the apply will say
	}
	diags.AddAttributeError(path.Root(img.attr), "Not Available on This Plan", "Zulip Cloud's free plan has no custom "+
		"logos: \"Available on Zulip Cloud Standard. Upgrade to access.\" Leave the "+img.attr+" out.")
}

// load decodes a request's plan or state, and reports whether it can be
// used with a provider ready to call the server.
func (r *brandingResource) load(ctx context.Context, from interface {
	Get(context.Context, any) diag.Diagnostics
}, diags *diag.Diagnostics) (m brandingModel, ok bool) {
	diags.Append(from.Get(ctx, &m)...)
	return m, !diags.HasError() && r.Data.Ready(diags)
}

// Create adopts the organization's branding and uploads the configured
// images. Once one is sent, a later failure is a warning (the image is left
// for the next apply), since an error would taint the resource.
func (r *brandingResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := r.load(ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	plan.ID = types.StringValue(realmURL(r.Data.Client))
	if r.apply(ctx, &plan, brandingModel{}, true, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
}

// Update uploads the changed images and returns the removed ones to Zulip's
// default; a failure keeps, in state, what was done before it.
func (r *brandingResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	prior, ok := r.load(ctx, req.State, &resp.Diagnostics)
	plan, planned := r.load(ctx, req.Plan, &resp.Diagnostics)
	if !ok || !planned {
		return
	}
	r.apply(ctx, &plan, prior, false, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// apply makes the server match plan, image by image, and fills plan with
// what the state must hold: each hash uploaded, each URL read back. An image
// that failed, and those after it, keep prior's values. It reports whether
// there is a state to store.
func (r *brandingResource) apply(ctx context.Context, plan *brandingModel, prior brandingModel, creating bool, diags *diag.Diagnostics) bool {
	sent, failed := 0, -1
	for i, img := range brandImages {
		p := plan.slot(i)
		did, err := r.applyImage(ctx, img, p, prior.slot(i))
		if err != nil {
			failed = i
			if creating && sent > 0 {
				diags.AddWarning("Organization Branding Not Finished", fmt.Sprintf("The provider could not upload the "+
					"organization's %s: %s. The images before it are set; the next apply uploads the rest.", img.what, err))
			} else {
				kit.AddAPIError(diags, "Unable to Change the Organization's Branding", "change the organization's "+img.what,
					kit.RoleAdministrator, err)
			}
			break
		}
		if did {
			sent++
		}
	}
	if failed >= 0 {
		for i := failed; i < len(brandImages); i++ {
			p, s := plan.slot(i), prior.slot(i)
			*p.sha, *p.url = *s.sha, *s.url
		}
		if sent == 0 && creating {
			return false // nothing was done: no state, no taint
		}
	}
	r.readBack(ctx, plan, diags)
	return true
}

// applyImage uploads one image or returns it to Zulip's default, as its plan
// says, and records the uploaded file's hash; did reports a request sent.
func (r *brandingResource) applyImage(ctx context.Context, img brandImage, plan, prior brandSlot) (did bool, err error) {
	c := r.Data.Client
	switch {
	case plan.source.IsNull() && kit.Known(*prior.sha): // removed from the configuration
		return true, img.remove(ctx, c)
	case plan.source.IsNull() || !plan.sha.IsUnknown():
		return false, nil
	}
	f, err := imagetype.ReadFile(plan.source.ValueString(), "an organization's icon and logos")
	if err != nil {
		return false, err
	}
	if err := img.upload(ctx, c, f); err != nil {
		return true, err
	}
	*plan.sha = types.StringValue(f.SHA256)
	return true, nil
}

// upload sends the image's file.
func (img brandImage) upload(ctx context.Context, c *zulip.Client, f *imagetype.File) error {
	name := img.attr + "." + strings.TrimPrefix(f.ContentType, "image/") // Zulip uses only the part's type
	if img.logo {
		return c.UploadRealmLogo(ctx, img.night, name, f.ContentType, f.Data)
	}
	return c.UploadRealmIcon(ctx, name, f.ContentType, f.Data)
}

// remove returns the image to Zulip's default.
func (img brandImage) remove(ctx context.Context, c *zulip.Client) error {
	if img.logo {
		return c.DeleteRealmLogo(ctx, img.night)
	}
	return c.DeleteRealmIcon(ctx)
}

// readBack fills the URLs the plan left unknown from the server; where it
// cannot read them, a warning says so and they stay null until the next
// refresh.
func (r *brandingResource) readBack(ctx context.Context, m *brandingModel, diags *diag.Diagnostics) {
	b, err := r.Data.Client.GetRealmBranding(ctx)
	for i, img := range brandImages {
		s := m.slot(i)
		switch {
		case !s.url.IsUnknown():
		case err != nil:
			*s.url = types.StringNull()
		default:
			_, url := img.current(b)
			*s.url = types.StringValue(url)
		}
	}
	if err != nil {
		diags.AddWarning("Organization Branding Not Read Back", "The images were sent, but the provider could not read "+
			"their URLs back: "+err.Error()+". The next refresh reads them.")
	}
}

// current is the image's source and URL as the server reports them.
func (img brandImage) current(b *zulip.RealmBranding) (source, url string) {
	switch {
	case !img.logo:
		return b.IconSource, b.IconURL
	case img.night:
		return b.NightLogoSource, b.NightLogoURL
	}
	return b.LogoSource, b.LogoURL
}

// Read refreshes the URLs, and forgets the hash of an image someone else
// replaced (a new version) or removed (no longer uploaded), so that the plan
// uploads the file again.
func (r *brandingResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := r.load(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	b, err := r.Data.Client.GetRealmBranding(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Read the Organization's Branding", "read the icon and logos through POST /register", kit.RoleAny, err)
		return
	}
	for i, img := range brandImages {
		s := state.slot(i)
		source, url := img.current(b)
		if kit.Known(*s.sha) && (source != zulip.BrandingUploaded || kit.Known(*s.url) && s.url.ValueString() != url) {
			tflog.Info(ctx, "the organization's "+img.what+" was changed outside Terraform; its file will be uploaded again",
				map[string]any{"source": source, "url": url, "was": s.url.ValueString()})
			*s.sha = types.StringNull()
		}
		*s.url = types.StringValue(url)
	}
	state.ID = types.StringValue(realmURL(r.Data.Client))
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Delete returns each image the resource manages to Zulip's default.
func (r *brandingResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := r.load(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	for i, img := range brandImages {
		if state.slot(i).source.IsNull() {
			continue // not managed: left as it is
		}
		if err := img.remove(ctx, r.Data.Client); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "Unable to Remove the Organization's Branding", "return the organization's "+
				img.what+" to Zulip's default", kit.RoleAdministrator, err)
			return
		}
	}
}

// ImportState adopts the organization's branding, every image unmanaged: any
// id works (its URL reads best); Read fills the URLs.
func (r *brandingResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}
