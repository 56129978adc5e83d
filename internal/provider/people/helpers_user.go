package people

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// userProfileValueModel is one element of zulip_user's profile_data map.
type userProfileValueModel struct {
	Value   types.String `tfsdk:"value"`
	UserIDs types.Set    `tfsdk:"user_ids"`
}

// userProfileValueAttrTypes is the object type of a profile_data element.
var userProfileValueAttrTypes = map[string]attr.Type{
	"value":    types.StringType,
	"user_ids": types.SetType{ElemType: types.Int64Type},
}

// userProfileValueType is the element type of profile_data.
var userProfileValueType = types.ObjectType{AttrTypes: userProfileValueAttrTypes}

// userProfileFields returns the organization's custom profile fields by id:
// the run's list of them (ProfileFieldCollection), which the writes of
// zulip_custom_profile_field forget, so that a field made or replaced in this
// apply is known to the plans and updates of the users that answer it.
func userProfileFields(ctx context.Context, d *kit.ProviderData) (map[int64]zulip.CustomProfileField, error) {
	list, err := kit.ProfileFieldCollection(d).List(ctx)
	if err != nil {
		return nil, err
	}
	return kit.ByID(list, func(f zulip.CustomProfileField) int64 { return f.ID }), nil
}

// userByEmail finds the user whose address is email (case-insensitively, as
// Zulip compares addresses): the real address where the provider's account may
// see it, else the Zulip API e-mail.
func userByEmail(users map[int64]zulip.User, email string) (zulip.User, bool) {
	ids := make([]int64, 0, len(users))
	for id := range users {
		ids = append(ids, id)
	}
	userSortInt64s(ids) // the same answer every run, should two ever match
	for _, id := range ids {
		u := users[id]
		if (u.DeliveryEmail != nil && strings.EqualFold(*u.DeliveryEmail, email)) || strings.EqualFold(u.Email, email) {
			return u, true
		}
	}
	return zulip.User{}, false
}

// userIsLastOwner reports whether u is the organization's only active human
// owner, whom Zulip refuses to deactivate or demote.
func userIsLastOwner(users map[int64]zulip.User, u zulip.User) bool {
	if !u.IsActive || u.IsBot || u.Role != zulip.RoleOwner {
		return false
	}
	for _, o := range users {
		if o.UserID != u.UserID && o.IsActive && !o.IsBot && o.Role == zulip.RoleOwner {
			return false
		}
	}
	return true
}

// userImportBlock is an import block to copy into the configuration. A
// provider is not told the address of the resource it plans, so the block
// names it <name>; Terraform prints the address next to the diagnostic.
func userImportBlock(email string) string {
	return fmt.Sprintf("import {\n  to = zulip_user.<name>\n  id = %q\n}", email)
}

// checkUserProfileUsers applies the server's rule for a Users field's value:
// every id names an active, non-bot user of the organization.
func checkUserProfileUsers(ctx context.Context, users map[int64]zulip.User, e userProfileValueModel, diags *diag.Diagnostics) error {
	if !kit.Known(e.UserIDs) {
		return nil
	}
	var ids []int64
	diags.Append(e.UserIDs.ElementsAs(ctx, &ids, true)...)
	return checkProfileUserIDs(users, ids)
}

// checkProfileUserIDs applies the server's rule for the user ids of a Users
// field: each names an active, non-bot user of the organization.
func checkProfileUserIDs(users map[int64]zulip.User, ids []int64) error {
	ids = slices.Clone(ids)
	userSortInt64s(ids)
	var unknownIDs []string
	for _, id := range ids {
		u, ok := users[id]
		switch {
		case !ok:
			unknownIDs = append(unknownIDs, strconv.FormatInt(id, 10))
		case u.IsBot:
			return fmt.Errorf("User with ID %d is a bot (%s): a Users field holds human users only", id, u.FullName)
		case !u.IsActive:
			return fmt.Errorf("User with ID %d is deactivated (%s)", id, u.FullName)
		}
	}
	if len(unknownIDs) > 0 {
		return fmt.Errorf("Invalid user IDs: %s (no such users in the organization)", strings.Join(unknownIDs, ", "))
	}
	return nil
}

