package refserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"
)

// profileTestData returns a user's stored profile data as "id=value" pairs.
func profileTestData(srv *Server, userID int) string {
	var parts []string
	srv.Do(func(r *Realm) {
		for id, v := range r.Users[userID].ProfileData {
			parts = append(parts, fmt.Sprintf("%d=%s", id, v))
		}
	})
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

func TestProfileFieldsList(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	for _, role := range cfgRoles {
		t.Run(role.name, func(t *testing.T) {
			status, body := cfgDo(t, srv, ts, role.id, "GET", "/realm/profile_fields", nil)
			cfgWantOK(t, status, body)
			fields := body["custom_fields"].([]any)
			if len(fields) != 9 {
				t.Fatalf("%d fields", len(fields))
			}
			for i, raw := range fields {
				f := raw.(map[string]any)
				var keys []string
				for k := range f {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				want := "editable_by_user field_data hint id name order required type"
				switch f["id"] {
				case float64(FieldIDPhone):
					want = "display_in_profile_summary " + want
				case float64(FieldIDGitHub):
					want += " use_for_user_matching"
				}
				if got := strings.Join(keys, " "); got != want {
					t.Fatalf("field %v keys = %s, want %s", f["id"], got, want)
				}
				if f["order"] != float64(i+1) || f["id"] != float64(i+1) {
					t.Fatalf("field %d: %v", i, f)
				}
			}
			team := cfgJSON(fields[FieldIDTeam-1])
			if team != `{"editable_by_user":true,"field_data":"{\"0\":{\"text\":\"Engineering\",\"order\":\"1\"},\"1\":{\"text\":\"Design\",\"order\":\"2\"},\"2\":{\"text\":\"Sales\",\"order\":\"3\"}}","hint":"Your team","id":3,"name":"Team","order":3,"required":false,"type":3}` {
				t.Fatalf("team = %s", team)
			}
			emp := cfgJSON(fields[FieldIDEmployeeID-1])
			if emp != `{"editable_by_user":false,"field_data":"","hint":"Set by HR","id":9,"name":"Employee ID","order":9,"required":true,"type":1}` {
				t.Fatalf("employee id = %s", emp)
			}
		})
	}
}

func TestValidateProfileValue(t *testing.T) {
	srv, _ := cfgServer(t, 0)
	srv.Do(func(r *Realm) {
		r.Users[SeedMember2ID].IsActive = false // a deactivated user for the USER checks
	})
	field := func(id int) *ProfileField {
		var f *ProfileField
		srv.Do(func(r *Realm) { f = r.profileFieldByID(id) })
		return f
	}
	list := func(v ...any) []any { return v }
	cases := []struct {
		name    string
		field   int
		value   any
		stored  string
		wantErr string
	}{
		{"null removes", FieldIDPhone, nil, "", ""},
		{"empty string removes", FieldIDBirthday, "", "", ""},
		{"empty list removes", FieldIDMentor, list(), "", ""},
		{"short text", FieldIDPhone, "+49 30 1234", "+49 30 1234", ""},
		{"short text 50", FieldIDPhone, strings.Repeat("ä", 50), strings.Repeat("ä", 50), ""},
		{"short text too long", FieldIDPhone, strings.Repeat("ä", 51), "", "Phone number is too long (limit: 50 characters)"},
		{"short text not a string", FieldIDPhone, list(json.Number("1")), "", "Phone number is not a string"},
		{"long text", FieldIDBiography, strings.Repeat("b", 500), strings.Repeat("b", 500), ""},
		{"long text too long", FieldIDBiography, strings.Repeat("b", 501), "", "Biography is too long (limit: 500 characters)"},
		{"select", FieldIDTeam, "2", "2", ""},
		{"select by text", FieldIDTeam, "Sales", "", "'Sales' is not a valid choice for 'Team'."},
		{"select not a string", FieldIDTeam, list(json.Number("1")), "", "Team is not a string"},
		{"date", FieldIDBirthday, "2000-02-29", "2000-02-29", ""},
		{"date invalid day", FieldIDBirthday, "2001-02-29", "", "Birthday is not a date"},
		{"date compact", FieldIDBirthday, "20000101", "", "Birthday is not a date"},
		{"date with time", FieldIDBirthday, "2000-01-01T00:00", "", "Birthday is not a date"},
		{"date year 0", FieldIDBirthday, "0000-01-01", "", "Birthday is not a date"},
		{"url", FieldIDWebsite, "https://example.com/path?q=1#x", "https://example.com/path?q=1#x", ""},
		{"url port and auth", FieldIDWebsite, "http://user:pw@example.co.uk:8080/", "http://user:pw@example.co.uk:8080/", ""},
		{"url ip", FieldIDWebsite, "http://192.168.0.1/", "http://192.168.0.1/", ""},
		{"url localhost", FieldIDWebsite, "http://localhost:9991", "http://localhost:9991", ""},
		{"url ipv6", FieldIDWebsite, "http://[::1]:80/", "http://[::1]:80/", ""},
		{"url no scheme", FieldIDWebsite, "example.com", "", "Website is not a URL"},
		{"url bad scheme", FieldIDWebsite, "javascript://example.com", "", "Website is not a URL"},
		{"url no tld", FieldIDWebsite, "http://example", "", "Website is not a URL"},
		{"url space", FieldIDWebsite, "http://exa mple.com", "", "Website is not a URL"},
		{"url numeric tld", FieldIDWebsite, "http://example.123", "", "Website is not a URL"},
		{"url bad port", FieldIDWebsite, "http://example.com:123456", "", "Website is not a URL"},
		{"user", FieldIDMentor, list(json.Number("5")), "[5]", ""},
		{"users, order kept", FieldIDMentor, list(float64(11), float64(1)), "[11,1]", ""},
		{"user as string", FieldIDMentor, "5", "", "User IDs is not a list"},
		{"user not an integer", FieldIDMentor, list(json.Number("1.5")), "", "User IDs[0] is not an integer"},
		{"unknown users", FieldIDMentor, list(float64(5), float64(99), float64(77)), "", "Invalid user IDs: 99, 77"},
		{"deactivated user", FieldIDMentor, list(float64(SeedDeactivatedID)), "", "User with ID 10 is deactivated"},
		{"bot user", FieldIDMentor, list(float64(SeedIncomingBotID), float64(SeedMember2ID)), "", "User with ID 6 is deactivated"},
		{"bot", FieldIDMentor, list(float64(SeedBotID)), "", "User with ID 8 is a bot"},
		{"external account", FieldIDGitHub, "octocat", "octocat", ""},
		{"external account too long", FieldIDGitHub, strings.Repeat("o", 51), "", "GitHub username is too long (limit: 50 characters)"},
		{"pronouns", FieldIDPronouns, "they/them", "they/them", ""},
		{"pronouns not a string", FieldIDPronouns, true, "", "Pronouns is not a string"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := field(tc.field)
			var stored string
			var err error
			srv.Do(func(r *Realm) { stored, err = validateProfileValue(r, f, tc.value) })
			if tc.wantErr == "" {
				if err != nil || stored != tc.stored {
					t.Fatalf("got %q, %v; want %q", stored, err, tc.stored)
				}
				return
			}
			var ae *apiError
			if !errors.As(err, &ae) || ae.Status != 400 || ae.Code != "BAD_REQUEST" || ae.Msg != tc.wantErr {
				t.Fatalf("got %q, %v; want error %q", stored, err, tc.wantErr)
			}
		})
	}
}

func TestProfileFieldAdminPermissions(t *testing.T) {
	for _, role := range cfgRoles {
		t.Run(role.name, func(t *testing.T) {
			srv, ts := cfgServer(t, 0)
			requests := []struct {
				method, path string
				form         url.Values
			}{
				{"POST", "/realm/profile_fields", cfgForm("name", "Office", "field_type", "1")},
				{"PATCH", "/realm/profile_fields/1", cfgForm("hint", "With country code")},
				{"PATCH", "/realm/profile_fields", cfgForm("order", "[10,9,8,7,6,5,4,3,2,1]")},
				{"DELETE", "/realm/profile_fields/2", nil},
			}
			for _, req := range requests {
				status, body := cfgDo(t, srv, ts, role.id, req.method, req.path, req.form)
				if role.id == SeedOwnerID || role.id == SeedAdminID {
					cfgWantOK(t, status, body)
				} else {
					cfgWantError(t, status, body, 400, "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator")
				}
			}
		})
	}
}

func TestProfileFieldCreate(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/profile_fields", cfgForm(
		"name", "  Favorite editor ", "hint", "Vim or Emacs?", "field_type", "3",
		"field_data", `{"vim": {"text": "Vim", "order": "1"}, "emacs": {"text": "Emacs", "order": "2"}}`,
		"display_in_profile_summary", "true", "required", "true", "editable_by_user", "false"))
	cfgWantOK(t, status, body)
	if body["id"] != float64(10) {
		t.Fatalf("id = %v", body["id"])
	}
	// A built-in external account takes its name and hint from Zulip's table.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/profile_fields", cfgForm(
		"name", "ignored", "hint", "ignored", "field_type", "7", "field_data", `{"subtype":"gitlab"}`, "use_for_user_matching", "true"))
	cfgWantOK(t, status, body)
	// Field data is ignored for other types; a custom external account keeps its pattern.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/profile_fields", cfgForm(
		"name", "Start date", "field_type", "4", "field_data", `{"x":"y"}`))
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/profile_fields", cfgForm(
		"name", "Forge", "field_type", "7", "field_data", `{"subtype":"custom","url_pattern":"https://forge.example.com/%(username)s"}`, "color", "blue"))
	cfgWantOK(t, status, body)
	if got := cfgJSON(body["ignored_parameters_unsupported"]); got != `["color"]` {
		t.Fatalf("ignored_parameters_unsupported = %s", got)
	}
	status, body = cfgDo(t, srv, ts, SeedMemberID, "GET", "/realm/profile_fields", nil)
	cfgWantOK(t, status, body)
	fields := body["custom_fields"].([]any)
	want := []string{
		`{"display_in_profile_summary":true,"editable_by_user":false,"field_data":"{\"vim\":{\"text\":\"Vim\",\"order\":\"1\"},\"emacs\":{\"text\":\"Emacs\",\"order\":\"2\"}}","hint":"Vim or Emacs?","id":10,"name":"Favorite editor","order":10,"required":true,"type":3}`,
		`{"editable_by_user":true,"field_data":"{\"subtype\":\"gitlab\"}","hint":"","id":11,"name":"GitLab username","order":11,"required":false,"type":7,"use_for_user_matching":true}`,
		`{"editable_by_user":true,"field_data":"","hint":"","id":12,"name":"Start date","order":12,"required":false,"type":4}`,
		`{"editable_by_user":true,"field_data":"{\"subtype\":\"custom\",\"url_pattern\":\"https://forge.example.com/%(username)s\"}","hint":"","id":13,"name":"Forge","order":13,"required":false,"type":7}`,
	}
	for i, w := range want {
		if got := cfgJSON(fields[9+i]); got != w {
			t.Fatalf("field %d = %s\nwant %s", 10+i, got, w)
		}
	}
}

