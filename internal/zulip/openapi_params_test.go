package zulip

// The parameter check against Zulip's API description: every request a Client method
// sends must address a documented operation and carry only documented parameters, each
// in the encoding the description gives it, and every parameter the description requires.
//
//	ZULIP_OPENAPI_SPEC_NEWEST=/work/shared/reference/zulip-openapi-newest.yaml \
//	    go test ./internal/zulip/ -run ParametersDocumented -v
//
// Without the variable the test looks for the file in ../shared/reference beside the
// clone (as the GNUmakefile does) and skips when it is absent.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

const openAPINewestEnv = "ZULIP_OPENAPI_SPEC_NEWEST"

var openAPINewest struct {
	once sync.Once
	doc  *openapi3.T
	path string
	err  error
}

// loadOpenAPINewest loads the raw newest zulip.yaml once per test binary.
func loadOpenAPINewest(t *testing.T) *openapi3.T {
	t.Helper()
	path := os.Getenv(openAPINewestEnv)
	if path == "" {
		path = filepath.Join("..", "..", "..", "shared", "reference", "zulip-openapi-newest.yaml")
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("set %s to Zulip's raw zulip.yaml to check parameters against it (%v)", openAPINewestEnv, err)
	}
	openAPINewest.once.Do(func() {
		loader := openapi3.NewLoader()
		loader.IsExternalRefsAllowed = false
		openAPINewest.path = path
		openAPINewest.doc, openAPINewest.err = loader.LoadFromFile(path)
	})
	if openAPINewest.err != nil {
		t.Fatalf("loading %s: %v", openAPINewest.path, openAPINewest.err)
	}
	return openAPINewest.doc
}

// docParam is what the description says of one parameter of an operation.
type docParam struct {
	json     bool // JSON-encoded: an encoding or content of application/json
	plainStr bool // a plain string: type string and not JSON-encoded
	required bool
}

// docOperation finds the operation serving method and path (relative to /api/v1) and
// returns its template and its documented non-path parameters by name. When several
// templates match (/users/me and /users/{user_id}), the one with the most literal
// segments wins, as in Zulip's URL routing.
func docOperation(doc *openapi3.T, method, path string) (string, map[string]docParam, bool) {
	var best string
	var bestOp *openapi3.Operation
	var bestItem *openapi3.PathItem
	bestLiterals := -1
	segments := strings.Split(path, "/")
	for tmpl, item := range doc.Paths.Map() {
		op := item.GetOperation(method)
		if op == nil {
			continue
		}
		if literals, match := templateMatch(tmpl, segments); match && literals > bestLiterals {
			best, bestOp, bestItem, bestLiterals = tmpl, op, item, literals
		}
	}
	if bestOp == nil {
		return "", nil, false
	}
	params := map[string]docParam{}
	addDocParameters(params, append(append(openapi3.Parameters{}, bestItem.Parameters...), bestOp.Parameters...))
	addDocBodyFields(params, bestOp)
	return best, params, true
}

// templateMatch says whether the path template tmpl serves a path of these segments, and
// how many of its segments are literal.
func templateMatch(tmpl string, segments []string) (int, bool) {
	tsegs := strings.Split(tmpl, "/")
	if len(tsegs) != len(segments) {
		return 0, false
	}
	literals := 0
	match := true
	for i, ts := range tsegs {
		switch {
		case strings.HasPrefix(ts, "{") && strings.HasSuffix(ts, "}"):
			match = match && segments[i] != ""
		case ts == segments[i]:
			literals++
		default:
			match = false
		}
	}
	return literals, match
}

// addDocParameters adds the documented query (and header) parameters, not those in the path.
func addDocParameters(params map[string]docParam, refs openapi3.Parameters) {
	for _, ref := range refs {
		p := ref.Value
		if p == nil || p.In == openapi3.ParameterInPath {
			continue
		}
		d := docParam{required: p.Required}
		if mt := p.Content.Get("application/json"); mt != nil {
			d.json = true
		} else if p.Schema != nil && p.Schema.Value != nil && p.Schema.Value.Type.Is("string") {
			d.plainStr = true
		}
		params[p.Name] = d
	}
}

// addDocBodyFields adds the fields of the operation's form (or multipart) request body.
func addDocBodyFields(params map[string]docParam, op *openapi3.Operation) {
	if op.RequestBody == nil || op.RequestBody.Value == nil {
		return
	}
	mt := op.RequestBody.Value.Content.Get("application/x-www-form-urlencoded")
	if mt == nil {
		mt = op.RequestBody.Value.Content.Get("multipart/form-data") // uploads: a file and fields
	}
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return
	}
	schema := mt.Schema.Value
	required := map[string]bool{}
	for _, name := range schema.Required {
		required[name] = true
	}
	for name, prop := range schema.Properties {
		d := docParam{required: required[name]}
		if enc := mt.Encoding[name]; enc != nil && enc.ContentType == "application/json" {
			d.json = true
		} else if prop.Value != nil && prop.Value.Type.Is("string") {
			d.plainStr = true
		}
		params[name] = d
	}
}

