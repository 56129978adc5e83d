package zulip

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// Custom profile field types (CustomProfileField.Type).
const (
	ProfileFieldShortText       = 1
	ProfileFieldLongText        = 2
	ProfileFieldSelect          = 3
	ProfileFieldDate            = 4
	ProfileFieldURL             = 5
	ProfileFieldUser            = 6
	ProfileFieldExternalAccount = 7
	ProfileFieldPronouns        = 8
)

// CustomProfileField is an organization's custom profile field definition.
type CustomProfileField struct {
	ID    int64  `json:"id"`
	Type  int    `json:"type"`
	Order int    `json:"order"`
	Name  string `json:"name"`
	Hint  string `json:"hint"`
	// FieldData is JSON text (or ""): the options of a Select field, the subtype of an
	// External account field. See SelectOptions and ExternalAccount.
	FieldData string `json:"field_data"`
	Required  bool   `json:"required"`
	// EditableByUser is true when absent, which is the server default (FL296).
	EditableByUser          bool `json:"editable_by_user"`
	DisplayInProfileSummary bool `json:"display_in_profile_summary"`
	UseForUserMatching      bool `json:"use_for_user_matching"`
}

// UnmarshalJSON applies the defaults of keys that older servers omit.
func (f *CustomProfileField) UnmarshalJSON(data []byte) error {
	type plain CustomProfileField
	v := plain{EditableByUser: true}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*f = CustomProfileField(v)
	return nil
}

// SelectOption is one choice of a Select field; the map key in SelectOptions is what a user's
// profile value holds.
type SelectOption struct {
	Text  string
	Order string
}

// SelectOptions parses the choices of a Select field's FieldData
// ({"key": {"text": ..., "order": "1"}, ...}). The order is kept as text, as Zulip stores it.
func (f CustomProfileField) SelectOptions() (map[string]SelectOption, error) {
	if f.FieldData == "" {
		return map[string]SelectOption{}, nil
	}
	var raw map[string]struct {
		Text  string          `json:"text"`
		Order json.RawMessage `json:"order"`
	}
	if err := json.Unmarshal([]byte(f.FieldData), &raw); err != nil {
		return nil, fmt.Errorf("zulip: field_data of profile field %d is not a select option map: %w", f.ID, err)
	}
	out := make(map[string]SelectOption, len(raw))
	for key, o := range raw {
		order := string(bytes.TrimSpace(o.Order))
		var s string
		if json.Unmarshal(o.Order, &s) == nil {
			order = s
		}
		out[key] = SelectOption{Text: o.Text, Order: order}
	}
	return out, nil
}

// ExternalAccountData is the FieldData of an External account field.
type ExternalAccountData struct {
	Subtype    string `json:"subtype"`
	URLPattern string `json:"url_pattern,omitempty"`
}

// ExternalAccount parses the FieldData of an External account field.
func (f CustomProfileField) ExternalAccount() (ExternalAccountData, error) {
	var d ExternalAccountData
	if f.FieldData == "" {
		return d, nil
	}
	if err := json.Unmarshal([]byte(f.FieldData), &d); err != nil {
		return d, fmt.Errorf("zulip: field_data of profile field %d is not an external account definition: %w", f.ID, err)
	}
	return d, nil
}

// ProfileDataItem sets one custom profile field value, in UpdateOwnProfileData and
// UpdateUser.
type ProfileDataItem struct {
	ID    int64            `json:"id"`
	Value ProfileDataValue `json:"value"`
}

// ProfileDataValue is a profile value on input: a string for most types, a list of user ids
// for Users fields, or null (the zero value). Only UpdateUser (an administrator's
// PATCH /users/{id}) takes null, "" or [] as "remove the value"; UpdateOwnProfileData
// refuses null and stores "" and [] as empty values, so clear one's own values with
// RemoveOwnProfileData.
type ProfileDataValue struct {
	text    *string
	userIDs []int64
}

// ProfileText returns a string profile value (text, select key, date, URL, account, pronouns).
func ProfileText(s string) ProfileDataValue { return ProfileDataValue{text: &s} }

// ProfileUserIDs returns a Users-field profile value.
func ProfileUserIDs(ids ...int64) ProfileDataValue {
	if ids == nil {
		ids = []int64{}
	}
	return ProfileDataValue{userIDs: ids}
}

// IsNull reports whether the value is null.
func (v ProfileDataValue) IsNull() bool { return v.text == nil && v.userIDs == nil }

// MarshalJSON encodes the value as a JSON string, an int array or null.
func (v ProfileDataValue) MarshalJSON() ([]byte, error) {
	var text string
	var err error
	switch {
	case v.text != nil:
		text, err = marshalJSONParam(*v.text)
	case v.userIDs != nil:
		text, err = marshalJSONParam(v.userIDs)
	default:
		text = "null"
	}
	return []byte(text), err
}

// UnmarshalJSON accepts the same three forms.
func (v *ProfileDataValue) UnmarshalJSON(data []byte) error {
	*v = ProfileDataValue{}
	trimmed := bytes.TrimSpace(data)
	switch {
	case bytes.Equal(trimmed, []byte("null")):
		return nil
	case len(trimmed) > 0 && trimmed[0] == '[':
		ids := []int64{}
		if err := json.Unmarshal(trimmed, &ids); err != nil {
			return err
		}
		v.userIDs = ids
		return nil
	}
	var s string
	if err := json.Unmarshal(trimmed, &s); err != nil {
		return err
	}
	v.text = &s
	return nil
}

