# Invite the new team by e-mail when its channel is created; invite more
# later by hand with `terraform apply -invoke=action.zulip_send_invitations.team`.
resource "zulip_channel" "platform" {
  name        = "platform"
  description = "The platform team."

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.zulip_send_invitations.team]
    }
  }
}

action "zulip_send_invitations" "team" {
  config {
    emails                  = ["ada@example.org", "grace@example.org"]
    role                    = "member"
    channel_ids             = [zulip_channel.platform.id]
    expires_in_minutes      = 7 * 24 * 60
    notify_referrer_on_join = true
  }
}
