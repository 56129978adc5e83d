package provider_test

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// The test contract: every resource type is listed here with its kind, and
// each kind makes tests required. A resource without its entry, or without a
// test its kind requires, fails TestResourceContract, so a new resource
// cannot land without its lifecycle, import, drift, adoption, half-failure
// and generated-configuration tests.

// resourceKind says which tests a resource type must have.
type resourceKind int

const (
	// kindCollection: objects in a collection the server lists whole; the
	// kit's shared tests (kitCases) run on it, beside its own.
	kindCollection resourceKind = iota
	// kindManaged: another managed object with its own tests.
	kindManaged
	// kindInvocation: an operation performed once (kit/invocation.go).
	kindInvocation
)

// required lists, per kind, the test name suffixes (TestAcc<Type>_<suffix>)
// a resource must have besides the shared ones.
var required = map[resourceKind][]string{
	kindCollection: {"lifecycle", "validation", "example"},
	kindManaged:    {"lifecycle", "validation", "example"},
	kindInvocation: {"example"},
}

// contracts lists every resource type of the provider with its kind and the
// Go name its tests use (TestAcc<name>_...).
// importable resources must also have TestAcc<name>_generatedConfig
// (collection resources have it through the kit's shared tests).
var contracts = map[string]struct {
	kind       resourceKind
	name       string
	importable bool
}{
	"zulip_linkifier":                  {kindCollection, "Linkifier", true},
	"zulip_saved_snippet":              {kindCollection, "SavedSnippet", true},
	"zulip_allowed_domain":             {kindCollection, "AllowedDomain", true},
	"zulip_user":                       {kindManaged, "User", true},
	"zulip_user_topic":                 {kindManaged, "UserTopic", true},
	"zulip_profile_data":               {kindManaged, "ProfileData", true},
	"zulip_message_flags":              {kindManaged, "MessageFlags", true},
	"zulip_apns_device_token":          {kindManaged, "APNsDeviceToken", false},
	"zulip_message_report":             {kindInvocation, "MessageReport", false},
	"zulip_push_test_notification":     {kindInvocation, "PushTestNotification", false},
	"zulip_own_account_deactivation":   {kindInvocation, "OwnAccountDeactivation", false},
	"zulip_sms_question":               {kindInvocation, "SMSQuestion", false},
	"zulip_user_group":                 {kindCollection, "UserGroup", true},
	"zulip_user_group_members":         {kindManaged, "UserGroupMembers", true},
	"zulip_channel":                    {kindCollection, "Channel", true},
	"zulip_channel_folder":             {kindCollection, "ChannelFolder", true},
	"zulip_channel_folder_order":       {kindManaged, "ChannelFolderOrder", true},
	"zulip_channel_subscribers":        {kindManaged, "ChannelSubscribers", true},
	"zulip_channel_subscription":       {kindManaged, "ChannelSubscription", true},
	"zulip_user_group_membership":      {kindManaged, "UserGroupMembership", true},
	"zulip_realm":                      {kindManaged, "RealmSettings", true},
	"zulip_realm_user_defaults":        {kindManaged, "RealmUserDefaults", true},
	"zulip_linkifier_order":            {kindManaged, "LinkifierOrder", true},
	"zulip_default_channels":           {kindManaged, "DefaultChannels", true},
	"zulip_code_playground":            {kindCollection, "CodePlayground", true},
	"zulip_custom_profile_field_order": {kindManaged, "CustomProfileFieldOrder", true},
	"zulip_custom_profile_field":       {kindCollection, "CustomProfileField", true},
	"zulip_custom_emoji":               {kindCollection, "CustomEmoji", true},
	"zulip_bot":                        {kindManaged, "Bot", true},
}

// kitCase is how the shared tests exercise one collection resource.
type kitCase struct {
	// user is the seeded user the provider acts as.
	user int
	// config is a resource "<type>" "test" block that creates a new object.
	config string
	// create and list are the paths of the create request and the list read.
	create, list string
	// importID imports the configured object; "" takes the state's id.
	importID string
	// count is how many objects with the configuration's values the server holds.
	count func(*refserver.Realm) int
	// twin adds an object with every configured value, as a killed apply
	// leaves behind; stranger adds one with the natural key but other values,
	// nil when the natural key is every value.
	twin, stranger func(*refserver.Realm)
	// adopted, when set, is the configuration of the object as an import
	// adopts it, where that differs from config (an emoji is adopted without
	// its source file).
	adopted string
	// made says the create's answer and the configuration determine the object
	// as the server lists it (creation.made): it is added to the cached list
	// and never read back.
	made bool
}

