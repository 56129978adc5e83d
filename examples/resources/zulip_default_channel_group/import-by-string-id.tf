# A default channel group is imported by its exact name (or its numeric id).
import {
  to = zulip_default_channel_group.engineering
  id = "Engineering"
}
