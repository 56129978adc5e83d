package bots_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func testAccBotConfig(shortName, fullName, extra string) string {
	return fmt.Sprintf("resource \"zulip_bot\" \"test\" {\n  full_name  = %q\n  short_name = %q\n%s}\n", fullName, shortName, extra)
}

// testAccBot is the server's user of a bot address's local part ("ci-bot").
func testAccBot(srv *acctest.Server, local string) (found refserver.User, ok bool) {
	srv.Do(func(r *refserver.Realm) {
		for _, u := range r.Users {
			if u.IsBot && u.Email == local+"@"+r.Host {
				found, ok = *u, true
			}
		}
	})
	return found, ok
}

// testAccBotKeyAbsent fails when the current key of the bot with an
// address's local part appears in the state or the plan.
type testAccBotKeyAbsent struct {
	srv   *acctest.Server
	local string
}

func (c testAccBotKeyAbsent) secret() acctest.SecretAbsent {
	u, _ := testAccBot(c.srv, c.local)
	return acctest.SecretAbsent{Secret: u.APIKey, What: "the API key of " + c.local}
}

// CheckState implements statecheck.StateCheck.
func (c testAccBotKeyAbsent) CheckState(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	c.secret().CheckState(ctx, req, resp)
}

// CheckPlan implements plancheck.PlanCheck.
func (c testAccBotKeyAbsent) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	c.secret().CheckPlan(ctx, req, resp)
}

// TestAccBot_lifecycle: create, import by address, update in place (name,
// role, default channel), key rotation (the old key stops working; no key in
// state or plan), a new short name in place, and destroy (deactivated).
func TestAccBot_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	provider := srv.ProviderConfig(t, refserver.SeedAdminID)
	var keyBefore string
	noKey := testAccBotKeyAbsent{srv: srv, local: "ci-bot"}
	addr := "zulip_bot.test"
	value := func(attr string, want knownvalue.Check) statecheck.StateCheck { return acctest.Value(addr, attr, want) }
	moderator := "  role = \"moderator\"\n  default_sending_channel = \"general\"\n  key_rotation = \"2026-11\"\n"
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			if u, ok := testAccBot(srv, "deploy-bot"); !ok || u.IsActive {
				return fmt.Errorf("after destroy: %+v", u)
			}
			return nil
		},
		Steps: []resource.TestStep{
			acctest.Apply(provider+testAccBotConfig("ci", "CI", "")).State(
				value("email", knownvalue.StringRegexp(regexp.MustCompile(`^ci-bot@`))),
				value("bot_type", knownvalue.StringExact("generic")),
				value("owner_id", knownvalue.Int64Exact(refserver.SeedAdminID)),
				value("role", knownvalue.StringExact("member")),
				noKey,
			).OnServer(func() error {
				u, _ := testAccBot(srv, "ci-bot")
				keyBefore = u.APIKey
				return nil
			}).Step(),
			{
				ResourceName: "zulip_bot.test", ImportState: true, ImportStateVerify: true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["zulip_bot.test"].Primary.Attributes["email"], nil
				},
			},
			acctest.Apply(provider+testAccBotConfig("ci", "CI runner", moderator)).Planned(addr, plancheck.ResourceActionUpdate).Plan(noKey).State(
				value("role", knownvalue.StringExact("moderator")),
				value("default_sending_channel", knownvalue.StringExact("general")),
				noKey,
			).OnServer(func() error {
				u, _ := testAccBot(srv, "ci-bot")
				if u.FullName != "CI runner" || u.APIKey == keyBefore {
					return fmt.Errorf("bot %+v: name or key unchanged", u)
				}
				return nil
			}).Step(),
			acctest.Apply(provider+testAccBotConfig("deploy", "CI runner", moderator)).Planned(addr, plancheck.ResourceActionUpdate).
				State(value("email", knownvalue.StringRegexp(regexp.MustCompile(`^deploy-bot@`)))).Step(),
		},
	})
}

