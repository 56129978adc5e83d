package messages

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
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

// NewSavedSnippetResource returns the zulip_saved_snippet resource.
func NewSavedSnippetResource() resource.Resource {
	return &savedSnippetResource{ObjectResource: kit.ObjectResourceOf(&savedSnippets)}
}

// savedSnippetResource manages one of the provider account's saved snippets.
type savedSnippetResource struct {
	kit.ObjectResource[savedSnippetResourceModel, zulip.SavedSnippet]
}

// savedSnippetResourceModel is the zulip_saved_snippet state.
type savedSnippetResourceModel struct {
	ID          types.Int64  `tfsdk:"id"`
	Title       types.String `tfsdk:"title"`
	Content     types.String `tfsdk:"content"`
	DateCreated types.Int64  `tfsdk:"date_created"`
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
			"id": kit.StableInt64("The saved snippet's id."),
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
			"date_created": kit.StableInt64("When the snippet was created, in UNIX seconds."),
		},
	}
}

// ModifyPlan rejects servers without saved snippets and a snippet the account
// already has (the same title and content: what a killed apply leaves), and on
// servers that cannot edit a snippet turns a change of title or content into a
// replacement.
func (r *savedSnippetResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !r.Data.KnowsServer() || kit.Unchanged(req) {
		return
	}
	if req.State.Raw.IsNull() {
		var plan savedSnippetResourceModel
		resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
		if !resp.Diagnostics.HasError() && kit.Known(plan.Title) && kit.Known(plan.Content) {
			title, content := savedSnippetToAPI(plan)
			r.creation(title, content).CheckKeyFree(ctx, r.Data, path.Root("title"),
				fmt.Sprintf("the title %q and the same content", title), &resp.Diagnostics)
		}
		return
	}
	if r.Data.FeatureLevel() >= featureSavedSnippetEdit {
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
			"id": state.ID.ValueInt64(), "zulip_feature_level": r.Data.FeatureLevel(),
		})
	}
}

// Create saves the snippet.
func (r *savedSnippetResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[savedSnippetResourceModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	title, content := savedSnippetToAPI(plan)
	defer r.Data.Events.Expect(ctx)() // before the create: its event goes to the queues that exist
	id, ok := r.creation(title, content).Create(ctx, r.Data, &resp.Diagnostics)
	if !ok {
		return
	}
	// The snippet as its add event shows it (date_created is the server's);
	// without the event, as the list read back shows it.
	n, _ := strconv.ParseInt(id, 10, 64)
	if s, found := kit.FeedObject[zulip.SavedSnippet](ctx, r.Data, kit.FeedSnippet, n); found && s.ID == n {
		savedSnippetFromAPI(s, &plan)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	savedSnippets.FinishCreate(ctx, r.Data, &plan, id, resp)
}

// Update edits the snippet in place (servers that cannot are planned a replacement).
func (r *savedSnippetResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	savedSnippets.Update(ctx, r.Data, req, resp, func(ctx context.Context, plan, state *savedSnippetResourceModel, diags *diag.Diagnostics) error {
		if err := r.Data.RequireFeatureLevel(featureSavedSnippetEdit, "Editing a saved snippet in place"); err != nil {
			diags.AddError("Zulip Server Too Old",
				fmt.Sprintf("%s. Run terraform apply again: with the provider configuration known, the plan replaces the snippet instead.", err))
			return nil
		}
		return r.Data.Client.EditSavedSnippet(ctx, state.ID.ValueInt64(), savedSnippetEditToAPI(*plan, *state))
	})
}

// savedSnippets is the kit's skeleton for zulip_saved_snippet.
var savedSnippets = kit.Objects[savedSnippetResourceModel, zulip.SavedSnippet]{
	TypeName: "zulip_saved_snippet", What: "saved snippet", Role: kit.RoleAny,
	Coll: kit.SavedSnippetCollection,
	IDOf: func(s zulip.SavedSnippet) int64 { return s.ID },
	ID:   func(m *savedSnippetResourceModel) *types.Int64 { return &m.ID },
	FromAPI: func(_ context.Context, _ *kit.ProviderData, s zulip.SavedSnippet, m *savedSnippetResourceModel, _ *diag.Diagnostics) {
		savedSnippetFromAPI(s, m)
	},
	ImportHint: "A snippet is imported by its numeric id or its title. Saved snippets are private to the user who saved " +
		"them: Zulip shows another user's snippet to nobody else, so it can be imported only with a provider configured " +
		"with that user's credentials.",
	Remove: func(d *kit.ProviderData) func(context.Context, string) error {
		return kit.DeleteByID(d.Client.DeleteSavedSnippet)
	},
	Lookup: kit.ByKeyOrID("zulip_saved_snippet", "title",
		func(s zulip.SavedSnippet) int64 { return s.ID }, func(s zulip.SavedSnippet) string { return s.Title }, false),
}

// creation is the create of a snippet. Zulip lets an account save the same
// snippet twice, but a second identical one is never what a configuration
// means: it is what an apply that was killed after creating leaves behind. So
// the title and content together are the natural key.
func (r *savedSnippetResource) creation(title, content string) kit.Creation[savedSnippetResourceModel, zulip.SavedSnippet] {
	same := func(s zulip.SavedSnippet) bool { return s.Title == title && s.Content == content }
	return kit.Creation[savedSnippetResourceModel, zulip.SavedSnippet]{
		Objects: savedSnippets,
		Send: func(ctx context.Context) (string, error) {
			id, err := r.Data.Client.CreateSavedSnippet(ctx, title, content)
			return strconv.FormatInt(id, 10), err
		},
		SameKey: same,
		Matches: same,
	}
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
			trimmed := strings.TrimFunc(s, kit.IsPythonSpace)
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
