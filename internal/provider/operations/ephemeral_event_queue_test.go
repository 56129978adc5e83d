package operations_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

var testAccUUID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// TestAccEventQueue_openAndClose opens a queue, sees its values through the
// echo provider, and checks on the server that every queue registered during
// the run was deleted again.
func TestAccEventQueue_openAndClose(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	config := admin + `
ephemeral "zulip_event_queue" "test" {
  event_types       = ["message", "realm_linkifiers"]
  fetch_event_types = []
}

provider "echo" {
  data = ephemeral.zulip_event_queue.test
}

resource "echo" "test" {}
`
	data := func(key string, want knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey(key), want)
	}
	closed := testAccQueuesClosed{srv: srv, userID: refserver.SeedAdminID}
	acctest.ParallelTest(t, acctest.EphemeralCase(
		acctest.Apply(config).Before(srv.ResetRequests).State(
			data("queue_id", knownvalue.StringRegexp(testAccUUID)),
			data("last_event_id", knownvalue.Int64Exact(-1)),
			data("zulip_feature_level", knownvalue.Int64Exact(refserver.DefaultFeatureLevel)),
			data("zulip_version", knownvalue.StringExact(refserver.DefaultVersion)),
			closed,
		).Step(),
		// A second run opens (and closes) a new queue; the echo resource
		// keeps what it recorded first, so the plan stays empty.
		acctest.Apply(config).Before(srv.ResetRequests).Plan(plancheck.ExpectEmptyPlan()).State(closed).Step(),
		// Without the echo provider nothing of the queue reaches the state.
		acctest.Apply(admin+"\nephemeral \"zulip_event_queue\" \"test\" {}\n").Before(srv.ResetRequests).
			State(closed, testAccStateHasNoResources{}).Step(),
	))
}

// TestAccEventQueue_alreadyGoneAtClose runs against a server whose clock jumps
// eleven minutes at every reading, so that every queue has expired (Zulip
// drops queues idle for ten minutes) by the time Terraform closes it: Close
// meets BAD_EVENT_QUEUE_ID and must not fail the run.
func TestAccEventQueue_alreadyGoneAtClose(t *testing.T) {
	var ticks atomic.Int64
	start := time.Now()
	var requestLog testAccSyncBuffer
	srv := acctest.NewServer(t, func(o *refserver.Options) {
		o.Clock = func() time.Time { return start.Add(time.Duration(ticks.Add(1)) * 11 * time.Minute) }
		o.Logger = log.New(&requestLog, "", 0)
	})
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, acctest.EphemeralCase(
		acctest.Apply(admin+`
ephemeral "zulip_event_queue" "test" {
  event_types = ["message"]
}

provider "echo" {
  data = ephemeral.zulip_event_queue.test.queue_id
}

resource "echo" "test" {}
`).Before(srv.ResetRequests).State(
			acctest.Value("echo.test", "data", knownvalue.StringFunc(func(string) error {
				// Close did meet an expired queue, and did not fail the run.
				if !strings.Contains(requestLog.String(), "DELETE /api/v1/events -> 400") {
					return fmt.Errorf("no DELETE /events was answered 400 BAD_EVENT_QUEUE_ID; request log:\n%s", requestLog.String())
				}
				return nil
			})),
			testAccQueuesClosed{srv: srv, userID: refserver.SeedAdminID},
		).Step(),
	))
}

func TestAccEventQueue_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, acctest.EphemeralCase(
		acctest.PlanFails(admin+"\nephemeral \"zulip_event_queue\" \"test\" {\n  event_types = [\"message\", \"\"]\n}\n",
			"event_types[1]", "must not be empty"),
		acctest.PlanFails(admin+"\nephemeral \"zulip_event_queue\" \"test\" {\n  fetch_event_types = [\" realm\"]\n}\n",
			"fetch_event_types[0]", "must not start or end with whitespace"),
		// A provider with only a URL can fetch a development API key, not register a queue.
		acctest.PlanFails(acctest.URLOnlyProvider(srv)+"\nephemeral \"zulip_event_queue\" \"test\" {}\n",
			"Missing Zulip Credentials", "ZULIP_EMAIL"),
	))
}

// TestAccEventQueue_example applies the documentation's example, whose
// local-exec provisioner receives the queue's values.
func TestAccEventQueue_example(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, acctest.EphemeralCase(
		acctest.Apply(admin+acctest.ReadExample(t, "examples/ephemeral-resources/zulip_event_queue/ephemeral-resource.tf")).Before(srv.ResetRequests).State(
			acctest.Value("terraform_data.watch", "id", knownvalue.NotNull()),
			testAccQueuesClosed{srv: srv, userID: refserver.SeedAdminID},
		).Clean().Step(),
	))
}

// testAccQueuesClosed checks that queues were registered since the last
// ResetRequests, that as many deletions were asked for, and that the user
// holds no queue any more.
type testAccQueuesClosed struct {
	srv    *acctest.Server
	userID int
}

// CheckState implements statecheck.StateCheck.
func (c testAccQueuesClosed) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	registered := c.srv.Requests("POST", "/api/v1/register")
	deleted := c.srv.Requests("DELETE", "/api/v1/events")
	switch {
	case registered == 0:
		resp.Error = fmt.Errorf("no event queue was registered")
	case deleted != registered:
		resp.Error = fmt.Errorf("%d event queues were registered but %d deleted", registered, deleted)
	case len(c.srv.QueueIDs(c.userID)) != 0:
		resp.Error = fmt.Errorf("event queues left on the server: %v", c.srv.QueueIDs(c.userID))
	}
}

// testAccSyncBuffer is a bytes.Buffer safe for concurrent use.
type testAccSyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write implements io.Writer.
func (b *testAccSyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *testAccSyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testAccStateHasNoResources checks that the state holds no resource at all.
type testAccStateHasNoResources struct{}

// CheckState implements statecheck.StateCheck.
func (testAccStateHasNoResources) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
		return
	}
	if n := len(req.State.Values.RootModule.Resources); n != 0 {
		resp.Error = fmt.Errorf("the state holds %d resources, want none: %v", n, req.State.Values.RootModule.Resources[0].Address)
	}
}
