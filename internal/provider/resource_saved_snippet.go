package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.Resource                = (*savedSnippetResource)(nil)
	_ resource.ResourceWithConfigure   = (*savedSnippetResource)(nil)
	_ resource.ResourceWithImportState = (*savedSnippetResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*savedSnippetResource)(nil)
)

// Feature levels of the saved snippet endpoints (digest §2, §10).
const (
	featureSavedSnippets    = 297 // GET/POST/DELETE saved_snippets
	featureSavedSnippetEdit = 368 // PATCH saved_snippets/{id}
)

// Limits Zulip applies to a snippet after stripping it: SavedSnippet.MAX_TITLE_LENGTH
// and settings.MAX_MESSAGE_LENGTH, counted in code points.
const (
	savedSnippetMaxTitle   = 60
	savedSnippetMaxContent = 10000
)

// collection cache keys.
const cacheSavedSnippets = "saved_snippets"

// NewSavedSnippetResource returns the zulip_saved_snippet resource.
func NewSavedSnippetResource() resource.Resource { return &savedSnippetResource{} }

// savedSnippetResource manages one of the provider account's saved snippets.
type savedSnippetResource struct {
	data *providerData
}

// savedSnippetResourceModel is the zulip_saved_snippet state.
type savedSnippetResourceModel struct {
	ID          types.Int64  `tfsdk:"id"`
	Title       types.String `tfsdk:"title"`
	Content     types.String `tfsdk:"content"`
	DateCreated types.Int64  `tfsdk:"date_created"`
}

// Metadata names the resource.
func (r *savedSnippetResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_saved_snippet"
}

// Schema describes the resource.
func (r *savedSnippetResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A saved snippet: a titled piece of message text that its owner can insert into the " +
			"compose box. Snippets are private to their owner, and this resource manages the snippets of the " +
			"account the provider is configured with (use an aliased provider to manage another user's). Needs " +
			"Zulip feature level 297 (Zulip 10.0); on servers older than feature level 368, which cannot edit a " +
			"snippet, a change to `title` or `content` replaces the snippet.",
		Attributes: map[string]schema.Attribute{
			"id": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "The saved snippet's id.",
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"title": schema.StringAttribute{
				Required: true,
				MarkdownDescription: fmt.Sprintf("The snippet's title, shown in the saved snippets menu: not empty, at "+
					"most %d characters, without leading or trailing whitespace (Zulip strips it).", savedSnippetMaxTitle),
				Validators: []validator.String{savedSnippetText(savedSnippetMaxTitle, "")},
			},
			"content": schema.StringAttribute{
				Required: true,
				MarkdownDescription: fmt.Sprintf("The text the snippet inserts, in Zulip-flavored Markdown: not empty, "+
					"at most %d characters, without leading or trailing whitespace (Zulip strips it; wrap a heredoc in "+
					"`chomp()` to drop its final newline).", savedSnippetMaxContent),
				Validators: []validator.String{savedSnippetText(savedSnippetMaxContent, " (for a heredoc, use chomp(<<-EOT ... EOT))")},
			},
			"date_created": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "When the snippet was created, in UNIX seconds.",
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
		},
	}
}

// Configure receives the provider's client.
func (r *savedSnippetResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan rejects servers without saved snippets, and on servers that
// cannot edit a snippet turns a change of title or content into a replacement.
func (r *savedSnippetResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !r.data.knowsServer() {
		return
	}
	if req.State.Raw.IsNull() {
		if err := r.data.requireFeatureLevel(featureSavedSnippets, "zulip_saved_snippet"); err != nil {
			resp.Diagnostics.AddError("Zulip Server Too Old", err.Error())
		}
		return
	}
	if r.data.featureLevel >= featureSavedSnippetEdit {
		return
	}
	var plan, state savedSnippetResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// An unknown planned value may turn out different, so it counts as a change;
	// Terraform itself drops paths whose values end up equal.
	if !plan.Title.Equal(state.Title) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("title"))
	}
	if !plan.Content.Equal(state.Content) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("content"))
	}
	if len(resp.RequiresReplace) > 0 {
		tflog.Info(ctx, "server cannot edit saved snippets; planning a replacement", map[string]any{
			"id": state.ID.ValueInt64(), "zulip_feature_level": r.data.featureLevel,
		})
	}
}

