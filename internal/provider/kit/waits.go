package kit

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Terraform shows a provider's log lines only when TF_LOG is set, so a run
// slowed down by the server's rate limit would look hung. The client reports
// every wait over a second (the Warnf hook); those waits are collected per
// Terraform operation and returned with it as one warning diagnostic, which
// Terraform always shows (and consolidates across resources).

// waitNotes are the waits of one Terraform operation.
type waitNotes struct {
	mu      sync.Mutex
	total   time.Duration
	reasons map[string]int
}

// waitNotesKey is the context key of an operation's waitNotes.
type waitNotesKey struct{}

// withWaitNotes returns a context that collects the waits made under it.
func withWaitNotes(ctx context.Context) (context.Context, *waitNotes) {
	n := &waitNotes{reasons: map[string]int{}}
	return context.WithValue(ctx, waitNotesKey{}, n), n
}

// NoteWait records a wait the client announced (msg, and the "wait" field
// as a duration) in the operation's notes, when the context has them.
func NoteWait(ctx context.Context, msg string, fields map[string]any) {
	n, ok := ctx.Value(waitNotesKey{}).(*waitNotes)
	if !ok {
		return
	}
	s, _ := fields["wait"].(string)
	d, err := time.ParseDuration(s)
	if err != nil {
		return
	}
	what := strings.TrimPrefix(msg, "zulip: ")
	if reason, _ := fields["reason"].(string); reason != "" {
		what += " after " + reason
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.total += d
	n.reasons[what]++
}

// appendTo adds the warning to an operation's diagnostics when it waited.
func (n *waitNotes) appendTo(diags []*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.total == 0 {
		return diags
	}
	reasons := make([]string, 0, len(n.reasons))
	for r, count := range n.reasons {
		if count > 1 {
			r = fmt.Sprintf("%s (%d times)", r, count)
		}
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	return append(diags, &tfprotov6.Diagnostic{
		Severity: tfprotov6.DiagnosticSeverityWarning,
		Summary:  "Waited for the Zulip Server",
		Detail: fmt.Sprintf("This operation waited %s for the Zulip server: %s. Zulip allows about 200 requests a "+
			"minute per account; the provider paces itself and retries within max_retries and max_retry_wait. "+
			"Set TF_LOG=warn to see each wait as it starts.", n.total.Round(time.Second), strings.Join(reasons, "; ")),
	})
}

// WithVisibleWaits wraps the provider's protocol server so that every
// operation on a resource, data source or ephemeral resource that waited for
// the server (rate limits, retries) says so in a warning.
// The framework's server also serves actions and list resources; the wrapper
// passes those on as they are (a server without them is returned unwrapped).
func WithVisibleWaits(s tfprotov6.ProviderServer) tfprotov6.ProviderServer {
	full, ok := s.(fullServer)
	if !ok {
		return s
	}
	return visibleWaits{fullServer: full}
}

// fullServer is a protocol server with every optional RPC set the framework
// implements: without them in the wrapper, Terraform would find actions and
// list resources "not implemented".
type fullServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ActionServer
	tfprotov6.ListResourceServer
}

// visibleWaits is the wrapper WithVisibleWaits returns.
type visibleWaits struct {
	fullServer
}

// reportWaits runs one operation with a context that collects its waits
// and that Interrupt ends, and adds the warning to its answer's diagnostics.
func reportWaits[Req, Resp any](ctx context.Context, req *Req, call func(context.Context, *Req) (*Resp, error),
	diags func(*Resp) *[]*tfprotov6.Diagnostic) (*Resp, error) {
	ctx, release := interruptible(ctx)
	defer release()
	ctx, n := withWaitNotes(ctx)
	resp, err := call(ctx, req)
	if resp != nil {
		d := diags(resp)
		*d = n.appendTo(*d)
	}
	return resp, err
}

// ReadResource reports the waits of a refresh.
func (v visibleWaits) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return reportWaits(ctx, req, v.fullServer.ReadResource, func(r *tfprotov6.ReadResourceResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}

// PlanResourceChange reports the waits of a plan's server-side checks.
func (v visibleWaits) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return reportWaits(ctx, req, v.fullServer.PlanResourceChange, func(r *tfprotov6.PlanResourceChangeResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}

// ApplyResourceChange reports the waits of a create, update or delete.
func (v visibleWaits) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return reportWaits(ctx, req, v.fullServer.ApplyResourceChange, func(r *tfprotov6.ApplyResourceChangeResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}

// ImportResourceState reports the waits of an import.
func (v visibleWaits) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return reportWaits(ctx, req, v.fullServer.ImportResourceState, func(r *tfprotov6.ImportResourceStateResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}

// ReadDataSource reports the waits of a data source's read.
func (v visibleWaits) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return reportWaits(ctx, req, v.fullServer.ReadDataSource, func(r *tfprotov6.ReadDataSourceResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}

// OpenEphemeralResource reports the waits of opening an ephemeral resource.
func (v visibleWaits) OpenEphemeralResource(ctx context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return reportWaits(ctx, req, v.fullServer.OpenEphemeralResource, func(r *tfprotov6.OpenEphemeralResourceResponse) *[]*tfprotov6.Diagnostic { return &r.Diagnostics })
}
