package zulip

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestGetServerSettings(t *testing.T) {
	env := setup(t)
	env.handle("/server_settings", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		success(w, `"zulip_feature_level":420,"zulip_version":"11.0","zulip_merge_base":"11.0","push_notifications_enabled":true,
			"is_incompatible":false,"email_auth_enabled":true,"require_email_format_usernames":true,
			"authentication_methods":{"password":true,"dev":false},
			"external_authentication_methods":[{"name":"github","display_name":"GitHub","display_icon":null,"login_url":"/accounts/login/social/github","signup_url":"/accounts/register/social/github"}],
			"realm_url":"https://chat.example.com","realm_uri":"https://chat.example.com","realm_name":"Example","realm_icon":"/icon.png",
			"realm_description":"<p>Hi</p>","realm_web_public_access_enabled":false,"new_key":1`)
	})
	got, err := env.client.GetServerSettings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got.ZulipFeatureLevel != 420 || got.ZulipVersion != "11.0" || got.ZulipMergeBase != "11.0" || !got.PushNotificationsEnabled ||
		!got.EmailAuthEnabled || !got.RequireEmailFormatUsernames || !got.AuthenticationMethods["password"] ||
		len(got.ExternalAuthenticationMethods) != 1 || got.ExternalAuthenticationMethods[0].DisplayName != "GitHub" ||
		got.RealmURL != "https://chat.example.com" || got.RealmName != "Example" || got.RealmIcon != "/icon.png" || got.RealmDescription != "<p>Hi</p>" {
		t.Errorf("got %+v", got)
	}
}

func TestGetServerSettings_oldServer(t *testing.T) {
	env := setup(t)
	env.handle("/server_settings", func(w http.ResponseWriter, r *http.Request) {
		success(w, `"zulip_version":"2.1.0","realm_uri":"https://old.example.com"`)
	})
	got, err := env.client.GetServerSettings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got.ZulipFeatureLevel != 0 || got.ZulipVersion != "2.1.0" || got.RealmURL != "https://old.example.com" {
		t.Errorf("got %+v", got)
	}
}

func TestDevFetchAPIKey(t *testing.T) {
	env := setup(t, func(c *Config) { c.Email, c.APIKey = "", "" })
	env.handle("/dev_fetch_api_key", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		if r.Header.Get("Authorization") != "" {
			t.Error("dev_fetch_api_key was sent credentials")
		}
		testFormValues(t, r, url.Values{"username": {"iago@zulip.example"}})
		success(w, `"api_key":"gjA04ZYcqXKalvYMA8OeXSfzUOLrtbZv","email":"iago@zulip.example","user_id":5`)
	})
	got, err := env.client.DevFetchAPIKey(context.Background(), "iago@zulip.example")
	if err != nil {
		t.Fatal(err)
	}
	if *got != (APIKeyResponse{APIKey: "gjA04ZYcqXKalvYMA8OeXSfzUOLrtbZv", Email: "iago@zulip.example", UserID: 5}) {
		t.Errorf("got %+v", got)
	}
	for _, e := range env.Logs() {
		for _, v := range e.fields {
			if s, ok := v.(string); ok && strings.Contains(s, "gjA04ZYcqXKalvYMA8OeXSfzUOLrtbZv") {
				t.Errorf("the fetched key was logged: %v", e)
			}
		}
	}
}

func TestDevFetchAPIKey_productionServer(t *testing.T) {
	env := setup(t)
	env.handle("/dev_fetch_api_key", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"result":"error","msg":"Endpoint not available in production.","code":"BAD_REQUEST"}`)
	})
	_, err := env.client.DevFetchAPIKey(context.Background(), "iago@zulip.example")
	apiErr := mustAPIError(t, err, 400, "BAD_REQUEST")
	if apiErr.Msg != "Endpoint not available in production." || IsNotFound(err) {
		t.Errorf("error = %v", err)
	}
}

func TestDevFetchAPIKey_unknownUser(t *testing.T) {
	env := setup(t)
	env.handle("/dev_fetch_api_key", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 401, `{"result":"error","msg":"Your username or password is incorrect","code":"AUTHENTICATION_FAILED"}`)
	})
	_, err := env.client.DevFetchAPIKey(context.Background(), "nobody@zulip.example")
	if !IsUnauthorized(err) {
		t.Errorf("IsUnauthorized(%v) = false", err)
	}
}
