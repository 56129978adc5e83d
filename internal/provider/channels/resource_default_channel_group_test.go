package channels_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// defaultChannelGroupConfig is a zulip_default_channel_group "test" (an
// empty description is left out).
func defaultChannelGroupConfig(name, description string, channels ...int) string {
	ids := make([]string, len(channels))
	for i, id := range channels {
		ids[i] = fmt.Sprint(id)
	}
	desc := ""
	if description != "" {
		desc = fmt.Sprintf("  description = %q\n", description)
	}
	return fmt.Sprintf("resource \"zulip_default_channel_group\" \"test\" {\n  name        = %q\n%s  channel_ids = [%s]\n}\n",
		name, desc, strings.Join(ids, ", "))
}

// groupOnServer checks that the server holds one group of the name, with the
// description and channels (in any order), and returns its id through id.
func groupOnServer(srv *acctest.Server, id *int, name, description string, channels ...int) func() error {
	return func() error {
		var g refserver.DefaultChannelGroup
		var ok bool
		srv.Do(func(r *refserver.Realm) {
			if v := acctest.DefaultChannelGroupNamed(r, name); v != nil {
				g, ok = *v, true
			}
		})
		got := slices.Sorted(slices.Values(g.ChannelIDs))
		if !ok || g.Description != description || !slices.Equal(got, slices.Sorted(slices.Values(channels))) {
			return fmt.Errorf("group %q on the server: %+v (found %v), want description %q and channels %v", name, g, ok, description, channels)
		}
		if id != nil {
			*id = g.ID
		}
		return nil
	}
}

// sameGroup checks that the group of the name is still the one of id (a
// change in place, not a replacement) or, with replaced, another one.
func sameGroup(srv *acctest.Server, id *int, name string, replaced bool) func() error {
	return func() error {
		before := *id
		if err := groupOnServer(srv, id, name, groupDescription(srv, name), groupChannels(srv, name)...)(); err != nil {
			return err
		}
		if (*id == before) == replaced {
			return fmt.Errorf("group %q has the id %d, was %d; replaced: want %v", name, *id, before, replaced)
		}
		return nil
	}
}

// groupDescription and groupChannels read a group's values on the server.
func groupDescription(srv *acctest.Server, name string) (d string) {
	srv.Do(func(r *refserver.Realm) {
		if g := acctest.DefaultChannelGroupNamed(r, name); g != nil {
			d = g.Description
		}
	})
	return d
}

func groupChannels(srv *acctest.Server, name string) (ids []int) {
	srv.Do(func(r *refserver.Realm) {
		if g := acctest.DefaultChannelGroupNamed(r, name); g != nil {
			ids = append(ids, g.ChannelIDs...)
		}
	})
	return ids
}

// TestAccDefaultChannelGroup_lifecycle: a group is created, imported by name,
// renamed and changed in place (channels added and removed), repaired after
// each attribute is changed out of band, replaced when its description is
// emptied (Zulip cannot empty one), created again after an out-of-band
// deletion, and deleted.
func TestAccDefaultChannelGroup_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	addr := "zulip_default_channel_group.test"
	var announce int
	srv.Do(func(r *refserver.Realm) { announce = acctest.AddChannel(r, "backend", "").ID })
	random, id := refserver.SeedChannelRandom, 0
	renamed := admin + defaultChannelGroupConfig("Back end", "Server side.", random)
	acctest.ParallelTest(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			var left *refserver.DefaultChannelGroup
			srv.Do(func(r *refserver.Realm) { left = acctest.DefaultChannelGroupNamed(r, "Back end") })
			if left != nil {
				return fmt.Errorf("the group is still on the server: %+v", *left)
			}
			return nil
		},
		Steps: []resource.TestStep{
			acctest.Apply(admin + defaultChannelGroupConfig("Backend", "Server work.", random, announce)).Clean().
				OnServer(groupOnServer(srv, &id, "Backend", "Server work.", random, announce)).
				State(acctest.Value(addr, "channel_ids", knownvalue.SetExact([]knownvalue.Check{knownvalue.Int64Exact(int64(random)), knownvalue.Int64Exact(int64(announce))}))).Step(),
			acctest.ImportVerify(addr, "Backend"),
			// Renamed, described anew, a channel removed: in place.
			acctest.Apply(renamed).Planned(addr, plancheck.ResourceActionUpdate).Clean().
				OnServer(acctest.ServerChecks(groupOnServer(srv, nil, "Back end", "Server side.", random), sameGroup(srv, &id, "Back end", false))).Step(),
			// Every attribute changed in the web app: one apply repairs them.
			acctest.Apply(renamed).OutOfBand(srv, func(r *refserver.Realm) {
				g := acctest.DefaultChannelGroupNamed(r, "Back end")
				g.Name, g.Description, g.ChannelIDs = "Servers", "Changed.", []int{announce}
			}).Planned(addr, plancheck.ResourceActionUpdate).Clean().
				OnServer(acctest.ServerChecks(groupOnServer(srv, nil, "Back end", "Server side.", random), sameGroup(srv, &id, "Back end", false))).Step(),
			// Zulip cannot empty a description: the group is replaced.
			acctest.Apply(admin+defaultChannelGroupConfig("Back end", "", random)).Planned(addr, plancheck.ResourceActionDestroyBeforeCreate).Clean().
				OnServer(acctest.ServerChecks(groupOnServer(srv, nil, "Back end", "", random), sameGroup(srv, &id, "Back end", true))).Step(),
			// Deleted in the web app: created again.
			acctest.Apply(renamed).OutOfBand(srv, func(r *refserver.Realm) {
				r.DefaultChannelGroups = slices.DeleteFunc(r.DefaultChannelGroups, func(g *refserver.DefaultChannelGroup) bool { return g.Name == "Back end" })
			}).Planned(addr, plancheck.ResourceActionCreate).Clean().OnServer(groupOnServer(srv, nil, "Back end", "Server side.", random)).Step(),
		},
	})
}