// sentRequest is one request as the test server received it.
type sentRequest struct {
	method, path string
	values       url.Values // query and form body together
}

// fullCalls call the methods with every optional parameter set, so that each parameter a
// method can send is checked; the other methods are checked with their methodCases call.
func fullCalls() map[string]func(ctx context.Context, c *Client) error {

	value := groupID(1)
	update := &GroupSettingUpdate{New: *groupID(2), Old: groupID(1)}
	return map[string]func(ctx context.Context, c *Client) error{
		"CreateUserGroup": func(ctx context.Context, c *Client) error {
			return ignore(c.CreateUserGroup(ctx, CreateUserGroupRequest{Name: "g", Description: "d", Members: []int64{1}, Subgroups: []int64{2},
				Permissions: UserGroupPermissions{value, value, value, value, value, value}}))
		},
		"UpdateUserGroup": func(ctx context.Context, c *Client) error {
			return c.UpdateUserGroup(ctx, 1, UpdateUserGroupRequest{Name: ptr("g"), Description: ptr("d"), Reactivate: true,
				Permissions: UserGroupPermissionUpdates{update, update, update, update, update, update}})
		},
		"UpdateUserGroupMembers": func(ctx context.Context, c *Client) error {
			return c.UpdateUserGroupMembers(ctx, 1, UpdateUserGroupMembersRequest{Add: []int64{1}, Delete: []int64{2}, AddSubgroups: []int64{3}, DeleteSubgroups: []int64{4}})
		},
		"UpdateUserGroupSubgroups": func(ctx context.Context, c *Client) error {
			return c.UpdateUserGroupSubgroups(ctx, 1, UpdateUserGroupSubgroupsRequest{Add: []int64{1}, Delete: []int64{2}})
		},
		"GetUserGroupMembers": func(ctx context.Context, c *Client) error {
			return ignore(c.GetUserGroupMembers(ctx, 1, GetUserGroupMembersOptions{DirectMemberOnly: ptr(true)}))
		},
		"CreateChannel": func(ctx context.Context, c *Client) error {
			return ignore(c.CreateChannel(ctx, CreateChannelRequest{Name: "c", Description: ptr("d"), Subscribers: []int64{1},
				Announce: ptr(true), InviteOnly: ptr(true), IsWebPublic: ptr(false), HistoryPublicToSubscribers: ptr(true),
				IsDefaultStream: ptr(false), MessageRetentionDays: ptr(RetentionUnlimited), FolderID: ptr(int64(1)),
				TopicsPolicy: ptr(TopicsPolicyInherit), DefaultPushNotifications: ptr(true), Permissions: allChannelPermissions()}))
		},
		"UpdateChannel": func(ctx context.Context, c *Client) error {
			return c.UpdateChannel(ctx, 1, UpdateChannelRequest{NewName: ptr("c"), Description: ptr("d"), IsPrivate: ptr(true),
				IsWebPublic: ptr(false), HistoryPublicToSubscribers: ptr(true), IsDefaultStream: ptr(false),
				MessageRetentionDays: ptr(RetentionDays(3)), DefaultPushNotifications: ptr(true), FolderID: ptr(int64(1)),
				TopicsPolicy: ptr(TopicsPolicyInherit), Unarchive: true,
				Permissions: ChannelPermissionUpdates{update, update, update, update, update, update, update, update, update, update, update}})
		},
		"Subscribe": func(ctx context.Context, c *Client) error {
			return ignore(c.Subscribe(ctx, SubscribeRequest{Subscriptions: []ChannelByName{{Name: "c", Description: ptr("d")}},
				Principals: []int64{1}, AuthorizationErrorsFatal: ptr(false), Announce: ptr(true), SendNewSubscriptionMessages: ptr(false),
				InviteOnly: ptr(true), IsWebPublic: ptr(false), HistoryPublicToSubscribers: ptr(true), IsDefaultStream: ptr(false),
				MessageRetentionDays: ptr(RetentionRealmDefault), TopicsPolicy: ptr(TopicsPolicyInherit), FolderID: ptr(int64(1)),
				DefaultPushNotifications: ptr(true), Permissions: allChannelPermissions()}))
		},
		"Unsubscribe": func(ctx context.Context, c *Client) error {
			return ignore(c.Unsubscribe(ctx, UnsubscribeRequest{Subscriptions: []string{"c"}, Principals: []int64{1}}))
		},
		"ListChannelFolders": func(ctx context.Context, c *Client) error {
			return ignore(c.ListChannelFolders(ctx, ListChannelFoldersOptions{IncludeArchived: ptr(true)}))
		},
		"UpdateChannelFolder": func(ctx context.Context, c *Client) error {
			return c.UpdateChannelFolder(ctx, 1, UpdateChannelFolderRequest{Name: ptr("f"), Description: ptr("d"), IsArchived: ptr(true)})
		},
		"CreateCustomProfileField": func(ctx context.Context, c *Client) error {
			return ignore(c.CreateCustomProfileField(ctx, ProfileFieldSelect, ProfileFieldRequest{Name: ptr("n"), Hint: ptr("h"),
				FieldData: ptr(`{"a":{"text":"A","order":"1"}}`), DisplayInProfileSummary: ptr(true), Required: ptr(true),
				EditableByUser: ptr(false), UseForUserMatching: ptr(false)}))
		},
		"UpdateCustomProfileField": func(ctx context.Context, c *Client) error {
			return c.UpdateCustomProfileField(ctx, 1, ProfileFieldRequest{Name: ptr("n"), Hint: ptr("h"),
				FieldData: ptr(`{"a":{"text":"A","order":"1"}}`), DisplayInProfileSummary: ptr(true), Required: ptr(true),
				EditableByUser: ptr(false), UseForUserMatching: ptr(false)})
		},
		"ListUserGroups": func(ctx context.Context, c *Client) error {
			return ignore(c.ListUserGroups(ctx, ListUserGroupsOptions{IncludeDeactivatedGroups: ptr(true)}))
		},
		"ListChannels": func(ctx context.Context, c *Client) error {
			t := ptr(true)
			return ignore(c.ListChannels(ctx, ListChannelsOptions{t, t, t, t, t, t, t, t, t}))
		},
	}
}

