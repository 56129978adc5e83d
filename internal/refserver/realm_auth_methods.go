package refserver

import (
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Authentication methods and plan limits of the organization's settings,
// after newest Zulip's zerver/actions/realm_settings.py
// (validate_authentication_methods_dict_from_api,
// validate_plan_for_authentication_methods,
// get_realm_authentication_methods_for_page_params_api) and
// Realm.ensure_not_on_limited_plan.

// Plan types (Realm.PLAN_TYPE_*).
const (
	planSelfHosted   = 1
	planLimited      = 2
	planStandard     = 3
	planStandardFree = 4
	planPlus         = 10
)

// authMethodsShapeFL is the level from which realm_authentication_methods
// maps each method to {enabled, available, unavailable_reason}.
const authMethodsShapeFL = 243

// authBackend is one authentication backend this server has
// (AUTH_BACKEND_NAME_MAP, as a server configured with these backends).
type authBackend struct {
	name string
	// enabled is a new organization's choice.
	enabled bool
	// cloudPlans are the Zulip Cloud plans that may enable it (nil: all).
	cloudPlans []int
}

// authBackends are the server's backends, in name order.
var authBackends = []authBackend{
	{name: "Dev", enabled: true},
	{name: "Email", enabled: true},
	{name: "GitHub", enabled: false},
	{name: "Google", enabled: false},
	{name: "SAML", enabled: false, cloudPlans: []int{planStandard, planPlus}},
}

// planType is the organization's plan, self-hosted when unset.
func (r *Realm) planType() int {
	if r.PlanType == 0 {
		return planSelfHosted
	}
	return r.PlanType
}

// billing reports whether plan limits apply (settings.BILLING_ENABLED: Zulip Cloud).
func (r *Realm) billing() bool { return r.planType() != planSelfHosted }

// authMethodEnabled reports whether a method is enabled.
func (r *Realm) authMethodEnabled(name string) bool {
	if v, ok := r.Settings.AuthMethods[name]; ok {
		return v
	}
	for _, b := range authBackends {
		if b.name == name {
			return b.enabled
		}
	}
	return false
}

// authMethodsWire is realm_authentication_methods at a level.
func (r *Realm) authMethodsWire(fl int) obj {
	out := obj{}
	for _, b := range authBackends {
		enabled := r.authMethodEnabled(b.name)
		if fl < authMethodsShapeFL {
			out[b.name] = enabled
			continue
		}
		entry := obj{"enabled": enabled, "available": true}
		if r.billing() && b.cloudPlans != nil && !slices.Contains(b.cloudPlans, r.planType()) {
			entry["available"] = false
			entry["unavailable_reason"] = "You need to upgrade to the Zulip Cloud Standard plan to use this authentication method."
		}
		out[b.name] = entry
	}
	return out
}

// checkAuthMethods is update_realm's check of authentication_methods: an
// owner's, naming only the server's methods, enabling only what the plan
// allows, and leaving at least one enabled.
func (c *call) checkAuthMethods(text string) (map[string]bool, error) {
	var methods map[string]bool
	if !json.Valid([]byte(text)) {
		return nil, errInvalidJSON("authentication_methods")
	}
	if json.Unmarshal([]byte(text), &methods) != nil {
		return nil, errInvalid("authentication_methods is not a dict")
	}
	if !c.user.IsOwner() {
		return nil, errPrincipal("owner")
	}
	r := c.realm()
	names := make([]string, len(authBackends))
	for i, b := range authBackends {
		names[i] = "'" + b.name + "'"
	}
	sort.Strings(names)
	for _, name := range sortedKeys(methods) {
		i := slices.IndexFunc(authBackends, func(b authBackend) bool { return b.name == name })
		if i < 0 {
			return nil, errBadRequest("Invalid authentication method: %s. Valid methods are: [%s]", name, strings.Join(names, ", "))
		}
		b := authBackends[i]
		if methods[name] && !r.authMethodEnabled(name) && r.billing() && b.cloudPlans != nil && !slices.Contains(b.cloudPlans, r.planType()) {
			return nil, errBadRequest("Authentication method %s is not available on your current plan.", name)
		}
	}
	if !slices.Contains(slices.Collect(maps.Values(methods)), true) {
		return nil, errBadRequest("At least one authentication method must be enabled.")
	}
	return methods, nil
}

// errPlanLimited is ensure_not_on_limited_plan's refusal.
func errPlanLimited() *apiError {
	return errBadRequest("Available on Zulip Cloud Standard. Upgrade to access.")
}
