package people

// The creation of a user: the address, an account to take over, the new
// account, and what a create sets after it.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// checkAddressTaken looks the planned address up in the organization's users
// (one list per run, shared with the refreshes). It returns the deactivated
// account the create will take over, and reports an active one, or a bot, as
// an error: the plan says so rather than the apply.
func (r *userResource) checkAddressTaken(ctx context.Context, plan userResourceModel, diags *diag.Diagnostics) *zulip.User {
	email := plan.Email.ValueString()
	users, err := kit.UsersSeen(ctx, r.Data)
	if err != nil {
		tflog.Warn(ctx, "could not list users; the server will check the address when the user is created", map[string]any{"error": err.Error()})
		return nil
	}
	u, ok := userByEmail(users, email)
	if !ok {
		return nil
	}
	at := path.Root("email")
	switch {
	case u.IsBot:
		diags.AddAttributeError(at, "E-mail Address Belongs to a Bot",
			fmt.Sprintf("The address %q belongs to the bot %s. Zulip addresses are unique, and zulip_user manages human "+
				"users: choose another address.", email, kit.UserDescribe(u)))
		return nil
	case r.Data.Journaled(ctx, "zulip_user", strconv.FormatInt(u.UserID, 10)):
		return &u // made by an interrupted apply: the create adopts it (kit/journal.go)
	case r.Data.HeldByState("zulip_user", strconv.FormatInt(u.UserID, 10)):
		// This configuration's own account, which a replacement deactivates and
		// the create takes over again: Zulip never deletes users.
		diags.AddAttributeWarning(at, "Replacing a User Reactivates the Same Account",
			fmt.Sprintf("Zulip cannot delete users, so replacing %s deactivates the account and then reactivates the same "+
				"account with this configuration (name, role when set, the profile fields named here); the configured "+
				"password is not used. To leave the account as it is, run `terraform untaint` on it (or drop -replace).",
				kit.UserDescribe(u)))
		return &u
	case u.IsActive:
		diags.AddAttributeError(at, "E-mail Address Already in Use",
			fmt.Sprintf("The address %q belongs to the active %s, so no new account can have it. To manage that account "+
				"with this resource, import it (replace <name> with this resource's name):\n\n%s\n\n"+
				"(or `terraform import <address of this resource> %s`).", email, kit.UserDescribe(u), userImportBlock(email), email))
		return nil
	}
	what := "reactivates it"
	if kit.Known(plan.Active) && !plan.Active.ValueBool() {
		what = "takes it over as it is, deactivated,"
	}
	diags.AddAttributeWarning(at, "Deactivated User Will Be Reactivated",
		fmt.Sprintf("No new account is created: the address %q belongs to the deactivated %s (Zulip never lets a new "+
			"account use the address of a deactivated one). This apply %s and makes it match this configuration: "+
			"name, role (when set) and the profile fields named here. The configured password is not used: the account "+
			"keeps its own.", email, kit.UserDescribe(u), what))
	return &u
}

// takeOver prepares the deactivated account the plan chose for a create: it
// checks that the account still has the address, and reactivates it unless the
// configuration wants it deactivated. It returns the account as it was.
func (r *userResource) takeOver(ctx context.Context, plan userResourceModel, diags *diag.Diagnostics) *zulip.User {
	id := plan.ID.ValueInt64()
	u, err := r.Data.Client.GetUser(ctx, id, zulip.GetUserOptions{})
	if err != nil {
		kit.AddAPIError(diags, "Unable to Read User", fmt.Sprintf("read user %d, which the plan reactivates", id), kit.RoleAny, err)
		return nil
	}
	email := plan.Email.ValueString()
	if u.DeliveryEmail != nil && *u.DeliveryEmail != "" && !strings.EqualFold(*u.DeliveryEmail, email) {
		diags.AddAttributeError(path.Root("email"), "User Changed Since the Plan",
			fmt.Sprintf("The plan reactivates user %d for the address %q, but the user's address is now %q. Plan again.",
				id, email, *u.DeliveryEmail))
		return nil
	}
	if plan.Active.ValueBool() && !u.IsActive && !r.setActive(ctx, id, true, plan.Role.ValueString(), diags) {
		return nil
	}
	tflog.Info(ctx, "took over the deactivated account holding the address", map[string]any{"id": id})
	return u
}

