// Command terraform-provider-zulip serves the Zulip Terraform provider.
package main

import (
	"flag"
	"log"
	"os"
	"os/signal"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
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
	var terraformArgs []string
	// The create journal lives in Terraform's data directory (provider.WithCreateJournal);
	// a provider started by hand for a debugger serves many working directories.
	journalDir := ""
	if !debug {
		journalDir = kit.DataDir(os.Getenv)
		exitWithParent()
		terraformArgs = parentCommand()
		// Ctrl-C reaches the provider too (the terminal signals the whole
		// process group); go-plugin ignores it, but the provider ends the
		// operations in flight at once (see kit.Interrupt).
		interrupts := make(chan os.Signal, 1)
		signal.Notify(interrupts, os.Interrupt)
		go func() {
			<-interrupts
			kit.Interrupt()
		}()
	}

	// The SDK's loggers default to TRACE; when nobody asked for logs, Terraform
	// would parse and drop every line (see kit.QuietUnrequestedLogs).
	if err := kit.QuietUnrequestedLogs(os.Environ(), os.Setenv); err != nil {
		log.Fatal(err.Error())
	}

	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	// The framework's server, wrapped so that operations slowed down by the
	// server's rate limit say so (kit.WithVisibleWaits).
	serve := func() tfprotov6.ProviderServer {
		return kit.WithVisibleWaits(providerserver.NewProtocol6(provider.New(version,
			provider.WithTerraformCommand(terraformArgs), provider.WithCreateJournal(journalDir))())())
	}
	err := tf6server.Serve("registry.terraform.io/zulip-terraform/zulip", serve, opts...)
	// The event queues of this run's creates: Terraform has stopped the server.
	kit.CloseEventQueues()
	if err != nil {
		log.Fatal(err.Error())
	}
}
