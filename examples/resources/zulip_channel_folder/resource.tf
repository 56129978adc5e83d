resource "zulip_channel_folder" "engineering" {
  name        = "Engineering"
  description = "Channels of the engineering teams"
}

# A channel joins the folder through its folder_id.
resource "zulip_channel" "backend" {
  name      = "backend-team"
  folder_id = zulip_channel_folder.engineering.id
}
