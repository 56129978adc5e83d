package acctest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// ReadOnce checks that several data sources of typ, one per body (its
// arguments, "" for none), read the collection behind them with one request
// of method and path per run. A member reads them, from a server that seed
// (nil for none) fills first.
func ReadOnce(t *testing.T, seed func(*refserver.Realm), typ string, bodies []string, method, path string) {
	t.Helper()
	srv := NewServer(t)
	if seed != nil {
		srv.Do(seed)
	}
	var config strings.Builder
	config.WriteString(srv.ProviderConfig(t, refserver.SeedMemberID))
	for i, body := range bodies {
		fmt.Fprintf(&config, "\ndata %q \"n%d\" {\n%s}\n", typ, i, body)
	}
	ParallelTest(t, resource.TestCase{Steps: ConstantRefreshCost(srv, config.String(), len(bodies), method, path, 1)})
}
