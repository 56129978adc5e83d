package operations_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

const (
	testAccAPNsToken1 = "740F4707BEBCF74F9B7C25D48E3358945F6AA01DA5DDB387462C7EAF61BB78AD"
	testAccAPNsToken2 = "1c9d4e6f0a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5"
)

func TestAccAPNsDeviceToken_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	mark := refserver.SeedMemberID
	addr := "zulip_apns_device_token.test"
	registered := func(devices ...string) statecheck.StateCheck {
		return acctest.ServerCheck(func() error { return testAccAPNsDevicesOnServer(srv, mark, devices...) })
	}
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			return testAccAPNsDevicesOnServer(srv, mark)
		},
		Steps: []resource.TestStep{
			acctest.Apply(member+testAccAPNsDeviceTokenConfig(testAccAPNsToken1, "org.zulip.Zulip")).Clean().State(
				// Zulip stores tokens as given (add_push_device_token in
				// zerver/lib/push_notifications.py); the id hashes the token
				// and never contains it.
				acctest.Value(addr, "id", knownvalue.StringFunc(func(id string) error {
					if want := testAccAPNsTokenID(testAccAPNsToken1); id != want {
						return fmt.Errorf("id %q, want %q", id, want)
					}
					if strings.Contains(strings.ToLower(id), strings.ToLower(testAccAPNsToken1)) {
						return fmt.Errorf("id %q contains the token", id)
					}
					return nil
				})),
				statecheck.ExpectSensitiveValue(addr, tfjsonpath.New("token")),
				acctest.Value(addr, "app_id", knownvalue.StringExact("org.zulip.Zulip")),
				registered(testAccAPNsToken1+" org.zulip.Zulip"),
			).Step(),
			acctest.ImportFails("", addr, testAccAPNsToken1, acctest.ExpectErr("Import Not Supported", "never returns registered tokens")),
			// A new app id replaces the registration: it is unregistered
			// first, since registering a registered token again would keep
			// the old app id.
			acctest.Apply(member+testAccAPNsDeviceTokenConfig(testAccAPNsToken1, "org.zulip.Zulip-beta")).
				Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).State(registered(testAccAPNsToken1 + " org.zulip.Zulip-beta")).Step(),
			// A new token unregisters the old one.
			acctest.Apply(member+testAccAPNsDeviceTokenConfig(testAccAPNsToken2, "org.zulip.Zulip")).
				Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).State(
				acctest.Value(addr, "id", knownvalue.StringExact(testAccAPNsTokenID(testAccAPNsToken2))),
				registered(testAccAPNsToken2+" org.zulip.Zulip"),
			).Step(),
			// Unregistered outside Terraform: Zulip cannot tell (documented),
			// and the final destroy finds the token gone without failing.
			acctest.Apply(member+testAccAPNsDeviceTokenConfig(testAccAPNsToken2, "org.zulip.Zulip")).OutOfBand(srv, func(r *refserver.Realm) {
				r.PushDevices = slices.DeleteFunc(r.PushDevices, func(d *refserver.PushDevice) bool {
					return d.UserID == mark && d.Kind == refserver.PushKindAPNs
				})
			}).Plan(plancheck.ExpectEmptyPlan()).Step(),
		},
	})
}

func TestAccAPNsDeviceToken_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	step := acctest.PlanFailsAs(member)
	acctest.ParallelSteps(t,
		step(testAccAPNsDeviceTokenConfig("", "org.zulip.Zulip"), "token", "must be 1 to 4096 characters long"),
		step(testAccAPNsDeviceTokenConfig(strings.Repeat("ab12", 1025), "org.zulip.Zulip"), "token", "must be 1 to 4096 characters long"),
		// An odd number of hexadecimal digits is neither hexadecimal nor base64.
		step(testAccAPNsDeviceTokenConfig(testAccAPNsToken2[:63], "org.zulip.Zulip"), "token", "is not a valid APNs token", "64 hexadecimal digits"),
		step(testAccAPNsDeviceTokenConfig("c0ffe", "org.zulip.Zulip"), "token", "is not a valid APNs token"),
		step(testAccAPNsDeviceTokenConfig("a bc", "org.zulip.Zulip"), "token", "is not a valid APNs token"),
		// Base64 is what servers before feature level 406 accepted; this one
		// requires hexadecimal.
		step(testAccAPNsDeviceTokenConfig("dGVzdC10b2tlbg==", "org.zulip.Zulip"), "Invalid APNs Device Token", "token",
			"feature level 511", "must be hexadecimal"),
		step(testAccAPNsDeviceTokenConfig(testAccAPNsToken2, "org zulip"), "app_id", "letters, digits, '.' and '-'"),
		step(testAccAPNsDeviceTokenConfig(testAccAPNsToken2, ""), "app_id", "letters, digits"),
	)
}

