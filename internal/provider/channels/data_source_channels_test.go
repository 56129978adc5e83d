package channels_test

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// memberFilters reads the channels through each filter a member can use.
const memberFilters = `
data "zulip_channels" "default" {}

data "zulip_channels" "archived" {
  exclude_archived = false
}

data "zulip_channels" "unsubscribed" {
  include_subscribed = false
}

data "zulip_channels" "content" {
  include_can_access_content = true
}

data "zulip_channels" "general" {
  name            = "GENERAL"
  include_default = true
}

data "zulip_channels" "old" {
  name             = "old-projects"
  exclude_archived = false
}

data "zulip_channels" "hidden_archive" {
  name = "old-projects"
}
`

// TestAccChannels_member checks every field of a channel and that each filter
// a member can use changes the list, against the seeded channels.
func TestAccChannels_member(t *testing.T) {
	// A clock 20 days after the seed, so that activity and traffic are known.
	srv := acctest.NewServer(t, func(o *refserver.Options) {
		o.Clock = func() time.Time { return acctest.SeedTime.Add(20 * 24 * time.Hour) }
	})
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	config := member + memberFilters
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(config).State(
				// Mark is subscribed to design (private); archived channels are left out.
				acctest.ExpectNames("data.zulip_channels.default", "channels", "announce", "design", "general", "random"),
				acctest.Value("data.zulip_channels.default", "include_public", knownvalue.Bool(true)),
				acctest.Value("data.zulip_channels.default", "exclude_archived", knownvalue.Bool(true)),
				acctest.Value("data.zulip_channels.default", "include_all_active", knownvalue.Bool(false)),
				acctest.ExpectNames("data.zulip_channels.archived", "channels", "announce", "design", "general", "old-projects", "random"),
				// Without subscriptions only the public channels remain.
				acctest.ExpectNames("data.zulip_channels.unsubscribed", "channels", "announce", "general", "random"),
				// Content access adds backend-internal, which the backend group may subscribe itself to.
				acctest.ExpectNames("data.zulip_channels.content", "channels", "announce", "backend-internal", "design", "general", "random"),
				acctest.ExpectNames("data.zulip_channels.hidden_archive", "channels"),
				statecheck.ExpectKnownValue("data.zulip_channels.default", tfjsonpath.New("channels").AtSliceIndex(0).AtMapKey("is_default"), knownvalue.Null()),
				acctest.Value("data.zulip_channels.general", "channels", seededGeneralChannel()),
				acctest.Value("data.zulip_channels.old", "channels", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"id":                     knownvalue.Int64Exact(refserver.SeedChannelArchived),
						"is_archived":            knownvalue.Bool(true),
						"message_retention_days": knownvalue.Int64Exact(-1),
						"first_message_id":       knownvalue.Int64Exact(9),
					}),
				})),
				// announce: web-public, administrators only may post (the deprecated fields agree).
				statecheck.ExpectKnownValue("data.zulip_channels.default", tfjsonpath.New("channels").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"id":                     knownvalue.Int64Exact(refserver.SeedChannelAnnounce),
					"is_web_public":          knownvalue.Bool(true),
					"stream_post_policy":     knownvalue.Int64Exact(2),
					"is_announcement_only":   knownvalue.Bool(true),
					"rendered_description":   knownvalue.StringExact("<p>Announcements, <strong>readable on the web</strong>.</p>"),
					"can_send_message_group": acctest.PermissionOf([]string{"role:administrators"}),
				})),
				// design: private with protected history.
				statecheck.ExpectKnownValue("data.zulip_channels.default", tfjsonpath.New("channels").AtSliceIndex(1), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"id":                            knownvalue.Int64Exact(refserver.SeedChannelDesign),
					"invite_only":                   knownvalue.Bool(true),
					"history_public_to_subscribers": knownvalue.Bool(false),
				})),
			).Step(),
			// Changed outside Terraform: the next read sees it.
			acctest.Apply(config).OutOfBand(srv, func(r *refserver.Realm) {
				r.Channels[refserver.SeedChannelRandom].Name = "water-cooler"
				r.Channels[refserver.SeedChannelGeneral].IsDefault = false
			}).State(
				acctest.ExpectNames("data.zulip_channels.default", "channels", "announce", "design", "general", "water-cooler"),
				statecheck.ExpectKnownValue("data.zulip_channels.general", tfjsonpath.New("channels").AtSliceIndex(0).AtMapKey("is_default"), knownvalue.Bool(false)),
			).Step(),
		},
	})
}