// userRoleName converts a Zulip role value to the name used in configuration.
func userRoleName(role int, diags *diag.Diagnostics) types.String {
	name, ok := zulip.RoleName(role)
	if !ok {
		diags.AddError("Unknown User Role",
			fmt.Sprintf("The server reported role %d, which this provider does not know (known: %s).", role,
				strings.Join(zulip.RoleNames(), ", ")))
		return types.StringNull()
	}
	return types.StringValue(name)
}

// userProfileElements decodes the profile_data map; nil when it is null or unknown.
func userProfileElements(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]userProfileValueModel {
	if !kit.Known(m) {
		return nil
	}
	out := map[string]userProfileValueModel{}
	diags.Append(m.ElementsAs(ctx, &out, false)...)
	return out
}

// userProfileMap encodes profile_data elements as a map value.
func userProfileMap(ctx context.Context, elems map[string]userProfileValueModel, diags *diag.Diagnostics) types.Map {
	v, d := types.MapValueFrom(ctx, userProfileValueType, elems)
	diags.Append(d...)
	return v
}

// userProfileItem converts one configured element to the API's form; nil when
// it holds nothing known.
func userProfileItem(ctx context.Context, key string, e userProfileValueModel, diags *diag.Diagnostics) *zulip.ProfileDataItem {
	id, err := strconv.ParseInt(key, 10, 64)
	if err != nil {
		diags.AddAttributeError(path.Root("profile_data").AtMapKey(key), "Invalid Profile Field ID",
			fmt.Sprintf("profile_data is keyed by custom profile field id, a number; got %q.", key))
		return nil
	}
	switch {
	case kit.Known(e.UserIDs):
		var ids []int64
		diags.Append(e.UserIDs.ElementsAs(ctx, &ids, false)...)
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		return &zulip.ProfileDataItem{ID: id, Value: zulip.ProfileUserIDs(ids...)}
	case kit.Known(e.Value):
		return &zulip.ProfileDataItem{ID: id, Value: zulip.ProfileText(e.Value.ValueString())}
	}
	return nil
}

// userProfileValueFromAPI converts a server value to an element: a Users field's
// JSON list becomes user_ids, anything else value.
func userProfileValueFromAPI(ctx context.Context, raw string, asUsers bool, diags *diag.Diagnostics) userProfileValueModel {
	e := userProfileValueModel{Value: types.StringNull(), UserIDs: types.SetNull(types.Int64Type)}
	if asUsers {
		var ids []int64
		if err := json.Unmarshal([]byte(raw), &ids); err == nil {
			set, d := types.SetValueFrom(ctx, types.Int64Type, ids)
			diags.Append(d...)
			e.UserIDs = set
			return e
		}
	}
	e.Value = types.StringValue(raw)
	return e
}

// checkUserProfileValue applies the server's per-type rules (digest §6.1) to a
// configured profile value, so that a mistake is reported at plan time.
func checkUserProfileValue(f zulip.CustomProfileField, e userProfileValueModel) error {
	if f.Type == zulip.ProfileFieldUser {
		if !e.Value.IsNull() {
			return fmt.Errorf("%q (field %d) is a Users field: set its user ids with user_ids = [...], not value", f.Name, f.ID)
		}
		return nil
	}
	if !e.UserIDs.IsNull() {
		return fmt.Errorf("%q (field %d) is not a Users field: set it with value = \"...\", not user_ids", f.Name, f.ID)
	}
	if !kit.Known(e.Value) {
		return nil
	}
	v := e.Value.ValueString()
	limit := func(n int) error {
		if c := utf8.RuneCountInString(v); c > n {
			return fmt.Errorf("%s is too long (limit: %d characters, got %d)", f.Name, n, c)
		}
		return nil
	}
	switch f.Type {
	case zulip.ProfileFieldShortText, zulip.ProfileFieldExternalAccount, zulip.ProfileFieldPronouns:
		return limit(50)
	case zulip.ProfileFieldLongText:
		return limit(500)
	case zulip.ProfileFieldDate:
		if err := validators.CheckDate(v); err != nil {
			return fmt.Errorf("%s is not a date: %w", f.Name, err)
		}
	case zulip.ProfileFieldURL:
		return checkProfileURL(f, v)
	case zulip.ProfileFieldSelect:
		return checkProfileChoice(f, v)
	}
	return nil
}

