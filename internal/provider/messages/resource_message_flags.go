package messages

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
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
	_ resource.ResourceWithImportState = (*messageFlagsResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*messageFlagsResource)(nil)
)

// messageFlagsEditable are the flags a user may change (digest §9.1).
var messageFlagsEditable = []string{zulip.FlagRead, zulip.FlagStarred, zulip.FlagCollapsed}

// messageFlagsReadOnly are the flags only the server sets; naming one is a
// plan-time error with the reason, rather than the server's terse refusal.
var messageFlagsReadOnly = map[string]bool{
	"mentioned": true, "stream_wildcard_mentioned": true, "topic_wildcard_mentioned": true,
	"wildcard_mentioned": true, "group_mentioned": true, "has_alert_word": true, "historical": true,
	"force_expand": true, "force_collapse": true,
}

// messageFlagsNarrow is, per flag, the narrow whose matches tell the flag's
// state: `is:starred` matches starred messages, `is:unread` those without
// `read`. Zulip has no narrow for `collapsed`, so its drift is not detected.
var messageFlagsNarrow = map[string]struct {
	operand string
	// matchMeansSet is true when a match means the flag is set.
	matchMeansSet bool
}{
	zulip.FlagStarred: {operand: "starred", matchMeansSet: true},
	zulip.FlagRead:    {operand: "unread", matchMeansSet: false},
}

// NewMessageFlagsResource returns the zulip_message_flags resource.
func NewMessageFlagsResource() resource.Resource {
	return &messageFlagsResource{ResourceBase: kit.ResourceBase{Name: "message_flags"}}
}

// messageFlagsResource sets one personal flag on a set of messages.
type messageFlagsResource struct {
	kit.ResourceBase
}

// messageFlagsResourceModel is the zulip_message_flags state.
type messageFlagsResourceModel struct {
	ID                                  types.String `tfsdk:"id"`
	MessageIDs                          types.Set    `tfsdk:"message_ids"`
	Flag                                types.String `tfsdk:"flag"`
	IgnoredBecauseNotSubscribedChannels types.Set    `tfsdk:"ignored_because_not_subscribed_channels"`
}

// Schema describes the resource.
func (r *messageFlagsResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Sets a personal message flag (`read`, `starred` or `collapsed`) on messages, for the " +
			"account the provider is configured with (`POST /messages/flags`). Creating the resource adds the flag, " +
			"destroying it removes the flag again from every message it names, and changing `message_ids` adds or " +
			"removes the flag on the difference, in place.\n\n" +
			"**Drift:** for `starred` and `read` the provider reads the flags back, once per run for every resource " +
			"(the account's starred and unread messages, from `POST /register`; past Zulip's limits on those lists, " +
			"10,000 starred or 50,000 unread messages, through `GET /messages/matches_narrow`), so a flag removed outside Terraform " +
			"shows as a change, and the resource is planned for creation again when none of its messages has the " +
			"flag any more. A message in a channel the account has left counts as read: Zulip's list of unread messages " +
			"leaves such channels out. " +
			"Zulip offers no way to read the `collapsed` flag, so its drift is **not** detected. " +
			"A message id that no longer exists shows as drift too; remove it from the configuration.\n\n" +
			"Two resources with the same flag should not name the same message: destroying one would remove the " +
			"flag the other manages.\n\n" +
			"Zulip's answer does not say which messages a change affected (it echoes the request's message ids), " +
			"so the resource does not report that either: `message_ids` is what the provider set, and, for " +
			"`starred` and `read`, what it reads back.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "`<flag>:<message ids>`, the ids ascending and comma-separated, e.g. `starred:1,4`. " +
					"Also the import id.",
			},
			"message_ids": schema.SetAttribute{
				ElementType: types.Int64Type,
				Required:    true,
				MarkdownDescription: "Ids of the messages to flag. Each must be a message the account can access " +
					"(marking a message unread also needs a subscription to its channel).",
				Validators: []validator.Set{
					setvalidator.SizeAtLeast(1),
					setvalidator.ValueInt64sAre(int64validator.AtLeast(1)),
				},
			},
			"flag": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The flag: `read`, `starred` or `collapsed`. The other flags (`mentioned`, " +
					"`stream_wildcard_mentioned`, `topic_wildcard_mentioned`, `has_alert_word`, `historical`, " +
					"`wildcard_mentioned`) are set by the server and are rejected at plan time. Changing the flag " +
					"replaces the resource.",
				Validators:    []validator.String{validators.String("read, starred or collapsed", checkMessageFlag)},
				PlanModifiers: kit.RequiresReplaceString(),
			},
			"ignored_because_not_subscribed_channels": schema.SetAttribute{
				ElementType: types.Int64Type,
				Computed:    true,
				MarkdownDescription: "When the last apply removed the `read` flag (marked messages unread): the ids " +
					"of the channels whose messages the server left read because the account is not subscribed to " +
					"them. The apply also warns about them. Empty otherwise (and on servers before feature level 355).",
			},
		},
	}
}

