# A channel folder is imported by its name (or its numeric id).
import {
  to = zulip_channel_folder.engineering
  id = "Engineering"
}
