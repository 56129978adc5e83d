# A channel's subscribers are imported by the channel's name (or its numeric id).
import {
  to = zulip_channel_subscribers.design
  id = "design"
}
