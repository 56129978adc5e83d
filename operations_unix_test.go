//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// operationsBlocks are the configuration of
// TestEveryTypeThroughTerraformOperations, by resource type: one object of
// every type that has one on the server, the objects referring to each
// other (a channel in a folder, a message in the channel) as a real
// configuration does. operationsBody joins them in the registry's order;
// checkOperationsCoverage fails for a registered type with neither blocks
// nor a reason in operationsExempt. (The areas' contract cases are single
// objects apart, some adopting seeded ones, and live in the areas' test
// packages, which this package cannot import.) The %...% name values
// operationsBody reads from the organization's seeded objects.
var operationsBlocks = map[string]string{
	"zulip_linkifier": `
resource "zulip_linkifier" "x" {
  pattern      = "OPS-(?P<id>[0-9]+)"
  url_template = "https://ops.example/{id}"
}
`,
	"zulip_linkifier_order": `
resource "zulip_linkifier_order" "x" {
  linkifiers = concat([%linkifiers%], [zulip_linkifier.x.id])
}
`,
	"zulip_saved_snippet": `
resource "zulip_saved_snippet" "x" {
  title   = "Ops runbook"
  content = "Page the on-call."
}
`,
	"zulip_allowed_domain": `
resource "zulip_allowed_domain" "x" {
  domain = "ops.example.org"
}
`,
	"zulip_user": `
resource "zulip_user" "x" {
  email     = "ops.person@ops.example.org"
  full_name = "Ops Person"
  password  = "correct-horse-battery-staple-1"
  depends_on = [zulip_allowed_domain.x]
}
`,
	"zulip_user_group": `
resource "zulip_user_group" "x" {
  name        = "ops-team"
  description = "The ops team"
}

resource "zulip_user_group" "y" {
  name        = "ops-friends"
  description = "Friends of the ops team"
}
`,
	"zulip_user_group_members": `
resource "zulip_user_group_members" "x" {
  group_id = zulip_user_group.x.id
  members  = [%member%]
}
`,
	"zulip_user_group_membership": `
resource "zulip_user_group_membership" "x" {
  group_id = zulip_user_group.y.id
  user_id  = %admin%
}
`,
	"zulip_channel_folder": `
resource "zulip_channel_folder" "x" {
  name        = "Ops folder"
  description = "Channels of the ops team"
}
`,
	"zulip_channel_folder_order": `
resource "zulip_channel_folder_order" "x" {
  folders = concat([%folders%], [zulip_channel_folder.x.id])
}
`,
	"zulip_channel": `
resource "zulip_channel" "x" {
  name        = "ops"
  description = "Where ops talks"
  folder_id   = zulip_channel_folder.x.id
}

resource "zulip_channel" "y" {
  name        = "ops-alerts"
  description = "Alerts"
}
`,
	"zulip_message": `
resource "zulip_message" "x" {
  channel_id = zulip_channel.x.id
  topic      = "runbook"
  content    = "Page the on-call."
}
`,
	"zulip_channel_subscribers": `
resource "zulip_channel_subscribers" "x" {
  channel_id  = zulip_channel.x.id
  subscribers = [%owner%, %member%]
}
`,
	"zulip_channel_subscription": `
resource "zulip_channel_subscription" "x" {
  channel_id = zulip_channel.y.id
  user_id    = %admin%
}
`,
	"zulip_user_topic": `
resource "zulip_user_topic" "x" {
  channel_id        = zulip_channel.x.id
  topic             = "standup"
  visibility_policy = "muted"
  depends_on        = [zulip_channel_subscribers.x]
}
`,
	"zulip_default_channels": `
resource "zulip_default_channels" "x" {
  channel_ids = [zulip_channel.y.id]
}
`,
	"zulip_default_channel_group": `
resource "zulip_default_channel_group" "x" {
  name        = "Ops group"
  description = "Channels of the ops team"
  channel_ids = [zulip_channel.x.id]
}
`,
	"zulip_realm": `
resource "zulip_realm" "x" {
  description = "Where the ops team talks."
}
`,
	"zulip_realm_user_defaults": `
resource "zulip_realm_user_defaults" "x" {
  enter_sends = true
}
`,
	"zulip_realm_branding": `
resource "zulip_realm_branding" "x" {
  icon = "${path.module}/green.png"
}
`,
	"zulip_code_playground": `
resource "zulip_code_playground" "x" {
  name              = "Ops playground"
  pygments_language = "Go"
  url_template      = "https://go.dev/play/?code={code}"
}
`,
	"zulip_custom_profile_field": `
resource "zulip_custom_profile_field" "x" {
  name = "Ops shift"
  type = "short_text"
}
`,
	"zulip_custom_profile_field_order": `
resource "zulip_custom_profile_field_order" "x" {
  fields = concat([%fields%], [zulip_custom_profile_field.x.id])
}
`,
	"zulip_custom_emoji": `
resource "zulip_custom_emoji" "x" {
  name   = "ops_emoji"
  source = "${path.module}/green.png"
}
`,
	"zulip_bot": `
resource "zulip_bot" "x" {
  full_name  = "Ops Bot"
  short_name = "ops"
}
`,
	"zulip_message_flags": `
resource "zulip_message_flags" "x" {
  message_ids = [4]
  flag        = "starred"
}
`,
	"zulip_profile_data": `
resource "zulip_profile_data" "x" {
  field {
    name  = "Pronouns"
    value = "they/them"
  }
}
`,
}

