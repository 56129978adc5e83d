# Terraform 1.12+: a user is imported by identity with their real e-mail address.
import {
  to = zulip_user.jane
  identity = {
    email = "jane.doe@zulip.example.com"
  }
}
