package realm_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// realmOnServer checks the organization's settings as the reference server
// holds them.
func realmOnServer(srv *acctest.Server, check func(r *refserver.Realm) error) func() error {
	return func() error {
		var err error
		srv.Do(func(r *refserver.Realm) { err = check(r) })
		return err
	}
}

// TestAccRealmSettings_lifecycle: the configured settings of each kind are set,
// read back and planned empty; a change applies; an out-of-band change of a
// managed setting is undone while an unmanaged one is left alone; import by
// URL reads every setting; destroying leaves the organization as it is.
func TestAccRealmSettings_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	config := func(name, limit, weekday, creators string) string {
		return owner + fmt.Sprintf(`
resource "zulip_realm" "test" {
  name                               = %q
  invite_required                    = false
  message_content_edit_limit_seconds = %q
  topics_policy                      = "disable_empty_topic"
  digest_weekday                     = %q
  new_stream_announcements_stream_id = -1
  can_create_groups                  = { groups = [%q] }
  authentication_methods             = { GitHub = true }
}
`, name, limit, weekday, creators)
	}
	addr := "zulip_realm.test"
	value := func(attr string, v knownvalue.Check) statecheck.StateCheck { return acctest.Value(addr, attr, v) }
	kept := realmOnServer(srv, func(r *refserver.Realm) error {
		if r.Name != "Renamed again" {
			return fmt.Errorf("destroying changed the name to %q", r.Name)
		}
		return nil
	})
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error { return kept() },
		Steps: []resource.TestStep{
			acctest.Apply(config("Renamed", "unlimited", "friday", "role:administrators")).State(
				value("id", knownvalue.StringExact(srv.URL)),
				value("name", knownvalue.StringExact("Renamed")),
				value("message_content_edit_limit_seconds", knownvalue.StringExact("unlimited")),
				value("digest_weekday", knownvalue.StringExact("friday")),
				value("can_create_groups", acctest.PermissionOf([]string{"role:administrators"})),
				// Only the methods named are managed (and read).
				value("authentication_methods", knownvalue.MapExact(map[string]knownvalue.Check{"GitHub": knownvalue.Bool(true)})),
				// Unmanaged settings show the organization's values.
				value("send_welcome_emails", knownvalue.Bool(true)),
				value("message_retention_days", knownvalue.StringExact("unlimited")),
			).OnServer(realmOnServer(srv, func(r *refserver.Realm) error {
				if r.Name != "Renamed" || r.Setting("invite_required") != false || r.Setting("digest_weekday") != 4 {
					return fmt.Errorf("name %q, values %v", r.Name, r.Settings.Values)
				}
				return nil
			})).Clean().Step(),
			acctest.Apply(config("Renamed again", "3600", "monday", "role:moderators")).State(
				value("message_content_edit_limit_seconds", knownvalue.StringExact("3600")),
				value("can_create_groups", acctest.PermissionOf([]string{"role:moderators"})),
			).Clean().Step(),
			// Out of band: a managed setting (undone) and an unmanaged one (kept).
			acctest.Apply(config("Renamed again", "3600", "monday", "role:moderators")).OutOfBand(srv, func(r *refserver.Realm) {
				r.SetSetting("digest_weekday", 6)
				r.SetSetting("send_welcome_emails", false)
			}).Planned(addr, plancheck.ResourceActionUpdate).Plan(plancheck.ExpectKnownValue(addr, tfjsonpath.New("digest_weekday"), knownvalue.StringExact("monday"))).
				State(value("send_welcome_emails", knownvalue.Bool(false))).Step(),
			{
				// An import reads every authentication method; the next apply narrows
				// the state to the methods the configuration names.
				ResourceName: addr, ImportState: true, ImportStateId: srv.URL, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"authentication_methods"},
				Config:                  config("Renamed again", "3600", "monday", "role:moderators"),
			},
		},
	})
}

// TestAccRealmSettings_validation: bad values, an owner's setting for an
// administrator, a permission value the setting does not accept and a
// setting newer than the server fail at plan, naming the attribute.
func TestAccRealmSettings_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 400 })
	realm := func(body string) string { return "resource \"zulip_realm\" \"test\" {\n" + body + "\n}\n" }
	step := acctest.PlanFails
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	cloud := acctest.NewServer(t)
	cloud.Do(func(r *refserver.Realm) { r.PlanType = 2 }) // Zulip Cloud Free
	limited := cloud.ProviderConfig(t, refserver.SeedOwnerID)
	acctest.ParallelSteps(t,
		step(admin+realm(`  org_type = "startup"`), "org_type", "business"),
		step(admin+realm(`  message_content_edit_limit_seconds = "0"`), "message_content_edit_limit_seconds", "unlimited"),
		step(admin+realm(`  default_language = "English"`), "default_language", "language code"),
		step(admin+realm(`  invite_required = false`), "Insufficient Role", "owner"),
		step(admin+realm(`  can_create_web_public_channel_group = { groups = ["role:members"] }`), "Permission Value Not Allowed",
			"can_create_web_public_channel_group"),
		step(srv.ProviderConfig(t, refserver.SeedMemberID)+realm(`  name = "x"`), "Insufficient Role", "administrator"),
		step(old.ProviderConfig(t, refserver.SeedOwnerID)+realm(`  send_channel_events_messages = true`), "Zulip Server Too Old",
			"send_channel_events_messages", "434"),
		step(owner+realm(`  authentication_methods = { Nope = true }`), "Unknown Authentication Method", "Dev, Email, GitHub, Google, SAML"),
		step(owner+realm(`  authentication_methods = { Email = false, Dev = false }`), "No Authentication Method Left"),
		step(limited+realm(`  authentication_methods = { SAML = true }`), "Authentication Method Not Available", "upgrade"),
		step(limited+realm(`  message_retention_days = "30"`), "Not Available on This Plan", "Zulip Cloud Standard"),
		step(limited+realm(`  can_access_all_users_group = { groups = ["role:members"] }`), "Not Available on This Plan", "Zulip Cloud Plus"),
	)
}

