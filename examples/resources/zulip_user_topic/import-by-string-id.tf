# A topic preference is imported by "<channel_id>:<topic>"; only the first ":"
# separates, so the topic may contain more.
import {
  to = zulip_user_topic.releases
  id = "1:releases"
}
