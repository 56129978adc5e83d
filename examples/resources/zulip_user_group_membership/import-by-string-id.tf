# A membership is imported by <group name or id>:<user id>.
import {
  to = zulip_user_group_membership.mia_in_backend
  id = "backend:11"
}
