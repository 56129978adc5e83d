//go:build unix

package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// TestUncertainCreateLandingLateIsAdopted: a create's answer is lost, and the
// server handles the request only after the provider looked for what it made
// (a request still in flight), so the apply fails saying nothing was created,
// and then the channel exists. The journal kept the attempt as an intent: the
// next plain apply adopts the channel (it holds the name and is newer than
// every channel the attempt saw) instead of failing on an existing name, and
// the plan after it is empty.
func TestUncertainCreateLandingLateIsAdopted(t *testing.T) {
	tf := terraformPath(t)
	dir, rc, _ := devOverride(t)
	srv := acctest.NewServer(t)
	var mu sync.Mutex
	armed := true
	proxy := srv.FaultyProviderConfig(t, refserver.SeedOwnerID, func(r *http.Request) acctest.Fault {
		mu.Lock()
		defer mu.Unlock()
		if armed && r.Method == http.MethodPost && r.URL.Path == "/api/v1/channels/create" {
			armed = false
			return acctest.Fault{Status: http.StatusGatewayTimeout, Late: true}
		}
		return acctest.Fault{}
	})
	work := filepath.Join(dir, "late")
	writeFile(t, filepath.Join(work, "main.tf"), `terraform {
  required_providers {
    zulip = { source = "zulip-terraform/zulip" }
  }
}
`+proxy+`
resource "zulip_channel" "late" {
  name        = "late-ops"
  description = "Made after the provider looked"
}
`, 0o644)
	channels := func() int {
		n := 0
		srv.Do(func(r *refserver.Realm) {
			for _, c := range r.Channels {
				if strings.EqualFold(c.Name, "late-ops") {
					n++
				}
			}
		})
		return n
	}

	first, err := terraformCommand(tf, rc, work, nil, "apply", "-auto-approve").CombinedOutput()
	if err == nil || !strings.Contains(string(first), "nothing was created") {
		t.Fatalf("the first apply did not fail as a create that made nothing (%v):\n%s", err, first)
	}
	if n := channels(); n != 1 {
		t.Fatalf("after the late request the server has %d channels late-ops, want 1", n)
	}

	second, err := terraformCommand(tf, rc, work, nil, "apply", "-auto-approve").CombinedOutput()
	if err != nil {
		t.Fatalf("the plain apply after it failed (%v):\n%s", err, second)
	}
	for _, want := range []string{"Will Be Adopted", "Adopted After an Interrupted Apply"} {
		if !strings.Contains(string(second), want) {
			t.Errorf("the plain apply does not say %q:\n%s", want, tail(string(second)))
		}
	}
	if n := channels(); n != 1 {
		t.Errorf("after the plain apply the server has %d channels late-ops, want 1", n)
	}
	if out, err := terraformCommand(tf, rc, work, nil, "plan", "-detailed-exitcode").CombinedOutput(); err != nil {
		t.Errorf("the plan after the adoption is not empty (%v):\n%s", err, out)
	}
}
