package refserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// chatEnv is a reference server under test with an HTTP front end.
type chatEnv struct {
	t   *testing.T
	srv *Server
	ts  *httptest.Server
}

// chatNew starts a fresh server; opts may adjust its options.
func chatNew(t *testing.T, opts ...func(*Options)) *chatEnv {
	t.Helper()
	var o Options
	for _, f := range opts {
		f(&o)
	}
	srv, err := New(o)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &chatEnv{t: t, srv: srv, ts: ts}
}

// chatAt fixes the server clock.
func chatAt(at time.Time) func(*Options) {
	return func(o *Options) { o.Clock = func() time.Time { return at } }
}

// chatLevel sets the advertised feature level.
func chatLevel(fl int) func(*Options) { return func(o *Options) { o.FeatureLevel = fl } }

// chatDo sends a form-encoded request as user (query string for GET) and
// returns the status and decoded body.
func (e *chatEnv) chatDo(user int, method, path string, form url.Values) (int, map[string]any) {
	e.t.Helper()
	u, ok := e.srv.User(user)
	if !ok {
		e.t.Fatalf("no user %d", user)
	}
	target := e.ts.URL + "/api/v1" + path
	var body io.Reader
	if method == http.MethodGet {
		if len(form) > 0 {
			target += "?" + form.Encode()
		}
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.SetBasicAuth(u.Email, u.APIKey)
	resp, err := e.ts.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer func() {
		if err := resp.Body.Close(); err != nil {
			e.t.Errorf("%s %s: closing the body: %v", method, path, err)
		}
	}()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		e.t.Fatalf("%s %s: bad JSON %q", method, path, raw)
	}
	return resp.StatusCode, out
}

// chatOK sends a request that must succeed and returns the body.
func (e *chatEnv) chatOK(user int, method, path string, form url.Values) map[string]any {
	e.t.Helper()
	status, body := e.chatDo(user, method, path, form)
	if status != http.StatusOK || body["result"] != "success" {
		e.t.Fatalf("%s %s as %d: %d %v", method, path, user, status, body)
	}
	return body
}

// chatFail sends a request that must fail with the given status, code and message.
func (e *chatEnv) chatFail(user int, method, path string, form url.Values, status int, code, msg string) map[string]any {
	e.t.Helper()
	got, body := e.chatDo(user, method, path, form)
	if got != status || body["result"] != "error" || body["code"] != code || body["msg"] != msg {
		e.t.Fatalf("%s %s as %d: got %d %v, want %d %s %q", method, path, user, got, body, status, code, msg)
	}
	return body
}

