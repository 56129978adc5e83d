package bots

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

var (
	_ resource.ResourceWithImportState = (*botResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*botResource)(nil)
)

// Feature levels of the bot endpoints.
const (
	featureBotShortName = 447 // PATCH /bots/{id} short_name
	featureBotAPIKey    = 463 // GET /bots/{id}/api_key
	featureBotGroups    = 344 // can_create_bots_group, can_create_write_only_bots_group
)

// cacheRealmBots is the cache key of register's realm_bots.
var cacheRealmBots = kit.StateKey(zulip.EventTypeRealmBot)

// botTypes are the bot types by name, as Terraform spells them.
var botTypes = map[string]int{
	"generic": zulip.BotTypeGeneric, "incoming_webhook": zulip.BotTypeIncomingWebhook,
	"outgoing_webhook": zulip.BotTypeOutgoingWebhook, "embedded": zulip.BotTypeEmbedded,
}

// botInterfaces are the outgoing webhook interfaces by name.
var botInterfaces = map[string]int{"generic": zulip.BotInterfaceGeneric, "slack": zulip.BotInterfaceSlack}

// shortNamePattern is what a bot's short name may be here: Zulip accepts
// more (it quotes the address), but an address that needs quoting is an
// address nobody can type.
var shortNamePattern = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`)

// NewBotResource returns the zulip_bot resource.
func NewBotResource() resource.Resource {
	return &botResource{ResourceBase: kit.ResourceBase{Name: "bot"}}
}

// botResource manages a bot. Its API key is in state only when the
// configuration opts in (keep_api_key_in_state, resource_bot_key.go);
// otherwise the ephemeral zulip_bot_api_key reads it.
type botResource struct {
	kit.ResourceBase
}

// botModel is the zulip_bot state.
type botModel struct {
	ID                           types.Int64  `tfsdk:"id"`
	Email                        types.String `tfsdk:"email"`
	FullName                     types.String `tfsdk:"full_name"`
	ShortName                    types.String `tfsdk:"short_name"`
	BotType                      types.String `tfsdk:"bot_type"`
	OwnerID                      types.Int64  `tfsdk:"owner_id"`
	Role                         types.String `tfsdk:"role"`
	DefaultSendingChannel        types.String `tfsdk:"default_sending_channel"`
	DefaultEventsRegisterChannel types.String `tfsdk:"default_events_register_channel"`
	DefaultAllPublicStreams      types.Bool   `tfsdk:"default_all_public_streams"`
	OutgoingWebhookURL           types.String `tfsdk:"outgoing_webhook_url"`
	OutgoingWebhookInterface     types.String `tfsdk:"outgoing_webhook_interface"`
	KeyRotation                  types.String `tfsdk:"key_rotation"`
	KeepAPIKeyInState            types.Bool   `tfsdk:"keep_api_key_in_state"`
	APIKey                       types.String `tfsdk:"api_key"`
}

// Schema describes the resource.
func (r *botResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keepInt := []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}
	keepString := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	optString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: desc, PlanModifiers: keepString}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A bot of the organization, owned by a user. Its API key is a secret, not in the " +
			"plan or the state unless `keep_api_key_in_state` asks for it: the ephemeral resource `zulip_bot_api_key` reads " +
			"it when something needs it, and changing `key_rotation` makes Zulip issue a new one. Destroying deactivates the bot (Zulip never deletes users); " +
			"creating a bot whose short name belongs to a deactivated bot reactivates that bot, with a warning. Who may " +
			"create bots is the organization's `can_create_bots_group` (`can_create_write_only_bots_group` for incoming " +
			"webhooks, feature level 344), checked at plan. Import by the bot's e-mail address or id.",
		Attributes: map[string]schema.Attribute{
			"id":    schema.Int64Attribute{Computed: true, MarkdownDescription: "The bot's user id.", PlanModifiers: keepInt},
			"email": schema.StringAttribute{Computed: true, MarkdownDescription: "The bot's address, `<short_name>-bot@<organization's domain>`: what its API key authenticates with.", PlanModifiers: keepString},
			"full_name": schema.StringAttribute{Required: true, MarkdownDescription: "The name people see; unique among the organization's active users.",
				Validators: []validator.String{stringvalidator.LengthBetween(1, 100)}},
			"short_name": schema.StringAttribute{Required: true,
				MarkdownDescription: "The bot's address before `-bot@`: letters, digits, dots, dashes and underscores. Changing it changes " +
					"the address in place on Zulip feature level 447 (Zulip 12.0) or newer, and replaces the bot before.",
				Validators: []validator.String{stringvalidator.RegexMatches(shortNamePattern, "must be letters, digits, dots, dashes and underscores, starting and ending with a letter or digit")}},
			"bot_type": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("generic"),
				MarkdownDescription: "`generic` (the default: a bot that uses the whole API), `incoming_webhook` (it can only send " +
					"messages), `outgoing_webhook` (Zulip calls `outgoing_webhook_url` when it is mentioned) or `embedded` (a bot " +
					"the server runs, when the server enables them). Changing it replaces the bot.",
				PlanModifiers: kit.RequiresReplaceString(),
				Validators:    []validator.String{stringvalidator.OneOf("generic", "incoming_webhook", "outgoing_webhook", "embedded")}},
			"owner_id": schema.Int64Attribute{Optional: true, Computed: true, PlanModifiers: keepInt,
				MarkdownDescription: "The owner's user id; the provider's account when left out at creation."},
			"role": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keepString,
				MarkdownDescription: "`member` (Zulip's default), `moderator`, `administrator`, `owner` or `guest`. Making a bot an " +
					"administrator needs one; an owner, an owner.",
				Validators: []validator.String{stringvalidator.OneOf(zulip.RoleNames()...)}},
			"default_sending_channel":         optString("The channel the bot sends to when a message names none, by name. Left out, the bot's current one is kept."),
			"default_events_register_channel": optString("The channel whose events the bot receives by default, by name. Left out, the bot's current one is kept."),
			"default_all_public_streams": schema.BoolAttribute{Optional: true, Computed: true,
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
				MarkdownDescription: "Whether the bot receives the events of every public channel by default."},
			"outgoing_webhook_url": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The URL Zulip posts to when an `outgoing_webhook` bot is mentioned. Required for that type, refused for the others."},
			"outgoing_webhook_interface": schema.StringAttribute{Optional: true, Computed: true, PlanModifiers: keepString,
				MarkdownDescription: "How an `outgoing_webhook` bot's requests are shaped: `generic` (the default) or `slack`.",
				Validators:          []validator.String{stringvalidator.OneOf("generic", "slack")}},
			"key_rotation": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Any value: changing it makes Zulip issue the bot a new API key (the old one stops working). " +
					"A date such as `2026-11` records when the key was last rotated."},
			"keep_api_key_in_state": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Whether the state keeps the bot's API key in `api_key` (default false), for a tool that " +
					"takes it as a plain argument: an incoming webhook's URL for Grafana, Sentry or a repository's webhook " +
					"(`provider::zulip::webhook_url`). What it costs: the key is then in the state in clear text (sensitive " +
					"only hides it from the plan's output), so whoever can read the state, or a plan file, can post as the " +
					"bot; keep the state encrypted and its readers few, and prefer the ephemeral `zulip_bot_api_key` for " +
					"what takes ephemeral or write-only values. The key is the one Zulip answered when it created the bot or " +
					"regenerated its key (`key_rotation`), on every feature level. Turning this on for an existing bot reads " +
					"the key on Zulip feature level 463 (Zulip 12.0) or newer; before it, the plan asks for a `key_rotation` " +
					"change in the same apply, since Zulip gives the key of an existing bot only by regenerating it. On 463 " +
					"or newer each refresh reads the key again (one request per such bot), so a key regenerated in the web " +
					"app reaches the state; before, such a change goes unseen until the next `key_rotation`. Turning it off " +
					"removes the key from the state (Zulip's key is unchanged)."},
			"api_key": schema.StringAttribute{Computed: true, Sensitive: true,
				MarkdownDescription: "The bot's API key when `keep_api_key_in_state` is true, null otherwise. A secret: " +
					"anyone with it can act as the bot."},
		},
	}
}

