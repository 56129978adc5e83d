package acctest

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// ExpectErr builds an ExpectError pattern from phrases that must appear in
// order. Terraform wraps diagnostics at any space, so each space in a phrase
// matches any run of whitespace.
func ExpectErr(phrases ...string) *regexp.Regexp {
	quoted := make([]string, len(phrases))
	for i, p := range phrases {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		quoted[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, `.*`))
}

// ExpectErrRE is ExpectErr for a regular expression: each space in pattern
// matches any run of whitespace, and "." also matches line breaks.
func ExpectErrRE(pattern string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + strings.ReplaceAll(pattern, " ", `\s+`))
}

// DiagRecorder records the diagnostics the provider returns from plans
// and applies, which terraform-plugin-testing does not show to tests: a
// warning, unlike an error, leaves no other trace.
type DiagRecorder struct {
	mu    sync.Mutex
	diags []recordedDiag
}

// recordedDiag is a recorded diagnostic, "severity: summary: detail", and
// the resource or data source type whose call returned it.
type recordedDiag struct{ typ, text string }

// Factories serves the provider in-process, recording its diagnostics.
func (d *DiagRecorder) Factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"zulip": func() (tfprotov6.ProviderServer, error) {
			s, err := ProtoV6ProviderFactories["zulip"]()
			if err != nil {
				return nil, err
			}
			return recordingServer{ProviderServer: s, diags: d}, nil
		},
	}
}

// add records diagnostics that a call about typ returned.
func (d *DiagRecorder) add(typ string, ds []*tfprotov6.Diagnostic) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, x := range ds {
		d.diags = append(d.diags, recordedDiag{typ, fmt.Sprintf("%s: %s: %s", x.Severity, x.Summary, x.Detail)})
	}
}

// Reset forgets what was recorded.
func (d *DiagRecorder) Reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.diags = nil
}

// Has fails unless a recorded diagnostic matches pattern.
func (d *DiagRecorder) Has(pattern string) error { return d.HasFor("", pattern) }

// HasFor fails unless a diagnostic about the type typ ("": any) matches
// pattern.
func (d *DiagRecorder) HasFor(typ, pattern string) error {
	re := regexp.MustCompile(pattern)
	d.mu.Lock()
	defer d.mu.Unlock()
	var texts []string
	for _, x := range d.diags {
		if typ != "" && x.typ != typ {
			continue
		}
		if re.MatchString(x.text) {
			return nil
		}
		texts = append(texts, x.text)
	}
	if typ == "" {
		return fmt.Errorf("no diagnostic matches %s; the provider returned %q", pattern, texts)
	}
	return fmt.Errorf("no diagnostic about %s matches %s; the provider returned about it %q", typ, pattern, texts)
}

// recordingServer is the provider's server, recording diagnostics.
type recordingServer struct {
	tfprotov6.ProviderServer
	diags *DiagRecorder
}

// PlanResourceChange records the plan's diagnostics.
func (s recordingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		s.diags.add(req.TypeName, resp.Diagnostics)
	}
	return resp, err
}

// ReadDataSource records a data source's diagnostics.
func (s recordingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	resp, err := s.ProviderServer.ReadDataSource(ctx, req)
	if resp != nil {
		s.diags.add(req.TypeName, resp.Diagnostics)
	}
	return resp, err
}

// ApplyResourceChange records the apply's diagnostics.
func (s recordingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := s.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		s.diags.add(req.TypeName, resp.Diagnostics)
	}
	return resp, err
}

// DiagCheck is a plan check that a diagnostic matching pattern
// was returned.
type DiagCheck struct {
	Diags   *DiagRecorder
	Pattern string
	// Type, when set, is the resource type the diagnostic is about.
	Type string
}

// CheckPlan fails unless the diagnostic was returned.
func (c DiagCheck) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = c.Diags.HasFor(c.Type, c.Pattern)
}
