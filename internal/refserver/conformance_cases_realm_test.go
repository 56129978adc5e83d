package refserver_test

import (
	"encoding/json"
	"fmt"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
)

func init() { confAreas["realm_settings"] = confCasesRealmSettings }

// confCasesRealmSettings are the conformance requests of the organization's
// settings. PATCH /realm is not in the descriptions (it is still among Zulip's
// pending endpoints): its answers are checked for the envelope only, and the
// events it causes against the realm event schemas of get-events.
func confCasesRealmSettings(add func(confGroup)) {
	add(confGroup{op: "update-realm", name: "update-realm", steps: []confStep{
		confCapture(confOK("register", "register-queue", confMember, confPOST, "/register", confP("event_types", `["realm"]`)), "queue_id", "queue_id"),
		confOK("one of each kind", "update-realm", confOwner, confPATCH, "/realm", confP(
			"name", "Renamed", "description", "**New**", "org_type", "20", "default_language", `de`, "invite_required", "false",
			"waiting_period_threshold", "3", "message_content_edit_limit_seconds", `"unlimited"`,
			"message_content_delete_limit_seconds", "3600", "topics_policy", "disable_empty_topic",
			"message_retention_days", "30", "digest_weekday", "4", "jitsi_server_url", `"https://meet.example.com"`,
			"new_stream_announcements_stream_id", "-1", "can_create_groups", `{"new": 2, "old": 5}`,
			"direct_message_permission_group", `{"new": {"direct_members": [1], "direct_subgroups": [3]}}`,
			"authentication_methods", `{"GitHub": true}`)),
		confOK("the events", "get-events", confMember, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
		confOK("the settings", "register-queue", confMember, confPOST, "/register", confP("fetch_event_types", `["realm"]`)),
		confBad("an owner's setting as an administrator", "update-realm", confAdmin, confPATCH, "/realm", confP("invite_required", "true"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("a member", "update-realm", confMember, confPATCH, "/realm", confP("name", "x"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("a bad language", "update-realm", confAdmin, confPATCH, "/realm", confP("default_language", "xx"), 400, "BAD_REQUEST"),
		confBad("a bad limit", "update-realm", confAdmin, confPATCH, "/realm", confP("message_content_edit_limit_seconds", "0"), 400, "BAD_REQUEST"),
		confBad("a stale permission", "update-realm", confOwner, confPATCH, "/realm", confP("can_create_groups", `{"new": 5, "old": 5}`), 400, "EXPECTATION_MISMATCH"),
		// Applied in the view's order: the name is kept though the group fails.
		confBad("a later group setting fails", "update-realm", confOwner, confPATCH, "/realm", confP("name", "Kept", "can_create_groups", `{"new": 999}`), 400, "BAD_REQUEST"),
		confBad("a JSON-quoted topics_policy", "update-realm", confAdmin, confPATCH, "/realm", confP("topics_policy", `"allow_empty_topic"`), 400, "BAD_REQUEST"),
		confBad("no authentication method left", "update-realm", confOwner, confPATCH, "/realm", confP("authentication_methods", `{"Dev": false, "Email": false, "GitHub": false}`), 400, "BAD_REQUEST"),
		confBad("a public moderation channel", "update-realm", confAdmin, confPATCH, "/realm", confP("moderation_request_channel_id", "1"), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "update-realm-user-settings-defaults", name: "update-realm-user-settings-defaults", steps: []confStep{
		confCapture(confOK("register", "register-queue", confMember, confPOST, "/register", confP("event_types", `["realm_user_settings_defaults"]`)), "queue_id", "queue_id"),
		confOK("several kinds", "update-realm-user-settings-defaults", confAdmin, confPATCH, "/realm/user_settings_defaults", confP(
			"web_home_view", "recent", "color_scheme", "2", "enter_sends", "true", "notification_sound", "ding",
			"email_notifications_batching_period_seconds", "300", "email_address_visibility", "3")),
		confOK("every default, as it is", "update-realm-user-settings-defaults", confAdmin, confPATCH, "/realm/user_settings_defaults", confP(everyUserDefault()...)),
		confOK("the events", "get-events", confMember, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
		confOK("the defaults", "register-queue", confMember, confPOST, "/register", confP("fetch_event_types", `["realm_user_settings_defaults"]`)),
		confBad("a member", "update-realm-user-settings-defaults", confMember, confPATCH, "/realm/user_settings_defaults", confP("enter_sends", "true"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confBad("an unknown sound", "update-realm-user-settings-defaults", confAdmin, confPATCH, "/realm/user_settings_defaults", confP("notification_sound", "moo"), 400, "BAD_REQUEST"),
		confBad("a short batching period", "update-realm-user-settings-defaults", confAdmin, confPATCH, "/realm/user_settings_defaults", confP("email_notifications_batching_period_seconds", "5"), 400, "BAD_REQUEST"),
		confBad("an unknown color scheme", "update-realm-user-settings-defaults", confAdmin, confPATCH, "/realm/user_settings_defaults", confP("color_scheme", "9"), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "add-code-playground", steps: []confStep{
		confCapture(confOK("register", "register-queue", confMember, confPOST, "/register", confP("event_types", `["realm_playgrounds"]`)), "queue_id", "queue_id"),
		confOK("add", "add-code-playground", confAdmin, confPOST, "/realm/playgrounds", confP("name", "Python playground", "pygments_language", "Python", "url_template", "https://python.example.com?code={code}")),
		confBad("again", "add-code-playground", confAdmin, confPOST, "/realm/playgrounds", confP("name", "Python playground", "pygments_language", "Python", "url_template", "https://other.example.com?code={code}"), 400, "BAD_REQUEST"),
		confBad("another variable", "add-code-playground", confAdmin, confPOST, "/realm/playgrounds", confP("name", "x", "pygments_language", "Go", "url_template", "https://go.example.com?code={code}&v={version}"), 400, "BAD_REQUEST"),
		confBad("bad language", "add-code-playground", confAdmin, confPOST, "/realm/playgrounds", confP("name", "x", "pygments_language", "Go!", "url_template", "https://go.example.com?code={code}"), 400, "BAD_REQUEST"),
		confBad("a member", "add-code-playground", confMember, confPOST, "/realm/playgrounds", confP("name", "x", "pygments_language", "Go", "url_template", "https://go.example.com?code={code}"), 400, "UNAUTHORIZED_PRINCIPAL"),
		confOK("the events", "get-events", confMember, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
		confOK("the playgrounds", "register-queue", confMember, confPOST, "/register", confP("fetch_event_types", `["realm_playgrounds"]`)),
	}})
	add(confGroup{op: "remove-code-playground", steps: []confStep{
		confOK("add", "add-code-playground", confAdmin, confPOST, "/realm/playgrounds", confP("name", "P", "pygments_language", "Python", "url_template", "https://python.example.com?code={code}")),
		confOK("remove", "remove-code-playground", confAdmin, confDELETE, "/realm/playgrounds/1", nil),
		confBad("again", "remove-code-playground", confAdmin, confDELETE, "/realm/playgrounds/1", nil, 400, "BAD_REQUEST"),
	}})
}

// everyUserDefault is a request that sets every default of the table to its
// default value, encoded as the view declares it.
func everyUserDefault() []string {
	var kv []string
	for _, sp := range realmspec.UserDefaults {
		v := fmt.Sprint(sp.Default)
		if sp.Kind != realmspec.Text && sp.Kind != realmspec.Language && !sp.Plain {
			b, _ := json.Marshal(sp.Default)
			v = string(b)
		}
		kv = append(kv, sp.Name, v)
	}
	return kv
}
