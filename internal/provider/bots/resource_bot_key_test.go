package bots_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// testAccKeptKeyConfig is an incoming webhook bot "hook" with the opt-in
// and key_rotation set as given ("" leaves key_rotation out).
func testAccKeptKeyConfig(provider string, keep bool, rotation string) string {
	extra := fmt.Sprintf("  bot_type = \"incoming_webhook\"\n  keep_api_key_in_state = %t\n", keep)
	if rotation != "" {
		extra += fmt.Sprintf("  key_rotation = %q\n", rotation)
	}
	return provider + testAccBotConfig("hook", "Hook", extra)
}

// testAccKeyIsServers checks that the state's api_key is the hook bot's
// current key on the server.
func testAccKeyIsServers(srv *acctest.Server) statecheck.StateCheck {
	return acctest.Value("zulip_bot.test", "api_key", testAccServerValue(func() string {
		u, _ := testAccBot(srv, "hook-bot")
		return u.APIKey
	}))
}

// testAccKeyKept records the hook bot's key (into *key) or, once recorded,
// checks that the server still has it: nothing regenerated it.
func testAccKeyKept(srv *acctest.Server, key *string) func() error {
	return func() error {
		u, _ := testAccBot(srv, "hook-bot")
		if *key != "" && u.APIKey != *key {
			return fmt.Errorf("the bot's key was regenerated")
		}
		*key = u.APIKey
		return nil
	}
}

// TestAccBot_keptKey: with keep_api_key_in_state, the state keeps the key
// the create answered; import leaves it out; a key regenerated in the web
// app reaches the state at the next refresh (feature level 463); a rotation
// keeps the new key; turning the opt-in off removes it from the state, and
// on again reads it (GET /bots/{id}/api_key) without regenerating it.
func TestAccBot_keptKey(t *testing.T) {
	srv := acctest.NewServer(t)
	provider := srv.ProviderConfig(t, refserver.SeedAdminID)
	var key string
	acctest.ParallelSteps(t,
		acctest.Apply(testAccKeptKeyConfig(provider, true, "")).State(testAccKeyIsServers(srv)).Clean().Step(),
		acctest.ImportVerify("zulip_bot.test", "", "api_key", "keep_api_key_in_state"),
		acctest.Apply(testAccKeptKeyConfig(provider, true, "")).OutOfBand(srv, func(r *refserver.Realm) {
			for _, u := range r.Users {
				if u.Email == "hook-bot@"+r.Host {
					u.APIKey = "RegeneratedInTheWebApp0123456789"
				}
			}
		}).State(testAccKeyIsServers(srv), acctest.Value("zulip_bot.test", "api_key", knownvalue.StringExact("RegeneratedInTheWebApp0123456789"))).Clean().Step(),
		acctest.Apply(testAccKeptKeyConfig(provider, true, "2026-12")).Planned("zulip_bot.test", plancheck.ResourceActionUpdate).
			State(testAccKeyIsServers(srv)).OnServer(func() error {
			if u, _ := testAccBot(srv, "hook-bot"); u.APIKey == "RegeneratedInTheWebApp0123456789" {
				return fmt.Errorf("the key was not rotated")
			}
			return testAccKeyKept(srv, &key)()
		}).Clean().Step(),
		acctest.Apply(testAccKeptKeyConfig(provider, false, "2026-12")).Planned("zulip_bot.test", plancheck.ResourceActionUpdate).
			State(acctest.Value("zulip_bot.test", "api_key", knownvalue.Null()), testAccBotKeyAbsent{srv: srv, local: "hook-bot"}).
			OnServer(testAccKeyKept(srv, &key)).Clean().Step(),
		acctest.Apply(testAccKeptKeyConfig(provider, true, "2026-12")).Planned("zulip_bot.test", plancheck.ResourceActionUpdate).
			State(testAccKeyIsServers(srv)).OnServer(testAccKeyKept(srv, &key)).Clean().Step(),
	)
}

// TestAccBot_keptKeyBefore463: before feature level 463 Zulip gives a key
// only in the answers of the create and the regeneration: the create's is
// kept; turning the opt-in on for an existing bot fails the plan, naming
// the attribute and the way out (a key_rotation change), which then keeps
// the new key. The refresh asks nothing the server lacks.
func TestAccBot_keptKeyBefore463(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 450 })
	provider := srv.ProviderConfig(t, refserver.SeedAdminID)
	var key string
	acctest.ParallelSteps(t,
		acctest.Apply(testAccKeptKeyConfig(provider, true, "2026-11")).State(testAccKeyIsServers(srv)).Clean().Step(),
		acctest.Apply(testAccKeptKeyConfig(provider, false, "2026-11")).
			State(acctest.Value("zulip_bot.test", "api_key", knownvalue.Null()), testAccBotKeyAbsent{srv: srv, local: "hook-bot"}).
			OnServer(testAccKeyKept(srv, &key)).Step(),
		acctest.PlanFailsRE(testAccKeptKeyConfig(provider, true, "2026-11"),
			`Bot's API Key Cannot Be Read.*keep_api_key_in_state = true.*feature level 463.*change key_rotation in the same apply`),
		acctest.Apply(testAccKeptKeyConfig(provider, true, "2026-12")).Planned("zulip_bot.test", plancheck.ResourceActionUpdate).
			State(testAccKeyIsServers(srv)).OnServer(func() error {
			if u, _ := testAccBot(srv, "hook-bot"); u.APIKey == key {
				return fmt.Errorf("the key was not rotated")
			}
			return nil
		}).Clean().Step(),
	)
}

// testAccServerValue is a string check whose expected value is read from
// the server when the check runs (a key the apply made).
type testAccServerValue func() string

// CheckValue implements knownvalue.Check.
func (want testAccServerValue) CheckValue(v any) error {
	got, ok := v.(string)
	if !ok || got != want() {
		return fmt.Errorf("the value is not the server's (%d characters, a %T)", len(got), v)
	}
	return nil
}

// String implements knownvalue.Check; the value may be a secret.
func (want testAccServerValue) String() string { return "the server's value" }

var _ knownvalue.Check = testAccServerValue(nil)