// kitCases are the collection resources' cases, by resource type.
var kitCases = map[string]kitCase{
	"zulip_linkifier": {
		user:   refserver.SeedAdminID,
		config: testAccLinkifierConfig(`KIT-(?P<id>[0-9]+)`, "https://kit.example/{id}"),
		create: "POST /api/v1/realm/filters", list: "GET /api/v1/realm/linkifiers",
		count: func(r *refserver.Realm) int {
			n := 0
			for _, l := range r.Linkifiers {
				if l.Pattern == `KIT-(?P<id>[0-9]+)` && l.URLTemplate == "https://kit.example/{id}" {
					n++
				}
			}
			return n
		},
		twin: func(r *refserver.Realm) {
			r.NextID["linkifier"]++
			r.Linkifiers = append(r.Linkifiers, &refserver.Linkifier{ID: r.NextID["linkifier"],
				Pattern: `KIT-(?P<id>[0-9]+)`, URLTemplate: "https://kit.example/{id}"})
		},
		stranger: func(r *refserver.Realm) {
			r.NextID["linkifier"]++
			r.Linkifiers = append(r.Linkifiers, &refserver.Linkifier{ID: r.NextID["linkifier"],
				Pattern: `KIT-(?P<id>[0-9]+)`, URLTemplate: "https://someone-else.example/{id}"})
		},
		made: true,
	},
	"zulip_saved_snippet": {
		user:   refserver.SeedAdminID,
		config: testAccSavedSnippetConfig("Kit", "Made by the kit's tests."),
		create: "POST /api/v1/saved_snippets", list: "GET /api/v1/saved_snippets",
		count: func(r *refserver.Realm) int {
			n := 0
			for _, s := range r.Snippets {
				if s.OwnerID == refserver.SeedAdminID && s.Title == "Kit" && s.Content == "Made by the kit's tests." {
					n++
				}
			}
			return n
		},
		twin: func(r *refserver.Realm) {
			r.NextID["snippet"]++
			id := r.NextID["snippet"]
			r.Snippets[id] = &refserver.Snippet{ID: id, OwnerID: refserver.SeedAdminID, Title: "Kit",
				Content: "Made by the kit's tests.", DateCreated: 1700000000}
		},
	},
	"zulip_allowed_domain": {
		user:   refserver.SeedOwnerID,
		config: testAccAllowedDomainConfig("kit.example.org", "true"), importID: "kit.example.org",
		create: "POST /api/v1/realm/domains", list: "GET /api/v1/realm/domains",
		count: func(r *refserver.Realm) int {
			n := 0
			for _, d := range r.Domains {
				if d.Domain == "kit.example.org" && d.AllowSubdomains {
					n++
				}
			}
			return n
		},
		twin: func(r *refserver.Realm) {
			r.NextID["realm_domain"]++
			r.Domains = append(r.Domains, &refserver.RealmDomain{ID: r.NextID["realm_domain"], Domain: "kit.example.org", AllowSubdomains: true})
		},
		stranger: func(r *refserver.Realm) {
			r.NextID["realm_domain"]++
			r.Domains = append(r.Domains, &refserver.RealmDomain{ID: r.NextID["realm_domain"], Domain: "kit.example.org"})
		},
		made: true,
	},
	"zulip_user_group": {
		user:   refserver.SeedOwnerID,
		config: testAccUserGroupConfig("kit-group", "Made by the kit's tests.", ""), importID: "kit-group",
		create: "POST /api/v1/user_groups/create", list: "GET /api/v1/user_groups",
		count: func(r *refserver.Realm) int {
			n := 0
			for _, g := range r.Groups {
				if g.Name == "kit-group" && g.Description == "Made by the kit's tests." && !g.Deactivated {
					n++
				}
			}
			return n
		},
		twin:     func(r *refserver.Realm) { acctest.AddGroup(r, "kit-group", "Made by the kit's tests.") },
		stranger: func(r *refserver.Realm) { acctest.AddGroup(r, "kit-group", "Someone else's group.") },
	},
	"zulip_channel_folder": {
		user:   refserver.SeedAdminID,
		config: "resource \"zulip_channel_folder\" \"test\" {\n  name        = \"Kit\"\n  description = \"Made by the kit's tests.\"\n}\n",
		create: "POST /api/v1/channel_folders/create", list: "GET /api/v1/channel_folders", importID: "Kit",
		count: func(r *refserver.Realm) int {
			n := 0
			for _, f := range r.ChannelFolders {
				if f.Name == "Kit" && f.Description == "Made by the kit's tests." && !f.IsArchived {
					n++
				}
			}
			return n
		},
		twin:     func(r *refserver.Realm) { acctest.AddFolder(r, "Kit", "Made by the kit's tests.") },
		stranger: func(r *refserver.Realm) { acctest.AddFolder(r, "KIT", "Someone else's folder.") },
	},
	"zulip_custom_profile_field": {
		user:   refserver.SeedAdminID,
		config: "resource \"zulip_custom_profile_field\" \"test\" {\n  name = \"Kit field\"\n  type = \"short_text\"\n  hint = \"Made by the kit's tests.\"\n}\n",
		create: "POST /api/v1/realm/profile_fields", list: "GET /api/v1/realm/profile_fields", importID: "Kit field",
		count: func(r *refserver.Realm) int {
			n := 0
			for _, f := range r.ProfileFields {
				if f.Name == "Kit field" && f.Hint == "Made by the kit's tests." {
					n++
				}
			}
			return n
		},
		twin:     func(r *refserver.Realm) { acctest.AddProfileField(r, "Kit field", "Made by the kit's tests.") },
		stranger: func(r *refserver.Realm) { acctest.AddProfileField(r, "Kit field", "Someone else's field.") },
	},
	"zulip_custom_emoji": {
		user:   refserver.SeedAdminID,
		config: testAccEmojiConfig("kit_emoji", testAccEmojiFile("green.png")), importID: "kit_emoji",
		adopted: "resource \"zulip_custom_emoji\" \"test\" {\n  name = \"kit_emoji\"\n}\n",
		create:  "POST /api/v1/realm/emoji/kit_emoji", list: "GET /api/v1/realm/emoji",
		count: func(r *refserver.Realm) int {
			n := 0
			for _, e := range r.Emoji {
				if e.Name == "kit_emoji" && !e.Deactivated {
					n++
				}
			}
			return n
		},
		twin:     func(r *refserver.Realm) { acctest.AddEmoji(r, "kit_emoji", refserver.SeedAdminID) },
		stranger: func(r *refserver.Realm) { acctest.AddEmoji(r, "kit_emoji", refserver.SeedMemberID) },
	},
	"zulip_code_playground": {
		user:   refserver.SeedAdminID,
		config: testAccPlaygroundConfig("Kit playground", "Go", "https://go.dev/play/?code={code}"), importID: "Go/Kit playground",
		create: "POST /api/v1/realm/playgrounds", list: "POST /api/v1/register",
		count: func(r *refserver.Realm) int {
			n := 0
			for _, p := range r.Playgrounds {
				if p.Name == "Kit playground" && p.PygmentsLanguage == "Go" && p.URLTemplate == "https://go.dev/play/?code={code}" {
					n++
				}
			}
			return n
		},
		twin: func(r *refserver.Realm) {
			acctest.AddPlayground(r, "Kit playground", "Go", "https://go.dev/play/?code={code}")
		},
		stranger: func(r *refserver.Realm) {
			acctest.AddPlayground(r, "Kit playground", "Go", "https://elsewhere.example/?code={code}")
		},
		made: true,
	},
	"zulip_channel": {
		user:   refserver.SeedAdminID,
		config: testAccChannelConfig("kit-channel", "Made by the kit's tests.", ""), importID: "kit-channel",
		create: "POST /api/v1/channels/create", list: "GET /api/v1/streams",
		count: func(r *refserver.Realm) int {
			n := 0
			for _, c := range r.Channels {
				if c.Name == "kit-channel" && c.Description == "Made by the kit's tests." && !c.IsArchived {
					n++
				}
			}
			return n
		},
		twin:     func(r *refserver.Realm) { acctest.AddChannel(r, "kit-channel", "Made by the kit's tests.") },
		stranger: func(r *refserver.Realm) { acctest.AddChannel(r, "kit-channel", "Someone else's channel.") },
	},
}

