# Terraform 1.12+: a flag on a set of messages is imported by identity with
# "<flag>:<message id>,<message id>,...".
import {
  to = zulip_message_flags.starred
  identity = {
    id = "starred:1"
  }
}
