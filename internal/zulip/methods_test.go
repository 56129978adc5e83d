package zulip

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// methodCase is one API method: the request it must send and a call of it.
type methodCase struct {
	name   string
	method string
	path   string
	call   func(ctx context.Context, c *Client) error
}

// methodGroups are the groups of method cases; each group's file registers its own
// (methodGroup), so that a new group needs no edit here. TestMethods_groupsRegistered
// finds a group that is not.
var methodGroups []func() []methodCase

// notRetried are the methods that must not be retried once the server may have
// processed the request (creates, one-off actions, queue registration), as their
// groups declare them.
var notRetried = map[string]bool{}

// methodGroup registers a group of method cases and names those of its methods that
// must not be retried; a group's file registers it beside it, with those names.
func methodGroup(group func() []methodCase, once ...string) bool {
	methodGroups = append(methodGroups, group)
	for _, name := range once {
		notRetried[name] = true
	}
	return true
}

var (
	_ = methodGroup(methodCasesRealmLists, "CreateLinkifier", "CreateSavedSnippet", "AddRealmDomain")
	_ = methodGroup(methodCasesUsers, "CreateUser", "DeactivateUser", "ReactivateUser", "DeactivateOwnUser", "CreateChannel")
	_ = methodGroup(methodCasesRealmAndChannels, "ArchiveChannel", "CreateChannelFolder", "CreatePlayground",
		"CreateCustomProfileField", "CreateDefaultChannelGroup", "UpdateDefaultChannelGroup",
		"AddDefaultChannelGroupChannels", "RemoveDefaultChannelGroupChannels")
	_ = methodGroup(methodCasesGroupsAndMessages, "ReportMessage", "SendTestNotification", "SendE2EETestNotification",
		"CreateUserGroup", "DeactivateUserGroup", "UpdateUserGroupMembers", "UpdateUserGroupSubgroups")
	_ = methodGroup(methodCasesStateAndBots, "CreateBot", "DeactivateBot", "RegenerateBotAPIKey", "UploadCustomEmoji",
		"Register", "CreateRealmExport")
)

// methodCases lists every API method with the request it sends: the registered groups'.
func methodCases() []methodCase {
	var cases []methodCase
	for _, group := range methodGroups {
		cases = append(cases, group()...)
	}
	return cases
}

// ignore drops a method's result and keeps its error.
func ignore(_ any, err error) error { return err }

// methodCasesRealmLists: linkifiers, saved snippets and realm domains.
func methodCasesRealmLists() []methodCase {
	return []methodCase{
		{"ListLinkifiers", "GET", "/realm/linkifiers", func(ctx context.Context, c *Client) error { return ignore(c.ListLinkifiers(ctx)) }},
		{"CreateLinkifier", "POST", "/realm/filters", func(ctx context.Context, c *Client) error {
			return ignore(c.CreateLinkifier(ctx, LinkifierRequest{Pattern: "p", URLTemplate: "u"}))
		}},
		{"UpdateLinkifier", "PATCH", "/realm/filters/1", func(ctx context.Context, c *Client) error {
			return c.UpdateLinkifier(ctx, 1, LinkifierRequest{Pattern: "p", URLTemplate: "u"})
		}},
		{"DeleteLinkifier", "DELETE", "/realm/filters/1", func(ctx context.Context, c *Client) error { return c.DeleteLinkifier(ctx, 1) }},
		{"ReorderLinkifiers", "PATCH", "/realm/linkifiers", func(ctx context.Context, c *Client) error { return c.ReorderLinkifiers(ctx, nil) }},
		{"ListSavedSnippets", "GET", "/saved_snippets", func(ctx context.Context, c *Client) error { return ignore(c.ListSavedSnippets(ctx)) }},
		{"CreateSavedSnippet", "POST", "/saved_snippets", func(ctx context.Context, c *Client) error { return ignore(c.CreateSavedSnippet(ctx, "t", "c")) }},
		{"EditSavedSnippet", "PATCH", "/saved_snippets/1", func(ctx context.Context, c *Client) error {
			return c.EditSavedSnippet(ctx, 1, EditSavedSnippetRequest{Title: ptr("t")})
		}},
		{"DeleteSavedSnippet", "DELETE", "/saved_snippets/1", func(ctx context.Context, c *Client) error { return c.DeleteSavedSnippet(ctx, 1) }},
		{"ListRealmDomains", "GET", "/realm/domains", func(ctx context.Context, c *Client) error { return ignore(c.ListRealmDomains(ctx)) }},
		{"AddRealmDomain", "POST", "/realm/domains", func(ctx context.Context, c *Client) error { return ignore(c.AddRealmDomain(ctx, "x.com", false)) }},
		{"UpdateRealmDomain", "PATCH", "/realm/domains/x.com", func(ctx context.Context, c *Client) error { return c.UpdateRealmDomain(ctx, "x.com", true) }},
		{"DeleteRealmDomain", "DELETE", "/realm/domains/x.com", func(ctx context.Context, c *Client) error { return c.DeleteRealmDomain(ctx, "x.com") }},
	}
}

