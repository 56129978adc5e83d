# Terraform 1.12+: a custom emoji is imported by identity with its name.
import {
  to = zulip_custom_emoji.green_tick
  identity = {
    name = "green_tick"
  }
}