func TestProfileFieldCreateErrors(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	cases := []struct {
		name      string
		form      url.Values
		code, msg string
	}{
		{"missing type", cfgForm("name", "X"), "REQUEST_VARIABLE_MISSING", "Missing 'field_type' argument"},
		{"type not an integer", cfgForm("name", "X", "field_type", `"1"`), "BAD_REQUEST", "field_type is not an integer"},
		{"blank label", cfgForm("name", "   ", "field_type", "1"), "BAD_REQUEST", "Label cannot be blank."},
		{"no label", cfgForm("field_type", "1"), "BAD_REQUEST", "Label cannot be blank."},
		{"long label", cfgForm("name", strings.Repeat("n", 41), "field_type", "1"), "BAD_REQUEST", "name is too long (limit: 40 characters)"},
		{"long hint", cfgForm("name", "X", "hint", strings.Repeat("h", 81), "field_type", "1"), "BAD_REQUEST", "hint is too long (limit: 80 characters)"},
		{"invalid type", cfgForm("name", "X", "field_type", "9"), "BAD_REQUEST", "Invalid field type."},
		{"invalid type 0", cfgForm("name", "X", "field_type", "0"), "BAD_REQUEST", "Invalid field type."},
		{"duplicate label", cfgForm("name", "Phone number", "field_type", "1"), "BAD_REQUEST", "A field with that label already exists."},
		{"duplicate default external", cfgForm("field_type", "7", "field_data", `{"subtype":"github"}`), "BAD_REQUEST", "A field with that label already exists."},
		{"select without choices", cfgForm("name", "X", "field_type", "3"), "BAD_REQUEST", "Field must have at least one choice."},
		{"select duplicate choices", cfgForm("name", "X", "field_type", "3", "field_data", `{"a":{"text":"A","order":"1"},"b":{"text":"A","order":"2"}}`), "BAD_REQUEST", "Field must not have duplicate choices."},
		{"select blank text", cfgForm("name", "X", "field_type", "3", "field_data", `{"a":{"text":" ","order":"1"}}`), "BAD_REQUEST", `field_data["text"] cannot be blank.`},
		{"select missing order", cfgForm("name", "X", "field_type", "3", "field_data", `{"a":{"text":"A"}}`), "BAD_REQUEST", "order key is missing from field_data"},
		{"select extra key", cfgForm("name", "X", "field_type", "3", "field_data", `{"a":{"text":"A","order":"1","color":"red"}}`), "BAD_REQUEST", "Unexpected arguments: color"},
		{"select blank key", cfgForm("name", "X", "field_type", "3", "field_data", `{" ":{"text":"A","order":"1"}}`), "BAD_REQUEST", "'value' cannot be blank."},
		{"field_data not JSON", cfgForm("name", "X", "field_type", "3", "field_data", `{a}`), "BAD_REQUEST", "field_data is not valid JSON"},
		{"field_data not a dict", cfgForm("name", "X", "field_type", "3", "field_data", `["a"]`), "BAD_REQUEST", "field_data is not a dict"},
		{"external without subtype", cfgForm("name", "X", "field_type", "7", "field_data", `{}`), "BAD_REQUEST", "subtype key is missing from field_data"},
		{"external unknown subtype", cfgForm("name", "X", "field_type", "7", "field_data", `{"subtype":"myspace"}`), "BAD_REQUEST", "Invalid external account type"},
		{"custom external without pattern", cfgForm("name", "X", "field_type", "7", "field_data", `{"subtype":"custom"}`), "BAD_REQUEST", "Custom external account must define URL pattern"},
		{"external pattern without username", cfgForm("name", "X", "field_type", "7", "field_data", `{"subtype":"custom","url_pattern":"https://x.com/"}`), "BAD_REQUEST", "URL pattern must contain '%(username)s'."},
		{"external pattern not a URL", cfgForm("name", "X", "field_type", "7", "field_data", `{"subtype":"custom","url_pattern":"x/%(username)s"}`), "BAD_REQUEST", `field_data["url_pattern"] is not a URL`},
		{"summary for users", cfgForm("name", "X", "field_type", "6", "display_in_profile_summary", "true"), "BAD_REQUEST", "Field type not supported for display in profile summary."},
		{"user matching for dates", cfgForm("name", "X", "field_type", "4", "use_for_user_matching", "true"), "BAD_REQUEST", msgProfileUserMatching},
		{"summary not a boolean", cfgForm("name", "X", "field_type", "1", "display_in_profile_summary", `"yes"`), "BAD_REQUEST", "display_in_profile_summary is not a boolean"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status, body := cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/profile_fields", tc.form)
			cfgWantError(t, status, body, 400, tc.code, tc.msg)
		})
	}
	srv.Do(func(r *Realm) {
		if len(r.ProfileFields) != 9 {
			t.Fatalf("%d fields", len(r.ProfileFields))
		}
	})
	// At most two fields in the profile summary (the seed has one).
	status, body := cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/profile_fields", cfgForm("name", "Office", "field_type", "1", "display_in_profile_summary", "true"))
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/profile_fields", cfgForm("name", "Desk", "field_type", "1", "display_in_profile_summary", "true"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Only 2 custom profile fields can be displayed in the profile summary.")
	// Paragraph fields may be in the summary since FL476.
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "PATCH", "/realm/profile_fields/1", cfgForm("display_in_profile_summary", "false"))
	cfgWantOK(t, status, body)
	status, body = cfgDo(t, srv, ts, SeedOwnerID, "POST", "/realm/profile_fields", cfgForm("name", "About", "field_type", "2", "display_in_profile_summary", "true"))
	cfgWantOK(t, status, body)
	old, oldTS := cfgServer(t, 470)
	status, body = cfgDo(t, old, oldTS, SeedOwnerID, "POST", "/realm/profile_fields", cfgForm("name", "About", "field_type", "2", "display_in_profile_summary", "true"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Field type not supported for display in profile summary.")
}

func TestProfileFieldUpdate(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/99", cfgForm("name", "X"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Field id 99 not found.")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/1", cfgForm("name", " Biography "))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "A field with that label already exists.")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/1", cfgForm("name", " "))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Label cannot be blank.")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/6", cfgForm("display_in_profile_summary", "true"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Field type not supported for display in profile summary.")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/3", cfgForm("use_for_user_matching", "true"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", msgProfileUserMatching)
	// The seeded GitHub field is a built-in external account: only the summary
	// flag (and required, editable_by_user) may change.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/7", cfgForm("name", "GitHub"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Default custom field cannot be updated.")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/7", cfgForm("name", "GitHub username",
		"field_data", `{"subtype":"github"}`, "display_in_profile_summary", "true", "required", "true"))
	cfgWantOK(t, status, body)
	// Now two fields are in the summary.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/2", cfgForm("display_in_profile_summary", "true"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Only 2 custom profile fields can be displayed in the profile summary.")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/7", cfgForm("display_in_profile_summary", "true"))
	cfgWantOK(t, status, body)

	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/1", cfgForm(
		"name", "Phone", "hint", "", "required", "true", "editable_by_user", "false", "display_in_profile_summary", "false"))
	cfgWantOK(t, status, body)
	_, body = cfgDo(t, srv, ts, SeedMemberID, "GET", "/realm/profile_fields", nil)
	fields := body["custom_fields"].([]any)
	if got := cfgJSON(fields[0]); got != `{"editable_by_user":false,"field_data":"","hint":"","id":1,"name":"Phone","order":1,"required":true,"type":1}` {
		t.Fatalf("phone = %s", got)
	}
	if got := cfgJSON(fields[6]); got != `{"display_in_profile_summary":true,"editable_by_user":true,"field_data":"{\"subtype\":\"github\"}","hint":"Your GitHub username","id":7,"name":"GitHub username","order":7,"required":true,"type":7,"use_for_user_matching":true}` {
		t.Fatalf("github = %s", got)
	}
	// Removing a choice removes the values that used it.
	if got := profileTestData(srv, SeedMember3ID); !strings.Contains(got, "3=1") {
		t.Fatalf("mei = %s", got)
	}
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/3", cfgForm(
		"field_data", `{"0":{"text":"Engineering","order":"1"},"2":{"text":"Sales","order":"2"}}`))
	cfgWantOK(t, status, body)
	if got := profileTestData(srv, SeedMember3ID); strings.Contains(got, "3=") {
		t.Fatalf("mei still has a team: %s", got)
	}
	if got := profileTestData(srv, SeedOwnerID); !strings.Contains(got, "3=0") {
		t.Fatalf("olivia lost her team: %s", got)
	}
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields/3", cfgForm("field_data", `{}`))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Field must have at least one choice.")
}

