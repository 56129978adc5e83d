//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// The GitOps example: a shared configuration and one root per organization.
const (
	gitopsOrganization = "examples/gitops/organization"
	gitopsStaging      = "examples/gitops/environments/staging"
	gitopsProduction   = "examples/gitops/environments/production"
	gitopsWorkflow     = "examples/gitops/.github/workflows/zulip.yml"
)

// gitopsFiles are the example's configuration files, all of which the test
// copies and runs.
var gitopsFiles = []string{
	"examples/gitops/organization/main.tf",
	"examples/gitops/organization/variables.tf",
	"examples/gitops/environments/staging/main.tf",
	"examples/gitops/environments/production/main.tf",
}

// gitopsSteps are the commands of the example's workflow, as the workflow
// runs them (TestGitOps checks that it does, word for word).
var gitopsSteps = struct {
	fmt, validateInit, validate, plan, show, apply, drift []string
}{
	fmt:          []string{"fmt", "-check", "-recursive"},
	validateInit: []string{"init", "-backend=false"},
	validate:     []string{"validate"},
	plan:         []string{"plan", "-input=false", "-lock-timeout=5m", "-out=tfplan"},
	show:         []string{"show", "-no-color", "tfplan"},
	apply:        []string{"apply", "-input=false", "-lock-timeout=5m", "tfplan"},
	drift:        []string{"plan", "-input=false", "-lock=false", "-detailed-exitcode"},
}

// TestGitOps runs the GitOps example's pipeline (examples/gitops) with each
// CLI of ZULIP_RELEASE_CLIS, the provider installed from the release's mirror
// (make release-check), against two reference servers, staging and
// production, from the one configuration: fmt and validate; for each
// organization a plan saved to a file and shown, that very file applied in a
// fresh checkout (as the merge job does, with the state kept apart from the
// checkout), by Terraform's own bot account; the drift check passes; an
// administrator changes the production linkifier in the web app; the drift
// check exits 2 naming it; a new plan and apply repair it, and the drift
// check passes again. The state backend is replaced by a local one
// (backend_override.tf): the example's S3 bucket is the one part not run.
func TestGitOps(t *testing.T) {
	r := loadRelease(t)
	checkGitOpsExample(t)
	for _, path := range releaseCLIs(t) {
		dir := t.TempDir()
		rc := mirrorConfig(t, dir, r.mirror)
		c := newCLI(t, path, rc)
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			g := newGitOpsRun(t, c, rc, dir)
			g.validate(t)
			g.deploy(t)
			g.driftAndRepair(t)
		})
	}
}