// chatForm builds url.Values from key/value pairs.
func chatForm(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// chatJSON re-encodes a decoded value, for compact comparisons (without
// escaping HTML, so that rendered fields read as sent).
func chatJSON(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// chatNames lists the channel names of a GET /streams answer, in order.
func chatNames(body map[string]any) []string {
	names := []string{}
	for _, s := range body["streams"].([]any) {
		names = append(names, s.(map[string]any)["name"].(string))
	}
	return names
}

var chatAllActive = []string{"announce", "backend-internal", "design", "frontend-ops", "general", "leadership", "moderation-requests", "random"}

func TestChatStreamsFilters(t *testing.T) {
	e := chatNew(t)
	cases := []struct {
		name string
		user int
		form url.Values
		want []string
	}{
		{"owner default", SeedOwnerID, nil, []string{"announce", "design", "general", "leadership", "moderation-requests", "random"}},
		{"admin default", SeedAdminID, nil, []string{"announce", "design", "general", "leadership", "moderation-requests", "random"}},
		{"admin without subscriptions", SeedAdmin2ID, nil, []string{"announce", "general", "random"}},
		{"moderator default", SeedModeratorID, nil, []string{"announce", "general", "moderation-requests", "random"}},
		{"member default", SeedMemberID, nil, []string{"announce", "design", "general", "random"}},
		{"guest default: subscribed only", SeedGuestID, nil, []string{"general", "random"}},
		{"bot default", SeedBotID, nil, []string{"announce", "general", "random"}},
		{"include_public=false drops unsubscribed public", SeedMember2ID, chatForm("include_public", "false"), []string{"general", "random"}},
		{"include_subscribed=false drops private subscriptions", SeedMemberID, chatForm("include_subscribed", "false"), []string{"announce", "general", "random"}},
		{"exclude_archived=false", SeedMemberID, chatForm("exclude_archived", "false"), []string{"announce", "design", "general", "old-projects", "random"}},
		{"nothing requested", SeedMemberID, chatForm("include_public", "false", "include_subscribed", "false"), []string{}},
		{"web-public only", SeedMemberID, chatForm("include_public", "false", "include_subscribed", "false", "include_web_public", "true"), []string{"announce"}},
		{"guest include_public is ignored", SeedGuestID, chatForm("include_public", "true"), []string{"general", "random"}},
		{"guest include_web_public", SeedGuestID, chatForm("include_web_public", "true"), []string{"announce", "general", "random"}},
		{"admin include_all: every channel", SeedAdmin2ID, chatForm("include_all", "true"), chatAllActive},
		{"admin include_all with archived", SeedAdmin2ID, chatForm("include_all", "true", "exclude_archived", "false"),
			[]string{"announce", "backend-internal", "design", "frontend-ops", "general", "leadership", "moderation-requests", "old-projects", "random"}},
		{"admin include_all_active (deprecated)", SeedAdminID, chatForm("include_all_active", "true"), chatAllActive},
		{"admin content access excludes metadata-only channels", SeedAdmin2ID, chatForm("include_can_access_content", "true"),
			[]string{"announce", "design", "general", "leadership", "moderation-requests", "random"}},
		{"member include_all: can_subscribe_group grants metadata", SeedMemberID, chatForm("include_all", "true"),
			[]string{"announce", "backend-internal", "design", "general", "random"}},
		{"member content access through can_subscribe_group", SeedMemberID, chatForm("include_can_access_content", "true"),
			[]string{"announce", "backend-internal", "design", "general", "random"}},
		{"administering group grants metadata", SeedMember2ID, chatForm("include_all", "true"), []string{"announce", "frontend-ops", "general", "random"}},
		{"administering group grants no content", SeedMember2ID, chatForm("include_can_access_content", "true"), []string{"announce", "general", "random"}},
		// user_has_metadata_access (zerver/lib/streams.py): web-public
		// channels are visible to every role, guests included.
		{"guest include_all", SeedGuestID, chatForm("include_all", "true"), []string{"announce", "general", "random"}},
		{"guest content access includes web-public", SeedGuestID, chatForm("include_can_access_content", "true"), []string{"announce", "general", "random"}},
		// Since FL356 include_all_active is an alias of include_all, for
		// every role (get_streams_backend in zerver/views/streams.py).
		{"member include_all_active", SeedMemberID, chatForm("include_all_active", "true"),
			[]string{"announce", "backend-internal", "design", "general", "random"}},
		{"guest include_all_active", SeedGuestID, chatForm("include_all_active", "true"), []string{"announce", "general", "random"}},
		{"moderator include_all_active", SeedModeratorID, chatForm("include_all_active", "true"), []string{"announce", "general", "moderation-requests", "random"}},
		{"bot with its owner's subscriptions", SeedBotID, chatForm("include_owner_subscribed", "true"), []string{"announce", "design", "general", "random"}},
		{"include_owner_subscribed ignored for humans", SeedMemberID, chatForm("include_owner_subscribed", "true", "include_public", "false"), []string{"announce", "design", "general", "random"}},
		{"bot owner's subscriptions alone", SeedBotID, chatForm("include_owner_subscribed", "true", "include_public", "false", "include_subscribed", "false"),
			[]string{"announce", "design", "general", "random"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			body := e.chatOK(tc.user, http.MethodGet, "/streams", tc.form)
			if got := chatNames(body); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if _, ok := body["ignored_parameters_unsupported"]; ok {
				t.Errorf("unexpected ignored parameters: %v", body["ignored_parameters_unsupported"])
			}
		})
	}
}

func TestChatStreamsErrors(t *testing.T) {
	e := chatNew(t)
	e.chatFail(SeedMemberID, http.MethodGet, "/streams", chatForm("include_public", "yes"), 400, "BAD_REQUEST", "include_public is not valid JSON")
	e.chatFail(SeedMemberID, http.MethodGet, "/streams", chatForm("include_all", "1"), 400, "BAD_REQUEST", "include_all is not a boolean")
}

// Before FL356, include_all_active was for administrators only (do_get_streams
// refused it to everyone else); include_all did not exist yet.
func TestChatStreamsIncludeAllActiveBeforeFL356(t *testing.T) {
	e := chatNew(t, chatLevel(355))
	for _, user := range []int{SeedModeratorID, SeedMemberID, SeedGuestID, SeedBotID} {
		e.chatFail(user, http.MethodGet, "/streams", chatForm("include_all_active", "true"), 400, "BAD_REQUEST", "User not authorized for this query")
	}
	body := e.chatOK(SeedAdmin2ID, http.MethodGet, "/streams", chatForm("include_all_active", "true"))
	if got := chatNames(body); !reflect.DeepEqual(got, chatAllActive) {
		t.Errorf("admin: %v", got)
	}
	body = e.chatOK(SeedMemberID, http.MethodGet, "/streams", chatForm("include_all", "true"))
	if chatJSON(body["ignored_parameters_unsupported"]) != `["include_all"]` {
		t.Errorf("include_all at FL355: %v", body["ignored_parameters_unsupported"])
	}
}

func TestChatStreamsIncludeDefault(t *testing.T) {
	e := chatNew(t)
	body := e.chatOK(SeedMemberID, http.MethodGet, "/streams", chatForm("include_default", "true"))
	for _, s := range body["streams"].([]any) {
		ch := s.(map[string]any)
		want := ch["name"] == "general" || ch["name"] == "announce"
		if ch["is_default"] != want {
			t.Errorf("%v: is_default = %v, want %v", ch["name"], ch["is_default"], want)
		}
	}
	body = e.chatOK(SeedMemberID, http.MethodGet, "/streams", nil)
	for _, s := range body["streams"].([]any) {
		if _, ok := s.(map[string]any)["is_default"]; ok {
			t.Errorf("is_default without include_default: %v", s)
		}
	}
}

// chatStream returns one channel object of GET /streams?include_all=true as the owner.
func chatStream(e *chatEnv, name string) map[string]any {
	e.t.Helper()
	body := e.chatOK(SeedOwnerID, http.MethodGet, "/streams", chatForm("include_all", "true", "exclude_archived", "false"))
	for _, s := range body["streams"].([]any) {
		if s.(map[string]any)["name"] == name {
			return s.(map[string]any)
		}
	}
	e.t.Fatalf("no channel %q", name)
	return nil
}

func TestChatChannelWire(t *testing.T) {
	// Ten days after the seed: general is 9 days old with 5 messages in that
	// time, frontend-ops one day old.
	e := chatNew(t, chatAt(seedBase.Add(10*24*time.Hour)))
	general := chatStream(e, "general")
	var keys []string
	for k := range general {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	wantKeys := []string{"can_add_subscribers_group", "can_administer_channel_group", "can_create_topic_group",
		"can_delete_any_message_group", "can_delete_own_message_group", "can_move_messages_out_of_channel_group",
		"can_move_messages_within_channel_group", "can_remove_subscribers_group", "can_resolve_topics_group",
		"can_send_message_group", "can_subscribe_group", "creator_id", "date_created", "default_push_notifications", "description",
		"first_message_id", "folder_id", "history_public_to_subscribers", "invite_only", "is_announcement_only",
		"is_archived", "is_recently_active", "is_web_public", "message_retention_days", "name",
		"rendered_description", "stream_id", "stream_post_policy", "stream_weekly_traffic", "subscriber_count", "topics_policy"}
	if !reflect.DeepEqual(keys, wantKeys) {
		t.Errorf("keys:\n got %v\nwant %v", keys, wantKeys)
	}
	want := map[string]any{
		"stream_id": 1.0, "name": "general", "description": "Everyone is here.", "rendered_description": "<p>Everyone is here.</p>",
		"creator_id": 1.0, "first_message_id": 1.0, "invite_only": false, "is_web_public": false, "is_archived": false,
		"history_public_to_subscribers": true, "message_retention_days": nil, "is_recently_active": true,
		"stream_weekly_traffic": 4.0, "subscriber_count": 10.0, "folder_id": nil, "topics_policy": "inherit",
		"stream_post_policy": 1.0, "is_announcement_only": false, "date_created": float64(seedBase.Unix() + 24*3600),
		"can_administer_channel_group": map[string]any{"direct_members": []any{1.0}, "direct_subgroups": []any{}},
		"can_send_message_group":       float64(GroupEveryone), "can_resolve_topics_group": float64(GroupNobody),
	}
	for k, v := range want {
		if !reflect.DeepEqual(general[k], v) {
			t.Errorf("general.%s = %#v, want %#v", k, general[k], v)
		}
	}
	announce := chatStream(e, "announce")
	for k, v := range map[string]any{
		"rendered_description": "<p>Announcements, <strong>readable on the web</strong>.</p>",
		"is_web_public":        true, "stream_post_policy": 2.0, "is_announcement_only": true,
		"can_send_message_group": float64(GroupAdministrators), "stream_weekly_traffic": 1.0, "subscriber_count": 4.0,
	} {
		if !reflect.DeepEqual(announce[k], v) {
			t.Errorf("announce.%s = %#v, want %#v", k, announce[k], v)
		}
	}
	ops := chatStream(e, "frontend-ops")
	for k, v := range map[string]any{
		"rendered_description": "<p>Administered by &lt;frontend&gt;.</p>", "creator_id": nil, "first_message_id": nil,
		"stream_weekly_traffic": nil, "is_recently_active": false, "invite_only": true, "topics_policy": "disable_empty_topic",
		"history_public_to_subscribers": false, "can_administer_channel_group": float64(GroupFrontend),
	} {
		if !reflect.DeepEqual(ops[k], v) {
			t.Errorf("frontend-ops.%s = %#v, want %#v", k, ops[k], v)
		}
	}
	old := chatStream(e, "old-projects")
	if old["message_retention_days"] != -1.0 || old["is_archived"] != true || old["subscriber_count"] != 2.0 {
		t.Errorf("old-projects: %v", old)
	}
}

func TestChatChannelWireFeatureLevels(t *testing.T) {
	e := chatNew(t, chatLevel(300))
	body := e.chatOK(SeedMemberID, http.MethodGet, "/streams", chatForm("exclude_archived", "false", "include_all", "true"))
	if got := chatJSON(body["ignored_parameters_unsupported"]); got != `["exclude_archived","include_all"]` {
		t.Errorf("ignored parameters = %s", got)
	}
	for _, name := range chatNames(body) {
		if name == "old-projects" {
			t.Errorf("archived channel served before FL315")
		}
	}
	ch := body["streams"].([]any)[0].(map[string]any)
	for _, k := range []string{"is_archived", "is_recently_active", "folder_id", "subscriber_count", "topics_policy",
		"can_add_subscribers_group", "can_subscribe_group", "can_send_message_group"} {
		if _, ok := ch[k]; ok {
			t.Errorf("%s served at FL300", k)
		}
	}
	for _, k := range []string{"creator_id", "stream_weekly_traffic", "can_remove_subscribers_group"} {
		if _, ok := ch[k]; !ok {
			t.Errorf("%s missing at FL300", k)
		}
	}
}

func TestChatGetStreamByID(t *testing.T) {
	e := chatNew(t)
	cases := []struct {
		user, id int
		ok       bool
	}{
		{SeedOwnerID, SeedChannelLeaders, true},
		{SeedAdmin2ID, SeedChannelLeaders, true}, // administrators see every channel's metadata
		{SeedModeratorID, SeedChannelLeaders, false},
		{SeedMemberID, SeedChannelLeaders, false},
		{SeedGuestID, SeedChannelLeaders, false},
		{SeedBotID, SeedChannelLeaders, false},
		{SeedMemberID, SeedChannelArchived, true},
		{SeedMemberID, SeedChannelBackendOnly, true},
		{SeedMember2ID, SeedChannelFrontendOps, true},
		{SeedGuestID, SeedChannelGeneral, true},
		{SeedGuestID, SeedChannelAnnounce, true}, // web-public
		{SeedGuestID, SeedChannelArchived, false},
		{SeedBotID, SeedChannelRandom, true},
		{SeedOwnerID, 999, false},
	}
	for _, tc := range cases {
		path := "/streams/" + chatItoa(tc.id)
		if tc.ok {
			body := e.chatOK(tc.user, http.MethodGet, path, nil)
			if s := body["stream"].(map[string]any); s["stream_id"] != float64(tc.id) {
				t.Errorf("%s: %v", path, s)
			}
		} else {
			e.chatFail(tc.user, http.MethodGet, path, nil, 400, "BAD_REQUEST", "Invalid channel ID")
		}
	}
	// <int:stream_id> in zproject/urls.py: a non-integer id matches no route.
	srv, ts := cfgServer(t, 0)
	cfgWantNoRoute(t, srv, ts, SeedOwnerID, http.MethodGet, "/streams/abc", nil)
}

func TestChatGetStreamID(t *testing.T) {
	e := chatNew(t)
	for _, tc := range []struct {
		user int
		name string
		id   int
	}{
		{SeedMemberID, "general", 1}, {SeedMemberID, "GENERAL", 1}, {SeedMemberID, "design", 3},
		{SeedGuestID, "random", 7}, {SeedGuestID, "announce", 2}, {SeedBotID, "announce", 2}, {SeedMemberID, "backend-internal", 8},
		{SeedOwnerID, "leadership", 4},
	} {
		body := e.chatOK(tc.user, http.MethodGet, "/get_stream_id", chatForm("stream", tc.name))
		if body["stream_id"] != float64(tc.id) {
			t.Errorf("%s as %d: %v", tc.name, tc.user, body)
		}
	}
	for _, tc := range []struct {
		user int
		name string
	}{
		{SeedMemberID, "leadership"}, {SeedGuestID, "design"}, {SeedOwnerID, "nope"},
		{SeedOwnerID, "old-projects"}, {SeedMember2ID, "frontend-ops"},
	} {
		e.chatFail(tc.user, http.MethodGet, "/get_stream_id", chatForm("stream", tc.name), 400, "BAD_REQUEST", "Invalid channel name '"+tc.name+"'")
	}
	body := e.chatFail(SeedOwnerID, http.MethodGet, "/get_stream_id", nil, 400, "REQUEST_VARIABLE_MISSING", "Missing 'stream' argument")
	if body["var_name"] != "stream" {
		t.Errorf("var_name: %v", body)
	}
}

func TestChatTopics(t *testing.T) {
	e := chatNew(t)
	cases := []struct {
		name    string
		user    int
		channel int
		form    url.Values
		want    string
	}{
		{"newest first", SeedMemberID, SeedChannelGeneral, nil,
			`[{"max_id":13,"name":"releases"},{"max_id":3,"name":"lunch"},{"max_id":2,"name":"welcome"}]`},
		{"empty topic shown with the display name", SeedMemberID, SeedChannelRandom, nil,
			`[{"max_id":14,"name":"general chat"},{"max_id":11,"name":"cats"}]`},
		{"empty topic kept with allow_empty_topic_name", SeedGuestID, SeedChannelRandom, chatForm("allow_empty_topic_name", "true"),
			`[{"max_id":14,"name":""},{"max_id":11,"name":"cats"}]`},
		{"protected history: only after subscribing", SeedMemberID, SeedChannelDesign, nil, `[{"max_id":12,"name":"colors"}]`},
		{"protected history: subscribed from the start", SeedOwnerID, SeedChannelDesign, nil,
			`[{"max_id":12,"name":"colors"},{"max_id":7,"name":"logo"}]`},
		{"public channel, not subscribed", SeedMember2ID, SeedChannelAnnounce, nil, `[{"max_id":5,"name":"news"}]`},
		{"web-public channel, guest not subscribed", SeedGuestID, SeedChannelAnnounce, nil, `[{"max_id":5,"name":"news"}]`},
		{"private channel readable through can_add_subscribers_group", SeedAdmin2ID, SeedChannelLeaders, nil, `[{"max_id":8,"name":"planning"}]`},
		{"content access through can_subscribe_group, no messages", SeedMemberID, SeedChannelBackendOnly, nil, `[]`},
		{"bot", SeedBotID, SeedChannelGeneral, nil,
			`[{"max_id":13,"name":"releases"},{"max_id":3,"name":"lunch"},{"max_id":2,"name":"welcome"}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			body := e.chatOK(tc.user, http.MethodGet, "/users/me/"+chatItoa(tc.channel)+"/topics", tc.form)
			if got := chatJSON(body["topics"]); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	e.t = t
	for _, tc := range []struct{ user, channel int }{
		{SeedMemberID, SeedChannelLeaders}, {SeedGuestID, SeedChannelDesign}, {SeedOwnerID, SeedChannelArchived},
		{SeedMember2ID, SeedChannelFrontendOps}, {SeedModeratorID, SeedChannelDesign}, {SeedOwnerID, 999},
	} {
		e.chatFail(tc.user, http.MethodGet, "/users/me/"+chatItoa(tc.channel)+"/topics", nil, 400, "BAD_REQUEST", "Invalid channel ID")
	}
	// Topics are grouped case-insensitively; the newest message names the topic.
	e.srv.Do(func(r *Realm) {
		e.srv.postChannelMessage(r.Channels[SeedChannelGeneral], "LUNCH", SeedOwnerID, "Tacos instead?")
	})
	body := e.chatOK(SeedMemberID, http.MethodGet, "/users/me/1/topics", nil)
	if got := chatJSON(body["topics"]); got != `[{"max_id":15,"name":"LUNCH"},{"max_id":13,"name":"releases"},{"max_id":2,"name":"welcome"}]` {
		t.Errorf("after a new message: %s", got)
	}
}

func TestChatRenderMarkdown(t *testing.T) {
	r := seedRealm("zulip.example.com", seedBase)
	for src, want := range map[string]string{
		"":                            "",
		"plain & <simple>":            "<p>plain &amp; &lt;simple&gt;</p>",
		"**bold** and *it*":           "<p><strong>bold</strong> and <em>it</em></p>",
		"line1\nline2\n\npara2":       "<p>line1<br>\nline2</p>\n<p>para2</p>",
		"see https://example.com/x.":  `<p>see <a href="https://example.com/x">https://example.com/x</a>.</p>`,
		"hi @**Mark Member**":         `<p>hi <span class="user-mention" data-user-id="5">@Mark Member</span></p>`,
		"by @_**Mei Member|11**":      `<p>by <span class="user-mention silent" data-user-id="11">Mei Member</span></p>`,
		"`**not bold**`":              "<p><code>**not bold**</code></p>",
		"go to #**general**":          `<p>go to <a class="stream" data-stream-id="1" href="/#narrow/channel/1-general">#general</a></p>`,
		"```quote\nquoted\n```":       "<blockquote>\n<p>quoted</p>\n</blockquote>",
		"- one\n- **two**":            "<ul>\n<li>one</li>\n<li><strong>two</strong></li>\n</ul>",
		"```\n<code> & stuff\n```":    "<div class=\"codehilite\"><pre><span></span><code>&lt;code&gt; &amp; stuff\n</code></pre></div>",
		"#**random>cats@10** is cute": `<p><a class="stream-topic" data-stream-id="7" href="/#narrow/channel/7-random/topic/cats/near/10">#random &gt; cats @ 💬</a> is cute</p>`,
	} {
		if got := renderChatMarkdown(r, src); got != want {
			t.Errorf("render(%q)\n got %q\nwant %q", src, got, want)
		}
	}
}

// chatItoa formats an int for paths.
func chatItoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestChannelDefaultPushNotifications: feature level 507 stores a channel's
// default_push_notifications (create, subscribe-to-create, update) and shows
// it on the channel; an older level does not show it (API changelog, feature
// level 507: DefaultPushNotifications).
func TestChannelDefaultPushNotifications(t *testing.T) {
	e := coreStart(t, Options{})
	a := e.coreRequest(SeedAdminID, http.MethodPost, "/channels/create", url.Values{"name": {"pushy"},
		"subscribers": {"[]"}, "default_push_notifications": {"true"}})
	coreWantOK(t, a)
	id := strconv.Itoa(int(a.body["id"].(float64)))
	get := func() any {
		g := e.coreRequest(SeedAdminID, http.MethodGet, "/streams/"+id, nil)
		coreWantOK(t, g)
		return g.body["stream"].(map[string]any)["default_push_notifications"]
	}
	if got := get(); got != true {
		t.Fatalf("created with true: %v", got)
	}
	coreWantOK(t, e.coreRequest(SeedAdminID, http.MethodPatch, "/streams/"+id, url.Values{"default_push_notifications": {"false"}}))
	if got := get(); got != false {
		t.Fatalf("updated to false: %v", got)
	}
	coreWantOK(t, e.coreRequest(SeedAdminID, http.MethodPatch, "/streams/"+id, url.Values{"description": {"x"}}))
	if got := get(); got != false {
		t.Fatalf("left alone: %v", got)
	}
	coreWantOK(t, e.coreRequest(SeedAdminID, http.MethodPost, "/users/me/subscriptions", url.Values{
		"subscriptions": {`[{"name": "pushy-too"}]`}, "default_push_notifications": {"true"}}))
	all := e.coreRequest(SeedAdminID, http.MethodGet, "/streams", nil)
	found := false
	for _, s := range all.body["streams"].([]any) {
		if ch := s.(map[string]any); ch["name"] == "pushy-too" {
			found = ch["default_push_notifications"] == true
		}
	}
	if !found {
		t.Errorf("subscribing created pushy-too without its default: %v", all.body["streams"])
	}
	old := coreStart(t, Options{FeatureLevel: 506})
	g := old.coreRequest(SeedAdminID, http.MethodGet, "/streams/1", nil)
	coreWantOK(t, g)
	if _, ok := g.body["stream"].(map[string]any)["default_push_notifications"]; ok {
		t.Error("feature level 506 shows default_push_notifications")
	}
}
