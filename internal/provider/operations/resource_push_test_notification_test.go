package operations_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// The seeded owner's devices: a legacy APNs device and an end-to-end
// encrypted one.
const (
	testAccPushOwnerAPNs = "1 apns"
	testAccPushOwnerE2EE = "2 e2ee"
)

func TestAccPushTestNotification_performsOnce(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	addr := "zulip_push_test_notification.test"
	config := func(body string) string {
		return owner + "\nresource \"zulip_push_test_notification\" \"test\" {\n" + body + "\n}\n"
	}
	var firstID string
	id := func(check func(id string) error) statecheck.StateCheck {
		return acctest.Value(addr, "id", knownvalue.StringFunc(check))
	}
	endpoint := func(want string) plancheck.PlanCheck {
		return plancheck.ExpectKnownValue(addr, tfjsonpath.New("endpoint"), knownvalue.StringExact(want))
	}

	acctest.ParallelSteps(t,
		// Neither token nor device: every legacy device of the account.
		acctest.Apply(config(`triggers = { round = "1" }`)).
			Planned(addr, plancheck.ResourceActionCreate).Plan(endpoint("mobile_push/test_notification")).Clean().
			State(
				id(func(id string) error {
					firstID = id
					return nil
				}),
				acctest.Value(addr, "performed_at", knownvalue.StringRegexp(acctest.RFC3339)),
				testAccPushSentCheck(srv, testAccPushOwnerAPNs),
			).Step(),
		// A second apply performs nothing.
		acctest.Apply(config(`triggers = { round = "1" }`)).Plan(plancheck.ExpectEmptyPlan()).
			State(
				id(func(id string) error {
					if id != firstID {
						return fmt.Errorf("id changed from %q to %q without a replacement", firstID, id)
					}
					return nil
				}),
				testAccPushSentCheck(srv, testAccPushOwnerAPNs),
			).Step(),
		// A changed trigger performs it again.
		acctest.Apply(config(`triggers = { round = "2" }`)).
			Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).Clean().
			State(
				id(func(id string) error {
					if id == firstID {
						return fmt.Errorf("id %q kept across a replacement", id)
					}
					return nil
				}),
				testAccPushSentCheck(srv, testAccPushOwnerAPNs, testAccPushOwnerAPNs),
			).Step(),
		// So does a changed argument: now every encrypted device.
		acctest.Apply(config(`
  triggers  = { round = "2" }
  encrypted = true`)).
			Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).Plan(endpoint("mobile_push/e2ee/test_notification")).
			State(testAccPushSentCheck(srv, testAccPushOwnerAPNs, testAccPushOwnerAPNs, testAccPushOwnerE2EE)).Step(),
		// Removing the resource only forgets it.
		acctest.Apply(owner).Planned(addr, plancheck.ResourceActionDestroy).
			State(testAccPushSentCheck(srv, testAccPushOwnerAPNs, testAccPushOwnerAPNs, testAccPushOwnerE2EE)).Step(),
	)
}

func TestAccPushTestNotification_token(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	token := "5b0c7dd0b6ee4a5e8f2c9a1d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f"
	acctest.ParallelSteps(t,
		// Not registered yet.
		acctest.Apply(member+fmt.Sprintf(`
resource "zulip_push_test_notification" "test" {
  token = %q
}`, token)).Fails(acctest.ExpectErr("token", "no device with this token", "Register the device first",
			"zulip_apns_device_token", "INVALID_PUSH_DEVICE_TOKEN")).Step(),
		// Registered first, in the same configuration.
		acctest.Apply(member+fmt.Sprintf(`
resource "zulip_apns_device_token" "phone" {
  token  = %q
  app_id = "org.zulip.Zulip"
}

resource "zulip_push_test_notification" "test" {
  token = zulip_apns_device_token.phone.token
}`, token)).State(
			acctest.Value("zulip_push_test_notification.test", "endpoint", knownvalue.StringExact("mobile_push/test_notification")),
			acctest.ServerCheck(func() error {
				var got []string
				for _, n := range srv.SentNotifications() {
					got = append(got, fmt.Sprintf("%d %s", n.UserID, n.Kind))
				}
				if want := fmt.Sprintf("%d apns", refserver.SeedMemberID); len(got) != 1 || got[0] != want {
					return fmt.Errorf("sent %q, want [%q]", got, want)
				}
				return nil
			}),
		).Clean().Step(),
	)
}

func TestAccPushTestNotification_encryptedDevice(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelSteps(t,
		acctest.Apply(owner+testAccPushTestNotificationDevice(99)).
			Fails(acctest.ExpectErr("no active end-to-end encrypted push device", "Register the device first", "NO_ACTIVE_PUSH_DEVICE")).Step(),
		// Mark has only a legacy (FCM) device.
		acctest.Apply(member+`
resource "zulip_push_test_notification" "test" {
  encrypted = true
}`).Fails(acctest.ExpectErr("Register the device first", "NO_ACTIVE_PUSH_DEVICE")).Step(),
		acctest.Apply(owner+testAccPushTestNotificationDevice(2)).Plan(plancheck.ExpectKnownValue("zulip_push_test_notification.test",
			tfjsonpath.New("endpoint"), knownvalue.StringExact("mobile_push/e2ee/test_notification"))).Clean().
			State(testAccPushSentCheck(srv, testAccPushOwnerE2EE)).Step(),
	)
}

