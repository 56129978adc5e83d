# Terraform 1.12+: a channel folder is imported by identity with its name.
import {
  to = zulip_channel_folder.engineering
  identity = {
    name = "Engineering"
  }
}