// TestResourceContract fails for a resource type without a contract, a
// collection resource without a kit case, and a resource without a test its
// kind requires.
func TestResourceContract(t *testing.T) {
	tests := testFunctionNames(t)
	types := resourceTypes(t)
	for _, typ := range types {
		c, ok := contracts[typ]
		if !ok {
			t.Errorf("%s has no entry in contracts (kit_test.go): say which kind it is, and its tests become required", typ)
			continue
		}
		if _, ok := kitCases[typ]; c.kind == kindCollection && !ok {
			t.Errorf("%s is a collection resource without a kit case (kitCases in kit_test.go)", typ)
		}
		_, half := halfCases()[typ]
		if _, exempt := halfExempt[typ]; c.kind == kindManaged && half == exempt {
			t.Errorf("%s needs either a half-failure case (halfCases) or a reason in halfExempt, not both or neither", typ)
		}
		suffixes := required[c.kind]
		if c.importable && c.kind != kindCollection {
			suffixes = append(suffixes, "generatedConfig")
		}
		for _, suffix := range suffixes {
			if name := "TestAcc" + c.name + "_" + suffix; !tests[name] {
				t.Errorf("%s has no %s", typ, name)
			}
		}
	}
	for typ := range contracts {
		if !slices.Contains(types, typ) {
			t.Errorf("contracts lists %s, which the provider does not have", typ)
		}
	}
}

