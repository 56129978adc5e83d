package people

// People: what the area declares.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Area declares the area's types (kit.Area).
func Area() kit.Area {
	return kit.Area{
		Resources: []kit.TypeEntry{
			{TypeName: "zulip_user", Contract: kit.ManagedObject, NewResource: NewUserResource, Identity: &kit.UserIdentity, Natural: &kit.KeyRule{Attrs: []string{"email"}, Fold: true}, Journaled: true,
				Adopt: &kit.ImportSource{Stage: kit.StageAccounts, List: humansToImport, ListDescription: "The organization's human users, by their real address where the provider's account may see it.",
					Filters: map[string]kit.ListFilter{
						filterRole: {Attr: listschema.StringAttribute{Optional: true,
							MarkdownDescription: "Lists only the users of this role: one of " + kit.QuoteAllCode(zulip.RoleNames()) + ".",
							Validators:          []validator.String{stringvalidator.OneOf(zulip.RoleNames()...)}}},
						filterIncludeDeactivated: {Attr: listschema.BoolAttribute{Optional: true,
							MarkdownDescription: "Lists deactivated users too (they import with `active = false`). Default `false`."}},
					}}},
			{TypeName: "zulip_profile_data", Contract: kit.ManagedObject, NewResource: NewProfileDataResource},
			{TypeName: "zulip_invite_link", Contract: kit.ManagedObject, NewResource: NewInviteLinkResource, AttrLevels: inviteAttrLevels,
				Destroy: &kit.Note{Title: "Invitation Link Will Be Revoked", Detail: "Destroying a zulip_invite_link revokes the link: " +
					"nobody can join with it any more. Zulip keeps no trace of it in the pending invitations."}},
		},
		DataSources:        []func() datasource.DataSource{userData.New, userStatusData.New, invitationsData.New},
		EphemeralResources: []func() ephemeral.EphemeralResource{devAPIKey.New},
		Actions:            []func() action.Action{NewSendInvitationsAction},
		State:              []string{zulip.EventTypeUserStatus},
	}
}

// Filters of the user list.
const (
	filterRole               = "role"
	filterIncludeDeactivated = "include_deactivated"
)

// humansToImport lists the organization's human users (the active ones, or
// all with include_deactivated; those of one role with role).
func humansToImport(ctx context.Context, d *kit.ProviderData, f kit.FilterValues) ([]kit.ImportTarget, error) {
	role := -1
	if name := f.Str(filterRole); name != "" {
		role, _ = zulip.RoleFromName(name) // validated by the schema
	}
	withDeactivated := f.Flag(filterIncludeDeactivated)
	return kit.UsersToImport(ctx, d, func(u zulip.User) bool {
		return !u.IsBot && (u.IsActive || withDeactivated) && (role < 0 || u.Role == role)
	})
}
