# Put a channel in a folder made in the web app, by the folder's name rather
# than its id.
data "zulip_channel_folders" "all" {}

locals {
  folder_ids = { for f in data.zulip_channel_folders.all.folders : f.name => f.id }
}

resource "zulip_channel" "deploys" {
  name      = "deploys"
  folder_id = local.folder_ids["Engineering"]
}