// TestAccKit_existsAtPlan: an object with the configuration's natural key
// already in the organization (what a killed apply leaves behind) fails the
// plan with an import block, instead of failing the apply or duplicating it.
func TestAccKit_existsAtPlan(t *testing.T) {
	forEachKitCase(t, func(t *testing.T, typ string, c kitCase) {
		srv := acctest.NewServer(t)
		srv.Do(c.twin)
		acctest.ParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config:      srv.ProviderConfig(t, c.user) + c.config,
				PlanOnly:    true,
				ExpectError: acctest.ExpectErr("Already Exists", "import {", "to = "+typ+".<name>", "}"),
			}},
		})
	})
}

// TestAccKit_createAnswerLost: the create is processed but its answer lost.
// The provider adopts the one new object that matches the whole
// configuration: one object on the server, an empty plan.
func TestAccKit_createAnswerLost(t *testing.T) {
	forEachKitCase(t, func(t *testing.T, _ string, c kitCase) {
		srv := acctest.NewServer(t)
		lost := 0
		proxy := srv.FaultyProviderConfig(t, c.user, func(r *http.Request) acctest.Fault {
			if r.Method+" "+r.URL.Path == c.create && lost == 0 {
				lost++
				return acctest.Fault{Status: http.StatusBadGateway, Process: true}
			}
			return acctest.Fault{}
		})
		acctest.ParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config: proxy + c.config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					if lost != 1 {
						return fmt.Errorf("the create's answer was not lost (%d)", lost)
					}
					return expectCount(srv, c, 1)
				},
			}},
		})
	})
}

// TestAccKit_createUncertainStranger: while the create's outcome is unknown,
// an object with the same natural key but other values appears (made by
// someone else between plan and apply). The provider adopts nothing: the
// apply fails naming it with an import block, and no destroy touches it.
func TestAccKit_createUncertainStranger(t *testing.T) {
	forEachKitCase(t, func(t *testing.T, typ string, c kitCase) {
		if c.stranger == nil {
			t.Skipf("%s: the natural key is every configured value, so an object like it is a twin, not a stranger", typ)
		}
		srv := acctest.NewServer(t)
		proxy := srv.FaultyProviderConfig(t, c.user, func(r *http.Request) acctest.Fault {
			if r.Method+" "+r.URL.Path == c.create {
				return acctest.Fault{Status: http.StatusGatewayTimeout, Before: func() { srv.Do(c.stranger) }}
			}
			return acctest.Fault{}
		})
		acctest.ParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{{
				Config:      proxy + c.config,
				ExpectError: acctest.ExpectErr("adopted none", "import {", "to = "+typ+".<name>"),
			}},
			CheckDestroy: func(*terraform.State) error {
				// Nothing like the configuration was made or adopted.
				return expectCount(srv, c, 0)
			},
		})
	})
}

// TestAccKit_createReadBackFails: the object is created but reading it back
// fails. The apply warns instead of failing (a failed create is tainted, and
// the next apply would delete what was just made), keeps the object in state,
// and the next plan is empty: nothing is created twice.
func TestAccKit_createReadBackFails(t *testing.T) {
	forEachKitCase(t, func(t *testing.T, _ string, c kitCase) {
		srv := acctest.NewServer(t)
		created, failed := false, 0
		proxy := srv.FaultyProviderConfig(t, c.user, func(r *http.Request) acctest.Fault {
			switch req := r.Method + " " + r.URL.Path; {
			case req == c.create:
				created = true
			case req == "GET /api/v1/events":
				// Objects that come from their create's event (saved
				// snippets) are read back when the event queue fails.
				return acctest.Fault{Status: http.StatusServiceUnavailable}
			case created && failed == 0 && req == c.list && !c.made:
				failed++
				return acctest.Fault{Status: http.StatusServiceUnavailable}
			}
			return acctest.Fault{}
		})
		rec := &acctest.DiagRecorder{}
		acctest.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: rec.Factories(),
			Steps: []resource.TestStep{{
				Config: proxy + c.config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error {
					if c.made {
						// Nothing is read back, so nothing can fail: the object
						// is in state as created, with no warning (that no list
						// follows the create is pinned by
						// TestCollectionCreateAddsToTheCache).
						if rec.Has("Not Finished") == nil {
							return errors.New("the create warned that it was not finished")
						}
						return expectCount(srv, c, 1)
					}
					if failed != 1 {
						return fmt.Errorf("the read-back did not fail (%d)", failed)
					}
					if err := rec.Has(`(?s)^WARNING: .*Created but Not Finished: .*was created \(id .*\), but reading it back failed`); err != nil {
						return err
					}
					return expectCount(srv, c, 1)
				},
			}},
		})
	})
}