func TestProfileFieldDeleteAndReorder(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	status, body := cfgDo(t, srv, ts, SeedAdminID, "DELETE", "/realm/profile_fields/99", nil)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Field id 99 not found.")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "DELETE", "/realm/profile_fields/6", nil)
	cfgWantOK(t, status, body)
	for _, uid := range []int{SeedMemberID, SeedMember3ID} {
		if got := profileTestData(srv, uid); strings.Contains(got, "6=") {
			t.Fatalf("user %d keeps a value of the deleted field: %s", uid, got)
		}
	}
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields", cfgForm("order", "[9,8,7,5,4,3,2]"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Invalid order mapping.")
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields", nil)
	cfgWantError(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'order' argument")
	// Unknown ids are ignored; each field's order is its index.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "PATCH", "/realm/profile_fields", cfgForm("order", "[9,8,7,42,5,4,3,2,1]"))
	cfgWantOK(t, status, body)
	_, body = cfgDo(t, srv, ts, SeedGuestID, "GET", "/realm/profile_fields", nil)
	var got []string
	for _, f := range body["custom_fields"].([]any) {
		m := f.(map[string]any)
		got = append(got, fmt.Sprintf("%v@%v", m["id"], m["order"]))
	}
	if strings.Join(got, " ") != "9@0 8@1 7@2 5@4 4@5 3@6 2@7 1@8" {
		t.Fatalf("order = %v", got)
	}
	// A new field goes last: its order is its id.
	status, body = cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/profile_fields", cfgForm("name", "Office", "field_type", "1"))
	cfgWantOK(t, status, body)
	_, body = cfgDo(t, srv, ts, SeedGuestID, "GET", "/realm/profile_fields", nil)
	fields := body["custom_fields"].([]any)
	if last := fields[len(fields)-1].(map[string]any); last["id"] != float64(10) || last["order"] != float64(10) {
		t.Fatalf("last = %v", last)
	}
}

