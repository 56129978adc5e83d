package people

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Kinds of invitation.
const (
	inviteKindEmail = "email"
	inviteKindLink  = "link"
)

type invitationsDataModel struct {
	Invitations []invitationEntry `tfsdk:"invitations"`
}

type invitationEntry struct {
	ID         types.Int64  `tfsdk:"id"`
	Kind       types.String `tfsdk:"kind"`
	IsMultiuse types.Bool   `tfsdk:"is_multiuse"`
	Email      types.String `tfsdk:"email"`
	InvitedAs  types.String `tfsdk:"invited_as"`
	InvitedBy  types.Int64  `tfsdk:"invited_by"`
	InvitedAt  types.String `tfsdk:"invited_at"`
	ExpiryDate types.String `tfsdk:"expiry_date"`
}

// invitationsData lists the pending invitations.
var invitationsData = &kit.DataSource[invitationsDataModel]{Name: "invitations", Read: readInvitations,
	Schema: schema.Schema{
		MarkdownDescription: "The pending invitations (`GET /invites`): e-mail invitations first, then reusable links, " +
			"each in the order made. An administrator's list holds every one, anyone else's only their own; revoked and " +
			"expired invitations are not listed, and neither are the links themselves (secrets: see `zulip_invite_link`) " +
			"nor the channels and groups, which Zulip does not return. Guests cannot read it.",
		Attributes: map[string]schema.Attribute{
			"invitations": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The invitations.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id": kit.ComputedInt64("The invitation's id; e-mail invitations and links are numbered apart, so " +
						"`kind` and `id` together name one."),
					"kind":        kit.ComputedString("`" + inviteKindEmail + "` for an e-mail invitation, `" + inviteKindLink + "` for a reusable link."),
					"is_multiuse": kit.ComputedBool("Whether it is a reusable link (Zulip's `is_multiuse`)."),
					"email":       kit.ComputedString("The invited address; null for a link."),
					"invited_as":  kit.ComputedString("The role the new user gets: " + kit.QuoteAllCode(zulip.RoleNames()) + "."),
					"invited_by":  kit.ComputedInt64("The user id of who made it."),
					"invited_at":  kit.ComputedString("When it was made (RFC 3339, UTC)."),
					"expiry_date": kit.ComputedString("When it expires (RFC 3339, UTC); null when it never does."),
				}}},
		},
	},
}

// readInvitations fills the model from the run's one list of invitations.
func readInvitations(ctx context.Context, d *kit.ProviderData, m *invitationsDataModel, diags *diag.Diagnostics) {
	all, err := inviteLinks(d).List(ctx)
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read Invitations", "list the pending invitations", kit.RoleAny, err)
		return
	}
	m.Invitations = make([]invitationEntry, 0, len(all))
	for _, v := range all {
		m.Invitations = append(m.Invitations, invitationFromAPI(v))
	}
}

// invitationFromAPI is one listed invitation, without the link.
func invitationFromAPI(v zulip.Invitation) invitationEntry {
	kind, email := inviteKindEmail, types.StringValue(v.Email)
	if v.IsMultiuse {
		kind, email = inviteKindLink, types.StringNull()
	}
	role, ok := zulip.RoleName(v.InvitedAs)
	if !ok {
		role = "unknown"
	}
	return invitationEntry{ID: types.Int64Value(v.ID), Kind: types.StringValue(kind), IsMultiuse: types.BoolValue(v.IsMultiuse),
		Email: email, InvitedAs: types.StringValue(role), InvitedBy: types.Int64Value(v.InvitedByUserID),
		InvitedAt: types.StringValue(time.Unix(v.Invited, 0).UTC().Format(time.RFC3339)), ExpiryDate: unixDate(v.ExpiryDate)}
}
