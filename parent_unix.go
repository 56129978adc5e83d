//go:build unix

package main

import (
	"os"
	"time"
)

// parentPoll is how often the provider checks that Terraform is still there: the time
// an orphaned provider may outlive it.
const parentPoll = time.Second

// exitWithParent ends the process soon after its parent does. On Unix an orphan is
// adopted by init (or a subreaper), so a changed parent process id means the parent is
// gone; no signal or pipe tells a go-plugin server that reliably.
func exitWithParent() {
	parent := os.Getppid()
	if parent <= 1 {
		// Already adopted, or started by init itself: there is no Terraform to watch.
		return
	}
	go func() {
		for range time.Tick(parentPoll) {
			if os.Getppid() != parent {
				os.Exit(1)
			}
		}
	}()
}