// methodCasesUsers: users, their topics and profile data, and channels.
func methodCasesUsers() []methodCase {
	return []methodCase{
		{"GetUser", "GET", "/users/1", func(ctx context.Context, c *Client) error { return ignore(c.GetUser(ctx, 1, GetUserOptions{})) }},
		{"GetUserByEmail", "GET", "/users/a@b.c", func(ctx context.Context, c *Client) error {
			return ignore(c.GetUserByEmail(ctx, "a@b.c", GetUserOptions{}))
		}},
		{"ListUsers", "GET", "/users", func(ctx context.Context, c *Client) error { return ignore(c.ListUsers(ctx, GetUserOptions{})) }},
		{"GetOwnUser", "GET", "/users/me", func(ctx context.Context, c *Client) error { return ignore(c.GetOwnUser(ctx)) }},
		{"CreateUser", "POST", "/users", func(ctx context.Context, c *Client) error {
			return ignore(c.CreateUser(ctx, CreateUserRequest{Email: "a@b.c", Password: "p", FullName: "A"}))
		}},
		{"UpdateUser", "PATCH", "/users/1", func(ctx context.Context, c *Client) error {
			return c.UpdateUser(ctx, 1, UpdateUserRequest{FullName: ptr("A")})
		}},
		{"DeactivateUser", "DELETE", "/users/1", func(ctx context.Context, c *Client) error { return c.DeactivateUser(ctx, 1, DeactivateUserRequest{}) }},
		{"ReactivateUser", "POST", "/users/1/reactivate", func(ctx context.Context, c *Client) error { return c.ReactivateUser(ctx, 1) }},
		{"DeactivateOwnUser", "DELETE", "/users/me", func(ctx context.Context, c *Client) error { return c.DeactivateOwnUser(ctx) }},
		{"SetUserTopic", "POST", "/user_topics", func(ctx context.Context, c *Client) error { return c.SetUserTopic(ctx, 1, "t", VisibilityPolicyMuted) }},
		{"ListUserTopics", "POST", "/register", func(ctx context.Context, c *Client) error { return ignore(c.ListUserTopics(ctx)) }},
		{"ListCustomProfileFields", "GET", "/realm/profile_fields", func(ctx context.Context, c *Client) error {
			return ignore(c.ListCustomProfileFields(ctx))
		}},
		{"UpdateOwnProfileData", "PATCH", "/users/me/profile_data", func(ctx context.Context, c *Client) error {
			return c.UpdateOwnProfileData(ctx, []ProfileDataItem{{ID: 1, Value: ProfileText("x")}})
		}},
		{"RemoveOwnProfileData", "DELETE", "/users/me/profile_data", func(ctx context.Context, c *Client) error {
			return c.RemoveOwnProfileData(ctx, []int64{1})
		}},
		{"ListChannels", "GET", "/streams", func(ctx context.Context, c *Client) error { return ignore(c.ListChannels(ctx, ListChannelsOptions{})) }},
		{"GetChannel", "GET", "/streams/1", func(ctx context.Context, c *Client) error { return ignore(c.GetChannel(ctx, 1)) }},
		{"ListTopics", "GET", "/users/me/1/topics", func(ctx context.Context, c *Client) error {
			return ignore(c.ListTopics(ctx, 1, ListTopicsOptions{}))
		}},
		{"CreateChannel", "POST", "/channels/create", func(ctx context.Context, c *Client) error {
			return ignore(c.CreateChannel(ctx, CreateChannelRequest{Name: "c"}))
		}},
		{"UpdateChannel", "PATCH", "/streams/1", func(ctx context.Context, c *Client) error {
			return c.UpdateChannel(ctx, 1, UpdateChannelRequest{Description: ptr("d")})
		}},
	}
}

