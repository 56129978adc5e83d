package operations_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/sms"
)

// testAccSMSPassword is the SMS API password of the tests' servers: distinctive,
// so that finding it in a state or a log is unambiguous.
const testAccSMSPassword = "sms-pw-Zq8u2LkV0xTe"

var (
	testAccSMSConversationID = regexp.MustCompile(`^o[0-9a-f]+$`)
	testAccSMSNumber         = regexp.MustCompile(`^\+[1-9][0-9]{1,14}$`)
)

// TestAccSMSQuestion_lifecycle sends a question once, does not send it again
// on a second apply, delivers a reply carrying the token to the webhook, and
// sends it again when a trigger changes.
func TestAccSMSQuestion_lifecycle(t *testing.T) {
	srv := testAccSMSServer(t)
	hook := newTestAccSMSWebhook(t)
	addr := "zulip_sms_question.test"
	var firstID string
	config := func(rev string) string {
		return testAccSMSProvider(srv) + fmt.Sprintf(`
resource "zulip_sms_question" "test" {
  to        = "+46700000001"
  message   = "Deploy of rev %[1]s done. Reply OK to confirm."
  reply_url = %[2]q
  token     = "confirm-deploy"

  triggers = {
    rev = %[1]q
  }
}
`, rev, hook.URL)
	}
	// The message changes with the trigger, so the two are told apart below.
	config2 := strings.Replace(config("2"), "rev 2 done", "rev 1 done", 1)

	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(config("1")).Planned(addr, plancheck.ResourceActionCreate).Clean().
				State(testAccSMSSentChecks(srv, hook, addr, &firstID)...).Step(),
			// The recipient replies: the webhook receives the reply and the
			// token. A second apply sends nothing, although the conversation
			// is now closed (the recorded status is not refreshed).
			acctest.Apply(config("1")).
				Before(func() {
					res, err := srv.SMS().SimulateReply(context.Background(), firstID, "OK")
					if err != nil {
						t.Fatalf("simulating the reply: %v", err)
					}
					if res.Status != sms.StatusClosed {
						t.Errorf("after the reply the conversation is %q, want closed", res.Status)
					}
				}).
				Plan(plancheck.ExpectEmptyPlan()).
				State(
					acctest.Value(addr, "status", knownvalue.StringExact(sms.StatusStarted)),
					acctest.Value(addr, "id", knownvalue.StringFunc(func(id string) error {
						if id != firstID {
							return fmt.Errorf("id changed from %s to %s without a change", firstID, id)
						}
						if err := hook.expect("+46700000001", "OK", "confirm-deploy"); err != nil {
							return err
						}
						return testAccSMSConversations(srv, "+46700000001", 1, nil)
					})),
				).Step(),
			// A trigger change performs it again, and only that.
			acctest.Apply(config2).Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).Clean().
				State(acctest.Value(addr, "id", knownvalue.StringFunc(func(id string) error {
					if id == firstID {
						return fmt.Errorf("the question was not sent again")
					}
					return testAccSMSConversations(srv, "+46700000001", 2, nil)
				}))).Step(),
			// So does an argument change.
			acctest.Apply(strings.Replace(config2, "Reply OK to confirm.", "Reply OK to confirm, NO to roll back.", 1)).
				Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).
				State(acctest.Value(addr, "message", knownvalue.StringFunc(func(string) error {
					return testAccSMSConversations(srv, "+46700000001", 3, func(c []sms.Question) error {
						if !strings.HasSuffix(c[2].Message, "NO to roll back.") {
							return fmt.Errorf("latest question is %q", c[2].Message)
						}
						return nil
					})
				}))).Step(),
		},
		// Destroying only forgets: the conversations stay on the server.
		CheckDestroy: func(*terraform.State) error {
			return testAccSMSConversations(srv, "+46700000001", 3, nil)
		},
	})
}

// testAccSMSSentChecks checks the state and the server after the lifecycle
// test's first question is sent, and records its id in firstID.
func testAccSMSSentChecks(srv *acctest.Server, hook *testAccSMSWebhook, addr string, firstID *string) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		acctest.Value(addr, "status", knownvalue.StringExact(sms.StatusStarted)),
		acctest.Value(addr, "from", knownvalue.StringRegexp(testAccSMSNumber)),
		acctest.Value(addr, "lifetime", knownvalue.Int64Exact(16)),
		acctest.Value(addr, "delay_allowed", knownvalue.Bool(false)),
		acctest.Value(addr, "token", knownvalue.StringExact("confirm-deploy")),
		acctest.Value(addr, "items", knownvalue.ListSizeExact(1)),
		testAccSMSTimesCheck(addr, 16),
		acctest.Value(addr, "id", knownvalue.StringFunc(func(id string) error {
			if !testAccSMSConversationID.MatchString(id) {
				return fmt.Errorf("id %q is not a conversation id", id)
			}
			*firstID = id
			return testAccSMSConversations(srv, "+46700000001", 1, func(c []sms.Question) error {
				if c[0].ID != id || c[0].Token != "confirm-deploy" || c[0].ReplyURL != hook.URL {
					return fmt.Errorf("the server holds %+v", c[0])
				}
				return nil
			})
		})),
		acctest.SecretAbsent{Secret: testAccSMSPassword, What: "the SMS password"},
	}
}

