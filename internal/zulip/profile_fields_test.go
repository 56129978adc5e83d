package zulip

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

func TestListCustomProfileFields(t *testing.T) {
	env := setup(t)
	env.handle("/realm/profile_fields", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		success(w, `"custom_fields":[
			{"id":1,"type":1,"order":1,"name":"Phone","hint":"","field_data":"","required":false,"editable_by_user":false,"display_in_profile_summary":true},
			{"id":3,"type":3,"order":2,"name":"Team","hint":"pick","field_data":"{\"0\":{\"text\":\"Red\",\"order\":\"1\"},\"1\":{\"text\":\"Blue\",\"order\":2}}","required":true},
			{"id":7,"type":7,"order":3,"name":"GitHub","hint":"","field_data":"{\"subtype\":\"github\"}","use_for_user_matching":true},
			{"id":8,"type":8,"order":4,"name":"Pronouns","hint":""}]`)
	})
	got, err := env.client.ListCustomProfileFields(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []CustomProfileField{
		{ID: 1, Type: ProfileFieldShortText, Order: 1, Name: "Phone", EditableByUser: false, DisplayInProfileSummary: true},
		{ID: 3, Type: ProfileFieldSelect, Order: 2, Name: "Team", Hint: "pick", FieldData: `{"0":{"text":"Red","order":"1"},"1":{"text":"Blue","order":2}}`, Required: true, EditableByUser: true},
		{ID: 7, Type: ProfileFieldExternalAccount, Order: 3, Name: "GitHub", FieldData: `{"subtype":"github"}`, EditableByUser: true, UseForUserMatching: true},
		{ID: 8, Type: ProfileFieldPronouns, Order: 4, Name: "Pronouns", EditableByUser: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}

	opts, err := got[1].SelectOptions()
	if err != nil {
		t.Fatal(err)
	}
	wantOpts := map[string]SelectOption{"0": {Text: "Red", Order: "1"}, "1": {Text: "Blue", Order: "2"}}
	if !reflect.DeepEqual(opts, wantOpts) {
		t.Errorf("SelectOptions = %+v", opts)
	}
	if opts, err := got[0].SelectOptions(); err != nil || len(opts) != 0 {
		t.Errorf("SelectOptions of a text field = %v, %v", opts, err)
	}
	acct, err := got[2].ExternalAccount()
	if err != nil || acct != (ExternalAccountData{Subtype: "github"}) {
		t.Errorf("ExternalAccount = %+v, %v", acct, err)
	}
	if _, err := (CustomProfileField{ID: 9, FieldData: "[1]"}).SelectOptions(); err == nil {
		t.Error("malformed select field_data accepted")
	}
	if _, err := (CustomProfileField{ID: 9, FieldData: "nope"}).ExternalAccount(); err == nil {
		t.Error("malformed external account field_data accepted")
	}
}

func TestUpdateOwnProfileData(t *testing.T) {
	env := setup(t)
	env.handle("/users/me/profile_data", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		testFormValues(t, r, url.Values{"data": {`[{"id":1,"value":"+1 234 <b>"},{"id":6,"value":[11]}]`}})
		success(w, "")
	})
	err := env.client.UpdateOwnProfileData(context.Background(), []ProfileDataItem{
		{ID: 1, Value: ProfileText("+1 234 <b>")},
		{ID: 6, Value: ProfileUserIDs(11)},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestRemoveOwnProfileData(t *testing.T) {
	env := setup(t)
	env.handle("/users/me/profile_data", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		testFormValues(t, r, url.Values{"data": {"[1,6]"}})
		success(w, "")
	})
	if err := env.client.RemoveOwnProfileData(context.Background(), []int64{1, 6}); err != nil {
		t.Fatal(err)
	}
}

func TestProfileDataValue_JSON(t *testing.T) {
	tests := []struct {
		v    ProfileDataValue
		json string
	}{
		{ProfileText("x"), `"x"`},
		{ProfileText(""), `""`},
		{ProfileUserIDs(1, 2), `[1,2]`},
		{ProfileUserIDs(), `[]`},
		{ProfileDataValue{}, `null`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.v)
		if err != nil || string(b) != tt.json {
			t.Errorf("Marshal = %s, %v; want %s", b, err, tt.json)
		}
		var back ProfileDataValue
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, tt.v) {
			t.Errorf("round trip of %s = %+v, %v", tt.json, back, err)
		}
	}
	if !(ProfileDataValue{}).IsNull() || ProfileText("").IsNull() || ProfileUserIDs().IsNull() {
		t.Error("IsNull is wrong")
	}
	var v ProfileDataValue
	if err := json.Unmarshal([]byte(`{"x":1}`), &v); err == nil {
		t.Error("an object was accepted as a profile value")
	}
}
