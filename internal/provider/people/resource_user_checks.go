package people

// The plan-time checks of a user's changes that Zulip would refuse: the
// protected accounts, the address, the roles, the profile data.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// userProtection says why an account may not be deactivated or demoted without
// allow_self_or_last_owner_change: it is the provider's own account, or the
// organization's last active owner. It returns the account and the reasons,
// none when it is not protected. A failed read only skips the check (the
// server keeps its own rule for the last owner).
func (r *userResource) userProtection(ctx context.Context, id int64) (zulip.User, []string) {
	var reasons []string
	users, err := kit.UsersSeen(ctx, r.Data)
	if err != nil {
		tflog.Warn(ctx, "could not list users; the last-owner check is left to the server", map[string]any{"error": err.Error()})
	}
	u, found := users[id]
	if self, err := kit.OwnAccount(ctx, r.Data); err != nil {
		tflog.Warn(ctx, "could not read the provider's own account; it is not protected in this plan", map[string]any{"error": err.Error()})
	} else if self.UserID == id {
		reasons = append(reasons, "the provider's own account: the credentials this run uses would stop working")
		if !found {
			u = *self
		}
	}
	if found && userIsLastOwner(users, u) {
		// Only a fresh list may say so: an owner made by this run may be missing
		// from the copy seen before.
		if fresh, err := kit.Users(ctx, r.Data); err == nil {
			users = fresh
			if fu, ok := users[id]; ok {
				u = fu
			}
		}
		if userIsLastOwner(users, u) {
			reasons = append(reasons, "the organization's last active owner: an organization needs an owner, and "+
				"Zulip refuses to deactivate or demote the only one")
		}
	}
	return u, reasons
}

// checkDestroy refuses, at plan time, to destroy (deactivate) a protected
// account unless the state allows it.
func (r *userResource) checkDestroy(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var state userResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || state.AllowProtected.ValueBool() || (kit.Known(state.Active) && !state.Active.ValueBool()) {
		return // allowed, or already deactivated: destroying changes nothing
	}
	u, reasons := r.userProtection(ctx, state.ID.ValueInt64())
	if len(reasons) == 0 {
		return
	}
	resp.Diagnostics.AddError("Protected User Account",
		fmt.Sprintf("Destroying this zulip_user would deactivate %s, which is %s.\n\nTo stop managing the account "+
			"without deactivating it, remove it from the state instead: a `removed` block (Terraform 1.7 or newer) "+
			"with `lifecycle { destroy = false }`, or `terraform state rm`. To deactivate it anyway, set "+
			"`allow_self_or_last_owner_change = true` on the resource, apply, then destroy.",
			kit.UserDescribe(u), strings.Join(reasons, ", and ")))
}

// checkProtectedChange refuses, at plan time, to deactivate or demote a
// protected account unless the configuration allows it.
func (r *userResource) checkProtectedChange(ctx context.Context, plan, state userResourceModel, diags *diag.Diagnostics) {
	if !kit.Known(plan.AllowProtected) || plan.AllowProtected.ValueBool() {
		return
	}
	var change string
	at := path.Root("role")
	from, fromKnown := zulip.RoleFromName(state.Role.ValueString())
	to, toKnown := zulip.RoleFromName(plan.Role.ValueString())
	switch {
	case kit.Known(plan.Active) && !plan.Active.ValueBool() && state.Active.ValueBool():
		change, at = "deactivate", path.Root("active")
	case fromKnown && toKnown && to > from: // a larger role value is a lower role
		change = fmt.Sprintf("demote (from %q to %q)", state.Role.ValueString(), plan.Role.ValueString())
	default:
		return
	}
	u, reasons := r.userProtection(ctx, state.ID.ValueInt64())
	if len(reasons) == 0 {
		return
	}
	diags.AddAttributeError(at, "Protected User Account",
		fmt.Sprintf("This plan would %s %s, which is %s. If that is intended (for example because this run makes "+
			"another user an owner first), set `allow_self_or_last_owner_change = true` on this resource.",
			change, kit.UserDescribe(u), strings.Join(reasons, ", and ")))
}

// featureChangeUserEmail is the feature level at which PATCH /users/{id} takes
// new_email (digest §4.4).
const featureChangeUserEmail = 285

// checkEmailChange reports at plan time an address change the server will
// refuse: before feature level 285 Zulip has no way to change another user's
// address, and since then it needs an organization administrator
// (zerver/views/users.py update_user_backend reaches the target with
// access_user_by_id(for_admin=True)). The can_change_user_emails special
// permission that Zulip also requires is not visible through the API, so the
// server's answer reports its absence (addUserAPIError names it).
func (r *userResource) checkEmailChange(ctx context.Context, plan, state userResourceModel, diags *diag.Diagnostics) {
	if !kit.Known(plan.Email) || !kit.Known(state.Email) || strings.EqualFold(plan.Email.ValueString(), state.Email.ValueString()) {
		return
	}
	if err := r.Data.RequireFeatureLevel(featureChangeUserEmail, "changing a user's e-mail address"); err != nil {
		diags.AddAttributeError(path.Root("email"), "Zulip Server Too Old", err.Error()+
			". Change the address in Zulip's own settings (the user can change it in theirs), then update the configuration.")
		return
	}
	r.Data.RequireRole(ctx, kit.RoleAdministrator, "Changing a user's e-mail address", path.Root("email"), diags)
}