// performedOnce is why an invocation resource has no block: it has no object
// on the server to replace, taint, repeat the natural key of or destroy.
const performedOnce = "an invocation: creating it performs an operation once, and destroying it only forgets it"

// operationsExempt are the registered types that operationsBlocks leaves
// out, and why.
var operationsExempt = map[string]string{
	"zulip_apns_device_token": "Zulip never lists device tokens, so the type cannot be read back or imported; " +
		"its replacement is a delete and an add of the same token",
	"zulip_invite_link": "Zulip cannot read a link's channels and groups back, so the type cannot be imported; " +
		"every change is already a replacement (a new link, the old one revoked)",
	"zulip_user_settings_push":       performedOnce,
	"zulip_message_report":           performedOnce,
	"zulip_message_post":             performedOnce,
	"zulip_push_test_notification":   performedOnce,
	"zulip_own_account_deactivation": performedOnce,
	"zulip_sms_question":             performedOnce,
}

// operationsDuplicates are the types whose natural key a second resource of
// the configuration can repeat, with the body of a block that repeats it.
var operationsDuplicates = map[string]string{
	"zulip_linkifier": `pattern      = "OPS-(?P<id>[0-9]+)"
  url_template = "https://other.example/{id}"`,
	"zulip_allowed_domain": `domain = "ops.example.org"`,
	"zulip_user": `email     = "Ops.Person@ops.example.org"
  full_name = "Someone Else"`,
	"zulip_user_group": `name        = "ops-team"
  description = "Another"`,
	"zulip_channel":               `name = "OPS"`,
	"zulip_channel_folder":        `name = "Ops folder"`,
	"zulip_default_channel_group": `name = "Ops group"`,
	"zulip_code_playground": `name              = "Ops playground"
  pygments_language = "Go"
  url_template      = "https://elsewhere.example/?code={code}"`,
	"zulip_custom_profile_field": `name = "Ops shift"
  type = "long_text"`,
	"zulip_custom_emoji": `name   = "ops_emoji"
  source = "${path.module}/green.png"`,
	"zulip_bot": `full_name  = "Ops Bot Two"
  short_name = "ops"`,
	"zulip_channel_subscribers": `channel_id  = zulip_channel.x.id
  subscribers = [1]`,
	"zulip_user_group_members": `group_id = zulip_user_group.x.id
  members  = [1]`,
}