// TestAccBot_outgoingWebhook: an outgoing webhook bot with its URL and
// interface; the URL is required for that type and refused for others.
func TestAccBot_outgoingWebhook(t *testing.T) {
	srv := acctest.NewServer(t)
	provider := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelSteps(t,
		acctest.PlanFailsRE(provider+testAccBotConfig("hook", "Hook", "  bot_type = \"outgoing_webhook\"\n"), `Missing Outgoing Webhook URL`),
		acctest.PlanFailsRE(provider+testAccBotConfig("hook", "Hook", "  outgoing_webhook_url = \"https://hooks.example.com/z\"\n"), `Not an Outgoing Webhook`),
		acctest.Apply(provider+testAccBotConfig("hook", "Hook",
			"  bot_type = \"outgoing_webhook\"\n  outgoing_webhook_url = \"https://hooks.example.com/z\"\n  outgoing_webhook_interface = \"slack\"\n")).
			State(acctest.Value("zulip_bot.test", "outgoing_webhook_interface", knownvalue.StringExact("slack"))).Step(),
		acctest.Apply(provider+testAccBotConfig("hook", "Hook",
			"  bot_type = \"outgoing_webhook\"\n  outgoing_webhook_url = \"https://hooks.example.com/v2\"\n  outgoing_webhook_interface = \"generic\"\n")).
			State(acctest.Value("zulip_bot.test", "outgoing_webhook_url", knownvalue.StringExact("https://hooks.example.com/v2"))).Step(),
	)
}

// TestAccBot_drift: a bot renamed out of band is renamed back; one
// deactivated out of band is reactivated (Zulip keeps its short name), with
// a warning.
func TestAccBot_drift(t *testing.T) {
	srv := acctest.NewServer(t)
	config := srv.ProviderConfig(t, refserver.SeedAdminID) + testAccBotConfig("drift", "Drift", "")
	acctest.ParallelSteps(t,
		resource.TestStep{Config: config},
		acctest.Apply(config).Before(func() {
			u, _ := testAccBot(srv, "drift-bot")
			srv.Do(func(r *refserver.Realm) { r.Users[u.ID].FullName = "Renamed" })
		}).Planned("zulip_bot.test", plancheck.ResourceActionUpdate).Step(),
		acctest.Apply(config).Before(func() {
			u, _ := testAccBot(srv, "drift-bot")
			srv.Do(func(r *refserver.Realm) { r.Users[u.ID].IsActive = false })
		}).Planned("zulip_bot.test", plancheck.ResourceActionCreate).OnServer(func() error {
			if u, _ := testAccBot(srv, "drift-bot"); !u.IsActive {
				return fmt.Errorf("not reactivated: %+v", u)
			}
			return nil
		}).Step(),
	)
}

// TestAccBot_validation: what Zulip would refuse fails the plan, naming
// the attribute: a taken address (with an import block), the creation
// permission, a short name Zulip would quote.
func TestAccBot_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) {
		r.Settings.GroupSettings["can_create_bots_group"] = refserver.GroupSetting{GroupID: refserver.GroupAdministrators}
	})
	build, _ := srv.User(refserver.SeedBotID)
	local := build.Email[:len(build.Email)-len("-bot@")-len(srv.Host())]
	acctest.ParallelSteps(t,
		acctest.PlanFailsRE(srv.ProviderConfig(t, refserver.SeedAdminID)+testAccBotConfig(local, "Another", ""), `Bot Address Taken.*import \{`),
		acctest.PlanFailsRE(srv.ProviderConfig(t, refserver.SeedMemberID)+testAccBotConfig("mine", "Mine", ""), `Insufficient Permission.*can_create_bots_group`),
		acctest.PlanFailsRE(srv.ProviderConfig(t, refserver.SeedAdminID)+testAccBotConfig("a b", "Spaced", ""), `short_name.*letters, digits`),
	)
}