// profileDataRefusals are profile data updates Zulip refuses, with its error; none
// changes any value.
var profileDataRefusals = []struct {
	name, data string
	code, msg  string
}{
	{"not editable", `[{"id":9,"value":"E-1"}]`, "BAD_REQUEST", msgProfileNotEditable},
	{"null", `[{"id":1,"value":null}]`, "BAD_REQUEST", `data[0]["value"]["str"] is not a string`},
	{"number", `[{"id":1,"value":5}]`, "BAD_REQUEST", `data[0]["value"]["str"] is not a string`},
	{"list of strings", `[{"id":6,"value":["a"]}]`, "BAD_REQUEST", `data[0]["value"]["str"] is not a string`},
	{"null before a missing key", `[{"id":1,"value":null},{"id":2}]`, "BAD_REQUEST", `data[0]["value"]["str"] is not a string`},
	{"empty date", `[{"id":4,"value":""}]`, "BAD_REQUEST", "Birthday is not a date"},
	{"empty URL", `[{"id":5,"value":""}]`, "BAD_REQUEST", "Website is not a URL"},
	{"empty choice", `[{"id":3,"value":""}]`, "BAD_REQUEST", "'' is not a valid choice for 'Team'."},
	{"empty string for users", `[{"id":6,"value":""}]`, "BAD_REQUEST", "User IDs is not a list"},
	{"empty list for text", `[{"id":1,"value":[]}]`, "BAD_REQUEST", "Phone number is not a string"},
	{"unknown field", `[{"id":1,"value":"x"},{"id":99,"value":"x"}]`, "BAD_REQUEST", "Field id 99 not found."},
	{"invalid value after a valid one", `[{"id":1,"value":"ok"},{"id":4,"value":"1990-13-01"}]`, "BAD_REQUEST", "Birthday is not a date"},
	{"bad choice", `[{"id":3,"value":"7"}]`, "BAD_REQUEST", "'7' is not a valid choice for 'Team'."},
	{"bot as mentor", `[{"id":6,"value":[8]}]`, "BAD_REQUEST", "User with ID 8 is a bot"},
	{"unknown users", `[{"id":6,"value":[404]}]`, "BAD_REQUEST", "Invalid user IDs: 404"},
	{"too long", `[{"id":8,"value":"` + strings.Repeat("x", 51) + `"}]`, "BAD_REQUEST", "Pronouns is too long (limit: 50 characters)"},
	{"extra key", `[{"id":1,"value":"x","rendered_value":"<p>x</p>"}]`, "BAD_REQUEST", `Argument "rendered_value" at data[0]["rendered_value"] is unexpected`},
	{"missing value", `[{"id":1}]`, "BAD_REQUEST", "value key is missing from data[0]"},
	{"missing id", `[{"value":"x"}]`, "BAD_REQUEST", "id key is missing from data[0]"},
	{"id not an integer", `[{"id":"1","value":"x"}]`, "BAD_REQUEST", `data[0]["id"] is not an integer`},
	{"item not a dict", `[{"id":1,"value":"x"},[1,"x"]]`, "BAD_REQUEST", "data[1] is not a dict"},
	{"not a list", `{"id":1,"value":"x"}`, "BAD_REQUEST", "data is not a list"},
	{"not JSON", `[{id:1}]`, "BAD_REQUEST", "data is not valid JSON"},
}

