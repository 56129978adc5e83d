# Terraform 1.12+: imported by identity with the id default_channels (there is one per organization).
import {
  to = zulip_default_channels.all
  identity = {
    id = "default_channels"
  }
}
