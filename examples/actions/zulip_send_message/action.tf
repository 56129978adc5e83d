# Announce each release in #general, each time the action is invoked:
# `terraform apply -invoke=action.zulip_send_message.release`, or, as here,
# when the release record below is created or its version changes.
variable "release" {
  type    = string
  default = "2.4.0"
}

data "zulip_channel" "general" {
  name = "general"
}

action "zulip_send_message" "release" {
  config {
    channel_id = data.zulip_channel.general.id
    topic      = "releases"
    content    = "Release **${var.release}** is out: see the changelog."
  }
}

resource "terraform_data" "release" {
  input = var.release

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.zulip_send_message.release]
    }
  }
}
