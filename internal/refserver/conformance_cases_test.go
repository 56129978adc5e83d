package refserver_test

import (
	"net/http"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// The steps of the conformance test, one group (subtest) per operation. Each
// group runs against a freshly seeded server (seed.go); the test adds to every
// authenticated group a 401 (wrong API key) and a 429 (rate limit) step.

// Short names for the seeded users.
const (
	confOwner   = refserver.SeedOwnerID
	confAdmin   = refserver.SeedAdminID  // can_create_users
	confAdmin2  = refserver.SeedAdmin2ID // no special permissions
	confMod     = refserver.SeedModeratorID
	confMember  = refserver.SeedMemberID
	confMember2 = refserver.SeedMember2ID
	confGuest   = refserver.SeedGuestID
	confBot     = refserver.SeedBotID
	confOwner2  = refserver.SeedOwner2ID
	confDead    = refserver.SeedDeactivatedID
	confMember3 = refserver.SeedMember3ID
)

const (
	confGET    = http.MethodGet
	confPOST   = http.MethodPost
	confPATCH  = http.MethodPatch
	confDELETE = http.MethodDelete
)

// cp builds a parameter map from key, value pairs.
func confP(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// ok is a step expecting 200; bad one expecting an error status and code.
func confOK(name, op string, user int, method, path string, params map[string]string) confStep {
	return confStep{name: name, op: op, user: user, method: method, path: path, params: params, status: 200}
}

func confBad(name, op string, user int, method, path string, params map[string]string, status int, code string) confStep {
	return confStep{name: name, op: op, user: user, method: method, path: path, params: params, status: status, code: code}
}

// capture returns st with a capture of field into variable v.
func confCapture(st confStep, v, field string) confStep {
	if st.capture == nil {
		st.capture = map[string]string{}
	}
	st.capture[v] = field
	return st
}

// confFL returns st restricted to servers advertising feature levels in [minFL, maxFL].
func confFL(st confStep, minFL, maxFL int) confStep {
	st.minFL, st.maxFL = minFL, maxFL
	return st
}

// before returns st with an out-of-band change applied first.
func confBefore(st confStep, fn func(*refserver.Server)) confStep {
	st.before = fn
	return st
}

const (
	confHost      = "zulip.example.com"
	confAPNsToken = "ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12" // seeded for the owner
	confFCMToken  = "fcm-token-mark-0001"                                              // seeded for the member
)

func confEmail(local string) string { return local + "@" + confHost }

// confAllFetchTypes is every register fetch type the server serves.
const confAllFetchTypes = `["realm","realm_domains","realm_linkifiers","realm_filters","user_topic",` +
	`"custom_profile_fields","realm_user_groups","user_status","saved_snippets","stream","realm_user"]`

// confAreas holds each area's conformance requests, registered by its own
// conformance_cases_<area>_test.go: a new area adds a file, not lines here.
var confAreas = map[string]func(add func(confGroup)){}

// confGroups lists every area's groups, areas in name order.
func confGroups() []confGroup {
	var groups []confGroup
	add := func(g confGroup) { groups = append(groups, g) }
	for _, name := range confSortedKeys(confAreas) {
		confAreas[name](add)
	}
	return groups
}
