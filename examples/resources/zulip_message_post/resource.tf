# Announce each release in #general once, and again whenever the version
# changes (for Terraform before 1.14 and OpenTofu; from Terraform 1.14, the
# action zulip_send_message does the same). Destroying only forgets: the
# message stays.
variable "release" {
  type    = string
  default = "2.4.0"
}

data "zulip_channel" "general" {
  name = "general"
}

resource "zulip_message_post" "release" {
  channel_id = data.zulip_channel.general.id
  topic      = "releases"
  content    = "Release **${var.release}** is out: see the changelog."
  triggers = {
    release = var.release
  }
}

output "release_announcement" {
  value = zulip_message_post.release.url
}