// ListCustomProfileFields returns the organization's custom profile fields, sorted by order
// (GET /realm/profile_fields). Idempotent.
func (c *Client) ListCustomProfileFields(ctx context.Context) ([]CustomProfileField, error) {
	var out struct {
		CustomFields []CustomProfileField `json:"custom_fields"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "realm/profile_fields", idempotent: true}, &out)
	return out.CustomFields, err
}

// UpdateOwnProfileData sets the caller's values of the given fields
// (PATCH /users/me/profile_data; human users only). Values are stored as given:
// the server refuses null, and keeps "" (where the field type allows it) and [] as
// empty values; RemoveOwnProfileData removes values. Idempotent.
func (c *Client) UpdateOwnProfileData(ctx context.Context, data []ProfileDataItem) error {
	if data == nil {
		data = []ProfileDataItem{}
	}
	p := newParams().json("data", data)
	return c.do(ctx, request{method: http.MethodPatch, path: "users/me/profile_data", params: p, idempotent: true}, nil)
}

// RemoveOwnProfileData clears the caller's values of the given field ids
// (DELETE /users/me/profile_data). Idempotent.
func (c *Client) RemoveOwnProfileData(ctx context.Context, fieldIDs []int64) error {
	if fieldIDs == nil {
		fieldIDs = []int64{}
	}
	p := newParams().json("data", fieldIDs)
	return c.do(ctx, request{method: http.MethodDelete, path: "users/me/profile_data", params: p, idempotent: true}, nil)
}

// profileFieldKey is the key of a field in User.ProfileData.
func profileFieldKey(id int64) string { return strconv.FormatInt(id, 10) }

// ProfileValueFor returns the user's value of a custom profile field, if set.
func (u *User) ProfileValueFor(fieldID int64) (ProfileValue, bool) {
	v, ok := u.ProfileData[profileFieldKey(fieldID)]
	return v, ok
}

// ProfileFieldRequest is the body of CreateCustomProfileField and UpdateCustomProfileField.
// Nil optional fields are not sent (an update leaves them unchanged).
type ProfileFieldRequest struct {
	Name *string
	Hint *string
	// FieldData is JSON text: a Select field's options ({"key": {"text": ..., "order":
	// "1"}}), an External account field's {"subtype": ..., "url_pattern": ...}.
	FieldData               *string
	DisplayInProfileSummary *bool // FL146
	Required                *bool // FL244
	EditableByUser          *bool // FL296
	UseForUserMatching      *bool // FL455
}

// params encodes the request as the views declare it.
func (r ProfileFieldRequest) params() *params {
	p := newParams().optStr("name", r.Name).optStr("hint", r.Hint).
		optJSONBool("display_in_profile_summary", r.DisplayInProfileSummary).optJSONBool("required", r.Required).
		optJSONBool("editable_by_user", r.EditableByUser).optJSONBool("use_for_user_matching", r.UseForUserMatching)
	if r.FieldData != nil {
		p.str("field_data", *r.FieldData)
	}
	return p
}

// CreateCustomProfileField adds a custom profile field of a type and returns its id (POST
// /realm/profile_fields; administrators). Not idempotent: a repeat answers "A field with
// that label already exists.", so it is retried only when the server certainly did not
// process it.
func (c *Client) CreateCustomProfileField(ctx context.Context, fieldType int, r ProfileFieldRequest) (int64, error) {
	p := r.params().json("field_type", fieldType)
	var out struct {
		ID int64 `json:"id"`
	}
	err := c.do(ctx, request{method: http.MethodPost, path: "realm/profile_fields", params: p, idempotent: false}, &out)
	return out.ID, err
}

// UpdateCustomProfileField changes a field (PATCH /realm/profile_fields/{id}; administrators;
// the type cannot change). Removing a Select option deletes the users' values that held it.
// Idempotent.
func (c *Client) UpdateCustomProfileField(ctx context.Context, id int64, r ProfileFieldRequest) error {
	return c.do(ctx, request{method: http.MethodPatch, path: "realm/profile_fields/" + strconv.FormatInt(id, 10), params: r.params(), idempotent: true}, nil)
}

// DeleteCustomProfileField deletes a field and every user's value of it (DELETE
// /realm/profile_fields/{id}; administrators). Idempotent in effect: a field that is gone
// answers an error IsNotFound recognizes.
func (c *Client) DeleteCustomProfileField(ctx context.Context, id int64) error {
	return c.do(ctx, request{method: http.MethodDelete, path: "realm/profile_fields/" + strconv.FormatInt(id, 10), idempotent: true}, nil)
}

// ReorderCustomProfileFields sets the order of the fields; ids must list every field (PATCH
// /realm/profile_fields; administrators). Idempotent.
func (c *Client) ReorderCustomProfileFields(ctx context.Context, ids []int64) error {
	p := newParams().jsonList("order", ids)
	return c.do(ctx, request{method: http.MethodPatch, path: "realm/profile_fields", params: p, idempotent: true}, nil)
}
