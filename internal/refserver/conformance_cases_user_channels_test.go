package refserver_test

import "github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"

func init() { confAreas["user_channels"] = confCasesUserChannels }

// confCasesUserChannels are the conformance requests of GET
// /users/{user_id}/channels. The endpoint is new at feature level 440, so its
// group runs at the default level; as for get-bot-api-key, the generated 429
// step would read GET /users/me with fields the FL420 description lacks, so
// the group is marked noAuth and its wrong-key step is written out here.
func confCasesUserChannels(add func(confGroup)) {
	add(confGroup{op: "get-user-channels", noAuth: true, opts: refserver.Options{FeatureLevel: refserver.DefaultFeatureLevel}, steps: []confStep{
		confOK("an administrator", "get-user-channels", confAdmin2, confGET, "/users/1/channels", nil),
		confOK("a member", "get-user-channels", confMember, confGET, "/users/1/channels", nil),
		confOK("a guest", "get-user-channels", confGuest, confGET, "/users/1/channels", nil),
		confOK("a bot", "get-user-channels", confAdmin, confGET, "/users/8/channels", nil),
		confBad("unknown user", "get-user-channels", confMember, confGET, "/users/999/channels", nil, 400, "BAD_REQUEST"),
		confBad("deactivated user", "get-user-channels", confMember, confGET, "/users/10/channels", nil, 400, "BAD_REQUEST"),
		confBad("wrong API key", "get-user-channels", confBadKey, confGET, "/users/1/channels", nil, 401, "UNAUTHORIZED"),
	}})
}
