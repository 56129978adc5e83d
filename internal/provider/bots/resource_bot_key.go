package bots

// zulip_bot's API key in state, for those who opt in (keep_api_key_in_state):
// an incoming webhook's key is part of the URL that Grafana, Sentry or a
// repository's webhook settings are given, and those providers take it as a
// plain argument. Zulip gives a bot's key in the answers of POST /bots and
// POST /bots/{id}/api_key/regenerate at every level, and on request (GET
// /bots/{id}/api_key) from feature level 463: below it, a key not kept from
// one of those answers cannot be learned without regenerating it.

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

// keepsKey reports whether m opts in to the key in state.
func (m botModel) keepsKey() bool { return m.KeepAPIKeyInState.ValueBool() }

// planAPIKey plans api_key: null unless kept; unknown where the apply learns
// it (a create, a rotation, a key not kept yet on a server that can read
// it); the state's otherwise. Below feature level 463 a key not kept yet
// can only be learned by rotating it, which the plan says.
func (r *botResource) planAPIKey(ctx context.Context, plan, state botModel, creating bool, resp *resource.ModifyPlanResponse) {
	var key types.String
	switch {
	case plan.KeepAPIKeyInState.IsUnknown():
		key = types.StringUnknown()
	case !plan.keepsKey():
		key = types.StringNull()
	case creating || !plan.KeyRotation.Equal(state.KeyRotation):
		key = types.StringUnknown() // the answer of POST /bots or of the regeneration
	case kit.Known(state.APIKey):
		key = state.APIKey
	case r.Data.RequireFeatureLevel(featureBotAPIKey, "") == nil:
		key = types.StringUnknown() // GET /bots/{id}/api_key at apply
	default:
		resp.Diagnostics.AddAttributeError(path.Root("keep_api_key_in_state"), "Bot's API Key Cannot Be Read",
			fmt.Sprintf("%s. Before it, Zulip gives a bot's key only when the bot is created or its key is regenerated: "+
				"change key_rotation in the same apply to have Zulip issue a new key, which the state then keeps (the old key "+
				"stops working, so give the new one to whatever uses it).",
				r.Data.RequireFeatureLevel(featureBotAPIKey, "Keeping the API key of an existing bot")))
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("api_key"), key)...)
}

// keepKey sets m's api_key after a create or an update: null unless kept;
// else answered, the key a create or regeneration answered ("" for none);
// else the key m already holds; else the server's (GET /bots/{id}/api_key,
// feature level 463). Below that level the key stays null, with a warning
// that says how to learn it. The key is never logged.
func (r *botResource) keepKey(ctx context.Context, id int64, answered string, m *botModel, diags *diag.Diagnostics) {
	switch {
	case !m.keepsKey():
		m.APIKey = types.StringNull()
	case answered != "":
		m.APIKey = types.StringValue(answered)
	case kit.Known(m.APIKey):
	case r.Data.RequireFeatureLevel(featureBotAPIKey, "") != nil:
		m.APIKey = types.StringNull()
		diags.AddAttributeWarning(path.Root("api_key"), "Bot's API Key Not Known",
			fmt.Sprintf("%s, and Zulip did not answer this bot's key (it was reactivated, or its creation's answer was "+
				"lost): api_key stays null until key_rotation changes, which makes Zulip issue a new key that the state keeps.",
				r.Data.RequireFeatureLevel(featureBotAPIKey, "Reading a bot's API key")))
	default:
		key, err := r.Data.Client.GetBotAPIKey(ctx, id)
		if err != nil {
			m.APIKey = types.StringNull()
			kit.AddAPIError(diags, "Unable to Read the Bot's API Key", fmt.Sprintf("read the API key of bot %d", id), kit.RoleAny, err)
			return
		}
		m.APIKey = types.StringValue(key)
	}
}

// refreshKey is the refresh's part of the key: keep_api_key_in_state is
// false where the state has none (an import, or a state written before the
// attribute existed); a kept key is read again where the server can say it
// (feature level 463), so a key regenerated in the web app reaches the
// state. A failed read keeps the state's key, with a warning.
func (r *botResource) refreshKey(ctx context.Context, m *botModel, diags *diag.Diagnostics) {
	if m.KeepAPIKeyInState.IsNull() {
		m.KeepAPIKeyInState = types.BoolValue(false)
	}
	if !m.keepsKey() {
		m.APIKey = types.StringNull()
		return
	}
	if r.Data.RequireFeatureLevel(featureBotAPIKey, "") != nil {
		return // the key the create or the last rotation answered
	}
	key, err := r.Data.Client.GetBotAPIKey(ctx, m.ID.ValueInt64())
	if err != nil {
		tflog.Warn(ctx, "could not read the bot's API key; the state keeps the one it has", map[string]any{"id": m.ID.ValueInt64(), "error": err.Error()})
		diags.AddAttributeWarning(path.Root("api_key"), "Bot's API Key Not Refreshed",
			fmt.Sprintf("Reading the API key of bot %d failed (%v): the state keeps the key it has.", m.ID.ValueInt64(), err))
		return
	}
	m.APIKey = types.StringValue(key)
}
