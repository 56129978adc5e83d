package refserver

import "strings"

// untypedViews are the routes whose Zulip view is not wrapped in
// @typed_endpoint. Only typed_endpoint computes ignored_parameters_unsupported
// (zerver/lib/typed_endpoint.py: the parameters of request.POST and
// request.GET it did not process, added to a 2xx MutableJsonResponse), so
// these views answer without it whatever the request carried. Each entry names
// the view of newest Zulip; every other route's view is a typed_endpoint.
var untypedViews = map[string]string{
	"GET /realm/linkifiers":                     "zerver/views/realm_linkifiers.py list_linkifiers",
	"DELETE /realm/filters/{filter_id}":         "zerver/views/realm_linkifiers.py delete_linkifier",
	"GET /realm/domains":                        "zerver/views/realm_domains.py list_realm_domains",
	"GET /saved_snippets":                       "zerver/views/saved_snippets.py get_saved_snippets",
	"DELETE /saved_snippets/{saved_snippet_id}": "zerver/views/saved_snippets.py delete_saved_snippet",
	"GET /realm/profile_fields":                 "zerver/views/custom_profile_fields.py list_realm_custom_profile_fields",
	"DELETE /realm/profile_fields/{field_id}":   "zerver/views/custom_profile_fields.py delete_realm_custom_profile_field",
	"GET /users/me":                             "zerver/views/users.py get_profile_backend",
	"DELETE /users/me":                          "zerver/views/users.py deactivate_user_own_backend",
	"POST /users/{user_id}/reactivate":          "zerver/views/users.py reactivate_user_backend",
	"GET /users/{user_id}/status":               "zerver/views/presence.py get_status_backend",
	"GET /server_settings":                      "zerver/views/auth.py api_get_server_settings",
}

// reportsIgnoredParams reports whether the view serving the request's route
// reports ignored_parameters_unsupported.
func reportsIgnoredParams(pattern string) bool {
	method, path, _ := strings.Cut(pattern, " ")
	for _, prefix := range []string{"/api/v1", "/json"} {
		if rest, ok := strings.CutPrefix(path, prefix); ok {
			path = rest
			break
		}
	}
	_, untyped := untypedViews[method+" "+path]
	return !untyped
}
