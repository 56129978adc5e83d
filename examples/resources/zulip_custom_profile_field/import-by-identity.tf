# Terraform 1.12+: a custom profile field is imported by identity with its name.
import {
  to = zulip_custom_profile_field.team
  identity = {
    name = "Team"
  }
}