// createAccount is POST /users. It sets plan.ID and returns nil for a new
// account; when the address turns out to belong to a deactivated account (the
// plan could not look it up: its values were unknown then), that account is
// reactivated instead and returned.
func (r *userResource) createAccount(ctx context.Context, plan *userResourceModel, password types.String, diags *diag.Diagnostics) (existing *zulip.User, fresh bool) {
	if !kit.Known(password) {
		diags.AddAttributeError(path.Root("password"), "Missing Password",
			"Creating a user needs an initial password: Zulip's API requires one.")
		return nil, false
	}
	email := plan.Email.ValueString()
	var id int64
	err := kit.WriteUsers(ctx, r.Data, func(ctx context.Context) (err error) {
		id, err = r.Data.Client.CreateUser(ctx, zulip.CreateUserRequest{
			Email: email, Password: password.ValueString(), FullName: plan.FullName.ValueString(),
		})
		return err
	})
	if err == nil {
		tflog.Info(ctx, "created user", map[string]any{"id": id})
		plan.ID = types.Int64Value(id)
		return nil, true
	}
	if zulip.IsNotSent(err) { // nothing reached the server: nothing to look for
		addUserAPIError(diags, path.Empty(), "Unable to Create User", "create the user (the request was never sent, so "+
			"nothing was created; apply again)", kit.RoleAdministrator, err)
		return nil, false
	}
	lctx, cancel := kit.Settling(ctx)
	defer cancel()
	existing, lookupErr := r.Data.Client.GetUserByEmail(lctx, email, zulip.GetUserOptions{})
	switch {
	case lookupErr == nil && !kit.IsClientError(err) && existing.IsActive && existing.FullName == plan.FullName.ValueString():
		// A failure after the request was sent (a timeout, a 502) may still
		// have created the user: adopt it rather than leave an account that
		// the next apply would collide with. An account that does not look
		// just created (deactivated, another name) is not adopted.
		tflog.Warn(ctx, "user create failed but the user exists; adopting it", map[string]any{"id": existing.UserID, "error": err.Error()})
		plan.ID = types.Int64Value(existing.UserID)
		return nil, false
	case lookupErr == nil && isUserEmailInUse(err) && !existing.IsActive && !existing.IsBot:
		diags.AddAttributeWarning(path.Root("email"), "Deactivated User Reactivated",
			fmt.Sprintf("The address %q belongs to the deactivated %s (Zulip never lets a new account use it), which "+
				"the plan could not see. Instead of a new account, that one is reactivated and made to match this "+
				"configuration; the configured password is not used.", email, kit.UserDescribe(*existing)))
		plan.ID = types.Int64Value(existing.UserID)
		if plan.Active.ValueBool() && !r.setActive(ctx, existing.UserID, true, plan.Role.ValueString(), diags) {
			return nil, false
		}
		return existing, false
	case lookupErr == nil && isUserEmailInUse(err):
		diags.AddAttributeError(path.Root("email"), "E-mail Address Already in Use",
			fmt.Sprintf("The address %q belongs to the active %s, and Zulip never deletes users. To manage that "+
				"account, import it (replace <name> with this resource's name):\n\n%s\n\nServer said: %s",
				email, kit.UserDescribe(*existing), userImportBlock(email), err))
	default:
		addUserAPIError(diags, path.Empty(), "Unable to Create User", "create the user", kit.RoleAdministrator, err)
	}
	return nil, false
}

