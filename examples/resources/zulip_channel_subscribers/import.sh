# A channel's subscribers are imported by the channel's name or numeric id.
terraform import zulip_channel_subscribers.design design
