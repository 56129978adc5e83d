package refserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestUntypedViewsAreRoutes keeps untypedViews true to the routes: each entry
// must be a route the server serves, in both URL trees, so that a renamed or
// moved route cannot leave a dead entry behind while its view starts reporting
// ignored parameters.
func TestUntypedViewsAreRoutes(t *testing.T) {
	e := coreStart(t, Options{})
	fill := strings.NewReplacer("{domain}", "example.org", "{user_id}", "1", "{filter_id}", "1",
		"{saved_snippet_id}", "1", "{field_id}", "1")
	for route := range untypedViews {
		method, path, _ := strings.Cut(route, " ")
		for _, prefix := range []string{"/api/v1", "/json"} {
			req := httptest.NewRequest(method, prefix+fill.Replace(path), nil)
			if _, pattern := e.srv.mux.Handler(req); pattern != method+" "+prefix+path {
				t.Errorf("%s: %s %s is served by %q", route, method, req.URL.Path, pattern)
			}
		}
	}
}

// TestUntypedWritesReportNoIgnoredParameters: the untyped views that change
// something answer a request with an unknown parameter without
// ignored_parameters_unsupported, since only typed_endpoint computes it
// (zerver/lib/typed_endpoint.py, _wrapped_view_func); the views are plain
// functions in newest Zulip: delete_linkifier (zerver/views/realm_linkifiers.py),
// delete_saved_snippet (zerver/views/saved_snippets.py),
// delete_realm_custom_profile_field (zerver/views/custom_profile_fields.py),
// reactivate_user_backend and deactivate_user_own_backend
// (zerver/views/users.py). Their typed neighbours, sent the same parameter,
// do report it (edit_saved_snippet, deactivate_user_backend).
func TestUntypedWritesReportNoIgnoredParameters(t *testing.T) {
	e := coreStart(t, Options{})
	bogus := func(kv ...string) url.Values {
		v := url.Values{"bogus": {"1"}}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	cases := []struct {
		user         int
		method, path string
		form         url.Values
		reports      bool
	}{
		{SeedOwnerID, http.MethodDelete, "/realm/filters/1", bogus(), false},
		{SeedMemberID, http.MethodPatch, "/saved_snippets/2", bogus("title", "Renamed"), true},
		{SeedMemberID, http.MethodDelete, "/saved_snippets/2", bogus(), false},
		{SeedAdminID, http.MethodDelete, "/realm/profile_fields/" + strconv.Itoa(FieldIDWebsite), bogus(), false},
		{SeedAdminID, http.MethodPost, "/users/" + strconv.Itoa(SeedDeactivatedID) + "/reactivate", bogus(), false},
		{SeedAdminID, http.MethodDelete, "/users/" + strconv.Itoa(SeedGuestID), bogus(), true},
		{SeedModeratorID, http.MethodDelete, "/users/me", bogus(), false},
	}
	for _, tc := range cases {
		a := e.coreRequest(tc.user, tc.method, tc.path, tc.form)
		coreWantOK(t, a)
		got, ok := a.body["ignored_parameters_unsupported"]
		switch {
		case tc.reports && fmt.Sprint(got) != "[bogus]":
			t.Errorf("%s %s (a typed_endpoint): ignored_parameters_unsupported = %v", tc.method, tc.path, got)
		case !tc.reports && ok:
			t.Errorf("%s %s (not a typed_endpoint) reports ignored_parameters_unsupported %v", tc.method, tc.path, got)
		}
	}
}