func TestProfileDataUpdate(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	patch := func(userID int, data string) (int, map[string]any) {
		return cfgDo(t, srv, ts, userID, "PATCH", "/users/me/profile_data", cfgForm("data", data))
	}
	status, body := patch(SeedMemberID, `[{"id":1,"value":"+1 555 0199"},{"id":6,"value":[11,1]},{"id":3,"value":"2"},{"id":8,"value":"he/him"}]`)
	cfgWantOK(t, status, body)
	if got := profileTestData(srv, SeedMemberID); got != "1=+1 555 0199 2=Backend engineer. 3=2 4=1990-04-01 5=https://mark.example.org 6=[11,1] 7=markm 8=he/him" {
		t.Fatalf("data = %s", got)
	}
	// This endpoint stores values as given (zerver/views/custom_profile_fields.py
	// update_user_custom_profile_data: data is Json[list[ProfileDataElementUpdateDict]],
	// value str | list[int]; do_update_user_custom_profile_data_if_changed):
	// null is a type error, "" is validated by the field type and kept as an
	// empty value, a list is stored as JSON ([] as "[]"). Only DELETE
	// /users/me/profile_data and an administrator's PATCH /users/{id} remove.
	status, body = patch(SeedMemberID, `[{"id":1,"value":"x"},{"id":2,"value":null}]`)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", `data[1]["value"]["str"] is not a string`)
	status, body = patch(SeedMemberID, `[{"id":1,"value":""},{"id":2,"value":""},{"id":6,"value":[]},{"id":9,"value":""}]`)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", msgProfileNotEditable)
	status, body = patch(SeedMemberID, `[{"id":1,"value":""},{"id":2,"value":""},{"id":6,"value":[]}]`)
	cfgWantOK(t, status, body)
	if got := profileTestData(srv, SeedMemberID); got != "1= 2= 3=2 4=1990-04-01 5=https://mark.example.org 6=[] 7=markm 8=he/him" {
		t.Fatalf("data = %s", got)
	}
	// The empty values are values: listed with the user.
	_, body = cfgDo(t, srv, ts, SeedOwnerID, "GET", fmt.Sprintf("/users/%d?include_custom_profile_fields=true", SeedMemberID), nil)
	pd := body["user"].(map[string]any)["profile_data"].(map[string]any)
	if v, ok := pd["1"].(map[string]any); !ok || v["value"] != "" {
		t.Fatalf("profile_data[1] = %v", pd["1"])
	}
	if v, ok := pd["6"].(map[string]any); !ok || v["value"] != "[]" {
		t.Fatalf("profile_data[6] = %v", pd["6"])
	}
	status, body = cfgDo(t, srv, ts, SeedMemberID, "DELETE", "/users/me/profile_data", cfgForm("data", "[1,2,6]"))
	cfgWantOK(t, status, body)
	if got := profileTestData(srv, SeedMemberID); got != "3=2 4=1990-04-01 5=https://mark.example.org 7=markm 8=he/him" {
		t.Fatalf("data = %s", got)
	}
	// Administrators may edit fields that are not editable by users.
	for _, uid := range []int{SeedOwnerID, SeedAdminID} {
		status, body = patch(uid, `[{"id":9,"value":"E-42"}]`)
		cfgWantOK(t, status, body)
	}
	// Guests are human users too.
	status, body = patch(SeedGuestID, `[{"id":8,"value":"they/them"}]`)
	cfgWantOK(t, status, body)

	before := profileTestData(srv, SeedMemberID)
	for _, tc := range profileDataRefusals {
		t.Run(tc.name, func(t *testing.T) {
			status, body := patch(SeedMemberID, tc.data)
			cfgWantError(t, status, body, 400, tc.code, tc.msg)
			if got := profileTestData(srv, SeedMemberID); got != before {
				t.Fatalf("data changed: %s", got)
			}
		})
	}
	status, body = cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/users/me/profile_data", nil)
	cfgWantError(t, status, body, 400, "REQUEST_VARIABLE_MISSING", "Missing 'data' argument")
	status, body = patch(SeedBotID, `[{"id":1,"value":"x"}]`)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
	// An incoming webhook bot does not reach the view: validate_api_key
	// refuses its key (zerver/decorator.py).
	status, body = patch(SeedIncomingBotID, `[{"id":1,"value":"x"}]`)
	cfgWantError(t, status, body, 401, "UNAUTHORIZED", "This API is not available to incoming webhook bots.")
}

