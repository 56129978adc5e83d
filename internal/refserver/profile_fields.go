package refserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

func init() {
	registerArea("profile_fields", area{seed: seedProfileFields, seedStep: 50, routes: (*Server).routesProfileFields, sections: map[string]registerSection{"custom_profile_fields": (*Server).registerProfileFields}})
}

// Feature levels of custom profile field features (digest §6, §10).
const (
	profileSummaryFL       = 146 // display_in_profile_summary
	profilePronounsFL      = 151 // the PRONOUNS type
	profileRequiredFL      = 244 // required
	profileEditableFL      = 296 // editable_by_user
	profileUserMatchingFL  = 455 // use_for_user_matching
	profileLongSummaryFL   = 476 // LONG_TEXT allowed in the profile summary
	profileMaxSummary      = 2   // CustomProfileField.MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS
	profileNameMaxLength   = 40
	profileHintMaxLength   = 80
	msgProfileNotEditable  = "You are not allowed to change this field. Contact an administrator to update it."
	msgProfileUserMatching = "Field type not supported for user matching." // this server's wording
)

// profileExternalAccounts are Zulip's built-in external account subtypes
// (zerver/lib/external_accounts.py): the name and hint a field of that subtype gets.
var profileExternalAccounts = map[string][2]string{
	"behance": {"Behance username", ""}, "bitbucket": {"Bitbucket username", ""},
	"bluesky": {"Bluesky handle", ""}, "codeberg": {"Codeberg username", ""},
	"discord": {"Discord tag", ""}, "dribbble": {"Dribbble username", ""},
	"facebook": {"Facebook username", ""}, "github": {"GitHub username", ""},
	"gitlab": {"GitLab username", ""}, "instagram": {"Instagram username", ""},
	"linkedin": {"LinkedIn profile name", ""}, "mastodon": {"Mastodon profile", "The full URL to your profile"},
	"medium": {"Medium username", ""}, "pinterest": {"Pinterest username", ""},
	"reddit": {"Reddit username", ""}, "snapchat": {"Snapchat username", ""},
	"threads": {"Threads username", ""}, "tiktok": {"TikTok username", ""},
	"twitch": {"Twitch username", ""}, "x": {"X username", ""}, "youtube": {"YouTube handle", ""},
}

// routesProfileFields registers the custom profile field and profile data endpoints.
func (s *Server) routesProfileFields() {
	s.handle("GET /realm/profile_fields", authUser, s.listProfileFields)
	s.handle("POST /realm/profile_fields", authUser, withEvents(s.createProfileField, s.emitProfileFields))
	s.handle("PATCH /realm/profile_fields", authUser, withEvents(s.reorderProfileFields, s.emitProfileFields))
	s.handle("PATCH /realm/profile_fields/{field_id}", authUser, withEvents(s.updateProfileField, s.emitProfileFields))
	s.handle("DELETE /realm/profile_fields/{field_id}", authUser, withEvents(s.deleteProfileField, s.emitProfileFields))
	s.handle("PATCH /users/me/profile_data", authUser, s.withUserEvents(s.updateOwnProfileData))
	s.handle("DELETE /users/me/profile_data", authUser, s.withUserEvents(s.removeOwnProfileData))
}

// profileFieldsWire renders the custom profile fields, sorted by order
// (CustomProfileField.as_dict; the optional flags only when true).
func (s *Server) profileFieldsWire() []obj {
	fl := s.opts.FeatureLevel
	fields := append([]*ProfileField{}, s.realm.ProfileFields...)
	sort.SliceStable(fields, func(i, j int) bool {
		if fields[i].Order != fields[j].Order {
			return fields[i].Order < fields[j].Order
		}
		return fields[i].ID < fields[j].ID
	})
	out := make([]obj, 0, len(fields))
	for _, f := range fields {
		o := obj{"id": f.ID, "name": f.Name, "type": f.Type, "hint": f.Hint, "field_data": f.FieldData, "order": f.Order}
		if fl >= profileRequiredFL {
			o["required"] = f.Required
		}
		if fl >= profileEditableFL {
			o["editable_by_user"] = f.EditableByUser
		}
		if f.DisplayInProfileSummary && fl >= profileSummaryFL {
			o["display_in_profile_summary"] = true
		}
		if f.UseForUserMatching && fl >= profileUserMatchingFL {
			o["use_for_user_matching"] = true
		}
		out = append(out, o)
	}
	return out
}

// listProfileFields serves GET /realm/profile_fields (any user).
func (s *Server) listProfileFields(c *call) (obj, error) {
	return obj{"custom_fields": s.profileFieldsWire()}, nil
}

// profileFieldParams are the optional parameters of create and update.
type profileFieldParams struct {
	name, hint               *string
	fieldData                map[string]any
	fieldDataJSON            string // compact JSON text, key order as sent
	summary, required        *bool
	editable, useForMatching *bool
}

