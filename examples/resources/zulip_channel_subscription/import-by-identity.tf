# Terraform 1.12+: a subscription is imported by identity with the channel's and
# the user's ids.
import {
  to = zulip_channel_subscription.mia_in_random
  identity = {
    channel_id = 7
    user_id    = 11
  }
}
