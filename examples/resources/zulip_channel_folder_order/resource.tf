resource "zulip_channel_folder" "teams" {
  name = "Teams"
}

resource "zulip_channel_folder" "projects" {
  name = "Projects"
}

# Every folder of the organization, first to last.
resource "zulip_channel_folder_order" "all" {
  folders = [zulip_channel_folder.teams.id, zulip_channel_folder.projects.id]
}
