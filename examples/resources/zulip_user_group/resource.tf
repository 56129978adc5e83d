# A team, whose leads manage it and whose members may mention it.
resource "zulip_user_group" "backend" {
  name        = "backend"
  description = "The backend team"

  can_manage_group  = { groups = [zulip_user_group.leads.name] }
  can_mention_group = { groups = ["role:members"] }
  # Nobody joins by themselves: the group's managers add people.
  can_join_group = { groups = ["role:nobody"] }
}

resource "zulip_user_group" "leads" {
  name        = "leads"
  description = "Team leads"

  # A permission can name groups and users together.
  can_manage_group = { groups = ["role:administrators"], users = [var.head_of_engineering_id] }
}

variable "head_of_engineering_id" {
  description = "The user id of the head of engineering."
  type        = number
}