// seededGeneralChannel is the list of one channel, every field of the seeded
// general channel as a member sees it 20 days after the seed.
func seededGeneralChannel() knownvalue.Check {
	return knownvalue.ListExact([]knownvalue.Check{
		knownvalue.ObjectExact(map[string]knownvalue.Check{
			"id":                            knownvalue.Int64Exact(refserver.SeedChannelGeneral),
			"name":                          knownvalue.StringExact("general"),
			"description":                   knownvalue.StringExact("Everyone is here."),
			"rendered_description":          knownvalue.StringExact("<p>Everyone is here.</p>"),
			"date_created":                  knownvalue.Int64Exact(acctest.SeedTime.Add(24 * time.Hour).Unix()),
			"creator_id":                    knownvalue.Int64Exact(refserver.SeedOwnerID),
			"invite_only":                   knownvalue.Bool(false),
			"is_web_public":                 knownvalue.Bool(false),
			"history_public_to_subscribers": knownvalue.Bool(true),
			"is_archived":                   knownvalue.Bool(false),
			"first_message_id":              knownvalue.Int64Exact(1),
			"message_retention_days":        knownvalue.Null(),
			"is_recently_active":            knownvalue.Bool(true),
			// 5 messages over the channel's 19 days: round(5 * 7 / 19).
			"stream_weekly_traffic":                  knownvalue.Int64Exact(2),
			"stream_post_policy":                     knownvalue.Int64Exact(1),
			"is_announcement_only":                   knownvalue.Bool(false),
			"topics_policy":                          knownvalue.StringExact("inherit"),
			"is_default":                             knownvalue.Bool(true),
			"can_add_subscribers_group":              acctest.PermissionOf([]string{"role:administrators"}),
			"can_remove_subscribers_group":           acctest.PermissionOf([]string{"role:administrators"}),
			"can_administer_channel_group":           acctest.PermissionOf(nil, refserver.SeedOwnerID),
			"can_send_message_group":                 acctest.PermissionOf([]string{"role:everyone"}),
			"can_subscribe_group":                    acctest.PermissionOf([]string{"role:nobody"}),
			"can_create_topic_group":                 acctest.PermissionOf([]string{"role:everyone"}),
			"can_delete_any_message_group":           acctest.PermissionOf([]string{"role:nobody"}),
			"can_delete_own_message_group":           acctest.PermissionOf([]string{"role:nobody"}),
			"can_move_messages_out_of_channel_group": acctest.PermissionOf([]string{"role:nobody"}),
			"can_move_messages_within_channel_group": acctest.PermissionOf([]string{"role:nobody"}),
			"can_resolve_topics_group":               acctest.PermissionOf([]string{"role:nobody"}),
		}),
	})
}

// TestAccChannels_filtersByRole shows the filters that only matter for some
// accounts: a member subscribed to fewer channels, a guest, an administrator
// and a bot. (One account per step: provider aliases would share one
// in-process provider server, and so one set of credentials.)
func TestAccChannels_filtersByRole(t *testing.T) {
	srv := acctest.NewServer(t)
	step := func(userID int, hcl string, checks ...statecheck.StateCheck) resource.TestStep {
		return acctest.Apply(srv.ProviderConfig(t, userID) + hcl).State(checks...).Step()
	}
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			step(refserver.SeedMember2ID, `
data "zulip_channels" "default" {}

data "zulip_channels" "subscribed_only" {
  include_public = false
}
`,
				acctest.ExpectNames("data.zulip_channels.default", "channels", "announce", "general", "random"),
				acctest.ExpectNames("data.zulip_channels.subscribed_only", "channels", "general", "random"),
			),
			step(refserver.SeedGuestID, `
data "zulip_channels" "default" {}

data "zulip_channels" "web_public" {
  include_web_public = true
}

data "zulip_channels" "all" {
  include_all = true
}
`,
				// A guest does not see public channels it is not subscribed to...
				acctest.ExpectNames("data.zulip_channels.default", "channels", "general", "random"),
				// ...except web-public ones when asked,
				acctest.ExpectNames("data.zulip_channels.web_public", "channels", "announce", "general", "random"),
				// and through include_all: web-public channels are visible to
				// every role (user_has_metadata_access in zerver/lib/streams.py).
				acctest.ExpectNames("data.zulip_channels.all", "channels", "announce", "general", "random"),
			),
			step(refserver.SeedAdminID, `
data "zulip_channels" "default" {}

data "zulip_channels" "all" {
  include_all = true
}

data "zulip_channels" "all_active" {
  include_all_active = true
}
`,
				acctest.ExpectNames("data.zulip_channels.default", "channels", "announce", "design", "general", "leadership", "moderation-requests", "random"),
				// include_all adds the private channels the administrator is not subscribed to.
				acctest.ExpectNames("data.zulip_channels.all", "channels", "announce", "backend-internal", "design", "frontend-ops", "general", "leadership", "moderation-requests", "random"),
				acctest.ExpectNames("data.zulip_channels.all_active", "channels", "announce", "backend-internal", "design", "frontend-ops", "general", "leadership", "moderation-requests", "random"),
			),
			step(refserver.SeedBotID, `
data "zulip_channels" "default" {}

data "zulip_channels" "owner" {
  include_owner_subscribed = true
}
`,
				acctest.ExpectNames("data.zulip_channels.default", "channels", "announce", "general", "random"),
				// The bot's owner (Mark) is subscribed to design.
				acctest.ExpectNames("data.zulip_channels.owner", "channels", "announce", "design", "general", "random"),
			),
		},
	})
}

// TestAccChannels_includeAllActive: since feature level 356 Zulip treats the
// deprecated include_all_active as include_all, for every role
// (get_streams_backend in zerver/views/streams.py); before, only
// administrators could use it.
func TestAccChannels_includeAllActive(t *testing.T) {
	srv := acctest.NewServer(t)
	old := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 355 })
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(srv.ProviderConfig(t, refserver.SeedMemberID)+`
data "zulip_channels" "all_active" {
  include_all_active = true
}

data "zulip_channels" "all" {
  include_all = true
}
`).State(
				acctest.ExpectNames("data.zulip_channels.all_active", "channels", "announce", "backend-internal", "design", "general", "random"),
				acctest.ExpectNames("data.zulip_channels.all", "channels", "announce", "backend-internal", "design", "general", "random"),
			).Step(),
			acctest.Apply(old.ProviderConfig(t, refserver.SeedMemberID) + `data "zulip_channels" "x" { include_all_active = true }`).
				Fails(acctest.ExpectErr("include_all_active", "before Zulip feature level 356 only organization administrators", "User not authorized for this query")).Step(),
			acctest.Apply(old.ProviderConfig(t, refserver.SeedAdminID) + `data "zulip_channels" "x" { include_all_active = true }`).State(
				acctest.ExpectNames("data.zulip_channels.x", "channels", "announce", "backend-internal", "design", "frontend-ops", "general", "leadership", "moderation-requests", "random"),
			).Step(),
		},
	})
}

func TestAccChannels_badInput(t *testing.T) {
	srv := acctest.NewServer(t)
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(member + `data "zulip_channels" "x" { name = "" }`).
				Fails(acctest.ExpectErr("name", "string length must be at least 1")).Step(),
		},
	})
}

