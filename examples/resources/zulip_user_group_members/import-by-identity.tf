# Terraform 1.12+: a group's members are imported by identity with the group's
# id, which the resource refers to it by.
import {
  to = zulip_user_group_members.backend
  identity = {
    group_id = 9
  }
}
