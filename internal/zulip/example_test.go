package zulip_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// Example shows the intended flow of a caller such as the provider's Configure: resolve
// credentials per field, name what is missing, build one shared client, and branch on
// errors with the helpers.
func Example() {
	creds, sources, err := zulip.ResolveCredentials(zulip.Credentials{Site: "https://chat.example.com"}, os.Getenv, "")
	if err != nil {
		log.Fatal(err) // e.g. "zuliprc file /home/me/.zuliprc, line 3: ..."
	}
	if missing := creds.Missing(); len(missing) > 0 {
		log.Printf("missing %s (site from %q)", strings.Join(missing, ", "), sources.Site)
		return
	}
	client, err := zulip.New(zulip.Config{
		SiteURL:   creds.Site,
		Email:     creds.Email,
		APIKey:    creds.APIKey,
		UserAgent: zulip.UserAgent("1.0.0"),
	})
	if err != nil {
		log.Fatal(err)
	}
	err = client.DeleteLinkifier(context.Background(), 42)
	switch {
	case zulip.IsNotFound(err):
		fmt.Println("already gone")
	case zulip.IsUnauthorizedPrincipal(err):
		fmt.Println("needs an administrator")
	case err != nil:
		log.Fatal(err)
	}
}
