# A subscription is imported by <channel name or id>:<user id>.
terraform import zulip_channel_subscription.mia_in_random random:11
