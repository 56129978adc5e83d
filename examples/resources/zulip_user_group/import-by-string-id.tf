# A user group is imported by its name (or by its numeric id).
import {
  to = zulip_user_group.backend
  id = "backend"
}
