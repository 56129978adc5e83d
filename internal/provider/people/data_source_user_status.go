package people

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// featureUserStatus is the feature level of GET /users/{id}/status (digest §7.4).
const featureUserStatus = 262

// userStatusDataSourceModel is the zulip_user_status configuration and result.
type userStatusDataSourceModel struct {
	UserID       types.Int64  `tfsdk:"user_id"`
	StatusText   types.String `tfsdk:"status_text"`
	EmojiName    types.String `tfsdk:"emoji_name"`
	EmojiCode    types.String `tfsdk:"emoji_code"`
	ReactionType types.String `tfsdk:"reaction_type"`
	Away         types.Bool   `tfsdk:"away"`
}

// userStatusData reads one user's status.
var userStatusData = &kit.DataSource[userStatusDataSourceModel]{Name: "user_status", Level: featureUserStatus, Read: readUserStatus,
	Schema: schema.Schema{
		MarkdownDescription: "A user's status (text and emoji). A user who has set no status is not an error: the " +
			"text and emoji attributes are null and `away` is `false`. Every status of the organization comes with the " +
			"one `POST /register` a run reads, so that many blocks cost no more than one; a provider account that is a " +
			"guest (which may not see every user), or a user who is deactivated, a bot or not in the organization, is " +
			"read alone from `GET /users/{user_id}/status`, whose refusal says what is wrong. Needs Zulip feature " +
			"level 262 (Zulip 9.0).",
		Attributes: map[string]schema.Attribute{
			"user_id": schema.Int64Attribute{
				Required:            true,
				MarkdownDescription: "The id of the user whose status to read. Bots and deactivated users have none to read: they are errors.",
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"status_text": kit.ComputedString("The status text (at most 60 characters); null when the user has none."),
			"emoji_name":  kit.ComputedString("The name of the status emoji, e.g. `calendar`; null when the user has none."),
			"emoji_code": kit.ComputedString("The status emoji's code: a Unicode code point in hex such as `1f4c5` for Unicode emoji, " +
				"the custom emoji's id, or the name for Zulip's extra emoji; null when the user has none."),
			"reaction_type": kit.ComputedString("The kind of emoji: `unicode_emoji`, `realm_emoji` (custom) or `zulip_extra_emoji`; null when the user has none."),
			"away": kit.ComputedBool("Whether the user is shown as away. Deprecated by Zulip (feature level 148), which now " +
				"derives it from the user's presence setting; `false` when the server does not say so."),
		},
	},
}

// readUserStatus fills the model: from the organization's statuses, or from
// the user's own status when they cannot tell it.
func readUserStatus(ctx context.Context, d *kit.ProviderData, m *userStatusDataSourceModel, diags *diag.Diagnostics) {
	id := m.UserID.ValueInt64()
	if st, ok := listedStatus(ctx, d, id); ok {
		userStatusFromAPI(st, m)
		return
	}
	st, err := d.Client.GetUserStatus(ctx, id)
	switch {
	case zulip.IsNotFound(err):
		diags.AddAttributeError(path.Root("user_id"), "User Not Found",
			fmt.Sprintf("There is no user with id %d in the organization (bots count as none: they have no status). Server said: %s", id, err))
		return
	case err != nil && kit.IsClientError(err) && !zulip.IsUnauthorized(err) && !zulip.IsRateLimited(err):
		diags.AddAttributeError(path.Root("user_id"), "Unable to Read User Status",
			fmt.Sprintf("The server refused to give the status of user %d (a deactivated user has none). Server said: %s", id, err))
		return
	case err != nil:
		kit.AddAPIError(diags, "Unable to Read User Status", fmt.Sprintf("read the status of user %d", id), kit.RoleAny, err)
		return
	}
	userStatusFromAPI(*st, m)
	tflog.Debug(ctx, "read user status", map[string]any{"user_id": id, "has_status": !st.Empty})
}

// listedStatus is a user's status from the statuses of the whole
// organization, which the run's register snapshot holds (kit.State). They
// leave out a user with no status, so they tell only of an active human user
// of the run's user list, read by an account that sees every user (Zulip
// gives a guest only the users it may access). A failed read is left to the
// user's own status endpoint too.
func listedStatus(ctx context.Context, d *kit.ProviderData, id int64) (zulip.UserStatus, bool) {
	me, err := d.Caller(ctx)
	if err != nil || me.Role >= zulip.RoleGuest {
		return zulip.UserStatus{}, false
	}
	users, err := kit.Users(ctx, d)
	if u, ok := users[id]; err != nil || !ok || !u.IsActive || u.IsBot {
		return zulip.UserStatus{}, false
	}
	snap, err := kit.State(ctx, d, zulip.EventTypeUserStatus)
	if err != nil {
		return zulip.UserStatus{}, false
	}
	if st, ok := snap.UserStatus[strconv.FormatInt(id, 10)]; ok {
		return st, true
	}
	return zulip.UserStatus{Empty: true}, true
}

// userStatusFromAPI copies a status into the model; absent fields are null
// (Zulip leaves out every field that is empty), and away is false unless set.
func userStatusFromAPI(st zulip.UserStatus, m *userStatusDataSourceModel) {
	m.StatusText = kit.StringOrNull(&st.StatusText)
	m.EmojiName = kit.StringOrNull(&st.EmojiName)
	m.EmojiCode = kit.StringOrNull(&st.EmojiCode)
	m.ReactionType = kit.StringOrNull(&st.ReactionType)
	m.Away = types.BoolValue(st.Away != nil && *st.Away)
}