// ModifyPlan refuses what Zulip would refuse: the creation permission, a
// taken address, a short name change the server cannot make in place, and
// an outgoing webhook without its URL.
func (r *botResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if kit.Unchanged(req) {
		return
	}
	plan, state, creating, ok := kit.PlanAndState[botModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	planOutgoingWebhook(ctx, plan, state, resp)
	r.planAPIKey(ctx, plan, state, creating, resp)
	if !r.Data.KnowsServer() || resp.Diagnostics.HasError() {
		return
	}
	if r.Data.HasCreds {
		r.checkOwnerAndName(ctx, plan, state, creating, &resp.Diagnostics)
	}
	if !creating {
		r.planShortNameChange(ctx, plan, state, resp)
		return
	}
	r.checkCreate(ctx, plan, &resp.Diagnostics)
}

// planOutgoingWebhook checks that only an outgoing webhook bot, and every one,
// has a URL, and that only such a bot sets an interface, which is null for
// the others.
func planOutgoingWebhook(ctx context.Context, plan, state botModel, resp *resource.ModifyPlanResponse) {
	outgoing := plan.BotType.ValueString() == "outgoing_webhook"
	switch {
	case !kit.Known(plan.BotType):
	case outgoing && plan.OutgoingWebhookURL.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("outgoing_webhook_url"), "Missing Outgoing Webhook URL",
			"An outgoing_webhook bot needs the URL Zulip posts to when it is mentioned.")
	case !outgoing && !plan.OutgoingWebhookURL.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("outgoing_webhook_url"), "Not an Outgoing Webhook",
			fmt.Sprintf("Only outgoing_webhook bots have a URL; this bot is %s.", plan.BotType.ValueString()))
	case !outgoing && kit.Known(plan.OutgoingWebhookInterface) && !plan.OutgoingWebhookInterface.Equal(state.OutgoingWebhookInterface):
		resp.Diagnostics.AddAttributeError(path.Root("outgoing_webhook_interface"), "Not an Outgoing Webhook",
			fmt.Sprintf("Only outgoing_webhook bots have an interface; this bot is %s.", plan.BotType.ValueString()))
	}
	if !outgoing && plan.OutgoingWebhookInterface.IsUnknown() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("outgoing_webhook_interface"), types.StringNull())...)
	}
}

