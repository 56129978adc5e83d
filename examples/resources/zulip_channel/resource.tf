# A public channel where only the team posts, and everyone may read and join.
resource "zulip_channel" "releases" {
  name        = "releases"
  description = "Release announcements"

  can_send_message_group = { groups = [zulip_user_group.release_managers.name] }
}

# A private channel whose history new members can read.
resource "zulip_channel" "security" {
  name                          = "security"
  description                   = "Security reports"
  privacy                       = "private"
  history_public_to_subscribers = true

  can_administer_channel_group = { groups = ["role:administrators"] }
  can_subscribe_group          = { groups = [zulip_user_group.release_managers.name] }
}

resource "zulip_user_group" "release_managers" {
  name        = "release-managers"
  description = "Who ships releases"
}