// TestAccRealmSettings_lostAnswer: a change whose answer was lost converges
// on the next plain apply.
func TestAccRealmSettings_lostAnswer(t *testing.T) {
	srv := acctest.NewServer(t)
	lost := srv.FaultyProviderConfig(t, refserver.SeedOwnerID, func(r *http.Request) acctest.Fault {
		if r.Method == http.MethodPatch && r.URL.Path == "/api/v1/realm" {
			return acctest.Fault{Status: http.StatusBadGateway, Process: true}
		}
		return acctest.Fault{}
	})
	cfg := "resource \"zulip_realm\" \"test\" {\n  name = \"After\"\n}\n"
	acctest.ParallelSteps(t,
		resource.TestStep{Config: lost + cfg, ExpectError: acctest.ExpectErr("Unable to Change Organization Settings")},
		acctest.Apply(srv.ProviderConfig(t, refserver.SeedOwnerID)+cfg).State(acctest.Value("zulip_realm.test", "name", knownvalue.StringExact("After"))).Clean().Step(),
	)
}

// TestAccRealmSettings_generatedConfig: the configuration Terraform
// generates for an imported organization is accepted as it is.
func TestAccRealmSettings_generatedConfig(t *testing.T) {
	srv := acctest.NewServer(t)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: acctest.GeneratedConfigSteps(srv.ProviderConfig(t, refserver.SeedOwnerID), "", "zulip_realm.test", srv.URL),
	})
}

// TestAccRealmSettings_channelsAndSounds: a channel setting naming no channel
// the account can see or an archived one, a public moderation request channel
// and a notification sound the server lacks fail at plan, naming the
// attribute with Zulip's words; a private channel the same apply creates, an
// existing public channel and one of the server's sounds plan, apply and plan
// empty.
func TestAccRealmSettings_channelsAndSounds(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	realm := func(body string) string { return "resource \"zulip_realm\" \"test\" {\n" + body + "\n}\n" }
	defaults := func(body string) string {
		return "resource \"zulip_realm_user_defaults\" \"test\" {\n" + body + "\n}\n"
	}
	step := acctest.PlanFailsAs(owner)
	valid := `
resource "zulip_channel" "mods" {
  name    = "mod requests"
  privacy = "private"
}
` + realm(fmt.Sprintf("  moderation_request_channel_id = zulip_channel.mods.id\n  zulip_update_announcements_stream_id = %d\n  signup_announcements_stream_id = -1",
		refserver.SeedChannelRandom)) + defaults(`  notification_sound = "ding"`)
	acctest.ParallelSteps(t,
		step(realm(`  new_stream_announcements_stream_id = 9999`), "Unknown Channel", "new_stream_announcements_stream_id",
			"id 9999", "Invalid channel ID"),
		step(realm(fmt.Sprintf(`  signup_announcements_stream_id = %d`, refserver.SeedChannelArchived)), "Archived Channel",
			"signup_announcements_stream_id", "Invalid channel ID"),
		step(realm(fmt.Sprintf(`  moderation_request_channel_id = %d`, refserver.SeedChannelGeneral)), "Private Channel Required",
			"moderation_request_channel_id", "Moderation request channel must be private."),
		step(defaults(`  notification_sound = "gong"`), "Unknown Notification Sound", "notification_sound",
			"Invalid notification sound 'gong'", "chime-saber, ding, zulip"),
		acctest.Apply(owner+valid).Clean().OnServer(realmOnServer(srv, func(r *refserver.Realm) error {
			mods, ok := channelIDByName(r, "mod requests")
			if !ok || r.ModerationRequestChannelID != mods || !r.Channels[mods].InviteOnly {
				return fmt.Errorf("moderation request channel %d, want the private channel %d", r.ModerationRequestChannelID, mods)
			}
			if got := r.Settings.UserDefaults["notification_sound"]; got != "ding" {
				return fmt.Errorf("notification_sound %v, want ding", got)
			}
			return nil
		})).Step(),
	)
}

// channelIDByName finds a channel's id in the realm.
func channelIDByName(r *refserver.Realm, name string) (int, bool) {
	for id, c := range r.Channels {
		if c.Name == name {
			return id, true
		}
	}
	return 0, false
}
