# Adds one user to a group, leaving its other members alone.
resource "zulip_user_group_membership" "ann_in_backend" {
  group_id = data.zulip_user_group.backend.id
  user_id  = var.ann_id
}

data "zulip_user_group" "backend" {
  name = "backend"
}

variable "ann_id" {
  type = number
}