// checkOwnerAndName checks, when the bot is created or they change, that its
// owner may own it and that its name is free.
func (r *botResource) checkOwnerAndName(ctx context.Context, plan, state botModel, creating bool, diags *diag.Diagnostics) {
	if kit.Known(plan.OwnerID) && (creating || !plan.OwnerID.Equal(state.OwnerID)) {
		r.checkOwner(ctx, plan.OwnerID.ValueInt64(), diags)
	}
	if kit.Known(plan.FullName) && (creating || plan.FullName.ValueString() != state.FullName.ValueString()) {
		r.checkNameFree(ctx, plan.FullName.ValueString(), state.ID, plan.ShortName, diags)
	}
}

// planShortNameChange plans a new short name: in place, with the e-mail
// address it makes unknown, where the server can change it (featureBotShortName),
// else by replacing the bot.
func (r *botResource) planShortNameChange(ctx context.Context, plan, state botModel, resp *resource.ModifyPlanResponse) {
	if plan.ShortName.Equal(state.ShortName) {
		return
	}
	if r.Data.RequireFeatureLevel(featureBotShortName, "") != nil {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("short_name"))
	} else {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("email"), types.StringUnknown())...)
	}
}

// checkCreate refuses at plan a bot the account may not create, and an
// address an active user has.
func (r *botResource) checkCreate(ctx context.Context, plan botModel, diags *diag.Diagnostics) {
	options := []kit.HeldBy{kit.RealmPermission(ctx, r.Data, "can_create_bots_group")}
	if plan.BotType.ValueString() == "incoming_webhook" && r.Data.RequireFeatureLevel(featureBotGroups, "") == nil {
		options = append(options, kit.RealmPermission(ctx, r.Data, "can_create_write_only_bots_group"))
	}
	kit.RequirePermission(ctx, r.Data, "Creating a "+strings.ReplaceAll(plan.BotType.ValueString(), "_", " ")+" bot", path.Empty(), diags, options...)
	if !kit.Known(plan.ShortName) || !r.Data.HasCreds {
		return
	}
	existing, err := r.existing(ctx, plan.ShortName.ValueString())
	switch {
	case err != nil || existing == nil:
		return // the server says
	case existing.IsBot && r.Data.Journaled(ctx, "zulip_bot", strconv.FormatInt(existing.UserID, 10)):
		return // made by an interrupted apply: the create adopts it (kit/journal.go)
	case existing.IsBot && r.Data.HeldByState("zulip_bot", strconv.FormatInt(existing.UserID, 10)):
		// This configuration's own bot, which a replacement deactivates and the
		// create reactivates: Zulip never lets a new bot take a short name.
		diags.AddAttributeWarning(path.Root("short_name"), "Replacing a Bot Reactivates It",
			fmt.Sprintf("Zulip never lets a new bot take the short name %q, so replacing the bot %s deactivates it and then "+
				"reactivates the same bot, with the API key it had, and gives it this configuration.",
				plan.ShortName.ValueString(), kit.UserDescribe(*existing)))
		return
	case existing.IsBot && !existing.IsActive:
		diags.AddAttributeWarning(path.Root("short_name"), "Deactivated Bot Will Be Reactivated",
			fmt.Sprintf("The short name %q belongs to the deactivated bot %s, and Zulip never lets a new bot take it: the "+
				"apply reactivates that bot and makes it match this configuration. Its API key is the one it had.",
				plan.ShortName.ValueString(), kit.UserDescribe(*existing)))
		return
	case !existing.IsBot:
		diags.AddAttributeError(path.Root("short_name"), "Bot Address Taken",
			fmt.Sprintf("The address %s belongs to the user %s, and Zulip addresses are unique (deactivated users keep "+
				"theirs): choose another short name.", existing.Email, kit.UserDescribe(*existing)))
		return
	}
	diags.AddAttributeError(path.Root("short_name"), "Bot Address Taken",
		fmt.Sprintf("The address %s belongs to the bot %s. To manage that bot with this resource, import it (with <name> this "+
			"resource's name):\n\n%s", existing.Email, kit.UserDescribe(*existing), kit.ImportBlock("zulip_bot", existing.Email)))
}