// TestAccSMSQuestion_recipientLimit sends three questions to one number (the
// API's limit of active conversations per recipient), fails on a fourth, and
// queues the fourth with delay_allowed.
func TestAccSMSQuestion_recipientLimit(t *testing.T) {
	srv := testAccSMSServer(t)
	three := testAccSMSProvider(srv) + `
resource "zulip_sms_question" "first" {
  count     = 3
  to        = "+46700000002"
  message   = "Question ${count.index + 1}?"
  reply_url = "https://ops.example.com/reply"
  lifetime  = 2
}
`
	fourth := func(delay string) string {
		return three + fmt.Sprintf(`
resource "zulip_sms_question" "fourth" {
  to            = "+46700000002"
  message       = "Question 4?"
  reply_url     = "https://ops.example.com/reply"
  delay_allowed = %s
}
`, delay)
	}
	acctest.ParallelSteps(t,
		acctest.Apply(three).State(
			acctest.Value("zulip_sms_question.first[2]", "status", knownvalue.StringExact(sms.StatusStarted)),
			testAccSMSTimesCheck("zulip_sms_question.first[0]", 2),
		).Step(),
		acctest.Apply(fourth("false")).Fails(acctest.ExpectErr("Unable to Send SMS Question", "delay_allowed",
			"already has as many active conversations as the SMS API allows", "Too many active conversations")).Step(),
		acctest.Apply(fourth("true")).Clean().State(
			acctest.Value("zulip_sms_question.fourth", "status", knownvalue.StringExact(sms.StatusWaiting)),
			acctest.Value("zulip_sms_question.fourth", "from", knownvalue.Null()),
			acctest.Value("zulip_sms_question.fourth", "expires", knownvalue.Null()),
			acctest.Value("zulip_sms_question.fourth", "created", knownvalue.NotNull()),
			acctest.Value("zulip_sms_question.fourth", "items", knownvalue.ListSizeExact(0)),
			acctest.Value("zulip_sms_question.fourth", "delay_allowed", knownvalue.Bool(true)),
			acctest.Value("zulip_sms_question.fourth", "id", knownvalue.StringFunc(func(string) error {
				// The failed attempt sent nothing: three started, one waiting.
				return testAccSMSConversations(srv, "+46700000002", 4, func(c []sms.Question) error {
					if c[3].Status != sms.StatusWaiting {
						return fmt.Errorf("the fourth conversation is %q on the server", c[3].Status)
					}
					return nil
				})
			})),
		).Step(),
	)
}

func TestAccSMSQuestion_validation(t *testing.T) {
	srv := testAccSMSServer(t)
	question := func(attrs string) string {
		return fmt.Sprintf(`
resource "zulip_sms_question" "test" {
%s
}
`, attrs)
	}
	valid := map[string]string{
		"to": `"+46700000003"`, "message": `"Ready?"`, "reply_url": `"https://ops.example.com/reply"`,
	}
	with := func(attr, value string) string {
		var lines []string
		for _, k := range []string{"to", "message", "reply_url"} {
			v := valid[k]
			if k == attr {
				v = value
			}
			lines = append(lines, fmt.Sprintf("  %s = %s", k, v))
		}
		if _, ok := valid[attr]; !ok {
			lines = append(lines, fmt.Sprintf("  %s = %s", attr, value))
		}
		return question(strings.Join(lines, "\n"))
	}
	step := acctest.PlanFailsAs(testAccSMSProvider(srv))
	acctest.ParallelSteps(t,
		step(with("to", `"0700000003"`), "to", `"0700000003" is not an E.164 phone number`),
		step(with("to", `"+46 70 000 00 03"`), "to", "is not an E.164 phone number"),
		step(with("to", `"+0700000003"`), "to", "is not an E.164 phone number"),
		step(with("message", `"   "`), "message", "must not be empty"),
		step(with("reply_url", `"ftp://ops.example.com/reply"`), "reply_url", "must be an absolute http:// or https:// URL"),
		step(with("reply_url", `"/reply"`), "reply_url", "must be an absolute http:// or https:// URL"),
		step(with("reply_url", `"https:///reply"`), "reply_url", "has no host"),
		step(with("lifetime", "0"), "lifetime", "value must be between 1 and 72, got: 0"),
		step(with("lifetime", "73"), "lifetime", "value must be between 1 and 72, got: 73"),
		// No SMS credentials anywhere: the plan says where to put them.
		acctest.PlanFails(acctest.URLOnlyProvider(srv)+with("lifetime", "1"),
			"Missing SMS API Credentials", "username (ZULIP_SMS_USERNAME) and password (ZULIP_SMS_PASSWORD) missing", "`sms` block", "ZULIP_SMS_API_URL"),
	)
}

