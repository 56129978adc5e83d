package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/kit"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider/realm"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/zulip"
)

// TestCreateInterruptedBeforeSending: a create that Terraform interrupts while
// it waits for the rate-limit budget was never sent, so the kit does not look
// for it on the server (a look that used to take its own 30 s and end in "check
// the organization and import it"): it says nothing was created.
func TestCreateInterruptedBeforeSending(t *testing.T) {
	var lists, creates atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every answer spends the budget until a reset a minute away.
		w.Header().Set("X-RateLimit-Limit", "200")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Minute).Unix(), 10))
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/realm/linkifiers"):
			lists.Add(1)
			_, _ = w.Write([]byte(`{"result":"success","msg":"","linkifiers":[]}`))
		default:
			creates.Add(1)
			_, _ = w.Write([]byte(`{"result":"success","msg":"","id":7}`))
		}
	}))
	t.Cleanup(srv.Close)
	client, err := zulip.New(zulip.Config{SiteURL: srv.URL, Email: "admin@example.com", APIKey: "key"})
	if err != nil {
		t.Fatal(err)
	}
	d := &kit.ProviderData{Client: client, Cache: kit.NewCollectionCache(), HasCreds: true}
	r, _ := realm.NewLinkifierResource().(*realm.LinkifierResource)
	r.Data = d
	if _, err := kit.LinkifierCollection(d).List(context.Background()); err != nil { // the plan's read
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel) // Ctrl-C while the create waits for the budget
	var diags diag.Diagnostics
	if _, ok := r.Creation(zulip.LinkifierRequest{Pattern: "A-(?P<id>[0-9]+)", URLTemplate: "https://a.example/{id}"}).Create(ctx, d, &diags); ok {
		t.Fatal("the interrupted create succeeded")
	}
	if creates.Load() != 0 {
		t.Errorf("the create was sent (%d requests)", creates.Load())
	}
	if n := lists.Load(); n != 1 {
		t.Errorf("the linkifiers were listed %d times; want only the plan's read, no look for a create never sent", n)
	}
	if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), "never sent, so nothing was created") {
		t.Errorf("diagnostics = %v, want an error saying nothing was created", diags)
	}
}
