//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

// parentPoll is how often the provider checks that Terraform is still there: the time
// an orphaned provider may outlive it.
const parentPoll = time.Second

// drainTimeout bounds how long an orphaned provider finishes the creates in
// flight, so that the create journal records what they made (see
// provider.WithCreateJournal) before it exits.
const drainTimeout = 15 * time.Second

// exitWithParent ends the process soon after its parent does, once the
// creates in flight are done. On Unix an orphan is
// adopted by init (or a subreaper), so a changed parent process id means the parent is
// gone; no signal or pipe tells a go-plugin server that reliably.
func exitWithParent() {
	parent := os.Getppid()
	if parent <= 1 {
		// Already adopted, or started by init itself: there is no Terraform to watch.
		return
	}
	// Terraform reads the provider's stdout and stderr through pipes. Once it is
	// gone, the first log line written to them would raise SIGPIPE, which by Go's
	// rule ends a process that writes to fd 1 or 2 at once: the creates in flight
	// would die before they are journaled. Asking for the signal turns it into an
	// EPIPE error that the logger drops.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	go func() {
		for range time.Tick(parentPoll) {
			if os.Getppid() != parent {
				kit.Drain(drainTimeout)
				os.Exit(1)
			}
		}
	}()
}

// parentCommand is the command line of the process that started the provider
// (Terraform), from /proc where there is one, else from ps; nil when neither
// says.
func parentCommand() []string {
	parent := os.Getppid()
	if parent <= 1 {
		return nil
	}
	if raw, err := os.ReadFile("/proc/" + strconv.Itoa(parent) + "/cmdline"); err == nil {
		return strings.Split(string(bytes.TrimRight(raw, "\x00")), "\x00")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ps", "-o", "args=", "-p", strconv.Itoa(parent)).Output()
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}
