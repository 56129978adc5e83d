package people

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/validators"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Collection cache keys of zulip_profile_data. The provider's own account is
// read once per provider process; the account's values are invalidated by
// every write to them. (The field definitions are ProfileFieldCollection.)
const (
	cacheProfileDataOwnUser = "profile_data:own_user"
	cacheProfileDataValues  = "profile_data:values"
)

// profileDataImportedKey is the private state key under which an import keeps
// the ids of the fields it adopted, until the first update.
const profileDataImportedKey = "imported_field_ids"

// profileFieldTypeNames are the names of the custom profile field types, as
// Zulip's settings page shows them.
var profileFieldTypeNames = map[int]string{
	zulip.ProfileFieldShortText:       "Short text",
	zulip.ProfileFieldLongText:        "Paragraph",
	zulip.ProfileFieldSelect:          "Dropdown",
	zulip.ProfileFieldDate:            "Date",
	zulip.ProfileFieldURL:             "Link",
	zulip.ProfileFieldUser:            "Users",
	zulip.ProfileFieldExternalAccount: "External account",
	zulip.ProfileFieldPronouns:        "Pronouns",
}

// profileFieldTypeName names a field type for messages.
func profileFieldTypeName(t int) string {
	if n, ok := profileFieldTypeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("type %d", t)
}

// profileDataFields returns the organization's custom profile fields: the
// run's list of them (ProfileFieldCollection).
func profileDataFields(ctx context.Context, d *kit.ProviderData) ([]zulip.CustomProfileField, error) {
	return kit.ProfileFieldCollection(d).List(ctx)
}

// profileDataOwnUser returns the provider's own account: its id, role and
// whether it is a bot. Configure read it when it could; otherwise GET /users/me
// is read once per provider process.
func profileDataOwnUser(ctx context.Context, d *kit.ProviderData) (*zulip.User, error) {
	if d.Me != nil {
		return d.Me, nil
	}
	return kit.CachedAs(ctx, d.Cache, cacheProfileDataOwnUser, d.Client.GetOwnUser)
}

// profileDataValues returns the provider's own account with its custom profile
// field values. GET /users/me carries no profile_data, so this reads the
// account by its id with include_custom_profile_fields.
func profileDataValues(ctx context.Context, d *kit.ProviderData) (*zulip.User, error) {
	own, err := profileDataOwnUser(ctx, d)
	if err != nil {
		return nil, err
	}
	return kit.CachedAs(ctx, d.Cache, cacheProfileDataValues, func(ctx context.Context) (*zulip.User, error) {
		return d.Client.GetUser(ctx, own.UserID, zulip.GetUserOptions{IncludeCustomProfileFields: true})
	})
}

// decodedSelectOptions returns a Select field's options, and false when its
// field_data cannot be decoded. Callers then skip their plan-time check: the
// server's own definition is the authority, and its answer to the request
// will say what is wrong.
func decodedSelectOptions(f zulip.CustomProfileField) (map[string]zulip.SelectOption, bool) {
	options, err := f.SelectOptions()
	return options, err == nil
}

// profileFieldByID finds a field by id.
func profileFieldByID(fields []zulip.CustomProfileField, id int64) (zulip.CustomProfileField, bool) {
	for _, f := range fields {
		if f.ID == id {
			return f, true
		}
	}
	return zulip.CustomProfileField{}, false
}

// profileFieldByName finds a field by its exact name.
func profileFieldByName(fields []zulip.CustomProfileField, name string) (zulip.CustomProfileField, bool) {
	for _, f := range fields {
		if f.Name == name {
			return f, true
		}
	}
	return zulip.CustomProfileField{}, false
}

// profileFieldList describes the organization's fields for an error message.
func profileFieldList(fields []zulip.CustomProfileField) string {
	if len(fields) == 0 {
		return "The organization has no custom profile fields."
	}
	parts := make([]string, 0, len(fields))
	for _, f := range fields {
		parts = append(parts, fmt.Sprintf("%q (id %d, %s)", f.Name, f.ID, profileFieldTypeName(f.Type)))
	}
	return "The organization's fields are: " + strings.Join(parts, ", ") + "."
}

// profileTextLimit is the length limit of a text-like field type, in
// characters; 0 for types without one.
func profileTextLimit(t int) int {
	switch t {
	case zulip.ProfileFieldShortText, zulip.ProfileFieldExternalAccount, zulip.ProfileFieldPronouns:
		return 50
	case zulip.ProfileFieldLongText:
		return 500
	}
	return 0
}

// checkProfileText applies the server's per-type rule to a string value
// (every type but Users), as Zulip's validate_user_custom_profile_field does.
func checkProfileText(f zulip.CustomProfileField, value string) error {
	switch f.Type {
	case zulip.ProfileFieldShortText, zulip.ProfileFieldLongText, zulip.ProfileFieldExternalAccount, zulip.ProfileFieldPronouns:
		if limit, n := profileTextLimit(f.Type), utf8.RuneCountInString(value); n > limit {
			return fmt.Errorf("%q is a %s field, limited to %d characters; the value has %d", f.Name, profileFieldTypeName(f.Type), limit, n)
		}
	case zulip.ProfileFieldDate:
		if err := validators.CheckDate(value); err != nil {
			return fmt.Errorf("%q is a Date field: %w", f.Name, err)
		}
	case zulip.ProfileFieldURL:
		if err := validators.CheckLinkURL(value); err != nil {
			return err
		}
	case zulip.ProfileFieldSelect:
		options, ok := decodedSelectOptions(f)
		if !ok {
			return nil // the server decides; its answer will say what is wrong
		}
		if _, ok := options[value]; ok {
			return nil
		}
		keys := make([]string, 0, len(options))
		for k := range options {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			oi, oj := options[keys[i]].Order, options[keys[j]].Order
			if ni, err1 := strconv.Atoi(oi); err1 == nil {
				if nj, err2 := strconv.Atoi(oj); err2 == nil && ni != nj {
					return ni < nj
				}
			}
			if oi != oj {
				return oi < oj
			}
			return keys[i] < keys[j]
		})
		choices := make([]string, 0, len(keys))
		hint := ""
		for _, k := range keys {
			choices = append(choices, fmt.Sprintf("%q (%s)", k, options[k].Text))
			if options[k].Text == value {
				hint = fmt.Sprintf(" %q is the text of option %q: use the key.", value, k)
			}
		}
		return fmt.Errorf("%q is a Dropdown field whose value is the key of one of its options, and %q is not one. "+
			"The options are, by key (text): %s.%s", f.Name, value, strings.Join(choices, ", "), hint)
	}
	return nil
}

// profileUsersFromAPI parses a Users field's value, which the server sends as
// JSON list text such as "[5,11]".
func profileUsersFromAPI(f zulip.CustomProfileField, value string) ([]int64, error) {
	var ids []int64
	if err := json.Unmarshal([]byte(value), &ids); err != nil {
		return nil, fmt.Errorf("the server sent %q as the value of Users field %q, which is not a list of user ids: %w", value, f.Name, err)
	}
	return ids, nil
}
