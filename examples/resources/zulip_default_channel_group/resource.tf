# People joining the organization who pick "Web app" at sign-up are
# subscribed to its channels, beside the default channels.
resource "zulip_channel" "web" {
  name        = "web-app"
  description = "Work on the web app."
}

resource "zulip_default_channel_group" "web" {
  name        = "Web app"
  description = "Channels for web app developers."
  channel_ids = [zulip_channel.web.id]
}
