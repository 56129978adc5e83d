package acctest

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// ReadOnce is the steps that check that several data sources of typ, one per
// body (its arguments, "" for none), read the collection behind them with one
// request of method and path per run, under the provider block provider.
func ReadOnce(srv *Server, provider, typ string, bodies []string, method, path string) []resource.TestStep {
	var config strings.Builder
	config.WriteString(provider)
	for i, body := range bodies {
		fmt.Fprintf(&config, "\ndata %q \"n%d\" {\n%s}\n", typ, i, body)
	}
	return ConstantRefreshCost(srv, config.String(), len(bodies), method, path, 1)
}