// checkOwner refuses at plan an owner that Zulip refuses ("Failed to change
// owner, ..."): an id nobody has, a deactivated user, a bot. It reads the
// run's list of users, afresh only when the owner is not in it (a user this
// run created or reactivated).
func (r *botResource) checkOwner(ctx context.Context, owner int64, diags *diag.Diagnostics) {
	verdict, err := kit.CheckUsersSeen(ctx, r.Data, func(users map[int64]zulip.User) error {
		u, ok := users[owner]
		switch {
		case !ok:
			return fmt.Errorf("no user has the id %d", owner)
		case u.IsBot:
			return fmt.Errorf("%s is a bot, and bots cannot own bots", kit.UserDescribe(u))
		case !u.IsActive:
			return fmt.Errorf("%s is deactivated", kit.UserDescribe(u))
		}
		return nil
	})
	if err != nil {
		tflog.Warn(ctx, "could not list users; the bot owner check is left to the server", map[string]any{"error": err.Error()})
		return
	}
	if verdict != nil {
		diags.AddAttributeError(path.Root("owner_id"), "Invalid Bot Owner",
			fmt.Sprintf("Zulip refuses this owner: %s. A bot's owner is an active human user of the organization; "+
				"choose another, or leave owner_id out to make the provider's account the owner.", verdict))
	}
}