// Create saves a new snippet.
func (r *savedSnippetResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan savedSnippetResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
		return
	}
	title, content := savedSnippetToAPI(plan)
	id, err := r.data.client.CreateSavedSnippet(ctx, title, content)
	r.data.cache.invalidate(cacheSavedSnippets)
	if err != nil {
		// A failure after the request was sent (a timeout, a 502) may still have
		// created the snippet. Snippets have no unique key, so it is adopted only
		// when exactly one snippet has this title and content; otherwise the user
		// is told which ids to look at rather than left with a silent duplicate.
		if isClientError(err) {
			addAPIError(&resp.Diagnostics, "Unable to Create Saved Snippet", "create the saved snippet", roleAny, err)
			return
		}
		matches := r.findByText(ctx, title, content)
		switch {
		case len(matches) > 1:
			resp.Diagnostics.AddError("Unable to Create Saved Snippet",
				fmt.Sprintf("The provider could not tell whether the saved snippet was created: %s. Snippets %v now have "+
					"this title and content; if one of them was created by this apply, import it with `terraform import` "+
					"instead of applying again, which would create another.", err, matches))
			return
		case len(matches) == 0:
			addAPIError(&resp.Diagnostics, "Unable to Create Saved Snippet", "create the saved snippet", roleAny, err)
			return
		}
		tflog.Warn(ctx, "saved snippet create failed but a matching snippet exists; adopting it", map[string]any{"id": matches[0], "error": err.Error()})
		id = matches[0]
	}
	plan.ID = types.Int64Value(id)
	// Save the id at once: if the read below fails, Terraform still tracks the object.
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	r.read(ctx, &plan, &resp.Diagnostics, func() {
		resp.Diagnostics.AddError("Saved Snippet Disappeared",
			fmt.Sprintf("Saved snippet %d was created but is not in the account's list of saved snippets.", id))
	})
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read refreshes the snippet from the account's list.
func (r *savedSnippetResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state savedSnippetResourceModel
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
		tflog.Info(ctx, "saved snippet no longer exists; removing it from state", map[string]any{"id": state.ID.ValueInt64()})
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update edits the snippet in place (feature level 368 and newer).
func (r *savedSnippetResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state savedSnippetResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
		return
	}
	// ModifyPlan plans a replacement on older servers; this is reached only when
	// the server's feature level was not known at plan time.
	if err := r.data.requireFeatureLevel(featureSavedSnippetEdit, "Editing a saved snippet in place"); err != nil {
		resp.Diagnostics.AddError("Zulip Server Too Old",
			fmt.Sprintf("%s. Run terraform apply again: with the provider configuration known, the plan replaces the snippet instead.", err))
		return
	}
	err := r.data.client.EditSavedSnippet(ctx, state.ID.ValueInt64(), savedSnippetEditToAPI(plan, state))
	r.data.cache.invalidate(cacheSavedSnippets)
	if err != nil {
		addAPIError(&resp.Diagnostics, "Unable to Update Saved Snippet", "edit the saved snippet", roleAny, err)
		return
	}
	plan.ID = state.ID
	r.read(ctx, &plan, &resp.Diagnostics, func() {
		resp.Diagnostics.AddError("Saved Snippet Disappeared", fmt.Sprintf("Saved snippet %d was deleted while it was being updated.", plan.ID.ValueInt64()))
	})
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete removes the snippet; one already gone is not an error.
func (r *savedSnippetResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state savedSnippetResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !r.data.ready(&resp.Diagnostics) {
		return
	}
	err := r.data.client.DeleteSavedSnippet(ctx, state.ID.ValueInt64())
	r.data.cache.invalidate(cacheSavedSnippets)
	if err != nil && !zulip.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "Unable to Delete Saved Snippet", "delete the saved snippet", roleAny, err)
	}
}