func TestAccChannels_serverTooOld(t *testing.T) {
	srv := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 300 })
	member := srv.ProviderConfig(t, refserver.SeedMemberID)
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(member + `data "zulip_channels" "x" { include_all = true }`).
				Fails(acctest.ExpectErr("include_all needs Zulip feature level 356 or newer", "has feature level 300")).Step(),
			acctest.Apply(member + `data "zulip_channels" "x" { exclude_archived = false }`).
				Fails(acctest.ExpectErr("exclude_archived needs Zulip feature level 315 or newer")).Step(),
			// Without them it works; settings newer than the server are null.
			acctest.Apply(member + `data "zulip_channels" "x" { name = "general" }`).State(
				statecheck.ExpectKnownValue("data.zulip_channels.x", tfjsonpath.New("channels").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"name":                         knownvalue.StringExact("general"),
					"can_remove_subscribers_group": acctest.PermissionOf([]string{"role:administrators"}),
					"can_send_message_group":       knownvalue.Null(),
					"topics_policy":                knownvalue.Null(),
				})),
			).Step(),
		},
	})
}

func TestAccChannels_example(t *testing.T) {
	acctest.ReadsExample(t, refserver.SeedAdminID, "examples/data-sources/zulip_channels/data-source.tf",
		statecheck.ExpectKnownOutputValue("general_channel_id", knownvalue.Int64Exact(refserver.SeedChannelGeneral)),
		statecheck.ExpectKnownOutputValue("private_channels", knownvalue.ListExact([]knownvalue.Check{
			knownvalue.StringExact("backend-internal"), knownvalue.StringExact("design"), knownvalue.StringExact("frontend-ops"),
			knownvalue.StringExact("leadership"), knownvalue.StringExact("moderation-requests"),
		})),
		statecheck.ExpectKnownOutputValue("general_posting_groups", knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("role:everyone")})),
	)
}

// TestAccChannels_includeAllActiveDeprecated checks, at the protocol level
// (the test framework does not expose warnings), that setting the deprecated
// filter produces a warning diagnostic naming its replacement.
func TestAccChannels_includeAllActiveDeprecated(t *testing.T) {
	ctx := t.Context()
	server, err := providerserver.NewProtocol6WithError(provider.New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := schemas.DataSourceSchemas["zulip_channels"]
	if !ok {
		t.Fatal("zulip_channels is not registered")
	}
	for _, a := range s.Block.Attributes {
		if a.Name == "include_all_active" && !a.Deprecated {
			t.Error("include_all_active is not marked deprecated in the schema")
		}
	}
	typ, ok := s.ValueType().(tftypes.Object)
	if !ok {
		t.Fatalf("zulip_channels schema type is %T, not an object", s.ValueType())
	}
	validate := func(includeAllActive any) []*tfprotov6.Diagnostic {
		vals := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			vals[name] = tftypes.NewValue(at, nil)
		}
		vals["include_all_active"] = tftypes.NewValue(tftypes.Bool, includeAllActive)
		cfg, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := server.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: "zulip_channels", Config: &cfg})
		if err != nil {
			t.Fatal(err)
		}
		return resp.Diagnostics
	}
	diags := validate(true)
	if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityWarning ||
		!strings.Contains(diags[0].Detail, "use include_all") || diags[0].Attribute.String() != tftypes.NewAttributePath().WithAttributeName("include_all_active").String() {
		t.Errorf("include_all_active = true: want one deprecation warning on include_all_active naming include_all, got %+v", diagSummaries(diags))
	}
	if diags := validate(nil); len(diags) != 0 {
		t.Errorf("include_all_active unset: want no diagnostics, got %+v", diagSummaries(diags))
	}
}

// diagSummaries renders protocol diagnostics for a failure message.
func diagSummaries(diags []*tfprotov6.Diagnostic) []string {
	out := make([]string, 0, len(diags))
	for _, d := range diags {
		out = append(out, d.Severity.String()+": "+d.Summary+": "+d.Detail)
	}
	return out
}
