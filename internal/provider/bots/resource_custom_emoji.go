package bots

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/imagetype"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*customEmojiResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*customEmojiResource)(nil)
)

// maxEmojiBytes is Zulip's default MAX_EMOJI_FILE_SIZE_MIB (5 MiB); a server's
// administrator may change it, and the server does not say, so a larger file
// only warns.
const maxEmojiBytes = 5 << 20

// emojiNamePattern is check_valid_emoji_name's rule.
var emojiNamePattern = regexp.MustCompile(`^[0-9a-z_-]*[0-9a-z]$`)

// NewCustomEmojiResource returns the zulip_custom_emoji resource.
func NewCustomEmojiResource() resource.Resource {
	return &customEmojiResource{ResourceBase: kit.ResourceBase{Name: "custom_emoji"}}
}

// customEmojiResource manages one custom emoji. Zulip cannot change an
// emoji: a new image replaces it (deactivate, then upload under the same
// name, which Zulip allows once the old one is deactivated).
type customEmojiResource struct {
	kit.ResourceBase
}

// customEmojiModel is the zulip_custom_emoji state.
type customEmojiModel struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	Source       types.String `tfsdk:"source"`
	SourceSHA256 types.String `tfsdk:"source_sha256"`
	SourceURL    types.String `tfsdk:"source_url"`
	StillURL     types.String `tfsdk:"still_url"`
	AuthorID     types.Int64  `tfsdk:"author_id"`
}

// Schema describes the resource.
func (r *customEmojiResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A custom emoji of the organization, uploaded from an image file. Zulip keeps no way to " +
			"change an emoji: a new image (a changed `source_sha256`) or a new name replaces it, which deactivates the " +
			"old emoji and uploads the new one under its name (so `create_before_destroy` cannot work: the name is " +
			"taken until the old emoji is deactivated). Destroying deactivates the emoji: Zulip keeps it visible " +
			"in old messages and reactions, and its name can be used again. Who may add emoji is the organization's " +
			"`can_add_custom_emoji_group`; deactivating needs the emoji's author or an administrator. Import by name " +
			"or id: an imported emoji is adopted as it is (its image cannot be read back to compare), and `source` may " +
			"be left out to leave its image unmanaged.",
		Attributes: map[string]schema.Attribute{
			"id": computed("The emoji's id. A replaced emoji gets a new one."),
			"name": schema.StringAttribute{Required: true,
				MarkdownDescription: "The name people type between colons: lowercase letters, digits, dashes and " +
					"underscores, ending with a letter or digit. Changing it replaces the emoji. Only administrators may " +
					"use the name of a built-in emoji.",
				PlanModifiers: kit.RequiresReplaceString(),
				Validators: []validator.String{stringvalidator.RegexMatches(emojiNamePattern,
					"must contain only lowercase English letters, digits, dashes and underscores, and end with a letter or digit")}},
			"source": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The path of the image file: PNG, GIF (animated or not), JPEG, WebP or AVIF, at most 5 MiB " +
					"by Zulip's default. Required to upload an emoji; an imported one may leave it out. Moving the file " +
					"changes nothing; changing its content replaces the emoji."},
			"source_sha256": schema.StringAttribute{Computed: true,
				MarkdownDescription: "The SHA-256 of the uploaded image, from `source` at plan time: a change replaces the emoji. " +
					"Null for an emoji adopted by import until `source` is set."},
			"source_url": computed("Where the image is, relative to the organization's URL."),
			"still_url":  computed("Where a still image of an animated emoji is (its first frame), relative to the organization's URL; null for an emoji that is not animated."),
			"author_id":  kit.StableInt64("The id of the user who uploaded it."),
		},
	}
}

// ModifyPlan reads the image (type, size, hash: a new image replaces the
// emoji), and checks who may add emoji and that the name is free.
func (r *customEmojiResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	plan, state, creating, ok := kit.PlanAndState[customEmojiModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	if !planEmojiImage(&plan, state, creating, resp) {
		return
	}
	replacing := len(resp.RequiresReplace) > 0 || (!creating && !plan.Name.Equal(state.Name))
	if creating || replacing {
		planNewEmojiValues(ctx, resp)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("source_sha256"), plan.SourceSHA256)...)
	if (!creating && !replacing) || !r.Data.KnowsServer() || resp.Diagnostics.HasError() {
		return
	}
	r.checkMayAdd(ctx, plan, creating, &resp.Diagnostics)
}