// TestAccKit_taintedReapplied: a tainted object (a failed create, or
// `terraform taint`) plans and applies as a replacement: the plan of the new
// half does not report the object being replaced as existing, and the apply
// leaves one object and an empty plan. (-replace, which Terraform plans
// differently, is TestReplaceEveryType's, with the real CLI.)
func TestAccKit_taintedReapplied(t *testing.T) {
	forEachKitCase(t, func(t *testing.T, typ string, c kitCase) {
		srv := acctest.NewServer(t)
		cfg := srv.ProviderConfig(t, c.user) + c.config
		acctest.ParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{
				{Config: cfg},
				{
					Config: cfg,
					Taint:  []string{typ + ".test"},
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(typ+".test", plancheck.ResourceActionDestroyBeforeCreate)},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
					Check: func(*terraform.State) error { return expectCount(srv, c, 1) },
				},
			},
		})
	})
}

// TestAccKit_duplicateKey: two resources of one configuration with the same
// natural key fail the plan, both when both are new and when one is already
// in state, naming the key; nothing is created.
func TestAccKit_duplicateKey(t *testing.T) {
	forEachKitCase(t, func(t *testing.T, typ string, c kitCase) {
		if typ == "zulip_saved_snippet" {
			t.Skip("zulip_saved_snippet has no natural key: Zulip lets two snippets have one title")
		}
		srv := acctest.NewServer(t)
		cfg := srv.ProviderConfig(t, c.user) + c.config
		twin := strings.Replace(c.config, `"test"`, `"twin"`, 1)
		acctest.ParallelTest(t, resource.TestCase{
			Steps: []resource.TestStep{
				{Config: cfg + twin, PlanOnly: true, ExpectError: acctest.ExpectErr("Two Resources With One", typ)},
				{Config: cfg, Check: func(*terraform.State) error { return expectCount(srv, c, 1) }},
				{Config: cfg + twin, PlanOnly: true, ExpectError: acctest.ExpectErr("Two Resources With One", typ)},
			},
		})
	})
}

// halfCase is a create the half-failure tests drive: the configuration, the
// seeded user the provider acts as, and the path of the create request.
type halfCase struct {
	user           int
	config, create string
	// tf11 marks a configuration that needs Terraform 1.11 (a write-only password).
	tf11 bool
}

// halfCases are the creates the half-failure tests run: every collection
// resource's kit case, and the managed types whose create takes several
// requests.
func halfCases() map[string]halfCase {
	out := map[string]halfCase{
		"zulip_bot": {user: refserver.SeedAdminID, create: "POST /api/v1/bots",
			config: testAccBotConfig("half", "Half", fmt.Sprintf("  owner_id = %d\n  role = \"moderator\"\n", refserver.SeedMemberID))},
		"zulip_user": {user: refserver.SeedAdminID, create: "POST /api/v1/users", tf11: true,
			config: testAccUserConfig("Half Made", "moderator", "", `
    "1" = { value = "+1-555-0101" }`)},
	}
	for typ, c := range kitCases {
		out[typ] = halfCase{user: c.user, config: c.config, create: c.create}
	}
	return out
}

// isWrite reports a request that changes the organization (not a read, nor
// the event queue the provider registers for its creates).
func isWrite(r *http.Request) bool {
	return r.Method != http.MethodGet && r.URL.Path != "/api/v1/register" && r.URL.Path != "/api/v1/events"
}

// halfExempt are the managed types without a half-failure case, and why.
var halfExempt = map[string]string{
	"zulip_user_topic":            "one request (POST /user_topics)",
	"zulip_profile_data":          "one request (PATCH /users/me/profile_data)",
	"zulip_message_flags":         "one request per flag (POST /messages/flags)",
	"zulip_apns_device_token":     "one request (POST /users/me/apns_device_token)",
	"zulip_user_group_members":    "one request for the difference (POST /user_groups/{id}/members)",
	"zulip_user_group_membership": "one request (POST /user_groups/{id}/members)",
	"zulip_channel_subscribers":   "one request for the members added (POST /users/me/subscriptions)",
	"zulip_channel_subscription":  "one request (POST /users/me/subscriptions)",
	"zulip_channel_folder_order":  singletonHalf, "zulip_linkifier_order": singletonHalf,
	"zulip_custom_profile_field_order": singletonHalf, "zulip_default_channels": singletonHalf,
	"zulip_realm": singletonHalf, "zulip_realm_user_defaults": singletonHalf,
}

// singletonHalf is why an organization-wide singleton has no half-failure case.
const singletonHalf = "a singleton: its create adopts the organization's object, and a failed one, tainted, is " +
	"replaced by forgetting and adopting it again (TestEveryTypeThroughTerraformOperations)"

// halfRun is one run of TestAccKit_halfCreateConverges: a type, and whether
// the half-made object is destroyed rather than finished.
type halfRun struct {
	name, typ string
	destroy   bool
}

// halfRuns are the runs for types: each finished, and each that can be
// half-made also destroyed.
func halfRuns(types []string) []halfRun {
	var out []halfRun
	for _, typ := range types {
		out = append(out, halfRun{name: typ, typ: typ})
		if !singleRequestCreates[typ] {
			out = append(out, halfRun{name: typ + "/destroyed", typ: typ, destroy: true})
		}
	}
	return out
}