// methodCasesRealmAndChannels: realm settings, playgrounds, custom profile fields, default channels, subscriptions and channel folders.
func methodCasesRealmAndChannels() []methodCase {
	return []methodCase{
		{"UpdateRealm", "PATCH", "/realm", func(ctx context.Context, c *Client) error {
			return c.UpdateRealm(ctx, &RealmSettings{Name: ptr("n")})
		}},
		{"UpdateRealmUserDefaults", "PATCH", "/realm/user_settings_defaults", func(ctx context.Context, c *Client) error {
			return c.UpdateRealmUserDefaults(ctx, &RealmUserDefaults{EnterSends: ptr(true), WebHomeView: ptr("inbox")})
		}},
		{"CreatePlayground", "POST", "/realm/playgrounds", func(ctx context.Context, c *Client) error {
			return ignore(c.CreatePlayground(ctx, PlaygroundRequest{Name: "n", PygmentsLanguage: "Go", URLTemplate: "https://x/{code}"}))
		}},
		{"DeletePlayground", "DELETE", "/realm/playgrounds/1", func(ctx context.Context, c *Client) error { return c.DeletePlayground(ctx, 1) }},
		{"ListPlaygrounds", "POST", "/register", func(ctx context.Context, c *Client) error { return ignore(c.ListPlaygrounds(ctx)) }},
		{"CreateCustomProfileField", "POST", "/realm/profile_fields", func(ctx context.Context, c *Client) error {
			return ignore(c.CreateCustomProfileField(ctx, ProfileFieldShortText, ProfileFieldRequest{Name: ptr("n")}))
		}},
		{"UpdateCustomProfileField", "PATCH", "/realm/profile_fields/1", func(ctx context.Context, c *Client) error {
			return c.UpdateCustomProfileField(ctx, 1, ProfileFieldRequest{Hint: ptr("h")})
		}},
		{"DeleteCustomProfileField", "DELETE", "/realm/profile_fields/1", func(ctx context.Context, c *Client) error { return c.DeleteCustomProfileField(ctx, 1) }},
		{"ReorderCustomProfileFields", "PATCH", "/realm/profile_fields", func(ctx context.Context, c *Client) error {
			return c.ReorderCustomProfileFields(ctx, []int64{2, 1})
		}},
		{"ListDefaultChannels", "POST", "/register", func(ctx context.Context, c *Client) error { return ignore(c.ListDefaultChannels(ctx)) }},
		{"ArchiveChannel", "DELETE", "/streams/1", func(ctx context.Context, c *Client) error { return c.ArchiveChannel(ctx, 1) }},
		{"AddDefaultChannel", "POST", "/default_streams", func(ctx context.Context, c *Client) error { return c.AddDefaultChannel(ctx, 1) }},
		{"RemoveDefaultChannel", "DELETE", "/default_streams", func(ctx context.Context, c *Client) error { return c.RemoveDefaultChannel(ctx, 1) }},
		{"Subscribe", "POST", "/users/me/subscriptions", func(ctx context.Context, c *Client) error {
			return ignore(c.Subscribe(ctx, SubscribeRequest{Subscriptions: []ChannelByName{{Name: "c"}}}))
		}},
		{"Unsubscribe", "DELETE", "/users/me/subscriptions", func(ctx context.Context, c *Client) error {
			return ignore(c.Unsubscribe(ctx, UnsubscribeRequest{Subscriptions: []string{"c"}}))
		}},
		{"GetChannelSubscribers", "GET", "/streams/1/members", func(ctx context.Context, c *Client) error {
			return ignore(c.GetChannelSubscribers(ctx, 1))
		}},
		{"ListChannelFolders", "GET", "/channel_folders", func(ctx context.Context, c *Client) error {
			return ignore(c.ListChannelFolders(ctx, ListChannelFoldersOptions{}))
		}},
		{"CreateChannelFolder", "POST", "/channel_folders/create", func(ctx context.Context, c *Client) error {
			return ignore(c.CreateChannelFolder(ctx, CreateChannelFolderRequest{Name: "f"}))
		}},
		{"UpdateChannelFolder", "PATCH", "/channel_folders/1", func(ctx context.Context, c *Client) error {
			return c.UpdateChannelFolder(ctx, 1, UpdateChannelFolderRequest{Name: ptr("f")})
		}},
		{"ReorderChannelFolders", "PATCH", "/channel_folders", func(ctx context.Context, c *Client) error {
			return c.ReorderChannelFolders(ctx, []int64{1})
		}},
		{"ListDefaultChannelGroups", "POST", "/register", func(ctx context.Context, c *Client) error { return ignore(c.ListDefaultChannelGroups(ctx)) }},
		{"CreateDefaultChannelGroup", "POST", "/default_stream_groups/create", func(ctx context.Context, c *Client) error {
			return c.CreateDefaultChannelGroup(ctx, CreateDefaultChannelGroupRequest{Name: "g"})
		}},
		{"UpdateDefaultChannelGroup", "PATCH", "/default_stream_groups/1", func(ctx context.Context, c *Client) error {
			return c.UpdateDefaultChannelGroup(ctx, 1, UpdateDefaultChannelGroupRequest{Name: ptr("g")})
		}},
		{"AddDefaultChannelGroupChannels", "PATCH", "/default_stream_groups/1/streams", func(ctx context.Context, c *Client) error {
			return c.AddDefaultChannelGroupChannels(ctx, 1, []string{"c"})
		}},
		{"RemoveDefaultChannelGroupChannels", "PATCH", "/default_stream_groups/1/streams", func(ctx context.Context, c *Client) error {
			return c.RemoveDefaultChannelGroupChannels(ctx, 1, []string{"c"})
		}},
		{"DeleteDefaultChannelGroup", "DELETE", "/default_stream_groups/1", func(ctx context.Context, c *Client) error { return c.DeleteDefaultChannelGroup(ctx, 1) }},
	}
}