// readProfileFieldParams reads the field parameters a server of the advertised
// feature level knows (newer ones stay unread, so they are reported as ignored).
func (s *Server) readProfileFieldParams(c *call) (*profileFieldParams, error) {
	p := &profileFieldParams{}
	fl := s.opts.FeatureLevel
	boolParam := func(name string, minFL int, dst **bool) error {
		if fl < minFL {
			return nil
		}
		var b bool
		ok, err := c.optJSON(name, &b)
		if err == nil && ok {
			*dst = &b
		}
		return err
	}
	if err := boolParam("display_in_profile_summary", profileSummaryFL, &p.summary); err != nil {
		return nil, err
	}
	if err := boolParam("editable_by_user", profileEditableFL, &p.editable); err != nil {
		return nil, err
	}
	if raw, ok := c.raw("field_data"); ok {
		data, text, err := profileParseFieldData(raw)
		if err != nil {
			return nil, err
		}
		p.fieldData, p.fieldDataJSON = data, text
	}
	if v, ok := c.optString("hint"); ok {
		p.hint = &v
	}
	if v, ok := c.optString("name"); ok {
		v = strings.TrimSpace(v)
		p.name = &v
	}
	if err := boolParam("required", profileRequiredFL, &p.required); err != nil {
		return nil, err
	}
	if err := boolParam("use_for_user_matching", profileUserMatchingFL, &p.useForMatching); err != nil {
		return nil, err
	}
	return p, nil
}

// profileParseFieldData decodes field_data: a JSON object whose values are
// strings or objects of strings (ProfileFieldData).
func profileParseFieldData(raw string) (map[string]any, string, error) {
	if !json.Valid([]byte(raw)) {
		return nil, "", errInvalidJSON("field_data")
	}
	var data map[string]any
	if json.Unmarshal([]byte(raw), &data) != nil || data == nil {
		return nil, "", errBadRequest("field_data is not a dict")
	}
	for k, v := range data {
		switch v := v.(type) {
		case string:
		case map[string]any:
			for k2, v2 := range v {
				if _, ok := v2.(string); !ok {
					return nil, "", errBadRequest("field_data[%q][%q] is not a string", k, k2)
				}
			}
		default:
			return nil, "", errBadRequest("field_data[%q] is not a dict", k)
		}
	}
	var b bytes.Buffer
	_ = json.Compact(&b, []byte(raw))
	return data, b.String(), nil
}

// createProfileField serves POST /realm/profile_fields (administrators).
func (s *Server) createProfileField(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	p, err := s.readProfileFieldParams(c)
	if err != nil {
		return nil, err
	}
	fieldType, err := c.reqInt("field_type")
	if err != nil {
		return nil, err
	}
	r := c.realm()
	name, hint := "", ""
	if p.name != nil {
		name = *p.name
	}
	if p.hint != nil {
		hint = *p.hint
	}
	data := p.fieldData
	if data == nil {
		data = map[string]any{}
	}
	summary := p.summary != nil && *p.summary
	if summary && profileSummaryCount(r, 0) >= profileMaxSummary {
		return nil, errBadRequest("Only 2 custom profile fields can be displayed in the profile summary.")
	}
	if err := s.validateProfileField(name, hint, fieldType, data, summary); err != nil {
		return nil, err
	}
	matching := p.useForMatching != nil && *p.useForMatching
	if err := profileCheckMatching(fieldType, matching); err != nil {
		return nil, err
	}
	f := &ProfileField{Type: fieldType, Name: name, Hint: hint, DisplayInProfileSummary: summary,
		Required: p.required != nil && *p.required, EditableByUser: p.editable == nil || *p.editable,
		UseForUserMatching: matching}
	if sub, ok := profileDefaultSubtype(fieldType, data); ok {
		f.Name, f.Hint = profileExternalAccounts[sub][0], profileExternalAccounts[sub][1]
		b, _ := json.Marshal(map[string]string{"subtype": sub})
		f.FieldData = string(b)
	} else if fieldType == FieldSelect || fieldType == FieldExternalAccount {
		f.FieldData = "{}"
		if p.fieldData != nil {
			f.FieldData = p.fieldDataJSON
		}
	}
	if profileNameTaken(r, f.Name, 0) {
		return nil, errBadRequest("A field with that label already exists.")
	}
	f.ID = r.newID("profile_field")
	f.Order = f.ID
	r.ProfileFields = append(r.ProfileFields, f)
	profileSortFields(r)
	return obj{"id": f.ID}, nil
}

// profileFieldValues are the values of a field a PATCH checks and writes:
// each as sent, or as the field has it.
type profileFieldValues struct {
	name, hint        string
	data              map[string]any
	summary, matching bool
}