// checkProfileURL checks the value v of a Link field: an absolute http(s) or
// ftp(s) URL.
func checkProfileURL(f zulip.CustomProfileField, v string) error {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ftp" && u.Scheme != "ftps") {
		return fmt.Errorf("%s is not a URL: %q is not an absolute http(s) or ftp(s) URL", f.Name, v)
	}
	return nil
}

// checkProfileChoice checks the value v of a Dropdown field: one of its
// option keys, which the error lists with their texts.
func checkProfileChoice(f zulip.CustomProfileField, v string) error {
	opts, ok := decodedSelectOptions(f)
	if !ok {
		return nil // the server's definition is odd; let the server judge
	}
	if _, ok := opts[v]; !ok {
		keys := make([]string, 0, len(opts))
		for k := range opts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		choices := make([]string, 0, len(keys))
		for _, k := range keys {
			choices = append(choices, fmt.Sprintf("%q (%s)", k, opts[k].Text))
		}
		return fmt.Errorf("'%s' is not a valid choice for '%s': a Dropdown value is an option key, one of %s",
			v, f.Name, strings.Join(choices, ", "))
	}
	return nil
}

// addUserAPIError reports a failed user API call, explaining the special
// permissions Zulip wants for creating users and changing e-mail addresses,
// which its own messages do not name.
func addUserAPIError(diags *diag.Diagnostics, at path.Path, summary, action string, role kit.RequiredRole, err error) {
	msg := strings.ToLower(zulip.ErrorMsg(err))
	var detail string
	switch {
	case action == "create the user" && (zulip.IsUnauthorizedPrincipal(err) || strings.Contains(msg, "not authorized")):
		detail = fmt.Sprintf("The provider could not %s: creating users through the API needs an organization "+
			"administrator who also holds the can_create_users special permission (granted by the server's "+
			"administrator with `manage.py change_user_role <email> can_create_users`, or by Zulip Cloud support). "+
			"Configure the provider with such an account. Server said: %s", action, err)
	case action == "change the user's e-mail address" && (zulip.IsUnauthorizedPrincipal(err) || strings.Contains(msg, "not authorized") ||
		strings.Contains(msg, "owner")):
		detail = fmt.Sprintf("The provider could not %s: Zulip lets only an organization administrator who holds the "+
			"can_change_user_emails special permission (granted with `manage.py change_user_role <email> "+
			"can_change_user_emails`) change another user's e-mail. Configure the provider with such an account, "+
			"or leave `email` unchanged. Server said: %s", action, err)
	default:
		var d diag.Diagnostics
		kit.AddAPIError(&d, summary, action, role, err)
		detail = d[0].Detail()
	}
	if at.Equal(path.Empty()) {
		diags.AddError(summary, detail)
		return
	}
	diags.AddAttributeError(at, summary, detail)
}

// isUserEmailInUse reports whether a create failed because the address is taken.
func isUserEmailInUse(err error) bool {
	apiErr, ok := zulip.AsAPIError(err)
	return ok && strings.Contains(strings.ToLower(apiErr.Msg), "already in use")
}

// errUserNoSuchEmail is returned by an import by e-mail when no user has it.
var errUserNoSuchEmail = errors.New("no user with this e-mail address is visible to the provider's account")

// userSortedKeys returns a map's keys in order, for stable requests.
func userSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// userSortInt64s sorts ids in increasing order.
func userSortInt64s(ids []int64) {
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
}

// userArticle returns "an" or "a" for a role name.
func userArticle(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}