// singleRequestCreates are the types whose create is one request, so that
// there is no second write to half-fail; TestAccKit_halfCreateConverges checks
// that it is still so.
var singleRequestCreates = map[string]bool{
	"zulip_linkifier": true, "zulip_saved_snippet": true, "zulip_allowed_domain": true, "zulip_user_group": true,
	"zulip_channel_folder": true, "zulip_custom_profile_field": true, "zulip_custom_emoji": true,
	"zulip_code_playground": true, "zulip_channel": true,
}

// TestAccKit_halfCreateConverges: the first write of a create succeeds and
// the next write of it fails. The apply keeps the object in state, untainted,
// with a warning; the next plain apply finishes it in place (an update, not a
// replacement) and plans empty; or `terraform destroy` removes it. For a
// type in singleRequestCreates the test
// checks that its create is still one write (a second one would need this
// test), and nothing more.
func TestAccKit_halfCreateConverges(t *testing.T) {
	cases := halfCases()
	types := make([]string, 0, len(cases))
	for typ := range cases {
		types = append(types, typ)
	}
	sort.Strings(types)
	for _, run := range halfRuns(types) {
		typ, destroyHalf := run.typ, run.destroy
		c := cases[typ]
		t.Run(run.name, func(t *testing.T) {
			srv := acctest.NewServer(t)
			single := singleRequestCreates[typ]
			created, writes, failed := false, 0, 0
			proxy := srv.FaultyProviderConfig(t, c.user, func(r *http.Request) acctest.Fault {
				switch req := r.Method + " " + r.URL.Path; {
				case req == c.create && !created:
					created, writes = true, 1
				case created && isWrite(r) && writes < 100:
					writes++
					if !single && failed == 0 {
						failed++
						return acctest.Fault{Status: http.StatusBadRequest}
					}
				}
				return acctest.Fault{}
			})
			cfg := proxy + c.config
			var versions []tfversion.TerraformVersionCheck
			if c.tf11 {
				versions = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)}
			}
			steps := []resource.TestStep{{
				Config: cfg,
				Check: func(*terraform.State) error {
					if writes != 1 {
						return fmt.Errorf("%s's create took %d writes: take it out of singleRequestCreates, and its "+
							"second write is half-failed by this test", typ, writes)
					}
					return nil
				},
			}}
			if !single {
				steps = []resource.TestStep{
					{
						Config:             cfg,
						ExpectNonEmptyPlan: true,
						Check: func(s *terraform.State) error {
							rs := s.RootModule().Resources[typ+".test"]
							switch {
							case failed == 0:
								return fmt.Errorf("%s's create took one write: add it to singleRequestCreates", typ)
							case rs == nil:
								return fmt.Errorf("the half-made %s is not in state", typ)
							case rs.Primary.Tainted:
								return fmt.Errorf("the half-made %s is tainted", typ)
							}
							return nil
						},
					},
					{
						Config: cfg,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(typ+".test", plancheck.ResourceActionUpdate)},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
					},
				}
				if destroyHalf {
					// terraform destroy right after the half-made create: nothing
					// the create checks stands in its way.
					steps = []resource.TestStep{steps[0], {Config: cfg, Destroy: true}}
				}
			}
			acctest.ParallelTest(t, resource.TestCase{
				TerraformVersionChecks: versions,
				Steps:                  steps,
			})
		})
	}
}

// TestAccKit_generatedConfig: `terraform plan -generate-config-out` over an
// import block writes configuration that the provider accepts unchanged and
// that plans no change.
func TestAccKit_generatedConfig(t *testing.T) {
	forEachKitCase(t, func(t *testing.T, typ string, c kitCase) {
		srv := acctest.NewServer(t)
		acctest.ParallelTest(t, resource.TestCase{
			Steps: acctest.GeneratedConfigSteps(srv.ProviderConfig(t, c.user), c.config, typ+".test", c.importID),
		})
	})
}

// TestAccKit_importByIdentity (Terraform 1.12+): the identity stored for a
// created object holds the state's values, and an import block with that
// identity adopts the object and plans no change.
func TestAccKit_importByIdentity(t *testing.T) {
	identities := identityAttributes(t)
	forEachKitCase(t, func(t *testing.T, typ string, c kitCase) {
		srv := acctest.NewServer(t)
		cfg, adopted := srv.ProviderConfig(t, c.user)+c.config, srv.ProviderConfig(t, c.user)+c.adopted
		if c.adopted == "" {
			adopted = cfg
		}
		var checks []statecheck.StateCheck
		for _, attr := range identities[typ] {
			checks = append(checks, statecheck.ExpectIdentityValueMatchesState(typ+".test", tfjsonpath.New(attr)))
		}
		acctest.ParallelTest(t, resource.TestCase{
			TerraformVersionChecks: acctest.IdentityVersions,
			Steps: []resource.TestStep{
				{Config: cfg, ConfigStateChecks: checks},
				{Config: adopted, ResourceName: typ + ".test", ImportState: true, ImportStateKind: resource.ImportBlockWithResourceIdentity},
			},
		})
	})
}

