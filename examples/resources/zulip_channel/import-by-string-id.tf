# A channel is imported by its name (or its numeric id).
import {
  to = zulip_channel.general
  id = "general"
}