// TestAccPushTestNotification_bouncerErrors checks that each push bouncer
// failure says what to do, and that a failed invocation is not recorded.
func TestAccPushTestNotification_bouncerErrors(t *testing.T) {
	for code, advice := range map[string][]string{
		"ADMIN_ACTION_REQUIRED":            {"server administrator must register the server with the push bouncer", "accept its terms of service"},
		"FAILED_TO_CONNECT_BOUNCER":        {"could not reach Zulip's push notification service", "retry later"},
		"INTERNAL_SERVER_ERROR_ON_BOUNCER": {"push notification service failed", "Retry later"},
	} {
		t.Run(code, func(t *testing.T) {
			srv := acctest.NewServer(t, func(o *refserver.Options) { o.PushBouncerError = code })
			owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
			acctest.ParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{
					acctest.Apply(owner + testAccPushTestNotificationDevice(2)).Fails(acctest.ExpectErr(append(advice, code)...)).Step(),
					{
						// Nothing was sent, nothing recorded: the plan still wants
						// to perform it.
						Config:             owner + testAccPushTestNotificationDevice(2),
						PlanOnly:           true,
						ExpectNonEmptyPlan: true,
						PreConfig: func() {
							if n := len(srv.SentNotifications()); n != 0 {
								t.Errorf("%d notifications sent despite %s", n, code)
							}
						},
					},
				},
			})
		})
	}
}

// TestAccPushTestNotification_remoteTokenUnknown uses a stub server, since
// the reference server has no push bouncer that could forget a token.
func TestAccPushTestNotification_remoteTokenUnknown(t *testing.T) {
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/server_settings":
			_, _ = fmt.Fprint(w, `{"result":"success","msg":"","zulip_feature_level":497,"zulip_version":"11.0"}`)
		case "/api/v1/users/me": // the provider checks its credentials when configured
			_, _ = fmt.Fprint(w, `{"result":"success","msg":"","user_id":1,"email":"someone@example.com","role":400,"is_active":true}`)
		case "/api/v1/mobile_push/test_notification":
			w.WriteHeader(http.StatusBadRequest)
			_, _ = fmt.Fprint(w, `{"result":"error","msg":"Device not recognized by the push bouncer","code":"INVALID_REMOTE_PUSH_DEVICE_TOKEN"}`)
		default:
			w.WriteHeader(http.StatusNotFound)
			_, _ = fmt.Fprint(w, `{"result":"error","msg":"Not Found","code":"BAD_REQUEST"}`)
		}
	}))
	t.Cleanup(stub.Close)
	acctest.ParallelSteps(t,
		acctest.Apply(fmt.Sprintf(`
provider "zulip" {
  url     = %q
  email   = "someone@example.com"
  api_key = "0123456789abcdef0123456789abcdef"
}

resource "zulip_push_test_notification" "test" {
  token = "ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12"
}`, stub.URL)).Fails(acctest.ExpectErr("token", "push bouncer) does not", "Register the device again", "INVALID_REMOTE_PUSH_DEVICE_TOKEN")).Step(),
	)
}

func TestAccPushTestNotification_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	step := func(body string, phrases ...string) resource.TestStep {
		return acctest.PlanFails(owner+"\nresource \"zulip_push_test_notification\" \"test\" {\n"+body+"\n}\n", phrases...)
	}
	acctest.ParallelSteps(t,
		step("token = \"ab12ab12\"\ndevice_id = 2", "Conflicting Devices", "device_id", "by token or by device_id, not both"),
		step("device_id = 2\nencrypted = false", "encrypted", "only the encrypted endpoint reaches"),
		step("token = \"ab12ab12\"\nencrypted = true", "encrypted", "only the legacy endpoint reaches"),
		step(`token = ""`, "token", "must be 1 to 4096 characters long"),
		step("device_id = 0", "device_id", "at least 1"),
	)
}

func TestAccPushTestNotification_featureLevels(t *testing.T) {
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 400 })
	older := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 200 })
	// Between 420 and 467 the device id is sent as push_account_id.
	pushAccount := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 450 })
	acctest.ParallelSteps(t,
		acctest.PlanFails(old.ProviderConfig(t, refserver.SeedOwnerID)+testAccPushTestNotificationDevice(2),
			"Zulip Server Too Old", "device_id", "needs Zulip feature level 420", "has feature level 400"),
		acctest.PlanFails(older.ProviderConfig(t, refserver.SeedOwnerID)+"\nresource \"zulip_push_test_notification\" \"test\" {}\n",
			"Zulip Server Too Old", "needs Zulip feature level 217", "has feature level 200"),
		acctest.Apply(pushAccount.ProviderConfig(t, refserver.SeedOwnerID)+testAccPushTestNotificationDevice(2)).
			State(testAccPushSentCheck(pushAccount, testAccPushOwnerE2EE)).Step(),
	)
}

func TestAccPushTestNotification_example(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	acctest.ParallelSteps(t,
		acctest.Apply(owner+acctest.ReadExample(t, "examples/resources/zulip_push_test_notification/resource.tf")).
			State(testAccPushSentCheck(srv, testAccPushOwnerAPNs, testAccPushOwnerE2EE)).Clean().Step(),
	)
}

func testAccPushTestNotificationDevice(id int) string {
	return fmt.Sprintf(`
resource "zulip_push_test_notification" "test" {
  device_id = %d
}
`, id)
}

// testAccPushSentCheck checks the notifications the reference server sent,
// each as "<device id> <kind>", in any order.
func testAccPushSentCheck(srv *acctest.Server, want ...string) statecheck.StateCheck {
	return acctest.ServerCheck(func() error {
		count := map[string]int{}
		var got []string
		for _, n := range srv.SentNotifications() {
			s := fmt.Sprintf("%d %s", n.DeviceID, n.Kind)
			count[s]++
			got = append(got, s)
		}
		for _, w := range want {
			count[w]--
		}
		for _, c := range count {
			if c != 0 {
				return fmt.Errorf("the server sent [%s], want [%s]", strings.Join(got, ", "), strings.Join(want, ", "))
			}
		}
		return nil
	})
}