// forEachKitCase runs f for every collection resource, in parallel.
func forEachKitCase(t *testing.T, f func(*testing.T, string, kitCase)) {
	t.Helper()
	types := make([]string, 0, len(kitCases))
	for typ := range kitCases {
		types = append(types, typ)
	}
	sort.Strings(types)
	for _, typ := range types {
		t.Run(typ, func(t *testing.T) { f(t, typ, kitCases[typ]) })
	}
}

// expectCount checks how many objects like the configuration the server holds.
func expectCount(srv *acctest.Server, c kitCase, want int) error {
	var n int
	srv.Do(func(r *refserver.Realm) { n = c.count(r) })
	if n != want {
		return fmt.Errorf("the server holds %d objects like the configuration, want %d", n, want)
	}
	return nil
}

// resourceTypes lists the provider's resource types.
func resourceTypes(t *testing.T) []string {
	t.Helper()
	p := provider.New("test")()
	var names []string
	for _, f := range p.Resources(context.Background()) {
		names = append(names, typeName(f()))
	}
	sort.Strings(names)
	return names
}

// typeName is the type name of a resource or list resource.
func typeName(r interface {
	Metadata(context.Context, fwresource.MetadataRequest, *fwresource.MetadataResponse)
}) string {
	var resp fwresource.MetadataResponse
	r.Metadata(context.Background(), fwresource.MetadataRequest{ProviderTypeName: "zulip"}, &resp)
	return resp.TypeName
}

// testFunctionNames returns the names of this package's test functions.
func testFunctionNames(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Test") {
				names[fn.Name.Name] = true
			}
		}
	}
	return names
}

// importExample is an import-block example with the configuration of the
// seeded object it adopts.
type importExample struct {
	example, config string
	user            int
	// setup prepares the seeded organization (nil: as seeded).
	setup func(*refserver.Realm)
}

