# Terraform 1.12+: a membership is imported by identity with the group's and the
# user's ids.
import {
  to = zulip_user_group_membership.mia_in_backend
  identity = {
    group_id = 9
    user_id  = 11
  }
}