// TestMethods_parametersDocumented sends every method's request to a recording server and
// checks it against the newest API description (see the top of this file).
func TestMethods_parametersDocumented(t *testing.T) {
	doc := loadOpenAPINewest(t)
	full := fullCalls()
	for name := range full {
		if !hasMethodCase(name) {
			t.Errorf("fullCalls names %s, which has no methodCases entry", name)
		}
	}
	for _, mc := range methodCases() {
		call := mc.call
		if f, ok := full[mc.name]; ok {
			call = f
		}
		t.Run(mc.name, func(t *testing.T) {
			if why, ok := undocumentedOperations[mc.name]; ok {
				t.Skip(why)
			}
			env := setup(t)
			var mu sync.Mutex
			var sent []sentRequest
			record := func(w http.ResponseWriter, r *http.Request) {
				values := url.Values{}
				if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
					if err := r.ParseMultipartForm(1 << 20); err != nil {
						t.Errorf("parsing multipart body: %v", err)
					} else {
						values = r.MultipartForm.Value
						for name := range r.MultipartForm.File {
							values[name] = append(values[name], "(file)")
						}
					}
				} else {
					body, err := io.ReadAll(r.Body)
					if err != nil {
						t.Errorf("reading body: %v", err)
					}
					if values, err = url.ParseQuery(string(body)); err != nil {
						t.Errorf("parsing body %q: %v", body, err)
					}
				}
				for k, v := range r.URL.Query() {
					values[k] = append(values[k], v...)
				}
				mu.Lock()
				sent = append(sent, sentRequest{r.Method, strings.TrimPrefix(r.URL.Path, "/api/v1"), values})
				mu.Unlock()
				success(w, `"new_domain":[1,"x.com"],"queue_id":"q"`)
			}
			env.handle(mc.path, record)
			if mc.path != "/events" {
				env.handle("/events", record)
			}
			_ = call(context.Background(), env.client) // only the requests matter here
			mu.Lock()
			defer mu.Unlock()
			if len(sent) == 0 {
				t.Fatal("no request was sent")
			}
			for _, req := range sent {
				for _, problem := range undocumented(doc, req) {
					t.Error(problem)
				}
			}
		})
	}
}

