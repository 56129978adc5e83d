# Terraform 1.12+: a channel is imported by identity with its name.
import {
  to = zulip_channel.general
  identity = {
    name = "general"
  }
}