// checkNameFree refuses at plan a full name that an active user other than
// the bot itself (self, null for a new bot; or, for a replacement, the bot of
// the short name that a state of this run holds, which the create takes back)
// already has: Zulip refuses it ("Name is already in use!",
// check_bot_name_available, which compares the name as given, without its
// outer spaces).
func (r *botResource) checkNameFree(ctx context.Context, name string, self types.Int64, shortName types.String, diags *diag.Diagnostics) {
	name = strings.TrimSpace(name)
	var holder zulip.User
	itself := func(u zulip.User) bool {
		if !self.IsNull() {
			return u.UserID == self.ValueInt64()
		}
		local, _, _ := strings.Cut(u.Email, "@")
		return kit.Known(shortName) && u.IsBot && strings.EqualFold(local, shortName.ValueString()+"-bot") &&
			r.Data.HeldByState("zulip_bot", strconv.FormatInt(u.UserID, 10))
	}
	verdict, err := kit.CheckUsersSeen(ctx, r.Data, func(users map[int64]zulip.User) error {
		for _, u := range users {
			if u.IsActive && u.FullName == name && !itself(u) {
				holder = u
				return errors.New("taken")
			}
		}
		return nil
	})
	if err != nil {
		tflog.Warn(ctx, "could not list users; the bot name check is left to the server", map[string]any{"error": err.Error()})
		return
	}
	if verdict != nil {
		diags.AddAttributeError(path.Root("full_name"), "Bot Name in Use",
			fmt.Sprintf("The name %q belongs to %s, and Zulip refuses a bot whose full name an active user of the "+
				"organization already has (\"Name is already in use!\"): choose another full_name.", name, kit.UserDescribe(holder)))
	}
}

// existing is the user whose address the short name gives, from the run's
// newest list; nil when there is none.
func (r *botResource) existing(ctx context.Context, shortName string) (*zulip.User, error) {
	users, err := kit.UsersSeen(ctx, r.Data)
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		if local, _, ok := strings.Cut(u.Email, "@"); ok && strings.EqualFold(local, shortName+"-bot") {
			return &u, nil
		}
	}
	return nil, nil
}