// ImportState adopts one of the provider account's snippets by its numeric id.
func (r *savedSnippetResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, err := strconv.ParseInt(strings.TrimSpace(req.ID), 10, 64)
	if err != nil || id <= 0 {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("A zulip_saved_snippet is imported by its numeric id (see GET /api/v1/saved_snippets), got %q.", req.ID))
		return
	}
	if !r.data.ready(&resp.Diagnostics) {
		return
	}
	m := savedSnippetResourceModel{ID: types.Int64Value(id)}
	r.read(ctx, &m, &resp.Diagnostics, func() {
		resp.Diagnostics.AddError("Saved Snippet Not Found",
			fmt.Sprintf("The provider's account has no saved snippet with id %d. Saved snippets are private to the user "+
				"who saved them: Zulip shows another user's snippet to nobody else, so it can be imported only with a "+
				"provider configured with that user's credentials.", id))
	})
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// read fills m from the server; gone is called when the snippet does not exist.
func (r *savedSnippetResource) read(ctx context.Context, m *savedSnippetResourceModel, diags *diag.Diagnostics, gone func()) {
	list, err := r.data.savedSnippets(ctx)
	if err != nil {
		addAPIError(diags, "Unable to Read Saved Snippets", "list the saved snippets", roleAny, err)
		return
	}
	for _, s := range list {
		if s.ID == m.ID.ValueInt64() {
			savedSnippetFromAPI(s, m)
			return
		}
	}
	gone()
}

// findByText returns the ids of the account's snippets with this title and
// content, to reconcile an uncertain create.
func (r *savedSnippetResource) findByText(ctx context.Context, title, content string) []int64 {
	list, err := r.data.savedSnippets(ctx)
	if err != nil {
		return nil
	}
	var ids []int64
	for _, s := range list {
		if s.Title == title && s.Content == content {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// savedSnippets returns the account's saved snippets through the per-run cache.
func (d *providerData) savedSnippets(ctx context.Context) ([]zulip.SavedSnippet, error) {
	return cachedAs(ctx, d.cache, cacheSavedSnippets, d.client.ListSavedSnippets)
}

// savedSnippetToAPI returns the title and content of the create request.
func savedSnippetToAPI(m savedSnippetResourceModel) (title, content string) {
	return m.Title.ValueString(), m.Content.ValueString()
}

// savedSnippetEditToAPI builds the edit request: only the fields that change
// are sent.
func savedSnippetEditToAPI(plan, state savedSnippetResourceModel) zulip.EditSavedSnippetRequest {
	var req zulip.EditSavedSnippetRequest
	if !plan.Title.Equal(state.Title) {
		t := plan.Title.ValueString()
		req.Title = &t
	}
	if !plan.Content.Equal(state.Content) {
		c := plan.Content.ValueString()
		req.Content = &c
	}
	return req
}

// savedSnippetFromAPI copies the server's view into the model.
func savedSnippetFromAPI(s zulip.SavedSnippet, m *savedSnippetResourceModel) {
	m.ID = types.Int64Value(s.ID)
	m.Title = types.StringValue(s.Title)
	m.Content = types.StringValue(s.Content)
	m.DateCreated = types.Int64Value(s.DateCreated)
}

// savedSnippetText validates a title or content as Zulip does (non-empty and at
// most limit code points after stripping), and rejects outer whitespace, which
// Zulip would strip and the plan would then show as a change forever. hint is
// appended to the whitespace error.
func savedSnippetText(limit int, hint string) validator.String {
	return validators.String(fmt.Sprintf("must be non-empty, at most %d characters, without leading or trailing whitespace", limit),
		func(s string) error {
			trimmed := strings.TrimFunc(s, isPythonSpace)
			switch {
			case trimmed == "":
				return errors.New("must not be empty or only whitespace")
			case trimmed != s:
				return fmt.Errorf("must not start or end with whitespace: Zulip strips it, so the plan would never settle%s", hint)
			case utf8.RuneCountInString(s) > limit:
				return fmt.Errorf("must be at most %d characters (Zulip's limit), got %d", limit, utf8.RuneCountInString(s))
			}
			return nil
		})
}

// isPythonSpace reports whether Zulip's str.strip() removes r: Unicode
// whitespace plus the ASCII separators U+001C..U+001F that Python counts too.
func isPythonSpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }
