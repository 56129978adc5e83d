package channels_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/acctest"
	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

// Folder ids of seedFolders.
const (
	folderEngineering = 1
	folderOld         = 2
	folderSupport     = 3
)

// seedFolders adds three folders behind the provider's back: Support first in
// the web app's order though made last, and an archived one between.
func seedFolders(r *refserver.Realm) {
	engineering := acctest.AddFolder(r, "Engineering", "Builds and deploys.")
	old := acctest.AddFolder(r, "Old", "")
	old.IsArchived = true
	support := acctest.AddFolder(r, "Support", "")
	support.CreatorID = refserver.SeedAdminID
	r.ChannelFolders = []*refserver.ChannelFolder{support, engineering, old}
}

// folderRow is the data source's element for a seeded folder.
func folderRow(id int64, name, description string, order int64, archived bool, creator knownvalue.Check) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"id": knownvalue.Int64Exact(id), "name": knownvalue.StringExact(name),
		"description": knownvalue.StringExact(description), "order": knownvalue.Int64Exact(order),
		"is_archived": knownvalue.Bool(archived), "creator_id": creator, "date_created": knownvalue.Int64Exact(1700000000),
	})
}

// TestAccChannelFoldersDataSource_example: the example puts a channel in the
// folder an administrator made in the web app, found by name; the list is in
// the web app's order, without the archived folder unless asked.
func TestAccChannelFoldersDataSource_example(t *testing.T) {
	srv := acctest.NewServer(t)
	srv.Do(seedFolders)
	admin := srv.ProviderConfig(t, refserver.SeedAdminID)
	example := acctest.ReadExample(t, "examples/data-sources/zulip_channel_folders/data-source.tf")
	support := folderRow(folderSupport, "Support", "", 0, false, knownvalue.Int64Exact(refserver.SeedAdminID))
	engineering := folderRow(folderEngineering, "Engineering", "Builds and deploys.", 1, false, knownvalue.Null())
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(admin+example).Clean().State(
				acctest.Value("data.zulip_channel_folders.all", "include_archived", knownvalue.Null()),
				acctest.Value("data.zulip_channel_folders.all", "folders", knownvalue.ListExact([]knownvalue.Check{support, engineering})),
				acctest.Value("zulip_channel.deploys", "folder_id", knownvalue.Int64Exact(folderEngineering)),
			).OnServer(func() error {
				ch, ok := acctest.ChannelByName(srv, "deploys")
				if !ok || ch.FolderID == nil || *ch.FolderID != folderEngineering {
					return fmt.Errorf("channel deploys on the server: %v, folder %v; want folder %d", ok, ch.FolderID, folderEngineering)
				}
				return nil
			}).Step(),
			acctest.Apply(admin + example + `
data "zulip_channel_folders" "archived" {
  include_archived = true
}`).Clean().State(
				acctest.Value("data.zulip_channel_folders.archived", "folders", knownvalue.ListExact([]knownvalue.Check{
					support, engineering, folderRow(folderOld, "Old", "", 2, true, knownvalue.Null()),
				})),
			).Step(),
		},
	})
}

// TestAccChannelFoldersDataSource_readOnce: three data sources read the
// folders with one request.
func TestAccChannelFoldersDataSource_readOnce(t *testing.T) {
	acctest.ReadOnce(t, seedFolders, "zulip_channel_folders", []string{"", "", "  include_archived = true\n"},
		"GET", "/api/v1/channel_folders")
}

// TestAccChannelFoldersDataSource_olderServers: before feature level 414
// folders have no position and are listed by id; before 389 the data source
// is refused, naming the level.
func TestAccChannelFoldersDataSource_olderServers(t *testing.T) {
	unordered := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 413 })
	unordered.Do(seedFolders)
	tooOld := acctest.NewServer(t, func(o *refserver.Options) { o.FeatureLevel = 388 })
	const config = `data "zulip_channel_folders" "all" {}`
	acctest.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			acctest.Apply(unordered.ProviderConfig(t, refserver.SeedMemberID) + config).Clean().State(
				acctest.Value("data.zulip_channel_folders.all", "folders", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.Int64Exact(folderEngineering), "order": knownvalue.Null()}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.Int64Exact(folderSupport), "order": knownvalue.Null()}),
				})),
			).Step(),
			acctest.Apply(tooOld.ProviderConfig(t, refserver.SeedMemberID) + config).
				Fails(acctest.ExpectErr("zulip_channel_folders needs Zulip feature level 389 or newer", "has feature level 388")).Step(),
		},
	})
}