// TestAccDefaultChannelGroup_validation: names taken (by a new group or a
// rename), channels Zulip refuses in a group, bad names and a member are
// refused at plan.
func TestAccDefaultChannelGroup_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	step := acctest.PlanFailsAs(admin)
	random := refserver.SeedChannelRandom
	acctest.ParallelSteps(t,
		step(defaultChannelGroupConfig("Engineering", "Channels for engineers.", random), "Default Channel Group Already Exists", "import {"),
		step(defaultChannelGroupConfig("Ops", "", refserver.SeedChannelGeneral), "Default Channel", "channel_ids", "general", "is a default channel"),
		step(defaultChannelGroupConfig("Ops", "", refserver.SeedChannelArchived), "Archived Channel", "channel_ids", "old-projects"),
		step(defaultChannelGroupConfig("Ops", "", 999), "Unknown Channel", "channel_ids", "999"),
		step(defaultChannelGroupConfig("Ops", "", refserver.SeedChannelBackendOnly), "Private Channel Not Readable", "channel_ids",
			"backend-internal", "not subscribed"),
		step(defaultChannelGroupConfig("   ", ""), "name", "Invalid default channel group name"),
		step(defaultChannelGroupConfig(strings.Repeat("x", 61), ""), "name", "60"),
		acctest.PlanFails(srv.ProviderConfig(t, refserver.SeedMemberID)+defaultChannelGroupConfig("Ops", ""), "Insufficient Role", "administrator"),
		acctest.Apply(admin+defaultChannelGroupConfig("Ops", "", random)).Clean().Step(),
		// design is private, and the administrator is subscribed to it.
		acctest.Apply(admin+defaultChannelGroupConfig("Ops", "", random, refserver.SeedChannelDesign)).Clean().Step(),
		step(defaultChannelGroupConfig("Engineering", "", random), "Default Channel Group Already Exists", "name", "rename"),
	)
}

// TestAccDefaultChannelGroup_idReadFails: Zulip answers a create with no id,
// so the provider reads the groups to find it; when that read fails, the
// create is uncertain and the group of the configuration, new since the plan,
// is adopted: one group, in state, and an empty plan.
func TestAccDefaultChannelGroup_idReadFails(t *testing.T) {
	srv := acctest.NewServer(t)
	created, failed := false, 0
	proxy := srv.FaultyProviderConfig(t, refserver.SeedAdminID, func(r *http.Request) acctest.Fault {
		switch req := r.Method + " " + r.URL.Path; {
		case req == "POST /api/v1/default_stream_groups/create":
			created = true
		case created && failed == 0 && req == "POST /api/v1/register":
			failed++
			return acctest.Fault{Status: http.StatusServiceUnavailable}
		}
		return acctest.Fault{}
	})
	acctest.ParallelSteps(t, acctest.Apply(proxy+defaultChannelGroupConfig("Backend", "Server work.", refserver.SeedChannelRandom)).Clean().
		OnServer(func() error {
			if failed != 1 {
				return fmt.Errorf("the read after the create did not fail (%d)", failed)
			}
			return groupOnServer(srv, nil, "Backend", "Server work.", refserver.SeedChannelRandom)()
		}).
		State(acctest.Value("zulip_default_channel_group.test", "name", knownvalue.StringExact("Backend"))).Step())
}
