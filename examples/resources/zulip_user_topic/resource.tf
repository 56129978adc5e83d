# Follow every message in the "releases" topic of #general (channel id 1),
# and mute the "lunch" chatter there. The policies belong to the account the
# provider is configured with.
resource "zulip_user_topic" "releases" {
  channel_id        = 1
  topic             = "releases"
  visibility_policy = "followed"
}

resource "zulip_user_topic" "lunch" {
  channel_id        = 1
  topic             = "lunch"
  visibility_policy = "muted"
}
