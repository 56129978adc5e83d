package refserver_test

import (
	"errors"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func init() {
	confAreas["exports"] = confCasesExports
	confAllowances = append(confAllowances, confAllowance{
		"get_realm_export_consents_200_response_allOf_export_consents_inner", "email_address_visibility", 430, `{"type":"integer"}`})
	confNewestDeviations = append(confNewestDeviations, confDeviation{
		what: "GET /export/realm, GET /events (realm_export): export_type is the integer or the string of the advertised level",
		reason: "feature level 449 changed export_type from an integer (1, 2) to a string (public, full_with_consent, " +
			"full_without_consent); each description documents one side of the change (the FL420 file the integer, " +
			"the newest the string) while the suites run servers of both levels; which one the server sends at which " +
			"level is checked by TestExports_featureLevels",
		source: "API changelog, feature level 449; zerver/views/realm_export.py export_realm",
		fl420:  true,
		patch: func(doc *openapi3.T) error {
			ref := doc.Components.Schemas["RealmExport"]
			if ref == nil || ref.Value == nil || ref.Value.Properties["export_type"] == nil {
				return errors.New("no RealmExport.export_type")
			}
			ints := openapi3.NewIntegerSchema()
			ints.Enum = []any{1, 2}
			strs := openapi3.NewStringSchema()
			strs.Enum = []any{"public", "full_with_consent", "full_without_consent"}
			ref.Value.Properties["export_type"] = openapi3.NewSchemaRef("", &openapi3.Schema{
				AnyOf: openapi3.SchemaRefs{openapi3.NewSchemaRef("", ints), openapi3.NewSchemaRef("", strs)}})
			return nil
		},
	})
}

// confCasesExports are the conformance requests of data exports, at the
// description's level (integer export types) and at the newest (strings).
func confCasesExports(add func(confGroup)) {
	for _, v := range []struct {
		suffix                 string
		fl                     int
		public, full, fullNone string
		minFL                  int // of the steps that send export_type (the suites run the newest groups at 420 too)
	}{{"", 420, "1", "2", "3", 0}, {", newest", 0, "public", "full_with_consent", "full_without_consent", 449}} {
		typed := func(st confStep) confStep { return confFL(st, v.minFL, 0) }
		add(confGroup{op: "export-realm", name: "export-realm" + v.suffix, opts: refserver.Options{FeatureLevel: v.fl}, steps: []confStep{
			confCapture(confOK("register", "register-queue", confAdmin, confPOST, "/register", confP("event_types", `["realm_export"]`)), "queue_id", "queue_id"),
			typed(confOK("public", "export-realm", confAdmin, confPOST, "/export/realm", confP("export_type", v.public))),
			typed(confOK("full with consent", "export-realm", confOwner, confPOST, "/export/realm", confP("export_type", v.full))),
			confOK("the default", "export-realm", confAdmin, confPOST, "/export/realm", nil),
			confBad("not an administrator", "export-realm", confMod, confPOST, "/export/realm", nil, 400, "UNAUTHORIZED_PRINCIPAL"),
			typed(confBad("an unknown type", "export-realm", confAdmin, confPOST, "/export/realm", confP("export_type", v.fullNone+"9"), 400, "BAD_REQUEST")),
			confOK("pending", "get-realm-exports", confAdmin, confGET, "/export/realm", nil),
			confOK("the events", "get-events", confAdmin, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
		}})
		limit := []confStep{}
		for range 5 {
			limit = append(limit, confOK("under the limit", "export-realm", confAdmin, confPOST, "/export/realm", nil))
		}
		add(confGroup{op: "export-realm", name: "export-realm (limit" + v.suffix + ")", noAuth: true, opts: refserver.Options{FeatureLevel: v.fl},
			steps: append(limit, confBad("over the limit", "export-realm", confAdmin, confPOST, "/export/realm", nil, 400, "BAD_REQUEST"))})
		add(confGroup{op: "get-realm-exports", name: "get-realm-exports" + v.suffix, noAuth: v.suffix != "",
			opts: refserver.Options{FeatureLevel: v.fl, ExportDuration: -1}, steps: []confStep{
				confOK("none", "get-realm-exports", confAdmin, confGET, "/export/realm", nil),
				confCapture(confOK("one", "export-realm", confAdmin, confPOST, "/export/realm", nil), "export_id", "id"),
				confOK("succeeded", "get-realm-exports", confOwner, confGET, "/export/realm", nil),
				confOK("deleted", "delete-realm-export", confAdmin, confDELETE, "/export/realm/${export_id}", nil),
				confOK("after the deletion", "get-realm-exports", confAdmin, confGET, "/export/realm", nil),
				confBad("not an administrator", "get-realm-exports", confMember, confGET, "/export/realm", nil, 400, "UNAUTHORIZED_PRINCIPAL"),
			}})
		add(confGroup{op: "get-realm-exports", name: "get-realm-exports (failed" + v.suffix + ")", noAuth: true,
			opts: refserver.Options{FeatureLevel: v.fl, ExportDuration: -1, ExportFailure: true}, steps: []confStep{
				confCapture(confOK("one", "export-realm", confAdmin, confPOST, "/export/realm", nil), "export_id", "id"),
				confOK("failed", "get-realm-exports", confAdmin, confGET, "/export/realm", nil),
				confBad("delete a failed one", "delete-realm-export", confAdmin, confDELETE, "/export/realm/${export_id}", nil, 400, "BAD_REQUEST"),
			}})
		add(confGroup{op: "delete-realm-export", name: "delete-realm-export" + v.suffix, noAuth: v.suffix != "",
			opts: refserver.Options{FeatureLevel: v.fl}, steps: []confStep{
				confCapture(confOK("one", "export-realm", confAdmin, confPOST, "/export/realm", nil), "export_id", "id"),
				confBad("in progress", "delete-realm-export", confAdmin, confDELETE, "/export/realm/${export_id}", nil, 400, "BAD_REQUEST"),
				confBad("unknown", "delete-realm-export", confAdmin, confDELETE, "/export/realm/99", nil, 400, "BAD_REQUEST"),
				confBad("not an administrator", "delete-realm-export", confMember, confDELETE, "/export/realm/${export_id}", nil, 400, "UNAUTHORIZED_PRINCIPAL"),
			}})
		add(confGroup{op: "get-realm-export-consents", name: "get-realm-export-consents" + v.suffix, noAuth: v.suffix != "",
			opts: refserver.Options{FeatureLevel: v.fl}, steps: []confStep{
				confOK("consents", "get-realm-export-consents", confAdmin, confGET, "/export/realm/consents", nil),
				confBad("not an administrator", "get-realm-export-consents", confMod, confGET, "/export/realm/consents", nil, 400, "UNAUTHORIZED_PRINCIPAL"),
			}})
	}
}
