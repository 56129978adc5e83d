# Terraform 1.12+: a channel's subscribers are imported by identity with the
# channel's id, which the resource refers to it by.
import {
  to = zulip_channel_subscribers.design
  identity = {
    channel_id = 3
  }
}