func TestProfileDataRemove(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	del := func(userID int, data string) (int, map[string]any) {
		return cfgDo(t, srv, ts, userID, "DELETE", "/users/me/profile_data", cfgForm("data", data))
	}
	status, body := del(SeedOwnerID, "[1,8,2]") // 2 has no value: fine
	cfgWantOK(t, status, body)
	if got := profileTestData(srv, SeedOwnerID); got != "3=0 9=E-0001" {
		t.Fatalf("data = %s", got)
	}
	status, body = del(SeedOwnerID, "[9]")
	cfgWantOK(t, status, body)
	// A member cannot clear a field that is not editable by users; nothing is removed.
	srv.Do(func(r *Realm) { r.Users[SeedMemberID].ProfileData[FieldIDEmployeeID] = "E-7" })
	status, body = del(SeedMemberID, "[7,9]")
	cfgWantError(t, status, body, 400, "BAD_REQUEST", msgProfileNotEditable)
	status, body = del(SeedMemberID, "[7,99]")
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Field id 99 not found.")
	if got := profileTestData(srv, SeedMemberID); !strings.Contains(got, "7=markm") || !strings.Contains(got, "9=E-7") {
		t.Fatalf("data = %s", got)
	}
	// pydantic's strict list[int]: the first element's error, located.
	status, body = del(SeedMemberID, `["7"]`)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "data[0] is not an integer")
	status, body = del(SeedMemberID, `[7, 1.0]`)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "data[1] is not an integer")
	status, body = del(SeedMemberID, `{"7": 1}`)
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "data is not a list")
	status, body = del(SeedBotID, "[1]")
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "This endpoint does not accept bot requests.")
}