// FinishCreate sets, after POST /users or a takeover, what that endpoint
// cannot: the role, the name (of an account taken over), the profile data and
// deactivation. from is the account taken over, nil for a new one. It reports
// whether every step worked, and whether it changed anything.
func (r *userResource) finishCreate(ctx context.Context, plan userResourceModel, from *zulip.User, diags *diag.Diagnostics) (ok, wrote bool) {
	id := plan.ID.ValueInt64()
	current, active := zulip.RoleMember, true
	if from != nil {
		current, active = from.Role, from.IsActive || plan.Active.ValueBool()
	}
	if kit.Known(plan.Role) {
		role, _ := zulip.RoleFromName(plan.Role.ValueString()) // validated by the schema
		if role != current {
			currentName, _ := zulip.RoleName(current)
			if err := kit.WriteUsers(ctx, r.Data, func(ctx context.Context) error {
				return r.Data.Client.UpdateUser(ctx, id, zulip.UpdateUserRequest{Role: &role})
			}); err != nil {
				addUserAPIError(diags, path.Root("role"), "Unable to Set User Role", "set the user's role",
					userRoleNeeded(currentName, plan.Role.ValueString()), err)
				return false, true
			}
			wrote = true
		}
	}
	apiReq := userToAPI(ctx, plan, nil, nil, diags)
	if diags.HasError() {
		return false, wrote
	}
	if from != nil && from.FullName != plan.FullName.ValueString() {
		name := plan.FullName.ValueString()
		apiReq.FullName = &name
	}
	if apiReq.FullName != nil || apiReq.ProfileData != nil {
		if err := kit.WriteUsers(ctx, r.Data, func(ctx context.Context) error { return r.Data.Client.UpdateUser(ctx, id, apiReq) }); err != nil {
			addUserAPIError(diags, path.Root("profile_data"), "Unable to Set User Profile Data",
				"set the user's name and profile data", kit.RoleAdministrator, err)
			return false, true
		}
		wrote = true
	}
	if !plan.Active.ValueBool() && active {
		return r.setActive(ctx, id, false, plan.Role.ValueString(), diags), true
	}
	return true, wrote
}

// setActive deactivates or reactivates a user. Neither call is idempotent, so
// after a failure the user is read: if it is already as wanted (changed by
// someone else, or by a request whose answer was lost), that is success.
func (r *userResource) setActive(ctx context.Context, id int64, active bool, role string, diags *diag.Diagnostics) bool {
	action := "deactivate the user"
	if active {
		action = "reactivate the user"
	}
	err := kit.WriteUsers(ctx, r.Data, func(ctx context.Context) error {
		if active {
			return r.Data.Client.ReactivateUser(ctx, id)
		}
		return r.Data.Client.DeactivateUser(ctx, id, zulip.DeactivateUserRequest{})
	})
	if err == nil {
		tflog.Info(ctx, "changed user activation", map[string]any{"id": id, "active": active})
		return true
	}
	u, getErr := r.Data.Client.GetUser(ctx, id, zulip.GetUserOptions{})
	switch {
	case zulip.IsNotFound(getErr) && !active:
		return true // a user that is gone cannot log in either
	case getErr == nil && u.IsActive == active:
		tflog.Info(ctx, "user activation already as wanted", map[string]any{"id": id, "active": active, "error": err.Error()})
		return true
	case getErr == nil && u.IsBot:
		diags.AddAttributeError(path.Root("active"), "Cannot Change a Bot's Activation",
			fmt.Sprintf("User %d is a bot, which Zulip deactivates and reactivates through its bot settings, not the "+
				"user endpoints that zulip_user uses. Server said: %s", id, err))
		return false
	}
	needed := kit.RoleAdministrator
	if role == userRoleOwner {
		needed = kit.RoleOwner
	}
	summary := "Unable to Deactivate User"
	if active {
		summary = "Unable to Reactivate User"
	}
	addUserAPIError(diags, path.Root("active"), summary, action, needed, err)
	return false
}
