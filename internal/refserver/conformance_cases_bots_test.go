package refserver_test

import (
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func init() {
	confAreas["bots"] = confCasesBots
	confNewestDeviations = append(confNewestDeviations, confDeviation{
		what: "realm_bot objects below feature level 474 carry email, full_name, bot_type, is_active, api_key, avatar_url and owner_id",
		reason: "the raw file documents only the shape since feature level 474, when these fields were removed " +
			"(its own Bot changelog says so); a server below it sends them, as the FL420 file describes. The " +
			"groups run at level 420 are validated against the raw file too, so the fields are allowed at every " +
			"level; TestBotRealmBotWire checks that the default level sends the newest shape",
		source: "zerver/lib/bot_lib.py / zerver/actions/create_user.py created_bot_event before FL474; the Bot schema's Changes note",
		patch: func(doc *openapi3.T) error {
			old := map[string]*openapi3.Schema{
				"email": openapi3.NewStringSchema(), "full_name": openapi3.NewStringSchema(),
				"bot_type": openapi3.NewIntegerSchema().WithNullable(), "is_active": openapi3.NewBoolSchema(),
				"api_key": openapi3.NewStringSchema(), "avatar_url": openapi3.NewStringSchema(),
				"owner_id": openapi3.NewIntegerSchema().WithNullable(),
			}
			found := false
			confVisitAll(doc, func(s *openapi3.Schema) {
				p := s.Properties
				if p == nil || p["user_id"] == nil || p["default_all_public_streams"] == nil || p["services"] == nil {
					return
				}
				found = true
				for name, schema := range old {
					if p[name] == nil {
						p[name] = openapi3.NewSchemaRef("", schema)
					}
				}
			})
			if !found {
				return errBotSchemaMissing
			}
			return nil
		},
	})
}

// errBotSchemaMissing is the bot deviation's failure to find the schemas.
var errBotSchemaMissing = confError("no realm_bot object schema")

// confError is a constant error.
type confError string

func (e confError) Error() string { return string(e) }

// confCasesBots are the conformance requests of the bot endpoints; POST,
// PATCH and DELETE /bots are not in the description (envelope only).
func confCasesBots(add func(confGroup)) {
	key := func(name string, user int, path string, status int, code string) confStep {
		return confStep{name: name, op: "get-bot-api-key", user: user, method: confGET, path: path, status: status, code: code}
	}
	// GET /bots/{bot_id}/api_key is new at FL463: its group runs at the
	// default level. The generated 429 step reads GET /users/me, which at
	// that level has fields the FL420 description lacks, so the group is
	// marked noAuth and its wrong-key step is written out here.
	add(confGroup{op: "get-bot-api-key", noAuth: true, opts: refserver.Options{FeatureLevel: refserver.DefaultFeatureLevel}, steps: []confStep{
		key("owner of the bot", confMember, "/bots/8/api_key", 200, ""),
		key("administrator", confAdmin2, "/bots/8/api_key", 200, ""),
		key("someone else's bot", confMember, "/bots/12/api_key", 400, "BAD_REQUEST"),
		key("a human", confAdmin, "/bots/5/api_key", 400, "BAD_REQUEST"),
		key("unknown id", confAdmin, "/bots/999/api_key", 400, "BAD_REQUEST"),
		key("guest", confGuest, "/bots/8/api_key", 400, "BAD_REQUEST"),
		key("wrong API key", confBadKey, "/bots/8/api_key", 401, "UNAUTHORIZED"),
	}})
	add(confGroup{op: "regenerate-bot-api-key", steps: []confStep{
		confOK("owner of the bot", "regenerate-bot-api-key", confMember, confPOST, "/bots/8/api_key/regenerate", nil),
		confOK("administrator", "regenerate-bot-api-key", confOwner, confPOST, "/bots/12/api_key/regenerate", nil),
		confBad("someone else's bot", "regenerate-bot-api-key", confMember2, confPOST, "/bots/8/api_key/regenerate", nil, 400, "BAD_REQUEST"),
		confBad("unknown id", "regenerate-bot-api-key", confAdmin, confPOST, "/bots/999/api_key/regenerate", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "create-bot", steps: []confStep{
		confOK("generic", "create-bot", confMember, confPOST, "/bots", confP("full_name", "Deploy Bot", "short_name", "deploy")),
		confOK("outgoing webhook", "create-bot", confAdmin, confPOST, "/bots", confP("full_name", "Hook Out", "short_name", "out",
			"bot_type", "3", "payload_url", `"https://hooks.example.com/zulip"`, "interface_type", "2",
			"default_sending_stream", "general", "default_all_public_streams", "true")),
		confBad("taken short name", "create-bot", confMember, confPOST, "/bots", confP("full_name", "Build Bot 2", "short_name", "build"), 400, "BAD_REQUEST"),
		confBad("guest", "create-bot", confGuest, confPOST, "/bots", confP("full_name", "G Bot", "short_name", "g"), 400, "BAD_REQUEST"),
		confBad("missing short_name", "create-bot", confMember, confPOST, "/bots", confP("full_name", "G Bot"), 400, "REQUEST_VARIABLE_MISSING"),
	}})
	add(confGroup{op: "update-bot", steps: []confStep{
		confOK("name and channels", "update-bot", confMember, confPATCH, "/bots/8", confP("full_name", "Builder", "default_sending_stream", "general")),
		confBad("someone else's bot", "update-bot", confMember, confPATCH, "/bots/12", confP("full_name", "X Bot"), 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "deactivate-bot", steps: []confStep{
		confOK("owner", "deactivate-bot", confMember, confDELETE, "/bots/8", nil),
		confBad("a human", "deactivate-bot", confAdmin, confDELETE, "/bots/5", nil, 400, "BAD_REQUEST"),
	}})
	// The realm_bot section and events, at the description's level and at the newest.
	for _, fl := range []int{420, 0} {
		name := "get-events (bots)"
		if fl == 0 {
			name = "get-events (bots, newest)"
		}
		add(confGroup{op: "register-queue", name: name, opts: refserver.Options{FeatureLevel: fl}, steps: []confStep{
			confOK("realm_bot of an owner", "register-queue", confMember, confPOST, "/register", confP("fetch_event_types", `["realm_bot"]`)),
			confCapture(confOK("register", "register-queue", confAdmin, confPOST, "/register", confP("event_types", `["realm_bot","realm_user"]`)), "queue_id", "queue_id"),
			confOK("a bot", "create-bot", confAdmin, confPOST, "/bots", confP("full_name", "Hook Out", "short_name", "out",
				"bot_type", "3", "payload_url", `"https://hooks.example.com/zulip"`)),
			confOK("an update", "update-bot", confAdmin, confPATCH, "/bots/13", confP("service_payload_url", `"https://hooks.example.com/v2"`,
				"default_events_register_stream", "general", "full_name", "Hook Two", "bot_owner_id", "5")),
			confOK("a new key", "regenerate-bot-api-key", confAdmin, confPOST, "/bots/13/api_key/regenerate", nil),
			confOK("a deactivation", "deactivate-bot", confAdmin, confDELETE, "/bots/13", nil),
			confOK("the events", "get-events", confAdmin, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
		}})
	}
}
