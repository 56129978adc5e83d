# Terraform 1.12+: a user group is imported by identity with its name.
import {
  to = zulip_user_group.backend
  identity = {
    name = "backend"
  }
}
