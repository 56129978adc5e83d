package acctest

// Half-failed creates converge: the first write of a create succeeds and the
// next write of it fails. The apply keeps the object in state, untainted,
// with a warning; the next plain apply finishes it in place (an update, not a
// replacement) and plans empty; or `terraform destroy` removes it. For a
// create that is one write (HalfCase.SingleRequest) the test checks that it
// is still one (a second one would need this test), and nothing more.

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// halfCases are the creates the half-failure test runs: every collection
// object's kit case (one write each), and the managed types' Half cases.
func (c Contract) halfCases() map[string]HalfCase {
	out := map[string]HalfCase{}
	for typ, tc := range c.Types {
		switch {
		case tc.Half != nil:
			out[typ] = *tc.Half
		case tc.Kit != nil:
			out[typ] = HalfCase{User: tc.Kit.User, Config: tc.Kit.Config, Create: tc.Kit.Create, SingleRequest: true}
		}
	}
	return out
}

// halfCreates runs each half case finished and, when the create has a
// second write to fail, also destroyed.
func (c Contract) halfCreates(t *testing.T) {
	cases := c.halfCases()
	for _, typ := range c.sortedTypes(func(tc TypeContract) bool { return tc.Half != nil || tc.Kit != nil }) {
		hc := cases[typ]
		t.Run(typ, func(t *testing.T) { halfCreate(t, typ, hc, false) })
		if !hc.SingleRequest {
			t.Run(typ+"/destroyed", func(t *testing.T) { halfCreate(t, typ, hc, true) })
		}
	}
}

// halfWrites counts a create's writes and fails its second one.
type halfWrites struct {
	created        bool
	writes, failed int
}

// fault is the proxy's fault function for a create c.
func (h *halfWrites) fault(c HalfCase) func(*http.Request) Fault {
	return func(r *http.Request) Fault {
		switch req := r.Method + " " + r.URL.Path; {
		case req == c.Create && !h.created:
			h.created, h.writes = true, 1
		case h.created && isWrite(r) && h.writes < 100:
			h.writes++
			if !c.SingleRequest && h.failed == 0 {
				h.failed++
				return Fault{Status: http.StatusBadRequest}
			}
		}
		return Fault{}
	}
}

// halfCreate runs one half case.
func halfCreate(t *testing.T, typ string, c HalfCase, destroy bool) {
	srv := NewServer(t)
	h := &halfWrites{}
	cfg := srv.FaultyProviderConfig(t, c.User, h.fault(c)) + c.Config
	var steps []resource.TestStep
	switch {
	case c.SingleRequest:
		steps = []resource.TestStep{{Config: cfg, Check: func(*terraform.State) error {
			if h.writes != 1 {
				return fmt.Errorf("%s's create took %d writes: it is no longer SingleRequest, and its "+
					"second write is half-failed by this test", typ, h.writes)
			}
			return nil
		}}}
	case destroy:
		// terraform destroy right after the half-made create: nothing the
		// create checks stands in its way.
		steps = []resource.TestStep{halfMadeStep(typ, cfg, h), {Config: cfg, Destroy: true}}
	default:
		steps = []resource.TestStep{halfMadeStep(typ, cfg, h), {
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(typ+".test", plancheck.ResourceActionUpdate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}}
	}
	ParallelTest(t, resource.TestCase{TerraformVersionChecks: c.Versions, Steps: steps})
}

// halfMadeStep applies the create whose second write fails: the object is
// in state, untainted, and a change is still planned.
func halfMadeStep(typ, cfg string, h *halfWrites) resource.TestStep {
	return resource.TestStep{
		Config:             cfg,
		ExpectNonEmptyPlan: true,
		Check: func(s *terraform.State) error {
			rs := s.RootModule().Resources[typ+".test"]
			switch {
			case h.failed == 0:
				return fmt.Errorf("%s's create took one write: make its Half case SingleRequest", typ)
			case rs == nil:
				return fmt.Errorf("the half-made %s is not in state", typ)
			case rs.Primary.Tainted:
				return fmt.Errorf("the half-made %s is tainted", typ)
			}
			return nil
		},
	}
}

// isWrite reports a request that changes the organization (not a read, nor
// the event queue the provider registers for its creates).
func isWrite(r *http.Request) bool {
	return r.Method != http.MethodGet && r.URL.Path != "/api/v1/register" && r.URL.Path != "/api/v1/events"
}
