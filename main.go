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

	// Terraform starts the provider as its child and stops it when done. A Terraform
	// killed outright (SIGKILL, OOM killer, a CI job cancelled) stops nothing, and
	// go-plugin does not notice its client is gone: the provider would serve an empty
	// socket forever, or finish half an apply for no one. In debug mode the provider
	// is started by hand and outlives any one Terraform on purpose.
	if !debug {
		exitWithParent()
	}

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/zulip-terraform/zulip",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
