package channels_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// folderByName finds a folder on the server.
func folderByName(srv *acctest.Server, name string) (f refserver.ChannelFolder, ok bool) {
	srv.Do(func(r *refserver.Realm) {
		for _, v := range r.ChannelFolders {
			if v.Name == name {
				f, ok = *v, true
			}
		}
	})
	return f, ok
}

func TestAccChannelFolder_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	folder := func(name, channelFolder string) string {
		return admin + fmt.Sprintf("resource \"zulip_channel_folder\" \"test\" {\n  name = %q\n}\n"+
			"resource \"zulip_channel\" \"in\" {\n  name      = \"in-folder\"\n  folder_id = %s\n}\n", name, channelFolder)
	}
	addr := "zulip_channel_folder.test"
	inFolder := func() error {
		f, ok := folderByName(srv, "Teams")
		var in *int
		srv.Do(func(r *refserver.Realm) {
			for _, c := range r.Channels {
				if c.Name == "in-folder" {
					in = c.FolderID
				}
			}
		})
		if !ok || in == nil || *in != f.ID {
			return fmt.Errorf("folder %+v, the channel's folder %v", f, in)
		}
		return nil
	}
	channelOnly := admin + "resource \"zulip_channel\" \"in\" {\n  name      = \"in-folder\"\n  folder_id = 0\n}\n"
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(folder("Teams", "zulip_channel_folder.test.id")).Clean().OnServer(inFolder).Step(),
			acctest.ImportVerify(addr, "teams"),
			// Renamed; the channel leaves the folder (0).
			acctest.Apply(folder("Squads", "0")).Planned(addr, plancheck.ResourceActionUpdate).Clean().Step(),
			// Archived outside Terraform: declared again, it is unarchived.
			acctest.Apply(folder("Squads", "0")).OutOfBand(srv, func(r *refserver.Realm) {
				for _, f := range r.ChannelFolders {
					f.IsArchived = true
				}
			}).Planned(addr, plancheck.ResourceActionCreate).Clean().Step(),
			// A channel moved into it outside Terraform: destroy is refused, naming it.
			acctest.Apply(channelOnly).OutOfBand(srv, func(r *refserver.Realm) {
				id := r.ChannelFolders[0].ID
				r.Channels[refserver.SeedChannelGeneral].FolderID = &id
			}).Fails(acctest.ExpectErr("Channel Folder In Use", "#general")).Step(),
			acctest.Apply(channelOnly).OutOfBand(srv, func(r *refserver.Realm) { r.Channels[refserver.SeedChannelGeneral].FolderID = nil }).
				OnServer(func() error {
					if f, _ := folderByName(srv, "Squads"); !f.IsArchived {
						return fmt.Errorf("destroy did not archive the folder: %+v", f)
					}
					return nil
				}).Step(),
		},
	})
}

func TestAccChannelFolder_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) { acctest.AddFolder(r, "Taken", "") })
	step := acctest.PlanFailsAs("")
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			step(srv.ProviderConfig(t, refserver.SeedAdminID)+"resource \"zulip_channel_folder\" \"x\" {\n  name = \"TAKEN\"\n}\n",
				"Channel Folder Already Exists", "import {"),
			step(srv.ProviderConfig(t, refserver.SeedMemberID)+"resource \"zulip_channel_folder\" \"x\" {\n  name = \"y\"\n}\n",
				"Insufficient Role", "administrator"),
		},
	})
}