// updateProfileField serves PATCH /realm/profile_fields/{field_id} (administrators).
func (s *Server) updateProfileField(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	id, err := c.pathInt("field_id")
	if err != nil {
		return nil, err
	}
	p, err := s.readProfileFieldParams(c)
	if err != nil {
		return nil, err
	}
	r := c.realm()
	f := r.profileFieldByID(id)
	if f == nil {
		return nil, profileFieldNotFound(id)
	}
	if p.summary != nil && *p.summary && profileSummaryCount(r, f.ID) >= profileMaxSummary {
		return nil, errBadRequest("Only 2 custom profile fields can be displayed in the profile summary.")
	}
	v, err := proposedProfileField(f, p)
	if err != nil {
		return nil, err
	}
	if err := s.validateProfileField(v.name, v.hint, f.Type, v.data, v.summary); err != nil {
		return nil, err
	}
	if err := profileCheckMatching(f.Type, v.matching); err != nil {
		return nil, err
	}
	if p.name != nil && profileNameTaken(r, v.name, f.ID) {
		return nil, errBadRequest("A field with that label already exists.")
	}
	r.writeProfileField(f, p, v)
	return nil, nil
}

// proposedProfileField returns a field's values after the request, refusing
// a change of a default field (a built-in external account) other than its
// display in the profile summary.
func proposedProfileField(f *ProfileField, p *profileFieldParams) (*profileFieldValues, error) {
	existing := map[string]any{}
	if f.FieldData != "" {
		_ = json.Unmarshal([]byte(f.FieldData), &existing)
	}
	if _, isDefault := profileDefaultSubtype(f.Type, existing); isDefault {
		onlySummary := (p.name == nil || *p.name == f.Name) && (p.hint == nil || *p.hint == f.Hint) &&
			(p.fieldData == nil || reflect.DeepEqual(p.fieldData, existing))
		if !onlySummary {
			return nil, errBadRequest("Default custom field cannot be updated.")
		}
	}
	v := &profileFieldValues{name: f.Name, hint: f.Hint, data: existing, summary: f.DisplayInProfileSummary, matching: f.UseForUserMatching}
	if p.name != nil {
		v.name = *p.name
	}
	if p.hint != nil {
		v.hint = *p.hint
	}
	if p.fieldData != nil {
		v.data = p.fieldData
	}
	if p.summary != nil {
		v.summary = *p.summary
	}
	if p.useForMatching != nil {
		v.matching = *p.useForMatching
	}
	return v, nil
}

// writeProfileField writes a checked PATCH of a field. A select field's new
// choices delete the users' values that are no longer a choice, as in
// Zulip; a select or external account field keeps field data ("{}" at
// least).
func (r *Realm) writeProfileField(f *ProfileField, p *profileFieldParams, v *profileFieldValues) {
	f.Name, f.Hint, f.DisplayInProfileSummary, f.UseForUserMatching = v.name, v.hint, v.summary, v.matching
	if p.required != nil {
		f.Required = *p.required
	}
	if p.editable != nil {
		f.EditableByUser = *p.editable
	}
	if f.Type != FieldSelect && f.Type != FieldExternalAccount {
		return
	}
	if p.fieldData != nil && f.Type == FieldSelect {
		for _, u := range r.Users {
			if v, ok := u.ProfileData[f.ID]; ok && p.fieldData[v] == nil {
				delete(u.ProfileData, f.ID)
			}
		}
	}
	if p.fieldData != nil {
		f.FieldData = p.fieldDataJSON
	} else if f.FieldData == "" {
		f.FieldData = "{}"
	}
}

// deleteProfileField serves DELETE /realm/profile_fields/{field_id}; the users'
// values of the field go with it.
func (s *Server) deleteProfileField(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	id, err := c.pathInt("field_id")
	if err != nil {
		return nil, err
	}
	r := c.realm()
	for i, f := range r.ProfileFields {
		if f.ID == id {
			r.ProfileFields = append(r.ProfileFields[:i:i], r.ProfileFields[i+1:]...)
			for _, u := range r.Users {
				delete(u.ProfileData, id)
			}
			return nil, nil
		}
	}
	return nil, profileFieldNotFound(id)
}

// reorderProfileFields serves PATCH /realm/profile_fields: order must name every
// field; each field's order becomes its index in the list (unknown ids are
// ignored and, for a repeated id, the last position wins, as in Zulip).
func (s *Server) reorderProfileFields(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	var order []int
	if err := c.reqJSON("order", &order); err != nil {
		return nil, err
	}
	pos := map[int]int{}
	for i, id := range order {
		pos[id] = i
	}
	r := c.realm()
	for _, f := range r.ProfileFields {
		if _, ok := pos[f.ID]; !ok {
			return nil, errBadRequest("Invalid order mapping.")
		}
	}
	for _, f := range r.ProfileFields {
		f.Order = pos[f.ID]
	}
	profileSortFields(r)
	return nil, nil
}