// checkAdminChange reports at plan time a change of a user's role or name
// that the provider's account cannot make: PATCH /users/{id} reaches the user
// with access_user_by_id(for_admin=True), so anyone below an administrator
// gets Zulip's bare "Insufficient permission" at apply. (A change to or from
// the owner role is checkOwnerRoleChange's.)
func (r *userResource) checkAdminChange(ctx context.Context, plan, state userResourceModel, diags *diag.Diagnostics) {
	if kit.Known(plan.Role) && kit.Known(state.Role) && !plan.Role.Equal(state.Role) &&
		plan.Role.ValueString() != userRoleOwner && state.Role.ValueString() != userRoleOwner {
		r.Data.RequireRole(ctx, kit.RoleAdministrator, fmt.Sprintf("Changing the role of %s from %q to %q",
			state.Email.ValueString(), state.Role.ValueString(), plan.Role.ValueString()), path.Root("role"), diags)
	}
	if kit.Known(plan.FullName) && kit.Known(state.FullName) && !plan.FullName.Equal(state.FullName) {
		r.Data.RequireRole(ctx, kit.RoleAdministrator, fmt.Sprintf("Changing the name of %s from %q to %q",
			state.Email.ValueString(), state.FullName.ValueString(), plan.FullName.ValueString()), path.Root("full_name"), diags)
	}
}

// checkOwnerRoleChange reports at plan time a change to or from the owner role
// that the provider's account cannot make (Zulip wants an owner for it).
func (r *userResource) checkOwnerRoleChange(ctx context.Context, plan userResourceModel, from string, diags *diag.Diagnostics) {
	if !kit.Known(plan.Role) {
		return
	}
	to := plan.Role.ValueString()
	if from == to || (from != userRoleOwner && to != userRoleOwner) {
		return
	}
	if self, err := kit.OwnAccount(ctx, r.Data); err == nil && kit.Known(plan.ID) && self.UserID == plan.ID.ValueInt64() && from == userRoleOwner {
		r.Data.NoteStepDown(fmt.Sprintf("%s, from %q to %q", self.Email, from, to), diags)
	} else {
		r.Data.NoteOwnerOnly(fmt.Sprintf("the role of %s from %q to %q", plan.Email.ValueString(), from, to), diags)
	}
	caller, err := kit.OwnAccount(ctx, r.Data)
	if err != nil {
		tflog.Warn(ctx, "could not read the provider's own account; the server will check the role change", map[string]any{"error": err.Error()})
		return
	}
	if caller.Role == zulip.RoleOwner {
		return
	}
	callerRole, _ := zulip.RoleName(caller.Role)
	diags.AddAttributeError(path.Root("role"), "Organization Owner Required",
		fmt.Sprintf("role: changing a user's role from %q to %q needs an organization owner's credentials, but the "+
			"provider acts as %s, who is %s %s. Configure the provider (or an aliased provider for this resource) "+
			"with an owner's API key.", from, to, caller.Email, userArticle(callerRole), callerRole))
}

// checkProfileData checks the planned profile values against the
// organization's field definitions.
func (r *userResource) checkProfileData(ctx context.Context, plan userResourceModel, diags *diag.Diagnostics) {
	elems := userProfileElements(ctx, plan.ProfileData, diags)
	if len(elems) == 0 {
		return
	}
	fields, err := userProfileFields(ctx, r.Data)
	if err != nil {
		tflog.Warn(ctx, "could not list custom profile fields; the server will check profile_data", map[string]any{"error": err.Error()})
		return
	}
	for key, e := range elems {
		at := path.Root("profile_data").AtMapKey(key)
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			continue // reported by the key validator
		}
		f, ok := fields[id]
		if !ok {
			diags.AddAttributeError(at, "Unknown Custom Profile Field",
				fmt.Sprintf("profile_data[%q]: the organization has no custom profile field with id %d. Its fields are: %s.",
					key, id, userFieldList(fields)))
			continue
		}
		if err := checkUserProfileValue(f, e); err != nil {
			diags.AddAttributeError(at, "Invalid Profile Value", fmt.Sprintf("profile_data[%q]: %s", key, err))
			continue
		}
		if f.Type != zulip.ProfileFieldUser || !kit.Known(e.UserIDs) {
			continue
		}
		// A bad id would fail only after the user is created (profile data is
		// a second request), leaving a tainted resource: check it now.
		verdict, err := kit.CheckUsersSeen(ctx, r.Data, func(users map[int64]zulip.User) error {
			return checkUserProfileUsers(ctx, users, e, diags)
		})
		if err != nil {
			tflog.Warn(ctx, "could not list users; the server will check user_ids", map[string]any{"error": err.Error()})
			continue
		}
		if verdict != nil {
			diags.AddAttributeError(at.AtName("user_ids"), "Invalid Profile Value", fmt.Sprintf("profile_data[%q].user_ids: %s", key, verdict))
		}
	}
}