// TestAccSMSQuestion_wrongCredentials gets a clear error that does not echo
// the password.
func TestAccSMSQuestion_wrongCredentials(t *testing.T) {
	srv := testAccSMSServer(t)
	wrong := strings.Replace(testAccSMSProvider(srv), testAccSMSPassword, "not-the-password", 1)
	acctest.ParallelSteps(t,
		acctest.Apply(wrong+`
resource "zulip_sms_question" "test" {
  to        = "+46700000004"
  message   = "Ready?"
  reply_url = "https://ops.example.com/reply"
}
`).Fails(acctest.ExpectErr("The SMS API rejected the credentials", "`sms` block", "API said: Authentication failed")).Step(),
	)
	if n := len(srv.SMS().Conversations()); n != 0 {
		t.Errorf("%d conversations created with wrong credentials", n)
	}
}

// TestAccSMSQuestion_secretsNotLogged captures the provider's and Terraform's
// logs at TRACE level and checks that neither the SMS password nor the token
// appears in them or in the state. It cannot run in parallel: the log path is
// read from the environment.
func TestAccSMSQuestion_secretsNotLogged(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "acc.log")
	t.Setenv("TF_ACC_LOG_PATH", logFile)
	t.Setenv("TF_LOG", "TRACE")
	srv := testAccSMSServer(t)
	const token = "tok-Hq3nV8ycR1"
	acctest.Test(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(testAccSMSProvider(srv)+fmt.Sprintf(`
resource "zulip_sms_question" "test" {
  to        = "+46700000005"
  message   = "Ready?"
  reply_url = "https://ops.example.com/reply"
  token     = %q
}
`, token)).State(
				acctest.Value("zulip_sms_question.test", "status", knownvalue.StringExact(sms.StatusStarted)),
				acctest.SecretAbsent{Secret: testAccSMSPassword, What: "the SMS password"},
			).Step(),
		},
	})
	logs, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatalf("reading the logs: %v", err)
	}
	// The test harness logs each step's configuration, secrets included:
	// that is the test's own text, not something the provider or Terraform wrote.
	providerLogs := acctest.LogsWithout(string(logs), "sdk.helper_resource:")
	// The CLI's first log line names it: "Terraform version:" or, on
	// OpenTofu, "OpenTofu version:".
	cliLogged := strings.Contains(providerLogs, "Terraform version:") || strings.Contains(providerLogs, "OpenTofu version:")
	if !strings.Contains(providerLogs, "sent an SMS question") || !cliLogged {
		t.Fatalf("the log file does not hold both the CLI's and the provider's logs (%d bytes)", len(logs))
	}
	for name, secret := range map[string]string{"SMS password": testAccSMSPassword, "token": token} {
		if i := strings.Index(providerLogs, secret); i >= 0 {
			t.Errorf("the %s appears in the logs: %q", name, providerLogs[max(0, i-200):i])
		}
	}
}

// TestAccSMSQuestion_example applies the documentation's example.
func TestAccSMSQuestion_example(t *testing.T) {
	srv := testAccSMSServer(t)
	owner := srv.ProviderConfig(t, refserver.SeedOwnerID)
	owner = strings.Replace(owner, "\n}\n", "\n"+testAccSMSBlock(srv)+"}\n", 1)
	example := acctest.ReadExample(t, "examples/resources/zulip_sms_question/resource.tf")
	addr := "zulip_sms_question.confirm_partner_domain"
	acctest.ParallelSteps(t,
		acctest.Apply(owner+example).Clean().State(
			acctest.Value(addr, "status", knownvalue.StringExact(sms.StatusStarted)),
			acctest.Value(addr, "token", knownvalue.StringExact("allowed-domain/partner.example.com")),
			testAccSMSTimesCheck(addr, 4),
			acctest.Value(addr, "id", knownvalue.StringFunc(func(string) error {
				if err := acctest.DomainOnServer(srv, "partner.example.com", false); err != nil {
					return err
				}
				return testAccSMSConversations(srv, "+46700000000", 1, func(c []sms.Question) error {
					if !strings.HasPrefix(c[0].Message, "Zulip: partner.example.com may now join") {
						return fmt.Errorf("the server holds the message %q", c[0].Message)
					}
					return nil
				})
			})),
		).Step(),
	)
}