// validateProfileField is Zulip's validate_custom_profile_field: field data,
// then name and hint (except for built-in external accounts), the type, and
// whether the type may be shown in the profile summary.
func (s *Server) validateProfileField(name, hint string, fieldType int, data map[string]any, summary bool) error {
	switch fieldType {
	case FieldSelect:
		if err := profileValidateChoices(data); err != nil {
			return err
		}
	case FieldExternalAccount:
		if err := profileValidateExternal(data); err != nil {
			return err
		}
	}
	if _, isDefault := profileDefaultSubtype(fieldType, data); !isDefault {
		if strings.TrimSpace(name) == "" {
			return errBadRequest("Label cannot be blank.")
		}
		if utf8.RuneCountInString(hint) > profileHintMaxLength {
			return errBadRequest("hint is too long (limit: %d characters)", profileHintMaxLength)
		}
		if utf8.RuneCountInString(name) > profileNameMaxLength {
			return errBadRequest("name is too long (limit: %d characters)", profileNameMaxLength)
		}
	}
	if fieldType < FieldShortText || fieldType > FieldPronouns ||
		(fieldType == FieldPronouns && s.opts.FeatureLevel < profilePronounsFL) {
		return errBadRequest("Invalid field type.")
	}
	if summary && (fieldType == FieldUser || (fieldType == FieldLongText && s.opts.FeatureLevel < profileLongSummaryFL)) {
		return errBadRequest("Field type not supported for display in profile summary.")
	}
	return nil
}

// profileCheckMatching allows use_for_user_matching only on short text and
// external account fields (FL455).
func profileCheckMatching(fieldType int, matching bool) error {
	if matching && fieldType != FieldShortText && fieldType != FieldExternalAccount {
		return errBadRequest(msgProfileUserMatching)
	}
	return nil
}

// profileValidateChoices is validate_select_field_data: at least one choice,
// non-blank keys, each choice exactly {text, order} with non-blank strings, and
// distinct texts.
func profileValidateChoices(data map[string]any) error {
	if len(data) < 1 {
		return errBadRequest("Field must have at least one choice.")
	}
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	texts := map[string]bool{}
	for _, k := range keys {
		if strings.TrimSpace(k) == "" {
			return errBadRequest("'value' cannot be blank.")
		}
		choice, ok := data[k].(map[string]any)
		if !ok {
			return errBadRequest("field_data is not a dict")
		}
		for _, key := range []string{"text", "order"} {
			v, present := choice[key]
			if !present {
				return errBadRequest("%s key is missing from field_data", key)
			}
			if s, _ := v.(string); strings.TrimSpace(s) == "" {
				return errBadRequest("field_data[\"%s\"] cannot be blank.", key)
			}
		}
		if extra := profileExtraKeys(choice, "text", "order"); extra != "" {
			return errBadRequest("Unexpected arguments: %s", extra)
		}
		text, _ := choice["text"].(string) // a non-blank string: checked above
		texts[text] = true
	}
	if len(texts) != len(data) {
		return errBadRequest("Field must not have duplicate choices.")
	}
	return nil
}

// profileValidateExternal is validate_external_account_field_data: a subtype
// that is built in or "custom", and for custom a url_pattern with exactly one
// %(username)s that makes a URL.
func profileValidateExternal(data map[string]any) error {
	sub, present := data["subtype"]
	if !present {
		return errBadRequest("subtype key is missing from field_data")
	}
	s, _ := sub.(string)
	if strings.TrimSpace(s) == "" {
		return errBadRequest("field_data[\"subtype\"] cannot be blank.")
	}
	if pattern, ok := data["url_pattern"]; ok {
		ps, _ := pattern.(string)
		if strings.Count(ps, "%(username)s") != 1 {
			return errBadRequest("URL pattern must contain '%%(username)s'.")
		}
		if !profileIsURL(strings.Replace(ps, "%(username)s", "username", 1)) {
			return errBadRequest("field_data[\"url_pattern\"] is not a URL")
		}
	}
	if extra := profileExtraKeys(data, "subtype", "url_pattern"); extra != "" {
		return errBadRequest("Unexpected arguments: %s", extra)
	}
	// zerver/lib/external_accounts.py validate_external_account_field_data: after
	// the dict check, a subtype that is not built in must be "custom", and a
	// custom one must have a url_pattern (verified against Zulip's code).
	if _, builtIn := profileExternalAccounts[s]; !builtIn {
		if s != "custom" {
			return errBadRequest("Invalid external account type")
		}
		if _, ok := data["url_pattern"]; !ok {
			return errBadRequest("Custom external account must define URL pattern")
		}
	}
	return nil
}

