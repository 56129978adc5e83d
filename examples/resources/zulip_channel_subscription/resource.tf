# Subscribes one user to a channel, leaving its other subscribers alone.
resource "zulip_channel_subscription" "ann_in_general" {
  channel_id = 1
  user_id    = var.ann_id
  notify     = true # Notification Bot tells Ann
}

variable "ann_id" {
  type = number
}