// testAccSMSServer starts a reference server whose SMS API has the tests' password.
func testAccSMSServer(t *testing.T) *acctest.Server {
	t.Helper()
	return acctest.NewServer(t, func(o *refserver.Options) { o.SMSPassword = testAccSMSPassword })
}

// testAccSMSBlock is the provider's sms block for the server.
func testAccSMSBlock(srv *acctest.Server) string {
	return fmt.Sprintf(`
  sms {
    api_url  = %q
    username = "sms-user"
    password = %q
  }
`, srv.URL, testAccSMSPassword)
}

// testAccSMSProvider is a provider block with the server's URL, no Zulip
// credentials (zulip_sms_question needs none) and the SMS API's.
func testAccSMSProvider(srv *acctest.Server) string {
	return fmt.Sprintf(`
provider "zulip" {
  url = %q
%s}
`, srv.URL, testAccSMSBlock(srv))
}

// testAccSMSConversations checks how many conversations the SMS API holds for
// a recipient (oldest first), then runs check on them if given.
func testAccSMSConversations(srv *acctest.Server, to string, want int, check func([]sms.Question) error) error {
	var got []sms.Question
	for _, c := range srv.SMS().Conversations() {
		if c.To == to {
			got = append(got, sms.Question{ID: c.ID, Status: c.Status, To: c.To, Message: c.Message, ReplyURL: c.ReplyURL, Token: c.Token})
		}
	}
	if len(got) != want {
		return fmt.Errorf("the SMS API holds %d conversations with %s, want %d", len(got), to, want)
	}
	if check != nil {
		return check(got)
	}
	return nil
}

// testAccSMSTimesCheck checks that created and expires are RFC 3339 and lifetime hours apart.
func testAccSMSTimesCheck(addr string, lifetime int) statecheck.StateCheck {
	return statecheck.CompareValuePairs(addr, tfjsonpath.New("created"), addr, tfjsonpath.New("expires"),
		testAccSMSTimeComparer(func(created, expires time.Time) error {
			if d := expires.Sub(created); d != time.Duration(lifetime)*time.Hour {
				return fmt.Errorf("expires is %s after created, want %dh", d, lifetime)
			}
			return nil
		}))
}

// testAccSMSTimeComparer adapts a function of two times to compare.ValueComparer.
type testAccSMSTimeComparer func(created, expires time.Time) error

// CompareValues parses both values as RFC 3339 and calls the function.
func (f testAccSMSTimeComparer) CompareValues(values ...any) error {
	if len(values) != 2 {
		return fmt.Errorf("want 2 values, got %d", len(values))
	}
	var times [2]time.Time
	for i, v := range values {
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("value %d is %T, want a string", i, v)
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return err
		}
		if t.Location() != time.UTC {
			return fmt.Errorf("%s is not in UTC", s)
		}
		times[i] = t
	}
	return f(times[0], times[1])
}

// testAccSMSWebhook is a reply_url receiver that records the replies it gets.
type testAccSMSWebhook struct {
	URL     string
	mu      sync.Mutex
	replies []sms.Reply
}

// newTestAccSMSWebhook starts a receiver for the test's duration.
func newTestAccSMSWebhook(t *testing.T) *testAccSMSWebhook {
	t.Helper()
	h := &testAccSMSWebhook{}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reply, err := sms.ParseReply(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		h.replies = append(h.replies, reply)
		h.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(s.Close)
	h.URL = s.URL + "/hooks/confirm"
	return h
}

// expect checks that exactly one reply arrived, with these values.
func (h *testAccSMSWebhook) expect(from, message, token string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.replies) != 1 {
		return fmt.Errorf("the webhook received %d replies, want 1", len(h.replies))
	}
	r := h.replies[0]
	if r.From != from || r.Message != message || r.Token != token {
		return fmt.Errorf("the webhook received from=%q message=%q token=%q, want %q %q %q", r.From, r.Message, r.Token, from, message, token)
	}
	return nil
}

// TestAccSMSQuestion_credentialsKnownOnlyAtApply feeds the SMS password from a
// resource created in the same run: the plan must not report it missing.
func TestAccSMSQuestion_credentialsKnownOnlyAtApply(t *testing.T) {
	srv := testAccSMSServer(t)
	acctest.ParallelSteps(t,
		acctest.Apply(fmt.Sprintf(`
resource "terraform_data" "sms_password" {
  input = %q
}

provider "zulip" {
  url = %q
  sms {
    api_url  = %q
    username = "sms-user"
    password = terraform_data.sms_password.output
  }
}

resource "zulip_sms_question" "test" {
  to        = "+46700000009"
  message   = "Deploy finished?"
  reply_url = "https://ops.example.com/reply"
}
`, testAccSMSPassword, srv.URL, srv.URL)).OnServer(func() error {
			return testAccSMSConversations(srv, "+46700000009", 1, nil)
		}).Step(),
	)
}
