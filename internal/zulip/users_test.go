package zulip

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

const userJSON = `{"user_id":12,"email":"user12@zulip.example","delivery_email":null,"full_name":"Cordelia, Lear's daughter",
	"date_joined":"2019-10-20T07:50:53.728864+00:00","is_active":true,"is_owner":false,"is_admin":true,"is_guest":false,
	"is_bot":false,"bot_type":null,"bot_owner_id":null,"role":200,"timezone":"Europe/Paris","avatar_url":null,
	"avatar_version":3,"is_imported_stub":false,"unknown_new_field":{"x":1},
	"profile_data":{"4":{"value":"0"},"7":{"value":"[11]"},"1":{"value":"+1-234","rendered_value":"<p>+1-234</p>"}}}`

func wantUser() *User {
	return &User{
		UserID: 12, Email: "user12@zulip.example", FullName: "Cordelia, Lear's daughter",
		DateJoined: "2019-10-20T07:50:53.728864+00:00", IsActive: true, IsAdmin: true, Role: RoleAdministrator,
		Timezone: "Europe/Paris", AvatarVersion: 3,
		ProfileData: map[string]ProfileValue{
			"4": {Value: "0"},
			"7": {Value: "[11]"},
			"1": {Value: "+1-234", RenderedValue: ptr("<p>+1-234</p>")},
		},
	}
}

func TestGetUser(t *testing.T) {
	env := setup(t)
	env.handle("/users/12", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testAuth(t, r)
		testQuery(t, r, url.Values{"client_gravatar": {"false"}, "include_custom_profile_fields": {"true"}})
		success(w, `"user":`+userJSON)
	})
	got, err := env.client.GetUser(context.Background(), 12, GetUserOptions{ClientGravatar: ptr(false), IncludeCustomProfileFields: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, wantUser()) {
		t.Errorf("GetUser =\n%+v\nwant\n%+v", got, wantUser())
	}
	if v, ok := got.ProfileValueFor(7); !ok || v.Value != "[11]" {
		t.Errorf("ProfileValueFor(7) = %+v, %v", v, ok)
	}
}

