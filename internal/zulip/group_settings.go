package zulip

import (
	"encoding/json"
	"errors"
)

// GroupSettingUpdate changes a group-based permission setting (digest §3.1, schema
// GroupSettingValueUpdate). Zulip receives it as the JSON object {"new": ..., "old": ...}.
//
// Old is the value the caller believes the setting has now. When it is set and does not
// match, the server changes nothing and answers EXPECTATION_MISMATCH
// (IsExpectationMismatch), so a change made by someone else between a read and this write
// is reported rather than overwritten. When Old is nil only "new" is sent and the setting is
// overwritten unconditionally.
type GroupSettingUpdate struct {
	New GroupSettingValue
	Old *GroupSettingValue
}

// groupSettingUpdateJSON is the wire form of GroupSettingUpdate.
type groupSettingUpdateJSON struct {
	New *GroupSettingValue `json:"new"`
	Old *GroupSettingValue `json:"old,omitempty"`
}

// MarshalJSON writes {"new": <value>} or {"new": <value>, "old": <value>}.
func (u GroupSettingUpdate) MarshalJSON() ([]byte, error) {
	return json.Marshal(groupSettingUpdateJSON{New: &u.New, Old: u.Old})
}

// UnmarshalJSON reads the same form; "new" is required.
func (u *GroupSettingUpdate) UnmarshalJSON(data []byte) error {
	var w groupSettingUpdateJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if w.New == nil {
		return errors.New(`group setting update without "new"`)
	}
	*u = GroupSettingUpdate{New: *w.New, Old: w.Old}
	return nil
}

// optGroupSetting adds a group-setting value (a JSON parameter) when value is not nil.
func (p *params) optGroupSetting(name string, value *GroupSettingValue) {
	if value != nil {
		p.json(name, *value)
	}
}

// optGroupSettingUpdate adds a group-setting update (a JSON parameter) when value is not nil.
func (p *params) optGroupSettingUpdate(name string, value *GroupSettingUpdate) {
	if value != nil {
		p.json(name, *value)
	}
}

// namedSetting pairs a permission setting's API name with its value in a request struct.
type namedSetting[T any] struct {
	name  string
	value *T
}

// hasOld reports whether any of the updates carries an expected current value. Such a
// request is not idempotent: repeated after a first attempt that succeeded unseen, it would
// fail with EXPECTATION_MISMATCH, since the setting no longer has the old value.
func hasOld(updates []namedSetting[GroupSettingUpdate]) bool {
	for _, u := range updates {
		if u.value != nil && u.value.Old != nil {
			return true
		}
	}
	return false
}