// importExamples are the import-by-string-id examples (import-by-identity.tf
// beside each adopts the same object).
var importExamples = []importExample{
	{"examples/resources/zulip_linkifier/import-by-string-id.tf", `
resource "zulip_linkifier" "issues" {
  pattern      = "#(?P<id>[0-9]+)"
  url_template = "https://github.com/zulip/zulip/issues/{id}"
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_saved_snippet/import-by-string-id.tf", `
resource "zulip_saved_snippet" "welcome" {
  title   = "Welcome"
  content = "Welcome to the team! Please read #**general>rules**."
}`, refserver.SeedOwnerID, nil},
	{"examples/resources/zulip_allowed_domain/import-by-string-id.tf", `
resource "zulip_allowed_domain" "company" {
  domain = "zulip.example.com"
}`, refserver.SeedOwnerID, nil},
	{"examples/resources/zulip_user_topic/import-by-string-id.tf", `
resource "zulip_user_topic" "releases" {
  channel_id        = 1
  topic             = "releases"
  visibility_policy = "followed"
}`, refserver.SeedMemberID, nil},
	{"examples/resources/zulip_user_group/import-by-string-id.tf", `
resource "zulip_user_group" "backend" {
  name        = "backend"
  description = "Backend engineers"
}`, refserver.SeedOwnerID, func(r *refserver.Realm) {
		// The seeded backend group is in use, which would refuse the
		// test's final destroy: an unused one takes its name.
		r.Groups[refserver.GroupBackend].Name = "backend-seeded"
		acctest.AddGroup(r, "backend", "Backend engineers")
	}},
	{"examples/resources/zulip_user_group_members/import-by-string-id.tf", `
resource "zulip_user_group_members" "backend" {
  group_id  = 9
  members   = [5, 11]
  subgroups = []
}`, refserver.SeedOwnerID, nil},
	{"examples/resources/zulip_user_group_membership/import-by-string-id.tf", `
resource "zulip_user_group_membership" "mia_in_backend" {
  group_id = 9
  user_id  = 11
}`, refserver.SeedOwnerID, nil},
	{"examples/resources/zulip_channel/import-by-string-id.tf", `
resource "zulip_channel" "general" {
  name        = "general"
  description = "Everyone is here."
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_channel_subscribers/import-by-string-id.tf", `
resource "zulip_channel_subscribers" "design" {
  channel_id  = 3
  subscribers = [1, 2, 5]
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_channel_subscription/import-by-string-id.tf", `
resource "zulip_channel_subscription" "mia_in_random" {
  channel_id = 7
  user_id    = 11
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_channel_folder/import-by-string-id.tf", `
resource "zulip_channel_folder" "engineering" {
  name = "Engineering"
}`, refserver.SeedAdminID, func(r *refserver.Realm) { acctest.AddFolder(r, "Engineering", "") }},
	{"examples/resources/zulip_realm/import-by-string-id.tf", `
resource "zulip_realm" "this" {
  name = "Zulip Reference Realm"
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_realm_user_defaults/import-by-string-id.tf", `
resource "zulip_realm_user_defaults" "this" {
  enter_sends = false
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_code_playground/import-by-string-id.tf", `
resource "zulip_code_playground" "rust" {
  name              = "Rust playground"
  pygments_language = "Rust"
  url_template      = "https://play.rust-lang.org/?code={code}"
}`, refserver.SeedAdminID, func(r *refserver.Realm) {
		acctest.AddPlayground(r, "Rust playground", "Rust", "https://play.rust-lang.org/?code={code}")
	}},
	{"examples/resources/zulip_custom_emoji/import-by-string-id.tf", `
resource "zulip_custom_emoji" "green_tick" {
  name = "green_tick"
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_bot/import-by-string-id.tf", `
resource "zulip_bot" "alerts" {
  full_name  = "Alerts Hook"
  short_name = "alerts"
  bot_type   = "incoming_webhook"
}`, refserver.SeedAdminID, nil},
	{"examples/resources/zulip_message_flags/import-by-string-id.tf", `
resource "zulip_message_flags" "starred" {
  flag        = "starred"
  message_ids = [1]
}`, refserver.SeedMemberID, nil},
}

// TestAccExamples_importBlocks applies every import-block example with the
// configuration of the seeded object it adopts: the import plans no change
// beyond the import, and the next plan is empty.
func TestAccExamples_importBlocks(t *testing.T) {
	for _, c := range importExamples {
		t.Run(filepath.Base(filepath.Dir(c.example)), func(t *testing.T) {
			srv := acctest.NewServer(t)
			if c.setup != nil {
				srv.Do(c.setup)
			}
			cfg := srv.ProviderConfig(t, c.user) + acctest.ReadExample(t, c.example) + c.config
			acctest.ParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{{
					Config: cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply:             []plancheck.PlanCheck{expectOnlyImports()},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				}},
			})
		})
	}
}

// expectOnlyImports checks that a plan imports and changes nothing else.
func expectOnlyImports() plancheck.PlanCheck { return onlyImports{} }

type onlyImports struct{}

func (onlyImports) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	imports := 0
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Change.Importing != nil {
			imports++
		}
		if !rc.Change.Actions.NoOp() {
			resp.Error = fmt.Errorf("%s: planned %v, want only an import", rc.Address, rc.Change.Actions)
			return
		}
	}
	if imports == 0 {
		resp.Error = fmt.Errorf("the plan imports nothing")
	}
}

// TestAccKit_stepDownWarning: a plan that takes the owner role from the
// provider's own account and also makes owner-only changes warns that the
// owner-only changes may be applied after the step-down, and fail.
func TestAccKit_stepDownWarning(t *testing.T) {
	srv := acctest.NewServer(t)
	owner, _ := srv.User(refserver.SeedOwnerID)
	rec := &acctest.DiagRecorder{}
	cfg := srv.ProviderConfig(t, refserver.SeedOwnerID) + fmt.Sprintf(`
import {
  to = zulip_user.me
  id = %q
}

resource "zulip_user" "me" {
  email                           = %q
  full_name                       = %q
  role                            = "administrator"
  allow_self_or_last_owner_change = true
}

resource "zulip_allowed_domain" "partner" {
  domain = "partner.example.org"
}
`, owner.Email, owner.Email, owner.FullName)
	acctest.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true},
			{
				PreConfig: func() {
					if err := rec.Has(`(?s)^WARNING: The Provider's Account Steps Down From Owner: .*` + regexp.QuoteMeta(owner.Email) +
						`.*change of the allowed domains`); err != nil {
						t.Error(err)
					}
				},
				Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true,
			},
		},
	})
}

// TestAccProvider_waitsAreShown: when the server's rate limit makes the
// provider wait over a second, the operation says so in a warning, which
// Terraform shows without TF_LOG (its log lines alone would not be seen).
func TestAccProvider_waitsAreShown(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) {
		o.Faults = refserver.Faults{RateLimitRate: 0.5, RetryAfterSecs: 1.2}
		o.Seed = 3
	})
	rec := &acctest.DiagRecorder{}
	acctest.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: rec.Factories(),
		Steps: []resource.TestStep{{
			Config: srv.ProviderConfig(t, refserver.SeedMemberID) + `
data "zulip_channels" "all" {}
`,
			Check: func(*terraform.State) error {
				return rec.Has(`(?s)^WARNING: Waited for the Zulip Server: This operation waited \d+s for the Zulip server: retrying request after .*rate limit`)
			},
		}},
	})
}