// profileExtraKeys lists, sorted and comma-separated, the keys of m not allowed.
func profileExtraKeys(m map[string]any, allowed ...string) string {
	var extra []string
	for k := range m {
		if !slices.Contains(allowed, k) {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	return strings.Join(extra, ", ")
}

// profileDefaultSubtype reports whether an external account field uses a
// built-in subtype (is_default_external_field), and which.
func profileDefaultSubtype(fieldType int, data map[string]any) (string, bool) {
	if fieldType != FieldExternalAccount {
		return "", false
	}
	sub, _ := data["subtype"].(string)
	_, ok := profileExternalAccounts[sub]
	return sub, ok
}

// profileSummaryCount counts the fields shown in the profile summary, except one.
func profileSummaryCount(r *Realm, exceptID int) int {
	n := 0
	for _, f := range r.ProfileFields {
		if f.DisplayInProfileSummary && f.ID != exceptID {
			n++
		}
	}
	return n
}

// profileNameTaken reports whether another field already has the name.
func profileNameTaken(r *Realm, name string, exceptID int) bool {
	for _, f := range r.ProfileFields {
		if f.Name == name && f.ID != exceptID {
			return true
		}
	}
	return false
}

// profileSortFields keeps Realm.ProfileFields sorted by order, then id.
func profileSortFields(r *Realm) {
	sort.SliceStable(r.ProfileFields, func(i, j int) bool {
		a, b := r.ProfileFields[i], r.ProfileFields[j]
		if a.Order != b.Order {
			return a.Order < b.Order
		}
		return a.ID < b.ID
	})
}

// profileDataItem is one decoded element of PATCH /users/me/profile_data's data.
type profileDataItem struct {
	id    int
	value any
}

// profileParseData decodes the data parameter of PATCH /users/me/profile_data:
// a JSON list of {"id": int, "value": string | int[]}, with no other keys,
// checked item by item in order as pydantic does.
func profileParseData(c *call) ([]profileDataItem, error) {
	raw, ok := c.raw("data")
	if !ok {
		return nil, errMissing("data")
	}
	if !json.Valid([]byte(raw)) {
		return nil, errInvalidJSON("data")
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var decoded any
	_ = dec.Decode(&decoded)
	list, ok := decoded.([]any)
	if !ok {
		return nil, errBadRequest("data is not a list")
	}
	items := make([]profileDataItem, 0, len(list))
	for i, el := range list {
		m, ok := el.(map[string]any)
		if !ok {
			return nil, errBadRequest("data[%d] is not a dict", i)
		}
		if extra := profileExtraKeys(m, "id", "value"); extra != "" {
			first, _, _ := strings.Cut(extra, ", ")
			return nil, errBadRequest("Argument \"%s\" at data[%d][\"%s\"] is unexpected", first, i, first)
		}
		for _, key := range []string{"id", "value"} {
			if _, present := m[key]; !present {
				return nil, errBadRequest("%s key is missing from data[%d]", key, i)
			}
		}
		id, ok := profileInt(m["id"])
		if !ok {
			return nil, errBadRequest("data[%d][\"id\"] is not an integer", i)
		}
		if !profileValueShape(m["value"]) {
			// pydantic reports the union's first member: loc (i, "value", "str").
			return nil, errBadRequest(`data[%d]["value"]["str"] is not a string`, i)
		}
		items = append(items, profileDataItem{id: id, value: m["value"]})
	}
	return items, nil
}

// profileCheckEditable applies editable_by_user to a non-administrator.
func (s *Server) profileCheckEditable(u *User, f *ProfileField) error {
	if !u.IsAdmin() && !f.EditableByUser && s.opts.FeatureLevel >= profileEditableFL {
		return errBadRequest(msgProfileNotEditable)
	}
	return nil
}

// updateOwnProfileData serves PATCH /users/me/profile_data (human users), as
// zerver/views/custom_profile_fields.py update_user_custom_profile_data: data is
// Json[list[ProfileDataElementUpdateDict]], whose value is str | list[int], so
// null is a type error; every item is checked (field exists, editable, value
// valid for the field type, "" and [] included) before anything is written,
// and do_update_user_custom_profile_data_if_changed stores each value as given
// ("" stays an empty value, a list is stored as its JSON, so [] is "[]"). Only
// the administrators' PATCH /users/{id} treats empty values as removals.
func (s *Server) updateOwnProfileData(c *call) (obj, error) {
	if err := c.requireHuman(); err != nil {
		return nil, err
	}
	items, err := profileParseData(c)
	if err != nil {
		return nil, err
	}
	r := c.realm()
	stored := make([]string, len(items))
	for i, it := range items {
		f := r.profileFieldByID(it.id)
		if f == nil {
			return nil, profileFieldNotFound(it.id)
		}
		if err := s.profileCheckEditable(c.user, f); err != nil {
			return nil, err
		}
		if stored[i], err = checkProfileValue(r, f, it.value); err != nil {
			return nil, err
		}
	}
	for i, it := range items {
		c.user.ProfileData[it.id] = stored[i]
	}
	return nil, nil
}

// profileValueShape reports whether a decoded value is str | list[int] in
// pydantic's strict mode (a JSON number with a fraction or exponent is not an int).
func profileValueShape(value any) bool {
	switch v := value.(type) {
	case string:
		return true
	case []any:
		for _, x := range v {
			if _, ok := profileInt(x); !ok {
				return false
			}
		}
		return true
	}
	return false
}

// removeOwnProfileData serves DELETE /users/me/profile_data (human users): data
// is a JSON list of field ids whose values are removed (all or nothing, as
// Zulip's transaction does).
func (s *Server) removeOwnProfileData(c *call) (obj, error) {
	if err := c.requireHuman(); err != nil {
		return nil, err
	}
	var ids []int
	if err := c.reqJSON("data", &ids); err != nil {
		return nil, err
	}
	r := c.realm()
	for _, id := range ids {
		f := r.profileFieldByID(id)
		if f == nil {
			return nil, profileFieldNotFound(id)
		}
		if err := s.profileCheckEditable(c.user, f); err != nil {
			return nil, err
		}
	}
	for _, id := range ids {
		delete(c.user.ProfileData, id)
	}
	return nil, nil
}

// profileFieldByID returns the realm's custom profile field with the id, or nil.
// Callers answer a nil with errBadRequest("Field id %d not found.", id), as Zulip does.
func (r *Realm) profileFieldByID(id int) *ProfileField {
	for _, f := range r.ProfileFields {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// validateProfileValue validates a value for a custom profile field as Zulip's
// validate_user_custom_profile_field does (digest §6.1) and returns the string to
// store. value is the decoded JSON value of a profile_data item: a string, a []any
// of numbers (USER fields), or nil.
//
// A nil, "" or empty-list value means "remove the value" (Zulip tests `not value`
// before validating): stored is "" and err is nil. Every error is a 400 BAD_REQUEST
// *apiError whose message names the field (or "User IDs" for USER fields).
// The caller checks the field's existence and editable_by_user itself.
func validateProfileValue(r *Realm, field *ProfileField, value any) (stored string, err error) {
	if profileValueEmpty(value) {
		return "", nil
	}
	return checkProfileValue(r, field, value)
}

// checkProfileValue is validate_user_custom_profile_field for a value that is
// a string or a list: the field type's validator, with no shortcut for empty
// values (PATCH /users/me/profile_data stores "" and [] as given). It returns
// the string Zulip stores: the string itself, or a list as JSON.
func checkProfileValue(r *Realm, field *ProfileField, value any) (stored string, err error) {
	name := field.Name
	switch field.Type {
	case FieldShortText, FieldExternalAccount, FieldPronouns:
		return profileCappedString(name, value, 50)
	case FieldLongText:
		return profileCappedString(name, value, 500)
	case FieldDate:
		s, ok := value.(string)
		if !ok {
			return "", errBadRequest("%s is not a string", name)
		}
		if !profileIsISODate(s) {
			return "", errBadRequest("%s is not a date", name)
		}
		return s, nil
	case FieldURL:
		s, ok := value.(string)
		if !ok {
			return "", errBadRequest("%s is not a string", name)
		}
		if !profileIsURL(s) {
			return "", errBadRequest("%s is not a URL", name)
		}
		return s, nil
	case FieldSelect:
		s, ok := value.(string)
		if !ok {
			return "", errBadRequest("%s is not a string", name)
		}
		var choices map[string]json.RawMessage
		if json.Unmarshal([]byte(field.FieldData), &choices) != nil || choices[s] == nil {
			return "", errBadRequest("'%s' is not a valid choice for '%s'.", s, name)
		}
		return s, nil
	case FieldUser:
		ids, err := profileUserIDs(r, value)
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(ids)
		return string(b), nil
	default:
		return "", errBadRequest("Invalid field type.")
	}
}

// profileValueEmpty reports whether a profile value is falsy in Python's sense.
func profileValueEmpty(value any) bool {
	switch v := value.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	case []int:
		return len(v) == 0
	}
	return false
}

// profileCappedString is Zulip's check_capped_string; lengths count code points.
func profileCappedString(name string, value any, limit int) (string, error) {
	s, ok := value.(string)
	if !ok {
		return "", errBadRequest("%s is not a string", name)
	}
	if utf8.RuneCountInString(s) > limit {
		return "", errBadRequest("%s is too long (limit: %d characters)", name, limit)
	}
	return s, nil
}

// profileIsISODate reports whether s is a date in strict YYYY-MM-DD form, i.e.
// Python's date.fromisoformat(s).isoformat() == s.
func profileIsISODate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	for i, c := range []byte(s) {
		if i != 4 && i != 7 && (c < '0' || c > '9') {
			return false
		}
	}
	if s[:4] == "0000" { // Python's date.min is year 1
		return false
	}
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// profileUserIDs is Zulip's check_valid_user_ids (without deactivated users): a
// list of integers naming active, non-bot users of the realm.
func profileUserIDs(r *Realm, value any) ([]int, error) {
	var list []any
	switch v := value.(type) {
	case []any:
		list = v
	case []int:
		for _, n := range v {
			list = append(list, n)
		}
	default:
		return nil, errBadRequest("User IDs is not a list")
	}
	ids := make([]int, 0, len(list))
	for i, item := range list {
		n, ok := profileInt(item)
		if !ok {
			return nil, errBadRequest("User IDs[%d] is not an integer", i)
		}
		ids = append(ids, n)
	}
	var invalid []string
	for _, id := range ids {
		if r.Users[id] == nil {
			invalid = append(invalid, strconv.Itoa(id))
		}
	}
	if len(invalid) > 0 {
		return nil, errBadRequest("Invalid user IDs: %s", strings.Join(invalid, ", "))
	}
	// Zulip checks the users in database (id) order.
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	for _, id := range sorted {
		u := r.Users[id]
		if !u.IsActive {
			return nil, errBadRequest("User with ID %d is deactivated", id)
		}
		if u.IsBot {
			return nil, errBadRequest("User with ID %d is a bot", id)
		}
	}
	return ids, nil
}

// profileInt converts a decoded JSON number to an int, if it is integral.
func profileInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case float64:
		if n != math.Trunc(n) || math.IsInf(n, 0) || math.Abs(n) > 1<<53 {
			return 0, false
		}
		return int(n), true
	case json.Number:
		i, err := strconv.Atoi(string(n))
		return i, err == nil
	}
	return 0, false
}

// profileIsURL follows the rules of Django's URLValidator (schemes http, https,
// ftp and ftps; a host that is a domain name with a top-level domain, localhost,
// an IPv4 address or a bracketed IPv6 address; an optional port of up to 5 digits;
// no whitespace; at most 2048 characters).
func profileIsURL(s string) bool {
	if s == "" || len(s) > 2048 || strings.ContainsAny(s, " \t\r\n\v\f") {
		return false
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return false
	}
	switch strings.ToLower(scheme) {
	case "http", "https", "ftp", "ftps":
	default:
		return false
	}
	host, ok := profileURLHost(rest)
	if !ok {
		return false
	}
	if host == "" {
		return strings.HasPrefix(rest, "[")
	}
	return profileIsHost(strings.ToLower(host))
}

// profileURLHost returns the host of the URL rest follows "scheme://" in:
// without user information and port, and "" for a bracketed IPv6 address.
// It reports false when the user information, the IPv6 address or the
// port is malformed.
func profileURLHost(rest string) (string, bool) {
	// Split the authority from the path, query or fragment.
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	if i := strings.LastIndex(authority, "@"); i >= 0 {
		userinfo := authority[:i]
		authority = authority[i+1:]
		user, pass, _ := strings.Cut(userinfo, ":")
		if user == "" || strings.ContainsAny(user, ":@/") || strings.ContainsAny(pass, ":@/") {
			return "", false
		}
	}
	host, tail := authority, ""
	if strings.HasPrefix(host, "[") {
		end := strings.Index(host, "]")
		if end < 0 {
			return "", false
		}
		ip6 := host[1:end]
		if ip6 == "" || strings.Trim(strings.ToLower(ip6), "0123456789abcdef:.") != "" {
			return "", false
		}
		host, tail = "", host[end+1:]
	} else if i := strings.LastIndex(host, ":"); i >= 0 {
		host, tail = host[:i], host[i:]
	}
	return host, profilePortOK(tail)
}

// profilePortOK checks what follows a URL's host: nothing, or ":" and a
// port of 1 to 5 digits.
func profilePortOK(tail string) bool {
	if tail == "" {
		return true
	}
	port := strings.TrimPrefix(tail, ":")
	return port != tail && port != "" && len(port) <= 5 && strings.Trim(port, "0123456789") == ""
}

// profileIsHost checks a lowercased host name or IPv4 address.
func profileIsHost(host string) bool {
	if host == "localhost" {
		return true
	}
	if profileIsIPv4(host) {
		return true
	}
	host = strings.TrimSuffix(host, ".") // a trailing dot is allowed
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return false
	}
	for i, label := range labels {
		if !profileHostLabelOK(label, i == len(labels)-1) {
			return false
		}
	}
	return true
}

// profileHostLabelOK checks a label of a lowercased host name: 1 to 63
// letters, digits, '-' (not first or last) and characters from U+00A1; the
// last label (the top-level domain) has at least two characters and no
// digits unless it is punycode ("xn--").
func profileHostLabelOK(label string, last bool) bool {
	n := utf8.RuneCountInString(label)
	if n == 0 || n > 63 || label[0] == '-' || label[len(label)-1] == '-' {
		return false
	}
	isAlnum := func(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0xa1 }
	for _, c := range label {
		if c == '-' {
			continue
		}
		if last && !strings.HasPrefix(label, "xn--") && c >= '0' && c <= '9' {
			return false // a top-level domain has no digits
		}
		if !isAlnum(c) {
			return false
		}
	}
	return !last || n >= 2
}

// profileIsIPv4 reports whether s is a dotted-quad IPv4 address.
func profileIsIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 || strings.Trim(p, "0123456789") != "" || (len(p) > 1 && p[0] == '0') {
			return false
		}
		if n, _ := strconv.Atoi(p); n > 255 {
			return false
		}
	}
	return true
}

