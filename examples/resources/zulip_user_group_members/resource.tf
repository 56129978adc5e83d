resource "zulip_user_group" "oncall" {
  name        = "oncall"
  description = "Who answers the pager this week"
}

# Exactly these members: anyone else in the group is removed.
resource "zulip_user_group_members" "oncall" {
  group_id = zulip_user_group.oncall.id
  members  = [var.primary_id, var.secondary_id]
  # Optional: the subgroups, exactly (left out, they are not managed).
  subgroups = ["leads"]
}

variable "primary_id" {
  type = number
}

variable "secondary_id" {
  type = number
}