// checkGitOpsExample checks that the test runs the example's files and its
// workflow's commands.
func checkGitOpsExample(t *testing.T) {
	workflow, err := os.ReadFile(gitopsWorkflow)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, d := range []string{gitopsOrganization, gitopsStaging, gitopsProduction} {
		tf, err := filepath.Glob(filepath.Join(d, "*.tf"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, tf...)
	}
	if !slices.Equal(files, gitopsFiles) {
		t.Errorf("the example's files are %v; gitopsFiles lists %v", files, gitopsFiles)
	}
	for _, step := range [][]string{gitopsSteps.fmt, gitopsSteps.validateInit, gitopsSteps.validate, gitopsSteps.plan, gitopsSteps.show, gitopsSteps.apply, gitopsSteps.drift} {
		if line := "terraform " + strings.Join(step, " "); !strings.Contains(string(workflow), line) {
			t.Errorf("%s does not run %q, which this test runs in its place", gitopsWorkflow, line)
		}
	}
}

// gitopsRun is the GitOps pipeline with one CLI: the CLI, its configuration,
// the directory of the checkouts and states, and the two organizations.
type gitopsRun struct {
	c    cli
	rc   string
	dir  string
	orgs map[string]*gitopsOrg
}

// newGitOpsRun starts a reference server for staging and one for
// production, each with Terraform's bot account.
func newGitOpsRun(t *testing.T, c cli, rc, dir string) *gitopsRun {
	g := &gitopsRun{c: c, rc: rc, dir: dir, orgs: map[string]*gitopsOrg{}}
	for _, env := range []string{"staging", "production"} {
		srv := acctest.NewServer(t)
		bot := createTerraformBot(t, srv)
		g.orgs[env] = &gitopsOrg{name: env, srv: srv, bot: bot,
			env:   []string{"ZULIP_SITE=" + srv.URL, "ZULIP_EMAIL=" + bot.email, "ZULIP_API_KEY=" + bot.key},
			state: filepath.Join(dir, "state", env+".tfstate")}
	}
	return g
}

// checkout is a fresh checkout named name: each job starts from one, as a
// CI runner does.
func (g *gitopsRun) checkout(t *testing.T, name string) string {
	repo := filepath.Join(g.dir, name)
	copyExample(t, gitopsOrganization, filepath.Join(repo, "organization"))
	copyExample(t, gitopsStaging, filepath.Join(repo, "environments", "staging"))
	copyExample(t, gitopsProduction, filepath.Join(repo, "environments", "production"))
	for env, org := range g.orgs {
		writeFile(t, filepath.Join(repo, "environments", env, "backend_override.tf"),
			fmt.Sprintf("terraform {\n  backend \"local\" {\n    path = %q\n  }\n}\n", org.state), 0o644)
	}
	return repo
}

// validate is the workflow's check job: fmt, and each root validated.
func (g *gitopsRun) validate(t *testing.T) {
	check := g.checkout(t, "check")
	runCLI(t, g.c, g.rc, check, nil, 0, gitopsSteps.fmt...)
	for env := range g.orgs {
		envDir := filepath.Join(check, "environments", env)
		runCLI(t, g.c, g.rc, envDir, nil, 0, gitopsSteps.validateInit...)
		runCLI(t, g.c, g.rc, envDir, nil, 0, gitopsSteps.validate...)
	}
}

// deploy plans on the pull request and applies the saved plan on merge, for
// staging and then production, and checks what each organization holds.
func (g *gitopsRun) deploy(t *testing.T) {
	orgs := g.orgs
	for i, env := range []string{"staging", "production"} {
		org := orgs[env]
		shown := org.planAndApply(t, g.c, g.rc, g.checkout(t, fmt.Sprintf("pr-%d", i)), g.checkout(t, fmt.Sprintf("merge-%d", i)), env)
		for _, want := range []string{"module.organization.zulip_linkifier.issues will be created", `module.organization.zulip_channel.team["engineering"] will be created`} {
			if !strings.Contains(shown, want) {
				t.Errorf("%s: the plan shown to reviewers lacks %q:\n%s", env, want, shown)
			}
		}
		org.drift(t, g.c, g.rc, g.checkout(t, "drift-"+env), 0)
	}
	orgs["staging"].srv.Do(func(realm *refserver.Realm) { checkGitOpsRealm(t, "staging", realm, orgs["staging"].bot.id, true) })
	orgs["production"].srv.Do(func(realm *refserver.Realm) {
		checkGitOpsRealm(t, "production", realm, orgs["production"].bot.id, false)
	})
}

// driftAndRepair: somebody edits the production linkifier in the web app;
// the drift check names it (and staging's passes), and the next plan and
// apply put it back.
func (g *gitopsRun) driftAndRepair(t *testing.T) {
	prod := g.orgs["production"]
	owner, _ := prod.srv.User(refserver.SeedOwnerID)
	var id int
	prod.srv.Do(func(realm *refserver.Realm) {
		for _, l := range realm.Linkifiers {
			if l.Pattern == "ZT-(?P<id>[0-9]+)" {
				id = l.ID
			}
		}
	})
	zulipAPI(t, prod.srv, owner.Email, owner.APIKey, http.MethodPatch, "/api/v1/realm/filters/"+strconv.Itoa(id), url.Values{
		"pattern": {"ZT-(?P<id>[0-9]+)"}, "url_template": {"https://elsewhere.example.com/{id}"}})
	out := prod.drift(t, g.c, g.rc, g.checkout(t, "drift-after-edit"), 2)
	if !strings.Contains(out, "module.organization.zulip_linkifier.issues will be updated in-place") {
		t.Errorf("the drift check does not name the edited linkifier:\n%s", out)
	}
	g.orgs["staging"].drift(t, g.c, g.rc, g.checkout(t, "drift-staging-after-edit"), 0)

	// the repair: the next plan and apply put it back
	prod.planAndApply(t, g.c, g.rc, g.checkout(t, "repair-pr"), g.checkout(t, "repair-merge"), "production")
	prod.drift(t, g.c, g.rc, g.checkout(t, "drift-after-repair"), 0)
}

// gitopsOrg is one organization of the GitOps test: its server, Terraform's
// bot there, the environment the workflow's job gets from its secrets, and
// where its state is kept.
type gitopsOrg struct {
	name  string
	srv   *acctest.Server
	bot   terraformBot
	env   []string
	state string
}

// planAndApply runs the pull request's plan job in pr and the merge's apply
// job in merge, with the plan file carried from one to the other as the
// workflow's artifact; it returns the plan as shown to reviewers.
func (o *gitopsOrg) planAndApply(t *testing.T, c cli, rc, pr, merge, env string) string {
	t.Helper()
	prDir := filepath.Join(pr, "environments", env)
	runCLI(t, c, rc, prDir, o.env, 0, "init", "-input=false")
	runCLI(t, c, rc, prDir, o.env, 0, gitopsSteps.plan...)
	shown := runCLI(t, c, rc, prDir, o.env, 0, gitopsSteps.show...)
	plan, err := os.ReadFile(filepath.Join(prDir, "tfplan"))
	if err != nil {
		t.Fatal(err)
	}
	mergeDir := filepath.Join(merge, "environments", env)
	writeFile(t, filepath.Join(mergeDir, "tfplan"), string(plan), 0o644)
	runCLI(t, c, rc, mergeDir, o.env, 0, "init", "-input=false")
	runCLI(t, c, rc, mergeDir, o.env, 0, gitopsSteps.apply...)
	return shown
}

// drift runs the scheduled drift check in a fresh checkout and fails unless
// it exits with want (0: no change, 2: the organization differs).
func (o *gitopsOrg) drift(t *testing.T, c cli, rc, repo string, want int) string {
	t.Helper()
	dir := filepath.Join(repo, "environments", o.name)
	runCLI(t, c, rc, dir, o.env, 0, "init", "-input=false")
	// The workflow keeps the colours, which the CI's log shows.
	return regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(runCLI(t, c, rc, dir, o.env, want, gitopsSteps.drift...), "")
}

// checkGitOpsRealm checks what the pipeline made in one organization, and
// that Terraform's bot made it.
func checkGitOpsRealm(t *testing.T, env string, realm *refserver.Realm, botID int, sandbox bool) {
	t.Helper()
	tracker := map[bool]string{true: "https://tracker.staging.example.com/issues/{id}", false: "https://tracker.example.com/issues/{id}"}[sandbox]
	found := false
	for _, l := range realm.Linkifiers {
		if l.Pattern == "ZT-(?P<id>[0-9]+)" {
			found = true
			if l.URLTemplate != tracker {
				t.Errorf("%s: the linkifier goes to %s, want %s", env, l.URLTemplate, tracker)
			}
		}
	}
	if !found {
		t.Errorf("%s: no linkifier ZT-1234", env)
	}
	names := map[string]int{}
	for _, ch := range realm.Channels {
		names[ch.Name] = ch.CreatorID
	}
	for _, name := range []string{"releases", "engineering"} {
		if creator, ok := names[name]; !ok || creator != botID {
			t.Errorf("%s: channel %s exists %v, created by %d, want by Terraform's bot %d", env, name, ok, creator, botID)
		}
	}
	if _, ok := names["sandbox"]; ok != sandbox {
		t.Errorf("%s: channel sandbox exists %v, want %v (staging only)", env, ok, sandbox)
	}
}

// terraformBot is the bot account the pipeline runs as.
type terraformBot struct {
	id         int
	email, key string
}

// createTerraformBot makes Terraform's bot as an owner would in the web app
// (Personal settings, Bots, a generic bot), and makes it an administrator.
func createTerraformBot(t *testing.T, srv *acctest.Server) terraformBot {
	t.Helper()
	owner, _ := srv.User(refserver.SeedOwnerID)
	var created struct {
		UserID int    `json:"user_id"`
		APIKey string `json:"api_key"`
	}
	body := zulipAPI(t, srv, owner.Email, owner.APIKey, http.MethodPost, "/api/v1/bots", url.Values{
		"full_name": {"Terraform"}, "short_name": {"terraform"}, "bot_type": {"1"}})
	if err := json.Unmarshal(body, &created); err != nil || created.UserID == 0 || created.APIKey == "" {
		t.Fatalf("creating the bot: %v\n%s", err, body)
	}
	zulipAPI(t, srv, owner.Email, owner.APIKey, http.MethodPatch, "/api/v1/bots/"+strconv.Itoa(created.UserID), url.Values{"role": {"200"}})
	bot, ok := srv.User(created.UserID)
	if !ok || !bot.IsBot || bot.Role != refserver.RoleAdministrator {
		t.Fatalf("the bot %d is not an administrator bot: %+v", created.UserID, bot)
	}
	return terraformBot{id: created.UserID, email: bot.Email, key: created.APIKey}
}

// zulipAPI sends a form request to the server as a user and fails unless
// it succeeds; it returns the answer.
func zulipAPI(t *testing.T, srv *acctest.Server, email, key, method, path string, form url.Values) []byte {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(email, key)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s\n%s", method, path, resp.Status, body)
	}
	return body
}
