// Command terraform-provider-zulip serves the Zulip Terraform provider.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
)

// version is set by the release build (goreleaser: -X main.version=...).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/zulip-terraform/zulip",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
