// Command gen-realm generates, from internal/realmspec's tables, the code
// that handles the organization's settings one by one: the client's typed
// PATCH /realm and PATCH /realm/user_settings_defaults requests and their
// encoding (internal/zulip/realm_settings_gen.go), and the provider's schema,
// model and mapping of zulip_realm, zulip_realm_user_defaults and the data
// source zulip_realm (internal/provider/realm/realm_settings_gen.go).
//
// Run it with go generate ./internal/realmspec (make generate does); a test
// of this package fails when the committed files differ from its output.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("root", ".", "the repository's root directory")
	flag.Parse()
	files, err := render()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen-realm:", err)
		os.Exit(1)
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(*root, name), src, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen-realm:", err)
			os.Exit(1)
		}
	}
}
