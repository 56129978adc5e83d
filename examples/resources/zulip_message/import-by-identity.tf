# Terraform 1.12+: a message is imported by identity with its id (a message has
# no name). Import with a provider configured as its sender.
import {
  to = zulip_message.thanks
  identity = {
    id = 2
  }
}
