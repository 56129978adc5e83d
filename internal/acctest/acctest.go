// Package acctest holds what the acceptance tests share: a fresh in-process
// reference server per test, provider factories, and HCL helpers.
package acctest

import (
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// ProtoV6ProviderFactories serves the provider in-process to Terraform. Each
// Terraform command gets a fresh provider, as it would get a fresh plugin
// process. (In-process, every alias of the provider shares that one instance,
// so tests must not rely on two aliases with different credentials.)
var ProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"zulip": func() (tfprotov6.ProviderServer, error) {
		return kit.WithVisibleWaits(providerserver.NewProtocol6(provider.New("test")())()), nil
	},
}

var terraformOnce sync.Once

// PreCheck makes sure the tests use the local Terraform binary: they must never
// download one. TF_ACC_TERRAFORM_PATH wins; else terraform on PATH is used.
// It skips the tests that TF_ACC_SKIP names: one per line, a regular
// expression matched against the test's name, a space and the reason
// (`make testacc-tofu` names those that cannot pass on OpenTofu).
func PreCheck(t *testing.T) {
	t.Helper()
	terraformOnce.Do(useLocalTerraform)
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		t.Fatal("no Terraform binary: set TF_ACC_TERRAFORM_PATH or put terraform on PATH (tests never download one)")
	}
	for _, line := range strings.Split(os.Getenv("TF_ACC_SKIP"), "\n") {
		pattern, reason, _ := strings.Cut(strings.TrimSpace(line), " ")
		if pattern == "" {
			continue
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Fatalf("TF_ACC_SKIP: %q: %v", pattern, err)
		}
		if re.MatchString(t.Name()) {
			t.Skipf("skipped by TF_ACC_SKIP: %s", reason)
		}
	}
}

// useLocalTerraform sets TF_ACC_TERRAFORM_PATH to the terraform on PATH when it
// is not set. It sets it for the whole process on purpose, once: every test
// wants the same binary, and t.Setenv cannot be used by parallel tests. When
// there is no terraform on PATH, or the variable cannot be set, it stays empty
// and PreCheck reports that.
func useLocalTerraform() {
	if os.Getenv("TF_ACC_TERRAFORM_PATH") != "" {
		return
	}
	if p, err := exec.LookPath("terraform"); err == nil {
		_ = os.Setenv("TF_ACC_TERRAFORM_PATH", p) // a failure leaves it empty, which PreCheck reports
	}
}

// Server is a reference server started for one test.
type Server struct {
	*refserver.Server
	URL string

	mu       sync.Mutex
	requests map[string]int
}

// NewServer starts a fresh reference server over the seeded realm; it stops
// when the test ends. opts adjust its options.
func NewServer(t *testing.T, opts ...func(*refserver.Options)) *Server {
	t.Helper()
	s, hs := newServer(t, opts)
	hs.Start()
	t.Cleanup(hs.Close)
	s.URL = hs.URL
	return s
}

// newServer makes a reference server and an unstarted HTTP server in front of
// it that counts requests, with the timeouts of a real deployment (so a test
// cannot hang on a stuck client).
func newServer(t *testing.T, opts []func(*refserver.Options)) (*Server, *httptest.Server) {
	t.Helper()
	var o refserver.Options
	for _, f := range opts {
		f(&o)
	}
	srv, err := refserver.New(o)
	if err != nil {
		t.Fatalf("starting the reference server: %v", err)
	}
	s := &Server{Server: srv, requests: map[string]int{}}
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests[r.Method+" "+r.URL.Path]++
		s.mu.Unlock()
		srv.ServeHTTP(w, r)
	}))
	refserver.ConfigureHTTPServer(hs.Config)
	return s, hs
}

// Requests returns how many requests were made with this method and path
// (e.g. "GET", "/api/v1/realm/linkifiers") since the last ResetRequests.
func (s *Server) Requests(method, path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[method+" "+path]
}

// RequestCounts returns how many requests were made, by "METHOD /path", since
// the last ResetRequests.
func (s *Server) RequestCounts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.requests)
}

// ResetRequests zeroes the request counters.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = map[string]int{}
}

// ProviderConfig returns a provider block authenticating as the seeded user.
func (s *Server) ProviderConfig(t *testing.T, userID int) string {
	t.Helper()
	u, ok := s.User(userID)
	if !ok {
		t.Fatalf("no user %d in the reference server", userID)
	}
	return fmt.Sprintf(`
provider "zulip" {
  url     = %q
  email   = %q
  api_key = %q
}
`, s.URL, u.Email, u.APIKey)
}