// planEmojiImage plans the image's hash from source: the state's when the
// image is not managed, unknown when the path is, else the file's, read now
// and checked. A changed image (or one whose path is known only at apply)
// replaces the emoji. It reports false when the plan stops here.
func planEmojiImage(plan *customEmojiModel, state customEmojiModel, creating bool, resp *resource.ModifyPlanResponse) bool {
	at := path.Root("source")
	switch {
	case plan.Source.IsNull() && creating:
		resp.Diagnostics.AddAttributeError(at, "Missing Image", "Uploading a custom emoji needs its image: set source "+
			"to the path of a PNG, GIF, JPEG, WebP or AVIF file. (Only an emoji adopted by import may leave it out.)")
		return false
	case plan.Source.IsNull():
		plan.SourceSHA256 = state.SourceSHA256 // the image is not managed: keep what is known
	case plan.Source.IsUnknown():
		plan.SourceSHA256 = types.StringUnknown()
		if !creating && kit.Known(state.SourceSHA256) {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root("source_sha256"))
			resp.Diagnostics.AddAttributeWarning(at, "Image Not Known Until Apply",
				"The image's path is known only at apply, so the plan cannot tell whether it changed: the emoji is replaced.")
		}
	default:
		return planEmojiFile(plan, state, creating, resp)
	}
	return true
}

// planEmojiFile reads the image file that source names, warns when it is
// larger than Zulip's default limit, and compares its hash with the state's:
// an emoji adopted by import records it as it is, a changed one is replaced.
// It reports false when the file cannot be used.
func planEmojiFile(plan *customEmojiModel, state customEmojiModel, creating bool, resp *resource.ModifyPlanResponse) bool {
	at := path.Root("source")
	img, err := imagetype.ReadFile(plan.Source.ValueString(), "emoji")
	if err != nil {
		resp.Diagnostics.AddAttributeError(at, "Unusable Emoji Image", err.Error())
		return false
	}
	if len(img.Data) > maxEmojiBytes {
		resp.Diagnostics.AddAttributeWarning(at, "Emoji Image Larger Than Zulip's Default Limit",
			fmt.Sprintf("%s is %.1f MiB; Zulip refuses emoji images over 5 MiB unless its administrator raised "+
				"MAX_EMOJI_FILE_SIZE_MIB (the server does not say its limit).", plan.Source.ValueString(), float64(len(img.Data))/(1<<20)))
	}
	plan.SourceSHA256 = types.StringValue(img.SHA256)
	switch {
	case creating:
	case !kit.Known(state.SourceSHA256):
		resp.Diagnostics.AddAttributeWarning(at, "Image Adopted as It Is",
			"This emoji was adopted by import: Zulip cannot give its image back to compare, so the plan records the "+
				"file's hash without uploading it. A later change of the file replaces the emoji.")
	case state.SourceSHA256.ValueString() != img.SHA256:
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("source_sha256"))
	}
	return true
}

// planNewEmojiValues leaves unknown what the server sets when it adds the
// emoji: its id, URLs and author.
func planNewEmojiValues(ctx context.Context, resp *resource.ModifyPlanResponse) {
	for _, p := range []path.Path{path.Root("id"), path.Root("source_url"), path.Root("still_url")} {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, p, types.StringUnknown())...)
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("author_id"), types.Int64Unknown())...)
}

// checkMayAdd checks, for an emoji to add, that the provider's account may add
// custom emoji (no guest; can_add_custom_emoji_group) and, when creating, that
// its name is free.
func (r *customEmojiResource) checkMayAdd(ctx context.Context, plan customEmojiModel, creating bool, diags *diag.Diagnostics) {
	if r.Data.Me != nil && r.Data.Me.Role == zulip.RoleGuest {
		diags.AddError("Guests Cannot Add Custom Emoji", "Zulip does not let guests add custom emoji (\"Not allowed for guest users\"): configure the provider with a member's account.")
		return
	}
	kit.RequirePermission(ctx, r.Data, "Adding custom emoji", path.Empty(), diags, kit.RealmPermission(ctx, r.Data, "can_add_custom_emoji_group"))
	if kit.Known(plan.Name) && creating {
		emojiCreation(r.Data, plan.Name.ValueString(), nil).CheckKeyFree(ctx, r.Data, path.Root("name"),
			fmt.Sprintf("the name %q", plan.Name.ValueString()), diags)
	}
}

// Create uploads the emoji and reads it back by name (Zulip answers nothing).
func (r *customEmojiResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[customEmojiModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	img, err := imagetype.ReadFile(plan.Source.ValueString(), "emoji")
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("source"), "Unusable Emoji Image", err.Error())
		return
	}
	if kit.Known(plan.SourceSHA256) && plan.SourceSHA256.ValueString() != img.SHA256 {
		resp.Diagnostics.AddAttributeError(path.Root("source"), "Image Changed Since the Plan",
			fmt.Sprintf("%s changed between plan and apply; run terraform apply again to plan its new content.", plan.Source.ValueString()))
		return
	}
	plan.SourceSHA256 = types.StringValue(img.SHA256)
	key, ok := emojiCreation(r.Data, plan.Name.ValueString(), img).Create(ctx, r.Data, &resp.Diagnostics)
	if !ok {
		return
	}
	customEmoji.FinishCreate(ctx, r.Data, &plan, key, resp)
}

