resource "zulip_channel" "welcome" {
  name        = "welcome"
  description = "Start here."
}

resource "zulip_channel" "announcements" {
  name        = "announcements"
  description = "News from the team."
}

# Exactly the channels new users are subscribed to.
resource "zulip_default_channels" "all" {
  channel_ids = [zulip_channel.welcome.id, zulip_channel.announcements.id]
}