// profileFieldNotFound is the error for an unknown field id.
func profileFieldNotFound(id int) error {
	return errBadRequest("Field id %s not found.", fmt.Sprint(id))
}

// registerProfileFields is register's custom_profile_fields section.
func (s *Server) registerProfileFields(rr *registerRequest, out obj) {
	fl := rr.fl
	out["custom_profile_fields"] = nonNilObjs(s.profileFieldsWire())
	out["custom_profile_field_types"] = profileFieldTypesWire(fl)
}

// seedProfileFields creates a custom profile field of every type, with data.
func seedProfileFields(r *Realm, _, _ int64) {
	fields := []*ProfileField{
		{ID: FieldIDPhone, Type: FieldShortText, Name: "Phone number", Hint: "Including the country code"},
		{ID: FieldIDBiography, Type: FieldLongText, Name: "Biography", Hint: "What do you do?"},
		{ID: FieldIDTeam, Type: FieldSelect, Name: "Team", Hint: "Your team",
			FieldData: `{"0":{"text":"Engineering","order":"1"},"1":{"text":"Design","order":"2"},"2":{"text":"Sales","order":"3"}}`},
		{ID: FieldIDBirthday, Type: FieldDate, Name: "Birthday", Hint: ""},
		{ID: FieldIDWebsite, Type: FieldURL, Name: "Website", Hint: "Or your blog"},
		{ID: FieldIDMentor, Type: FieldUser, Name: "Mentor", Hint: "Who helps you"},
		{ID: FieldIDGitHub, Type: FieldExternalAccount, Name: "GitHub username", Hint: "Your GitHub username", FieldData: `{"subtype":"github"}`},
		{ID: FieldIDPronouns, Type: FieldPronouns, Name: "Pronouns", Hint: "What pronouns should people use for you?"},
		{ID: FieldIDEmployeeID, Type: FieldShortText, Name: "Employee ID", Hint: "Set by HR", Required: true},
	}
	for i, f := range fields {
		f.Order = i + 1
		f.EditableByUser = f.ID != FieldIDEmployeeID
	}
	fields[FieldIDPhone-1].DisplayInProfileSummary = true
	fields[FieldIDGitHub-1].UseForUserMatching = true
	r.ProfileFields = fields
	r.NextID["profile_field"] = len(fields)

	set := func(uid int, values map[int]string) {
		for k, v := range values {
			r.Users[uid].ProfileData[k] = v
		}
	}
	set(SeedOwnerID, map[int]string{FieldIDPhone: "+1-555-0100", FieldIDTeam: "0", FieldIDPronouns: "she/her", FieldIDEmployeeID: "E-0001"})
	set(SeedMemberID, map[int]string{FieldIDBiography: "Backend engineer.", FieldIDBirthday: "1990-04-01",
		FieldIDWebsite: "https://mark.example.org", FieldIDMentor: fmt.Sprintf("[%d]", SeedAdminID), FieldIDGitHub: "markm"})
	set(SeedMember3ID, map[int]string{FieldIDTeam: "1", FieldIDMentor: fmt.Sprintf("[%d,%d]", SeedOwnerID, SeedMemberID)})
}

// ProfileField is a custom profile field.
type ProfileField struct {
	ID                      int    `json:"id"`
	Type                    int    `json:"type"`
	Order                   int    `json:"order"`
	Name                    string `json:"name"`
	Hint                    string `json:"hint"`
	FieldData               string `json:"field_data"` // "" or JSON text
	Required                bool   `json:"required"`
	EditableByUser          bool   `json:"editable_by_user"`
	DisplayInProfileSummary bool   `json:"display_in_profile_summary"`
	UseForUserMatching      bool   `json:"use_for_user_matching"`
}
