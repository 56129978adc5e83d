# A link for the spring interns: they join as members of the interns'
# channel, and the link stops working after two weeks. Changing anything
# makes a new link (the old one is revoked); hand out `link` (sensitive).
resource "zulip_channel" "interns" {
  name        = "interns"
  description = "Questions and announcements for interns."
}

resource "zulip_invite_link" "interns" {
  role                        = "member"
  channel_ids                 = [zulip_channel.interns.id]
  expires_in_minutes          = 14 * 24 * 60
  welcome_message_custom_text = "Welcome! Start with the #**interns** channel."
}

output "interns_link" {
  value     = zulip_invite_link.interns.link
  sensitive = true
}
