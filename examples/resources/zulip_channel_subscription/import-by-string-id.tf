# A subscription is imported by <channel name or id>:<user id>.
import {
  to = zulip_channel_subscription.mia_in_random
  id = "random:11"
}