// TestEveryTypeThroughTerraformOperations is the kit's contract for the
// operations only the real CLI makes (issue 25): one object of every type is
// created; `-replace` of all of them at once plans and applies, and so does
// every object tainted; a second resource with an existing object's natural
// key fails the plan, naming the key; destroy ends it. After each apply the
// next plan is empty. The configuration is the blocks of every registered
// type (operationsBlocks); a registered type in neither operationsBlocks nor
// operationsExempt fails the test (and TestOperationsConfigCoversEveryType,
// which needs no Terraform).
func TestEveryTypeThroughTerraformOperations(t *testing.T) {
	tf := terraformPath(t)
	dir, rc, _ := devOverride(t)
	srv := acctest.NewServer(t)
	body, seededPattern := operationsBody(srv)
	addrs := resourceAddresses(body)
	checkOperationsCoverage(t)

	w := opsWork{tf: tf, rc: rc, dir: filepath.Join(dir, "ops")}
	writeFile(t, filepath.Join(w.dir, "main.tf"), mainTF(t, srv, refserver.SeedOwnerID)+body, 0o644)
	png, err := os.ReadFile(filepath.Join("internal", "provider", "bots", "testdata", "emoji", "green.png"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(w.dir, "green.png"), string(png), 0o644)

	w.must(t, "apply", "-auto-approve")
	w.emptyPlan(t, "the create")
	w.replaceAll(t, addrs)
	w.taintAll(t, addrs)
	w.duplicates(t, addrs)
	w.destroyBlocked(t, seededPattern)
}

// operationsBody is the configuration: the blocks of every registered type
// (operationsBlocks), in the registry's order, filled in from the server,
// whose owner it lets create users; seededPattern is the first seeded
// linkifier's.
func operationsBody(srv *acctest.Server) (body, seededPattern string) {
	var linkifiers, folders, fields []string
	srv.Do(func(r *refserver.Realm) {
		seededPattern = r.Linkifiers[0].Pattern
		// The owner manages allowed domains, and creates the user too.
		r.Users[refserver.SeedOwnerID].CanCreateUsers = true
		for _, l := range r.Linkifiers {
			linkifiers = append(linkifiers, fmt.Sprint(l.ID))
		}
		for _, f := range r.ChannelFolders {
			if !f.IsArchived {
				folders = append(folders, fmt.Sprint(f.ID))
			}
		}
		for _, f := range r.ProfileFields {
			fields = append(fields, fmt.Sprint(f.ID))
		}
	})
	values := strings.NewReplacer("%linkifiers%", strings.Join(linkifiers, ", "), "%folders%", strings.Join(folders, ", "),
		"%fields%", strings.Join(fields, ", "), "%owner%", fmt.Sprint(refserver.SeedOwnerID),
		"%admin%", fmt.Sprint(refserver.SeedAdminID), "%member%", fmt.Sprint(refserver.SeedMemberID))
	var b strings.Builder
	for _, r := range registeredResources() {
		b.WriteString(values.Replace(operationsBlocks[r.typ]))
	}
	return b.String(), seededPattern
}

// registeredResource is one of the provider's resource types.
type registeredResource struct {
	typ        string
	identified bool
}

// registeredResources are the provider's resource types, in the registry's
// order.
func registeredResources() []registeredResource {
	var out []registeredResource
	for _, newResource := range provider.New("test")().Resources(context.Background()) {
		r := newResource()
		var meta fwresource.MetadataResponse
		r.Metadata(context.Background(), fwresource.MetadataRequest{ProviderTypeName: "zulip"}, &meta)
		_, identified := r.(fwresource.ResourceWithIdentity)
		out = append(out, registeredResource{meta.TypeName, identified})
	}
	return out
}

// opsWork is the operations test's Terraform, its CLI configuration and the
// directory of its configuration.
type opsWork struct{ tf, rc, dir string }

// run runs terraform with args in the directory.
func (w opsWork) run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := terraformCommand(w.tf, w.rc, w.dir, nil, args[0], args[1:]...)
	if args[0] == "taint" { // it asks for no input, and has no such flag
		cmd.Args = slices.DeleteFunc(cmd.Args, func(a string) bool { return a == "-input=false" })
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// must runs terraform with args and fails the test unless it succeeds.
func (w opsWork) must(t *testing.T, args ...string) string {
	t.Helper()
	out, err := w.run(t, args...)
	if err != nil {
		t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// emptyPlan fails the test unless the plan, after the step named after, is
// empty.
func (w opsWork) emptyPlan(t *testing.T, after string) {
	t.Helper()
	out, err := w.run(t, "plan", "-detailed-exitcode")
	if err != nil {
		t.Fatalf("after %s, the plan is not empty (%v):\n%s", after, err, out)
	}
}

// replaceAll applies with -replace of every address at once.
func (w opsWork) replaceAll(t *testing.T, addrs []string) {
	replace := []string{"apply", "-auto-approve"}
	for _, a := range addrs {
		replace = append(replace, "-replace="+a)
	}
	out := w.must(t, replace...)
	if m := regexp.MustCompile(`(\d+) added, \d+ changed, (\d+) destroyed`).FindStringSubmatch(out); m == nil || m[1] != fmt.Sprint(len(addrs)) {
		t.Errorf("-replace of %d resources did not add %d:\n%s", len(addrs), len(addrs), tail(out))
	}
	w.emptyPlan(t, "-replace")
}

// taintAll taints every address and applies.
func (w opsWork) taintAll(t *testing.T, addrs []string) {
	for _, a := range addrs {
		w.must(t, "taint", a)
	}
	out := w.must(t, "apply", "-auto-approve")
	if m := regexp.MustCompile(`(\d+) added`).FindStringSubmatch(out); m == nil || m[1] != fmt.Sprint(len(addrs)) {
		t.Errorf("the apply of %d tainted resources did not add %d:\n%s", len(addrs), len(addrs), tail(out))
	}
	w.emptyPlan(t, "the apply of tainted objects")
}

// duplicates adds, for each type of operationsDuplicates, a second resource
// with an existing object's natural key: the plan fails naming it.
func (w opsWork) duplicates(t *testing.T, addrs []string) {
	// One duplicate at a time: an error stops the plan of what depends on
	// the resource, which would hide the next type's duplicate.
	for _, typ := range sortedKeys(operationsDuplicates) {
		if !slices.Contains(addrs, typ+".x") {
			t.Errorf("operationsDuplicates has %s, which the configuration lacks", typ)
		}
		writeFile(t, filepath.Join(w.dir, "dup.tf"), fmt.Sprintf("resource %q \"dup\" {\n  %s\n}\n", typ, operationsDuplicates[typ]), 0o644)
		out, err := w.run(t, "plan")
		switch {
		case err == nil:
			t.Errorf("a plan with a second %s of an existing natural key succeeded:\n%s", typ, tail(out))
		case !regexp.MustCompile(`(?s)Error: Two Resources With One.*?Two ` + regexp.QuoteMeta(typ) + ` resources`).MatchString(out):
			t.Errorf("the plan does not refuse the second %s as a duplicate:\n%s", typ, tail(out))
		}
	}
	if err := os.Remove(filepath.Join(w.dir, "dup.tf")); err != nil {
		t.Fatal(err)
	}
	w.emptyPlan(t, "removing the duplicates")
}

// destroyBlocked destroys everything although the configuration cannot be
// applied (an object that exists and is not managed, and a duplicate):
// terraform destroy's first, refreshing plan makes no create-time check.
func (w opsWork) destroyBlocked(t *testing.T, seededPattern string) {
	writeFile(t, filepath.Join(w.dir, "blocked.tf"), fmt.Sprintf(`
resource "zulip_linkifier" "stranger" {
  pattern      = %q
  url_template = "https://stranger.example/{id}"
}

resource "zulip_allowed_domain" "dup" {
  domain = "ops.example.org"
}
`, seededPattern), 0o644)
	if out, err := w.run(t, "plan"); err == nil || !strings.Contains(out, "Linkifier Already Exists") || !strings.Contains(out, "Two Resources With One") {
		t.Fatalf("the plan of a configuration that cannot be applied did not fail as expected (%v):\n%s", err, tail(out))
	}
	w.must(t, "destroy", "-auto-approve")
}

// TestOperationsConfigCoversEveryType checks, without Terraform, what
// TestEveryTypeThroughTerraformOperations checks first: every registered
// resource type has its blocks in operationsBlocks or a reason in
// operationsExempt, so a new type cannot be left out of the operations test.
func TestOperationsConfigCoversEveryType(t *testing.T) {
	checkOperationsCoverage(t)
}

// checkOperationsCoverage fails for a registered type that operationsBlocks
// lacks and operationsExempt does not explain (a type with an object on the
// server, an identity, first of all), for one in both, and for an entry of
// either that is not a registered type or whose blocks declare no resource
// named x of the type (the configuration would leave it out, or the test
// would not replace, taint or repeat it).
func checkOperationsCoverage(t *testing.T) {
	t.Helper()
	registered := map[string]bool{}
	for _, r := range registeredResources() {
		registered[r.typ] = true
		blocks, has := operationsBlocks[r.typ]
		_, exempt := operationsExempt[r.typ]
		switch {
		case !has && !exempt && r.identified:
			t.Errorf("%s has an object on the server but no block in operationsBlocks (or a reason in operationsExempt)", r.typ)
		case !has && !exempt:
			t.Errorf("%s has no block in operationsBlocks (or a reason in operationsExempt)", r.typ)
		case has && exempt:
			t.Errorf("%s is both in operationsBlocks and exempt", r.typ)
		case has && !slices.Contains(resourceAddresses(blocks), r.typ+".x"):
			t.Errorf("operationsBlocks' %s declares no %s.x", r.typ, r.typ)
		}
	}
	for _, m := range []map[string]string{operationsBlocks, operationsExempt} {
		for typ := range m {
			if !registered[typ] {
				t.Errorf("%s is not a registered resource type", typ)
			}
		}
	}
	for typ, blocks := range operationsBlocks {
		for _, addr := range resourceAddresses(blocks) {
			if !strings.HasPrefix(addr, typ+".") {
				t.Errorf("operationsBlocks' %s declares %s, of another type", typ, addr)
			}
		}
	}
}

// sortedKeys are a map's keys in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// resourceAddresses lists the resource addresses a configuration declares.
func resourceAddresses(cfg string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(?m)^resource "([a-z_]+)" "([a-z_]+)"`).FindAllStringSubmatch(cfg, -1) {
		out = append(out, m[1]+"."+m[2])
	}
	sort.Strings(out)
	return out
}

// tail is the end of a long output, for messages.
func tail(out string) string {
	if len(out) > 6000 {
		return "..." + out[len(out)-6000:]
	}
	return out
}

// TestInterruptEndsTheRunAtOnce: Ctrl-C (SIGINT to the process group, as a
// terminal sends it) while `terraform apply` waits for the rate-limit budget
// ends the run long before the budget comes back. Terraform does not stop its
// providers while an apply is still planning, so the provider acts on the
// interrupt it receives itself (it used to wait out the budget, about a minute).
func TestInterruptEndsTheRunAtOnce(t *testing.T) {
	tf := terraformPath(t)
	dir, rc, _ := devOverride(t)
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.RateLimit = 4 })
	owner, _ := srv.User(refserver.SeedOwnerID)
	for range 6 { // spend the minute's budget
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/api/v1/users/me", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.SetBasicAuth(owner.Email, owner.APIKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	work := filepath.Join(dir, "interrupt")
	writeFile(t, filepath.Join(work, "main.tf"), mainTF(t, srv, refserver.SeedOwnerID)+`
resource "zulip_linkifier" "x" {
  pattern      = "INT-(?P<id>[0-9]+)"
  url_template = "https://int.example/{id}"
}
`, 0o644)
	cmd := terraformCommand(tf, rc, work, nil, "apply", "-auto-approve")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	time.Sleep(3 * time.Second) // the provider is configured, and waits for the budget
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-ended:
		if err == nil {
			t.Errorf("the interrupted apply succeeded:\n%s", out.String())
		}
	case <-time.After(20 * time.Second): // generous: the budget comes back after about a minute
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err := <-ended
		t.Fatalf("the apply was still waiting 20 s after Ctrl-C (killed: %v):\n%s", err, out.String())
	}
	if n := srv.Requests("POST", "/api/v1/realm/filters"); n != 0 {
		t.Errorf("the interrupted apply created the linkifier (%d requests)", n)
	}
}

// killedConfig is what TestKilledApplyRecoversInOnePlainApply applies: many
// objects of the journaled types, so that the apply is still running when
// it is killed.
func killedConfig() string {
	var b strings.Builder
	for i := range 8 {
		fmt.Fprintf(&b, "resource \"zulip_linkifier\" \"l%d\" {\n  pattern      = \"KILL%d-(?P<id>[0-9]+)\"\n  url_template = \"https://kill.example/%d/{id}\"\n}\n\n", i, i, i)
	}
	for i := range 4 {
		fmt.Fprintf(&b, "resource \"zulip_channel\" \"c%d\" {\n  name        = \"killed-%d\"\n  description = \"Channel %d\"\n}\n\n", i, i, i)
		fmt.Fprintf(&b, "resource \"zulip_user_group\" \"g%d\" {\n  name        = \"killed-team-%d\"\n  description = \"Team %d\"\n}\n\n", i, i, i)
		fmt.Fprintf(&b, "resource \"zulip_saved_snippet\" \"s%d\" {\n  title   = \"Killed %d\"\n  content = \"Snippet %d\"\n}\n\n", i, i, i)
	}
	for i := range 2 {
		fmt.Fprintf(&b, "resource \"zulip_bot\" \"b%d\" {\n  full_name  = \"Killed Bot %d\"\n  short_name = \"killed%d\"\n}\n\n", i, i, i)
	}
	return b.String()
}

// TestKilledApplyRecoversInOnePlainApply (issue 25, item 10): Terraform is
// killed outright (SIGKILL) in the middle of an apply, after some objects
// were created and before its state recorded them (Terraform persists the
// state every 20 s). The next plain `terraform apply` adopts each object the
// killed apply made (the create journal) and creates the rest: no import, no
// duplicate, and the plan after it is empty.
func TestKilledApplyRecoversInOnePlainApply(t *testing.T) {
	tf := terraformPath(t)
	dir, rc, _ := devOverride(t)
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.Faults.Latency = 150 * time.Millisecond })
	work := filepath.Join(dir, "killed")
	body := killedConfig()
	writeFile(t, filepath.Join(work, "main.tf"), mainTF(t, srv, refserver.SeedOwnerID)+body, 0o644)

	cmd := terraformCommand(tf, rc, work, nil, "apply", "-auto-approve")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	creates := func() int {
		return srv.Requests("POST", "/api/v1/realm/filters") + srv.Requests("POST", "/api/v1/user_groups/create")
	}
	deadline := time.Now().Add(60 * time.Second)
	for creates() < 5 && time.Now().Before(deadline) {
		select {
		case err := <-ended:
			t.Fatalf("the apply ended before it could be killed (%v):\n%s", err, out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := cmd.Process.Kill(); err != nil { // Terraform alone: the provider notices, and finishes its creates
		t.Fatal(err)
	}
	t.Logf("the apply was killed: %v", <-ended)
	waitForProvidersToExit(t, filepath.Join(dir, "real", "terraform-provider-zulip"))

	inState := stateAddresses(t, work)
	if raw, err := os.ReadFile(filepath.Join(work, ".terraform", "zulip-provider-creates.jsonl")); err == nil {
		t.Logf("journal:\n%s", raw)
	}
	made := countKilled(srv)
	t.Logf("killed after %v were created; the state holds %d resources", made, len(inState))
	if made["linkifiers"]+made["groups"]+made["channels"]+made["snippets"] <= len(inState) {
		t.Skipf("the state recorded every object the killed apply made (%v): nothing to recover", inState)
	}

	recovery := terraformCommand(tf, rc, work, nil, "apply", "-auto-approve")
	got, err := recovery.CombinedOutput()
	if err != nil {
		t.Fatalf("the apply after the killed one failed (%v):\n%s", err, got)
	}
	if !strings.Contains(string(got), "Adopted After an Interrupted Apply") {
		t.Errorf("the apply after the killed one adopted nothing:\n%s", tail(string(got)))
	}
	want := map[string]int{"linkifiers": 8, "groups": 4, "channels": 4, "snippets": 4}
	if got := countKilled(srv); !maps.Equal(got, want) {
		t.Errorf("after recovery the organization has %v of the configuration's objects, want %v", got, want)
	}
	plan := terraformCommand(tf, rc, work, nil, "plan", "-detailed-exitcode")
	if out, err := plan.CombinedOutput(); err != nil {
		t.Errorf("the plan after recovery is not empty (%v):\n%s", err, out)
	}
}

// countKilled counts the objects of killedConfig on the server, by kind.
func countKilled(srv *acctest.Server) map[string]int {
	n := map[string]int{}
	count := func(kind, name, prefix string) {
		if strings.HasPrefix(name, prefix) {
			n[kind]++
		}
	}
	srv.Do(func(r *refserver.Realm) {
		for _, l := range r.Linkifiers {
			count("linkifiers", l.Pattern, "KILL")
		}
		for _, g := range r.Groups {
			count("groups", g.Name, "killed-team-")
		}
		for _, c := range r.Channels {
			count("channels", c.Name, "killed-")
		}
		for _, s := range r.Snippets {
			count("snippets", s.Title, "Killed ")
		}
	})
	return n
}

// stateAddresses are the resources of which the working directory's state
// holds an object.
func stateAddresses(t *testing.T, work string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(work, "terraform.tfstate"))
	if os.IsNotExist(err) || err == nil && len(raw) == 0 { // none yet, or created empty before the kill
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Type, Name string
			Instances  []json.RawMessage
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	var addrs []string
	for _, r := range st.Resources {
		if len(r.Instances) > 0 {
			addrs = append(addrs, r.Type+"."+r.Name)
		}
	}
	return addrs
}

// waitForProvidersToExit waits (at most 30 s) until no process runs the
// provider binary: an orphaned provider finishes its creates, then exits.
func waitForProvidersToExit(t *testing.T, binary string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		running := false
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			raw, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			if err == nil && strings.HasPrefix(string(raw), binary) {
				running = true
				break
			}
		}
		if !running {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the provider (%s) still runs 30 s after Terraform was killed", binary)
}
