package operations_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
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
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   acctest.EphemeralVersions,
		ProtoV6ProviderFactories: acctest.EphemeralFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: srv.ResetRequests,
				Config:    config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("queue_id"), knownvalue.StringRegexp(testAccUUID)),
					statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("last_event_id"), knownvalue.Int64Exact(-1)),
					statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("zulip_feature_level"), knownvalue.Int64Exact(refserver.DefaultFeatureLevel)),
					statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("zulip_version"), knownvalue.StringExact(refserver.DefaultVersion)),
					testAccQueuesClosed{srv: srv, userID: refserver.SeedAdminID},
				},
			},
			{
				// A second run opens (and closes) a new queue; the echo resource
				// keeps what it recorded first, so the plan stays empty.
				PreConfig: srv.ResetRequests,
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					testAccQueuesClosed{srv: srv, userID: refserver.SeedAdminID},
				},
			},
			{
				// Without the echo provider nothing of the queue reaches the state.
				PreConfig: srv.ResetRequests,
				Config: admin + `
ephemeral "zulip_event_queue" "test" {}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					testAccQueuesClosed{srv: srv, userID: refserver.SeedAdminID},
					testAccStateHasNoResources{},
				},
			},
		},
	})
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
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   acctest.EphemeralVersions,
		ProtoV6ProviderFactories: acctest.EphemeralFactories,
		Steps: []resource.TestStep{{
			PreConfig: srv.ResetRequests,
			Config: admin + `
ephemeral "zulip_event_queue" "test" {
  event_types = ["message"]
}

provider "echo" {
  data = ephemeral.zulip_event_queue.test.queue_id
}

resource "echo" "test" {}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data"), knownvalue.StringFunc(func(string) error {
					// Close did meet an expired queue, and did not fail the run.
					if !strings.Contains(requestLog.String(), "DELETE /api/v1/events -> 400") {
						return fmt.Errorf("no DELETE /events was answered 400 BAD_EVENT_QUEUE_ID; request log:\n%s", requestLog.String())
					}
					return nil
				})),
				testAccQueuesClosed{srv: srv, userID: refserver.SeedAdminID},
			},
		}},
	})
}

func TestAccEventQueue_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   acctest.EphemeralVersions,
		ProtoV6ProviderFactories: acctest.EphemeralFactories,
		Steps: []resource.TestStep{
			{
				Config: admin + `
ephemeral "zulip_event_queue" "test" {
  event_types = ["message", ""]
}
`,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("event_types[1]", "must not be empty"),
			},
			{
				Config: admin + `
ephemeral "zulip_event_queue" "test" {
  fetch_event_types = [" realm"]
}
`,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("fetch_event_types[0]", "must not start or end with whitespace"),
			},
			{
				// A provider with only a URL can fetch a development API key, not register a queue.
				Config: fmt.Sprintf(`
provider "zulip" {
  url = %q
}

ephemeral "zulip_event_queue" "test" {}
`, srv.URL),
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("Missing Zulip Credentials", "ZULIP_EMAIL"),
			},
		},
	})
}

// TestAccEventQueue_example applies the documentation's example, whose
// local-exec provisioner receives the queue's values.
func TestAccEventQueue_example(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	example, err := os.ReadFile(acctest.RepoPath("examples/ephemeral-resources/zulip_event_queue/ephemeral-resource.tf"))
	if err != nil {
		t.Fatal(err)
	}
	acctest.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   acctest.EphemeralVersions,
		ProtoV6ProviderFactories: acctest.EphemeralFactories,
		Steps: []resource.TestStep{{
			PreConfig: srv.ResetRequests,
			Config:    admin + string(example),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("terraform_data.watch", tfjsonpath.New("id"), knownvalue.NotNull()),
				testAccQueuesClosed{srv: srv, userID: refserver.SeedAdminID},
			},
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
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
