package people

// Between a user's Terraform model and Zulip's user.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// userToAPI builds the name and profile data part of an update. With prior
// state, only what changed is sent, and fields removed from profile_data are
// sent as null, which Zulip reads as "clear this value", when they still exist
// (exists): the answers of a deleted field, or of one replaced because its type
// changed, went with it, and Zulip refuses to clear a field it does not know.
func userToAPI(ctx context.Context, m userResourceModel, prior *userResourceModel, exists func(id int64) bool, diags *diag.Diagnostics) zulip.UpdateUserRequest {
	var req zulip.UpdateUserRequest
	if prior != nil && kit.Known(m.FullName) && !m.FullName.Equal(prior.FullName) {
		name := m.FullName.ValueString()
		req.FullName = &name
	}
	planned := userProfileElements(ctx, m.ProfileData, diags)
	var was map[string]userProfileValueModel
	if prior != nil {
		was = userProfileElements(ctx, prior.ProfileData, diags)
	}
	for _, key := range userSortedKeys(planned) {
		e := planned[key]
		if old, ok := was[key]; ok && old.Value.Equal(e.Value) && old.UserIDs.Equal(e.UserIDs) {
			continue
		}
		if item := userProfileItem(ctx, key, e, diags); item != nil {
			req.ProfileData = append(req.ProfileData, *item)
		}
	}
	for _, key := range userSortedKeys(was) {
		if _, ok := planned[key]; ok {
			continue
		}
		id, err := strconv.ParseInt(key, 10, 64)
		if err != nil || (exists != nil && !exists(id)) {
			continue
		}
		req.ProfileData = append(req.ProfileData, zulip.ProfileDataItem{ID: id}) // null value: clear
	}
	return req
}

// fieldExists reports whether a custom profile field exists, from the run's
// list of fields, which is read on the first question (only a value to clear
// asks). When the list cannot be read, every field counts as existing and the
// server decides.
func (r *userResource) fieldExists(ctx context.Context) func(id int64) bool {
	var fields map[int64]zulip.CustomProfileField
	read := false
	return func(id int64) bool {
		if !read {
			read = true
			var err error
			if fields, err = userProfileFields(ctx, r.Data); err != nil {
				tflog.Warn(ctx, "could not list custom profile fields; clearing the removed values anyway", map[string]any{"error": err.Error()})
			}
		}
		if fields == nil {
			return true
		}
		_, ok := fields[id]
		return ok
	}
}

// userFromAPI copies the server's view into the model. The configured e-mail
// is kept when the server's matches it but for case, and when the server hides
// it. Only the profile fields m already manages are read: the others are not
// this resource's (an import manages none).
func userFromAPI(ctx context.Context, u *zulip.User, m *userResourceModel, diags *diag.Diagnostics) {
	m.ID = types.Int64Value(u.UserID)
	m.FullName = types.StringValue(u.FullName)
	m.Role = userRoleName(u.Role, diags)
	m.Active = types.BoolValue(u.IsActive)
	switch {
	case u.DeliveryEmail != nil && *u.DeliveryEmail != "":
		if !kit.Known(m.Email) || !strings.EqualFold(m.Email.ValueString(), *u.DeliveryEmail) {
			m.Email = types.StringValue(*u.DeliveryEmail)
		}
	case m.Email.IsUnknown():
		m.Email = types.StringNull() // hidden from the provider's account
	}
	m.Password = types.StringNull() // write-only: never stored

	if !kit.Known(m.ProfileData) {
		m.ProfileData = types.MapNull(userProfileValueType)
		return
	}
	managed := userProfileElements(ctx, m.ProfileData, diags)
	elems := make(map[string]userProfileValueModel, len(managed))
	for key, e := range managed {
		v, ok := u.ProfileData[key]
		if !ok {
			continue // cleared outside Terraform: the plan sets it again
		}
		elems[key] = userProfileValueFromAPI(ctx, v.Value, !e.UserIDs.IsNull(), diags)
	}
	m.ProfileData = userProfileMap(ctx, elems, diags)
}

// userPartial is the state saved right after POST /users: the id and the
// configuration, with the values only the server knows left null.
func userPartial(plan userResourceModel) *userResourceModel {
	p := plan
	p.Password = types.StringNull()
	if p.Role.IsUnknown() {
		p.Role = types.StringNull()
	}
	if p.Active.IsUnknown() {
		p.Active = types.BoolNull()
	}
	if p.ProfileData.IsUnknown() {
		p.ProfileData = types.MapNull(userProfileValueType)
	}
	return &p
}

// userRoleNeeded names the role the provider needs to change a role from one
// to another.
func userRoleNeeded(from, to string) kit.RequiredRole {
	if from == userRoleOwner || to == userRoleOwner {
		return kit.RoleOwner
	}
	return kit.RoleAdministrator
}

// userFieldList describes the custom profile fields for an error message.
func userFieldList(fields map[int64]zulip.CustomProfileField) string {
	ids := make([]int64, 0, len(fields))
	for id := range fields {
		ids = append(ids, id)
	}
	userSortInt64s(ids)
	parts := make([]string, 0, len(ids))
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("%d (%s)", id, fields[id].Name))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
