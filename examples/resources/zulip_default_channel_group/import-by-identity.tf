# Terraform 1.12+: a default channel group is imported by identity with its name.
import {
  to = zulip_default_channel_group.engineering
  identity = {
    name = "Engineering"
  }
}