func TestGetUser_botAndDefaults(t *testing.T) {
	env := setup(t)
	env.handle("/users/30", func(w http.ResponseWriter, r *http.Request) {
		testQuery(t, r, nil) // nothing sent: server defaults
		success(w, `"user":{"user_id":30,"email":"bot@zulip.example","delivery_email":"bot@zulip.example","full_name":"Bot",
			"is_bot":true,"bot_type":1,"bot_owner_id":12,"role":400,"avatar_url":"https://a/x.png","is_active":true}`)
	})
	got, err := env.client.GetUser(context.Background(), 30, GetUserOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !got.IsBot || got.BotType == nil || *got.BotType != 1 || got.BotOwnerID == nil || *got.BotOwnerID != 12 ||
		got.DeliveryEmail == nil || *got.DeliveryEmail != "bot@zulip.example" || got.AvatarURL == nil || got.ProfileData != nil {
		t.Errorf("GetUser = %+v", got)
	}
}

func TestGetUser_notFound(t *testing.T) {
	env := setup(t)
	env.handle("/users/99", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"result":"error","msg":"No such user","code":"BAD_REQUEST"}`)
	})
	_, err := env.client.GetUser(context.Background(), 99, GetUserOptions{})
	if !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}

func TestGetUserByEmail(t *testing.T) {
	env := setup(t)
	env.handle("/users/{email}", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		if got := r.PathValue("email"); got != "cordelia+tag@zulip.example" {
			t.Errorf("email = %q", got)
		}
		testQuery(t, r, url.Values{"include_custom_profile_fields": {"true"}})
		success(w, `"user":`+userJSON)
	})
	got, err := env.client.GetUserByEmail(context.Background(), "cordelia+tag@zulip.example", GetUserOptions{IncludeCustomProfileFields: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.UserID != 12 {
		t.Errorf("user id = %d", got.UserID)
	}
}

func TestGetUserByEmail_escapesPath(t *testing.T) {
	env := setup(t)
	env.handle("/users/{email}", func(w http.ResponseWriter, r *http.Request) {
		if got := r.PathValue("email"); got != "a/b?c@x" {
			t.Errorf("email = %q", got)
		}
		if !strings.HasSuffix(r.URL.EscapedPath(), "/users/a%2Fb%3Fc@x") {
			t.Errorf("escaped path = %q", r.URL.EscapedPath())
		}
		success(w, `"user":{"user_id":1}`)
	})
	if _, err := env.client.GetUserByEmail(context.Background(), "a/b?c@x", GetUserOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestListUsers(t *testing.T) {
	env := setup(t)
	env.handle("/users", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		testQuery(t, r, url.Values{"client_gravatar": {"true"}})
		success(w, `"members":[`+userJSON+`,{"user_id":13,"full_name":"x","is_active":false}]`)
	})
	got, err := env.client.ListUsers(context.Background(), GetUserOptions{ClientGravatar: ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !reflect.DeepEqual(&got[0], wantUser()) || got[1].UserID != 13 || got[1].IsActive {
		t.Errorf("ListUsers = %+v", got)
	}
}

func TestGetOwnUser(t *testing.T) {
	env := setup(t)
	env.handle("/users/me", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		// The fields are at the top level of the answer.
		success(w, `"user_id":5,"email":"iago@zulip.example","full_name":"Iago","role":100,"is_owner":true,"is_admin":true,"max_message_id":30`)
	})
	got, err := env.client.GetOwnUser(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got.UserID != 5 || got.FullName != "Iago" || got.Role != RoleOwner || !got.IsOwner {
		t.Errorf("GetOwnUser = %+v", got)
	}
}

func TestCreateUser(t *testing.T) {
	env := setup(t)
	env.handle("/users", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		// full_name is plain since FL106: never JSON-quoted.
		testFormValues(t, r, url.Values{"email": {"new@zulip.example"}, "password": {"s3cret pass"}, "full_name": {"New User"}})
		success(w, `"user_id":25`)
	})
	id, err := env.client.CreateUser(context.Background(), CreateUserRequest{Email: "new@zulip.example", Password: "s3cret pass", FullName: "New User"})
	if err != nil || id != 25 {
		t.Fatalf("CreateUser = %d, %v", id, err)
	}
}

func TestUpdateUser(t *testing.T) {
	env := setup(t)
	env.handle("/users/12", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		testFormValues(t, r, url.Values{
			"full_name":    {"Cordelia Lear"},
			"role":         {"300"},
			"profile_data": {`[{"id":4,"value":"1"},{"id":7,"value":[11,12]},{"id":9,"value":null}]`},
			"new_email":    {"c@zulip.example"},
		})
		success(w, "")
	})
	err := env.client.UpdateUser(context.Background(), 12, UpdateUserRequest{
		FullName: ptr("Cordelia Lear"),
		Role:     ptr(RoleModerator),
		ProfileData: []ProfileDataItem{
			{ID: 4, Value: ProfileText("1")},
			{ID: 7, Value: ProfileUserIDs(11, 12)},
			{ID: 9},
		},
		NewEmail: ptr("c@zulip.example"),
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestUpdateUser_onlySetFields(t *testing.T) {
	env := setup(t)
	env.handle("/users/12", func(w http.ResponseWriter, r *http.Request) {
		testFormValues(t, r, url.Values{"role": {"600"}})
		success(w, "")
	})
	if err := env.client.UpdateUser(context.Background(), 12, UpdateUserRequest{Role: ptr(RoleGuest)}); err != nil {
		t.Fatal(err)
	}
}

func TestDeactivateUser(t *testing.T) {
	env := setup(t)
	env.handle("/users/12", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		testQuery(t, r, url.Values{"actions": {`{"delete_profile":true,"delete_public_channel_messages":false,"delete_private_channel_messages":false,"delete_direct_messages":true}`}})
		testFormValues(t, r, url.Values{"deactivation_notification_comment": {"Farewell!"}})
		success(w, "")
	})
	err := env.client.DeactivateUser(context.Background(), 12, DeactivateUserRequest{
		NotificationComment: ptr("Farewell!"),
		Actions:             &DeactivationActions{DeleteProfile: true, DeleteDirectMessages: true},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestDeactivateUser_noOptions(t *testing.T) {
	env := setup(t)
	env.handle("/users/12", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		testQuery(t, r, nil)
		testFormValues(t, r, nil)
		success(w, "")
	})
	if err := env.client.DeactivateUser(context.Background(), 12, DeactivateUserRequest{}); err != nil {
		t.Fatal(err)
	}
}

func TestReactivateUser(t *testing.T) {
	env := setup(t)
	env.handle("/users/12/reactivate", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		success(w, "")
	})
	if err := env.client.ReactivateUser(context.Background(), 12); err != nil {
		t.Fatal(err)
	}
}

func TestDeactivateOwnUser(t *testing.T) {
	env := setup(t)
	env.handle("/users/me", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		success(w, "")
	})
	if err := env.client.DeactivateOwnUser(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestDeactivateOwnUser_lastOwner(t *testing.T) {
	env := setup(t)
	env.handle("/users/me", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"result":"error","msg":"Cannot deactivate the only organization owner.","code":"CANNOT_DEACTIVATE_LAST_USER","entity":"organization owner","is_last_owner":true}`)
	})
	err := env.client.DeactivateOwnUser(context.Background())
	if !IsCannotDeactivateLastUser(err) {
		t.Fatalf("error = %v", err)
	}
	if e, _ := AsAPIError(err); !e.IsLastOwner() || e.Entity() != "organization owner" {
		t.Errorf("extras = %+v", e.Extra)
	}
}

func TestRoles(t *testing.T) {
	for _, name := range RoleNames() {
		role, ok := RoleFromName(name)
		if !ok {
			t.Fatalf("RoleFromName(%q) unknown", name)
		}
		if back, ok := RoleName(role); !ok || back != name {
			t.Errorf("RoleName(%d) = %q, %v; want %q", role, back, ok, name)
		}
	}
	want := map[string]int{"owner": 100, "administrator": 200, "moderator": 300, "member": 400, "guest": 600}
	for name, role := range want {
		if got, _ := RoleFromName(name); got != role {
			t.Errorf("RoleFromName(%q) = %d, want %d", name, got, role)
		}
	}
	if _, ok := RoleFromName("admin"); ok {
		t.Error(`RoleFromName("admin") is known`)
	}
	if _, ok := RoleName(500); ok {
		t.Error("RoleName(500) is known")
	}
}