// undocumentedOperations are the methods whose endpoint no description has,
// and what checks them instead.
var undocumentedOperations = map[string]string{
	"CreateBot": "POST /bots is among Zulip's pending endpoints; its parameters are add_bot_backend's, and the " +
		"reference server's tests (internal/refserver/bots_test.go) pin them",
	"UpdateBot": "PATCH /bots/{bot_id} is among Zulip's pending endpoints; its parameters are patch_bot_backend's, " +
		"pinned by internal/refserver/bots_test.go",
	"DeactivateBot": "DELETE /bots/{bot_id} is among Zulip's pending endpoints (deactivate_bot_backend); " +
		"internal/refserver/bots_test.go pins it",
	"UpdateRealm": "PATCH /realm is still among Zulip's pending endpoints; its parameters are internal/realmspec's, " +
		"which TestRealmSpec_documented checks against the register snapshot's realm_* keys",
	"UploadRealmIcon":                   "POST /realm/icon is among Zulip's pending endpoints (upload_icon); internal/refserver/branding_test.go pins it",
	"DeleteRealmIcon":                   "DELETE /realm/icon is among Zulip's pending endpoints (delete_icon_backend); internal/refserver/branding_test.go pins it",
	"UploadRealmLogo":                   "POST /realm/logo is among Zulip's pending endpoints (upload_logo, with night); internal/refserver/branding_test.go pins it",
	"DeleteRealmLogo":                   "DELETE /realm/logo is among Zulip's pending endpoints (delete_logo_backend, with night); internal/refserver/branding_test.go pins it",
	"CreateDefaultChannelGroup":         defaultChannelGroupsPending,
	"UpdateDefaultChannelGroup":         defaultChannelGroupsPending,
	"AddDefaultChannelGroupChannels":    defaultChannelGroupsPending,
	"RemoveDefaultChannelGroupChannels": defaultChannelGroupsPending,
	"DeleteDefaultChannelGroup":         defaultChannelGroupsPending,
}

// defaultChannelGroupsPending is why the default channel group endpoints are not checked here.
const defaultChannelGroupsPending = "/default_stream_groups is among Zulip's pending (experimental) endpoints; its " +
	"parameters are zerver/views/streams.py's, pinned by the reference server's conformance cases " +
	"(internal/refserver/conformance_cases_default_channel_groups_test.go) and default_channel_groups_test.go"

func hasMethodCase(name string) bool {
	for _, mc := range methodCases() {
		if mc.name == name {
			return true
		}
	}
	return false
}

// undocumented lists the ways one request departs from the description.
func undocumented(doc *openapi3.T, req sentRequest) []string {
	tmpl, params, ok := docOperation(doc, req.method, req.path)
	if !ok {
		return []string{fmt.Sprintf("%s %s: no such operation in the description", req.method, req.path)}
	}
	var problems []string
	names := make([]string, 0, len(req.values))
	for name := range req.values {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		d, ok := params[name]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s %s: parameter %q is not documented", req.method, tmpl, name))
			continue
		}
		for _, v := range req.values[name] {
			switch {
			case d.json && !json.Valid([]byte(v)):
				problems = append(problems, fmt.Sprintf("%s %s: %s=%q is not JSON, but the description marks it JSON-encoded", req.method, tmpl, name, v))
			case d.plainStr && strings.HasPrefix(v, `"`):
				problems = append(problems, fmt.Sprintf("%s %s: %s=%q is JSON-quoted, but the description makes it a plain string", req.method, tmpl, name, v))
			}
		}
	}
	var missing []string
	for name, d := range params {
		if d.required && req.values[name] == nil {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	for _, name := range missing {
		problems = append(problems, fmt.Sprintf("%s %s: the required parameter %q was not sent", req.method, tmpl, name))
	}
	return problems
}

// TestUndocumented_catches checks that the check finds each kind of departure, so that a
// passing TestMethods_parametersDocumented means something.
func TestUndocumented_catches(t *testing.T) {
	doc := loadOpenAPINewest(t)
	tests := []struct {
		req  sentRequest
		want string
	}{
		{sentRequest{"PATCH", "/streams/7", url.Values{"name": {"x"}}}, `parameter "name" is not documented`},
		{sentRequest{"PATCH", "/streams/7", url.Values{"topics_policy": {`"inherit"`}}}, `is JSON-quoted`},
		{sentRequest{"POST", "/channels/create", url.Values{"name": {"x"}, "subscribers": {"[1]"}, "topics_policy": {"inherit"}}}, `is not JSON`},
		{sentRequest{"POST", "/user_groups/create", url.Values{"name": {"x"}, "description": {""}}}, `required parameter "members"`},
		{sentRequest{"PUT", "/streams/7", nil}, `no such operation`},
		{sentRequest{"GET", "/user_groups/3/members", url.Values{"direct_member_only": {"true"}}}, ""},
		{sentRequest{"GET", "/users/me", nil}, ""},
	}
	for _, tt := range tests {
		got := strings.Join(undocumented(doc, tt.req), "\n")
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%s %s %v: got %q, want %q", tt.req.method, tt.req.path, tt.req.values, got, tt.want)
		}
	}
}