// TestAccAPNsDeviceToken_zulipRules registers the longest token, the API
// description's own example "c0ffee" and an upper-case one: tokens Zulip
// accepts (bytes.fromhex in validate_token) but that are not 64 lower-case
// hex digits. The plan-time check accepts exactly what the server accepts,
// and the server keeps each token as given.
func TestAccAPNsDeviceToken_zulipRules(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	long := strings.Repeat("ab12", 1024)
	acctest.ParallelSteps(t,
		acctest.Apply(member+testAccAPNsDeviceTokenConfig(long, "org.zulip.Zulip")+`
resource "zulip_apns_device_token" "example" {
  token  = "c0ffee"
  app_id = "org.zulip.Zulip"
}
resource "zulip_apns_device_token" "upper" {
  token  = "C0FFEE"
  app_id = "org.zulip.Zulip"
}`).State(
			acctest.Value("zulip_apns_device_token.upper", "id", knownvalue.StringExact(testAccAPNsTokenID("C0FFEE"))),
			acctest.ServerCheck(func() error {
				return testAccAPNsDevicesOnServer(srv, refserver.SeedMemberID, long+" org.zulip.Zulip", "c0ffee org.zulip.Zulip", "C0FFEE org.zulip.Zulip")
			}),
		).Clean().Step(),
	)
}

// TestAccAPNsDeviceToken_base64BeforeHex: a server before feature level 406
// decoded tokens as base64 (b64_to_hex in Zulip 9.x's validate_token), so the
// plan accepts a base64 token there and refuses the hexadecimal "c0ffee",
// which does not decode.
func TestAccAPNsDeviceToken_base64BeforeHex(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 405 })
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	b64 := "dGVzdC10b2tlbg=="
	acctest.ParallelSteps(t,
		acctest.PlanFails(member+testAccAPNsDeviceTokenConfig("c0ffee", "org.zulip.Zulip"),
			"Invalid APNs Device Token", `token  = "c0ffee"`, "feature level 405", "decodes as base64"),
		acctest.Apply(member+testAccAPNsDeviceTokenConfig(b64, "org.zulip.Zulip")).State(acctest.ServerCheck(func() error {
			return testAccAPNsDevicesOnServer(srv, refserver.SeedMemberID, b64+" org.zulip.Zulip")
		})).Step(),
	)
}

func TestAccAPNsDeviceToken_botRefused(t *testing.T) {
	srv := acctest.NewServer(t)
	bot := srv.ProviderConfig(t, refserver.SeedBotID)
	acctest.ParallelSteps(t,
		acctest.Apply(bot+testAccAPNsDeviceTokenConfig(testAccAPNsToken1, "org.zulip.Zulip")).
			Fails(acctest.ExpectErr("Unable to Register APNs Device Token", "does not accept bot requests")).Step(),
	)
}

func TestAccAPNsDeviceToken_example(t *testing.T) {
	srv := acctest.NewServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	token := "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			// The owner's seeded device stays; the example's token is gone.
			return testAccAPNsDevicesOnServer(srv, refserver.SeedOwnerID, strings.Repeat("ab12", 16)+" org.zulip.Zulip")
		},
		Steps: []resource.TestStep{
			acctest.Apply(owner + acctest.ReadExample(t, "examples/resources/zulip_apns_device_token/resource.tf")).
				Vars(config.Variables{"iphone_apns_token": config.StringVariable(token)}).State(
				acctest.ServerCheck(func() error {
					return testAccAPNsDevicesOnServer(srv, refserver.SeedOwnerID,
						strings.Repeat("ab12", 16)+" org.zulip.Zulip", token+" org.zulip.Zulip")
				}),
			).Clean().Step(),
		},
	})
}

func testAccAPNsDeviceTokenConfig(token, appID string) string {
	return fmt.Sprintf(`
resource "zulip_apns_device_token" "test" {
  token  = %q
  app_id = %q
}
`, token, appID)
}

// testAccAPNsTokenID is the id the resource should give a token.
func testAccAPNsTokenID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// testAccAPNsDevicesOnServer checks the user's APNs devices on the reference
// server, each given as "<token> <app id>", in any order.
func testAccAPNsDevicesOnServer(srv *acctest.Server, userID int, want ...string) error {
	var got []string
	srv.Do(func(r *refserver.Realm) {
		for _, d := range r.PushDevices {
			if d.UserID == userID && d.Kind == refserver.PushKindAPNs {
				got = append(got, d.Token+" "+d.AppID)
			}
		}
	})
	if len(got) != len(want) {
		return fmt.Errorf("user %d has APNs devices %q, want %q", userID, got, want)
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			return fmt.Errorf("user %d has APNs devices %q, want %q", userID, got, want)
		}
	}
	return nil
}
