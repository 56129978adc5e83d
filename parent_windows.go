//go:build windows

package main

import (
	"os"
	"time"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
)

// drainTimeout bounds how long an orphaned provider finishes the creates in
// flight (see parent_unix.go).
const drainTimeout = 15 * time.Second

// exitWithParent ends the process when its parent does. Windows does not re-parent
// orphans, so the parent process id never changes; instead the provider holds a handle
// to its parent, which also keeps the id from being reused, and waits on it.
func exitWithParent() {
	parent, err := os.FindProcess(os.Getppid())
	if err != nil {
		return // the parent is already gone or cannot be watched; nothing better to do
	}
	go func() {
		// An error means the parent could not be waited on, not that it exited.
		if _, err := parent.Wait(); err == nil {
			kit.Drain(drainTimeout)
			os.Exit(1)
		}
	}()
}

// parentCommand is nil on Windows, where reading another process's command
// line needs more than the standard library offers: the provider does not
// know that Terraform destroys (see provider.WithTerraformCommand).
func parentCommand() []string { return nil }
