package channels_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// folderNames lists the server's folders in order.
func folderNames(srv *acctest.Server) []string {
	var out []string
	srv.Do(func(r *refserver.Realm) {
		for _, f := range r.ChannelFolders {
			out = append(out, f.Name)
		}
	})
	return out
}

// foldersInOrder checks the server's folders are names, in that order.
func foldersInOrder(srv *acctest.Server, names string) func() error {
	return func() error {
		if got := fmt.Sprint(folderNames(srv)); got != names {
			return fmt.Errorf("order on the server: %s, want %s", got, names)
		}
		return nil
	}
}

func TestAccChannelFolderOrder_lifecycle(t *testing.T) {
	srv := acctest.NewServer(t)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	folders := "resource \"zulip_channel_folder\" \"a\" {\n  name = \"A\"\n}\nresource \"zulip_channel_folder\" \"b\" {\n  name = \"B\"\n}\n"
	order := admin + folders + "resource \"zulip_channel_folder_order\" \"test\" {\n  folders = [zulip_channel_folder.b.id, zulip_channel_folder.a.id]\n}\n"
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(order).Clean().OnServer(foldersInOrder(srv, "[B A]")).Step(),
			acctest.ImportVerify("zulip_channel_folder_order.test", "channel_folders"),
			// Reordered outside Terraform: put back.
			acctest.Apply(order).OutOfBand(srv, func(r *refserver.Realm) {
				r.ChannelFolders[0], r.ChannelFolders[1] = r.ChannelFolders[1], r.ChannelFolders[0]
			}).Planned("zulip_channel_folder_order.test", plancheck.ResourceActionUpdate).OnServer(foldersInOrder(srv, "[B A]")).Step(),
		},
	})
}

func TestAccChannelFolderOrder_validation(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(func(r *refserver.Realm) {
		acctest.AddFolder(r, "X", "")
		acctest.AddFolder(r, "Y", "")
	})
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.PlanFailsWith(srv.ProviderConfig(t, refserver.SeedAdminID)+"resource \"zulip_channel_folder_order\" \"x\" {\n  folders = [1, 7]\n}\n",
				acctest.ExpectErr("Incomplete Channel Folder Order", `"Y" (id 2)`, "ids 7")),
		},
	})
}

func TestAccChannelFolderOrder_generatedConfig(t *testing.T) {
	acctest.GeneratedConfigTest(t, refserver.SeedAdminID, func(r *refserver.Realm) { acctest.AddFolder(r, "X", "") }, "zulip_channel_folder_order.test", "channel_folders")
}

// TestAccChannelFolderOrder_newFolders: an order naming a folder the same
// apply creates but not one that exists fails at plan naming the existing
// one; naming both, one apply creates the folder and orders it, and a later
// apply adds a third folder to the existing order in one go.
func TestAccChannelFolderOrder_newFolders(t *testing.T) {
	srv := acctest.NewServer(t)
	var x int
	srv.Do(func(r *refserver.Realm) { x = acctest.AddFolder(r, "X", "").ID })
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	config := func(folders, list string) string {
		return admin + folders + fmt.Sprintf("resource \"zulip_channel_folder_order\" \"test\" {\n  folders = %s\n}\n", list)
	}
	a := "resource \"zulip_channel_folder\" \"a\" {\n  name = \"A\"\n}\n"
	b := "resource \"zulip_channel_folder\" \"b\" {\n  name = \"B\"\n}\n"
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.PlanFailsWith(config(a, "[zulip_channel_folder.a.id]"),
				acctest.ExpectErr("Incomplete Channel Folder Order", fmt.Sprintf(`"X" (id %d)`, x))),
			acctest.Apply(config(a, fmt.Sprintf("[zulip_channel_folder.a.id, %d]", x))).Clean().OnServer(foldersInOrder(srv, "[A X]")).Step(),
			acctest.Apply(config(a+b, fmt.Sprintf("[zulip_channel_folder.b.id, zulip_channel_folder.a.id, %d]", x))).Clean().
				OnServer(foldersInOrder(srv, "[B A X]")).Step(),
		},
	})
}