// methodCasesGroupsAndMessages: user groups, user status, messages and push notifications.
func methodCasesGroupsAndMessages() []methodCase {
	return []methodCase{
		{"ListUserGroups", "GET", "/user_groups", func(ctx context.Context, c *Client) error {
			return ignore(c.ListUserGroups(ctx, ListUserGroupsOptions{}))
		}},
		{"CreateUserGroup", "POST", "/user_groups/create", func(ctx context.Context, c *Client) error {
			return ignore(c.CreateUserGroup(ctx, CreateUserGroupRequest{Name: "g"}))
		}},
		{"UpdateUserGroup", "PATCH", "/user_groups/1", func(ctx context.Context, c *Client) error {
			return c.UpdateUserGroup(ctx, 1, UpdateUserGroupRequest{Name: ptr("g")})
		}},
		{"DeactivateUserGroup", "POST", "/user_groups/1/deactivate", func(ctx context.Context, c *Client) error { return c.DeactivateUserGroup(ctx, 1) }},
		{"UpdateUserGroupMembers", "POST", "/user_groups/1/members", func(ctx context.Context, c *Client) error {
			return c.UpdateUserGroupMembers(ctx, 1, UpdateUserGroupMembersRequest{Add: []int64{2}})
		}},
		{"UpdateUserGroupSubgroups", "POST", "/user_groups/1/subgroups", func(ctx context.Context, c *Client) error {
			return c.UpdateUserGroupSubgroups(ctx, 1, UpdateUserGroupSubgroupsRequest{Add: []int64{2}})
		}},
		{"GetUserGroupMembers", "GET", "/user_groups/1/members", func(ctx context.Context, c *Client) error {
			return ignore(c.GetUserGroupMembers(ctx, 1, GetUserGroupMembersOptions{}))
		}},
		{"GetUserStatus", "GET", "/users/1/status", func(ctx context.Context, c *Client) error { return ignore(c.GetUserStatus(ctx, 1)) }},
		{"UpdateMessageFlags", "POST", "/messages/flags", func(ctx context.Context, c *Client) error {
			return ignore(c.UpdateMessageFlags(ctx, UpdateMessageFlagsRequest{Messages: []int64{1}, Op: FlagOpAdd, Flag: FlagStarred}))
		}},
		{"MatchesNarrow", "GET", "/messages/matches_narrow", func(ctx context.Context, c *Client) error {
			return ignore(c.MatchesNarrow(ctx, []int64{1}, []NarrowTerm{{Operator: "is", Operand: "starred"}}))
		}},
		{"ReportMessage", "POST", "/messages/1/report", func(ctx context.Context, c *Client) error {
			return c.ReportMessage(ctx, 1, ReportMessageRequest{ReportType: ReportTypeSpam})
		}},
		{"AddAPNsToken", "POST", "/users/me/apns_device_token", func(ctx context.Context, c *Client) error { return c.AddAPNsToken(ctx, "t", "a") }},
		{"RemoveAPNsToken", "DELETE", "/users/me/apns_device_token", func(ctx context.Context, c *Client) error { return c.RemoveAPNsToken(ctx, "t") }},
		{"SendTestNotification", "POST", "/mobile_push/test_notification", func(ctx context.Context, c *Client) error {
			return c.SendTestNotification(ctx, "")
		}},
		{"SendE2EETestNotification", "POST", "/mobile_push/e2ee/test_notification", func(ctx context.Context, c *Client) error {
			return c.SendE2EETestNotification(ctx, E2EETestNotificationRequest{})
		}},
	}
}