// ModifyPlan computes the id, which follows from the arguments, so that the
// plan shows it.
func (r *messageFlagsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan messageFlagsResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !kit.Known(plan.Flag) || !kit.Known(plan.MessageIDs) {
		return
	}
	ids := setInt64Values(ctx, plan.MessageIDs, &resp.Diagnostics)
	if ids == nil {
		return // an element is unknown
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), messageFlagsID(plan.Flag.ValueString(), ids))...)
}

// Create adds the flag to every message.
func (r *messageFlagsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[messageFlagsResourceModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	apiReq := messageFlagsToAPI(ctx, plan, zulip.FlagOpAdd, nil, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	out, err := updateMessageFlags(ctx, r.Data, apiReq)
	if err != nil {
		addMessageFlagsError(&resp.Diagnostics, "Unable to Add Message Flag", "add the flag", err)
		return
	}
	// The server sets the flag on every id it accepted, so the plan is the
	// state; reading it back could only report what was just written. Zulip's
	// answer only echoes the ids and, since FL355, lists skipped channels
	// (empty when adding a flag).
	messageFlagsFromAPI(ctx, plan.Flag.ValueString(), apiReq.Messages, out.IgnoredBecauseNotSubscribedChannels, &plan, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read refreshes which messages still have the flag, where Zulip lets the
// provider see it.
func (r *messageFlagsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	kit.Refresh(ctx, r.Data, req, resp, "no message has the flag any more", kit.Found(r.read))
}

// Update adds the flag to messages added to the set and removes it from
// messages taken out of it.
func (r *messageFlagsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state, ok := kit.LoadUpdate[messageFlagsResourceModel](ctx, r.Data, req, &resp.Diagnostics)
	if !ok {
		return
	}
	flag := plan.Flag.ValueString()
	want := setInt64Values(ctx, plan.MessageIDs, &resp.Diagnostics)
	have := setInt64Values(ctx, state.MessageIDs, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	var add, remove []int64
	for _, id := range want {
		if !slices.Contains(have, id) {
			add = append(add, id)
		}
	}
	for _, id := range have {
		if !slices.Contains(want, id) {
			remove = append(remove, id)
		}
	}
	var ignored []int64
	if len(add) > 0 {
		if _, err := updateMessageFlags(ctx, r.Data, zulip.UpdateMessageFlagsRequest{Messages: add, Op: zulip.FlagOpAdd, Flag: flag}); err != nil {
			addMessageFlagsError(&resp.Diagnostics, "Unable to Add Message Flag", "add the flag", err)
			return
		}
	}
	if len(remove) > 0 {
		out, ok := r.removeFlag(ctx, flag, remove, &resp.Diagnostics)
		if !ok {
			return
		}
		ignored = out.IgnoredBecauseNotSubscribedChannels
	}
	messageFlagsFromAPI(ctx, flag, want, ignored, &plan, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete removes the flag from every message of the set.
func (r *messageFlagsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := kit.Load[messageFlagsResourceModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	ids := setInt64Values(ctx, state.MessageIDs, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || len(ids) == 0 {
		return
	}
	r.removeFlag(ctx, state.Flag.ValueString(), ids, &resp.Diagnostics)
}

// ImportState adopts flags by `<flag>:<id>,<id>,...`; the read that follows
// keeps the messages that have the flag.
func (r *messageFlagsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	flag, ids, err := parseMessageFlagsID(req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("A zulip_message_flags is imported by `<flag>:<message id>,<message id>,...`, e.g. `starred:12,15`: %s.", err))
		return
	}
	m := messageFlagsResourceModel{Flag: types.StringValue(flag)}
	messageFlagsFromAPI(ctx, flag, ids, nil, &m, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// read narrows m's messages to those that still have the flag; gone is
// called when none has it. For collapsed, which cannot be read, m is kept.
func (r *messageFlagsResource) read(ctx context.Context, m *messageFlagsResourceModel, diags *diag.Diagnostics, gone func()) {
	flag := m.Flag.ValueString()
	_, detectable := messageFlagsNarrow[flag]
	if !detectable {
		return
	}
	ids := setInt64Values(ctx, m.MessageIDs, diags)
	if diags.HasError() || len(ids) == 0 {
		return
	}
	has, err := flagsNow(ctx, r.Data, flag, ids)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Message Flags", "read which messages have the "+flag+" flag", kit.RoleAny, err)
		return
	}
	var flagged []int64
	for _, id := range ids {
		if has[id] {
			flagged = append(flagged, id)
		}
	}
	if len(flagged) == 0 {
		gone()
		return
	}
	if len(flagged) < len(ids) {
		tflog.Info(ctx, "some messages lost the flag outside Terraform", map[string]any{
			"flag": flag, "configured": len(ids), "flagged": len(flagged),
		})
	}
	set, d := types.SetValueFrom(ctx, types.Int64Type, flagged)
	diags.Append(d...)
	m.MessageIDs = set
	m.ID = types.StringValue(messageFlagsID(flag, flagged))
}

// flagsNow reports which of ids have the flag, from the run's register
// snapshot of it (read once per run for every zulip_message_flags):
// starred_messages for starred, unread_msgs for read. Where a snapshot may
// leave messages out (Zulip lists at most 10000 starred messages, and the
// newest 50000 unread ones, saying so), the ids are asked of GET
// /messages/matches_narrow instead, one request for the resources refreshed
// together. unread_msgs leaves out the channels the account left, so a
// message there counts as read.
func flagsNow(ctx context.Context, d *kit.ProviderData, flag string, ids []int64) (map[int64]bool, error) {
	out := make(map[int64]bool, len(ids))
	switch flag {
	case zulip.FlagStarred:
		state, err := kit.State(ctx, d, zulip.EventTypeStarredMessages)
		if err != nil {
			return nil, err
		}
		if starred, ok := state.StarredSet(); ok {
			for _, id := range ids {
				out[id] = starred[id]
			}
			return out, nil
		}
	case zulip.FlagRead:
		state, err := kit.State(ctx, d, zulip.EventTypeUpdateMessageFlags, zulip.EventTypeMessage)
		if err != nil {
			return nil, err
		}
		if unread, ok := state.UnreadSet(); ok {
			for _, id := range ids {
				out[id] = !unread[id]
			}
			return out, nil
		}
	}
	narrow := messageFlagsNarrow[flag]
	matches, err := d.FlagReads.Do(ctx, flag, ids, func(ctx context.Context, all []int64) (map[int64]zulip.NarrowMatch, error) {
		return d.Client.MatchesNarrow(ctx, all, []zulip.NarrowTerm{{Operator: "is", Operand: narrow.operand}})
	})
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		_, matched := matches[id]
		out[id] = matched == narrow.matchMeansSet
	}
	return out, nil
}

// flagSnapshot is the cache key of the register snapshot that holds a flag
// ("" for a flag none holds).
func flagSnapshot(flag string) string {
	switch flag {
	case zulip.FlagStarred:
		return kit.StateKey(zulip.EventTypeStarredMessages)
	case zulip.FlagRead:
		return kit.StateKey(zulip.EventTypeUpdateMessageFlags)
	}
	return ""
}

// updateMessageFlags sends a flag change, which the flag's snapshot forgets.
func updateMessageFlags(ctx context.Context, d *kit.ProviderData, req zulip.UpdateMessageFlagsRequest) (*zulip.UpdateMessageFlagsResponse, error) {
	var out *zulip.UpdateMessageFlagsResponse
	send := func(ctx context.Context) error {
		var err error
		out, err = d.Client.UpdateMessageFlags(ctx, req)
		return err
	}
	key := flagSnapshot(req.Flag)
	if key == "" {
		return out, send(ctx)
	}
	return out, d.Cache.Write(ctx, key, send)
}

// removeFlag removes the flag from ids and warns about what the server left
// alone. When a message no longer exists (or the account lost access to it),
// Zulip refuses the whole request; the flag is then removed message by
// message, skipping those, since a vanished message needs no unflagging.
func (r *messageFlagsResource) removeFlag(ctx context.Context, flag string, ids []int64, diags *diag.Diagnostics) (*zulip.UpdateMessageFlagsResponse, bool) {
	out, err := updateMessageFlags(ctx, r.Data, zulip.UpdateMessageFlagsRequest{Messages: ids, Op: zulip.FlagOpRemove, Flag: flag})
	if err != nil && zulip.IsNotFound(err) {
		out = &zulip.UpdateMessageFlagsResponse{}
		var skipped []int64
		channels := map[int64]bool{}
		for _, id := range ids {
			one, err := updateMessageFlags(ctx, r.Data, zulip.UpdateMessageFlagsRequest{Messages: []int64{id}, Op: zulip.FlagOpRemove, Flag: flag})
			switch {
			case zulip.IsNotFound(err):
				skipped = append(skipped, id)
				continue
			case err != nil:
				addMessageFlagsError(diags, "Unable to Remove Message Flag", "remove the flag", err)
				return nil, false
			}
			out.Messages = append(out.Messages, one.Messages...) // the ids sent, echoed
			for _, ch := range one.IgnoredBecauseNotSubscribedChannels {
				if !channels[ch] {
					channels[ch] = true
					out.IgnoredBecauseNotSubscribedChannels = append(out.IgnoredBecauseNotSubscribedChannels, ch)
				}
			}
		}
		tflog.Info(ctx, "skipped messages that no longer exist or are no longer accessible", map[string]any{"flag": flag, "skipped": fmt.Sprint(skipped)})
	} else if err != nil {
		addMessageFlagsError(diags, "Unable to Remove Message Flag", "remove the flag", err)
		return nil, false
	}
	if len(out.IgnoredBecauseNotSubscribedChannels) > 0 {
		slices.Sort(out.IgnoredBecauseNotSubscribedChannels)
		diags.AddAttributeWarning(path.Root("message_ids"), "Some Messages Were Not Marked Unread",
			fmt.Sprintf("Zulip left the messages of channels %s read, because the provider's account is not subscribed "+
				"to them: a message can be unread only in a channel one is subscribed to. Subscribe the account to "+
				"those channels, or leave their messages out of a `read` zulip_message_flags resource.",
				formatInt64List(out.IgnoredBecauseNotSubscribedChannels, ", ")))
	}
	return out, true
}

// addMessageFlagsError reports a failed flag change, naming message_ids when
// the server refused one of them.
func addMessageFlagsError(diags *diag.Diagnostics, summary, action string, err error) {
	if zulip.IsNotFound(err) {
		diags.AddAttributeError(path.Root("message_ids"), summary,
			fmt.Sprintf("The provider could not %s: at least one of the message ids does not exist or is not "+
				"accessible to the provider's account (for example a message in a private channel it is not "+
				"subscribed to). Server said: %s", action, err))
		return
	}
	kit.AddAPIError(diags, summary, action, kit.RoleAny, err)
}

// messageFlagsToAPI builds the flag request for the model's messages.
func messageFlagsToAPI(ctx context.Context, m messageFlagsResourceModel, op string, ids []int64, diags *diag.Diagnostics) zulip.UpdateMessageFlagsRequest {
	if ids == nil {
		ids = setInt64Values(ctx, m.MessageIDs, diags)
	}
	return zulip.UpdateMessageFlagsRequest{Messages: ids, Op: op, Flag: m.Flag.ValueString()}
}

// messageFlagsFromAPI records the flagged messages and the channels the
// server skipped when marking messages unread.
func messageFlagsFromAPI(ctx context.Context, flag string, ids, ignored []int64, m *messageFlagsResourceModel, diags *diag.Diagnostics) {
	setOf := func(v []int64) types.Set {
		if v == nil {
			v = []int64{}
		}
		s, d := types.SetValueFrom(ctx, types.Int64Type, v)
		diags.Append(d...)
		return s
	}
	m.ID = types.StringValue(messageFlagsID(flag, ids))
	m.Flag = types.StringValue(flag)
	m.MessageIDs = setOf(ids)
	m.IgnoredBecauseNotSubscribedChannels = setOf(ignored)
}

// messageFlagsID is the resource id: the flag and the ascending message ids.
func messageFlagsID(flag string, ids []int64) string {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	return flag + ":" + formatInt64List(sorted, ",")
}

// parseMessageFlagsID parses an import id.
func parseMessageFlagsID(id string) (string, []int64, error) {
	flag, list, ok := strings.Cut(id, ":")
	if !ok || list == "" {
		return "", nil, fmt.Errorf("%q has no message ids after the flag", id)
	}
	if err := checkMessageFlag(flag); err != nil {
		return "", nil, err
	}
	var ids []int64
	for _, part := range strings.Split(list, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil || n <= 0 {
			return "", nil, fmt.Errorf("%q is not a message id", part)
		}
		if !slices.Contains(ids, n) {
			ids = append(ids, n)
		}
	}
	slices.Sort(ids)
	return flag, ids, nil
}

// checkMessageFlag accepts the flags a user may change and explains why the
// others are refused.
func checkMessageFlag(s string) error {
	if slices.Contains(messageFlagsEditable, s) {
		return nil
	}
	if messageFlagsReadOnly[s] {
		return fmt.Errorf("%q is read-only: set by the server; a user can change only read, starred and collapsed", s)
	}
	return fmt.Errorf("%q is not a message flag a user can change; use read, starred or collapsed", s)
}

// Int64Set returns the elements of a set of numbers, ascending; nil when the
// set or an element is unknown.
func setInt64Values(ctx context.Context, s types.Set, diags *diag.Diagnostics) []int64 {
	if s.IsNull() || s.IsUnknown() {
		return nil
	}
	var elems []types.Int64
	diags.Append(s.ElementsAs(ctx, &elems, false)...)
	out := make([]int64, 0, len(elems))
	for _, e := range elems {
		if !kit.Known(e) {
			return nil
		}
		out = append(out, e.ValueInt64())
	}
	slices.Sort(out)
	return out
}

// formatInt64List formats numbers with a separator.
func formatInt64List(v []int64, sep string) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.FormatInt(n, 10)
	}
	return strings.Join(parts, sep)
}
