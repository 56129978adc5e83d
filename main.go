// Command terraform-provider-zulip serves the Zulip Terraform provider.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"

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

	// A provider process lives for one command: let its heap grow before
	// collecting (kit.TuneGC; GOGC and GOMEMLIMIT still decide when set).
	kit.TuneGC(os.Getenv)

	// The SDK's loggers default to TRACE; when nobody asked for logs, Terraform
	// would parse and drop every line (see kit.QuietUnrequestedLogs).
	if err := kit.QuietUnrequestedLogs(os.Environ(), os.Setenv); err != nil {
		log.Fatal(err.Error())
	}

	// ZULIP_PROVIDER_CPU_PROFILE=DIR writes a CPU profile of each provider
	// process to DIR/cpu-PID.pprof (Terraform starts several per command), to
	// see where the provider's own time goes (docs/guides/performance.md).
	if dir := os.Getenv("ZULIP_PROVIDER_CPU_PROFILE"); dir != "" {
		stop, err := cpuProfile(dir)
		if err != nil {
			log.Fatal(err.Error())
		}
		defer stop()
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
		log.Print(err.Error())
		os.Exit(1) //nolint:gocritic // the profile of a failed serve is not wanted
	}
}

// cpuProfile starts a CPU profile written to dir/cpu-PID.pprof; stop ends it.
func cpuProfile(dir string) (stop func(), err error) {
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", os.Getpid())))
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}