// methodCasesStateAndBots: registered state, custom emoji, bots, event queues, server settings, exports and the development login.
func methodCasesStateAndBots() []methodCase {
	return []methodCase{
		{"Register", "POST", "/register", func(ctx context.Context, c *Client) error { return ignore(c.Register(ctx, RegisterRequest{})) }},
		{"FetchState", "POST", "/register", func(ctx context.Context, c *Client) error { return ignore(c.FetchState(ctx, EventTypeRealm)) }},
		{"ListAllSubscribers", "POST", "/register", func(ctx context.Context, c *Client) error { return ignore(c.ListAllSubscribers(ctx)) }},
		{"ListCustomEmoji", "GET", "/realm/emoji", func(ctx context.Context, c *Client) error { return ignore(c.ListCustomEmoji(ctx)) }},
		{"UploadCustomEmoji", "POST", "/realm/emoji/ship_it", func(ctx context.Context, c *Client) error {
			return c.UploadCustomEmoji(ctx, "ship_it", "ship.png", "image/png", []byte("\x89PNG"))
		}},
		{"DeactivateCustomEmoji", "DELETE", "/realm/emoji/ship_it", func(ctx context.Context, c *Client) error {
			return c.DeactivateCustomEmoji(ctx, "ship_it")
		}},
		{"CreateBot", "POST", "/bots", func(ctx context.Context, c *Client) error {
			return ignore(c.CreateBot(ctx, CreateBotRequest{FullName: "B", ShortName: "b", BotType: BotTypeGeneric}))
		}},
		{"UpdateBot", "PATCH", "/bots/1", func(ctx context.Context, c *Client) error {
			return c.UpdateBot(ctx, 1, UpdateBotRequest{FullName: ptr("B")})
		}},
		{"DeactivateBot", "DELETE", "/bots/1", func(ctx context.Context, c *Client) error { return c.DeactivateBot(ctx, 1) }},
		{"GetBotAPIKey", "GET", "/bots/1/api_key", func(ctx context.Context, c *Client) error { return ignore(c.GetBotAPIKey(ctx, 1)) }},
		{"RegenerateBotAPIKey", "POST", "/bots/1/api_key/regenerate", func(ctx context.Context, c *Client) error {
			return ignore(c.RegenerateBotAPIKey(ctx, 1))
		}},
		{"ListRealmBots", "POST", "/register", func(ctx context.Context, c *Client) error { return ignore(c.ListRealmBots(ctx)) }},
		{"GetEvents", "GET", "/events", func(ctx context.Context, c *Client) error { return ignore(c.GetEvents(ctx, "q", -1)) }},
		{"DeleteQueue", "DELETE", "/events", func(ctx context.Context, c *Client) error { return c.DeleteQueue(ctx, "q") }},
		{"GetServerSettings", "GET", "/server_settings", func(ctx context.Context, c *Client) error { return ignore(c.GetServerSettings(ctx)) }},
		{"CreateRealmExport", "POST", "/export/realm", func(ctx context.Context, c *Client) error {
			return ignore(c.CreateRealmExport(ctx, ExportPublic, ExportTypeStringFeatureLevel))
		}},
		{"ListRealmExports", "GET", "/export/realm", func(ctx context.Context, c *Client) error { return ignore(c.ListRealmExports(ctx)) }},
		{"DeleteRealmExport", "DELETE", "/export/realm/1", func(ctx context.Context, c *Client) error { return c.DeleteRealmExport(ctx, 1) }},
		{"ListRealmExportConsents", "GET", "/export/realm/consents", func(ctx context.Context, c *Client) error {
			return ignore(c.ListRealmExportConsents(ctx))
		}},
		{"DevFetchAPIKey", "POST", "/dev_fetch_api_key", func(ctx context.Context, c *Client) error { return ignore(c.DevFetchAPIKey(ctx, "a@b.c")) }},
	}
}