// Read refreshes the emoji from the organization's list. An emoji whose name
// now belongs to another one (deactivated and uploaded again by someone else)
// is gone.
func (r *customEmojiResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var prior customEmojiModel
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	customEmoji.Read(ctx, r.Data, req, resp)
	if resp.Diagnostics.HasError() || resp.State.Raw.IsNull() || !kit.Known(prior.ID) {
		return
	}
	var now customEmojiModel
	resp.Diagnostics.Append(resp.State.Get(ctx, &now)...)
	if now.ID.ValueString() != prior.ID.ValueString() {
		tflog.Info(ctx, "the custom emoji's name belongs to another emoji now; removing it from state",
			map[string]any{"name": prior.Name.ValueString(), "id": prior.ID.ValueString(), "now": now.ID.ValueString()})
		resp.State.RemoveResource(ctx)
	}
}

// Update records a moved file or an adopted image's hash: nothing is sent.
func (r *customEmojiResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan customEmojiModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete deactivates the emoji, unless its name now belongs to another one.
func (r *customEmojiResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[customEmojiModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	list, err := kit.EmojiCollection(r.Data).List(ctx)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Deactivate Custom Emoji", "list the custom emoji", kit.RoleAny, err)
		return
	}
	if i := slices.IndexFunc(list, func(e zulip.CustomEmoji) bool { return e.Name == state.Name.ValueString() }); i < 0 || list[i].ID != state.ID.ValueString() {
		return // deactivated already (and maybe replaced by someone else's)
	}
	customEmoji.Delete(ctx, r.Data, req, resp, r.Data.Client.DeactivateCustomEmoji)
}

// ImportState adopts an active emoji by name or id.
func (r *customEmojiResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	customEmoji.Import(ctx, r.Data, req, resp, func(id string) (func(zulip.CustomEmoji) bool, error) {
		if _, err := strconv.Atoi(id); err == nil {
			return func(e zulip.CustomEmoji) bool { return e.ID == id }, nil
		}
		if !emojiNamePattern.MatchString(id) {
			return nil, fmt.Errorf("a zulip_custom_emoji is imported by its name (such as green_tick) or its id; got %q", id)
		}
		return func(e zulip.CustomEmoji) bool { return e.Name == id }, nil
	})
}

// customEmoji is the kit's skeleton for zulip_custom_emoji; its key is the
// name, unique among active emoji.
var customEmoji = kit.Objects[customEmojiModel, zulip.CustomEmoji]{
	TypeName: "zulip_custom_emoji", What: "custom emoji", Role: kit.RoleAny,
	Coll:     kit.EmojiCollection,
	Key:      func(e zulip.CustomEmoji) string { return e.Name },
	StateKey: func(m *customEmojiModel) string { return m.Name.ValueString() },
	SetKey:   func(m *customEmojiModel, k string) { m.Name = types.StringValue(k) },
	FromAPI: kit.WithoutData(func(_ context.Context, e zulip.CustomEmoji, m *customEmojiModel, _ *diag.Diagnostics) {
		m.ID = types.StringValue(e.ID)
		m.Name = types.StringValue(e.Name)
		m.SourceURL = types.StringValue(e.SourceURL)
		m.StillURL = types.StringPointerValue(e.StillURL)
		m.AuthorID = types.Int64PointerValue(e.AuthorID)
		if m.SourceSHA256.IsUnknown() {
			m.SourceSHA256 = types.StringNull()
		}
	}),
	ImportHint: "The organization's custom emoji are listed in its settings, under Custom emoji.",
}

// emojiCreation is the upload of an emoji (img nil: only to check that the
// name is free). After an uncertain failure, an emoji of the name that this
// account added since is adopted.
func emojiCreation(d *kit.ProviderData, name string, img *imagetype.File) kit.Creation[customEmojiModel, zulip.CustomEmoji] {
	return kit.Creation[customEmojiModel, zulip.CustomEmoji]{
		Objects: customEmoji,
		Send: func(ctx context.Context) (string, error) {
			filename := name + "." + strings.TrimPrefix(img.ContentType, "image/") // Zulip uses only the part's type
			return name, d.Client.UploadCustomEmoji(ctx, name, filename, img.ContentType, img.Data)
		},
		SameKey: func(e zulip.CustomEmoji) bool { return e.Name == name },
		Matches: func(e zulip.CustomEmoji) bool {
			return e.Name == name && e.AuthorID != nil && d.Me != nil && *e.AuthorID == d.Me.UserID
		},
	}
}