// TestAccBot_createAnswerLost: the bot was made but the answer was lost:
// the apply adopts it (new, of this account, with the configured name)
// instead of failing on "Username already in use" next time.
func TestAccBot_createAnswerLost(t *testing.T) {
	srv := acctest.NewServer(t)
	lost := false
	provider := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/bots" && !lost {
			lost = true
			return acctest.Fault{Status: http.StatusBadGateway, Process: true}
		}
		return acctest.Fault{}
	})
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{{
			Config: provider + testAccBotConfig("lost", "Lost", ""),
			Check: func(s *terraform.State) error {
				u, ok := testAccBot(srv, "lost-bot")
				if !ok || !lost || s.RootModule().Resources["zulip_bot.test"].Primary.ID != strconv.Itoa(u.ID) {
					return fmt.Errorf("not adopted: %+v (lost %v)", u, lost)
				}
				return nil
			},
		}},
	})
}

// TestAccBotAPIKey_aliasedProvider: issue 16's acceptance: a generic bot's
// key, read by the ephemeral resource, configures an aliased provider that
// reads the bot's own account through a data source. The key is never in the
// plan or the state.
func TestAccBotAPIKey_aliasedProvider(t *testing.T) {
	srv := acctest.NewServer(t)
	noKey := testAccBotKeyAbsent{srv: srv, local: "reader-bot"}
	acctest.ParallelTest(t, acctest.EphemeralCase(
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+testAccBotConfig("reader", "Reader", "")).Step(),
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedAdminID)+testAccBotConfig("reader", "Reader", "")+fmt.Sprintf(`
ephemeral "zulip_bot_api_key" "reader" {
  bot_id = zulip_bot.test.id
}

provider "zulip" {
  alias   = "reader"
  url     = %q
  email   = ephemeral.zulip_bot_api_key.reader.email
  api_key = ephemeral.zulip_bot_api_key.reader.api_key
}

data "zulip_user" "self" {
  provider = zulip.reader
  user_id  = zulip_bot.test.id
}
`, srv.URL)).Plan(noKey).State(acctest.Value("data.zulip_user.self", "full_name", knownvalue.StringExact("Reader")), noKey).Step(),
	))
}

// TestAccBot_example applies the documentation's examples: the bots, and the
// ephemeral key feeding an aliased provider.
func TestAccBot_example(t *testing.T) {
	srv := acctest.NewServer(t)
	provider := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, acctest.EphemeralCase(
		acctest.Apply(provider+acctest.ReadExample(t, "examples/resources/zulip_bot/resource.tf")).State(
			acctest.Value("zulip_bot.alerts", "bot_type", knownvalue.StringExact("incoming_webhook")),
			acctest.Value("zulip_bot.helpdesk", "outgoing_webhook_interface", knownvalue.StringExact("generic")),
		).Clean().Step(),
		// The data source, once the bots exist: the seeded two and these three.
		acctest.Apply(provider+acctest.ReadExample(t, "examples/resources/zulip_bot/resource.tf")+
			acctest.ReadExample(t, "examples/data-sources/zulip_bots/data-source.tf")).
			State(acctest.Value("data.zulip_bots.all", "bots", knownvalue.ListSizeExact(5))).Step(),
		acctest.Apply(provider+acctest.ReadExample(t, "examples/ephemeral-resources/zulip_bot_api_key/ephemeral-resource.tf")).
			Vars(config.Variables{"zulip_url": config.StringVariable(srv.URL)}).State(
			acctest.Value("data.zulip_user.reporter", "is_bot", knownvalue.Bool(true)),
			testAccBotKeyAbsent{srv: srv, local: "reporter-bot"},
		).Step(),
	))
}

// TestAccBot_generatedConfig: `terraform plan -generate-config-out` over an
// import block writes configuration the provider accepts unchanged, for a
// generic bot and an incoming webhook.
func TestAccBot_generatedConfig(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	for _, id := range []string{"build-bot@" + srv.Host(), strconv.Itoa(refserver.SeedIncomingBotID)} {
		t.Run(id, func(t *testing.T) {
			acctest.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_5_0)},
				Steps: []resource.TestStep{{
					Config: admin, ResourceName: "zulip_bot.test", ImportState: true,
					ImportStateKind: resource.ImportBlockWithID, ImportStateId: id, GenerateConfig: true,
				}},
			})
		})
	}
}