// TestMethods_errorPath checks, for every API method, that an error answer comes back as an
// *APIError carrying the server's code and message and naming the request.
func TestMethods_errorPath(t *testing.T) {
	for _, mc := range methodCases() {
		t.Run(mc.name, func(t *testing.T) {
			env := setup(t)
			var calls int
			env.handle(mc.path, func(w http.ResponseWriter, r *http.Request) {
				calls++
				testMethod(t, r, mc.method)
				// A typed-parameter error as today's Zulip words it (zerver/lib/typed_endpoint.py,
				// parse_value_for_parameter): 400 BAD_REQUEST, the parameter named only in msg.
				writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"x is not an integer (`+mc.name+`)","code":"BAD_REQUEST"}`)
			})
			err := mc.call(context.Background(), env.client)
			apiErr := mustAPIError(t, err, http.StatusBadRequest, CodeBadRequest)
			if apiErr.Msg != "x is not an integer ("+mc.name+")" || apiErr.VarName() != "" {
				t.Errorf("APIError = %+v", apiErr)
			}
			if apiErr.Method != mc.method {
				t.Errorf("APIError.Method = %q, want %q", apiErr.Method, mc.method)
			}
			if calls != 1 {
				t.Errorf("%d requests for a 400 answer", calls)
			}
		})
	}
}

// TestMethods_allCovered keeps methodCases in step with the Client's API: a new method must
// get an error-path case.
func TestMethods_allCovered(t *testing.T) {
	notAPI := map[string]bool{"BaseURL": true, "HasCredentials": true}
	covered := map[string]bool{}
	for _, mc := range methodCases() {
		covered[mc.name] = true
	}
	typ := reflect.TypeFor[*Client]()
	var missing []string
	for i := range typ.NumMethod() {
		name := typ.Method(i).Name
		if !notAPI[name] && !covered[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("methods without an error-path case: %v", missing)
	}
}

// TestMethods_groupsRegistered finds in the package's test files every function that
// returns a group of method cases ([]methodCase, other than methodCases) and checks that
// it is registered once, so that no group's cases are left out of the method tests.
func TestMethods_groupsRegistered(t *testing.T) {
	registered := map[string]int{}
	for _, group := range methodGroups {
		name := runtime.FuncForPC(reflect.ValueOf(group).Pointer()).Name()
		registered[name[strings.LastIndex(name, ".")+1:]]++
	}
	fset, files := parsePackage(t, true)
	groups := 0
	for _, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name == "methodCases" || !returnsMethodCases(fn) {
				continue
			}
			groups++
			if n := registered[fn.Name.Name]; n != 1 {
				t.Errorf("%s: %s returns method cases but is registered %d times (var _ = methodGroup(%s))",
					fset.Position(fn.Pos()), fn.Name.Name, n, fn.Name.Name)
			}
		}
	}
	if groups != len(methodGroups) {
		t.Errorf("%d groups of method cases in the source, %d registered", groups, len(methodGroups))
	}
}

// returnsMethodCases tells a function without parameters that returns []methodCase.
func returnsMethodCases(fn *ast.FuncDecl) bool {
	res := fn.Type.Results
	if fn.Recv != nil || len(fn.Type.Params.List) != 0 || res == nil || len(res.List) != 1 {
		return false
	}
	arr, ok := res.List[0].Type.(*ast.ArrayType)
	if !ok || arr.Len != nil {
		return false
	}
	elt, ok := arr.Elt.(*ast.Ident)
	return ok && elt.Name == "methodCase"
}

// TestMethods_contextCancelled checks that every method honours its context.
func TestMethods_contextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, mc := range methodCases() {
		env := setup(t)
		env.handle(mc.path, func(w http.ResponseWriter, r *http.Request) {
			t.Errorf("%s: a request was sent with a cancelled context", mc.name)
		})
		if err := mc.call(ctx, env.client); err == nil {
			t.Errorf("%s: no error with a cancelled context", mc.name)
		}
	}
}

// TestMethods_retryPolicy sends every method a 503 followed by a success: idempotent methods
// must retry and succeed, the others must return the 503 after a single request.
func TestMethods_retryPolicy(t *testing.T) {
	names := map[string]bool{}
	for _, mc := range methodCases() {
		names[mc.name] = true
	}
	for name := range notRetried {
		if !names[name] {
			t.Errorf("%s is declared not retried, but no method case has that name", name)
		}
	}
	for _, mc := range methodCases() {
		t.Run(mc.name, func(t *testing.T) {
			env := setup(t)
			var calls int
			env.handle(mc.path, func(w http.ResponseWriter, r *http.Request) {
				calls++
				if calls == 1 {
					writeJSON(w, http.StatusServiceUnavailable, `{"result":"error","msg":"busy","code":"BAD_REQUEST"}`)
					return
				}
				success(w, `"new_domain":[1,"x.com"],"queue_id":"q"`)
			})
			if mc.path != "/events" {
				env.handle("/events", func(w http.ResponseWriter, r *http.Request) { success(w, "") })
			}
			err := mc.call(context.Background(), env.client)
			if notRetried[mc.name] {
				wantAPIError(t, err, http.StatusServiceUnavailable, "BAD_REQUEST")
				if calls != 1 {
					t.Errorf("a non-idempotent request was sent %d times", calls)
				}
				return
			}
			if err != nil || calls != 2 {
				t.Errorf("idempotent request: err %v after %d requests, want success after 2", err, calls)
			}
		})
	}
}

// TestRequests_declareIdempotency checks in the source that every request literal states
// its idempotency, so that none is retried (or not) by accident of a default.
func TestRequests_declareIdempotency(t *testing.T) {
	fset, files := parsePackage(t, false)
	found := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if id, ok := lit.Type.(*ast.Ident); !ok || id.Name != "request" {
				return true
			}
			found++
			for _, elt := range lit.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "idempotent" {
						return true
					}
				}
			}
			t.Errorf("%s: request literal without an explicit idempotent field", fset.Position(lit.Pos()))
			return true
		})
	}
	if found < 40 {
		t.Errorf("found only %d request literals; is the check looking at the right files?", found)
	}
}

// parsePackage parses the package's test files (tests) or its other files.
func parsePackage(t *testing.T, tests bool) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") != tests {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}