// Create makes the bot, or reactivates the deactivated bot of its short
// name, and then sets what POST /bots cannot (role, owner).
func (r *botResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := kit.Load[botModel](ctx, r.Data, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	existing, err := r.existing(ctx, plan.ShortName.ValueString())
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Create Bot", "list the users", kit.RoleAny, err)
		return
	}
	var id int64
	var key string // the create's answer; none for a reactivated bot
	switch {
	case existing != nil && existing.IsBot && !existing.IsActive:
		if err := kit.WriteUsers(ctx, r.Data, func(ctx context.Context) error {
			return r.Data.Client.ReactivateUser(ctx, existing.UserID)
		}, cacheRealmBots); err != nil {
			kit.AddAPIError(&resp.Diagnostics, "Unable to Reactivate Bot", "reactivate the bot "+existing.Email, kit.RoleAdministrator, err)
			return
		}
		resp.Diagnostics.AddWarning("Deactivated Bot Reactivated",
			fmt.Sprintf("The short name %q belongs to the deactivated bot %s (Zulip never lets a new bot take it): that bot "+
				"is reactivated and made to match this configuration, with its old API key.", plan.ShortName.ValueString(), kit.UserDescribe(*existing)))
		id = existing.UserID
	default:
		id, key, err = r.create(ctx, plan)
		if err != nil {
			kit.AddAPIError(&resp.Diagnostics, "Unable to Create Bot", "create the bot", kit.RoleAny, err)
			return
		}
	}
	plan.ID = types.Int64Value(id)
	// The bot exists: whatever fails below, Terraform keeps tracking it.
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), plan.ID)...)
	prior := botModel{ShortName: plan.ShortName} // the address is right either way
	if existing == nil {
		// POST /bots set the type's settings; the rest goes through PATCH.
		prior = botModel{FullName: plan.FullName, ShortName: plan.ShortName, DefaultSendingChannel: plan.DefaultSendingChannel,
			DefaultEventsRegisterChannel: plan.DefaultEventsRegisterChannel, DefaultAllPublicStreams: plan.DefaultAllPublicStreams,
			OutgoingWebhookURL: plan.OutgoingWebhookURL, OutgoingWebhookInterface: plan.OutgoingWebhookInterface}
	}
	var rest diag.Diagnostics
	if r.update(ctx, id, &plan, prior, &rest) {
		r.readInto(ctx, &plan, &rest)
	}
	r.keepKey(ctx, id, key, &plan, &rest)
	if rest.HasError() {
		// What the plan left to the server (the address above all, the
		// identity's key) is read now; the rest stays as planned, which
		// Terraform requires, and the next refresh reads it.
		got := plan
		var readDiags diag.Diagnostics
		if r.readInto(ctx, &got, &readDiags) {
			plan.fillUnknown(got)
		}
		for _, d := range rest {
			resp.Diagnostics.AddWarning("Bot Created but Not Finished: "+d.Summary(), d.Detail()+
				"\n\nThe bot exists and Terraform keeps tracking it: the next plan shows what is left as an in-place update.")
		}
	} else {
		resp.Diagnostics.Append(rest...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	kit.SettleUnknowns(ctx, &resp.State, &resp.Diagnostics) // a half-made bot's computed values: the next refresh reads them
}

// fillUnknown copies into m the values it does not know yet from got.
func (m *botModel) fillUnknown(got botModel) {
	for _, v := range []struct{ to, from *types.String }{
		{&m.Email, &got.Email}, {&m.Role, &got.Role}, {&m.DefaultSendingChannel, &got.DefaultSendingChannel},
		{&m.DefaultEventsRegisterChannel, &got.DefaultEventsRegisterChannel}, {&m.OutgoingWebhookInterface, &got.OutgoingWebhookInterface},
	} {
		if v.to.IsUnknown() {
			*v.to = *v.from
		}
	}
	if m.OwnerID.IsUnknown() {
		m.OwnerID = got.OwnerID
	}
	if m.DefaultAllPublicStreams.IsUnknown() {
		m.DefaultAllPublicStreams = got.DefaultAllPublicStreams
	}
}

// knownStringPointer is a known value's pointer; nil for null or unknown.
func knownStringPointer(v types.String) *string {
	if !kit.Known(v) {
		return nil
	}
	return v.ValueStringPointer()
}

// create sends POST /bots and returns the bot's id and the API key Zulip
// answered. After an uncertain failure, a bot of the address that this
// account owns and that has the configured name is adopted, without its key:
// it did not exist at plan (the plan refuses a taken address).
func (r *botResource) create(ctx context.Context, plan botModel) (int64, string, error) {
	req := zulip.CreateBotRequest{FullName: plan.FullName.ValueString(), ShortName: plan.ShortName.ValueString(),
		BotType: botTypes[plan.BotType.ValueString()], PayloadURL: knownStringPointer(plan.OutgoingWebhookURL),
		DefaultSendingStream: knownStringPointer(plan.DefaultSendingChannel), DefaultEventsRegisterStream: knownStringPointer(plan.DefaultEventsRegisterChannel)}
	if kit.Known(plan.DefaultAllPublicStreams) {
		req.DefaultAllPublicStreams = plan.DefaultAllPublicStreams.ValueBoolPointer()
	}
	if kit.Known(plan.OutgoingWebhookInterface) {
		n := botInterfaces[plan.OutgoingWebhookInterface.ValueString()]
		req.InterfaceType = &n
	}
	var created zulip.CreatedBot
	err := kit.WriteUsers(ctx, r.Data, func(ctx context.Context) (err error) {
		created, err = r.Data.Client.CreateBot(ctx, req)
		return err
	}, cacheRealmBots)
	if err == nil || kit.NothingDone(err) {
		return created.UserID, created.APIKey, err
	}
	lctx, cancel := kit.Settling(ctx)
	defer cancel()
	users, lerr := kit.Users(lctx, r.Data)
	if lerr != nil {
		return 0, "", err
	}
	for _, u := range users {
		local, _, _ := strings.Cut(u.Email, "@")
		if u.IsBot && u.IsActive && strings.EqualFold(local, req.ShortName+"-bot") && u.FullName == req.FullName &&
			u.BotOwnerID != nil && r.Data.Me != nil && *u.BotOwnerID == r.Data.Me.UserID {
			tflog.Warn(ctx, "the bot create failed but the bot exists; adopting it", map[string]any{"id": u.UserID, "error": err.Error()})
			return u.UserID, "", nil
		}
	}
	return 0, "", err
}

// update sends PATCH /bots/{id} with what differs from prior, and
// regenerates the key when key_rotation changed (plan keeps the new key when
// it opts in). It reports success.
func (r *botResource) update(ctx context.Context, id int64, plan *botModel, prior botModel, diags *diag.Diagnostics) bool {
	var req zulip.UpdateBotRequest
	changed := false
	setString := func(planned, before types.String, to **string) {
		if kit.Known(planned) && !planned.Equal(before) {
			*to, changed = planned.ValueStringPointer(), true
		}
	}
	setString(plan.FullName, prior.FullName, &req.FullName)
	setString(plan.ShortName, prior.ShortName, &req.ShortName)
	setString(plan.DefaultSendingChannel, prior.DefaultSendingChannel, &req.DefaultSendingStream)
	setString(plan.DefaultEventsRegisterChannel, prior.DefaultEventsRegisterChannel, &req.DefaultEventsRegisterStream)
	setString(plan.OutgoingWebhookURL, prior.OutgoingWebhookURL, &req.ServicePayloadURL)
	if kit.Known(plan.Role) && !plan.Role.Equal(prior.Role) {
		role, _ := zulip.RoleFromName(plan.Role.ValueString())
		req.Role, changed = &role, true
	}
	if kit.Known(plan.OwnerID) && !plan.OwnerID.Equal(prior.OwnerID) {
		req.BotOwnerID, changed = plan.OwnerID.ValueInt64Pointer(), true
	}
	if kit.Known(plan.DefaultAllPublicStreams) && !plan.DefaultAllPublicStreams.Equal(prior.DefaultAllPublicStreams) {
		req.DefaultAllPublicStreams, changed = plan.DefaultAllPublicStreams.ValueBoolPointer(), true
	}
	if kit.Known(plan.OutgoingWebhookInterface) && !plan.OutgoingWebhookInterface.Equal(prior.OutgoingWebhookInterface) {
		n := botInterfaces[plan.OutgoingWebhookInterface.ValueString()]
		req.ServiceInterface, changed = &n, true
	}
	if changed {
		err := kit.WriteUsers(ctx, r.Data, func(ctx context.Context) error { return r.Data.Client.UpdateBot(ctx, id, req) }, cacheRealmBots)
		if err != nil {
			kit.AddAPIError(diags, "Unable to Update Bot", "change the bot", kit.RoleAny, err)
			return false
		}
	}
	if !plan.KeyRotation.Equal(prior.KeyRotation) && !prior.ID.IsNull() {
		// The new key is kept only on request: zulip_bot_api_key reads it when needed.
		key, err := r.Data.Client.RegenerateBotAPIKey(ctx, id)
		if err != nil {
			kit.AddAPIError(diags, "Unable to Rotate the Bot's API Key", "regenerate the bot's API key", kit.RoleAny, err)
			return false
		}
		if plan.keepsKey() {
			plan.APIKey = types.StringValue(key)
		}
		tflog.Info(ctx, "regenerated the bot's API key", map[string]any{"id": id})
	}
	return true
}

// readInto fills the computed values from the server's users list and
// realm_bots; false when the bot is gone (deactivated or unknown).
func (r *botResource) readInto(ctx context.Context, m *botModel, diags *diag.Diagnostics) bool {
	users, err := kit.Users(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Bot", "list the users", kit.RoleAny, err)
		return false
	}
	u, ok := users[m.ID.ValueInt64()]
	if !ok || !u.IsBot || !u.IsActive {
		return false
	}
	b, err := realmBot(ctx, r.Data, u.UserID)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Bot", "read the bots' settings through POST /register", kit.RoleAny, err)
		return false
	}
	botFromAPI(u, b, m)
	return true
}

