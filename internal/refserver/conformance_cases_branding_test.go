package refserver_test

import "github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"

func init() { confAreas["branding"] = confCasesBranding }

// confCasesBranding are the requests of the organization's icon and logos,
// which the description does not document (checked for the envelope), and
// register's realm section that shows them.
func confCasesBranding(add func(confGroup)) {
	png := [2]string{"image/png", confPNG}
	add(confGroup{op: "upload-realm-icon", steps: []confStep{
		confUpload(confOK("upload", "upload-realm-icon", confAdmin, confPOST, "/realm/icon", nil), png),
		confOK("register shows it", "register-queue", confMember, confPOST, "/register", confP("fetch_event_types", `["realm"]`)),
		confUpload(confBad("a member", "upload-realm-icon", confMember, confPOST, "/realm/icon", nil, 400, "UNAUTHORIZED_PRINCIPAL"), png),
		confBad("no file", "upload-realm-icon", confAdmin, confPOST, "/realm/icon", nil, 400, "BAD_REQUEST"),
		confUpload(confBad("not an image", "upload-realm-icon", confAdmin, confPOST, "/realm/icon", nil, 400, "BAD_IMAGE"), [2]string{"text/plain", "hello"}),
	}})
	add(confGroup{op: "delete-realm-icon", steps: []confStep{
		confOK("back to the identicon", "delete-realm-icon", confAdmin, confDELETE, "/realm/icon", nil),
		confBad("a member", "delete-realm-icon", confMember, confDELETE, "/realm/icon", nil, 400, "UNAUTHORIZED_PRINCIPAL"),
	}})
	add(confGroup{op: "upload-realm-logo", steps: []confStep{
		confUpload(confOK("day", "upload-realm-logo", confAdmin, confPOST, "/realm/logo", confP("night", "false")), png),
		confUpload(confOK("night", "upload-realm-logo", confAdmin, confPOST, "/realm/logo", confP("night", "true")), png),
		confOK("register shows them", "register-queue", confMember, confPOST, "/register", confP("fetch_event_types", `["realm"]`)),
		confUpload(confBad("night missing", "upload-realm-logo", confAdmin, confPOST, "/realm/logo", nil, 400, "REQUEST_VARIABLE_MISSING"), png),
		confUpload(confBefore(confBad("the limited plan", "upload-realm-logo", confAdmin, confPOST, "/realm/logo", confP("night", "false"), 400, "BAD_REQUEST"),
			func(s *refserver.Server) { s.Do(func(r *refserver.Realm) { r.PlanType = 2 }) }), png),
	}})
	add(confGroup{op: "delete-realm-logo", steps: []confStep{
		confOK("night", "delete-realm-logo", confAdmin, confDELETE, "/realm/logo", confP("night", "true")),
		confBad("a member", "delete-realm-logo", confMember, confDELETE, "/realm/logo", confP("night", "false"), 400, "UNAUTHORIZED_PRINCIPAL"),
	}})
}
