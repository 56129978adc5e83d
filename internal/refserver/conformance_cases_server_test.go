package refserver_test

import (
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func init() { confAreas["server"] = confCasesServer }

// confCasesServer are the conformance requests of the server settings and authentication endpoints.
func confCasesServer(add func(confGroup)) {
	add(confGroup{op: "get-server-settings", noAuth: true, steps: []confStep{
		confOK("anonymous", "get-server-settings", confNoAuth, confGET, "/server_settings", nil),
		confOK("with credentials", "get-server-settings", confMember, confGET, "/server_settings", nil),
		confOK("unknown parameter", "get-server-settings", confNoAuth, confGET, "/server_settings", confP("bogus", "1")),
	}})
	add(confGroup{op: "dev-fetch-api-key", noAuth: true, steps: []confStep{
		confOK("owner", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", confP("username", confEmail("olivia"))),
		confOK("bot", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", confP("username", confEmail("build-bot"))),
		confBad("unknown user", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", confP("username", confEmail("nobody")), 401, "AUTHENTICATION_FAILED"),
		confBad("deactivated user", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", confP("username", confEmail("dan")), 401, "USER_DEACTIVATED"),
		confBad("missing username", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", nil, 400, "REQUEST_VARIABLE_MISSING"),
	}})
	// On a production server /dev_fetch_api_key is not routed (an HTML 404, not
	// an API answer: server_settings_test.go pins it).
	add(confGroup{op: "get-server-settings", name: "get-server-settings (production)", noAuth: true, opts: refserver.Options{Production: true}, steps: []confStep{
		confOK("production server settings", "get-server-settings", confNoAuth, confGET, "/server_settings", nil),
	}})
	// Faults apply to unauthenticated endpoints too: a forced 429 (the injected
	// 503 is an HTML page, like a proxy's, and not a Zulip answer).
	add(confGroup{op: "get-server-settings", name: "get-server-settings (forced 429)", noAuth: true,
		opts: refserver.Options{Faults: refserver.Faults{RateLimitRate: 1, RetryAfterSecs: 1.5}}, steps: []confStep{
			confBad("rate limited", "get-server-settings", confNoAuth, confGET, "/server_settings", nil, 429, "RATE_LIMIT_HIT"),
			confBad("rate limited", "dev-fetch-api-key", confNoAuth, confPOST, "/dev_fetch_api_key", confP("username", confEmail("olivia")), 429, "RATE_LIMIT_HIT"),
		}})
	add(confGroup{op: "fetch-api-key", noAuth: true, steps: []confStep{
		confOK("password", "fetch-api-key", confNoAuth, confPOST, "/fetch_api_key", confP("username", confEmail("mark"), "password", "password-mark")),
		confBad("wrong password", "fetch-api-key", confNoAuth, confPOST, "/fetch_api_key", confP("username", confEmail("mark"), "password", "nope"), 401, "AUTHENTICATION_FAILED"),
		confBad("missing password", "fetch-api-key", confNoAuth, confPOST, "/fetch_api_key", confP("username", confEmail("mark")), 400, "REQUEST_VARIABLE_MISSING"),
	}})
}