// TestAccBot_ownerChecked: an owner Zulip would refuse fails the plan,
// naming owner_id, from the run's list of users: a deactivated user, an id
// nobody has, a bot. The same holds for changing the owner of a bot.
func TestAccBot_ownerChecked(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	owned := func(id int) string { return testAccBotConfig("owned", "Owned", fmt.Sprintf("  owner_id = %d\n", id)) }
	acctest.ParallelSteps(t,
		acctest.PlanFailsRE(admin+owned(refserver.SeedDeactivatedID), fmt.Sprintf(`Invalid Bot Owner.*owner_id = %d.*is deactivated`, refserver.SeedDeactivatedID)),
		acctest.PlanFailsRE(admin+owned(9999), `Invalid Bot Owner.*owner_id = 9999.*no user has the id 9999`),
		acctest.PlanFailsRE(admin+owned(refserver.SeedIncomingBotID), fmt.Sprintf(`Invalid Bot Owner.*owner_id = %d.*is a bot`, refserver.SeedIncomingBotID)),
		resource.TestStep{Config: admin + owned(refserver.SeedMemberID)},
		acctest.PlanFailsRE(admin+owned(refserver.SeedDeactivatedID), fmt.Sprintf(`Invalid Bot Owner.*owner_id = %d.*is deactivated`, refserver.SeedDeactivatedID)),
	)
}

// TestAccBot_nameInUse: Zulip refuses a bot whose full name an active user
// already has ("Name is already in use!"); the plan says so, naming
// full_name, for a new bot and for a renamed one.
func TestAccBot_nameInUse(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	person, _ := srv.User(refserver.SeedMemberID)
	inUse := fmt.Sprintf(`Bot Name in Use.*full_name.*belongs to user %d`, refserver.SeedMemberID)
	acctest.ParallelSteps(t,
		acctest.PlanFailsRE(admin+testAccBotConfig("named", person.FullName, ""), inUse),
		resource.TestStep{Config: admin + testAccBotConfig("named", "Named", "")},
		acctest.PlanFailsRE(admin+testAccBotConfig("named", person.FullName, ""), inUse),
	)
}

// TestAccBot_createHalfFinished: the bot is made but the request that sets
// its owner fails. The apply ends with a warning, the bot tracked (untainted,
// with its identity, which the framework otherwise refuses as missing), and
// the next plain apply finishes it in place.
func TestAccBot_createHalfFinished(t *testing.T) {
	srv := acctest.NewServer(t)
	failed := false
	provider := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		if r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/api/v1/bots/") && !failed {
			failed = true
			return acctest.Fault{Status: http.StatusBadRequest}
		}
		return acctest.Fault{}
	})
	config := provider + testAccBotConfig("half", "Half", fmt.Sprintf("  owner_id = %d\n  role = \"moderator\"\n", refserver.SeedMemberID))
	ownedBy := func(owner int) func(*terraform.State) error {
		return func(s *terraform.State) error {
			u, ok := testAccBot(srv, "half-bot")
			rs := s.RootModule().Resources["zulip_bot.test"]
			switch {
			case !ok || rs == nil || rs.Primary.ID != strconv.Itoa(u.ID):
				return fmt.Errorf("bot not tracked: %+v", u)
			case rs.Primary.Tainted:
				return fmt.Errorf("the half-made bot is tainted")
			case u.BotOwnerID != owner:
				return fmt.Errorf("owner %d, want %d", u.BotOwnerID, owner)
			}
			return nil
		}
	}
	acctest.ParallelSteps(t,
		resource.TestStep{Config: config, ExpectNonEmptyPlan: true, Check: ownedBy(refserver.SeedAdminID)},
		resource.TestStep{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("zulip_bot.test", plancheck.ResourceActionUpdate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("zulip_bot.test", tfjsonpath.New("email"), knownvalue.StringRegexp(regexp.MustCompile(`^half-bot@`))),
				statecheck.ExpectKnownValue("zulip_bot.test", tfjsonpath.New("role"), knownvalue.StringExact("moderator")),
			},
			Check: ownedBy(refserver.SeedMemberID),
		},
	)
}
