package refserver

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
)

// eventsKeys lists an answer's keys without the envelope and the always-present ones.
func eventsKeys(body map[string]any) string {
	var keys []string
	for k := range body {
		switch k {
		case "result", "msg", "queue_id", "last_event_id", "zulip_feature_level", "zulip_version", "zulip_merge_base",
			"idle_queue_timeout_secs": // with the queue, whatever the fetch types (FL481)
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}

func TestRegisterAlwaysPresent(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"fetch_event_types": {`["no_such_type"]`}})
	coreWantOK(t, a)
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`).MatchString(fmt.Sprint(a.body["queue_id"])) {
		t.Errorf("queue_id %v", a.body["queue_id"])
	}
	if a.body["last_event_id"] != -1.0 || a.body["zulip_feature_level"] != float64(DefaultFeatureLevel) ||
		a.body["zulip_version"] != DefaultVersion || a.body["zulip_merge_base"] != DefaultVersion {
		t.Errorf("answer %v", a.body)
	}
	if got := eventsKeys(a.body); got != "" {
		t.Errorf("unknown fetch type produced %q", got)
	}
	if _, ok := a.body["ignored_parameters_unsupported"]; ok {
		t.Errorf("register ignored a parameter: %v", a.body)
	}
	// Queue ids differ per registration.
	b := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{})
	if b.body["queue_id"] == a.body["queue_id"] {
		t.Error("two registrations share a queue id")
	}
}

// realmSectionKeys are the keys of the realm section at the default level:
// the fixed ones and every setting of internal/realmspec.
func realmSectionKeys() string {
	keys := []string{"event_queue_longpoll_timeout_seconds", "max_message_length", "max_stream_description_length",
		"max_stream_name_length", "max_topic_length", "realm_email_auth_enabled", "realm_empty_topic_display_name",
		"realm_icon_source", "realm_icon_url", "realm_logo_source", "realm_logo_url", "realm_night_logo_source", "realm_night_logo_url",
		"realm_password_auth_enabled", "realm_plan_type", "realm_push_notifications_enabled", "realm_uri", "realm_url",
		"server_report_message_types", "server_supported_permission_settings", "server_web_public_streams_enabled"}
	for _, sp := range realmspec.Settings {
		keys = append(keys, sp.Register())
	}
	sort.Strings(keys)
	return strings.Join(keys, " ")
}

func TestRegisterFetchTypes(t *testing.T) {
	e := coreStart(t, Options{})
	cases := []struct {
		types string
		keys  string
	}{
		{`["realm"]`, realmSectionKeys()},
		{`["realm_domains"]`, "realm_domains"},
		{`["realm_linkifiers"]`, "realm_linkifiers"},
		{`["realm_filters"]`, "realm_filters"},
		{`["user_topic"]`, "user_topics"},
		{`["custom_profile_fields"]`, "custom_profile_field_types custom_profile_fields"},
		{`["realm_user_groups"]`, "realm_user_groups"},
		{`["user_status"]`, "user_status"},
		{`["saved_snippets"]`, "saved_snippets"},
		{`["stream"]`, "streams"},
		{`["realm_user"]`, "avatar_source avatar_url avatar_url_medium cross_realm_bots delivery_email email full_name " +
			"is_admin is_guest is_moderator is_owner realm_non_active_users realm_users user_id"},
	}
	for _, tc := range cases {
		t.Run(tc.types, func(t *testing.T) {
			a := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"fetch_event_types": {tc.types}})
			coreWantOK(t, a)
			if got := eventsKeys(a.body); got != tc.keys {
				t.Errorf("keys\n got %s\nwant %s", got, tc.keys)
			}
		})
	}
	t.Run("everything when omitted", func(t *testing.T) {
		a := e.coreRequest(SeedMemberID, http.MethodPost, "/register", nil)
		coreWantOK(t, a)
		for _, k := range []string{"realm_users", "user_topics", "saved_snippets", "realm_domains", "streams", "max_topic_length", "user_status"} {
			if _, ok := a.body[k]; !ok {
				t.Errorf("missing %s", k)
			}
		}
	})
	t.Run("event_types stands in for fetch_event_types", func(t *testing.T) {
		a := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"event_types": {`["realm_domains"]`}})
		if got := eventsKeys(a.body); got != "realm_domains" {
			t.Errorf("keys %s", got)
		}
		a = e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{
			"event_types": {`["realm_domains"]`}, "fetch_event_types": {`["user_topic"]`}})
		if got := eventsKeys(a.body); got != "user_topics" {
			t.Errorf("keys %s", got)
		}
	})
}

func TestRegisterValues(t *testing.T) {
	e := coreStart(t, Options{})
	e.srv.Do(func(r *Realm) { r.Settings.MaxTopicLength = 50; r.ModerationRequestChannelID = -1 })
	a := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{
		"fetch_event_types": {`["realm","realm_linkifiers","realm_filters","user_status","realm_user","custom_profile_fields"]`}})
	coreWantOK(t, a)
	b := a.body
	checkRegisterRealmValues(t, b)
	checkRegisterUsers(t, b)
	ft := b["custom_profile_field_types"].(map[string]any)
	if len(ft) != 8 || fmt.Sprint(ft["USER"]) != "map[id:6 name:Users]" {
		t.Errorf("custom_profile_field_types %v", ft)
	}

	a = e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{
		"fetch_event_types": {`["realm_linkifiers"]`}, "client_capabilities": {`{"linkifier_url_template": true}`}})
	if l := a.body["realm_linkifiers"].([]any); len(l) != 1 {
		t.Errorf("realm_linkifiers with the capability: %v", l)
	}
}

// checkRegisterRealmValues checks the realm's limits and settings in a register answer,
// and its linkifiers without the linkifier_url_template capability.
func checkRegisterRealmValues(t *testing.T, b map[string]any) {
	t.Helper()
	if b["max_topic_length"] != 50.0 || b["max_stream_name_length"] != 60.0 || b["max_stream_description_length"] != 1024.0 ||
		b["max_message_length"] != 10000.0 || b["event_queue_longpoll_timeout_seconds"] != 90.0 ||
		b["realm_moderation_request_channel_id"] != -1.0 || b["realm_empty_topic_display_name"] != "general chat" {
		t.Errorf("realm values %v", b)
	}
	types := b["server_report_message_types"].([]any)
	if len(types) != 5 || fmt.Sprint(types[0]) != "map[key:spam name:Spam]" {
		t.Errorf("server_report_message_types %v", types)
	}
	if fmt.Sprint(b["realm_linkifiers"]) != "[]" || fmt.Sprint(b["realm_filters"]) != "[]" {
		t.Errorf("linkifiers without the capability: %v %v", b["realm_linkifiers"], b["realm_filters"])
	}
}

// checkRegisterUsers checks the users in a register answer: their statuses, the active
// and deactivated ones with their profile data, and the user's own keys.
func checkRegisterUsers(t *testing.T, b map[string]any) {
	t.Helper()
	statuses := b["user_status"].(map[string]any)
	var ids []string
	for k := range statuses {
		ids = append(ids, k)
	}
	sort.Strings(ids)
	if strings.Join(ids, ",") != "1,11,5" {
		t.Errorf("user_status keys %v", ids)
	}
	users := b["realm_users"].([]any)
	inactive := b["realm_non_active_users"].([]any)
	if len(users) != 11 || len(inactive) != 1 || inactive[0].(map[string]any)["user_id"] != float64(SeedDeactivatedID) {
		t.Errorf("%d active, inactive %v", len(users), inactive)
	}
	for _, u := range users {
		u := u.(map[string]any)
		if _, ok := u["profile_data"]; !ok && u["is_bot"] == false {
			t.Errorf("realm_users entry without profile_data: %v", u)
		}
	}
	if b["user_id"] != float64(SeedMemberID) || b["delivery_email"] != "mark@zulip.example.com" ||
		b["email"] != "user5@zulip.example.com" || b["is_admin"] != false || b["avatar_source"] != "G" {
		t.Errorf("own user keys %v", b)
	}
}

func TestRegisterStreamsPerRole(t *testing.T) {
	e := coreStart(t, Options{})
	names := func(userID int, caps string) string {
		form := url.Values{"fetch_event_types": {`["stream"]`}}
		if caps != "" {
			form.Set("client_capabilities", caps)
		}
		a := e.coreRequest(userID, http.MethodPost, "/register", form)
		coreWantOK(t, a)
		var out []string
		for _, s := range a.body["streams"].([]any) {
			out = append(out, fmt.Sprint(s.(map[string]any)["name"]))
		}
		sort.Strings(out)
		return strings.Join(out, ",")
	}
	if got := names(SeedGuestID, ""); strings.Contains(got, "design") || !strings.Contains(got, "random") || !strings.Contains(got, "announce") {
		t.Errorf("guest sees %s", got)
	}
	if got := names(SeedMemberID, ""); !strings.Contains(got, "design") || strings.Contains(got, "leadership") || strings.Contains(got, "old-projects") {
		t.Errorf("member sees %s", got)
	}
	if got := names(SeedAdmin2ID, ""); !strings.Contains(got, "leadership") {
		t.Errorf("administrator sees %s", got)
	}
	if got := names(SeedMemberID, `{"archived_channels": true}`); !strings.Contains(got, "old-projects") {
		t.Errorf("member with archived_channels sees %s", got)
	}
}

func TestRegisterParameterErrors(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"event_types": {`realm`}})
	coreWantError(t, a, 400, "BAD_REQUEST", "event_types is not valid JSON")
	a = e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"fetch_event_types": {`"realm"`}})
	coreWantError(t, a, 400, "BAD_REQUEST", "fetch_event_types is not a list")
	a = e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"client_gravatar": {`"yes"`}})
	coreWantError(t, a, 400, "BAD_REQUEST", "client_gravatar is not a boolean")
}

func TestRegisterFeatureLevelGates(t *testing.T) {
	e := coreStart(t, Options{FeatureLevel: 250})
	a := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{
		"fetch_event_types": {`["realm","saved_snippets"]`}})
	coreWantOK(t, a)
	for _, k := range []string{"saved_snippets", "server_report_message_types", "realm_moderation_request_channel_id",
		"realm_empty_topic_display_name", "realm_url"} {
		if _, ok := a.body[k]; ok {
			t.Errorf("%s sent at FL250", k)
		}
	}
	if a.body["zulip_feature_level"] != 250.0 {
		t.Errorf("feature level %v", a.body["zulip_feature_level"])
	}
}

func TestEventQueueLifecycle(t *testing.T) {
	clock := newCoreFakeClock()
	e := coreStart(t, Options{Clock: clock.Now})
	reg := e.coreRequest(SeedMemberID, http.MethodPost, "/register", url.Values{"event_types": {`["message"]`}})
	coreWantOK(t, reg)
	id := reg.body["queue_id"].(string)
	if got := e.srv.QueueIDs(SeedMemberID); len(got) != 1 || got[0] != id {
		t.Fatalf("queues %v", got)
	}
	a := e.coreRequest(SeedMemberID, http.MethodGet, "/events", url.Values{"queue_id": {id}, "last_event_id": {"-1"}, "dont_block": {"true"}})
	coreWantOK(t, a)
	if fmt.Sprint(a.body["events"]) != "[]" || a.body["queue_id"] != id {
		t.Errorf("events %v", a.body)
	}
	// Another user's queue is as unknown as a missing one, for GET and DELETE.
	for _, method := range []string{http.MethodGet, http.MethodDelete} {
		a = e.coreRequest(SeedOwnerID, method, "/events", url.Values{"queue_id": {id}, "last_event_id": {"-1"}})
		coreWantError(t, a, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+id)
		if a.body["queue_id"] != id {
			t.Errorf("queue_id %v", a.body["queue_id"])
		}
	}
	coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodDelete, "/events", url.Values{"queue_id": {id}}))
	for _, method := range []string{http.MethodDelete, http.MethodGet} {
		a = e.coreRequest(SeedMemberID, method, "/events", url.Values{"queue_id": {id}, "last_event_id": {"-1"}})
		coreWantError(t, a, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+id)
	}
	a = e.coreRequest(SeedMemberID, http.MethodDelete, "/events", url.Values{})
	coreWantError(t, a, 400, "REQUEST_VARIABLE_MISSING", "Missing 'queue_id' argument")
	a = e.coreRequest(SeedMemberID, http.MethodDelete, "/events", url.Values{"queue_id": {"nonsense"}})
	coreWantError(t, a, 400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: nonsense")

	// Idle queues are garbage-collected after 10 minutes; polling keeps them alive.
	kept := e.coreRequest(SeedMemberID, http.MethodPost, "/register", nil).body["queue_id"].(string)
	idle := e.coreRequest(SeedMemberID, http.MethodPost, "/register", nil).body["queue_id"].(string)
	clock.Advance(6 * time.Minute)
	poll := url.Values{"queue_id": {kept}, "last_event_id": {"-1"}, "dont_block": {"true"}}
	coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodGet, "/events", poll))
	clock.Advance(6 * time.Minute)
	coreWantOK(t, e.coreRequest(SeedMemberID, http.MethodGet, "/events", poll))
	coreWantError(t, e.coreRequest(SeedMemberID, http.MethodDelete, "/events", url.Values{"queue_id": {idle}}),
		400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID: "+idle)

	// Deactivating a user drops their queues.
	coreWantOK(t, e.coreRequest(SeedAdminID, http.MethodDelete, fmt.Sprintf("/users/%d", SeedMemberID), url.Values{}))
	if got := e.srv.QueueIDs(SeedMemberID); len(got) != 0 {
		t.Errorf("queues of a deactivated user: %v", got)
	}
}

func TestRegisterPermissionMatrix(t *testing.T) {
	e := coreStart(t, Options{})
	for _, role := range coreRoles {
		t.Run(role.name, func(t *testing.T) {
			a := e.coreRequest(role.id, http.MethodPost, "/register", url.Values{"fetch_event_types": {`["realm_user","user_topic"]`}})
			coreWantOK(t, a)
			id := a.body["queue_id"].(string)
			coreWantOK(t, e.coreRequest(role.id, http.MethodDelete, "/events", url.Values{"queue_id": {id}}))
		})
	}
}
