package zulip

import (
	"context"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/realmspec"
)

// TestUpdateRealm: each setting is encoded as update_realm declares it:
// names, languages and the enumerations of strings (topics_policy) as plain
// text, everything else as JSON, permissions as {new, old}.
func TestUpdateRealm(t *testing.T) {
	env := setup(t)
	env.handle("/realm", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		expectForm(t, r, map[string]string{"name": "Acme", "default_language": "de", "invite_required": "false",
			"message_retention_days": `"unlimited"`, "waiting_period_threshold": "3", "topics_policy": "disable_empty_topic",
			"can_create_groups": `{"new":2,"old":5}`})
		writeJSON(w, http.StatusOK, `{"result":"success","msg":""}`)
	})
	err := env.client.UpdateRealm(context.Background(), &RealmSettings{
		Name: ptr("Acme"), DefaultLanguage: ptr("de"), InviteRequired: ptr(false), MessageRetentionDays: &Limit{Unlimited: true},
		WaitingPeriodThreshold: ptr(int64(3)), TopicsPolicy: ptr("disable_empty_topic"),
		CanCreateGroups: &GroupSettingUpdate{New: GroupSettingValue{GroupID: ptr(int64(2))}, Old: &GroupSettingValue{GroupID: ptr(int64(5))}},
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestUpdateRealmUserDefaults: the defaults' view reads its enumerations of
// strings as plain text, and the rest as JSON.
func TestUpdateRealmUserDefaults(t *testing.T) {
	env := setup(t)
	env.handle("/realm/user_settings_defaults", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPatch)
		expectForm(t, r, map[string]string{"web_home_view": "inbox", "enter_sends": "true", "color_scheme": "2", "notification_sound": "ding"})
		writeJSON(w, http.StatusOK, `{"result":"success","msg":""}`)
	})
	err := env.client.UpdateRealmUserDefaults(context.Background(), &RealmUserDefaults{
		WebHomeView: ptr("inbox"), EnterSends: ptr(true), ColorScheme: ptr(int64(2)), NotificationSound: ptr("ding"),
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRealmSpec_documented checks internal/realmspec against the newest
// description: every organization setting is a realm_* key of the register
// answer, and every default for new users a key of
// realm_user_settings_defaults and a parameter of
// update-realm-user-settings-defaults, with the type its kind implies, the
// documented values, and a feature level not older than the one the
// description's text names.
func TestRealmSpec_documented(t *testing.T) {
	doc := loadOpenAPINewest(t)
	op := doc.Paths.Find("/register").Post
	props := map[string]*openapi3.Schema{}
	var walk func(s *openapi3.SchemaRef)
	walk = func(s *openapi3.SchemaRef) {
		if s == nil || s.Value == nil {
			return
		}
		for k, p := range s.Value.Properties {
			if strings.HasPrefix(k, "realm_") && props[k] == nil && p.Value != nil {
				props[k] = p.Value
			}
		}
		for _, x := range append(append(append([]*openapi3.SchemaRef{}, s.Value.AllOf...), s.Value.OneOf...), s.Value.AnyOf...) {
			walk(x)
		}
	}
	walk(op.Responses.Status(200).Value.Content.Get("application/json").Schema)
	for _, sp := range realmspec.Settings {
		checkDocumentedSetting(t, sp, props[sp.Register()])
	}
	defaults := props["realm_user_settings_defaults"]
	if defaults == nil {
		t.Fatal("the register answer documents no realm_user_settings_defaults")
	}
	_, params, ok := docOperation(doc, "PATCH", "/realm/user_settings_defaults")
	if !ok {
		t.Fatal("no operation PATCH /realm/user_settings_defaults")
	}
	for _, sp := range realmspec.UserDefaults {
		var p *openapi3.Schema
		if ref := defaults.Properties[sp.Name]; ref != nil {
			p = ref.Value
		}
		checkDocumentedSetting(t, sp, p)
		if d, ok := params[sp.Name]; !ok {
			t.Errorf("%s: update-realm-user-settings-defaults has no such parameter", sp.Name)
		} else if plain := sp.Kind == realmspec.Text || sp.Kind == realmspec.Language || sp.Plain; plain == d.json {
			t.Errorf("%s: the table encodes it %s, the description %s", sp.Name, map[bool]string{true: "plain", false: "as JSON"}[plain],
				map[bool]string{true: "as JSON", false: "plain"}[d.json])
		}
	}
}

// checkDocumentedSetting compares one setting with its documented schema.
func checkDocumentedSetting(t *testing.T, sp realmspec.Setting, p *openapi3.Schema) {
	t.Helper()
	wantType := map[realmspec.Kind]string{realmspec.Bool: "boolean", realmspec.Text: "string", realmspec.Language: "string",
		realmspec.IntEnum: "integer", realmspec.StringEnum: "string", realmspec.Count: "integer", realmspec.Limit: "integer",
		realmspec.Retention: "integer", realmspec.Channel: "integer", realmspec.JitsiURL: "string"}
	levels := regexp.MustCompile(`New in Zulip [0-9.]+ \(feature level (\d+)\)`)
	if p == nil {
		t.Errorf("%s: the register answer does not document it", sp.Name)
		return
	}
	if want, ok := wantType[sp.Kind]; ok && p.Type != nil && !p.Type.Is(want) {
		t.Errorf("%s: documented as %v, the table's kind means %s", sp.Name, p.Type, want)
	}
	if sp.Kind == realmspec.StringEnum && len(p.Enum) > 0 {
		for _, v := range sp.Values {
			if !slices.Contains(p.Enum, any(v.WireString())) {
				t.Errorf("%s: value %q is not among the documented %v", sp.Name, v.WireString(), p.Enum)
			}
		}
	}
	if m := levels.FindStringSubmatch(p.Description); m != nil {
		if fl, _ := strconv.Atoi(m[1]); fl > sp.FL {
			t.Errorf("%s: the description says feature level %d, the table %d", sp.Name, fl, sp.FL)
		}
	}
}

// TestDefaultChannelIDs: ids from feature level 330, channel objects before.
func TestDefaultChannelIDs(t *testing.T) {
	for _, raw := range []string{`[2, 7]`, `[{"stream_id": 2, "name": "a"}, {"stream_id": 7, "name": "b"}]`} {
		r := RegisterResponse{RealmDefaultStreams: []byte(raw)}
		ids, err := r.DefaultChannelIDs()
		if err != nil || !slices.Equal(ids, []int64{2, 7}) {
			t.Errorf("%s: %v, %v", raw, ids, err)
		}
	}
}

// expectForm fails unless the request's form is exactly want.
func expectForm(t *testing.T, r *http.Request, want map[string]string) {
	t.Helper()
	if err := r.ParseForm(); err != nil {
		t.Fatal(err)
	}
	for k, v := range want {
		if got := r.PostForm.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if len(r.PostForm) != len(want) {
		t.Errorf("sent %v", r.PostForm)
	}
}