// botFromAPI copies the server's view of a bot into a model.
func botFromAPI(u zulip.User, b zulip.RealmBot, m *botModel) {
	m.ID = types.Int64Value(u.UserID)
	m.Email = types.StringValue(u.Email)
	m.FullName = types.StringValue(u.FullName)
	local, _, _ := strings.Cut(u.Email, "@")
	m.ShortName = types.StringValue(strings.TrimSuffix(local, "-bot"))
	m.BotType = types.StringValue("generic")
	if u.BotType != nil {
		for name, n := range botTypes {
			if n == *u.BotType {
				m.BotType = types.StringValue(name)
			}
		}
	}
	m.OwnerID = types.Int64PointerValue(u.BotOwnerID)
	role, _ := zulip.RoleName(u.Role)
	m.Role = types.StringValue(role)
	m.DefaultSendingChannel = types.StringPointerValue(b.DefaultSendingStream)
	m.DefaultEventsRegisterChannel = types.StringPointerValue(b.DefaultEventsRegisterStream)
	m.DefaultAllPublicStreams = types.BoolValue(b.DefaultAllPublicStreams)
	m.OutgoingWebhookURL, m.OutgoingWebhookInterface = types.StringNull(), types.StringNull()
	if len(b.Services) > 0 && m.BotType.ValueString() == "outgoing_webhook" {
		m.OutgoingWebhookURL = types.StringValue(b.Services[0].BaseURL)
		m.OutgoingWebhookInterface = types.StringValue("generic")
		for name, n := range botInterfaces {
			if n == b.Services[0].Interface {
				m.OutgoingWebhookInterface = types.StringValue(name)
			}
		}
	}
}