func TestProfileFieldFeatureLevels(t *testing.T) {
	srv, ts := cfgServer(t, 240)
	status, body := cfgDo(t, srv, ts, SeedMemberID, "GET", "/realm/profile_fields", nil)
	cfgWantOK(t, status, body)
	if got := cfgJSON(body["custom_fields"].([]any)[0]); got != `{"display_in_profile_summary":true,"field_data":"","hint":"Including the country code","id":1,"name":"Phone number","order":1,"type":1}` {
		t.Fatalf("phone = %s", got)
	}
	status, body = cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/profile_fields", cfgForm(
		"name", "Office", "field_type", "1", "required", "true", "editable_by_user", "false", "use_for_user_matching", "true"))
	cfgWantOK(t, status, body)
	if got := cfgJSON(body["ignored_parameters_unsupported"]); got != `["editable_by_user","required","use_for_user_matching"]` {
		t.Fatalf("ignored = %s", got)
	}
	// Without editable_by_user (FL296) every field is editable by its user.
	status, body = cfgDo(t, srv, ts, SeedMemberID, "PATCH", "/users/me/profile_data", cfgForm("data", `[{"id":9,"value":"E-5"}]`))
	cfgWantOK(t, status, body)
	// Pronouns arrived in FL151.
	srv, ts = cfgServer(t, 150)
	status, body = cfgDo(t, srv, ts, SeedAdminID, "POST", "/realm/profile_fields", cfgForm("name", "Pronouns 2", "field_type", "8"))
	cfgWantError(t, status, body, 400, "BAD_REQUEST", "Invalid field type.")
}

func TestProfileFieldsWire(t *testing.T) {
	srv, ts := cfgServer(t, 0)
	_, body := cfgDo(t, srv, ts, SeedMemberID, "GET", "/realm/profile_fields", nil)
	srv.mu.Lock()
	wire := cfgJSON(srv.profileFieldsWire())
	srv.mu.Unlock()
	if got := cfgJSON(body["custom_fields"]); got != wire {
		t.Fatalf("wire %s\n!= GET %s", wire, got)
	}
}
