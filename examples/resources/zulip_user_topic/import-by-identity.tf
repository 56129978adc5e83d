# Terraform 1.12+: a topic preference is imported by identity with the channel's
# id and the topic.
import {
  to = zulip_user_topic.releases
  identity = {
    channel_id = 1
    topic      = "releases"
  }
}
