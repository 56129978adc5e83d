package kit

import (
	"context"
	"errors"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Ctrl-C in a terminal interrupts Terraform and its providers alike (the
// whole process group). Terraform then asks its providers to stop
// (StopProvider), which ends every operation's context, but not in every
// phase: under `terraform apply`, an interrupt while the plan is being made
// reached no provider, and a configure waiting for the rate-limit budget ran on
// for a minute. So the provider also acts on the interrupt it receives itself:
// main calls Interrupt, and every operation the protocol wrapper runs
// (interruptible) ends at once, as after StopProvider. A create interrupted
// before its request left says so (zulip.IsNotSent) and is not looked for.

// interrupted is closed by Interrupt.
var interrupted = struct {
	once sync.Once
	ch   chan struct{}
}{ch: make(chan struct{})}

// errInterrupted is the cause of an operation's context that Interrupt ended.
var errInterrupted = errors.New("interrupted (Ctrl-C)")

// Interrupt ends every operation of the provider in flight, and every one
// started after, as Terraform's StopProvider does. main calls it on SIGINT.
func Interrupt() { interrupted.once.Do(func() { close(interrupted.ch) }) }

// interruptible returns a context that Interrupt ends, and its release.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	go func() {
		select {
		case <-interrupted.ch:
			cancel(errInterrupted)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { cancel(nil) }
}

// ConfigureProvider configures the provider under an interruptible context:
// its credential check may wait for the rate-limit budget.
func (v visibleWaits) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	ctx, release := interruptible(ctx)
	defer release()
	return v.fullServer.ConfigureProvider(ctx, req)
}