// realmBot is register's realm_bots entry of a bot (zero when it has none),
// from the run's one register snapshot and its index.
func realmBot(ctx context.Context, d *kit.ProviderData, userID int64) (zulip.RealmBot, error) {
	resp, err := kit.State(ctx, d, zulip.EventTypeRealmBot)
	if err != nil {
		return zulip.RealmBot{}, err
	}
	b, _ := resp.RealmBot(userID)
	return b, nil
}

// Read refreshes the bot; a deactivated bot is gone.
func (r *botResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	kit.Refresh(ctx, r.Data, req, resp, "the bot is deactivated or gone", func(ctx context.Context, m *botModel, diags *diag.Diagnostics) bool {
		if !r.readInto(ctx, m, diags) {
			return false
		}
		r.refreshKey(ctx, m, diags)
		return true
	})
}

// Update changes the bot in place.
func (r *botResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state, ok := kit.LoadUpdate[botModel](ctx, r.Data, req, &resp.Diagnostics)
	if !ok {
		return
	}
	plan.ID = state.ID
	if !r.update(ctx, state.ID.ValueInt64(), &plan, state, &resp.Diagnostics) {
		return
	}
	if !r.readInto(ctx, &plan, &resp.Diagnostics) {
		if !resp.Diagnostics.HasError() {
			resp.Diagnostics.AddError("Bot Disappeared", fmt.Sprintf("Bot %d was deactivated while it was being updated.", state.ID.ValueInt64()))
		}
		return
	}
	r.keepKey(ctx, state.ID.ValueInt64(), "", &plan, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete deactivates the bot; one deactivated already is not an error.
func (r *botResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m, ok := kit.Load[botModel](ctx, r.Data, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	err := kit.WriteUsers(ctx, r.Data, func(ctx context.Context) error { return r.Data.Client.DeactivateBot(ctx, m.ID.ValueInt64()) }, cacheRealmBots)
	if err == nil || zulip.IsNotFound(err) {
		return
	}
	// Not idempotent: a repeat of a deactivation that happened fails.
	if users, lerr := kit.Users(ctx, r.Data); lerr == nil {
		if u, ok := users[m.ID.ValueInt64()]; !ok || !u.IsActive {
			return
		}
	}
	kit.AddAPIError(&resp.Diagnostics, "Unable to Deactivate Bot", "deactivate the bot", kit.RoleAny, err)
}

// ImportState adopts a bot by e-mail address or id.
func (r *botResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !r.Data.Ready(&resp.Diagnostics) {
		return
	}
	users, err := kit.Users(ctx, r.Data)
	if err != nil {
		kit.AddAPIError(&resp.Diagnostics, "Unable to Import Bot", "list the users", kit.RoleAny, err)
		return
	}
	id := strings.TrimSpace(req.ID)
	for _, u := range users {
		if u.IsBot && (strconv.FormatInt(u.UserID, 10) == id || strings.EqualFold(u.Email, id)) {
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), u.UserID)...)
			return
		}
	}
	resp.Diagnostics.AddError("Bot Not Found", fmt.Sprintf("No bot has the address or id %q. A bot is imported by its "+
		"e-mail address (such as ci-bot@chat.example.com) or its user id, as the organization's settings list them under Bots.", id))
}
