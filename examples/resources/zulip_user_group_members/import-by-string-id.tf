# A group's members are imported by the group's name (or its numeric id).
import {
  to = zulip_user_group_members.backend
  id = "backend"
}
