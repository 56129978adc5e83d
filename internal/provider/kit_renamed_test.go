package provider_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/provider"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// renamedCase is a reference by name to an object of one type, which an
// administrator renames out of band (in the web app).
type renamedCase struct {
	// config declares zulip_<type>.ref named name, and a resource named by
	// referrer that refers to it by name.
	config string
	name   string
	// referrer is the referring resource's address, at where it holds the name.
	referrer string
	at       tfjsonpath.Path
	want     knownvalue.Check
	// rename renames the object on the server, as the web app would.
	rename func(r *refserver.Realm, from, to string) bool
}

// renamedReferences are the kit's contract for references by name (issue 25):
// for every type whose name Zulip lets change in place and that another
// resource may name, the object renamed out of band is renamed back and the
// reference repaired in one apply, and the plan after it is empty.
var renamedReferences = map[string]renamedCase{
	"zulip_channel": {
		name: "ren-room",
		config: `
resource "zulip_channel" "ref" {
  name        = "ren-room"
  description = "Where ops talks"
}

resource "zulip_bot" "referrer" {
  full_name               = "Ren Helper"
  short_name              = "renhelper"
  default_sending_channel = zulip_channel.ref.name
}
`,
		referrer: "zulip_bot.referrer", at: tfjsonpath.New("default_sending_channel"), want: knownvalue.StringExact("ren-room"),
		rename: func(r *refserver.Realm, from, to string) bool {
			for _, c := range r.Channels {
				if c.Name == from {
					c.Name = to
					return true
				}
			}
			return false
		},
	},
	"zulip_user_group": {
		name: "ren-team",
		config: `
resource "zulip_user_group" "ref" {
  name        = "ren-team"
  description = "Ships releases"
}

resource "zulip_channel" "referrer" {
  name                   = "ren-releases"
  description            = ""
  can_send_message_group = { groups = [zulip_user_group.ref.name] }
}
`,
		referrer: "zulip_channel.referrer", at: tfjsonpath.New("can_send_message_group"), want: acctest.PermissionOf([]string{"ren-team"}),
		rename: func(r *refserver.Realm, from, to string) bool {
			for _, g := range r.Groups {
				if g.Name == from {
					g.Name = to
					return true
				}
			}
			return false
		},
	},
	"zulip_custom_profile_field": {
		name: "Ren desk",
		config: `
resource "zulip_custom_profile_field" "ref" {
  name = "Ren desk"
  type = "short_text"
}

resource "zulip_profile_data" "referrer" {
  field {
    name  = zulip_custom_profile_field.ref.name
    value = "B-12"
  }
}
`,
		referrer: "zulip_profile_data.referrer", at: tfjsonpath.New("field").AtSliceIndex(0).AtMapKey("name"),
		want: knownvalue.StringExact("Ren desk"),
		rename: func(r *refserver.Realm, from, to string) bool {
			for _, f := range r.ProfileFields {
				if f.Name == from {
					f.Name = to
					return true
				}
			}
			return false
		},
	},
}

// renameExempt are the types with a name Zulip lets change in place that no
// resource refers to by that name, and why.
var renameExempt = map[string]string{
	"zulip_user":           "resources refer to users by id; an address changed out of band is the user's own drift",
	"zulip_bot":            "resources refer to bots by id (owners, members); the address follows the short name",
	"zulip_linkifier":      "nothing refers to a linkifier by its pattern (orders use ids)",
	"zulip_channel_folder": "channels and the folder order refer to folders by id",
	"zulip_user_topic":     "nothing refers to a user topic; its identity follows Zulip's spelling of the topic",
	"zulip_message_flags":  "nothing refers to a flag set; its identity is its import id",
}

// TestRenamedReferenceContract: every type whose identity Zulip lets change
// in place has a renamed-reference case or a reason it needs none.
func TestRenamedReferenceContract(t *testing.T) {
	var mutable []string
	for _, newResource := range provider.New("test")().Resources(context.Background()) {
		var meta fwresource.MetadataResponse
		newResource().Metadata(context.Background(), fwresource.MetadataRequest{ProviderTypeName: "zulip"}, &meta)
		if !meta.ResourceBehavior.MutableIdentity {
			continue
		}
		typ := meta.TypeName
		mutable = append(mutable, typ)
		_, tested := renamedReferences[typ]
		_, exempt := renameExempt[typ]
		switch {
		case tested && exempt:
			t.Errorf("%s is both tested and exempt from the renamed-reference contract", typ)
		case !tested && !exempt:
			t.Errorf("%s can be renamed in place, but has no case in renamedReferences and no reason in renameExempt", typ)
		}
	}
	for typ := range renamedReferences {
		if !slices.Contains(mutable, typ) {
			t.Errorf("renamedReferences has %s, whose identity is not mutable", typ)
		}
	}
}

// TestAccKit_renamedReference runs renamedReferences: an object renamed out
// of band is renamed back, and the resource that refers to it by name keeps
// (or gets back) the configured name, in one apply.
func TestAccKit_renamedReference(t *testing.T) {
	types := make([]string, 0, len(renamedReferences))
	for typ := range renamedReferences {
		types = append(types, typ)
	}
	sort.Strings(types)
	for _, typ := range types {
		c := renamedReferences[typ]
		t.Run(typ, func(t *testing.T) {
			srv := acctest.NewServer(t)
			config := srv.ProviderConfig(t, refserver.SeedAdminID) + c.config
			states := []statecheck.StateCheck{statecheck.ExpectKnownValue(c.referrer, c.at, c.want)}
			acctest.ParallelTest(t, resource.TestCase{
				Steps: []resource.TestStep{
					{Config: config, ConfigStateChecks: states},
					{
						PreConfig: func() {
							renamed := false
							srv.Do(func(r *refserver.Realm) { renamed = c.rename(r, c.name, c.name+" (renamed)") })
							if !renamed {
								t.Fatalf("no %s named %q to rename", typ, c.name)
							}
						},
						Config: config,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(typ+".ref", plancheck.ResourceActionUpdate)},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						ConfigStateChecks: states,
						Check: func(*terraform.State) error {
							found := false
							srv.Do(func(r *refserver.Realm) { found = c.rename(r, c.name, c.name) })
							if !found {
								return fmt.Errorf("after the apply the server has no %s named %q", typ, c.name)
							}
							return nil
						},
					},
				},
			})
		})
	}
}
